//! `gogo-gui`: a minishogi board in the browser with gogo (or any USI engine) behind it.
//!
//!   cargo run --release -p gogo-gui              # gogo, built beside this binary or by cargo
//!   gogo-gui --engine /path/to/engine --port 8080

use clap::Parser;
use gogo_gui::{serve, Config, Limits};
use gogo_protocol::EngineSpec;
use std::net::{IpAddr, SocketAddr};
use std::os::unix::fs::DirBuilderExt;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Parser)]
#[command(
    name = "gogo-gui",
    version,
    about = "A minishogi board in the browser for USI engines"
)]
struct Cli {
    /// The USI engine (default: gogo, beside this program).
    #[arg(long)]
    engine: Option<PathBuf>,
    /// An argument for the engine (once for each; it may start with a dash: `--engine-arg -c`).
    #[arg(long = "engine-arg", num_args = 1, allow_hyphen_values = true)]
    engine_args: Vec<String>,
    /// Port (0: any free port).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on. Only 127.0.0.1 unless you ask: anyone who can reach the port
    /// and has the printed address (with its token) can run the engine.
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// Games open at once (each runs its own engine process).
    #[arg(long, default_value_t = Limits::default().max_sessions)]
    max_sessions: usize,
    /// Connections open at once (default: 64, or 20000 with --online, whose players each
    /// hold one).
    #[arg(long)]
    max_connections: Option<usize>,
    /// Seconds a page may stay silent (not even answering pings) before it is let go, and
    /// a board waits for its page to come back before its game ends.
    #[arg(long, default_value_t = Limits::default().idle_timeout.as_secs())]
    idle_timeout: u64,
    /// Engine processes that play for players who left, shared by every online room.
    #[arg(long, default_value_t = 2)]
    cpu_engines: usize,
    /// Serve online play too: rooms where two people play each other from their own
    /// devices, kept in the database (`--db`).
    #[arg(long)]
    online: bool,
    /// The address people use to reach the server (`https://shogi.example.org`): pages from
    /// anywhere else are refused.
    #[arg(long)]
    public_url: Option<String>,
    /// The reverse proxy in front of the server, whose X-Forwarded-For names the client.
    #[arg(long)]
    trust_proxy: Option<IpAddr>,
    /// The database of the games played here, and online of the players (SQLite; created on
    /// first start, readable by its owner only), or PostgreSQL (`postgres://user@host/db`,
    /// migrated on start). Default: $XDG_DATA_HOME/gogo/games.db (or
    /// ~/.local/share/gogo/games.db).
    #[arg(long)]
    db: Option<PathBuf>,
}

/// gogo beside this program (`target/release/gogo` next to `target/release/gogo-gui`).
fn default_engine() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let beside = exe.with_file_name(format!("gogo{}", std::env::consts::EXE_SUFFIX));
    beside.exists().then_some(beside)
}

/// Where the games are kept unless `--db` says: the user's data folder (made if need be,
/// private), or the current folder without one.
fn default_db() -> PathBuf {
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")));
    match data {
        Some(data) => {
            let dir = data.join("gogo");
            let _ = std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(&dir);
            dir.join("games.db")
        }
        None => PathBuf::from("gogo-games.db"),
    }
}

/// Online play on `store`, with every game it had not seen end taken up again: at once on
/// SQLite; on PostgreSQL (`postgres`: its URL) as one of several processes, which take up
/// the games no process holds.
async fn start_online(
    store: gogo_gui::writer::StoreHandle,
    postgres: Option<&str>,
    cpu: gogo_gui::online::cpu::CpuPool,
    public_url: Option<String>,
    trusted_proxy: Option<IpAddr>,
) -> Result<std::sync::Arc<gogo_gui::online::Online>, String> {
    use gogo_gui::online::{cluster::Cluster, guard::Origins, rooms::Rooms};
    use gogo_gui::online::{Online, OnlineLimits};
    let rooms = Rooms::new(store, Default::default(), Some(cpu));
    match postgres {
        Some(url) => {
            let cluster = Cluster::start(url, &rooms).await?;
            eprintln!(
                "gogo-gui: online play, process {} of those on this database",
                cluster.me()
            );
        }
        None => {
            let restored = rooms.restore().await?;
            eprintln!("gogo-gui: online play ({restored} live games taken up again)");
        }
    }
    let limits = OnlineLimits {
        origins: Origins {
            public_url,
            trusted_proxy,
        },
        ..OnlineLimits::default()
    };
    Ok(Online::new(rooms, limits))
}

