//! Several `gogo-gui --online` processes on one PostgreSQL (issue 57): a game whose players
//! are attached to different processes, every update reaching every page once and in order;
//! the same move sent to both processes at once, played once; and the process that holds a
//! game killed with SIGKILL mid-game, the other taking the game up, with a flag that falls
//! during the handover judged once. Each test has a schema of its own
//! (`GOGO_TEST_POSTGRES`; `.ci/run` starts a database).

mod common;

use common::{call, expect_update as next, free_port, player, send_json as send};
use common::{post_form, read_stream};
use common::{start_binary_with, Page, Schema};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;

/// One server process, killed when dropped.
struct Process {
    child: std::process::Child,
    address: SocketAddr,
}

impl Process {
    async fn start(schema: &Schema) -> Process {
        Process::start_with(schema, std::path::Path::new("/bin/sh")).await
    }

    /// A process whose CPU is gogo (the others' engine cannot play).
    async fn start_with_gogo(schema: &Schema) -> Process {
        Process::start_with(schema, &common::gogo()).await
    }

    async fn start_with(schema: &Schema, engine: &std::path::Path) -> Process {
        let port = free_port();
        let db = std::path::Path::new(&schema.url);
        let child = start_binary_with(db, port, engine).await;
        Process {
            child,
            address: ([127, 0, 0, 1], port).into(),
        }
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

async fn socket(address: SocketAddr, game: &str, seat: &str) -> Page {
    let url = format!("ws://{address}/online/ws?game={game}&seat={seat}");
    tokio_tungstenite::connect_async(url).await.unwrap().0
}

/// A page and every update it was sent, in order.
struct Watched {
    page: Page,
    seen: Vec<Value>,
}

impl Watched {
    async fn open(address: SocketAddr, game: &str, seat: &str) -> Watched {
        Watched {
            page: socket(address, game, seat).await,
            seen: Vec::new(),
        }
    }

    /// Reads updates until one of `kind` that `accept` takes; keeps them all.
    async fn until(&mut self, kind: &str, accept: impl Fn(&Value) -> bool) -> Value {
        use futures_util::StreamExt;
        use tokio_tungstenite::tungstenite::Message;
        loop {
            let message = tokio::time::timeout(Duration::from_secs(15), self.page.next())
                .await
                .unwrap_or_else(|_| panic!("no {kind} update in 15 s: {:?}", self.seen));
            match message {
                Some(Ok(Message::Text(text))) => {
                    let v: Value = serde_json::from_str(&text).unwrap();
                    self.seen.push(v.clone());
                    if v["type"] == kind && accept(&v) {
                        return v;
                    }
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => {
                    panic!("the socket closed before a {kind} update: {:?}", self.seen)
                }
                Some(Ok(_)) => {}
            }
        }
    }

    /// The numbers of the events it was sent, and the moves among them.
    fn events(&self) -> (Vec<u64>, Vec<String>) {
        let events: Vec<&Value> = self.seen.iter().filter(|v| v["type"] == "event").collect();
        let numbers = events
            .iter()
            .map(|v| v["number"].as_u64().unwrap())
            .collect();
        let moves = events
            .iter()
            .filter(|v| v["event"]["kind"] == "moved")
            .map(|v| v["event"]["usi"].as_str().unwrap().to_string())
            .collect();
        (numbers, moves)
    }
}

fn moved(ply: usize) -> impl Fn(&Value) -> bool {
    move |v| v["event"]["kind"] == "moved" && v["event"]["ply"] == ply
}

const OPENING: [&str; 4] = ["2e3d", "4a3b", "3d2c", "3b2c"];

/// A room made on `host` by a new player as Sente with `settings`, joined through `guest`
/// by another: the game and both seats.
async fn table(host: SocketAddr, guest: SocketAddr, settings: Value) -> (String, [String; 2]) {
    let (alice, _) = player(host, "alice").await;
    let (bob, _) = player(guest, "bob").await;
    let (status, room) = call(host, "POST", "/online/rooms", &alice, Some(settings)).await;
    assert_eq!(status, 200, "{room}");
    let game = room["id"].as_str().unwrap().to_string();
    let join = format!("/online/rooms/{game}/join");
    let (status, joined) = call(guest, "POST", &join, &bob, None).await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["side"], "gote");
    let seat = |v: &Value| v["seat"].as_str().unwrap().to_string();
    (game, [seat(&room), seat(&joined)])
}

#[cfg_attr(
    not(has_postgres),
    ignore = "no PostgreSQL: set GOGO_TEST_POSTGRES to a database URL (.ci/run does)"
)]
#[tokio::test(flavor = "multi_thread")]
async fn a_game_between_pages_on_two_processes_reaches_everyone_once_in_order() {
    let schema = Schema::new("two").await;
    let one = Process::start(&schema).await;
    let two = Process::start(&schema).await;
    let clock = json!({"kind": "fischer", "main_ms": 60000, "increment_ms": 1000});
    let settings = json!({"color": "sente", "rated": true, "clock": clock});
    // Made on process 1 (which holds it), joined through process 2.
    let (game, seats) = table(one.address, two.address, settings).await;
    let mut alice = Watched::open(one.address, &game, &seats[0]).await;
    let mut bob = Watched::open(two.address, &game, &seats[1]).await;
    let mut watcher = Watched::open(two.address, &game, "").await;
    for page in [&mut alice, &mut bob, &mut watcher] {
        let view = page.until("room", |_| true).await;
        assert_eq!(view["status"], "playing", "{view}");
        assert_eq!(view["seats"][0]["name"], "alice");
        assert_eq!(view["seats"][1]["name"], "bob");
    }
    for (ply, usi) in OPENING.iter().enumerate() {
        let mover = if ply % 2 == 0 { &mut alice } else { &mut bob };
        send(
            &mut mover.page,
            json!({"type": "move", "ply": ply, "usi": usi}),
        )
        .await;
        for page in [&mut alice, &mut bob, &mut watcher] {
            let event = page.until("event", moved(ply)).await;
            assert_eq!(event["event"]["usi"], *usi);
            // The clock of the side that moved, with its increment, as the holder judged.
            let clocks = &event["event"]["clocks_ms"];
            assert!(clocks[ply % 2].as_u64().unwrap() <= 61_000, "{event}");
        }
    }
    // Offers, chat and the end, from both sides.
    send(&mut bob.page, json!({"type": "offer_draw"})).await;
    alice
        .until("event", |v| v["event"]["kind"] == "draw_offered")
        .await;
    send(&mut alice.page, json!({"type": "decline_draw"})).await;
    for page in [&mut alice, &mut bob, &mut watcher] {
        page.until("event", |v| v["event"]["kind"] == "draw_declined")
            .await;
    }
    send(&mut bob.page, json!({"type": "chat", "text": "<b>gg</b>"})).await;
    for page in [&mut alice, &mut bob, &mut watcher] {
        let line = page.until("chat", |_| true).await;
        assert_eq!(line["text"], "<b>gg</b>");
        assert_eq!(line["name"], "bob");
    }
    send(&mut alice.page, json!({"type": "resign"})).await;
    for page in [&mut alice, &mut bob, &mut watcher] {
        let over = page.until("room", |v| v["status"] == "over").await;
        assert_eq!(over["result"], "0-1");
        // Rated: both ratings moved, and every page sees them.
        assert!(
            over["seats"][1]["rating"].as_u64().unwrap() > 1500,
            "{over}"
        );
    }
    // Every event reached every page once, in order, with nothing missing.
    let (numbers, moves) = alice.events();
    assert_eq!(moves, OPENING);
    for page in [&bob, &watcher] {
        assert_eq!(page.events(), (numbers.clone(), moves.clone()));
    }
    assert!(numbers.windows(2).all(|w| w[1] == w[0] + 1), "{numbers:?}");
    // A rematch made across processes: the new game is held by process 1, and bob plays
    // it through process 2.
    send(&mut bob.page, json!({"type": "rematch"})).await;
    send(&mut alice.page, json!({"type": "rematch"})).await;
    let next_game = bob.until("rematch", |_| true).await;
    alice.until("rematch", |_| true).await;
    let new_game = next_game["game"].as_str().unwrap();
    let mut bob_again = socket(two.address, new_game, next_game["seat"].as_str().unwrap()).await;
    let view = next(&mut bob_again, "room", |_| true).await;
    assert_eq!(view["status"], "playing");
    assert!(view["you"] == "sente" || view["you"] == "gote", "{view}");
    let holders = schema
        .query(&format!(
            "SELECT holder FROM game_leases WHERE game IN ('{game}', '{new_game}')"
        ))
        .await;
    assert_eq!(holders.len(), 2);
    assert_eq!(holders[0], holders[1], "both held by process 1");
}

