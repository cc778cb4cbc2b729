//! What the gui tests share.
#![allow(dead_code)]

use gogo_gui::{Config, Limits};
use gogo_protocol::EngineSpec;
use std::net::SocketAddr;
use std::path::PathBuf;

/// A port nothing listens on now (for a server a test starts).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A USI engine written in shell: `script` is run by `sh -c`.
pub fn sh_engine(script: &str) -> EngineSpec {
    EngineSpec {
        name: "shell".into(),
        args: vec!["-c".into(), script.into()],
        ..EngineSpec::new("sh")
    }
}

/// The gogo binary of this build (`cargo test --workspace` builds it beside the tests).
pub fn gogo() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().parent().unwrap();
    let gogo = dir.join(format!("gogo{}", std::env::consts::EXE_SUFFIX));
    assert!(
        gogo.exists(),
        "{} is missing: run `cargo test --workspace`, which builds it",
        gogo.display()
    );
    gogo
}

/// The arena's scripted engine of this build (`cargo test --workspace` builds it).
pub fn script_engine() -> PathBuf {
    let gogo = gogo();
    let engine = gogo.with_file_name(format!("usi-script-engine{}", std::env::consts::EXE_SUFFIX));
    assert!(
        engine.exists(),
        "{} is missing: run `cargo test --workspace`, which builds it",
        engine.display()
    );
    engine
}

/// Processes whose command line holds `marker` (the engines of one test), running or not
/// yet reaped.
pub fn processes_with(marker: &str) -> usize {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| {
            std::fs::read(entry.path().join("cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains(marker))
        })
        .count()
}

/// A USI engine in shell whose command line carries `marker`, so that a test can find its
/// processes among every other test's; it resigns when asked to move.
pub fn marked_engine(marker: &str) -> EngineSpec {
    let script = format!(
        r#"# {marker}
while read -r line; do case "$line" in usi) echo "id name shell"; echo usiok;; isready) echo readyok;; go*) echo "bestmove resign";; quit) exit 0;; esac; done"#
    );
    sh_engine(&script)
}

/// A server on a free port with `limits`, on the test's runtime; its address and token.
pub async fn serve(engine: EngineSpec, limits: Limits) -> (SocketAddr, String) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let config = Config {
        limits,
        ..Config::new(engine, address)
    };
    let token = config.access.token.clone();
    tokio::spawn(async move {
        gogo_gui::serve(listener, config).await.unwrap();
    });
    (address, token)
}

/// A page's WebSocket to the server.
pub type Page =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A page's WebSocket to the server at `address`, let in by `token`.
pub async fn page(address: SocketAddr, token: &str) -> Page {
    tokio_tungstenite::connect_async(format!("ws://{address}/ws?token={token}"))
        .await
        .unwrap()
        .0
}

/// Sends `value` to the server as one JSON text message.
pub async fn send_json(page: &mut Page, value: serde_json::Value) {
    use futures_util::SinkExt;
    page.send(tokio_tungstenite::tungstenite::Message::Text(
        value.to_string().into(),
    ))
    .await
    .unwrap();
}

/// The next update of type `kind` accepted by `accept`, within `within` (a panic after);
/// `None` if the socket closed first.
pub async fn next_update(
    page: &mut Page,
    kind: &str,
    within: std::time::Duration,
    accept: impl Fn(&serde_json::Value) -> bool,
) -> Option<serde_json::Value> {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    let deadline = tokio::time::Instant::now() + within;
    loop {
        match tokio::time::timeout_at(deadline, page.next())
            .await
            .unwrap_or_else(|_| panic!("no {kind} update in {within:?}"))
        {
            Some(Ok(Message::Text(text))) => {
                let v: serde_json::Value = serde_json::from_str(&text).unwrap();
                if v["type"] == kind && accept(&v) {
                    return Some(v);
                }
            }
            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
            Some(Ok(_)) => {}
        }
    }
}

/// [`next_update`] within ten seconds; `None` if the socket closed first.
pub async fn next_or_closed(
    page: &mut Page,
    kind: &str,
    accept: impl Fn(&serde_json::Value) -> bool,
) -> Option<serde_json::Value> {
    next_update(page, kind, std::time::Duration::from_secs(10), accept).await
}

/// [`next_update`] within ten seconds, the socket open.
pub async fn expect_update(
    page: &mut Page,
    kind: &str,
    accept: impl Fn(&serde_json::Value) -> bool,
) -> serde_json::Value {
    next_or_closed(page, kind, accept)
        .await
        .unwrap_or_else(|| panic!("the socket closed before a {kind} update"))
}

/// `gogo-gui --online` on `db` and `port`, once it answers; its engine `/bin/sh`, which
/// cannot play (a test that needs the CPU uses [`start_binary_with`]).
pub async fn start_binary(db: &std::path::Path, port: u16) -> std::process::Child {
    start_binary_with(db, port, std::path::Path::new("/bin/sh")).await
}

/// The command line of `gogo-gui --online` on `db` and `port` with `engine` for the CPU's
/// games, saying nothing (a test that reads what it says pipes stderr).
pub fn online_command(
    db: &std::path::Path,
    port: u16,
    engine: &std::path::Path,
) -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_gogo-gui"));
    command
        .args(["--online", "--port", &port.to_string(), "--engine"])
        .arg(engine)
        .arg("--db")
        .arg(db)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    command
}

