//! Online play through the real server (issue 55): players made by the API, a room created
//! and joined, a whole rated game between two sockets with a spectator watching; seats that
//! only their holder can use; and a server killed with SIGKILL mid-game, restarted on the
//! same database, with both players back in their seats and every acknowledged move kept.

use futures_util::StreamExt;
mod common;

use gogo_gui::online::cpu::CpuPool;
use gogo_gui::online::room::Patience;
use gogo_gui::online::{rooms::Rooms, Online, OnlineLimits};
use gogo_gui::writer::StoreHandle;
use gogo_gui::Config;
use gogo_protocol::EngineSpec;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

type Socket = common::Page;

/// A server with online play on `db` (in memory if `None`), on the test's runtime.
async fn serve_online(db: Option<PathBuf>) -> SocketAddr {
    serve_online_with(db, OnlineLimits::default()).await
}

/// [`serve_online`] within `limits`.
async fn serve_online_with(db: Option<PathBuf>, limits: OnlineLimits) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let patience = Patience {
        absence_grace: Duration::from_millis(500),
        host_gone: Duration::from_millis(800),
    };
    let cpu = CpuPool::new(EngineSpec::new(common::gogo().display().to_string()), 1);
    let rooms = Rooms::new(
        StoreHandle::open(db.as_deref()).unwrap(),
        patience,
        Some(cpu),
    );
    rooms.restore().await.unwrap();
    let config = Config {
        online: Some(Online::new(rooms, limits)),
        ..Config::new(common::marked_engine("gogo-gui-online"), address)
    };
    tokio::spawn(async move { gogo_gui::serve(listener, config).await.unwrap() });
    address
}

async fn socket(address: SocketAddr, game: &str, seat: &str) -> Socket {
    let url = format!("ws://{address}/online/ws?game={game}&seat={seat}");
    tokio_tungstenite::connect_async(url).await.unwrap().0
}

use common::{call, player, post_form, read_stream};
use common::{expect_update as next, free_port, send_json as send, start_binary};

fn moved(ply: usize) -> impl Fn(&Value) -> bool {
    move |v| v["event"]["kind"] == "moved" && v["event"]["ply"] == ply
}

/// A room made by a new player as Sente and joined by another: both keys and ids, the
/// game id and both seats.
struct Table {
    keys: [String; 2],
    ids: [String; 2],
    game: String,
    seats: [String; 2],
}

async fn table(address: SocketAddr, settings: Value) -> Table {
    let (host_key, host_id) = player(address, "alice").await;
    let (guest_key, guest_id) = player(address, "bob").await;
    let (status, room) = call(address, "POST", "/online/rooms", &host_key, Some(settings)).await;
    assert_eq!(status, 200, "{room}");
    assert_eq!(room["side"], "sente");
    let game = room["id"].as_str().unwrap().to_string();
    let (status, joined) = call(
        address,
        "POST",
        &format!("/online/rooms/{game}/join"),
        &guest_key,
        None,
    )
    .await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["side"], "gote");
    Table {
        keys: [host_key, guest_key],
        ids: [host_id, guest_id],
        seats: [
            room["seat"].as_str().unwrap().into(),
            joined["seat"].as_str().unwrap().into(),
        ],
        game,
    }
}

/// Both players' sockets to the table's game, each past its first view of the room.
async fn seated(address: SocketAddr, t: &Table) -> [Socket; 2] {
    let mut pages = [
        socket(address, &t.game, &t.seats[0]).await,
        socket(address, &t.game, &t.seats[1]).await,
    ];
    for page in &mut pages {
        next(page, "room", |_| true).await;
    }
    pages
}

const OPENING: [&str; 4] = ["2e3d", "4a3b", "3d2c", "3b2c"];

