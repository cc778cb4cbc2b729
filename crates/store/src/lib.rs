//! # gogo-store
//!
//! Where the online server keeps its games and players, behind one interface ([`Store`])
//! with two databases: SQLite, compiled in, in one file that is created and migrated
//! ([`schema`]) on first start (the default: nothing to install); and PostgreSQL
//! (`postgres://...`), which several server processes can share. Every write is a
//! transaction committed before the call returns (SQLite: to the write-ahead log with
//! `synchronous = FULL`; PostgreSQL: its own WAL, `synchronous_commit` on), so what the server
//! acknowledges after a call is on disk: a `kill -9` (or a power cut) loses none of it.
//! Under load the server groups writes into a batch ([`Store::begin_batch`]): one commit,
//! one sync for all of them, and none acknowledged before it. Every statement binds its
//! values; no text a person typed is ever part of SQL.
//!
//! The store checks what it can without the game's logic: a move is stored for the next
//! ply only, once; an ended game takes no more. Whether a move is legal, when a game ends and
//! who moves is the referee's; the store plays the moves again by the rules when it gives a
//! game back, and refuses a record they do not accept.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cluster;
mod postgres;
mod records;
pub mod schema;
mod secret;
mod sqlite;

pub use records::*;
pub use secret::{public_id, Secret, SecretHash};

pub use self::postgres::PostgresStore;
pub use sqlite::SqliteStore;

use gogo_rules::{Color, Game, Position, RuleSet};
use std::fmt;
use std::path::{Path, PathBuf};

/// Now, in ms since the Unix epoch: how every time the store keeps is written.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// What went wrong with the store.
#[derive(Debug)]
pub enum StoreError {
    /// SQLite failed (the disk is full, the file is not a database, ...).
    Sqlite(rusqlite::Error),
    /// PostgreSQL failed (the server is gone, a constraint was broken, ...).
    Postgres(::postgres::Error),
    /// The database path is not a regular file, or cannot be made one.
    File(PathBuf, String),
    /// The file was written by a newer gogo: it is left as it is.
    NewerSchema {
        /// Its schema version.
        found: u32,
        /// The newest this build knows.
        known: u32,
    },
    /// No game has this id.
    NoSuchGame(String),
    /// A move for this ply is already stored (a move sent twice).
    PlyTaken {
        /// The game.
        game: String,
        /// The ply asked for.
        ply: usize,
    },
    /// A move for a ply after the next one (plies cannot be skipped).
    PlyAhead {
        /// The game.
        game: String,
        /// The ply asked for.
        ply: usize,
        /// The next ply.
        next: usize,
    },
    /// The game has ended: it takes no more moves and no other ending.
    GameOver(String),
    /// A text is longer than the store keeps.
    TooLong {
        /// Which text.
        what: &'static str,
        /// Its limit.
        max: usize,
    },
    /// A write of a batch failed, so the batch was not kept (none of its writes happened).
    BatchFailed,
    /// What was asked for needs PostgreSQL.
    NeedsPostgres(&'static str),
    /// A stored game the rules do not accept (the file was changed by hand, or damaged).
    Corrupt {
        /// The game.
        game: String,
        /// What is wrong.
        why: String,
    },
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Sqlite(e) => write!(f, "database: {e}"),
            StoreError::Postgres(e) => write!(f, "PostgreSQL: {e}"),
            StoreError::File(path, why) => write!(f, "database file {}: {why}", path.display()),
            StoreError::NewerSchema { found, known } => write!(
                f,
                "the database has schema version {found}, newer than this build's {known}: \
                 run a newer gogo-gui, or give another --db"
            ),
            StoreError::NoSuchGame(id) => write!(f, "no game {id}"),
            StoreError::PlyTaken { game, ply } => {
                write!(f, "game {game}: ply {ply} is already played")
            }
            StoreError::PlyAhead { game, ply, next } => {
                write!(f, "game {game}: ply {ply} asked for, the next is {next}")
            }
            StoreError::GameOver(id) => write!(f, "game {id} is over"),
            StoreError::TooLong { what, max } => write!(f, "{what}: longer than {max}"),
            StoreError::BatchFailed => write!(f, "a write of the batch failed: none was kept"),
            StoreError::NeedsPostgres(what) => {
                write!(f, "{what} need PostgreSQL (--db postgres://...)")
            }
            StoreError::Corrupt { game, why } => write!(f, "stored game {game}: {why}"),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Sqlite(e)
    }
}

