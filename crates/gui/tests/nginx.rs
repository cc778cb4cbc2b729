//! Issue 55, item 9: the nginx configuration documented in docs/online.md
//! (`deploy/nginx-gogo.conf`), run as it is under Debian's nginx, with TLS, in front of
//! `gogo-gui --online`: the page over https, plain http sent to https, a player's key, a
//! game over a WebSocket through the proxy (`wss://`), an API game stream passed on line by
//! line, pages from other sites refused, and each client limited by the address nginx
//! forwards, not by the proxy's own or one the client made up.
//!
//! The test needs Debian's nginx (`.ci/run` installs it); without it, it is ignored
//! (`build.rs`). Clients connect from several loopback addresses (127.0.0.2, 127.0.0.3) so
//! that nginx sees different clients.
#![cfg_attr(not(has_nginx), allow(dead_code, unused_imports))]

mod common;

use common::free_port;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpSocket;
use tokio_rustls::client::TlsStream;
use tokio_rustls::rustls;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

const NGINX: &str = "/usr/sbin/nginx";

/// A process killed when the test ends, however it ends.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits until something listens on `port`.
async fn listening(port: u16, what: &str, dir: &Path) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        let log = std::fs::read_to_string(dir.join("error.log")).unwrap_or_default();
        assert!(Instant::now() < deadline, "{what} did not start: {log}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The documented configuration with the test's ports, certificate and name in place of
/// the example's; each replacement must find its text, so that the file under test is the
/// documented one.
fn configuration(dir: &Path, http: u16, https: u16, gogo: u16) -> String {
    let documented = include_str!("../../../deploy/nginx-gogo.conf");
    let certificate = dir.join("cert.pem").display().to_string();
    let key = dir.join("key.pem").display().to_string();
    let replacements = [
        ("listen 80;", format!("listen 127.0.0.1:{http};")),
        ("listen [::]:80;", String::new()),
        ("listen 443 ssl;", format!("listen 127.0.0.1:{https} ssl;")),
        ("listen [::]:443 ssl;", String::new()),
        (
            "server 127.0.0.1:8080;",
            format!("server 127.0.0.1:{gogo};"),
        ),
        (
            "/etc/letsencrypt/live/shogi.example.org/fullchain.pem",
            certificate,
        ),
        ("/etc/letsencrypt/live/shogi.example.org/privkey.pem", key),
        (
            "server_name shogi.example.org;",
            "server_name localhost;".into(),
        ),
    ];
    let mut text = documented.to_string();
    for (from, to) in replacements {
        assert!(
            text.contains(from),
            "deploy/nginx-gogo.conf has no `{from}`"
        );
        text = text.replace(from, &to);
    }
    text
}

/// nginx on `site` (the documented server blocks), in `dir`, in the foreground.
fn start_nginx(dir: &Path, site: &str) -> Running {
    let site_path = dir.join("gogo.conf");
    std::fs::write(&site_path, site).unwrap();
    let d = dir.display();
    let main = format!(
        "worker_processes 1;\npid {d}/nginx.pid;\nerror_log {d}/error.log;\ndaemon off;\n\
         events {{ worker_connections 128; }}\n\
         http {{\n  access_log off;\n  client_body_temp_path {d}/body;\n  proxy_temp_path {d}/proxy;\n  \
         fastcgi_temp_path {d}/fastcgi;\n  uwsgi_temp_path {d}/uwsgi;\n  scgi_temp_path {d}/scgi;\n  \
         include {};\n}}\n",
        site_path.display()
    );
    std::fs::write(dir.join("nginx.conf"), main).unwrap();
    // nginx with the test's folder as its prefix, log and configuration.
    let nginx = || {
        let mut command = Command::new(NGINX);
        command
            .arg("-e")
            .arg(dir.join("error.log"))
            .arg("-p")
            .arg(dir);
        command.arg("-c").arg(dir.join("nginx.conf"));
        command
    };
    let checked = nginx().arg("-t").output().unwrap();
    assert!(
        checked.status.success(),
        "nginx -t: {}",
        String::from_utf8_lossy(&checked.stderr)
    );
    Running(nginx().stdout(Stdio::null()).spawn().unwrap())
}

/// A client of the proxy from its own loopback address, trusting the test's certificate.
#[derive(Clone)]
struct Client {
    from: Ipv4Addr,
    port: u16,
    tls: tokio_rustls::TlsConnector,
}

/// An answer: status, headers (lower-case names) and body.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }
}

impl Client {
    async fn connect(&self) -> TlsStream<tokio::net::TcpStream> {
        let socket = TcpSocket::new_v4().unwrap();
        socket
            .bind(SocketAddr::new(IpAddr::V4(self.from), 0))
            .unwrap();
        let tcp = socket
            .connect(SocketAddr::from(([127, 0, 0, 1], self.port)))
            .await
            .unwrap();
        let name = rustls::pki_types::ServerName::try_from("localhost").unwrap();
        self.tls.connect(name, tcp).await.unwrap()
    }

