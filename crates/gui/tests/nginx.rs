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
#[path = "common/proxy.rs"]
mod proxy;

use common::free_port;
use futures_util::{SinkExt, StreamExt};
use proxy::*;
use serde_json::{json, Value};
use std::net::Ipv4Addr;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio_rustls::client::TlsStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

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
    let _nginx = start_nginx(&dir, &configuration(&dir, http, https, &[gogo]));
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
    // Its first line, the game in full, is read before the move is made: under load the
    // server could otherwise take the stream after the move, put the move in that first line
    // and have no later line to tell it in.
    let mut lines: Vec<Value> = Vec::new();
    read_stream_until(&mut stream, &mut lines, |lines| !lines.is_empty()).await;
    assert_eq!(lines[0]["type"], "gameFull", "{lines:?}");

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
    read_stream_until(&mut stream, &mut lines, |lines| {
        lines
            .iter()
            .any(|l| l["type"] == "gameState" && l["moves"] == "2e3d")
    })
    .await;
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

/// Reads a game stream's lines into `lines` (its JSON objects: header lines and any chunk
/// sizes are not) until `done` says so, failing after 10 s or at the stream's end.
async fn read_stream_until<R: tokio::io::AsyncBufRead + Unpin>(
    stream: &mut R,
    lines: &mut Vec<Value>,
    done: impl Fn(&[Value]) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !done(lines) {
        let mut line = String::new();
        let left = deadline.saturating_duration_since(Instant::now());
        let read = tokio::time::timeout(left, stream.read_line(&mut line))
            .await
            .unwrap_or_else(|_| panic!("the game's stream passed on line by line: {lines:?}"));
        assert!(read.unwrap() > 0, "the stream ended: {lines:?}");
        if let Ok(value) = serde_json::from_str::<Value>(line.trim()) {
            if value.is_object() {
                lines.push(value);
            }
        }
    }
}