#[tokio::test(flavor = "multi_thread")]
async fn two_players_play_a_rated_game_and_a_spectator_sees_every_move() {
    let address = serve_online(None).await;
    let (host_key, _) = player(address, "alice").await;
    let settings = json!({"rated": true, "color": "sente",
        "clock": {"kind": "fischer", "main_ms": 60000, "increment_ms": 1000}});
    let (_, room) = call(
        address,
        "POST",
        "/online/rooms",
        &host_key,
        Some(settings.clone()),
    )
    .await;
    let (_, lobby) = call(address, "GET", "/online/lobby", "", None).await;
    let listed = lobby["waiting"].as_array().unwrap();
    assert!(
        listed
            .iter()
            .any(|r| r["id"] == room["id"] && r["host"] == "alice"),
        "{lobby}"
    );
    let t = table(address, settings).await;
    let (_, lobby) = call(address, "GET", "/online/lobby", "", None).await;
    assert_eq!(lobby["playing"], 1, "{lobby}");
    assert!(!lobby["waiting"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["id"] == t.game.as_str()));

    let mut pages = [
        socket(address, &t.game, &t.seats[0]).await,
        socket(address, &t.game, &t.seats[1]).await,
    ];
    let mut watcher = socket(address, &t.game, "").await;
    for (i, page) in pages.iter_mut().enumerate() {
        let view = next(page, "room", |_| true).await;
        assert_eq!(view["you"], ["sente", "gote"][i]);
        assert_eq!(view["status"], "playing");
        assert_eq!(view["seats"][1]["name"], "bob");
    }
    let view = next(&mut watcher, "room", |_| true).await;
    assert!(view["you"].is_null());
    assert!(!view.to_string().contains(&t.seats[0]) && !view.to_string().contains(&t.seats[1]));

    for (ply, usi) in OPENING.iter().enumerate() {
        send(
            &mut pages[ply % 2],
            json!({"type": "move", "ply": ply, "usi": usi}),
        )
        .await;
        for page in pages.iter_mut().chain([&mut watcher]) {
            let event = next(page, "event", moved(ply)).await;
            assert_eq!(event["event"]["usi"], *usi);
        }
    }
    // Gote resigns: everyone sees the end, with the ratings moved.
    send(&mut pages[1], json!({"type": "resign"})).await;
    for page in pages.iter_mut().chain([&mut watcher]) {
        let view = next(page, "room", |v| v["status"] == "over").await;
        assert_eq!(view["result"], "1-0");
        assert_eq!(view["reason"], "resignation");
        assert!(
            view["seats"][0]["rating"].as_u64().unwrap() > 1500,
            "{view}"
        );
        assert!(
            view["seats"][1]["rating"].as_u64().unwrap() < 1500,
            "{view}"
        );
    }
    let (_, account) = call(address, "GET", "/api/account", &t.keys[1], None).await;
    assert!(
        account["rating"].as_f64().unwrap() < 1500.0 && account["games"] == 1,
        "{account}"
    );
    // The winner's public page (no key needed): the same rating, in lishogi's shape too.
    let (status, page) = call(address, "GET", &format!("/api/user/{}", t.ids[0]), "", None).await;
    assert_eq!(status, 200);
    assert_eq!(page["name"], "alice");
    assert!(page["rating"].as_f64().unwrap() > 1500.0, "{page}");
    assert_eq!(page["perfs"]["minishogi"]["rating"], page["rating"]);
    assert_eq!(page["perfs"]["minishogi"]["games"], 1);
    let (status, _) = call(address, "GET", "/api/user/nobody", "", None).await;
    assert_eq!(status, 404);
    // "My games": the game, its plies and its ending.
    let (_, games) = call(
        address,
        "GET",
        &format!("/api/games/user/{}", t.ids[0]),
        "",
        None,
    )
    .await;
    assert_eq!(games[0]["id"], t.game.as_str());
    assert_eq!(games[0]["plies"], 4);
    assert_eq!(games[0]["winner"], "sente");
    assert_eq!(games[0]["reason"], "resignation");
    let (_, lobby) = call(address, "GET", "/online/lobby", "", None).await;
    assert_eq!(lobby["playing"], 0, "{lobby}");
    // The record, for the review and to save: KIF and CSA with the players and the end.
    let (_, record) = call(
        address,
        "GET",
        &format!("/online/games/{}", t.game),
        "",
        None,
    )
    .await;
    assert_eq!(record["result"], "1-0");
    assert_eq!(record["moves"], json!(OPENING));
    // Every position for the review: the start, then one after each move.
    let positions = record["positions"].as_array().unwrap();
    assert_eq!(positions.len(), OPENING.len() + 1);
    assert_eq!(positions[0], record["start"]);
    assert_eq!(positions[OPENING.len()], record["sfen"]);
    let kif = record["kif"].as_str().unwrap();
    assert!(kif.contains("先手：alice") && kif.contains("投了"), "{kif}");
    assert!(record["csa"].as_str().unwrap().contains("%TORYO"));
    let (missing, _) = call(address, "GET", "/online/games/nosuchgame", "", None).await;
    assert_eq!(missing, 404);
    // A rematch: asked by one, accepted by the other; colours swap (the room alternates);
    // each gets its own new seat, the spectator none.
    send(&mut pages[1], json!({"type": "rematch"})).await;
    next(&mut pages[0], "rematch_offered", |v| v["by"] == "gote").await;
    send(&mut pages[0], json!({"type": "rematch"})).await;
    let mut new_seats = Vec::new();
    for page in pages.iter_mut() {
        let made = next(page, "rematch", |_| true).await;
        new_seats.push(made["seat"].as_str().unwrap().to_string());
        assert_ne!(made["game"], t.game.as_str());
    }
    assert_ne!(new_seats[0], new_seats[1]);
    let made = next(&mut watcher, "rematch", |_| true).await;
    assert!(made["seat"].is_null());
    let game = made["game"].as_str().unwrap();
    let mut alice = socket(address, game, &new_seats[0]).await;
    let view = next(&mut alice, "room", |_| true).await;
    assert_eq!(
        (view["you"].clone(), view["status"].clone()),
        (json!("gote"), json!("playing"))
    );
    assert_eq!(view["seats"][0]["name"], "bob");
}

