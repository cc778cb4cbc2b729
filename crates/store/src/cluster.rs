//! What several server processes on one PostgreSQL share besides the games: a lease on
//! each live game, which says the one process that judges its clock and plays its CPU
//! (renewed every second, taken over once it lapses), and a bus between the processes on
//! PostgreSQL's LISTEN/NOTIFY. SQLite serves one process, which judges every game: it has
//! no leases.
//!
//! A lease's time is the database's (`now()`), so the processes' clocks need not agree.

use crate::*;
use ::postgres::{fallible_iterator::FallibleIterator, Client, NoTls};
use std::time::Duration;

fn ttl_ms(ttl: Duration) -> f64 {
    ttl.as_millis() as f64
}

impl PostgresStore {
    /// Takes the lease on live game `id` for `holder` for `ttl`, if no one else holds it
    /// now; whether `holder` holds it.
    pub fn claim_game(
        &mut self,
        id: &str,
        holder: &str,
        ttl: Duration,
    ) -> Result<bool, StoreError> {
        self.write(|tx| {
            let rows = tx.query(
                "INSERT INTO game_leases (game, holder, expires)
                 SELECT id, $2, now() + $3 * interval '1 millisecond'
                 FROM games WHERE id = $1 AND ended_ms IS NULL
                 ON CONFLICT (game) DO UPDATE SET holder = excluded.holder,
                     expires = excluded.expires
                 WHERE game_leases.expires < now() OR game_leases.holder = excluded.holder
                 RETURNING game",
                &[&id, &holder, &ttl_ms(ttl)],
            )?;
            Ok(!rows.is_empty())
        })
    }

    /// Takes the lease for `holder` on at most `limit` live online games that no one holds
    /// now (their process died, or drained; or they were never leased); their ids.
    pub fn claim_lapsed_games(
        &mut self,
        holder: &str,
        ttl: Duration,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        self.write(|tx| {
            let rows = tx.query(
                "INSERT INTO game_leases (game, holder, expires)
                 SELECT g.id, $1, now() + $2 * interval '1 millisecond' FROM games g
                 WHERE g.ended_ms IS NULL
                     AND (g.sente_player IS NOT NULL OR g.gote_player IS NOT NULL)
                     AND NOT EXISTS (SELECT 1 FROM game_leases l
                                     WHERE l.game = g.id AND l.expires >= now())
                 ORDER BY g.created_ms LIMIT $3
                 ON CONFLICT (game) DO UPDATE SET holder = excluded.holder,
                     expires = excluded.expires
                 WHERE game_leases.expires < now()
                 RETURNING game",
                &[&holder, &ttl_ms(ttl), &(limit as i64)],
            )?;
            rows.iter()
                .map(|row| Ok(row.try_get(0)?))
                .collect::<Result<Vec<String>, StoreError>>()
        })
    }

    /// Renews, for `ttl`, the leases `holder` still holds on `games` (the rooms it runs,
    /// finished games' too while their pages stay); those games. A lease taken over by
    /// another process, let go or lapsed is not among them.
    pub fn renew_leases(
        &mut self,
        holder: &str,
        games: &[String],
        ttl: Duration,
    ) -> Result<Vec<String>, StoreError> {
        self.write(|tx| {
            let rows = tx.query(
                "UPDATE game_leases SET expires = now() + $3 * interval '1 millisecond'
                 WHERE holder = $1 AND game = ANY($2) AND expires >= now()
                 RETURNING game",
                &[&holder, &games, &ttl_ms(ttl)],
            )?;
            rows.iter()
                .map(|row| Ok(row.try_get(0)?))
                .collect::<Result<Vec<String>, StoreError>>()
        })
    }

    /// The process that holds game `id` now, if any.
    pub fn lease_holder(&self, id: &str) -> Result<Option<String>, StoreError> {
        Ok(self.lease_holders(&[id.to_string()])?.pop().map(|(_, h)| h))
    }

