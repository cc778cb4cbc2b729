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

    /// The schema the tables are in (several sites may share one database, each in its
    /// schema; their processes must not hear each other).
    pub fn schema_name(&self) -> Result<String, StoreError> {
        Ok(self
            .db
            .borrow_mut()
            .query_one("SELECT current_schema()", &[])?
            .try_get(0)?)
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

/// Listens on channels of the bus: its own connection, which does nothing else.
pub struct Listener {
    client: Client,
}

impl Listener {
    /// Connects to `url` and listens on `channels`.
    pub fn connect(url: &str, channels: &[&str]) -> Result<Listener, StoreError> {
        for channel in channels {
            check_channel(channel)?;
        }
        let mut client = Client::connect(url, NoTls)?;
        for channel in channels {
            client.batch_execute(&format!("LISTEN \"{channel}\""))?;
        }
        Ok(Listener { client })
    }

    /// The payloads sent on the channels, in the order they were committed: those waiting,
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
    /// Its statement, prepared once.
    prepared: crate::postgres::Prepared,
}

impl Notifier {
    /// Connects to `url`.
    pub fn connect(url: &str) -> Result<Notifier, StoreError> {
        Ok(Notifier {
            client: Client::connect(url, NoTls)?,
            prepared: Default::default(),
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
        let statement = self.prepared.get(
            &mut self.client,
            "SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) WITH ORDINALITY
                 AS m(c, p, n) ORDER BY n",
        )?;
        self.client.execute(&statement, &[&channels, &payloads])?;
        Ok(())
    }
}

/// A live game that waits for a player (a room in the lobby, a challenge), as the processes
/// list it from the database.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenGame {
    /// Its public id.
    pub id: String,
    /// When it was made.
    pub created_ms: u64,
    /// Its settings, as the server wrote them.
    pub settings: String,
    /// Sente's and Gote's player ids, where seated.
    pub players: [Option<String>; 2],
    /// The seated player's name, as typed.
    pub host: String,
    /// The seated player's rating.
    pub rating: f64,
}

impl PostgresStore {
    /// The live games with one player and no move, oldest first, at most `limit`: rooms
    /// waiting for a second player and challenges waiting for an answer (a game against
    /// the CPU, whose seat has no player, is among them until its first move).
    pub fn open_games(&self, limit: usize) -> Result<Vec<OpenGame>, StoreError> {
        let rows = self.db.borrow_mut().query(
            "SELECT g.id, g.created_ms, g.settings, g.sente_player, g.gote_player, p.name,
                 p.rating
             FROM games g JOIN players p ON p.id = COALESCE(g.sente_player, g.gote_player)
             WHERE g.ended_ms IS NULL
                 AND (g.sente_player IS NULL) <> (g.gote_player IS NULL)
                 AND NOT EXISTS (SELECT 1 FROM moves m WHERE m.game_id = g.id)
             ORDER BY g.created_ms, g.serial LIMIT $1",
            &[&(limit as i64)],
        )?;
        rows.iter()
            .map(|row| {
                Ok(OpenGame {
                    id: row.try_get(0)?,
                    created_ms: row.try_get::<_, i64>(1)? as u64,
                    settings: row.try_get(2)?,
                    players: [row.try_get(3)?, row.try_get(4)?],
                    host: row.try_get(5)?,
                    rating: row.try_get(6)?,
                })
            })
            .collect()
    }

    /// The live games being played (both seats filled: by two players, or by one and the
    /// CPU): how many, and `player`'s among them (each id and whether they are Sente),
    /// oldest first.
    pub fn games_played(&self, player: &str) -> Result<(usize, Vec<(String, bool)>), StoreError> {
        let mut db = self.db.borrow_mut();
        const PLAYED: &str = "g.ended_ms IS NULL
            AND (g.sente_player IS NOT NULL OR g.sente_name <> '')
            AND (g.gote_player IS NOT NULL OR g.gote_name <> '')";
        let count: i64 = db
            .query_one(&format!("SELECT COUNT(*) FROM games g WHERE {PLAYED}"), &[])?
            .try_get(0)?;
        let rows = db.query(
            &format!(
                "SELECT g.id, g.sente_player = $1 AND g.sente_player IS NOT NULL FROM games g
                 WHERE {PLAYED} AND (g.sente_player = $1 OR g.gote_player = $1)
                 ORDER BY g.created_ms, g.serial"
            ),
            &[&player],
        )?;
        let games = rows
            .iter()
            .map(|row| Ok((row.try_get(0)?, row.try_get(1)?)))
            .collect::<Result<Vec<_>, StoreError>>()?;
        Ok((count as usize, games))
    }
}
