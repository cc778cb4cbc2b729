//! The database's schema as numbered migrations: SQLite's `user_version` says how many have
//! run, and opening a file runs the rest, each in its own transaction. A migration is never
//! edited once released; a change is a new one at the end.

use crate::StoreError;
use rusqlite::Connection;

/// The migrations, in order; the schema's version is how many have run.
const MIGRATIONS: &[&str] = &[
    // 1: players, games, moves.
    "CREATE TABLE players (
        id TEXT PRIMARY KEY,
        key_hash BLOB NOT NULL UNIQUE,
        name TEXT NOT NULL,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        games INTEGER NOT NULL DEFAULT 0,
        created_ms INTEGER NOT NULL
    );
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        created_ms INTEGER NOT NULL,
        rules TEXT NOT NULL,
        max_plies INTEGER,
        start_sfen TEXT NOT NULL,
        settings TEXT NOT NULL,
        sente_player TEXT REFERENCES players(id),
        sente_name TEXT NOT NULL,
        sente_seat BLOB,
        gote_player TEXT REFERENCES players(id),
        gote_name TEXT NOT NULL,
        gote_seat BLOB,
        winner TEXT CHECK (winner IN ('sente', 'gote')),
        reason TEXT,
        ended_ms INTEGER
    );
    CREATE INDEX games_live ON games(ended_ms) WHERE ended_ms IS NULL;
    CREATE INDEX games_sente ON games(sente_player, created_ms);
    CREATE INDEX games_gote ON games(gote_player, created_ms);
    CREATE TABLE moves (
        game_id TEXT NOT NULL REFERENCES games(id),
        ply INTEGER NOT NULL,
        usi TEXT NOT NULL,
        sente_ms INTEGER NOT NULL,
        gote_ms INTEGER NOT NULL,
        at_ms INTEGER NOT NULL,
        PRIMARY KEY (game_id, ply)
    ) WITHOUT ROWID;",
    // 2: a seat's games found by its secret's hash (the local board comes back to its
    // game by its key after a restart).
    "CREATE INDEX games_sente_seat ON games(sente_seat, created_ms);",
    // 3: a player may be a bot (lishogi's BOT title: a program playing through the Bot API).
    "ALTER TABLE players ADD COLUMN bot INTEGER NOT NULL DEFAULT 0;",
];

/// The schema version this build writes.
pub const VERSION: u32 = MIGRATIONS.len() as u32;

/// Brings `db` up to [`VERSION`]; a database from a newer build is refused untouched.
pub(crate) fn migrate(db: &mut Connection) -> Result<(), StoreError> {
    let found: u32 = db.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    if found > VERSION {
        return Err(StoreError::NewerSchema {
            found,
            known: VERSION,
        });
    }
    for (done, migration) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        let tx = db.transaction()?;
        tx.execute_batch(migration)?;
        // PRAGMA takes no bound parameter; the number is ours, not a person's.
        tx.execute_batch(&format!("PRAGMA user_version = {}", done + 1))?;
        tx.commit()?;
        log::info!("database schema migrated to version {}", done + 1);
    }
    Ok(())
}
