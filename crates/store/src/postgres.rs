//! The store on PostgreSQL, which several server processes share: the same tables and
//! meanings as on SQLite ([`crate::schema`] has both dialects, with the same version
//! numbers). A game's row is locked (`FOR UPDATE`) while a move, a takeback or an ending is
//! written, and a move's key is its game and ply, so two processes can never both store a
//! move for the same ply.

use crate::*;
use ::postgres::{Client, NoTls, Row, Statement};
use std::cell::RefCell;
use std::collections::HashMap;

/// The store on PostgreSQL: one connection.
pub struct PostgresStore {
    pub(crate) db: RefCell<Client>,
    /// Whether a batch (a transaction of several writes) is open.
    in_batch: bool,
    /// Whether a statement of the open batch failed outside a savepoint: PostgreSQL then
    /// turns the batch's COMMIT into a rollback without an error, so it is refused here.
    batch_broken: bool,
    /// The statements of the hot paths, prepared once on this connection.
    prepared: Prepared,
}

/// Statements prepared once on one connection: a text query costs a round trip of its own
/// to be parsed and planned, every time it is sent.
#[derive(Default)]
pub(crate) struct Prepared(HashMap<&'static str, Statement>);

impl Prepared {
    /// `sql` prepared on `client` (the connection this cache belongs to), once.
    pub(crate) fn get(
        &mut self,
        client: &mut Client,
        sql: &'static str,
    ) -> Result<Statement, ::postgres::Error> {
        if let Some(statement) = self.0.get(sql) {
            return Ok(statement.clone());
        }
        let statement = client.prepare(sql)?;
        self.0.insert(sql, statement.clone());
        Ok(statement)
    }
}

impl PostgresStore {
    /// Connects to `url` and migrates the schema; with `schema`, the tables live in that
    /// schema (created if need be) rather than the connection's default: tests use one
    /// each, and one database can hold several sites.
    pub fn connect(url: &str, schema: Option<&str>) -> Result<PostgresStore, StoreError> {
        let mut db = Client::connect(url, NoTls)?;
        if let Some(schema) = schema {
            // A schema's name cannot be a bound parameter: only letters, digits and `_`.
            if schema.is_empty()
                || !schema
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_')
            {
                return Err(StoreError::TooLong {
                    what: "schema name (letters, digits and _)",
                    max: 63,
                });
            }
            db.batch_execute(&format!(
                "CREATE SCHEMA IF NOT EXISTS {schema}; SET search_path TO {schema}"
            ))?;
        }
        schema::migrate_postgres(&mut db)?;
        Ok(PostgresStore {
            db: RefCell::new(db),
            in_batch: false,
            batch_broken: false,
            prepared: Prepared::default(),
        })
    }

    /// Starts a batch: the writes that follow are one transaction.
    pub fn begin_batch(&mut self) -> Result<(), StoreError> {
        self.db.get_mut().batch_execute("BEGIN")?;
        self.in_batch = true;
        self.batch_broken = false;
        Ok(())
    }

    /// Commits the batch.
    pub fn commit_batch(&mut self) -> Result<(), StoreError> {
        self.in_batch = false;
        if std::mem::take(&mut self.batch_broken) {
            let _ = self.db.get_mut().batch_execute("ROLLBACK");
            return Err(StoreError::BatchFailed);
        }
        self.db.get_mut().batch_execute("COMMIT")?;
        Ok(())
    }

    /// Drops the batch.
    pub fn rollback_batch(&mut self) {
        if self.in_batch {
            self.in_batch = false;
            let _ = self.db.get_mut().batch_execute("ROLLBACK");
        }
    }

    /// One write, all or nothing: its own transaction, or a savepoint within a batch.
    pub(crate) fn write<T>(
        &mut self,
        work: impl FnOnce(&mut Client) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let db = self.db.get_mut();
        let (begin, keep, undo) = match self.in_batch {
            true => (
                "SAVEPOINT one_write",
                "RELEASE SAVEPOINT one_write",
                "ROLLBACK TO SAVEPOINT one_write",
            ),
            false => ("BEGIN", "COMMIT", "ROLLBACK"),
        };
        db.batch_execute(begin)?;
        match work(db) {
            Ok(value) => {
                db.batch_execute(keep)?;
                Ok(value)
            }
            Err(e) => {
                let _ = db.batch_execute(undo);
                Err(e)
            }
        }
    }

    /// Keeps a new game.
    pub fn create_game(&mut self, game: &NewGame) -> Result<(), StoreError> {
        let [s, g] = &game.seats;
        self.write(|tx| {
            tx.execute(
                "INSERT INTO games (id, created_ms, rules, max_plies, start_sfen, settings,
                    sente_player, sente_name, sente_seat, gote_player, gote_name, gote_seat)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
                &[
                    &game.id,
                    &(game.created_ms as i64),
                    &game.rules.name(),
                    &game.rules.max_plies.map(|n| n as i32),
                    &game.start.to_sfen(),
                    &game.settings,
                    &s.player,
                    &s.name,
                    &s.seat.map(|h| h.0.to_vec()),
                    &g.player,
                    &g.name,
                    &g.seat.map(|h| h.0.to_vec()),
                ],
            )?;
            Ok(())
        })
    }

    /// Gives a seat to a person.
    pub fn set_seat(&mut self, id: &str, side: Color, seat: &SeatRecord) -> Result<(), StoreError> {
        let sql = match side {
            Color::Sente => {
                "UPDATE games SET sente_player = $2, sente_name = $3, sente_seat = $4 WHERE id = $1"
            }
            Color::Gote => {
                "UPDATE games SET gote_player = $2, gote_name = $3, gote_seat = $4 WHERE id = $1"
            }
        };
        let hash = seat.seat.map(|h| h.0.to_vec());
        self.write(
            |tx| match tx.execute(sql, &[&id, &seat.player, &seat.name, &hash])? {
                0 => Err(StoreError::NoSuchGame(id.to_string())),
                _ => Ok(()),
            },
        )
    }

    /// Keeps the move of ply `ply`: only the next ply of a game that has not ended.
    ///
    /// One statement, one round trip and no savepoint (a move is the store's commonest
    /// write): the game's row locked, the next ply counted and the move inserted only if it
    /// is for that ply and the game is live; what it found says why not. A move's key being
    /// (game, ply), two writers can never both store one ply.
    pub fn add_move(&mut self, id: &str, ply: usize, mv: &StoredMove) -> Result<(), StoreError> {
        let statement = self.prepared.get(
            self.db.get_mut(),
            "WITH g AS (SELECT ended_ms FROM games WHERE id = $1 FOR UPDATE),
                  n AS (SELECT COUNT(*) AS plies FROM moves WHERE game_id = $1),
                  added AS (
                      INSERT INTO moves (game_id, ply, usi, sente_ms, gote_ms, at_ms)
                      SELECT $1, ($2::bigint)::integer, $3, $4, $5, $6 FROM g, n
                      WHERE g.ended_ms IS NULL AND n.plies = $2::bigint
                      ON CONFLICT DO NOTHING RETURNING 1)
             SELECT (SELECT COUNT(*) FROM g), (SELECT COUNT(*) FROM g WHERE ended_ms IS NULL),
                    (SELECT plies FROM n), (SELECT COUNT(*) FROM added)",
        );
        let found = statement.and_then(|statement| {
            self.db.get_mut().query_one(
                &statement,
                &[
                    &id,
                    &(ply as i64),
                    &mv.mv.to_string(),
                    &(mv.clocks_ms[0] as i64),
                    &(mv.clocks_ms[1] as i64),
                    &(mv.at_ms as i64),
                ],
            )
        });
        let row = match found {
            Ok(row) => row,
            Err(e) => {
                self.batch_broken |= self.in_batch;
                return Err(e.into());
            }
        };
        let [exists, live, plies, added]: [i64; 4] = [
            row.try_get(0)?,
            row.try_get(1)?,
            row.try_get(2)?,
            row.try_get(3)?,
        ];
        match (exists, live, added) {
            (0, _, _) => Err(StoreError::NoSuchGame(id.to_string())),
            (_, 0, _) => Err(StoreError::GameOver(id.to_string())),
            (_, _, 1) => Ok(()),
            // The count may be a moment old (another writer's move committed meanwhile):
            // then the ply was taken.
            _ => match check_next_ply(id, ply, plies as usize) {
                Ok(()) => Err(StoreError::PlyTaken {
                    game: id.to_string(),
                    ply,
                }),
                Err(e) => Err(e),
            },
        }
    }

    /// Takes back every move from ply `from` on.
    pub fn take_back(&mut self, id: &str, from: usize) -> Result<(), StoreError> {
        self.write(|tx| {
            open_game_plies(tx, id)?;
            tx.execute(
                "DELETE FROM moves WHERE game_id = $1 AND ply >= $2",
                &[&id, &(from as i32)],
            )?;
            Ok(())
        })
    }

    /// Ends a game, once.
    pub fn finish(&mut self, id: &str, result: &GameResult) -> Result<(), StoreError> {
        self.write(|tx| {
            open_game_plies(tx, id)?;
            tx.execute(
                "UPDATE games SET winner = $2, reason = $3, ended_ms = $4 WHERE id = $1",
                &[
                    &id,
                    &result.winner.map(records::color_word),
                    &result.reason,
                    &(result.ended_ms as i64),
                ],
            )?;
            Ok(())
        })
    }

    /// The game `id`, with its moves played again.
    pub fn game(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let row = self.db.borrow_mut().query_opt(
            &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"),
            &[&id],
        )?;
        row.map(|row| self.complete(read_head(&row)?)).transpose()
    }

    /// The newest game whose Sente seat is held by the secret that hashes to `seat`.
    pub fn latest_game_of_seat(&self, seat: SecretHash) -> Result<Option<StoredGame>, StoreError> {
        let row = self.db.borrow_mut().query_opt(
            "SELECT id FROM games WHERE sente_seat = $1 ORDER BY created_ms DESC, serial DESC
             LIMIT 1",
            &[&seat.0.to_vec()],
        )?;
        match row {
            Some(row) => self.game(row.try_get::<_, &str>(0)?),
            None => Ok(None),
        }
    }

    /// Every game that has not ended, oldest first.
    pub fn live_games(&self) -> Result<Vec<StoredGame>, StoreError> {
        let rows = self.db.borrow_mut().query(
            &format!(
                "SELECT {GAME_COLUMNS} FROM games WHERE ended_ms IS NULL ORDER BY created_ms, id"
            ),
            &[],
        )?;
        let heads = rows.iter().map(read_head).collect::<Result<Vec<_>, _>>()?;
        heads.into_iter().map(|head| self.complete(head)).collect()
    }

    /// The player's games, newest first, at most `limit`.
    pub fn games_of(&self, player: &str, limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        let rows = self.db.borrow_mut().query(
            "SELECT g.id, g.created_ms, g.sente_name, g.gote_name, g.sente_player,
                g.gote_player, g.winner, g.reason, g.ended_ms,
                (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id)
             FROM games g WHERE g.sente_player = $1 OR g.gote_player = $1
             ORDER BY g.created_ms DESC, g.id LIMIT $2",
            &[&player, &(limit as i64)],
        )?;
        rows.iter()
            .map(|row| {
                Ok(GameSummary {
                    id: row.try_get(0)?,
                    created_ms: row.try_get::<_, i64>(1)? as u64,
                    names: [row.try_get(2)?, row.try_get(3)?],
                    players: [row.try_get(4)?, row.try_get(5)?],
                    result: result_of(row.try_get(6)?, row.try_get(7)?, row.try_get(8)?),
                    plies: row.try_get::<_, i64>(9)? as usize,
                })
            })
            .collect()
    }

    /// Keeps a new player under the hash of their key.
    pub fn create_player(
        &mut self,
        player: &PlayerRecord,
        key: SecretHash,
        created_ms: u64,
    ) -> Result<(), StoreError> {
        let r = player.rating;
        self.write(|tx| {
            tx.execute(
                "INSERT INTO players (id, key_hash, name, rating, deviation, volatility, games,
                    created_ms, bot) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                &[
                    &player.id,
                    &key.0.to_vec(),
                    &player.name,
                    &r.rating,
                    &r.deviation,
                    &r.volatility,
                    &(player.games as i32),
                    &(created_ms as i64),
                    &player.bot,
                ],
            )?;
            Ok(())
        })
    }

    /// The player whose key hashes to `key`.
    pub fn player_by_key(&self, key: SecretHash) -> Result<Option<PlayerRecord>, StoreError> {
        let row = self.db.borrow_mut().query_opt(
            &format!("SELECT {PLAYER_COLUMNS} FROM players WHERE key_hash = $1"),
            &[&key.0.to_vec()],
        )?;
        row.map(|row| read_player(&row)).transpose()
    }

    /// The player with this public id.
    pub fn player(&self, id: &str) -> Result<Option<PlayerRecord>, StoreError> {
        let row = self.db.borrow_mut().query_opt(
            &format!("SELECT {PLAYER_COLUMNS} FROM players WHERE id = $1"),
            &[&id],
        )?;
        row.map(|row| read_player(&row)).transpose()
    }

    /// Makes a player a bot, if they have no rated game; whether they are one now.
    pub fn make_bot(&mut self, id: &str) -> Result<bool, StoreError> {
        self.write(|tx| {
            tx.execute(
                "UPDATE players SET bot = TRUE WHERE id = $1 AND games = 0",
                &[&id],
            )?;
            Ok(())
        })?;
        Ok(self.player(id)?.is_some_and(|p| p.bot))
    }

    /// Sets a player's rating after a rated game.
    pub fn set_rating(&mut self, id: &str, rating: StoredRating) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.execute(
                "UPDATE players SET rating = $2, deviation = $3, volatility = $4,
                    games = games + 1 WHERE id = $1",
                &[&id, &rating.rating, &rating.deviation, &rating.volatility],
            )?;
            Ok(())
        })
    }

    fn complete(&self, head: GameHead) -> Result<StoredGame, StoreError> {
        let rows = self.db.borrow_mut().query(
            "SELECT ply, usi, sente_ms, gote_ms, at_ms FROM moves WHERE game_id = $1
             ORDER BY ply",
            &[&head.id],
        )?;
        let rows = rows
            .iter()
            .map(|row| -> Result<MoveRow, StoreError> {
                Ok((
                    i64::from(row.try_get::<_, i32>(0)?),
                    row.try_get(1)?,
                    [
                        row.try_get::<_, i64>(2)? as u64,
                        row.try_get::<_, i64>(3)? as u64,
                    ],
                    row.try_get::<_, i64>(4)? as u64,
                ))
            })
            .collect::<Result<Vec<_>, _>>()?;
        replay(head, rows)
    }
}