#[tokio::test(flavor = "multi_thread")]
async fn only_a_seats_holder_moves_for_it_and_a_move_sent_twice_is_played_once() {
    let address = serve_online(None).await;
    let t = table(address, json!({"color": "sente"})).await;
    // A secret that is no seat's: not let in.
    let wrong = "0".repeat(32);
    let mut stranger = socket(address, &t.game, &wrong).await;
    let refused = next(&mut stranger, "refused", |_| true).await;
    assert!(
        refused["message"].as_str().unwrap().contains("not a seat"),
        "{refused}"
    );
    // A guessed game id: nothing to attach to.
    let guessed = format!("ws://{address}/online/ws?game=nosuchgame");
    match tokio_tungstenite::connect_async(guessed).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(answer)) => {
            assert_eq!(answer.status(), 404)
        }
        other => panic!("a guessed game: {:?}", other.map(|_| ())),
    }
    let mut sente = socket(address, &t.game, &t.seats[0]).await;
    let mut gote = socket(address, &t.game, &t.seats[1]).await;
    let mut watcher = socket(address, &t.game, "").await;
    for page in [&mut sente, &mut gote, &mut watcher] {
        next(page, "room", |_| true).await;
    }
    // Gote's seat cannot play Sente's move, nor a spectator any.
    send(&mut gote, json!({"type": "move", "ply": 0, "usi": "2e3d"})).await;
    let refused = next(&mut gote, "refused", |_| true).await;
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("not your turn"),
        "{refused}"
    );
    send(
        &mut watcher,
        json!({"type": "move", "ply": 0, "usi": "2e3d"}),
    )
    .await;
    next(&mut watcher, "refused", |_| true).await;
    send(&mut watcher, json!({"type": "resign"})).await;
    next(&mut watcher, "refused", |_| true).await;
    // A page cannot claim an ending: no such request.
    send(&mut sente, json!({"type": "ended", "winner": "sente"})).await;
    let refused = next(&mut sente, "refused", |_| true).await;
    assert!(
        refused["message"].as_str().unwrap().contains("bad request"),
        "{refused}"
    );
    // The move, and the same move again (as after a reconnect): one event.
    send(&mut sente, json!({"type": "move", "ply": 0, "usi": "2e3d"})).await;
    send(&mut sente, json!({"type": "move", "ply": 0, "usi": "2e3d"})).await;
    next(&mut gote, "event", moved(0)).await;
    send(&mut gote, json!({"type": "move", "ply": 1, "usi": "4a3b"})).await;
    let first = next(&mut watcher, "event", moved(0)).await;
    let second = next(&mut watcher, "event", |v| v["event"]["kind"] == "moved").await;
    assert_eq!(
        second["event"]["ply"], 1,
        "a move sent twice was played twice"
    );
    assert_eq!(
        second["number"].as_u64(),
        first["number"].as_u64().map(|n| n + 1)
    );
    // A page that comes back with the last event it saw gets only what it missed.
    let url = format!(
        "ws://{address}/online/ws?game={}&seat={}&epoch={}&after={}",
        t.game, t.seats[0], first["epoch"], first["number"]
    );
    let mut back = tokio_tungstenite::connect_async(url).await.unwrap().0;
    let missed = next(&mut back, "event", |_| true).await;
    assert_eq!(missed["number"], second["number"]);
    // Names are shown as typed, never as markup or SQL.
    for name in ["<img src=x onerror=alert(1)>", "'); DROP TABLE games;--"] {
        let (key, id) = player(address, name).await;
        let (_, account) = call(address, "GET", "/api/account", &key, None).await;
        assert_eq!(account["name"], name);
        assert_eq!(account["id"], id.as_str());
    }
    let (status, _) = call(
        address,
        "POST",
        "/api/token",
        "",
        Some(json!({"name": "x".repeat(31)})),
    )
    .await;
    assert_eq!(status, 400);
    let (status, _) = call(address, "GET", "/api/account", &wrong, None).await;
    assert_eq!(status, 401);
    let (_, games) = call(
        address,
        "GET",
        &format!("/api/games/user/{}", t.ids[1]),
        "",
        None,
    )
    .await;
    assert_eq!(games[0]["plies"], 2, "{games}");
}

#[tokio::test(flavor = "multi_thread")]
async fn abort_draw_and_takeback_go_through_both_seats() {
    let address = serve_online(None).await;
    let t = table(address, json!({"color": "sente"})).await;
    let [mut s, mut g] = seated(address, &t).await;
    for (ply, usi) in OPENING[..3].iter().enumerate() {
        let page = if ply % 2 == 0 { &mut s } else { &mut g };
        send(page, json!({"type": "move", "ply": ply, "usi": usi})).await;
        next(&mut s, "event", moved(ply)).await;
    }
    // Gote's page goes and comes back: Sente is told both.
    drop(g);
    let gone = next(&mut s, "presence", |_| true).await;
    assert_eq!(
        (gone["side"].clone(), gone["present"].clone()),
        (json!("gote"), json!(false))
    );
    let mut g = socket(address, &t.game, &t.seats[1]).await;
    next(&mut g, "room", |_| true).await;
    let back = next(&mut s, "presence", |_| true).await;
    assert_eq!(back["present"], true);
    send(&mut s, json!({"type": "abort"})).await;
    let refused = next(&mut s, "refused", |_| true).await;
    assert!(
        refused["message"].as_str().unwrap().contains("aborted"),
        "{refused}"
    );
    // Gote asks to take back its move; Sente accepts: back to Gote's turn at ply 1.
    send(&mut g, json!({"type": "propose_takeback"})).await;
    next(&mut s, "event", |v| {
        v["event"]["kind"] == "takeback_proposed"
    })
    .await;
    send(&mut s, json!({"type": "propose_takeback"})).await;
    let back = next(&mut g, "event", |v| v["event"]["kind"] == "took_back").await;
    assert_eq!(back["event"]["plies"], 1);
    // A draw offered and accepted.
    send(&mut g, json!({"type": "offer_draw"})).await;
    next(&mut s, "event", |v| v["event"]["kind"] == "draw_offered").await;
    send(&mut s, json!({"type": "offer_draw"})).await;
    let over = next(&mut g, "room", |v| v["status"] == "over").await;
    assert_eq!(over["result"], "1/2-1/2");
    assert_eq!(over["moves"].as_array().unwrap().len(), 1);
    let (_, games) = call(
        address,
        "GET",
        &format!("/api/games/user/{}", t.ids[0]),
        "",
        None,
    )
    .await;
    assert_eq!(
        (games[0]["plies"].clone(), games[0]["reason"].clone()),
        (json!(1), json!("draw agreed"))
    );
    // A room cancelled by its host before anyone joined leaves the lobby with no result.
    let (_, room) = call(
        address,
        "POST",
        "/online/rooms",
        &t.keys[0],
        Some(json!({})),
    )
    .await;
    let game = room["id"].as_str().unwrap();
    let mut host = socket(address, game, room["seat"].as_str().unwrap()).await;
    assert_eq!(next(&mut host, "room", |_| true).await["status"], "waiting");
    send(&mut host, json!({"type": "cancel"})).await;
    let over = next(&mut host, "room", |v| v["status"] == "over").await;
    assert_eq!(over["result"], "*");
    let (_, lobby) = call(address, "GET", "/online/lobby", "", None).await;
    assert!(lobby["waiting"].as_array().unwrap().is_empty(), "{lobby}");
}

