//! How long the board's game review takes: a 60-ply game that gogo plays against itself
//! (20 ms a move, from the openings of `scripts/openings.txt` until one lasts 60 plies) is
//! loaded into a page and reviewed at 200 ms a position, RUNS times. Prints each run's time
//! from the request to the summary, the progress updates the page received, and the median.
//! The server runs in this process with the gogo binary of this build behind it.
//!
//!   cargo build --release -p gogo && cargo run --release -p gogo-gui --example review_timing -- [RUNS=3] [MILLIS=200]

use futures_util::{SinkExt, StreamExt};
use gogo_gui::Config;
use gogo_protocol::EngineSpec;
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

const PLIES: usize = 60;

async fn send(socket: &mut Socket, value: Value) {
    socket
        .send(Message::Text(value.to_string().into()))
        .await
        .expect("the page's connection");
}

/// The next update of `kind` that `accept` takes, within a minute.
async fn next(socket: &mut Socket, kind: &str, accept: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let message = tokio::time::timeout_at(deadline, socket.next())
            .await
            .unwrap_or_else(|_| panic!("no {kind} update within a minute"))
            .expect("the connection is open")
            .expect("a message");
        if let Message::Text(text) = message {
            let v: Value = serde_json::from_str(&text).expect("JSON");
            if v["type"] == kind && accept(&v) {
                return v;
            }
        }
    }
}

/// A game of gogo against itself that reaches `PLIES` plies, as `position ... moves ...`.
async fn self_played_game(socket: &mut Socket) -> String {
    let openings = std::fs::read_to_string("scripts/openings.txt").unwrap_or_default();
    // Each opening's position (the start, then each line's moves played).
    let mut starts = vec!["standard".to_string()];
    for line in openings.lines() {
        let usi = line.split('#').next().unwrap_or("").trim();
        if let Ok((start, moves)) = gogo_rules::parse_usi_position(usi) {
            let mut pos = start;
            moves.iter().for_each(|&m| pos.play(m));
            starts.push(pos.to_sfen());
        }
    }
    for sfen in starts {
        send(
            socket,
            json!({"type": "new_game", "start": sfen, "rules": "standard",
            "sente": "engine", "gote": "engine", "clock": {"kind": "none", "engine_ms": 20}}),
        )
        .await;
        let state = next(socket, "state", |v| {
            v["result"].is_string() || v["moves"].as_array().is_some_and(|m| m.len() >= PLIES)
        })
        .await;
        let moves = state["moves"].as_array().unwrap();
        if moves.len() >= PLIES {
            let start = state["positions"][0].as_str().unwrap();
            let list: Vec<&str> = moves[..PLIES]
                .iter()
                .map(|m| m["usi"].as_str().unwrap())
                .collect();
            return format!("position sfen {start} moves {}", list.join(" "));
        }
    }
    panic!("no opening gave a game of {PLIES} plies");
}

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let runs: usize = args.next().map_or(3, |a| a.parse().expect("RUNS"));
    let millis: u64 = args.next().map_or(200, |a| a.parse().expect("MILLIS"));
    let exe = std::env::current_exe().unwrap();
    let gogo = exe.parent().unwrap().parent().unwrap().join("gogo");
    assert!(
        gogo.exists(),
        "build gogo first: cargo build --release -p gogo"
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let config = Config::new(EngineSpec::new(gogo.display().to_string()), address);
    let token = config.access.token.clone();
    tokio::spawn(async move { gogo_gui::serve(listener, config).await.unwrap() });
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{address}/ws?token={token}"))
            .await
            .expect("the server");
    next(&mut socket, "state", |_| true).await;
    let game = self_played_game(&mut socket).await;
    let mut times = Vec::new();
    for run in 1..=runs {
        send(
            &mut socket,
            json!({"type": "new_game", "start": "standard", "rules": "standard",
            "sente": "human", "gote": "human", "clock": {"kind": "none", "engine_ms": 100}}),
        )
        .await;
        next(&mut socket, "state", |v| {
            v["moves"].as_array().unwrap().is_empty()
        })
        .await;
        send(&mut socket, json!({"type": "load", "text": game})).await;
        next(&mut socket, "state", |v| {
            v["moves"].as_array().unwrap().len() == PLIES
        })
        .await;
        let asked = Instant::now();
        send(&mut socket, json!({"type": "review", "millis": millis})).await;
        let mut updates = 0;
        let review = loop {
            let r = next(&mut socket, "review", |_| true).await;
            updates += 1;
            if !r["summary"].is_null() {
                break r;
            }
        };
        let took = asked.elapsed().as_secs_f64();
        let positions = review["total"].as_u64().unwrap();
        let marks = review["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| !m["mark"].is_null())
            .count();
        println!(
            "run {run}: {PLIES} plies, {positions} positions at {millis} ms: {took:.2} s \
             ({:+.0} ms a position against the {millis} ms asked: mates end searches early), {updates} progress updates, {marks} marks",
            (took * 1000.0 / positions as f64) - millis as f64
        );
        times.push(took);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "median of {runs}: {:.2} s for {PLIES} plies at {millis} ms a position",
        times[times.len() / 2]
    );
}