/// The columns of a game's row, in [`read_head`]'s order.
const GAME_COLUMNS: &str = "id, created_ms, rules, max_plies, start_sfen, settings,
    sente_player, sente_name, sente_seat, gote_player, gote_name, gote_seat,
    winner, reason, ended_ms";

/// The columns of a player's row, in [`read_player`]'s order.
const PLAYER_COLUMNS: &str = "id, name, rating, deviation, volatility, games, bot";

fn read_head(row: &Row) -> Result<GameHead, StoreError> {
    let seat = |at: usize| -> Result<SeatRecord, StoreError> {
        Ok(SeatRecord {
            player: row.try_get(at)?,
            name: row.try_get(at + 1)?,
            seat: seat_hash(row.try_get(at + 2)?),
        })
    };
    Ok(GameHead {
        id: row.try_get(0)?,
        created_ms: row.try_get::<_, i64>(1)? as u64,
        rules: row.try_get(2)?,
        max_plies: row.try_get::<_, Option<i32>>(3)?.map(|n| n as u32),
        start_sfen: row.try_get(4)?,
        settings: row.try_get(5)?,
        seats: [seat(6)?, seat(9)?],
        result: result_of(row.try_get(12)?, row.try_get(13)?, row.try_get(14)?),
    })
}

fn read_player(row: &Row) -> Result<PlayerRecord, StoreError> {
    Ok(PlayerRecord {
        id: row.try_get(0)?,
        name: row.try_get(1)?,
        rating: StoredRating {
            rating: row.try_get(2)?,
            deviation: row.try_get(3)?,
            volatility: row.try_get(4)?,
        },
        games: row.try_get::<_, i32>(5)? as u32,
        bot: row.try_get(6)?,
    })
}

/// The number of moves of game `id`, which must exist and not have ended; its row stays
/// locked until the write's end, so writers of one game (in any process) take turns.
fn open_game_plies(tx: &mut Client, id: &str) -> Result<usize, StoreError> {
    let row = tx.query_opt(
        "SELECT ended_ms FROM games WHERE id = $1 FOR UPDATE",
        &[&id],
    )?;
    let Some(row) = row else {
        return Err(StoreError::NoSuchGame(id.to_string()));
    };
    if row.try_get::<_, Option<i64>>(0)?.is_some() {
        return Err(StoreError::GameOver(id.to_string()));
    }
    let n: i64 = tx
        .query_one("SELECT COUNT(*) FROM moves WHERE game_id = $1", &[&id])?
        .try_get(0)?;
    Ok(n as usize)
}