impl From<::postgres::Error> for StoreError {
    fn from(e: ::postgres::Error) -> StoreError {
        StoreError::Postgres(e)
    }
}

/// The store: one connection to one of the two databases, used from one thread at a time
/// (the server gives it a writer thread of its own). Each method means the same on both;
/// `crates/store/tests` runs every test against both.
pub enum Store {
    /// SQLite, in a file (or in memory).
    Sqlite(SqliteStore),
    /// PostgreSQL.
    Postgres(Box<PostgresStore>),
}

/// Calls the same method on whichever database the store is.
macro_rules! on_either {
    ($store:expr, $s:ident => $call:expr) => {
        match $store {
            Store::Sqlite($s) => $call,
            Store::Postgres($s) => $call,
        }
    };
}

impl Store {
    /// Opens the SQLite database at `path`, creating it (readable by its owner only) and
    /// migrating it as needed. A path that is not a regular file is refused.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        SqliteStore::open(path).map(Store::Sqlite)
    }

    /// A SQLite database in memory, for tests.
    pub fn in_memory() -> Result<Store, StoreError> {
        SqliteStore::in_memory().map(Store::Sqlite)
    }

    /// Connects to PostgreSQL at `url` (`postgres://user@host/db`, or
    /// `postgresql:///db?host=/var/run/postgresql` for its socket) and migrates its schema.
    pub fn connect(url: &str) -> Result<Store, StoreError> {
        PostgresStore::connect(url, None).map(|s| Store::Postgres(Box::new(s)))
    }

    /// The database `location` names: a `postgres://` or `postgresql://` URL, or else a
    /// SQLite file's path.
    pub fn open_location(location: &Path) -> Result<Store, StoreError> {
        match location.to_str() {
            Some(url) if is_postgres_url(url) => Store::connect(url),
            _ => Store::open(location),
        }
    }

    /// Starts a batch: the writes that follow are one transaction (each call still all or
    /// nothing within it), durable only once [`Store::commit_batch`] returns.
    pub fn begin_batch(&mut self) -> Result<(), StoreError> {
        on_either!(self, s => s.begin_batch())
    }

    /// Commits the batch: when this returns, every write in it is on disk.
    pub fn commit_batch(&mut self) -> Result<(), StoreError> {
        on_either!(self, s => s.commit_batch())
    }

    /// Drops the batch: none of its writes happened.
    pub fn rollback_batch(&mut self) {
        on_either!(self, s => s.rollback_batch())
    }

    /// Keeps a new game.
    pub fn create_game(&mut self, game: &NewGame) -> Result<(), StoreError> {
        check_len("settings", &game.settings, MAX_SETTINGS_BYTES)?;
        for seat in &game.seats {
            check_name(&seat.name)?;
        }
        on_either!(self, s => s.create_game(game))
    }

    /// Gives a seat to a person (a player joining a room, or coming back after the CPU
    /// played for them): their id, name and seat hash.
    pub fn set_seat(&mut self, id: &str, side: Color, seat: &SeatRecord) -> Result<(), StoreError> {
        check_name(&seat.name)?;
        on_either!(self, s => s.set_seat(id, side, seat))
    }

    /// Keeps the move of ply `ply` (0 for the first move): only the next ply of a game that
    /// has not ended. When this returns, the move is on disk. Two writers asking for the
    /// same ply at once: one wins, the other gets [`StoreError::PlyTaken`].
    pub fn add_move(&mut self, id: &str, ply: usize, mv: &StoredMove) -> Result<(), StoreError> {
        on_either!(self, s => s.add_move(id, ply, mv))
    }

    /// Takes back every move from ply `from` on (a takeback both players agreed to).
    pub fn take_back(&mut self, id: &str, from: usize) -> Result<(), StoreError> {
        on_either!(self, s => s.take_back(id, from))
    }

    /// Ends a game, once: an ended game keeps its first ending.
    pub fn finish(&mut self, id: &str, result: &GameResult) -> Result<(), StoreError> {
        check_len("reason", &result.reason, MAX_REASON_BYTES)?;
        on_either!(self, s => s.finish(id, result))
    }

    /// The game `id`, with its moves played again; `None` if there is none.
    pub fn game(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        on_either!(self, s => s.game(id))
    }

    /// The newest game whose Sente seat is held by the secret that hashes to `seat`.
    pub fn latest_game_of_seat(&self, seat: SecretHash) -> Result<Option<StoredGame>, StoreError> {
        on_either!(self, s => s.latest_game_of_seat(seat))
    }

    /// Every game that has not ended (to take up again after a restart), oldest first.
    pub fn live_games(&self) -> Result<Vec<StoredGame>, StoreError> {
        on_either!(self, s => s.live_games())
    }

    /// The player's games, newest first, at most `limit`.
    pub fn games_of(&self, player: &str, limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        on_either!(self, s => s.games_of(player, limit))
    }

    /// Keeps a new player under the hash of their key.
    pub fn create_player(
        &mut self,
        player: &PlayerRecord,
        key: SecretHash,
        created_ms: u64,
    ) -> Result<(), StoreError> {
        check_name(&player.name)?;
        on_either!(self, s => s.create_player(player, key, created_ms))
    }

    /// The player whose key hashes to `key`.
    pub fn player_by_key(&self, key: SecretHash) -> Result<Option<PlayerRecord>, StoreError> {
        on_either!(self, s => s.player_by_key(key))
    }

    /// The player with this public id.
    pub fn player(&self, id: &str) -> Result<Option<PlayerRecord>, StoreError> {
        on_either!(self, s => s.player(id))
    }

    /// Makes a player a bot (lishogi's account upgrade), which only a player with no rated
    /// game may become; whether they are one now.
    pub fn make_bot(&mut self, id: &str) -> Result<bool, StoreError> {
        on_either!(self, s => s.make_bot(id))
    }

    /// Sets a player's rating after a rated game.
    pub fn set_rating(&mut self, id: &str, rating: StoredRating) -> Result<(), StoreError> {
        on_either!(self, s => s.set_rating(id, rating))
    }

    /// The PostgreSQL store, on which several processes share the games through leases
    /// ([`cluster`]); SQLite (one process) has none.
    pub fn leases(&mut self) -> Result<&mut PostgresStore, StoreError> {
        match self {
            Store::Postgres(s) => Ok(s),
            Store::Sqlite(_) => Err(StoreError::NeedsPostgres("several server processes")),
        }
    }
}

