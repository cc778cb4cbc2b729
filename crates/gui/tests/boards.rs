//! A board outlives its page (issue 55, item 1): a reload or a dropped connection comes back
//! to the same game, clock and all, by the board's key; a page with no key, a wrong one or
//! one the server no longer has gets a new board; a board whose page does not come back
//! ends and gives its place to a new page.

mod common;

use common::{marked_engine, processes_with, Page};
use gogo_gui::Limits;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;

async fn open(address: SocketAddr, token: &str, board: &str) -> Page {
    tokio_tungstenite::connect_async(format!("ws://{address}/ws?token={token}&board={board}"))
        .await
        .unwrap()
        .0
}

use common::{next_or_closed as next, send_json as request};

fn plies(state: &Value) -> usize {
    state["moves"].as_array().unwrap().len()
}

const OPENING: [&str; 6] = ["2e3d", "4a3b", "3d2c", "3b2c", "1e2e", "2c3d"];

/// The issue's case: Fischer 300 + 0, six plies, a reload. The clocks used to come back
/// full; now the page comes back to the same board with the time as it was.
#[tokio::test(flavor = "multi_thread")]
async fn a_reload_comes_back_to_the_same_game_and_clocks() {
    let (address, token) =
        common::serve(marked_engine("gogo-gui-boards-reload"), Limits::default()).await;
    let mut page = open(address, &token, "").await;
    let board = next(&mut page, "board", |_| true).await.unwrap();
    assert_eq!(board["resumed"], false);
    let key = board["key"].as_str().unwrap().to_string();
    assert_eq!(key.len(), 32);
    request(
        &mut page,
        json!({"type": "new_game", "start": "standard", "rules": "standard", "sente": "human",
               "gote": "human", "clock": {"kind": "fischer", "main_ms": 300000, "increment_ms": 0}}),
    )
    .await;
    next(&mut page, "state", |s| plies(s) == 0).await.unwrap();
    let mut last = Value::Null;
    for (ply, usi) in OPENING.iter().enumerate() {
        tokio::time::sleep(Duration::from_millis(150)).await;
        request(&mut page, json!({"type": "move", "usi": usi})).await;
        last = next(&mut page, "state", |s| plies(s) == ply + 1)
            .await
            .unwrap();
    }
    drop(page);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut again = open(address, &token, &key).await;
    let board = next(&mut again, "board", |_| true).await.unwrap();
    assert_eq!(board["resumed"], true);
    let state = next(&mut again, "state", |_| true).await.unwrap();
    assert_eq!(plies(&state), 6, "{state}");
    let clock = &state["clock"]["main_ms"];
    // Gote's second and third moves took 150 ms or more each: its clock is as it was
    // before the reload, not refilled.
    assert_eq!(clock[1], last["clock"]["main_ms"][1], "{clock}");
    assert!(clock[1].as_u64().unwrap() <= 299_700, "{clock}");
    // Sente's runs still, through the reload: less than before it.
    assert_eq!(state["clock"]["running"], 0);
    assert!(
        clock[0].as_u64().unwrap() + 300 <= last["clock"]["main_ms"][0].as_u64().unwrap(),
        "{clock}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_wrong_or_unknown_key_gets_a_new_board_and_a_second_page_takes_the_board() {
    let (address, token) =
        common::serve(marked_engine("gogo-gui-boards-keys"), Limits::default()).await;
    for key in ["nonsense", &"0".repeat(32), "%27%3B--"] {
        let mut page = open(address, &token, key).await;
        let board = next(&mut page, "board", |_| true).await.unwrap();
        assert_eq!(board["resumed"], false, "{key}");
        assert_ne!(board["key"], key);
    }
    let mut first = open(address, &token, "").await;
    let key = next(&mut first, "board", |_| true).await.unwrap()["key"]
        .as_str()
        .unwrap()
        .to_string();
    next(&mut first, "state", |_| true).await.unwrap();
    // The same board opened again (a duplicated tab): the new page has it, the first is
    // let go.
    let mut second = open(address, &token, &key).await;
    assert_eq!(
        next(&mut second, "board", |_| true).await.unwrap()["resumed"],
        true
    );
    next(&mut second, "state", |_| true).await.unwrap();
    // Whatever was on its way to the first page before (the engine's name, once it is up),
    // its socket then closes.
    assert!(
        next(&mut first, "no such update", |_| true).await.is_none(),
        "the first page was let go"
    );
    request(&mut second, json!({"type": "move", "usi": "2e3d"})).await;
    next(&mut second, "state", |s| plies(s) == 1).await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_board_without_its_page_ends_or_gives_its_place() {
    let marker = format!("gogo-gui-boards-wait-{}", std::process::id());
    let limits = Limits {
        max_sessions: 1,
        idle_timeout: Duration::from_secs(2),
        ..Limits::default()
    };
    let (address, token) = common::serve(marked_engine(&marker), limits).await;
    // A page leaves; a new page (another tab, no key) takes the only place at once.
    let mut first = open(address, &token, "").await;
    let key = next(&mut first, "board", |_| true).await.unwrap()["key"]
        .as_str()
        .unwrap()
        .to_string();
    next(&mut first, "state", |_| true).await.unwrap();
    drop(first);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut other = open(address, &token, "").await;
    assert_eq!(
        next(&mut other, "board", |_| true).await.unwrap()["resumed"],
        false
    );
    next(&mut other, "state", |_| true).await.unwrap();
    // The first board is gone: its key gets a board no more; the only place is taken by a
    // page that is here, so the server is full.
    let mut late = open(address, &token, &key).await;
    let refused = next(&mut late, "error", |_| true).await.unwrap();
    assert!(
        refused["message"].as_str().unwrap().contains("full"),
        "{refused}"
    );
    // A board whose page does not come back ends with its engine after the wait.
    drop(other);
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while processes_with(&marker) > 0 && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        processes_with(&marker),
        0,
        "the engine outlived its board's wait"
    );
}

/// Pages that come together when every place is held by a board waiting alone each get a
/// board: a page whose given place another new page took asks the next waiting board for
/// one (of eight pages opened at once after eight had left, three used to be refused).
#[tokio::test(flavor = "multi_thread")]
async fn pages_that_come_together_each_get_a_place_boards_waited_in() {
    let marker = format!("gogo-gui-boards-together-{}", std::process::id());
    let places = 6;
    let limits = Limits {
        max_sessions: places,
        ..Limits::default()
    };
    let (address, token) = common::serve(marked_engine(&marker), limits).await;
    for round in 0..3 {
        let pages = futures_util::future::join_all((0..places).map(|_| async {
            let mut page = open(address, &token, "").await;
            // A refused page is told the server is full and closed: no board then.
            let board = next(&mut page, "board", |_| true).await;
            (page, board)
        }))
        .await;
        let refused = pages.iter().filter(|(_, board)| board.is_none()).count();
        assert_eq!(
            refused, 0,
            "round {round}: {refused} of {places} pages refused"
        );
        drop(pages);
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
}

/// `gogo-gui` on `db` and `port`, with a shell engine; its token once it printed it.
fn start_binary(db: &std::path::Path, port: u16) -> (std::process::Child, String) {
    use std::io::BufRead;
    let engine = r#"while read -r line; do case "$line" in usi) echo "id name shell"; echo usiok;; isready) echo readyok;; go*) echo "bestmove resign";; quit) exit 0;; esac; done"#;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_gogo-gui"))
        .args([
            "--engine",
            "/bin/sh",
            "--engine-arg",
            "-c",
            "--engine-arg",
            engine,
        ])
        .args(["--port", &port.to_string(), "--db"])
        .arg(db)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let stderr = child.stderr.take().unwrap();
    let line = std::io::BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .find(|l| l.contains("token="))
        .unwrap_or_else(|| {
            let mut why = String::new();
            let _ = std::io::Read::read_to_string(&mut { stderr }, &mut why);
            panic!("gogo-gui printed no address: {why}")
        });
    let token = line
        .split("token=")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    (child, token.to_string())
}

/// Kills `server` with SIGKILL, starts it again on `db` and `port`, and opens the board
/// whose key is `key`: the new server, the page (its board resumed), and its first state.
async fn kill_and_restart(
    mut server: std::process::Child,
    db: &std::path::Path,
    port: u16,
    key: &str,
) -> (std::process::Child, Page, Value) {
    server.kill().unwrap();
    server.wait().unwrap();
    let (server, token) = start_binary(db, port);
    let address: SocketAddr = ([127, 0, 0, 1], port).into();
    let mut page = open(address, &token, key).await;
    let board = next(&mut page, "board", |_| true).await.unwrap();
    assert_eq!(board["resumed"], true, "the board came back");
    let state = next(&mut page, "state", |_| true).await.unwrap();
    (server, page, state)
}

/// Issue 55: the local board's game is kept in the database, each move before the page is
/// told. The server killed with SIGKILL and started again: the page's board key brings back
/// the same game, its clocks as stored, and the ending the server judged (the page sends
/// none).
#[tokio::test(flavor = "multi_thread")]
async fn a_restarted_server_gives_the_board_its_game_clocks_and_ending_back() {
    let dir = std::env::temp_dir().join(format!("gogo-boards-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("games.db");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let address: SocketAddr = ([127, 0, 0, 1], port).into();
    let (server, token) = start_binary(&db, port);
    let mut page = open(address, &token, "").await;
    let key = next(&mut page, "board", |_| true).await.unwrap()["key"]
        .as_str()
        .unwrap()
        .to_string();
    request(
        &mut page,
        json!({"type": "new_game", "start": "standard", "rules": "standard", "sente": "human",
               "gote": "human", "clock": {"kind": "fischer", "main_ms": 300000, "increment_ms": 0}}),
    )
    .await;
    next(&mut page, "state", |s| plies(s) == 0).await.unwrap();
    let mut last = Value::Null;
    for (ply, usi) in OPENING[..4].iter().enumerate() {
        tokio::time::sleep(Duration::from_millis(150)).await;
        request(&mut page, json!({"type": "move", "usi": usi})).await;
        last = next(&mut page, "state", |s| plies(s) == ply + 1)
            .await
            .unwrap();
    }
    let (server, mut page, state) = kill_and_restart(server, &db, port, &key).await;
    assert_eq!(state["moves"], last["moves"]);
    // Gote moved last: its clock stands as stored; Sente's runs again from the restart.
    assert_eq!(
        state["clock"]["main_ms"][1], last["clock"]["main_ms"][1],
        "{state}"
    );
    assert!(state["clock"]["main_ms"][1].as_u64().unwrap() < 300_000);
    // Sente resigns; the server is killed again; the game comes back resigned.
    request(&mut page, json!({"type": "resign"})).await;
    let resigned = next(&mut page, "state", |s| !s["result"].is_null())
        .await
        .unwrap();
    assert_eq!(resigned["result"], "0-1");
    let (mut server, _page, state) = kill_and_restart(server, &db, port, &key).await;
    assert_eq!(state["moves"], last["moves"]);
    assert_eq!(
        (state["result"].clone(), state["reason"].clone()),
        (json!("0-1"), json!("resignation"))
    );
    server.kill().unwrap();
    server.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
