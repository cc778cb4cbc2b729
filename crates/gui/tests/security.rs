//! The board's server serves only its own page: a foreign `Origin` or `Host`, a missing or
//! wrong token, an oversize message and one session too many are refused; a silent page's
//! session ends; and no engine process outlives its session.

use futures_util::{SinkExt, StreamExt};
mod common;

use common::{marked_engine, processes_with, serve};
use gogo_gui::Limits;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The status code of a raw HTTP request for `path` with these headers (a WebSocket
/// handshake when `websocket`).
fn status(address: SocketAddr, path: &str, headers: &[(&str, &str)], websocket: bool) -> u16 {
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut request = format!("GET {path} HTTP/1.1\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    if websocket {
        request.push_str(
            "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n",
        );
    } else {
        request.push_str("Connection: close\r\n");
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).unwrap();
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).unwrap();
    let line = String::from_utf8_lossy(&head);
    line[9..12].parse().unwrap_or_else(|_| panic!("{line}"))
}

#[tokio::test(flavor = "multi_thread")]
async fn only_the_servers_own_page_gets_in() {
    let (address, token) = serve(marked_engine("access"), Limits::default()).await;
    let port = address.port();
    let own_host = address.to_string();
    let own_origin = format!("http://{address}");
    let local_host = format!("localhost:{port}");
    let page = format!("/?token={token}");
    let ws = format!("/ws?token={token}");
    let checks = tokio::task::spawn_blocking(move || {
        vec![
            // The page and the game, with the token, from the page itself.
            (
                "page",
                status(address, &page, &[("Host", &own_host)], false),
                200,
            ),
            (
                "page as localhost",
                status(address, &page, &[("Host", &local_host)], false),
                200,
            ),
            (
                "game",
                status(
                    address,
                    &ws,
                    &[("Host", &own_host), ("Origin", &own_origin)],
                    true,
                ),
                101,
            ),
            // Assets carry no secret: Host and Origin are still checked.
            (
                "script",
                status(address, "/app.js", &[("Host", &own_host)], false),
                200,
            ),
            (
                "a module",
                status(address, "/js/board.js", &[("Host", &own_host)], false),
                200,
            ),
            (
                "no such module",
                status(address, "/js/../app.js", &[("Host", &own_host)], false),
                404,
            ),
            (
                "a module, foreign host",
                status(address, "/js/board.js", &[("Host", "evil.example")], false),
                403,
            ),
            // Cross-site WebSocket hijacking: another site's page opening the game.
            (
                "foreign origin",
                status(
                    address,
                    &ws,
                    &[("Host", &own_host), ("Origin", "http://evil.example")],
                    true,
                ),
                403,
            ),
            (
                "foreign origin, same host name",
                status(
                    address,
                    &ws,
                    &[
                        ("Host", &own_host),
                        ("Origin", &format!("http://{address}.evil.example")),
                    ],
                    true,
                ),
                403,
            ),
            (
                "null origin",
                status(
                    address,
                    &ws,
                    &[("Host", &own_host), ("Origin", "null")],
                    true,
                ),
                403,
            ),
            // DNS rebinding: another name that resolves here.
            (
                "foreign host",
                status(
                    address,
                    &page,
                    &[("Host", &format!("evil.example:{port}"))],
                    false,
                ),
                403,
            ),
            (
                "foreign host, game",
                status(
                    address,
                    &ws,
                    &[("Host", "evil.example"), ("Origin", "http://evil.example")],
                    true,
                ),
                403,
            ),
            (
                "foreign host, script",
                status(address, "/app.js", &[("Host", "evil.example")], false),
                403,
            ),
            ("no host", status(address, "/app.js", &[], false), 403),
            // The token.
            (
                "page without token",
                status(address, "/", &[("Host", &own_host)], false),
                403,
            ),
            (
                "game without token",
                status(
                    address,
                    "/ws",
                    &[("Host", &own_host), ("Origin", &own_origin)],
                    true,
                ),
                403,
            ),
            (
                "game with a wrong token",
                status(
                    address,
                    "/ws?token=0123456789abcdef0123456789abcdef",
                    &[("Host", &own_host), ("Origin", &own_origin)],
                    true,
                ),
                403,
            ),
            (
                "game with a token's prefix",
                status(address, &ws[..ws.len() - 1], &[("Host", &own_host)], true),
                403,
            ),
        ]
    })
    .await
    .unwrap();
    for (what, got, want) in checks {
        assert_eq!(got, want, "{what}");
    }
}

async fn connect(address: SocketAddr, token: &str) -> Socket {
    let (socket, _) = tokio_tungstenite::connect_async(format!("ws://{address}/ws?token={token}"))
        .await
        .unwrap();
    socket
}

/// The next text update of type `kind`, within five seconds; `None` if the socket closed.
async fn next(socket: &mut Socket, kind: &str) -> Option<Value> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        let message = tokio::time::timeout_at(deadline, socket.next())
            .await
            .unwrap_or_else(|_| panic!("no {kind} update in time"));
        match message {
            Some(Ok(Message::Text(text))) => {
                let v: Value = serde_json::from_str(&text).unwrap();
                if v["type"] == kind {
                    return Some(v);
                }
            }
            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
            Some(Ok(_)) => {}
        }
    }
}