/// [`start_binary`] with `engine` for the CPU's games.
pub async fn start_binary_with(
    db: &std::path::Path,
    port: u16,
    engine: &std::path::Path,
) -> std::process::Child {
    let child = online_command(db, port, engine).spawn().unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(
            std::time::Instant::now() < deadline,
            "gogo-gui did not start"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    child
}

/// A PostgreSQL schema of a test's own on the database `GOGO_TEST_POSTGRES` names, made and
/// migrated as the server would, and dropped with it.
pub struct Schema {
    /// The database's URL, which makes the schema the connection's (`--db` takes it).
    pub url: String,
    /// The database's URL as given.
    pub database: String,
    /// The schema's name.
    pub name: String,
}

impl Schema {
    /// A fresh schema for the test `name`.
    pub async fn new(name: &str) -> Schema {
        let database = std::env::var("GOGO_TEST_POSTGRES").expect("GOGO_TEST_POSTGRES");
        let name = format!("gui{}_{name}", std::process::id());
        let (at, schema) = (database.clone(), name.clone());
        tokio::task::spawn_blocking(move || {
            let mut client = postgres::Client::connect(&at, postgres::NoTls).unwrap();
            client
                .batch_execute(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"))
                .unwrap();
            drop(gogo_store::PostgresStore::connect(&at, Some(&schema)).unwrap());
        })
        .await
        .unwrap();
        let separator = if database.contains('?') { '&' } else { '?' };
        Schema {
            url: format!("{database}{separator}options=-csearch_path%3D{name}"),
            database,
            name,
        }
    }

    /// Runs `sql` in the schema; the rows' first columns, as text.
    pub async fn query(&self, sql: &str) -> Vec<String> {
        let (url, sql) = (self.url.clone(), sql.to_string());
        tokio::task::spawn_blocking(move || {
            let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
            client
                .query(sql.as_str(), &[])
                .unwrap()
                .iter()
                .map(|row| row.get::<_, String>(0))
                .collect()
        })
        .await
        .unwrap()
    }
}

impl Drop for Schema {
    /// On a thread of its own: the client cannot block on the test's runtime.
    fn drop(&mut self) {
        let (database, name) = (self.database.clone(), self.name.clone());
        let _ = std::thread::spawn(move || {
            if let Ok(mut client) = postgres::Client::connect(&database, postgres::NoTls) {
                let _ = client.batch_execute(&format!("DROP SCHEMA IF EXISTS {name} CASCADE"));
            }
        })
        .join();
    }
}

/// An HTTP call (on a blocking thread): its status and JSON body.
pub async fn call(
    address: SocketAddr,
    method: &str,
    path: &str,
    key: &str,
    body: Option<serde_json::Value>,
) -> (u16, serde_json::Value) {
    let url = format!("http://{address}{path}");
    let method = method.to_string();
    let key = key.to_string();
    tokio::task::spawn_blocking(move || {
        let mut request = ureq::request(&method, &url);
        if !key.is_empty() {
            request = request.set("Authorization", &format!("Bearer {key}"));
        }
        let answer = match body {
            Some(body) => request.send_json(body),
            None => request.call(),
        };
        let response = match answer {
            Ok(r) => r,
            Err(ureq::Error::Status(_, r)) => r,
            Err(e) => panic!("{e}"),
        };
        let status = response.status();
        (
            status,
            response.into_json().unwrap_or(serde_json::Value::Null),
        )
    })
    .await
    .unwrap()
}

/// A new player: their key and id.
pub async fn player(address: SocketAddr, name: &str) -> (String, String) {
    let (status, body) = call(
        address,
        "POST",
        "/api/token",
        "",
        Some(serde_json::json!({"name": name})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    (
        body["token"].as_str().unwrap().into(),
        body["id"].as_str().unwrap().into(),
    )
}

/// A page that comes back to its room at `url` as the online page does: again and again
/// until the room answers (on PostgreSQL a restarted server takes a game up once the dead
/// process's lease has lapsed), within 20 s; the page and its first view.
pub async fn come_back(url: &str) -> (Page, serde_json::Value) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        if let Ok((mut page, _)) = tokio_tungstenite::connect_async(url).await {
            if let Some(view) = next_update(
                &mut page,
                "room",
                std::time::Duration::from_secs(20),
                |_| true,
            )
            .await
            {
                return (page, view);
            }
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{url}: no room in 20 s"
        );
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    }
}

/// The stream of a game through the API, read on a blocking thread: its lines as JSON,
/// empty keep-alive lines skipped, sent down `lines`.
pub fn read_stream(
    address: SocketAddr,
    path: String,
    key: String,
    lines: std::sync::mpsc::Sender<serde_json::Value>,
) {
    use std::io::BufRead;
    std::thread::spawn(move || {
        let response = ureq::get(&format!("http://{address}{path}"))
            .set("Authorization", &format!("Bearer {key}"))
            .call()
            .unwrap();
        for line in std::io::BufReader::new(response.into_reader()).lines() {
            let Ok(line) = line else { break };
            if line.trim().is_empty() {
                continue;
            }
            if lines.send(serde_json::from_str(&line).unwrap()).is_err() {
                break;
            }
        }
    });
}

/// A form POST (as lishogi's challenge takes its settings) with a bearer key.
pub async fn post_form(
    address: SocketAddr,
    path: &str,
    key: &str,
    form: &'static [(&'static str, &'static str)],
) -> (u16, serde_json::Value) {
    let (url, key) = (format!("http://{address}{path}"), key.to_string());
    tokio::task::spawn_blocking(move || {
        let answer = ureq::post(&url)
            .set("Authorization", &format!("Bearer {key}"))
            .send_form(form);
        let response = match answer {
            Ok(r) => r,
            Err(ureq::Error::Status(_, r)) => r,
            Err(e) => panic!("{e}"),
        };
        (
            response.status(),
            response.into_json().unwrap_or(serde_json::Value::Null),
        )
    })
    .await
    .unwrap()
}
