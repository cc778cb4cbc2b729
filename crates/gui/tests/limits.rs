//! The board's limits hold against a page that stops reading, a client that never finishes
//! its request, too many connections, the longest game by every road, one page's long work
//! beside another's move, and errors that would echo a huge input.

use futures_util::SinkExt;
mod common;

use common::{marked_engine, page, processes_with, serve, Page};
use gogo_gui::messages::MAX_ERROR_CHARS;
use gogo_gui::Limits;
use gogo_rules::{Move, Rng, RuleSet, TooManyMoves, MAX_GAME_MOVES};
use serde_json::json;
use std::io::{Read, Write};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

/// A page whose socket takes in at most a few KiB unread.
async fn page_with_small_buffer(address: SocketAddr, token: &str) -> WebSocketStream<TcpStream> {
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let stream = socket.connect(address).await.unwrap();
    let (page, _) =
        tokio_tungstenite::client_async(format!("ws://{address}/ws?token={token}"), stream)
            .await
            .unwrap();
    page
}

use common::{next_update as next, send_json as request};

/// A game between two people from the start: the engine never moves in it.
async fn people_game(page: &mut Page) {
    request(
        page,
        json!({"type": "new_game", "start": "standard", "rules": "standard", "sente": "human",
               "gote": "human", "clock": {"kind": "none", "engine_ms": 50}}),
    )
    .await;
    next(page, "state", Duration::from_secs(10), |s| {
        s["moves"].as_array().is_some_and(|m| m.is_empty())
    })
    .await
    .unwrap();
}