/// `location` as it may be shown in a log: a URL's password is left out.
pub fn shown_location(location: &Path) -> String {
    let text = location.display().to_string();
    if !is_postgres_url(&text) {
        return text;
    }
    let (scheme, rest) = text.split_once("://").unwrap_or(("", &text));
    match rest.split_once('@') {
        Some((credentials, host)) => match credentials.split_once(':') {
            Some((user, _password)) => format!("{scheme}://{user}:***@{host}"),
            None => text,
        },
        None => text,
    }
}

/// Whether `location` is a PostgreSQL URL rather than a file's path.
pub fn is_postgres_url(location: &str) -> bool {
    location.starts_with("postgres://") || location.starts_with("postgresql://")
}

/// A game's row, before its moves are read (either database).
pub(crate) struct GameHead {
    pub(crate) id: String,
    pub(crate) created_ms: u64,
    pub(crate) rules: String,
    pub(crate) max_plies: Option<u32>,
    pub(crate) start_sfen: String,
    pub(crate) settings: String,
    pub(crate) seats: [SeatRecord; 2],
    pub(crate) result: Option<GameResult>,
}

/// A stored move's row: its ply, USI, both clocks and when it was played.
pub(crate) type MoveRow = (i64, String, [u64; 2], u64);

/// A stored game's moves played again by the rules: the record, or why the rules refuse it.
pub(crate) fn replay(head: GameHead, rows: Vec<MoveRow>) -> Result<StoredGame, StoreError> {
    let corrupt = |why: String| StoreError::Corrupt {
        game: head.id.clone(),
        why,
    };
    let rules: RuleSet = head.rules.parse().map_err(|e| corrupt(format!("{e}")))?;
    let rules = rules.with_max_plies(head.max_plies);
    let start = Position::from_sfen(&head.start_sfen).map_err(|e| corrupt(format!("{e}")))?;
    let mut game = Game::from_position(rules, start);
    let mut moves = Vec::with_capacity(rows.len());
    for (n, (ply, usi, clocks_ms, at_ms)) in rows.into_iter().enumerate() {
        if ply != n as i64 {
            return Err(corrupt(format!("ply {n} is missing")));
        }
        let mv = game
            .play_usi(&usi)
            .map_err(|e| corrupt(format!("ply {n}: {usi}: {e}")))?;
        moves.push(StoredMove {
            mv,
            clocks_ms,
            at_ms,
        });
    }
    Ok(StoredGame {
        id: head.id,
        created_ms: head.created_ms,
        settings: head.settings,
        seats: head.seats,
        moves,
        game,
        result: head.result,
    })
}

