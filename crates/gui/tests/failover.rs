//! Issue 57: two `gogo-gui --online` processes on one PostgreSQL behind the documented nginx
//! configuration (`deploy/nginx-gogo.conf`, its upstream naming both), and the process that
//! holds a timed game killed with SIGKILL mid-game. The pages come back through nginx to the
//! other process, which takes the lease over; the game goes on with every acknowledged move,
//! and the flag that falls after the handover falls once, judged once.
//!
//! Needs Debian's nginx and a PostgreSQL database (`GOGO_TEST_POSTGRES`); `.ci/run` has
//! both. Without them it is ignored, with the reason.
#![cfg_attr(not(all(has_nginx, has_postgres)), allow(dead_code, unused_imports))]

mod common;
#[path = "common/proxy.rs"]
mod proxy;

use common::{free_port, Schema};
use futures_util::{SinkExt, StreamExt};
use proxy::*;
use serde_json::{json, Value};
use std::io::BufRead;
use std::net::Ipv4Addr;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tokio_rustls::client::TlsStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

type Socket = tokio_tungstenite::WebSocketStream<TlsStream<tokio::net::TcpStream>>;

/// `gogo-gui --online` on `port` behind the proxy, on the schema's database: the running
/// process and its id among the processes (its first words on stderr say it).
async fn start(
    schema: &Schema,
    port: u16,
    public: &str,
    dir: &std::path::Path,
) -> (Running, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gogo-gui"))
        .args(["--online", "--engine", "/bin/sh", "--host", "127.0.0.1"])
        .args(["--port", &port.to_string(), "--public-url", public])
        .args(["--trust-proxy", "127.0.0.1", "--db", &schema.url])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (id_tx, id_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
        {
            if let Some(id) = line.split_whitespace().find(|w| w.starts_with("gogo_")) {
                let _ = id_tx.send(id.to_string());
            }
        }
    });
    listening(port, "gogo-gui", dir).await;
    let id = id_rx.recv_timeout(Duration::from_secs(20)).unwrap();
    (Running(child), id)
}

/// A page's socket through the proxy; `None` if it could not attach now.
async fn open(client: &Client, public: &str, query: &str) -> Option<Socket> {
    let mut request = format!("wss://localhost/online/ws?{query}")
        .into_client_request()
        .unwrap();
    request
        .headers_mut()
        .insert("origin", public.parse().unwrap());
    let (socket, _) = tokio_tungstenite::client_async(request, client.connect().await)
        .await
        .ok()?;
    Some(socket)
}

/// Updates up to the first `want` takes, all kept in `seen`; `None` if the socket closed.
async fn until(
    page: &mut Socket,
    seen: &mut Vec<Value>,
    want: impl Fn(&Value) -> bool,
) -> Option<Value> {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(20), page.next())
            .await
            .expect("an update in time");
        match message {
            Some(Ok(Message::Text(text))) => {
                let value: Value = serde_json::from_str(&text).unwrap();
                seen.push(value.clone());
                if want(&value) {
                    return Some(value);
                }
            }
            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
            Some(Ok(_)) => {}
        }
    }
}