/// Issue 55: the server killed with SIGKILL mid-game and started again on its database:
/// both players come back to their seats with every acknowledged move and the clocks as
/// they were stored (the time the server was down is charged to no one), and play on.
#[tokio::test(flavor = "multi_thread")]
async fn a_server_killed_mid_game_takes_it_up_again_with_every_acknowledged_move() {
    let dir = std::env::temp_dir().join(format!("gogo-online-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    killed_mid_game(&dir.join("games.db")).await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 57: a second process on the SQLite file one serves is refused, and says why (it
/// would take up the same live games and judge their clocks too); several processes share
/// PostgreSQL. The first is not disturbed, and its file is free again once it is killed.
#[tokio::test(flavor = "multi_thread")]
async fn a_second_process_on_one_sqlite_file_is_refused() {
    let dir = std::env::temp_dir().join(format!("gogo-online-alone-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("games.db");
    let port = free_port();
    let mut first = start_binary(&db, port).await;
    let mut refused = common::online_command(&db, free_port(), std::path::Path::new("/bin/sh"))
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while refused.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            refused.kill().unwrap();
            panic!("a second process serves the same SQLite file");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let refused = refused.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "{said}");
    assert!(said.contains("another gogo-gui --online serves"), "{said}");
    assert!(said.contains("PostgreSQL"), "{said}");
    let address: SocketAddr = ([127, 0, 0, 1], port).into();
    table(address, json!({"color": "sente"})).await;
    first.kill().unwrap();
    first.wait().unwrap();
    let mut after = start_binary(&db, port).await;
    after.kill().unwrap();
    after.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 57: the same on PostgreSQL (`--db postgres://...`), in a schema of the test's own.
#[cfg_attr(
    not(has_postgres),
    ignore = "no PostgreSQL: set GOGO_TEST_POSTGRES to a database URL (.ci/run does)"
)]
#[tokio::test(flavor = "multi_thread")]
async fn on_postgresql_a_server_killed_mid_game_takes_it_up_again() {
    let schema = common::Schema::new("killed").await;
    killed_mid_game(std::path::Path::new(&schema.url)).await;
}

/// A game between two sockets on `gogo-gui --online --db DB`, the server killed with
/// SIGKILL after three acknowledged moves and started again: both seats come back to the
/// game as stored and it goes on to its end.
async fn killed_mid_game(db: &std::path::Path) {
    let port = free_port();
    let address: SocketAddr = ([127, 0, 0, 1], port).into();
    let mut server = start_binary(db, port).await;
    let t = table(
        address,
        json!({"color": "sente", "rated": true,
        "clock": {"kind": "fischer", "main_ms": 60000, "increment_ms": 0}}),
    )
    .await;
    let [mut s, mut g] = seated(address, &t).await;
    let mut last = Value::Null;
    for (ply, usi) in OPENING[..3].iter().enumerate() {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let (mover, other) = if ply % 2 == 0 {
            (&mut s, &mut g)
        } else {
            (&mut g, &mut s)
        };
        send(mover, json!({"type": "move", "ply": ply, "usi": usi})).await;
        // Acknowledged: the other side has seen it.
        last = next(other, "event", moved(ply)).await;
    }
    server.kill().unwrap();
    server.wait().unwrap();
    drop((s, g));
    let mut server = start_binary(db, port).await;
    let back = |seat: &str| {
        format!(
            "ws://{address}/online/ws?game={}&seat={seat}&epoch={}&after={}",
            t.game, last["epoch"], last["number"]
        )
    };
    // Another epoch: the whole room, not events.
    let (mut s, view) = common::come_back(&back(&t.seats[0])).await;
    let (mut g, _) = common::come_back(&back(&t.seats[1])).await;
    assert_eq!(view["you"], "sente");
    assert_eq!(view["moves"], json!(OPENING[..3]));
    let stored = &last["event"]["clocks_ms"];
    // Sente's clock stands as stored after its move; Gote's runs again from the restart.
    assert_eq!(view["clocks_ms"][0], stored[0], "{view}");
    assert!(
        view["clocks_ms"][1].as_u64() <= stored[1].as_u64(),
        "{view}"
    );
    assert!(
        view["clocks_ms"][1].as_u64().unwrap() + 1000 > stored[1].as_u64().unwrap(),
        "{view}"
    );
    send(&mut g, json!({"type": "move", "ply": 3, "usi": OPENING[3]})).await;
    next(&mut s, "event", moved(3)).await;
    send(&mut g, json!({"type": "resign"})).await;
    assert_eq!(
        next(&mut s, "room", |v| v["status"] == "over").await["result"],
        "1-0"
    );
    server.kill().unwrap();
    server.wait().unwrap();
}

/// Issue 55, item 8: pages from another site are refused; an address is held to its
/// players and rooms a minute; a game takes so many spectators; messages beyond a
/// connection's budget are refused.
#[tokio::test(flavor = "multi_thread")]
async fn strangers_meet_the_limits() {
    let limits = OnlineLimits {
        players_per_minute: 4,
        rooms_per_minute: 1,
        max_spectators: 1,
        ..OnlineLimits::default()
    };
    let address = serve_online_with(None, limits).await;
    let url = format!("http://{address}/api/token");
    let from_elsewhere = tokio::task::spawn_blocking(move || {
        match ureq::post(&url)
            .set("Origin", "http://evil.example")
            .send_json(json!({"name": "mallory"}))
        {
            Err(ureq::Error::Status(code, _)) => code,
            other => panic!("{:?}", other.map(|r| r.status())),
        }
    })
    .await
    .unwrap();
    assert_eq!(from_elsewhere, 403);
    let t = table(address, json!({"color": "sente"})).await;
    // Two players made (of four a minute), and a room (of one): the next are refused.
    player(address, "carol").await;
    player(address, "dave").await;
    let (status, _) = call(
        address,
        "POST",
        "/api/token",
        "",
        Some(json!({"name": "eve"})),
    )
    .await;
    assert_eq!(status, 429);
    let (status, _) = call(
        address,
        "POST",
        "/online/rooms",
        &t.keys[0],
        Some(json!({})),
    )
    .await;
    assert_eq!(status, 429);
    // One spectator, not two.
    let mut first = socket(address, &t.game, "").await;
    next(&mut first, "room", |_| true).await;
    let mut second = socket(address, &t.game, "").await;
    let refused = next(&mut second, "refused", |_| true).await;
    assert!(
        refused["message"].as_str().unwrap().contains("spectators"),
        "{refused}"
    );
    // A flood from a seat: past the budget, refused and not played.
    let mut sente = socket(address, &t.game, &t.seats[0]).await;
    next(&mut sente, "room", |v| v["status"] == "playing").await;
    for _ in 0..gogo_gui::online::PLAYER_MESSAGES {
        send(&mut sente, json!({"type": "decline_draw"})).await;
    }
    send(&mut sente, json!({"type": "move", "ply": 0, "usi": "2e3d"})).await;
    next(&mut sente, "refused", |v| {
        v["message"].as_str().unwrap().contains("too many")
    })
    .await;
    send(&mut sente, json!({"type": "resign"})).await;
    let view = tokio::time::timeout(
        Duration::from_millis(500),
        next(&mut first, "event", |_| true),
    )
    .await;
    assert!(
        view.is_err(),
        "a message past the budget was carried out: {view:?}"
    );
}

/// Issue 55, items 3 and 4: a player who leaves is shown gone to the other, who may claim
/// the win or a draw once the grace time has passed (here half a second), not before and
/// not while the opponent is back.
#[tokio::test(flavor = "multi_thread")]
async fn the_one_who_stays_may_claim_after_the_grace_time() {
    let address = serve_online(None).await;
    for (claim, result) in [("claim_victory", "1-0"), ("claim_draw", "1/2-1/2")] {
        let t = table(address, json!({"color": "sente", "rated": true})).await;
        let [mut s, mut g] = seated(address, &t).await;
        for (ply, usi) in OPENING[..2].iter().enumerate() {
            let page = if ply % 2 == 0 { &mut s } else { &mut g };
            send(page, json!({"type": "move", "ply": ply, "usi": usi})).await;
            next(&mut s, "event", moved(ply)).await;
        }
        send(&mut s, json!({"type": claim})).await;
        next(&mut s, "refused", |v| {
            v["message"].as_str().unwrap().contains("come back")
        })
        .await;
        drop(g);
        next(&mut s, "presence", |v| v["present"] == false).await;
        send(&mut s, json!({"type": claim})).await;
        next(&mut s, "refused", |v| {
            v["message"].as_str().unwrap().contains("come back")
        })
        .await;
        tokio::time::sleep(Duration::from_millis(600)).await;
        send(&mut s, json!({"type": claim})).await;
        let over = next(&mut s, "room", |v| v["status"] == "over").await;
        assert_eq!(over["result"], result, "{over}");
        assert!(
            over["reason"].as_str().unwrap().contains("left the game"),
            "{over}"
        );
        let (_, record) = call(
            address,
            "GET",
            &format!("/online/games/{}", t.game),
            "",
            None,
        )
        .await;
        assert_eq!(record["result"], result);
    }
}

/// A room whose host left before anyone joined closes (here after 0.8 s): the lobby lists
/// only rooms someone waits in; the room's record says it ended unplayed.
#[tokio::test(flavor = "multi_thread")]
async fn a_room_whose_host_left_leaves_the_lobby() {
    let address = serve_online(None).await;
    // The lobby's socket tells each change.
    let url = format!("ws://{address}/online/lobby/ws");
    let mut lobby_page = tokio_tungstenite::connect_async(url).await.unwrap().0;
    let mut lobby_says = async move |waiting: usize| loop {
        let message = tokio::time::timeout(Duration::from_secs(10), lobby_page.next())
            .await
            .expect("a lobby update in time")
            .unwrap()
            .unwrap();
        if let Message::Text(text) = message {
            let lobby: Value = serde_json::from_str(&text).unwrap();
            if lobby["waiting"].as_array().unwrap().len() == waiting {
                return lobby;
            }
        }
    };
    lobby_says(0).await;
    let (key, _) = player(address, "alice").await;
    let (_, room) = call(address, "POST", "/online/rooms", &key, Some(json!({}))).await;
    let game = room["id"].as_str().unwrap().to_string();
    let mut host = socket(address, &game, room["seat"].as_str().unwrap()).await;
    next(&mut host, "room", |_| true).await;
    assert_eq!(lobby_says(1).await["waiting"][0]["host"], "alice");
    // While the host is here, the room waits as long as it takes.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let (_, lobby) = call(address, "GET", "/online/lobby", "", None).await;
    assert_eq!(lobby["waiting"].as_array().unwrap().len(), 1, "{lobby}");
    drop(host);
    lobby_says(0).await;
    let (_, lobby) = call(address, "GET", "/online/lobby", "", None).await;
    assert!(lobby["waiting"].as_array().unwrap().is_empty(), "{lobby}");
    let (_, record) = call(address, "GET", &format!("/online/games/{game}"), "", None).await;
    assert_eq!(
        (record["result"].clone(), record["reason"].clone()),
        (json!("*"), json!("aborted"))
    );
}

/// Qdan's rule, chosen by the host: once a player has been gone for the grace time, the CPU
/// (gogo at the room's level, from the server's bounded pool) plays for them on their clock;
/// when they come back, their seat is theirs again and the CPU stops.
#[tokio::test(flavor = "multi_thread")]
async fn the_cpu_plays_for_a_player_who_left_and_hands_the_seat_back() {
    let address = serve_online(None).await;
    let t = table(
        address,
        json!({"color": "sente", "leave": {"kind": "cpu", "level": 1}}),
    )
    .await;
    let mut s = socket(address, &t.game, &t.seats[0]).await;
    let g = socket(address, &t.game, &t.seats[1]).await;
    next(&mut s, "room", |_| true).await;
    drop(g);
    next(&mut s, "presence", |v| v["present"] == false).await;
    // Claims are not this room's rule.
    send(&mut s, json!({"type": "claim_victory"})).await;
    next(&mut s, "refused", |v| {
        v["message"].as_str().unwrap().contains("CPU")
    })
    .await;
    send(&mut s, json!({"type": "move", "ply": 0, "usi": "2e3d"})).await;
    next(&mut s, "event", moved(0)).await;
    // Gote's turn, Gote gone: after half a second the CPU moves for it.
    let cpu = next(&mut s, "event", moved(1)).await;
    assert!(
        cpu["legal"].as_array().is_some_and(|l| !l.is_empty()),
        "{cpu}"
    );
    // Gote comes back: the seat is theirs; the CPU does not answer Sente's next move.
    let mut g = socket(address, &t.game, &t.seats[1]).await;
    let view = next(&mut g, "room", |_| true).await;
    assert_eq!(view["moves"].as_array().unwrap().len(), 2);
    assert!(view["cpu_plays"].is_null(), "{view}");
    let legal = cpu["legal"][0].as_str().unwrap().to_string();
    send(&mut s, json!({"type": "move", "ply": 2, "usi": legal})).await;
    next(&mut g, "event", moved(2)).await;
    let waited =
        tokio::time::timeout(Duration::from_millis(1500), next(&mut s, "event", moved(3))).await;
    assert!(waited.is_err(), "the CPU moved for a player who is back");
    // A room cannot ask for a CPU level the engine does not have.
    let (status, _) = call(
        address,
        "POST",
        "/online/rooms",
        &t.keys[0],
        Some(json!({"leave": {"kind": "cpu", "level": 11}})),
    )
    .await;
    assert_eq!(status, 400);
}

/// Issue 55, item 3: a visitor plays the CPU at a level: the room starts at once with the
/// engine (from the same bounded pool as the CPU seats) in the other seat, moving first
/// when it is Sente; it grants a takeback and declines a draw; no one else may take its
/// seat; it is casual and not in the lobby; a rematch swaps the colours at once.
#[tokio::test(flavor = "multi_thread")]
async fn a_visitor_plays_the_cpu_at_a_level() {
    let address = serve_online(None).await;
    let (key, id) = player(address, "visitor").await;
    let (status, body) = call(
        address,
        "POST",
        "/online/rooms",
        &key,
        Some(json!({"cpu_opponent": 2, "rated": true})),
    )
    .await;
    assert_eq!(status, 400, "a game against the CPU is not rated: {body}");
    let (status, room) = call(
        address,
        "POST",
        "/online/rooms",
        &key,
        Some(json!({"cpu_opponent": 2, "color": "gote"})),
    )
    .await;
    assert_eq!(status, 200, "{room}");
    let game = room["id"].as_str().unwrap().to_string();
    let (_, lobby) = call(address, "GET", "/online/lobby", "", None).await;
    assert!(lobby["waiting"].as_array().unwrap().is_empty(), "{lobby}");
    let (other, _) = player(address, "stranger").await;
    let (status, _) = call(
        address,
        "POST",
        &format!("/online/rooms/{game}/join"),
        &other,
        None,
    )
    .await;
    assert_eq!(status, 409, "the CPU's seat is not open");
    let mut page = socket(address, &game, room["seat"].as_str().unwrap()).await;
    let view = next(&mut page, "room", |_| true).await;
    assert_eq!(view["you"], "gote");
    assert_eq!(view["seats"][0]["name"], "CPU level 2", "{view}");
    assert_eq!(view["seats"][0]["cpu"], true);
    assert_eq!(view["seats"][1]["id"], id.as_str());
    // Sente is the CPU's: it moves first, unasked.
    let first = if view["moves"].as_array().unwrap().is_empty() {
        next(&mut page, "event", moved(0)).await
    } else {
        view.clone()
    };
    let reply = first["legal"][0].as_str().unwrap().to_string();
    send(&mut page, json!({"type": "move", "ply": 1, "usi": reply})).await;
    next(&mut page, "event", moved(1)).await;
    let answer = next(&mut page, "event", moved(2)).await;
    // A takeback is granted: the CPU's move and ours go, and the CPU's first is left.
    send(&mut page, json!({"type": "propose_takeback"})).await;
    let back = next(&mut page, "event", |v| v["event"]["kind"] == "took_back").await;
    assert_eq!(back["event"]["plies"], 1, "{back}");
    assert_eq!(back["sfen"], first["sfen"], "{back}");
    // A draw is declined.
    send(&mut page, json!({"type": "offer_draw"})).await;
    next(&mut page, "event", |v| {
        v["event"]["kind"] == "draw_declined"
    })
    .await;
    drop(answer);
    send(&mut page, json!({"type": "resign"})).await;
    let over = next(&mut page, "room", |v| v["status"] == "over").await;
    assert_eq!(over["result"], "1-0");
    // A rematch needs no one's consent, and the visitor is Sente now.
    send(&mut page, json!({"type": "rematch"})).await;
    let rematch = next(&mut page, "rematch", |_| true).await;
    let seat = rematch["seat"].as_str().expect("the visitor's new seat");
    let mut page = socket(address, rematch["game"].as_str().unwrap(), seat).await;
    let view = next(&mut page, "room", |_| true).await;
    assert_eq!(view["you"], "sente");
    assert_eq!(view["status"], "playing");
    // A game against the CPU that its player left is not kept open (here, unplayed: aborted).
    drop(page);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let path = format!("/online/games/{}", rematch["game"].as_str().unwrap());
    let (_, record) = call(address, "GET", &path, "", None).await;
    assert_eq!(record["result"], "*", "{record}");
    assert_eq!(record["names"][1], "CPU level 2", "{record}");
    let (_, games) = call(address, "GET", &format!("/api/games/user/{id}"), "", None).await;
    assert!(games.to_string().contains("CPU level 2"), "{games}");
}

/// Issue 55, item 3: a visitor does puzzles online, no key needed: one near their rating,
/// each move judged on the server with the reply, a hint, the rating moved at the end, and
/// a wrong move that shows the solution.
#[tokio::test(flavor = "multi_thread")]
async fn a_visitor_solves_puzzles() {
    let address = serve_online(None).await;
    let (status, puzzle) = call(address, "GET", "/online/puzzles/next?near=1500", "", None).await;
    assert_eq!(status, 200, "{puzzle}");
    let id = puzzle["id"].as_str().unwrap().to_string();
    let shipped = gogo_puzzle::set::shipped()
        .iter()
        .find(|p| p.id() == id)
        .unwrap();
    assert_eq!(puzzle["sfen"], shipped.position().to_sfen().as_str());
    assert!(
        puzzle.get("solution").is_none(),
        "the solution is not given away"
    );
    let (status, hint) = call(
        address,
        "GET",
        &format!("/online/puzzles/{id}/hint?ply=0"),
        "",
        None,
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        hint["square"],
        shipped.solution()[0].to().to_string().as_str()
    );
    let rating = json!({"rating": 1500.0, "deviation": 350.0, "volatility": 0.06});
    let mut ply = 0;
    let last = loop {
        let usi = shipped.solution()[ply].to_string();
        let (status, answer) = call(
            address,
            "POST",
            &format!("/online/puzzles/{id}/move"),
            "",
            Some(json!({"ply": ply, "usi": usi, "rating": rating})),
        )
        .await;
        assert_eq!(status, 200, "{answer}");
        if answer["verdict"] != "right" {
            break answer;
        }
        ply = answer["ply"].as_u64().unwrap() as usize;
    };
    assert_eq!(last["verdict"], "solved", "{last}");
    assert!(
        last["rating"]["rating"].as_f64().unwrap() > 1500.0,
        "{last}"
    );
    // Another puzzle, not the one met; a wrong move there.
    let (_, other) = call(
        address,
        "GET",
        &format!("/online/puzzles/next?near=1500&seen={id}"),
        "",
        None,
    )
    .await;
    assert_ne!(other["id"], id.as_str());
    let other_id = other["id"].as_str().unwrap();
    let other_puzzle = gogo_puzzle::set::shipped()
        .iter()
        .find(|p| p.id() == other_id)
        .unwrap();
    let wrong = other_puzzle
        .position()
        .legal_moves()
        .iter()
        .find(|&&m| other_puzzle.judge(0, m) == gogo_puzzle::Verdict::Wrong)
        .unwrap()
        .to_string();
    let (_, answer) = call(
        address,
        "POST",
        &format!("/online/puzzles/{other_id}/move"),
        "",
        Some(json!({"ply": 0, "usi": wrong})),
    )
    .await;
    assert_eq!(answer["verdict"], "wrong");
    assert_eq!(
        answer["solution"][0],
        other_puzzle.solution()[0].to_string().as_str()
    );
    let (status, _) = call(address, "GET", "/online/puzzles/nope", "", None).await;
    assert_eq!(status, 404);
    let (status, _) = call(
        address,
        "POST",
        &format!("/online/puzzles/{other_id}/move"),
        "",
        Some(json!({"ply": 1, "usi": wrong})),
    )
    .await;
    assert_eq!(status, 400);
}

/// Issue 55, item 7: a game played by two scripts through the API in lishogi's shape: the
/// game's NDJSON stream (`gameFull`, then `gameState` lines), moves, a refused move, another
/// player's stream refused, the game in `/api/account/playing`, and a resignation.
#[tokio::test(flavor = "multi_thread")]
async fn scripts_play_a_game_through_the_board_api() {
    let address = serve_online(None).await;
    let t = table(
        address,
        json!({"color": "sente",
        "clock": {"kind": "fischer", "main_ms": 60000, "increment_ms": 1000}}),
    )
    .await;
    let (_, playing) = call(address, "GET", "/api/account/playing", &t.keys[0], None).await;
    assert_eq!(
        playing["nowPlaying"][0]["gameId"],
        t.game.as_str(),
        "{playing}"
    );
    assert_eq!(playing["nowPlaying"][0]["color"], "sente");
    let (stranger, _) = player(address, "mallory").await;
    let url = format!("http://{address}/api/bot/game/stream/{}", t.game);
    let refused = tokio::task::spawn_blocking(move || {
        match ureq::get(&url)
            .set("Authorization", &format!("Bearer {stranger}"))
            .call()
        {
            Err(ureq::Error::Status(code, _)) => code,
            other => panic!("{:?}", other.map(|r| r.status())),
        }
    })
    .await
    .unwrap();
    assert_eq!(refused, 403);
    let (tx, lines) = std::sync::mpsc::channel();
    read_stream(
        address,
        format!("/api/board/game/stream/{}", t.game),
        t.keys[1].clone(),
        tx,
    );
    let next_line = || {
        lines
            .recv_timeout(Duration::from_secs(10))
            .expect("a line in time")
    };
    let full = next_line();
    assert_eq!(full["type"], "gameFull", "{full}");
    assert_eq!(full["variant"]["key"], "minishogi");
    assert_eq!(full["sente"]["name"], "alice");
    assert_eq!(full["clock"]["initial"], 60000);
    assert_eq!(full["state"]["moves"], "");
    for (ply, usi) in OPENING.iter().enumerate() {
        let key = &t.keys[ply % 2];
        // The other side first: refused, nothing played.
        let (status, body) = call(
            address,
            "POST",
            &format!("/api/board/game/{}/move/{usi}", t.game),
            &t.keys[1 - ply % 2],
            None,
        )
        .await;
        assert_eq!(status, 400, "{body}");
        let (status, body) = call(
            address,
            "POST",
            &format!("/api/bot/game/{}/move/{usi}", t.game),
            key,
            None,
        )
        .await;
        assert_eq!(status, 200, "{body}");
        let state = next_line();
        assert_eq!(state["type"], "gameState");
        assert_eq!(state["moves"], OPENING[..=ply].join(" "));
        assert_eq!(state["status"], "started");
    }
    // Chat, as Lishogi-Bot greets (form fields), reaches the other's stream as lishogi's
    // chatLine, the text as typed; too long a line is refused.
    const TYPED: &str = "<img src=x onerror=alert(1)> good luck";
    let path = format!("/api/bot/game/{}/chat", t.game);
    let form = &[("room", "player"), ("text", TYPED)];
    let (status, body) = post_form(address, &path, &t.keys[0], form).await;
    assert_eq!(status, 200, "{body}");
    let line = next_line();
    assert_eq!(
        line,
        json!({"type": "chatLine", "room": "player", "username": "alice", "text": TYPED})
    );
    const LONG: &str = concat!(
        "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
    );
    assert_eq!(LONG.len(), 141);
    let form = &[("room", "player"), ("text", LONG)];
    let (status, _) = post_form(address, &path, &t.keys[0], form).await;
    assert_eq!(status, 400);
    let (status, _) = call(
        address,
        "POST",
        &format!("/api/board/game/{}/resign", t.game),
        &t.keys[1],
        None,
    )
    .await;
    assert_eq!(status, 200);
    let end = next_line();
    assert_eq!(
        (end["status"].clone(), end["winner"].clone()),
        (json!("resign"), json!("sente")),
        "{end}"
    );
    // A script declares itself a bot, as Lishogi-Bot asks before it plays.
    let (_, account) = call(address, "GET", "/api/account", &t.keys[0], None).await;
    assert!(account["title"].is_null(), "{account}");
    let path = "/api/bot/account/upgrade";
    let (status, _) = call(address, "POST", path, &t.keys[0], None).await;
    assert_eq!(status, 200);
    let (_, account) = call(address, "GET", "/api/account", &t.keys[0], None).await;
    assert_eq!(account["title"], "BOT", "{account}");
    assert_eq!(account["username"], "alice");
}

/// Issue 55, item 7: challenges and the event stream in lishogi's shape, as Lishogi-Bot
/// uses them: a challenge told on the challenged player's stream and kept out of the lobby,
/// declined (the challenger hears it), or accepted (both hear `gameStart`); no one else
/// takes the seat.
#[tokio::test(flavor = "multi_thread")]
async fn a_challenge_is_told_on_the_event_stream_and_accepted_or_declined() {
    let address = serve_online(None).await;
    let (alice, _) = player(address, "alice").await;
    let (bob, bob_id) = player(address, "bob").await;
    let (carol, _) = player(address, "carol").await;
    let (tx, bob_events) = std::sync::mpsc::channel();
    read_stream(address, "/api/stream/event".into(), bob.clone(), tx);
    let (tx, alice_events) = std::sync::mpsc::channel();
    read_stream(address, "/api/stream/event".into(), alice.clone(), tx);
    let next_of = |events: &std::sync::mpsc::Receiver<Value>| {
        events
            .recv_timeout(Duration::from_secs(10))
            .expect("an event in time")
    };
    // Give the streams a moment to be listening.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let form = &[
        ("rated", "true"),
        ("clock.limit", "180"),
        ("clock.increment", "2"),
        ("color", "sente"),
    ];
    let (status, made) =
        post_form(address, &format!("/api/challenge/{bob_id}"), &alice, form).await;
    assert_eq!(status, 200, "{made}");
    let id = made["challenge"]["id"].as_str().unwrap().to_string();
    let told = next_of(&bob_events);
    assert_eq!(told["type"], "challenge", "{told}");
    assert_eq!(told["challenge"]["id"], id.as_str());
    assert_eq!(told["challenge"]["challenger"]["name"], "alice");
    // As Lishogi-Bot reads a challenge: seconds, the speed, the perf.
    assert_eq!(
        told["challenge"]["timeControl"],
        json!({"type": "clock", "limit": 180, "increment": 2, "byoyomi": 0})
    );
    assert_eq!(told["challenge"]["speed"], "blitz");
    assert_eq!(told["challenge"]["perf"]["name"], "Minishogi");
    let (_, lobby) = call(address, "GET", "/online/lobby", "", None).await;
    assert!(
        lobby["waiting"].as_array().unwrap().is_empty(),
        "a challenge in the lobby: {lobby}"
    );
    // A stream opened later (a bot starting after the challenge was made) begins with it.
    let (tx, late_events) = std::sync::mpsc::channel();
    read_stream(address, "/api/stream/event".into(), bob.clone(), tx);
    let waiting = next_of(&late_events);
    assert_eq!(waiting["type"], "challenge", "{waiting}");
    assert_eq!(waiting["challenge"]["id"], id.as_str());
    assert_eq!(waiting["challenge"]["challenger"]["name"], "alice");
    assert_eq!(
        waiting["challenge"]["timeControl"],
        told["challenge"]["timeControl"]
    );
    assert_eq!(waiting["challenge"]["color"], "sente");
    let (status, _) = post_form(address, &format!("/api/challenge/{id}/accept"), &carol, &[]).await;
    assert_eq!(status, 400, "someone else took the challenged seat");
    let (status, _) = post_form(address, &format!("/api/challenge/{id}/accept"), &bob, &[]).await;
    assert_eq!(status, 200);
    for events in [&bob_events, &alice_events] {
        let start = next_of(events);
        assert_eq!(
            (start["type"].clone(), start["game"]["id"].clone()),
            (json!("gameStart"), json!(id)),
            "{start}"
        );
    }
    let (status, body) = call(
        address,
        "POST",
        &format!("/api/board/game/{id}/move/2e3d"),
        &alice,
        None,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    // Another challenge, declined: the challenger hears it, and the room is gone.
    let (_, made) = post_form(address, &format!("/api/challenge/{bob_id}"), &alice, &[]).await;
    let second = made["challenge"]["id"].as_str().unwrap().to_string();
    assert_eq!(next_of(&bob_events)["challenge"]["id"], second.as_str());
    let (status, _) = post_form(
        address,
        &format!("/api/challenge/{second}/decline"),
        &bob,
        &[],
    )
    .await;
    assert_eq!(status, 200);
    let declined = next_of(&alice_events);
    assert_eq!(
        (
            declined["type"].clone(),
            declined["challenge"]["id"].clone()
        ),
        (json!("challengeDeclined"), json!(second))
    );
    let (_, record) = call(address, "GET", &format!("/online/games/{second}"), "", None).await;
    assert_eq!(record["result"], "*");
}