    /// An HTTP/1.0 request (so that the answer comes unchunked and the connection closes
    /// after it), with `headers` (`Name: value` lines) and an optional JSON body.
    fn request(method: &str, path: &str, headers: &[String], body: Option<&Value>) -> String {
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let mut text = format!("{method} {path} HTTP/1.0\r\nHost: localhost\r\n");
        for h in headers {
            text.push_str(h);
            text.push_str("\r\n");
        }
        if !body.is_empty() {
            text.push_str("Content-Type: application/json\r\n");
        }
        text.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
        text
    }

    async fn call(
        &self,
        method: &str,
        path: &str,
        headers: &[String],
        body: Option<&Value>,
    ) -> Answer {
        let mut stream = self.connect().await;
        stream
            .write_all(Client::request(method, path, headers, body).as_bytes())
            .await
            .unwrap();
        let mut raw = Vec::new();
        // nginx may end TLS without close_notify after an HTTP/1.0 answer.
        let _ = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut raw)).await;
        let raw = String::from_utf8_lossy(&raw).into_owned();
        let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
        let mut lines = head.lines();
        let status = lines
            .next()
            .and_then(|l| l.split(' ').nth(1))
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no answer: {raw}"));
        let headers = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        Answer {
            status,
            headers,
            body: body.to_string(),
        }
    }
}

/// The test's self-signed certificate for `localhost`, written into `dir`, and a TLS
/// connector that trusts it alone.
fn certificate(dir: &Path) -> tokio_rustls::TlsConnector {
    let rcgen::CertifiedKey { cert, key_pair } =
        rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    std::fs::write(dir.join("cert.pem"), cert.pem()).unwrap();
    std::fs::write(dir.join("key.pem"), key_pair.serialize_pem()).unwrap();
    let mut roots = rustls::RootCertStore::empty();
    roots.add(cert.der().clone()).unwrap();
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_root_certificates(roots)
    .with_no_client_auth();
    tokio_rustls::TlsConnector::from(Arc::new(config))
}

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gogo-nginx-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // nginx's workers run as another user when the test runs as root: they must reach the
    // temporary folders nginx makes here.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

