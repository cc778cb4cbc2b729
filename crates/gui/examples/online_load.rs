//! A load on online play: GAMES games at once between scripted players over loopback, each
//! player moving about once a second (a random legal move), for SECONDS; a game that ends is
//! followed by another between the same players. Prints the move acknowledgement and the
//! opponent's update latencies (p50, p99), the moves per second, the server's CPU and memory
//! (by its PID) and the database's bytes per game, and checks that every game's stored record
//! is exactly what its players saw acknowledged (nothing lost, nothing doubled).
//! `scripts/online-load.sh` starts the server and runs this at several sizes.
//!
//!   cargo run --release -p gogo-gui --example online_load -- URL GAMES SECONDS PID DB
//!
//! PID may be a file holding the server's pid (read at the start and at the end), for a
//! server that is killed and started again during the run (`KILL_AT` in the script): then
//! every page whose socket closes comes back to its seat, retrying until the server answers,
//! and checks that the game it finds holds every move it saw acknowledged before.
//!
//! The server must trust 127.0.0.1 as a proxy (`--trust-proxy 127.0.0.1`): each scripted
//! player then names an address of its own in X-Forwarded-For, and the per-address limits,
//! which would hold one address to a few players a minute, apply to each player as to a
//! person.

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

/// The first seconds, when every room is made and every first move comes at once.
const WARM_UP: Duration = Duration::from_secs(5);

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// What every game task adds to.
#[derive(Default)]
struct Totals {
    /// When the run started: samples in its first [`WARM_UP`] are counted apart.
    started: Option<Instant>,
    ack_us: Mutex<Vec<u64>>,
    update_us: Mutex<Vec<u64>>,
    /// The acknowledgements after the warm-up.
    steady_ack_us: Mutex<Vec<u64>>,
    moves: AtomicU64,
    games: AtomicU64,
    errors: Mutex<Vec<String>>,
    /// Each game played: its id and the moves its players saw acknowledged.
    records: Mutex<Vec<(String, Vec<String>)>>,
    /// The sockets of the games still open at the end.
    open: Mutex<Vec<Socket>>,
    /// Games whose players came back to their seats after their sockets closed.
    reconnects: AtomicU64,
    /// How long each game's pages were away before both were back in their seats, ms.
    away_ms: Mutex<Vec<u64>>,
    /// Games that, found again, lacked a move their players had seen acknowledged.
    lost: AtomicU64,
}

/// How long a player keeps trying to reach a server that went away.
const COME_BACK: Duration = Duration::from_secs(60);

/// A small xorshift, seeded per game.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// HTTP calls at once: a thousand players signing up in the same instant would overflow
/// the listen backlog, which measures the kernel, not the server.
static CALLS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(64);