#[cfg_attr(
    not(all(has_nginx, has_postgres)),
    ignore = "needs Debian's nginx and GOGO_TEST_POSTGRES (.ci/run has both)"
)]
#[tokio::test(flavor = "multi_thread")]
async fn the_process_holding_a_timed_game_killed_the_other_takes_it_up_through_nginx() {
    let schema = Schema::new("failover").await;
    let dir = scratch();
    let (http, https) = (free_port(), free_port());
    let ports = [free_port(), free_port()];
    let tls = certificate(&dir);
    let public = format!("https://localhost:{https}");
    let mut processes = vec![
        start(&schema, ports[0], &public, &dir).await,
        start(&schema, ports[1], &public, &dir).await,
    ];
    let _nginx = start_nginx(&dir, &configuration(&dir, http, https, &ports));
    listening(https, "nginx", &dir).await;
    let client = |last: u8| Client {
        from: Ipv4Addr::new(127, 0, 0, last),
        port: https,
        tls: tls.clone(),
    };
    let (alice, bob) = (client(2), client(3));
    let origin = format!("Origin: {public}");
    let bearer = |key: &Value| format!("Authorization: Bearer {}", key.as_str().unwrap());
    let token = |c: Client, name: &'static str| {
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
            assert_eq!(answer.status, 200, "{}", answer.body);
            answer.json()["token"].clone()
        }
    };
    let (alice_key, bob_key) = (
        token(alice.clone(), "alice").await,
        token(bob.clone(), "bob").await,
    );
    // Eight seconds each: the flag of the side to move falls a few seconds after the
    // handover.
    let settings = json!({"color": "sente", "rated": true,
        "clock": {"kind": "fischer", "main_ms": 8000, "increment_ms": 0}});
    let room = alice
        .call(
            "POST",
            "/online/rooms",
            &[origin.clone(), bearer(&alice_key)],
            Some(&settings),
        )
        .await;
    assert_eq!(room.status, 200, "{}", room.body);
    let room = room.json();
    let game = room["id"].as_str().unwrap().to_string();
    let joined = bob
        .call(
            "POST",
            &format!("/online/rooms/{game}/join"),
            &[origin.clone(), bearer(&bob_key)],
            None,
        )
        .await;
    assert_eq!(joined.status, 200, "{}", joined.body);
    let joined = joined.json();
    let seats = [
        room["seat"].as_str().unwrap().to_string(),
        joined["seat"].as_str().unwrap().to_string(),
        String::new(),
    ];
    let clients = [alice.clone(), bob.clone(), client(4)];
    let mut pages = Vec::new();
    let mut seen: Vec<Vec<Value>> = vec![Vec::new(); 3];
    for (i, c) in clients.iter().enumerate() {
        let mut page = open(c, &public, &format!("game={game}&seat={}", seats[i]))
            .await
            .unwrap();
        until(&mut page, &mut seen[i], |v| v["type"] == "room")
            .await
            .unwrap();
        pages.push(page);
    }
    let moved = |ply: usize| move |v: &Value| v["type"] == "event" && v["event"]["ply"] == ply;
    let mut last = Value::Null;
    for (ply, usi) in ["2e3d", "4a3b", "3d2c"].iter().enumerate() {
        let request = json!({"type": "move", "ply": ply, "usi": usi});
        pages[ply % 2]
            .send(Message::Text(request.to_string().into()))
            .await
            .unwrap();
        for (page, seen) in pages.iter_mut().zip(&mut seen) {
            last = until(page, seen, moved(ply))
                .await
                .expect("the move, before the kill");
        }
    }

    // The holder dies with Gote to move.
    let holder = schema
        .query(&format!(
            "SELECT holder FROM game_leases WHERE game = '{game}'"
        ))
        .await;
    let dead = processes
        .iter()
        .position(|(_, id)| [id.clone()] == holder[..])
        .expect("a holder");
    let (mut killed, _) = processes.remove(dead);
    let killed_at = Instant::now();
    killed.0.kill().unwrap();
    killed.0.wait().unwrap();

    // Every page loses its room (at once, or once the relay's lease lapses) and comes back
    // through nginx to the survivor, with the last event it saw.
    let mut back = Vec::new();
    for (i, mut page) in pages.into_iter().enumerate() {
        assert!(until(&mut page, &mut seen[i], |_| false).await.is_none());
        let query = format!(
            "game={game}&seat={}&epoch={}&after={}",
            seats[i], last["epoch"], last["number"]
        );
        let page = loop {
            assert!(killed_at.elapsed() < Duration::from_secs(20), "no way back");
            if let Some(mut page) = open(&clients[i], &public, &query).await {
                if let Some(view) = until(&mut page, &mut seen[i], |v| v["type"] == "room").await {
                    assert_eq!(view["moves"], json!(["2e3d", "4a3b", "3d2c"]), "{view}");
                    assert_eq!(view["status"], "playing", "{view}");
                    break page;
                }
            }
            tokio::time::sleep(Duration::from_millis(300)).await;
        };
        back.push(page);
    }
    let took_over = killed_at.elapsed();
    let holder = schema
        .query(&format!(
            "SELECT holder FROM game_leases WHERE game = '{game}'"
        ))
        .await;
    assert_eq!(
        holder,
        [processes[0].1.clone()],
        "the lease moved to the survivor"
    );

    // Gote's flag falls on the survivor: once, the same end for every page.
    for (page, seen) in back.iter_mut().zip(&mut seen) {
        let over = until(page, seen, |v| v["type"] == "room" && v["status"] == "over")
            .await
            .expect("the end");
        assert_eq!(over["result"], "1-0", "{over}");
        let ends = seen
            .iter()
            .filter(|v| v["type"] == "event" && v["event"]["kind"] == "ended")
            .count();
        assert_eq!(ends, 1, "{seen:?}");
    }
    let result = schema
        .query(&format!(
            "SELECT winner || ': ' || reason FROM games WHERE id = '{game}'"
        ))
        .await;
    assert!(result[0].starts_with("sente: "), "{result:?}");
    let moves = schema
        .query(&format!(
            "SELECT usi FROM moves WHERE game_id = '{game}' ORDER BY ply"
        ))
        .await;
    assert_eq!(moves, ["2e3d", "4a3b", "3d2c"]);
    eprintln!("taken over and every page back within {took_over:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