#[cfg_attr(not(has_nginx), ignore = "needs Debian's nginx (/usr/sbin/nginx)")]
#[tokio::test(flavor = "multi_thread")]
async fn the_documented_nginx_configuration_serves_online_play_over_tls() {
    let dir = scratch();
    let (http, https, gogo) = (free_port(), free_port(), free_port());
    let tls = certificate(&dir);
    let public = format!("https://localhost:{https}");
    let _server = Running(
        Command::new(env!("CARGO_BIN_EXE_gogo-gui"))
            .args(["--online", "--engine", "/bin/sh", "--host", "127.0.0.1"])
            .args(["--port", &gogo.to_string(), "--public-url", &public])
            .args(["--trust-proxy", "127.0.0.1", "--db"])
            .arg(dir.join("games.db"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    listening(gogo, "gogo-gui", &dir).await;
    let _nginx = start_nginx(&dir, &configuration(&dir, http, https, gogo));
    listening(https, "nginx", &dir).await;
    let client = |last: u8| Client {
        from: Ipv4Addr::new(127, 0, 0, last),
        port: https,
        tls: tls.clone(),
    };
    let alice = client(2);
    let origin = format!("Origin: {public}");

    // The page, over https, with gogo's own headers passed on.
    let page = alice.call("GET", "/online", &[], None).await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<html"), "{}", page.body);
    assert!(page.header("content-security-policy").is_some());

    // Plain http sends people to https.
    let plain = tokio::task::spawn_blocking(move || {
        let agent = ureq::AgentBuilder::new().redirects(0).build();
        match agent.get(&format!("http://127.0.0.1:{http}/online")).call() {
            Ok(r) | Err(ureq::Error::Status(_, r)) => {
                (r.status(), r.header("location").map(String::from))
            }
            Err(e) => panic!("{e}"),
        }
    })
    .await
    .unwrap();
    assert_eq!(plain.0, 301);
    assert!(plain.1.unwrap().starts_with("https://"));

    // A page from another site is refused through the proxy too.
    let evil = alice
        .call(
            "POST",
            "/api/token",
            &["Origin: https://evil.example".into()],
            Some(&json!({"name": "eve"})),
        )
        .await;
    assert_eq!(evil.status, 403, "{}", evil.body);

    // Two players, a room and its game over wss://.
    let new_player = |c: Client, name: &'static str| {
        let origin = origin.clone();
        async move {
            let answer = c
                .call(
                    "POST",
                    "/api/token",
                    &[origin],
                    Some(&json!({ "name": name })),
                )
                .await;
            answer
        }
    };
    let host = new_player(alice.clone(), "alice").await;
    assert_eq!(host.status, 200, "{}", host.body);
    let host_key = host.json()["token"].as_str().unwrap().to_string();
    let bob = client(3);
    let guest = new_player(bob.clone(), "bob").await;
    let guest_key = guest.json()["token"].as_str().unwrap().to_string();
    let bearer = |key: &str| format!("Authorization: Bearer {key}");
    let room = alice
        .call(
            "POST",
            "/online/rooms",
            &[origin.clone(), bearer(&host_key)],
            Some(&json!({"color": "sente",
                "clock": {"kind": "fischer", "main_ms": 60000, "increment_ms": 0}})),
        )
        .await;
    assert_eq!(room.status, 200, "{}", room.body);
    let room = room.json();
    let game = room["id"].as_str().unwrap().to_string();
    let joined = bob
        .call(
            "POST",
            &format!("/online/rooms/{game}/join"),
            &[origin.clone(), bearer(&guest_key)],
            None,
        )
        .await;
    assert_eq!(joined.status, 200, "{}", joined.body);
    let joined = joined.json();

    // Bob follows the game through the API stream, which nginx must pass on as it comes.
    let mut stream = bob.connect().await;
    stream
        .write_all(
            Client::request(
                "GET",
                &format!("/api/board/game/stream/{game}"),
                &[bearer(&guest_key)],
                None,
            )
            .as_bytes(),
        )
        .await
        .unwrap();
    let mut stream = BufReader::new(stream);

    let socket = |c: Client, seat: String| {
        let (game, origin) = (game.clone(), public.clone());
        async move {
            let mut request = format!("wss://localhost/online/ws?game={game}&seat={seat}")
                .into_client_request()
                .unwrap();
            request
                .headers_mut()
                .insert("origin", origin.parse().unwrap());
            let (socket, _) = tokio_tungstenite::client_async(request, c.connect().await)
                .await
                .expect("the WebSocket upgrade through nginx");
            socket
        }
    };
    let mut sente = socket(alice.clone(), room["seat"].as_str().unwrap().into()).await;
    let mut gote = socket(bob.clone(), joined["seat"].as_str().unwrap().into()).await;
    async fn until(
        page: &mut tokio_tungstenite::WebSocketStream<TlsStream<tokio::net::TcpStream>>,
        want: impl Fn(&Value) -> bool,
    ) -> Value {
        loop {
            let message = tokio::time::timeout(Duration::from_secs(10), page.next())
                .await
                .expect("an update in time")
                .expect("the socket open")
                .unwrap();
            if let Message::Text(text) = message {
                let value: Value = serde_json::from_str(&text).unwrap();
                if want(&value) {
                    return value;
                }
            }
        }
    }
    until(&mut sente, |v| v["type"] == "room").await;
    until(&mut gote, |v| v["type"] == "room").await;
    sente
        .send(Message::Text(
            json!({"type": "move", "ply": 0, "usi": "2e3d"})
                .to_string()
                .into(),
        ))
        .await
        .unwrap();
    let seen = until(&mut gote, |v| {
        v["type"] == "event" && v["event"]["kind"] == "moved"
    })
    .await;
    assert_eq!(seen["event"]["usi"], "2e3d", "{seen}");

    // The stream has told the move while it stays open: nginx did not hold it back.
    let mut lines = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(10);
    while !lines
        .iter()
        .any(|l: &Value| l["type"] == "gameState" && l["moves"] == "2e3d")
    {
        let mut line = String::new();
        let left = deadline.saturating_duration_since(Instant::now());
        let read = tokio::time::timeout(left, stream.read_line(&mut line))
            .await
            .expect("the game's stream passed on line by line");
        assert!(read.unwrap() > 0, "the stream ended: {lines:?}");
        if let Ok(value) = serde_json::from_str::<Value>(line.trim()) {
            lines.push(value);
        }
    }
    assert_eq!(lines[0]["type"], "gameFull", "{lines:?}");

    // Each client is limited by the address nginx forwards: alice's (127.0.0.2) runs out of
    // new players, whatever X-Forwarded-For she sends, while a new client's does not.
    let mut refused = None;
    for i in 0..12 {
        let answer = alice
            .call(
                "POST",
                "/api/token",
                &[origin.clone(), format!("X-Forwarded-For: 10.9.8.{i}")],
                Some(&json!({"name": format!("a{i}")})),
            )
            .await;
        if answer.status != 200 {
            refused = Some((i, answer.status));
            break;
        }
    }
    // Alice made one player before the loop; ten a minute are allowed.
    assert_eq!(refused, Some((9, 429)));
    let carol = new_player(client(4), "carol").await;
    assert_eq!(carol.status, 200, "{}", carol.body);

    let _ = std::fs::remove_dir_all(&dir);
}