/// The same seat asks for two different moves for one ply, one through each process at
/// the same instant, ply after ply of several games: each time exactly one is played and
/// the other page is told the ply is taken; no page sees a ply twice; the database holds
/// the moves played.
#[cfg_attr(
    not(has_postgres),
    ignore = "no PostgreSQL: set GOGO_TEST_POSTGRES to a database URL (.ci/run does)"
)]
#[tokio::test(flavor = "multi_thread")]
async fn a_seat_racing_two_moves_through_both_processes_gets_exactly_one() {
    const GAMES: usize = 4;
    const PLIES: usize = 12;
    let schema = Schema::new("race").await;
    let processes = [Process::start(&schema).await, Process::start(&schema).await];
    let addresses = [processes[0].address, processes[1].address];
    let mut races = 0;
    for n in 0..GAMES {
        // Held by one process, then by the other.
        let (host, guest) = (addresses[n % 2], addresses[(n + 1) % 2]);
        let (game, seats) = table(host, guest, json!({"color": "sente"})).await;
        // Each seat has a page on each process; every page watches every ply.
        let mut pages = Vec::new();
        let mut legal = Vec::new();
        for seat in &seats {
            for address in addresses {
                let mut page = Watched::open(address, &game, seat).await;
                let view = page.until("room", |v| v["status"] == "playing").await;
                legal = view["legal"].as_array().unwrap().clone();
                pages.push(page);
            }
        }
        let mut played = Vec::new();
        for ply in 0..PLIES {
            if legal.len() < 2 {
                break;
            }
            // Which process gets which move changes from ply to ply.
            let (a, b) = (legal[ply % 2].clone(), legal[(ply + 1) % 2].clone());
            let mover = 2 * (ply % 2);
            let (first, second) = pages[mover..mover + 2].split_at_mut(1);
            tokio::join!(
                send(
                    &mut first[0].page,
                    json!({"type": "move", "ply": ply, "usi": a})
                ),
                send(
                    &mut second[0].page,
                    json!({"type": "move", "ply": ply, "usi": b})
                )
            );
            let mut event = Value::Null;
            for page in &mut pages {
                event = page.until("event", moved(ply)).await;
            }
            let usi = event["event"]["usi"].clone();
            assert!(usi == a || usi == b, "{event}");
            let loser = if usi == a { mover + 1 } else { mover };
            let refused = pages[loser].until("refused", |_| true).await;
            assert!(
                refused["message"].as_str().unwrap().contains("ply"),
                "{refused}"
            );
            played.push(usi.as_str().unwrap().to_string());
            legal = event["legal"].as_array().unwrap().clone();
            races += 1;
        }
        for page in &pages {
            let (numbers, moves) = page.events();
            assert_eq!(moves, played, "{:?}", page.seen);
            assert!(numbers.windows(2).all(|w| w[1] == w[0] + 1), "{numbers:?}");
        }
        let stored = schema
            .query(&format!(
                "SELECT usi FROM moves WHERE game_id = '{game}' ORDER BY ply"
            ))
            .await;
        assert_eq!(stored, played);
    }
    assert!(races >= GAMES * 6, "only {races} races");
}