/// Waits up to `within` for `marker`'s processes to number `want`.
async fn settle(marker: &str, want: usize, within: Duration) -> usize {
    let deadline = Instant::now() + within;
    loop {
        let n = processes_with(marker);
        if n == want || Instant::now() > deadline {
            return n;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A legal game of `plies` moves that the rules have not ended, as USI text, and a legal move
/// after it.
fn long_game(plies: usize) -> (String, Move) {
    let game = Rng::new(7).unending_game(RuleSet::standard(), plies);
    assert_eq!(game.moves().len(), plies);
    let words: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
    let next = game.position().legal_moves().as_slice()[0];
    (format!("startpos moves {}", words.join(" ")), next)
}

/// Issue 33, item 1: a page that stops reading its socket used to keep its session (and
/// its engine, and its place) for ever, since the server's writes had no deadline.
#[tokio::test(flavor = "multi_thread")]
async fn a_page_that_stops_reading_loses_its_session() {
    let marker = format!("gogo-gui-slow-reader-{}", std::process::id());
    let limits = Limits {
        max_sessions: 1,
        idle_timeout: Duration::from_secs(3),
        write_timeout: Duration::from_secs(1),
        ..Limits::default()
    };
    let (address, token) = serve(marked_engine(&marker), limits).await;
    let mut slow = page_with_small_buffer(address, &token).await;
    let engine_game = json!({"type": "new_game", "start": "standard", "rules": "standard",
        "sente": "engine", "gote": "human", "clock": {"kind": "none", "engine_ms": 50}});
    slow.send(Message::Text(engine_game.to_string().into()))
        .await
        .unwrap();
    assert_eq!(
        settle(&marker, 1, Duration::from_secs(5)).await,
        1,
        "the engine started"
    );
    // Requests whose answers are large (a long game's state), read by no one, until the
    // page's own sends stop going through.
    let (long, _) = long_game(2_000);
    let load = Message::Text(json!({"type": "load", "text": long}).to_string().into());
    let started = Instant::now();
    for _ in 0..400 {
        match tokio::time::timeout(Duration::from_millis(500), slow.send(load.clone())).await {
            Ok(Ok(())) => {}
            _ => break,
        }
    }
    // The server gives up on it within the write deadline (and the idle timeout at most),
    // stops and reaps its engine, and frees its place.
    assert_eq!(
        settle(&marker, 0, Duration::from_secs(10)).await,
        0,
        "the engine still runs {:?} after the page stopped reading",
        started.elapsed()
    );
    let mut other = page(address, &token).await;
    let state = next(&mut other, "state", Duration::from_secs(5), |_| true).await;
    assert!(state.is_some(), "the place was not freed");
    drop(slow);
}

/// The status line's code of a raw HTTP exchange, or `None` when the server closed the
/// connection without answering.
fn answer(stream: &mut std::net::TcpStream) -> Option<u16> {
    let mut head = [0u8; 12];
    match stream.read(&mut head) {
        Ok(0) | Err(_) => None,
        Ok(_) => String::from_utf8_lossy(&head)[9..12].parse().ok(),
    }
}

/// A client that never finishes its request's head is closed after the header timeout;
/// connections beyond the cap are closed at once.
#[tokio::test(flavor = "multi_thread")]
async fn slow_headers_and_too_many_connections_are_closed() {
    let limits = Limits {
        max_connections: 3,
        header_timeout: Duration::from_millis(800),
        ..Limits::default()
    };
    let (address, token) = serve(marked_engine("gogo-gui-conn"), limits).await;
    let outcome = tokio::task::spawn_blocking(move || {
        // Slow headers: half a request, then nothing.
        let mut slow = std::net::TcpStream::connect(address).unwrap();
        slow.set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        slow.write_all(
            format!("GET /?token={token} HTTP/1.1\r\nHost: {address}\r\nX-Wait: ").as_bytes(),
        )
        .unwrap();
        let started = Instant::now();
        let slow_answer = answer(&mut slow);
        let slow_closed_after = started.elapsed();
        drop(slow);
        // The cap: three silent connections hold every place; a fourth is closed at once.
        let holders: Vec<std::net::TcpStream> = (0..3)
            .map(|_| std::net::TcpStream::connect(address).unwrap())
            .collect();
        std::thread::sleep(Duration::from_millis(100));
        let mut extra = std::net::TcpStream::connect(address).unwrap();
        extra
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let _ = extra.write_all(
            format!("GET /?token={token} HTTP/1.1\r\nHost: {address}\r\n\r\n").as_bytes(),
        );
        let started = Instant::now();
        let extra_answer = answer(&mut extra);
        let extra_closed_after = started.elapsed();
        drop(holders);
        // Once they are gone (closed by the header timeout or by their clients), a whole
        // request is answered.
        std::thread::sleep(Duration::from_millis(200));
        let mut whole = std::net::TcpStream::connect(address).unwrap();
        whole
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        whole
            .write_all(
                format!(
                    "GET /?token={token} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
                )
                .as_bytes(),
            )
            .unwrap();
        let whole_answer = answer(&mut whole);
        (
            slow_answer,
            slow_closed_after,
            extra_answer,
            extra_closed_after,
            whole_answer,
        )
    })
    .await
    .unwrap();
    let (slow_answer, slow_after, extra_answer, extra_after, whole_answer) = outcome;
    // hyper answers a timed-out head with 408 or just closes: either way, not served.
    assert!(matches!(slow_answer, None | Some(408)), "{slow_answer:?}");
    assert!(
        (Duration::from_millis(700)..Duration::from_secs(5)).contains(&slow_after),
        "closed after {slow_after:?}"
    );
    assert_eq!(extra_answer, None, "a connection beyond the cap was served");
    assert!(extra_after < Duration::from_secs(1), "{extra_after:?}");
    assert_eq!(whole_answer, Some(200));
}

/// Issue 33, item 2: `load` and `new_game` with kept moves both stop at the game cap, with
/// the rules crate's message, and change nothing.
#[tokio::test(flavor = "multi_thread")]
async fn every_road_into_the_board_stops_at_the_cap() {
    let (address, token) = serve(marked_engine("gogo-gui-cap"), Limits::default()).await;
    let mut p = page(address, &token).await;
    let within = Duration::from_secs(20);
    next(&mut p, "state", within, |_| true).await.unwrap();
    people_game(&mut p).await;
    let (longest, next_move) = long_game(MAX_GAME_MOVES);
    let too_long = format!("{longest} {next_move}");
    let expected = TooManyMoves.to_string();

    // The longest game loads, as USI text.
    request(&mut p, json!({"type": "load", "text": longest})).await;
    let state = next(&mut p, "state", within, |s| {
        s["moves"]
            .as_array()
            .is_some_and(|m| m.len() == MAX_GAME_MOVES)
    })
    .await
    .unwrap();
    assert!(state["result"].is_null(), "{}", state["result"]);
    // A move past it is refused with the same words, the game kept.
    request(
        &mut p,
        json!({"type": "move", "usi": next_move.to_string()}),
    )
    .await;
    let error = next(&mut p, "error", within, |_| true).await.unwrap();
    assert!(
        error["message"].as_str().unwrap().contains(&expected),
        "{error}"
    );

    // One move more, by load and by new_game with kept moves: refused, nothing changed.
    request(&mut p, json!({"type": "load", "text": too_long})).await;
    let error = next(&mut p, "error", within, |_| true).await.unwrap();
    assert!(
        error["message"].as_str().unwrap().contains(&expected),
        "{error}"
    );
    let words: Vec<&str> = too_long.split_whitespace().skip(2).collect();
    assert_eq!(words.len(), MAX_GAME_MOVES + 1);
    request(
        &mut p,
        json!({"type": "new_game", "start": "standard", "rules": "standard", "sente": "human",
               "gote": "human", "clock": {"kind": "none", "engine_ms": 50}, "moves": words}),
    )
    .await;
    let error = next(&mut p, "error", within, |_| true).await.unwrap();
    assert!(
        error["message"].as_str().unwrap().contains(&expected),
        "{error}"
    );
    // Still the longest game: a takeback answers with one move fewer.
    request(&mut p, json!({"type": "takeback"})).await;
    next(&mut p, "state", within, |s| {
        s["moves"]
            .as_array()
            .is_some_and(|m| m.len() == MAX_GAME_MOVES - 1)
    })
    .await
    .expect("the game was kept");
}

/// One page loading the longest game again and again does not hold up another page's move.
/// (A bound generous enough for a loaded machine: this is a check that nothing waits on the
/// loads, not a measure of speed; `cargo bench -p gogo-rules --bench replay` measures that.)
#[tokio::test(flavor = "multi_thread", worker_threads = 1)]
async fn a_long_load_does_not_stall_another_page() {
    let (address, token) = serve(marked_engine("gogo-gui-stall"), Limits::default()).await;
    let (longest, _) = long_game(MAX_GAME_MOVES);
    let mut loader = page(address, &token).await;
    let mut player = page(address, &token).await;
    let within = Duration::from_secs(20);
    next(&mut loader, "state", within, |_| true).await.unwrap();
    next(&mut player, "state", within, |_| true).await.unwrap();
    people_game(&mut loader).await;
    people_game(&mut player).await;
    let load = json!({"type": "load", "text": longest}).to_string();
    // The loader sends its loads and reads its answers on a task of its own.
    let loading = tokio::spawn(async move {
        let mut loads = 0;
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(4) {
            loader
                .send(Message::Text(load.clone().into()))
                .await
                .unwrap();
            next(&mut loader, "state", within, |s| {
                s["moves"]
                    .as_array()
                    .is_some_and(|m| m.len() == MAX_GAME_MOVES)
            })
            .await
            .unwrap();
            loads += 1;
        }
        loads
    });
    let mut answers = Vec::new();
    let mut plies = 0;
    tokio::time::sleep(Duration::from_millis(200)).await;
    for mv in ["5d5c", "1b1c", "4e4d", "2a2b"] {
        let sent = Instant::now();
        request(&mut player, json!({"type": "move", "usi": mv})).await;
        plies += 1;
        next(&mut player, "state", within, |s| {
            s["moves"].as_array().is_some_and(|m| m.len() == plies)
        })
        .await
        .unwrap();
        answers.push(sent.elapsed());
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    let loads = loading.await.unwrap();
    answers.sort();
    let median = answers[answers.len() / 2];
    assert!(loads >= 2, "{loads} loads");
    assert!(
        median < Duration::from_millis(1500),
        "a move took {answers:?} beside {loads} loads of {MAX_GAME_MOVES} moves"
    );
}

/// Issue 33, item 5: an error quotes at most a short part of what was sent.
#[tokio::test(flavor = "multi_thread")]
async fn errors_quote_a_short_prefix() {
    let (address, token) = serve(marked_engine("gogo-gui-echo"), Limits::default()).await;
    let mut p = page(address, &token).await;
    let within = Duration::from_secs(10);
    next(&mut p, "state", within, |_| true).await.unwrap();
    for text in [
        format!("sfen {}", "x".repeat(400_000)),
        format!("手合割：５五将棋\n1 {}", "歩".repeat(100_000)),
        format!("V2.2\n+{}", "5".repeat(400_000)),
    ] {
        request(&mut p, json!({"type": "load", "text": text})).await;
        let error = next(&mut p, "error", within, |_| true).await.unwrap();
        let message = error["message"].as_str().unwrap();
        assert!(
            message.chars().count() <= MAX_ERROR_CHARS,
            "{} chars",
            message.len()
        );
    }
    // A request that is not JSON: also brief.
    p.send(Message::Text(
        format!("{{\"type\": \"{}", "y".repeat(300_000)).into(),
    ))
    .await
    .unwrap();
    let error = next(&mut p, "error", within, |_| true).await.unwrap();
    assert!(error["message"].as_str().unwrap().chars().count() <= MAX_ERROR_CHARS);
}