/// A game's ending from its columns: the winner's word, the reason, when it ended.
pub(crate) fn result_of(
    winner: Option<String>,
    reason: Option<String>,
    ended_ms: Option<i64>,
) -> Option<GameResult> {
    Some(GameResult {
        winner: match winner.as_deref() {
            Some("sente") => Some(Color::Sente),
            Some("gote") => Some(Color::Gote),
            _ => None,
        },
        reason: reason.unwrap_or_default(),
        ended_ms: ended_ms? as u64,
    })
}

/// A seat hash as stored (32 bytes), if it is one.
pub(crate) fn seat_hash(bytes: Option<Vec<u8>>) -> Option<SecretHash> {
    bytes.and_then(|h| <[u8; 32]>::try_from(h).ok().map(SecretHash))
}

/// Whether ply `ply` of game `id` is the next one, `next`: a move is stored once, in order.
pub(crate) fn check_next_ply(id: &str, ply: usize, next: usize) -> Result<(), StoreError> {
    let game = id.to_string();
    match ply.cmp(&next) {
        std::cmp::Ordering::Less => Err(StoreError::PlyTaken { game, ply }),
        std::cmp::Ordering::Greater => Err(StoreError::PlyAhead { game, ply, next }),
        std::cmp::Ordering::Equal => Ok(()),
    }
}

pub(crate) fn check_len(what: &'static str, text: &str, max: usize) -> Result<(), StoreError> {
    match text.len() > max {
        true => Err(StoreError::TooLong { what, max }),
        false => Ok(()),
    }
}

pub(crate) fn check_name(name: &str) -> Result<(), StoreError> {
    match name.chars().count() > MAX_NAME_CHARS {
        true => Err(StoreError::TooLong {
            what: "name",
            max: MAX_NAME_CHARS,
        }),
        false => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_locations_password_is_never_shown() {
        let shown = |s: &str| shown_location(Path::new(s));
        assert_eq!(
            shown("postgres://gogo:hunter2@db.example/games"),
            "postgres://gogo:***@db.example/games"
        );
        assert_eq!(
            shown("postgresql://gogo@db/games"),
            "postgresql://gogo@db/games"
        );
        assert_eq!(shown("/var/lib/gogo/games.db"), "/var/lib/gogo/games.db");
        assert!(is_postgres_url("postgres://x") && !is_postgres_url("games.db"));
    }
}
