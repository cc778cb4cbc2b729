//! The store on SQLite: one file, compiled in, created and migrated on first start.

use crate::*;
use rusqlite::{params, Connection, OptionalExtension, Row};

/// The store on SQLite: one connection.
pub struct SqliteStore {
    db: Connection,
}

impl SqliteStore {
    /// Opens the database at `path`, creating it (readable by its owner only) and migrating
    /// it as needed. A path that is not a regular file is refused.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        prepare_file(path)?;
        let db = Connection::open(path)?;
        SqliteStore::with_connection(db)
    }

    /// A database in memory, for tests.
    pub fn in_memory() -> Result<SqliteStore, StoreError> {
        SqliteStore::with_connection(Connection::open_in_memory()?)
    }

    fn with_connection(mut db: Connection) -> Result<SqliteStore, StoreError> {
        // WAL: readers do not block the writer; FULL: each commit is synced before it
        // returns, so an acknowledged move survives a crash of the machine, not only of
        // the process.
        db.pragma_update(None, "journal_mode", "WAL")?;
        db.pragma_update(None, "synchronous", "FULL")?;
        db.pragma_update(None, "foreign_keys", "ON")?;
        db.busy_timeout(std::time::Duration::from_secs(5))?;
        schema::migrate(&mut db)?;
        Ok(SqliteStore { db })
    }

    /// Starts a batch: the writes that follow are one transaction (each call still all or
    /// nothing within it), durable only once [`Store::commit_batch`] returns.
    pub fn begin_batch(&mut self) -> Result<(), StoreError> {
        self.db.execute_batch("BEGIN IMMEDIATE")?;
        Ok(())
    }

    /// Commits the batch: when this returns, every write in it is on disk.
    pub fn commit_batch(&mut self) -> Result<(), StoreError> {
        self.db.execute_batch("COMMIT")?;
        Ok(())
    }

    /// Drops the batch: none of its writes happened.
    pub fn rollback_batch(&mut self) {
        if !self.db.is_autocommit() {
            let _ = self.db.execute_batch("ROLLBACK");
        }
    }

    /// Keeps a new game.
    pub fn create_game(&mut self, game: &NewGame) -> Result<(), StoreError> {
        let [s, g] = &game.seats;
        self.db.execute(
            "INSERT INTO games (id, created_ms, rules, max_plies, start_sfen, settings,
                sente_player, sente_name, sente_seat, gote_player, gote_name, gote_seat)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            params![
                game.id,
                game.created_ms as i64,
                game.rules.name(),
                game.rules.max_plies,
                game.start.to_sfen(),
                game.settings,
                s.player,
                s.name,
                s.seat.map(|h| h.0.to_vec()),
                g.player,
                g.name,
                g.seat.map(|h| h.0.to_vec()),
            ],
        )?;
        Ok(())
    }

    /// Gives a seat to a person (a player joining a room, or coming back after the CPU
    /// played for them): their id, name and seat hash.
    pub fn set_seat(&mut self, id: &str, side: Color, seat: &SeatRecord) -> Result<(), StoreError> {
        let sql = match side {
            Color::Sente => {
                "UPDATE games SET sente_player = ?2, sente_name = ?3, sente_seat = ?4 WHERE id = ?1"
            }
            Color::Gote => {
                "UPDATE games SET gote_player = ?2, gote_name = ?3, gote_seat = ?4 WHERE id = ?1"
            }
        };
        let seat_hash = seat.seat.map(|h| h.0.to_vec());
        match self
            .db
            .execute(sql, params![id, seat.player, seat.name, seat_hash])?
        {
            0 => Err(StoreError::NoSuchGame(id.to_string())),
            _ => Ok(()),
        }
    }

    /// Keeps the move of ply `ply` (0 for the first move): only the next ply of a game that
    /// has not ended. When this returns, the move is on disk.
    pub fn add_move(&mut self, id: &str, ply: usize, mv: &StoredMove) -> Result<(), StoreError> {
        self.write(|tx| {
            check_next_ply(id, ply, open_game_plies(tx, id)?)?;
            // Prepared once per connection: a move is the store's most frequent write.
            tx.prepare_cached(
                "INSERT INTO moves (game_id, ply, usi, sente_ms, gote_ms, at_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?
            .execute(params![
                id,
                ply as i64,
                mv.mv.to_string(),
                mv.clocks_ms[0] as i64,
                mv.clocks_ms[1] as i64,
                mv.at_ms as i64
            ])?;
            Ok(())
        })
    }

    /// One write that reads first, all or nothing: a transaction that takes the write lock
    /// at its start (another connection's writer waits its turn, rather than both reading
    /// and then neither able to write), or a savepoint within a batch, which holds the lock.
    fn write<T>(
        &mut self,
        work: impl FnOnce(&Connection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        if self.db.is_autocommit() {
            let tx = self
                .db
                .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let value = work(&tx)?;
            tx.commit()?;
            Ok(value)
        } else {
            let tx = self.db.savepoint()?;
            let value = work(&tx)?;
            tx.commit()?;
            Ok(value)
        }
    }

    /// Takes back every move from ply `from` on (a takeback both players agreed to).
    pub fn take_back(&mut self, id: &str, from: usize) -> Result<(), StoreError> {
        self.write(|tx| {
            open_game_plies(tx, id)?;
            tx.execute(
                "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
                params![id, from as i64],
            )?;
            Ok(())
        })
    }

    /// Ends a game, once: an ended game keeps its first ending.
    pub fn finish(&mut self, id: &str, result: &GameResult) -> Result<(), StoreError> {
        self.write(|tx| {
            open_game_plies(tx, id)?;
            tx.execute(
                "UPDATE games SET winner = ?2, reason = ?3, ended_ms = ?4 WHERE id = ?1",
                params![
                    id,
                    result.winner.map(records::color_word),
                    result.reason,
                    result.ended_ms as i64
                ],
            )?;
            Ok(())
        })
    }

    /// The game `id`, with its moves played again; `None` if there is none.
    pub fn game(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let head = self
            .db
            .query_row(
                "SELECT id, created_ms, rules, max_plies, start_sfen, settings,
                    sente_player, sente_name, sente_seat, gote_player, gote_name, gote_seat,
                    winner, reason, ended_ms
                 FROM games WHERE id = ?1",
                params![id],
                read_head,
            )
            .optional()?;
        head.map(|head| self.complete(head)).transpose()
    }

    /// The newest game whose Sente seat is held by the secret that hashes to `seat`.
    pub fn latest_game_of_seat(&self, seat: SecretHash) -> Result<Option<StoredGame>, StoreError> {
        let id: Option<String> = self
            .db
            .query_row(
                "SELECT id FROM games WHERE sente_seat = ?1 ORDER BY created_ms DESC, rowid DESC
                 LIMIT 1",
                params![seat.0.to_vec()],
                |row| row.get(0),
            )
            .optional()?;
        match id {
            Some(id) => self.game(&id),
            None => Ok(None),
        }
    }

    /// Every game that has not ended (to take up again after a restart), oldest first.
    pub fn live_games(&self) -> Result<Vec<StoredGame>, StoreError> {
        let mut statement = self.db.prepare(
            "SELECT id, created_ms, rules, max_plies, start_sfen, settings,
                sente_player, sente_name, sente_seat, gote_player, gote_name, gote_seat,
                winner, reason, ended_ms
             FROM games WHERE ended_ms IS NULL ORDER BY created_ms, id",
        )?;
        let heads = statement
            .query_map([], read_head)?
            .collect::<Result<Vec<_>, _>>()?;
        heads.into_iter().map(|head| self.complete(head)).collect()
    }

    /// The player's games, newest first, at most `limit`.
    pub fn games_of(&self, player: &str, limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        let mut statement = self.db.prepare(
            "SELECT g.id, g.created_ms, g.sente_name, g.gote_name, g.sente_player,
                g.gote_player, g.winner, g.reason, g.ended_ms,
                (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id)
             FROM games g WHERE g.sente_player = ?1 OR g.gote_player = ?1
             ORDER BY g.created_ms DESC, g.id LIMIT ?2",
        )?;
        let rows = statement.query_map(params![player, limit as i64], |row| {
            Ok(GameSummary {
                id: row.get(0)?,
                created_ms: row.get::<_, i64>(1)? as u64,
                names: [row.get(2)?, row.get(3)?],
                players: [row.get(4)?, row.get(5)?],
                result: read_result(row, 6)?,
                plies: row.get::<_, i64>(9)? as usize,
            })
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// Keeps a new player under the hash of their key.
    pub fn create_player(
        &mut self,
        player: &PlayerRecord,
        key: SecretHash,
        created_ms: u64,
    ) -> Result<(), StoreError> {
        let r = player.rating;
        self.db.execute(
            "INSERT INTO players (id, key_hash, name, rating, deviation, volatility, games,
                created_ms, bot) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                player.id,
                key.0.to_vec(),
                player.name,
                r.rating,
                r.deviation,
                r.volatility,
                player.games,
                created_ms as i64,
                player.bot
            ],
        )?;
        Ok(())
    }

    /// The player whose key hashes to `key`.
    pub fn player_by_key(&self, key: SecretHash) -> Result<Option<PlayerRecord>, StoreError> {
        self.player_where("key_hash = ?1", key.0.to_vec())
    }

    /// The player with this public id.
    pub fn player(&self, id: &str) -> Result<Option<PlayerRecord>, StoreError> {
        self.player_where("id = ?1", id.to_string())
    }

    fn player_where(
        &self,
        condition: &str,
        value: impl rusqlite::ToSql,
    ) -> Result<Option<PlayerRecord>, StoreError> {
        // `condition` is one of this file's own; the value is bound.
        let sql = format!(
            "SELECT id, name, rating, deviation, volatility, games, bot FROM players WHERE {condition}"
        );
        Ok(self
            .db
            .query_row(&sql, params![value], |row| {
                Ok(PlayerRecord {
                    id: row.get(0)?,
                    name: row.get(1)?,
                    rating: StoredRating {
                        rating: row.get(2)?,
                        deviation: row.get(3)?,
                        volatility: row.get(4)?,
                    },
                    games: row.get(5)?,
                    bot: row.get(6)?,
                })
            })
            .optional()?)
    }

    /// Makes a player a bot (lishogi's account upgrade), which only a player with no rated
    /// game may become; whether they are one now.
    pub fn make_bot(&mut self, id: &str) -> Result<bool, StoreError> {
        self.db.execute(
            "UPDATE players SET bot = 1 WHERE id = ?1 AND games = 0",
            params![id],
        )?;
        Ok(self.player(id)?.is_some_and(|p| p.bot))
    }

    /// Sets a player's rating after a rated game.
    pub fn set_rating(&mut self, id: &str, rating: StoredRating) -> Result<(), StoreError> {
        self.db.execute(
            "UPDATE players SET rating = ?2, deviation = ?3, volatility = ?4, games = games + 1
             WHERE id = ?1",
            params![id, rating.rating, rating.deviation, rating.volatility],
        )?;
        Ok(())
    }

    /// A stored game's moves, played again.
    fn complete(&self, head: GameHead) -> Result<StoredGame, StoreError> {
        let mut statement = self.db.prepare_cached(
            "SELECT ply, usi, sente_ms, gote_ms, at_ms FROM moves WHERE game_id = ?1
             ORDER BY ply",
        )?;
        let rows = statement
            .query_map(params![head.id], |row| {
                Ok((
                    row.get::<_, i64>(0)?,
                    row.get::<_, String>(1)?,
                    [row.get::<_, i64>(2)? as u64, row.get::<_, i64>(3)? as u64],
                    row.get::<_, i64>(4)? as u64,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        replay(head, rows)
    }
}

/// A game's row (the columns `live_games` and `game` select), before its moves are read.
fn read_head(row: &Row) -> rusqlite::Result<GameHead> {
    let seat = |at: usize| -> rusqlite::Result<SeatRecord> {
        Ok(SeatRecord {
            player: row.get(at)?,
            name: row.get(at + 1)?,
            seat: seat_hash(row.get(at + 2)?),
        })
    };
    Ok(GameHead {
        id: row.get(0)?,
        created_ms: row.get::<_, i64>(1)? as u64,
        rules: row.get(2)?,
        max_plies: row.get(3)?,
        start_sfen: row.get(4)?,
        settings: row.get(5)?,
        seats: [seat(6)?, seat(9)?],
        result: read_result(row, 12)?,
    })
}

/// The ending in columns `at` (winner), `at + 1` (reason), `at + 2` (when).
fn read_result(row: &Row, at: usize) -> rusqlite::Result<Option<GameResult>> {
    Ok(result_of(row.get(at)?, row.get(at + 1)?, row.get(at + 2)?))
}

/// The number of moves of game `id`, which must exist and not have ended.
fn open_game_plies(db: &Connection, id: &str) -> Result<usize, StoreError> {
    let ended: Option<Option<i64>> = db
        .prepare_cached("SELECT ended_ms FROM games WHERE id = ?1")?
        .query_row(params![id], |row| row.get(0))
        .optional()?;
    match ended {
        None => Err(StoreError::NoSuchGame(id.to_string())),
        Some(Some(_)) => Err(StoreError::GameOver(id.to_string())),
        Some(None) => {
            let n: i64 = db
                .prepare_cached("SELECT COUNT(*) FROM moves WHERE game_id = ?1")?
                .query_row(params![id], |row| row.get(0))?;
            Ok(n as usize)
        }
    }
}

/// Makes sure `path` is a regular file readable by its owner only (created so if absent):
/// the database holds every game and the hashes of every seat.
fn prepare_file(path: &Path) -> Result<(), StoreError> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let fail = |why: String| StoreError::File(path.to_path_buf(), why);
    match std::fs::symlink_metadata(path) {
        Ok(meta) if !meta.file_type().is_file() => {
            Err(fail("not a regular file (a database is one file)".into()))
        }
        Ok(meta) => {
            if meta.permissions().mode() & 0o077 != 0 {
                log::warn!(
                    "{} was readable by others: now by its owner only",
                    path.display()
                );
                std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
                    .map_err(|e| fail(format!("cannot make it private: {e}")))?;
            }
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path)
            .map(drop)
            .map_err(|e| fail(format!("cannot create it: {e}"))),
        Err(e) => Err(fail(e.to_string())),
    }
}