/// The lock that makes this the one process serving online games from the SQLite file
/// `db`: a second would restore the same live games and judge their clocks too, unknown to
/// the first (several processes share PostgreSQL, with a lease a game). Held until the
/// process ends, however it ends; other readers of the file (a backup, the load script's
/// check) are not held up, since the lock is on a file beside it.
fn serve_alone(db: &std::path::Path) -> Result<std::fs::File, String> {
    let mut name = db.as_os_str().to_owned();
    name.push(".online-lock");
    let path = PathBuf::from(name);
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return Err(format!("{}: not a regular file", path.display()));
    }
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(format!(
            "another gogo-gui --online serves {} already: one process a SQLite file \
             (several processes share PostgreSQL: docs/online.md)",
            db.display()
        )),
        Err(std::fs::TryLockError::Error(e)) => Err(format!("{}: {e}", path.display())),
    }
}

/// Until SIGTERM or SIGINT (systemd's stop, or ^C).
async fn stop_asked() {
    use tokio::signal::unix::{signal, SignalKind};
    match (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) {
        (Ok(mut term), Ok(mut int)) => {
            tokio::select! {
                _ = term.recv() => {}
                _ = int.recv() => {}
            }
        }
        _ => std::future::pending().await,
    }
}

/// A process that stops lets go of its games' leases, so that the others take them up at
/// once rather than after the lease lapses (every move is stored already: nothing else
/// needs saving).
async fn drain(online: Option<&gogo_gui::online::Online>) {
    let Some(online) = online else {
        return;
    };
    if let Some(cluster) = online.rooms.cluster() {
        match cluster.release().await {
            Ok(()) => eprintln!("gogo-gui: stopping; its games are let go to the others"),
            Err(e) => eprintln!("gogo-gui: stopping; its games' leases: {e}"),
        }
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let Some(engine) = cli.engine.or_else(default_engine) else {
        eprintln!("gogo-gui: no engine: build gogo (cargo build --release) or give --engine PATH");
        return ExitCode::from(2);
    };
    if !engine.exists() {
        eprintln!("gogo-gui: {}: no such file", engine.display());
        return ExitCode::from(2);
    }
    let spec = EngineSpec {
        args: cli.engine_args,
        ..EngineSpec::new(engine.display().to_string())
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("gogo-gui: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async move {
        let address = SocketAddr::new(cli.host, cli.port);
        let listener = match tokio::net::TcpListener::bind(address).await {
            Ok(l) => l,
            Err(e) => {
                eprintln!("gogo-gui: cannot listen on {address}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let bound = listener.local_addr().unwrap_or(address);
        if !cli.host.is_loopback() {
            eprintln!(
                "gogo-gui: listening on {bound}, which other machines may reach: anyone who can \
                 reach the port and has the address below, with its token, can run the engine"
            );
        }
        let idle_timeout = Duration::from_secs(cli.idle_timeout.max(1));
        let db = cli.db.clone().unwrap_or_else(default_db);
        // Held while this process serves online games from a SQLite file.
        let _sqlite_lock = match cli.online && !db.to_str().is_some_and(gogo_store::is_postgres_url)
        {
            false => None,
            true => match serve_alone(&db) {
                Ok(lock) => Some(lock),
                Err(e) => {
                    eprintln!("gogo-gui: {e}");
                    return ExitCode::FAILURE;
                }
            },
        };
        let store = match gogo_gui::writer::StoreHandle::open(Some(&db)) {
            Ok(store) => store,
            Err(e) => {
                eprintln!("gogo-gui: {e}");
                return ExitCode::FAILURE;
            }
        };
        eprintln!(
            "gogo-gui: games kept in {}",
            gogo_store::shown_location(&db)
        );
        let online = match cli.online {
            false => None,
            true => {
                let cpu = gogo_gui::online::cpu::CpuPool::new(spec.clone(), cli.cpu_engines.max(1));
                let postgres = db.to_str().filter(|d| gogo_store::is_postgres_url(d));
                let public_url = cli.public_url.clone();
                match start_online(store.clone(), postgres, cpu, public_url, cli.trust_proxy).await
                {
                    Ok(online) => Some(online),
                    Err(e) => {
                        eprintln!("gogo-gui: {e}");
                        return ExitCode::FAILURE;
                    }
                }
            }
        };
        let config = Config {
            limits: Limits {
                max_sessions: cli.max_sessions.max(1),
                max_connections: cli
                    .max_connections
                    .unwrap_or(if cli.online { 20_000 } else { 64 })
                    .max(1),
                idle_timeout,
                ..Limits::default()
            },
            online,
            store: Some(store),
            ..Config::new(spec, bound)
        };
        println!(
            "gogo-gui: open {} (engine {})",
            config.access.url(bound),
            engine.display()
        );
        let online = config.online.clone();
        tokio::select! {
            served = serve(listener, config) => match served {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("gogo-gui: {e}");
                    ExitCode::FAILURE
                }
            },
            () = stop_asked() => {
                drain(online.as_deref()).await;
                ExitCode::SUCCESS
            }
        }
    })
}