/// Whether the server closes `socket` within five seconds (whatever it says before).
async fn closes(socket: &mut Socket) -> bool {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        match tokio::time::timeout_at(deadline, socket.next()).await {
            Err(_) => return false,
            Ok(Some(Ok(Message::Close(_))) | None | Some(Err(_))) => return true,
            Ok(Some(Ok(_))) => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn an_oversize_message_closes_its_session_only() {
    let limits = Limits {
        max_message_bytes: 64 * 1024,
        ..Limits::default()
    };
    let (address, token) = serve(marked_engine("oversize"), limits).await;
    let mut socket = connect(address, &token).await;
    assert!(next(&mut socket, "state").await.is_some());
    let text = "x".repeat(200 * 1024);
    let request = json!({"type": "load", "text": text}).to_string();
    let _ = socket.send(Message::Text(request.into())).await;
    assert!(closes(&mut socket).await, "still open");
    // A record within the limit is read and refused for what it is, not for its size.
    let mut socket = connect(address, &token).await;
    assert!(next(&mut socket, "state").await.is_some());
    let request = json!({"type": "load", "text": "x".repeat(1000)}).to_string();
    socket.send(Message::Text(request.into())).await.unwrap();
    let error = next(&mut socket, "error").await.expect("an error update");
    assert!(!error["message"].as_str().unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn sessions_are_capped_with_a_clear_message() {
    let limits = Limits {
        max_sessions: 2,
        ..Limits::default()
    };
    let (address, token) = serve(marked_engine("cap"), limits).await;
    let mut first = connect(address, &token).await;
    assert!(next(&mut first, "state").await.is_some());
    let mut second = connect(address, &token).await;
    assert!(next(&mut second, "state").await.is_some());
    let mut third = connect(address, &token).await;
    let refused = next(&mut third, "error").await.expect("an error update");
    let message = refused["message"].as_str().unwrap();
    assert!(
        message.contains("the server is full: 2 games are open"),
        "{message}"
    );
    assert!(next(&mut third, "state").await.is_none());
    // A closed page frees its place.
    first.close(None).await.unwrap();
    drop(first);
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let mut again = connect(address, &token).await;
        match next(&mut again, "state").await {
            Some(_) => break,
            None => assert!(Instant::now() < deadline, "the place was not freed"),
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits up to five seconds for `marker`'s processes to number `want`.
async fn settle(marker: &str, want: usize) -> usize {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let n = processes_with(marker);
        if n == want || Instant::now() > deadline {
            return n;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn engine_game() -> Message {
    let request = json!({"type": "new_game", "start": "standard", "rules": "standard",
        "sente": "engine", "gote": "human", "clock": {"kind": "none", "engine_ms": 50}});
    Message::Text(request.to_string().into())
}

/// Many pages come and go, each starting its engine: none of the engine processes is left,
/// running or unreaped, once their boards are gone (given to new pages when the server is
/// full, or after waiting for their page).
#[tokio::test(flavor = "multi_thread")]
async fn no_engine_outlives_its_session() {
    let marker = format!("gogo-gui-reap-{}", std::process::id());
    let limits = Limits {
        idle_timeout: Duration::from_secs(1),
        ..Limits::default()
    };
    let (address, token) = serve(marked_engine(&marker), limits).await;
    for round in 0..12 {
        let mut socket = connect(address, &token).await;
        assert!(next(&mut socket, "state").await.is_some());
        socket.send(engine_game()).await.unwrap();
        // The engine resigns at once: the game ends, so the engine was running.
        let ended = loop {
            let state = next(&mut socket, "state").await.expect("open");
            if !state["result"].is_null() {
                break state;
            }
        };
        assert_eq!(ended["reason"], "resignation", "{round}: {ended}");
        if round % 2 == 0 {
            socket.close(None).await.unwrap();
        }
        drop(socket); // half of them just vanish, as a closed tab's connection does
    }
    assert_eq!(settle(&marker, 0).await, 0);
}

/// A page that falls silent (it answers no ping) loses its session after the idle timeout,
/// and its engine with it.
#[tokio::test(flavor = "multi_thread")]
async fn a_silent_page_times_out() {
    let marker = format!("gogo-gui-idle-{}", std::process::id());
    let limits = Limits {
        idle_timeout: Duration::from_millis(400),
        ..Limits::default()
    };
    let (address, token) = serve(marked_engine(&marker), limits).await;
    let mut socket = connect(address, &token).await;
    assert!(next(&mut socket, "state").await.is_some());
    socket.send(engine_game()).await.unwrap();
    assert_eq!(settle(&marker, 1).await, 1, "the engine started");
    // Not reading: no pong goes back.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(
        settle(&marker, 0).await,
        0,
        "the engine ended with the session"
    );
    let mut closed = false;
    while let Ok(Some(message)) = tokio::time::timeout(Duration::from_secs(2), socket.next()).await
    {
        if matches!(message, Ok(Message::Close(_)) | Err(_)) {
            closed = true;
            break;
        }
    }
    assert!(closed, "the server closed the session");
    // A page that answers pings (tungstenite answers while it reads) stays.
    let mut socket = connect(address, &token).await;
    let started = Instant::now();
    while started.elapsed() < Duration::from_millis(1500) {
        match tokio::time::timeout(Duration::from_millis(100), socket.next()).await {
            Ok(Some(Ok(Message::Close(_)))) | Ok(None) | Ok(Some(Err(_))) => {
                panic!("a live page was closed")
            }
            _ => {}
        }
    }
}