/// The lobby, challenges, event streams and the Board API across processes: a room opened
/// on one process is in the other's lobby; a challenge made on one is told on the
/// challenged player's stream on the other, and to a stream opened later anywhere; it is
/// accepted there, both streams hear the game start, and a script plays it through the
/// other process.
#[cfg_attr(
    not(has_postgres),
    ignore = "no PostgreSQL: set GOGO_TEST_POSTGRES to a database URL (.ci/run does)"
)]
#[tokio::test(flavor = "multi_thread")]
async fn the_lobby_challenges_and_the_api_work_across_processes() {
    let schema = Schema::new("api").await;
    let one = Process::start(&schema).await;
    let two = Process::start(&schema).await;
    let (alice, _) = player(one.address, "alice").await;
    let (bob, bob_id) = player(two.address, "bob").await;
    let next_of = |events: &std::sync::mpsc::Receiver<Value>| {
        events
            .recv_timeout(Duration::from_secs(10))
            .expect("an event in time")
    };
    let (tx, bob_events) = std::sync::mpsc::channel();
    read_stream(two.address, "/api/stream/event".into(), bob.clone(), tx);
    let (tx, alice_events) = std::sync::mpsc::channel();
    read_stream(one.address, "/api/stream/event".into(), alice.clone(), tx);
    tokio::time::sleep(Duration::from_millis(300)).await;

    // A room opened on process 1 is in process 2's lobby.
    let (status, room) = call(
        one.address,
        "POST",
        "/online/rooms",
        &alice,
        Some(json!({})),
    )
    .await;
    assert_eq!(status, 200, "{room}");
    let listed = |lobby: &Value| {
        lobby["waiting"].as_array().is_some_and(|w| {
            w.iter()
                .any(|r| r["id"] == room["id"] && r["host"] == "alice")
        })
    };
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    loop {
        let (_, lobby) = call(two.address, "GET", "/online/lobby", "", None).await;
        if listed(&lobby) {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "not listed: {lobby}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // A challenge made on process 1, told on bob's stream on process 2.
    let form = &[
        ("clock.limit", "180"),
        ("clock.increment", "2"),
        ("color", "sente"),
    ];
    let (status, made) = post_form(
        one.address,
        &format!("/api/challenge/{bob_id}"),
        &alice,
        form,
    )
    .await;
    assert_eq!(status, 200, "{made}");
    let id = made["challenge"]["id"].as_str().unwrap().to_string();
    let told = next_of(&bob_events);
    assert_eq!(told["type"], "challenge", "{told}");
    assert_eq!(told["challenge"]["id"], id.as_str());
    assert_eq!(told["challenge"]["challenger"]["name"], "alice");
    // A stream opened later on process 1 begins with it.
    let (tx, late_events) = std::sync::mpsc::channel();
    read_stream(one.address, "/api/stream/event".into(), bob.clone(), tx);
    let waiting = next_of(&late_events);
    assert_eq!(waiting["challenge"]["id"], id.as_str(), "{waiting}");
    // Accepted on process 2: both hear the game start.
    let accept = format!("/api/challenge/{id}/accept");
    let (status, answer) = post_form(two.address, &accept, &bob, &[]).await;
    assert_eq!(status, 200, "{answer}");
    for events in [&bob_events, &alice_events] {
        let start = next_of(events);
        assert_eq!(start["type"], "gameStart", "{start}");
        assert_eq!(start["game"]["id"], id.as_str());
    }
    let (_, playing) = call(two.address, "GET", "/api/account/playing", &alice, None).await;
    assert_eq!(playing["nowPlaying"][0]["gameId"], id.as_str(), "{playing}");
    assert_eq!(playing["nowPlaying"][0]["color"], "sente");

    // Bob's script follows and plays the game through process 2, alice's through 1.
    let (tx, bob_game) = std::sync::mpsc::channel();
    read_stream(
        two.address,
        format!("/api/board/game/stream/{id}"),
        bob.clone(),
        tx,
    );
    assert_eq!(next_of(&bob_game)["type"], "gameFull");
    for (ply, usi) in OPENING.iter().enumerate() {
        let (address, key) = if ply % 2 == 0 {
            (one.address, &alice)
        } else {
            (two.address, &bob)
        };
        let path = format!("/api/board/game/{id}/move/{usi}");
        let (status, body) = call(address, "POST", &path, key, None).await;
        assert_eq!(status, 200, "ply {ply}: {body}");
        let state = next_of(&bob_game);
        assert_eq!(state["moves"], OPENING[..=ply].join(" "), "{state}");
    }
    let (status, _) = call(
        two.address,
        "POST",
        &format!("/api/board/game/{id}/resign"),
        &bob,
        None,
    )
    .await;
    assert_eq!(status, 200);
    let end = next_of(&bob_game);
    assert_eq!(
        (end["status"].clone(), end["winner"].clone()),
        (json!("resign"), json!("sente"))
    );
}

/// A CPU player runs on the process that holds its game: a visitor's game against the CPU
/// made on process 1 (whose engine is gogo) and played from a page on process 2 (whose
/// engine cannot play): the CPU's moves reach the page on process 2, so process 1 made
/// them, and the game stays leased to it.
#[cfg_attr(
    not(has_postgres),
    ignore = "no PostgreSQL: set GOGO_TEST_POSTGRES to a database URL (.ci/run does)"
)]
#[tokio::test(flavor = "multi_thread")]
async fn the_cpu_plays_on_the_process_that_holds_its_game() {
    let schema = Schema::new("cpu").await;
    let one = Process::start_with_gogo(&schema).await;
    let two = Process::start(&schema).await;
    let (key, _) = player(two.address, "visitor").await;
    let settings = json!({"cpu_opponent": 1, "color": "gote"});
    let (status, room) = call(one.address, "POST", "/online/rooms", &key, Some(settings)).await;
    assert_eq!(status, 200, "{room}");
    let game = room["id"].as_str().unwrap().to_string();
    let mut page = Watched::open(two.address, &game, room["seat"].as_str().unwrap()).await;
    let view = page.until("room", |_| true).await;
    assert_eq!(view["you"], "gote", "{view}");
    assert_eq!(view["seats"][0]["cpu"], true, "{view}");
    // Sente is the CPU's: it moves first, then answers the visitor's move.
    let first = match view["moves"].as_array().unwrap().is_empty() {
        true => page.until("event", moved(0)).await,
        false => view.clone(),
    };
    let reply = first["legal"][0].as_str().unwrap().to_string();
    send(
        &mut page.page,
        json!({"type": "move", "ply": 1, "usi": reply}),
    )
    .await;
    page.until("event", moved(1)).await;
    page.until("event", moved(2)).await;
    let holders = schema
        .query(&format!(
            "SELECT holder FROM game_leases WHERE game = '{game}'"
        ))
        .await;
    assert_eq!(holders.len(), 1, "{holders:?}");
    send(&mut page.page, json!({"type": "resign"})).await;
    let over = page.until("room", |v| v["status"] == "over").await;
    assert_eq!(over["result"], "1-0", "{over}");
}