async fn post(
    base: &str,
    path: &str,
    key: Option<&str>,
    from: &str,
    body: Value,
) -> Result<Value, String> {
    // A server that went away (killed, starting again) is waited for; a refusal is not.
    let until = Instant::now() + COME_BACK;
    loop {
        match post_once(base, path, key, from, body.clone()).await {
            Err((true, _)) if Instant::now() < until => {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            other => return other.map_err(|(_, e)| e),
        }
    }
}

/// One POST; on failure, whether the server could not be reached, and why.
async fn post_once(
    base: &str,
    path: &str,
    key: Option<&str>,
    from: &str,
    body: Value,
) -> Result<Value, (bool, String)> {
    let _call = CALLS.acquire().await.map_err(|e| (false, e.to_string()))?;
    let (url, key, from) = (
        format!("{base}{path}"),
        key.map(str::to_string),
        from.to_string(),
    );
    tokio::task::spawn_blocking(move || {
        let mut request = ureq::post(&url).set("X-Forwarded-For", &from);
        if let Some(key) = key {
            request = request.set("Authorization", &format!("Bearer {key}"));
        }
        request
            .send_json(body)
            .map_err(|e| match e {
                ureq::Error::Status(code, answer) => {
                    let why = answer.into_string().unwrap_or_default();
                    (false, format!("{url}: {code} {why}"))
                }
                e => (true, format!("{url}: {e}")),
            })?
            .into_json::<Value>()
            .map_err(|e| (false, e.to_string()))
    })
    .await
    .map_err(|e| (false, e.to_string()))?
}

/// Both players' pages back in their seats, once the server answers again.
async fn reopen(
    bases: &[String; 2],
    game: &str,
    seats: [&str; 2],
    from: &[String; 2],
) -> Result<[Socket; 2], String> {
    let until = Instant::now() + COME_BACK;
    loop {
        let opened = async {
            Ok::<_, String>([
                open(&bases[0], game, seats[0], &from[0]).await?,
                open(&bases[1], game, seats[1], &from[1]).await?,
            ])
        }
        .await;
        match opened {
            Ok(sockets) => return Ok(sockets),
            Err(e) if Instant::now() >= until => return Err(format!("not back in {game}: {e}")),
            Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    }
}

async fn open(base: &str, game: &str, seat: &str, from: &str) -> Result<Socket, String> {
    let ws = base.replacen("http", "ws", 1);
    let mut request = format!("{ws}/online/ws?game={game}&seat={seat}")
        .into_client_request()
        .map_err(|e| e.to_string())?;
    request
        .headers_mut()
        .insert("X-Forwarded-For", from.parse().map_err(|_| "address")?);
    // Small reads, as the server's: a large buffer would be zeroed for every message.
    let config =
        tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default().read_buffer_size(4096);
    Ok(
        tokio_tungstenite::connect_async_with_config(request, Some(config), true)
            .await
            .map_err(|e| e.to_string())?
            .0,
    )
}

/// One pair of players, each on the server at its base URL (the host's makes the rooms):
/// games one after another until `deadline`.
async fn pair(
    bases: [String; 2],
    n: u64,
    deadline: Instant,
    totals: Arc<Totals>,
) -> Result<(), String> {
    let from = [
        format!("10.{}.{}.1", (n >> 8) & 255, n & 255),
        format!("10.{}.{}.2", (n >> 8) & 255, n & 255),
    ];
    let mut keys = Vec::new();
    for (i, address) in from.iter().enumerate() {
        let made = post(
            &bases[i],
            "/api/token",
            None,
            address,
            json!({"name": format!("p{n}-{i}")}),
        )
        .await?;
        keys.push(made["token"].as_str().ok_or("no token")?.to_string());
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (n + 1));
    while Instant::now() < deadline {
        let settings = json!({"color": "sente", "rated": true,
            "clock": {"kind": "fischer", "main_ms": 600000, "increment_ms": 0}});
        let room = post(
            &bases[0],
            "/online/rooms",
            Some(&keys[0]),
            &from[0],
            settings,
        )
        .await?;
        let game = room["id"].as_str().ok_or("no room")?.to_string();
        let joined = post(
            &bases[1],
            &format!("/online/rooms/{game}/join"),
            Some(&keys[1]),
            &from[1],
            json!({}),
        )
        .await?;
        let seats = [
            room["seat"].as_str().unwrap_or(""),
            joined["seat"].as_str().unwrap_or(""),
        ];
        let mut sockets = [
            open(&bases[0], &game, seats[0], &from[0]).await?,
            open(&bases[1], &game, seats[1], &from[1]).await?,
        ];
        let mut acked = Vec::new();
        let acked = loop {
            match play(&mut sockets, &mut rng, deadline, &totals, &mut acked).await? {
                Played::Over => break acked,
                // The server went away: back to both seats; the whole room tells the moves.
                Played::Closed => {
                    let away = Instant::now();
                    totals.reconnects.fetch_add(1, Ordering::Relaxed);
                    sockets = reopen(&bases, &game, seats, &from).await?;
                    let ms = away.elapsed().as_millis() as u64;
                    totals.away_ms.lock().unwrap().push(ms);
                }
            }
        };
        totals.games.fetch_add(1, Ordering::Relaxed);
        totals.records.lock().unwrap().push((game, acked));
        if Instant::now() < deadline {
            for socket in &mut sockets {
                let _ = socket.close(None).await;
            }
        } else {
            // Kept open until every game is measured: two thousand pages leaving in the same
            // instant would measure the leaving, not the play.
            totals.open.lock().unwrap().extend(sockets);
        }
    }
    Ok(())
}

/// How [`play`] stopped.
enum Played {
    /// The game ended, or the run did.
    Over,
    /// A socket closed (the server went away).
    Closed,
}

/// One game until it ends or `deadline`, or a socket closes; `acked` carries the moves seen
/// acknowledged across reconnections.
async fn play(
    sockets: &mut [Socket; 2],
    rng: &mut Rng,
    deadline: Instant,
    totals: &Totals,
    moves: &mut Vec<String>,
) -> Result<Played, String> {
    let mut legal: Vec<String> = Vec::new();
    let mut sent: Option<(usize, Instant)> = None;
    let mut seen = [false; 2];
    let mut next_move = Instant::now() + Duration::from_millis(500);
    let mut over = false;
    let mut last_number: Option<u64> = None;
    let mut stopping: Option<Instant> = None;
    loop {
        if stopping.is_none() && Instant::now() >= deadline {
            // No new move; wait for what is in flight.
            stopping = Some(Instant::now() + Duration::from_secs(3));
        }
        if over || stopping.is_some_and(|s| Instant::now() >= s || sent.is_none()) {
            return Ok(Played::Over);
        }
        let [a, b] = sockets;
        // Once stopping, nothing more to send: wake only to give up on what is in flight.
        let wake = tokio::time::sleep_until(stopping.unwrap_or(next_move.min(deadline)));
        let (side, message) = tokio::select! {
            m = a.next() => (0, m),
            m = b.next() => (1, m),
            _ = wake => {
                if sent.is_none() && stopping.is_none() && !legal.is_empty() {
                    let mover = moves.len() % 2;
                    let usi = legal[rng.below(legal.len())].clone();
                    let request = json!({"type": "move", "ply": moves.len(), "usi": usi});
                    sockets[mover]
                        .send(Message::Text(request.to_string().into()))
                        .await
                        .map_err(|e| e.to_string())?;
                    sent = Some((moves.len(), Instant::now()));
                    seen = [false; 2];
                }
                next_move = Instant::now() + Duration::from_millis(500);
                continue;
            }
        };
        let text = match message {
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(_)) => continue,
            _ => return Ok(Played::Closed),
        };
        let update: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        match update["type"].as_str() {
            Some("room") => {
                // The whole room (the first view, or after coming back): it must hold every
                // move acknowledged so far, and it is the game from now on.
                let stored = strings(&update["moves"]);
                if !stored.starts_with(moves) {
                    totals.lost.fetch_add(1, Ordering::Relaxed);
                }
                *moves = stored;
                last_number = update["event"].as_u64();
                sent = None;
                legal = strings(&update["legal"]);
                over |= update["status"] == "over";
            }
            Some("event") => {
                let event = &update["event"];
                if update["number"].as_u64() > last_number {
                    last_number = update["number"].as_u64();
                    legal = strings(&update["legal"]);
                }
                match event["kind"].as_str() {
                    Some("moved") => {
                        let ply = event["ply"].as_u64().unwrap_or(0) as usize;
                        // Either page may be the first to hear of it; each event comes in order
                        // on each socket, so the moves are whole when either hears the end.
                        if ply == moves.len() {
                            moves.push(event["usi"].as_str().unwrap_or("").to_string());
                        }
                        if let Some((at_ply, at)) = sent.filter(|(p, _)| *p == ply) {
                            let mover = at_ply % 2;
                            let us = at.elapsed().as_micros() as u64;
                            if side == mover {
                                totals.ack_us.lock().unwrap().push(us);
                                if totals.started.is_some_and(|s| s.elapsed() > WARM_UP) {
                                    totals.steady_ack_us.lock().unwrap().push(us);
                                }
                            } else {
                                totals.update_us.lock().unwrap().push(us);
                            }
                            seen[side] = true;
                            if seen == [true, true] {
                                sent = None;
                                totals.moves.fetch_add(1, Ordering::Relaxed);
                            }
                        }
                    }
                    Some("ended") => over = true,
                    _ => {}
                }
            }
            Some("refused") => {
                totals
                    .errors
                    .lock()
                    .unwrap()
                    .push(update["message"].to_string());
                sent = None;
            }
            _ => {}
        }
    }
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|m| m.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn percentile(values: &mut [u64], p: f64) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    values.sort_unstable();
    let i = ((values.len() as f64 - 1.0) * p).round() as usize;
    values[i] as f64 / 1000.0
}

/// The server's CPU seconds so far and its memory (kB): now and at its peak.
fn server_usage(pid: u32) -> (f64, u64, u64) {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let ticks: f64 = fields.get(11).and_then(|f| f.parse().ok()).unwrap_or(0.0)
        + fields
            .get(12)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0);
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kb = |key: &str| {
        status
            .lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (ticks / 100.0, kb("VmRSS"), kb("VmHWM"))
}

/// PostgreSQL's own cost, when the store is there: the CPU seconds of all its processes so
/// far (those that ended count in their parent's), the WAL written so far (bytes), and the
/// schema's size (bytes).
fn postgres_usage(url: &str) -> (f64, u64, u64) {
    let mut ticks = 0.0;
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let path = entry.path();
        let comm = std::fs::read_to_string(path.join("comm")).unwrap_or_default();
        if comm.trim() != "postgres" {
            continue;
        }
        let stat = std::fs::read_to_string(path.join("stat")).unwrap_or_default();
        let fields: Vec<f64> = stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .map(|f| f.parse().unwrap_or(0.0))
            .collect();
        // utime, stime, cutime, cstime.
        ticks += fields.get(11..15).map_or(0.0, |f| f.iter().sum());
    }
    let Ok(mut client) = postgres::Client::connect(url, postgres::NoTls) else {
        return (ticks / 100.0, 0, 0);
    };
    let number = |client: &mut postgres::Client, sql: &str| -> u64 {
        client
            .query_one(sql, &[])
            .ok()
            .and_then(|row| row.try_get::<_, i64>(0).ok())
            .unwrap_or(0) as u64
    };
    let wal = number(
        &mut client,
        "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint",
    );
    let size = number(
        &mut client,
        "SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = current_schema() AND c.relkind = 'r'",
    );
    (ticks / 100.0, wal, size)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [base, games, seconds, pid, db] = &args[..] else {
        eprintln!("usage: online_load URL[,URL...] GAMES SECONDS PID[,PID...] DB");
        std::process::exit(2);
    };
    // Several servers (processes on one PostgreSQL): each game's two players on two of
    // them, so that every update of the game crosses from one process to the other.
    let urls: Vec<String> = base.split(',').map(str::to_string).collect();
    let postgres = db.starts_with("postgres://") || db.starts_with("postgresql://");
    let games: u64 = games.parse().expect("GAMES");
    let seconds: u64 = seconds.parse().expect("SECONDS");
    // Each a number, or a file that holds it (a server may be started again during the
    // run).
    let pids_now = || -> Vec<u32> {
        pid.split(',')
            .map(|pid| {
                pid.parse()
                    .ok()
                    .or_else(|| std::fs::read_to_string(pid).ok()?.trim().parse().ok())
                    .expect("PID: a number, or a file holding one")
            })
            .collect()
    };
    let first_pids = pids_now();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let totals = Arc::new(Totals {
        started: Some(Instant::now()),
        ..Totals::default()
    });
    let before: Vec<(f64, u64, u64)> = first_pids.iter().map(|p| server_usage(*p)).collect();
    let database_before = postgres.then(|| postgres_usage(db));
    let started = std::time::Instant::now();
    runtime.block_on(async {
        let deadline = Instant::now() + Duration::from_secs(seconds);
        let mut tasks = Vec::new();
        for n in 0..games {
            let k = urls.len() as u64;
            let bases = [
                urls[(n % k) as usize].clone(),
                urls[((n + 1) % k) as usize].clone(),
            ];
            let totals = Arc::clone(&totals);
            tasks.push(tokio::spawn(async move {
                if let Err(e) = pair(bases, n, deadline, Arc::clone(&totals)).await {
                    totals.errors.lock().unwrap().push(e);
                }
            }));
        }
        for task in tasks {
            let _ = task.await;
        }
    });
    let wall = started.elapsed().as_secs_f64();
    let last_pids = pids_now();
    let mut cpu = 0.0;
    let (mut rss, mut peak) = (0, 0);
    for (i, pid) in last_pids.iter().enumerate() {
        let (after, now, most) = server_usage(*pid);
        // A server started again during the run: its own CPU since it started.
        let since = if first_pids.get(i) == Some(pid) {
            before[i].0
        } else {
            0.0
        };
        cpu += after - since;
        rss += now;
        peak += most;
    }
    let database_after = postgres.then(|| postgres_usage(db));
    drop(std::mem::take(&mut *totals.open.lock().unwrap()));
    let records = std::mem::take(&mut *totals.records.lock().unwrap());
    // Every game as stored, against what its players saw acknowledged.
    let mut mismatched = 0;
    for (game, acked) in &records {
        let stored: Value = ureq::get(&format!("{}/online/games/{game}", urls[0]))
            .call()
            .ok()
            .and_then(|r| r.into_json().ok())
            .unwrap_or(Value::Null);
        if strings(&stored["moves"]) != *acked {
            mismatched += 1;
        }
    }
    let moves = totals.moves.load(Ordering::Relaxed);
    let (bytes, database) = match (database_before, database_after) {
        (Some((cpu0, wal0, _)), Some((cpu1, wal1, size))) => (
            size,
            format!(
                "PostgreSQL CPU {:.0}% of a core, {:.2} ms and {:.0} B of WAL a move",
                100.0 * (cpu1 - cpu0) / wall,
                1000.0 * (cpu1 - cpu0) / moves.max(1) as f64,
                wal1.saturating_sub(wal0) as f64 / moves.max(1) as f64
            ),
        ),
        _ => (
            ["", "-wal"]
                .iter()
                .filter_map(|s| std::fs::metadata(format!("{db}{s}")).ok())
                .map(|m| m.len())
                .sum(),
            "SQLite in the server's process".to_string(),
        ),
    };
    let mut ack = std::mem::take(&mut *totals.ack_us.lock().unwrap());
    let mut update = std::mem::take(&mut *totals.update_us.lock().unwrap());
    let mut steady = std::mem::take(&mut *totals.steady_ack_us.lock().unwrap());
    // Seconds (the percentile helper divides by a thousand).
    let mut away = std::mem::take(&mut *totals.away_ms.lock().unwrap());
    let errors = totals.errors.lock().unwrap();
    println!(
        "games at once {games}: {} games, {moves} moves in {wall:.0} s ({:.0} moves/s); \
         ack p50 {:.1} ms p99 {:.1} ms (after the first {} s: p99 {:.1} ms); \
         opponent's update p50 {:.1} ms p99 {:.1} ms; \
         {} server(s) CPU {:.0}% of a core, RSS {} MiB (peak {} MiB); {database}; \
         database {:.1} KiB a game; \
         records that differ from what was acknowledged: {mismatched} of {}; \
         games come back to after their sockets closed: {} (away p50 {:.1} s, max {:.1} s), \
         lacking an acknowledged move: {}; \
         errors: {}",
        records.len(),
        moves as f64 / wall,
        percentile(&mut ack, 0.5),
        percentile(&mut ack, 0.99),
        WARM_UP.as_secs(),
        percentile(&mut steady, 0.99),
        percentile(&mut update, 0.5),
        percentile(&mut update, 0.99),
        last_pids.len(),
        100.0 * cpu / wall,
        rss / 1024,
        peak / 1024,
        bytes as f64 / 1024.0 / records.len().max(1) as f64,
        records.len(),
        totals.reconnects.load(Ordering::Relaxed),
        percentile(&mut away, 0.5),
        percentile(&mut away, 1.0),
        totals.lost.load(Ordering::Relaxed),
        errors.len(),
    );
    for e in errors.iter().take(5) {
        println!("  error: {e}");
    }
}
