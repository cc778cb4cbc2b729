//! The database's schema as numbered migrations, in both dialects with the same numbers:
//! SQLite's `user_version`, or PostgreSQL's `gogo_schema` table, says how many have run, and
//! opening the database runs the rest, each in its own transaction. A migration is never
//! edited once released; a change is a new one at the end of both lists.

use crate::StoreError;
use rusqlite::Connection;

/// The migrations, in order; the schema's version is how many have run.
pub(crate) const MIGRATIONS: &[&str] = &[
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
    // 4: which server process judges a live game, until when. Only several processes on
    // PostgreSQL use it; SQLite has the table so that both dialects keep the same numbers.
    "CREATE TABLE game_leases (
        game TEXT PRIMARY KEY REFERENCES games(id),
        holder TEXT NOT NULL,
        expires_ms INTEGER NOT NULL
    ) WITHOUT ROWID;",
];

/// The same migrations for PostgreSQL. A game's `serial` orders games made in the same
/// millisecond, as SQLite's rowid does.
pub(crate) const POSTGRES_MIGRATIONS: &[&str] = &[
    // 1: players, games, moves.
    "CREATE TABLE players (
        id TEXT PRIMARY KEY,
        key_hash BYTEA NOT NULL UNIQUE,
        name TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL DEFAULT 0,
        created_ms BIGINT NOT NULL
    );
    CREATE TABLE games (
        serial BIGSERIAL UNIQUE,
        id TEXT PRIMARY KEY,
        created_ms BIGINT NOT NULL,
        rules TEXT NOT NULL,
        max_plies INTEGER,
        start_sfen TEXT NOT NULL,
        settings TEXT NOT NULL,
        sente_player TEXT REFERENCES players(id),
        sente_name TEXT NOT NULL,
        sente_seat BYTEA,
        gote_player TEXT REFERENCES players(id),
        gote_name TEXT NOT NULL,
        gote_seat BYTEA,
        winner TEXT CHECK (winner IN ('sente', 'gote')),
        reason TEXT,
        ended_ms BIGINT
    );
    CREATE INDEX games_live ON games(ended_ms) WHERE ended_ms IS NULL;
    CREATE INDEX games_sente ON games(sente_player, created_ms);
    CREATE INDEX games_gote ON games(gote_player, created_ms);
    CREATE TABLE moves (
        game_id TEXT NOT NULL REFERENCES games(id),
        ply INTEGER NOT NULL,
        usi TEXT NOT NULL,
        sente_ms BIGINT NOT NULL,
        gote_ms BIGINT NOT NULL,
        at_ms BIGINT NOT NULL,
        PRIMARY KEY (game_id, ply)
    );",
    // 2: a seat's games found by its secret's hash.
    "CREATE INDEX games_sente_seat ON games(sente_seat, created_ms);",
    // 3: a player may be a bot.
    "ALTER TABLE players ADD COLUMN bot BOOLEAN NOT NULL DEFAULT FALSE;",
    // 4: which server process judges a live game, until when (the database's clock, so that
    // the processes' clocks need not agree).
    "CREATE TABLE game_leases (
        game TEXT PRIMARY KEY REFERENCES games(id),
        holder TEXT NOT NULL,
        expires TIMESTAMPTZ NOT NULL
    );
    CREATE INDEX game_leases_holder ON game_leases(holder);",
];

/// The schema version this build writes.
pub const VERSION: u32 = MIGRATIONS.len() as u32;

// Both dialects have every migration.
const _: () = assert!(MIGRATIONS.len() == POSTGRES_MIGRATIONS.len());

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

/// Brings a PostgreSQL database up to [`VERSION`], one process at a time (an advisory lock
/// held for each migration's transaction); a database from a newer build is refused.
pub(crate) fn migrate_postgres(db: &mut ::postgres::Client) -> Result<(), StoreError> {
    db.batch_execute("CREATE TABLE IF NOT EXISTS gogo_schema (version INTEGER NOT NULL)")?;
    loop {
        let mut tx = db.transaction()?;
        // Processes starting together migrate in turn: the lock, then the version.
        tx.execute("SELECT pg_advisory_xact_lock(727271)", &[])?;
        let found: i32 = tx
            .query_opt("SELECT version FROM gogo_schema", &[])?
            .map(|row| row.get(0))
            .unwrap_or(0);
        let found = found as u32;
        if found > VERSION {
            return Err(StoreError::NewerSchema {
                found,
                known: VERSION,
            });
        }
        let Some(migration) = POSTGRES_MIGRATIONS.get(found as usize) else {
            return Ok(());
        };
        tx.batch_execute(migration)?;
        tx.execute("DELETE FROM gogo_schema", &[])?;
        tx.execute(
            "INSERT INTO gogo_schema (version) VALUES ($1)",
            &[&(found as i32 + 1)],
        )?;
        tx.commit()?;
        log::info!("PostgreSQL schema migrated to version {}", found + 1);
    }
}