    /// Of the games `ids`, those held now (a finished game's room still runs while its
    /// pages stay): each with its holder.
    pub fn lease_holders(&self, ids: &[String]) -> Result<Vec<(String, String)>, StoreError> {
        let rows = self.db.borrow_mut().query(
            "SELECT game, holder FROM game_leases WHERE game = ANY($1) AND expires >= now()",
            &[&ids],
        )?;
        rows.iter()
            .map(|row| Ok((row.try_get(0)?, row.try_get(1)?)))
            .collect()
    }

    /// Lets go of every lease `holder` has (a process that drains): others may take the
    /// games up at once.
    pub fn release_leases(&mut self, holder: &str) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.execute(
                "UPDATE game_leases SET expires = now() - interval '1 second' WHERE holder = $1",
                &[&holder],
            )?;
            Ok(())
        })
    }
}

/// A channel's name on the bus: letters, digits and `_` only, at most 63 bytes (it is an
/// identifier in `LISTEN`, which takes no bound parameter).
fn check_channel(channel: &str) -> Result<(), StoreError> {
    let fits = !channel.is_empty()
        && channel.len() <= 63
        && channel
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    match fits {
        true => Ok(()),
        false => Err(StoreError::TooLong {
            what: "bus channel (a-z, 0-9 and _)",
            max: 63,
        }),
    }
}

/// The most a notification may carry (PostgreSQL's limit is 8,000 bytes; a sender splits
/// a longer message).
pub const MAX_NOTIFICATION: usize = 7_900;

/// Listens on one channel of the bus: its own connection, which does nothing else.
pub struct Listener {
    client: Client,
}

impl Listener {
    /// Connects to `url` and listens on `channel`.
    pub fn connect(url: &str, channel: &str) -> Result<Listener, StoreError> {
        check_channel(channel)?;
        let mut client = Client::connect(url, NoTls)?;
        client.batch_execute(&format!("LISTEN \"{channel}\""))?;
        Ok(Listener { client })
    }

    /// The payloads sent on the channel, in the order they were committed: those waiting,
    /// or the first to come within `timeout` with any that came with it (none: empty).
    pub fn wait(&mut self, timeout: Duration) -> Result<Vec<String>, StoreError> {
        let mut payloads = Vec::new();
        if let Some(n) = self.client.notifications().timeout_iter(timeout).next()? {
            payloads.push(n.payload().to_string());
        }
        // What came with it is taken without waiting again.
        let mut ready = self.client.notifications();
        let mut ready = ready.iter();
        while payloads.len() < 1024 {
            match ready.next()? {
                Some(n) => payloads.push(n.payload().to_string()),
                None => break,
            }
        }
        Ok(payloads)
    }
}

/// Sends on the bus: its own connection.
pub struct Notifier {
    client: Client,
}

impl Notifier {
    /// Connects to `url`.
    pub fn connect(url: &str) -> Result<Notifier, StoreError> {
        Ok(Notifier {
            client: Client::connect(url, NoTls)?,
        })
    }

    /// Sends each `(channel, payload)` in one transaction, in order: a listener gets them
    /// in this order, after what this notifier sent before.
    pub fn send(&mut self, messages: &[(String, String)]) -> Result<(), StoreError> {
        for (channel, payload) in messages {
            check_channel(channel)?;
            if payload.len() > MAX_NOTIFICATION {
                return Err(StoreError::TooLong {
                    what: "notification",
                    max: MAX_NOTIFICATION,
                });
            }
        }
        let (channels, payloads): (Vec<&str>, Vec<&str>) = messages
            .iter()
            .map(|(c, p)| (c.as_str(), p.as_str()))
            .unzip();
        self.client.execute(
            "SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) WITH ORDINALITY
                 AS m(c, p, n) ORDER BY n",
            &[&channels, &payloads],
        )?;
        Ok(())
    }
}
