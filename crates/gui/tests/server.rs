//! The WebSocket protocol against the real server: moves judged by the rules crate, game
//! ends, takeback, records, and engines that crash or talk nonsense.

use futures_util::StreamExt;
mod common;

use common::{gogo, processes_with, script_engine, sh_engine};
use gogo_protocol::EngineSpec;
use gogo_rules::kif::read_kif;
use gogo_rules::Position;
use serde_json::{json, Value};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

type Socket = common::Page;

/// An engine in shell that does `on_go` for each `go`.
fn shell_engine(on_go: &str) -> EngineSpec {
    let script = format!(
        r#"while read -r line; do case "$line" in usi) echo "id name shell"; echo "option name Level type spin default 0 min 0 max 5"; echo usiok;; isready) echo readyok;; go*) {on_go};; quit) exit 0;; esac; done"#
    );
    sh_engine(&script)
}

async fn connect(engine: EngineSpec) -> Socket {
    let (address, token) = common::serve(engine, gogo_gui::Limits::default()).await;
    common::page(address, &token).await
}

use common::{expect_update as next, send_json as request};

fn moves(state: &Value) -> usize {
    state["moves"].as_array().unwrap().len()
}

fn new_game(start: &str, sente: &str, gote: &str) -> Value {
    json!({"type": "new_game", "start": start, "rules": "standard", "sente": sente, "gote": gote,
           "clock": {"kind": "none", "engine_ms": 50}})
}

#[tokio::test]
async fn moves_are_judged_and_the_engine_answers() {
    let mut s = connect(EngineSpec::new(gogo().display().to_string())).await;
    let state = next(&mut s, "state", |_| true).await;
    assert_eq!(state["legal"].as_array().unwrap().len(), 14);
    assert_eq!(state["turn"], "sente");
    request(&mut s, new_game("standard", "human", "engine")).await;
    next(&mut s, "state", |v| moves(v) == 0).await;
    // An illegal move is refused with the reason; the game is unchanged.
    request(&mut s, json!({"type": "move", "usi": "5d5b"})).await;
    let error = next(&mut s, "error", |_| true).await;
    assert!(
        error["message"].as_str().unwrap().contains("illegal"),
        "{error}"
    );
    request(&mut s, json!({"type": "move", "usi": "banana"})).await;
    next(&mut s, "error", |_| true).await;
    // A legal move, then the engine's legal answer.
    request(&mut s, json!({"type": "move", "usi": "3e4d"})).await;
    let state = next(&mut s, "state", |v| moves(v) == 2).await;
    let position = Position::from_sfen(state["positions"][1].as_str().unwrap()).unwrap();
    let reply = state["moves"][1]["usi"].as_str().unwrap();
    assert!(position.parse_move(reply).is_ok(), "{reply}");
    assert!(!state["legal"].as_array().unwrap().is_empty());
    // Take back: both moves, back to the person's turn.
    request(&mut s, json!({"type": "takeback"})).await;
    let state = next(&mut s, "state", |v| moves(v) == 0).await;
    assert_eq!(state["turn"], "sente");
    // The record as KIF reads back to the same moves.
    request(&mut s, json!({"type": "move", "usi": "3e4d"})).await;
    next(&mut s, "state", |v| moves(v) == 2).await;
    request(&mut s, json!({"type": "export"})).await;
    let export = next(&mut s, "export", |_| true).await;
    let (start, read) = read_kif(export["kif"].as_str().unwrap()).unwrap();
    assert_eq!(start, Position::startpos());
    assert_eq!(read.len(), 2);
    assert!(export["csa"].as_str().unwrap().contains("+3544GI"));
}

#[tokio::test]
async fn mate_ends_the_game_and_load_refuses_bad_text() {
    let mut s = connect(EngineSpec::new(gogo().display().to_string())).await;
    next(&mut s, "state", |_| true).await;
    request(&mut s, new_game("k4/2S2/1G3/5/4K b G 1", "human", "engine")).await;
    next(&mut s, "state", |v| {
        moves(v) == 0 && v["board"].as_array().unwrap().len() == 4
    })
    .await;
    request(&mut s, json!({"type": "move", "usi": "G*5b"})).await;
    let state = next(&mut s, "state", |v| v["result"].is_string()).await;
    assert_eq!(state["result"], "1-0");
    assert_eq!(state["reason"], "checkmate");
    assert!(state["legal"].as_array().unwrap().is_empty());
    request(&mut s, json!({"type": "move", "usi": "5a4a"})).await;
    next(&mut s, "error", |v| {
        v["message"].as_str().unwrap().contains("over")
    })
    .await;
    // Bad text to load: an error, the game kept.
    request(
        &mut s,
        json!({"type": "load", "text": "rbsgk/4p/5/P4/KGSBR b K 1"}),
    )
    .await;
    next(&mut s, "error", |_| true).await;
    request(&mut s, json!({"type": "load", "text": "手合割：平手\n"})).await;
    next(&mut s, "error", |_| true).await;
    // A good KIF.
    let kif = "手合割：５五将棋\n   1 ４四銀(35)\n   2 ４二銀(31)\n";
    request(&mut s, json!({"type": "load", "text": kif})).await;
    let state = next(&mut s, "state", |v| moves(v) == 2).await;
    assert_eq!(state["moves"][0]["japanese"], "▲４四銀");
    // A bad SFEN for a new game, and a bad clock.
    request(&mut s, new_game("rbsgk/4p/5/P4 b - 1", "human", "engine")).await;
    next(&mut s, "error", |_| true).await;
    request(
        &mut s,
        json!({"type": "new_game", "start": "standard", "rules": "chess",
        "sente": "human", "gote": "engine", "clock": {"kind": "none", "engine_ms": 50}}),
    )
    .await;
    next(&mut s, "error", |_| true).await;
    request(&mut s, json!({"type": "frobnicate"})).await;
    next(&mut s, "error", |v| {
        v["message"].as_str().unwrap().contains("bad request")
    })
    .await;
}

#[tokio::test]
async fn an_engine_that_crashes_or_talks_nonsense_loses_and_the_server_lives() {
    for (script, words) in [
        ("exit 3", "ended"),
        ("echo 'bestmove banana'", "malformed"),
        ("echo 'bestmove 5a4a'", "illegal"),
    ] {
        let mut s = connect(shell_engine(script)).await;
        next(&mut s, "state", |_| true).await;
        request(&mut s, new_game("standard", "human", "engine")).await;
        next(&mut s, "state", |v| moves(v) == 0).await;
        request(&mut s, json!({"type": "move", "usi": "3e4d"})).await;
        let state = next(&mut s, "state", |v| v["result"].is_string()).await;
        assert_eq!(state["result"], "1-0", "{script}: {state}");
        assert!(
            state["reason"].as_str().unwrap().contains(words),
            "{script}: {}",
            state["reason"]
        );
        assert_eq!(moves(&state), 1, "the game is kept");
        // The server still answers.
        request(&mut s, json!({"type": "export"})).await;
        next(&mut s, "export", |_| true).await;
    }
}

#[tokio::test]
async fn engine_against_engine_and_analysis() {
    let mut s = connect(EngineSpec::new(gogo().display().to_string())).await;
    next(&mut s, "state", |_| true).await;
    request(
        &mut s,
        json!({"type": "new_game", "start": "standard", "rules": "standard",
        "sente": "engine", "gote": "engine", "clock": {"kind": "none", "engine_ms": 20}}),
    )
    .await;
    let state = next(&mut s, "state", |v| v["result"].is_string()).await;
    let mut game = gogo_rules::Game::new(gogo_rules::RuleSet::standard());
    for m in state["moves"].as_array().unwrap() {
        game.play_usi(m["usi"].as_str().unwrap()).unwrap();
    }
    assert!(game.outcome().is_some(), "the rules ended the game too");
    // Analysis of a position, with two lines, and a mate search.
    request(
        &mut s,
        new_game("1R2p/3+R1/Psg2/B3k/K4 b Bgs 49", "human", "human"),
    )
    .await;
    next(&mut s, "state", |v| moves(v) == 0).await;
    request(&mut s, json!({"type": "analyze", "on": true, "multipv": 2})).await;
    let analysis = next(&mut s, "analysis", |v| {
        v["lines"].as_array().unwrap().len() == 2
    })
    .await;
    assert!(!analysis["lines"][0]["pv"].as_array().unwrap().is_empty());
    request(&mut s, json!({"type": "mate"})).await;
    let mate = next(&mut s, "mate", |_| true).await;
    assert!(
        mate["text"]
            .as_str()
            .unwrap()
            .starts_with("mate in 5 plies"),
        "{mate}"
    );
    assert!(mate["japanese"].as_str().unwrap().starts_with('▲'));
}

/// Engines that misbehave by volume (a flood of `info` lines, an endless line, an engine
/// that stops reading, one that exits in mid-line) lose within their time, the server goes
/// on, and the engine's process is gone once the page is; `info` lines with `multipv 0`, a
/// huge `multipv` or the lowest score (which panicked the session) are only lines.
#[tokio::test(flavor = "multi_thread")]
async fn engines_that_misbehave_by_volume_lose_in_time() {
    for (word, reason) in [
        ("!flood", "time"),
        ("!endless", "a line longer than 1048576 bytes"),
        ("!deaf", "time"),
        ("!midline", "malformed line 'bestmove 5d'"),
        ("!badinfo:1b1c", ""),
    ] {
        let marker = format!("marker-{}-{}", std::process::id(), word.len());
        let engine = EngineSpec {
            args: vec![format!("{word} {marker}")],
            ..EngineSpec::new(script_engine().display().to_string())
        };
        // A board waits a second for its page once it has gone, then ends with its engine.
        let limits = gogo_gui::Limits {
            idle_timeout: Duration::from_secs(1),
            ..Default::default()
        };
        let (address, token) = common::serve(engine, limits).await;
        let mut s = common::page(address, &token).await;
        next(&mut s, "state", |_| true).await;
        request(&mut s, new_game("standard", "human", "engine")).await;
        next(&mut s, "state", |v| moves(v) == 0).await;
        let asked = std::time::Instant::now();
        request(&mut s, json!({"type": "move", "usi": "3e4d"})).await;
        if reason.is_empty() {
            let state = next(&mut s, "state", |v| moves(v) == 2).await;
            assert!(state["result"].is_null(), "{word}: {state}");
        } else {
            let state = next(&mut s, "state", |v| v["result"].is_string()).await;
            assert_eq!(state["result"], "1-0", "{word}: {state}");
            assert!(
                state["reason"].as_str().unwrap().contains(reason),
                "{word}: {}",
                state["reason"]
            );
            // 50 ms a move and a second of grace; a loaded machine may take longer, but never
            // as long as the minutes an unchecked deadline took.
            assert!(
                asked.elapsed() < Duration::from_secs(10),
                "{word}: {:?}",
                asked.elapsed()
            );
        }
        request(&mut s, json!({"type": "export"})).await;
        next(&mut s, "export", |_| true).await;
        drop(s);
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while processes_with(&marker) > 0 && std::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(processes_with(&marker), 0, "{word}: a process is left");
    }
}

/// Every search states its own options: after an analysis with three lines, the engine's
/// game move is searched with one (MultiPV leaked into the engine's moves). The shell
/// engine plays 1b1c when it was told one line, 5a5b otherwise.
#[tokio::test]
async fn an_analysis_does_not_leak_its_lines_into_the_engines_moves() {
    let script = r#"mpv=1; while read -r line; do case "$line" in usi) echo "id name shell"; echo "option name MultiPV type spin default 1 min 1 max 8"; echo usiok;; isready) echo readyok;; "setoption name MultiPV value "*) mpv=${line##* };; "go infinite"*) ;; stop) echo "bestmove resign";; go*) if [ "$mpv" = 1 ]; then echo "bestmove 1b1c"; else echo "bestmove 5a5b"; fi;; quit) exit 0;; esac; done"#;
    let mut s = connect(sh_engine(script)).await;
    next(&mut s, "state", |_| true).await;
    request(&mut s, new_game("standard", "human", "engine")).await;
    next(&mut s, "state", |v| moves(v) == 0).await;
    request(&mut s, json!({"type": "analyze", "on": true, "multipv": 3})).await;
    request(
        &mut s,
        json!({"type": "analyze", "on": false, "multipv": 1}),
    )
    .await;
    request(&mut s, json!({"type": "move", "usi": "3e4d"})).await;
    let state = next(&mut s, "state", |v| moves(v) == 2).await;
    assert_eq!(state["moves"][1]["usi"], "1b1c", "{state}");
}

/// The board takes its winning chances from the engine it drives: from `wdl` where the
/// engine offers `USI_ShowWDL` (the board turns it on), else from the score on the default
/// scale. Both shell engines say `score cp 107`; the one with the option adds Fairy-
/// Stockfish's `wdl 293 703 4` once asked for it.
#[tokio::test]
async fn winning_chances_come_from_the_engines_wdl() {
    let with_wdl = r#"wdl=no; while read -r line; do case "$line" in usi) echo "id name shell"; echo "option name USI_ShowWDL type check default false"; echo usiok;; isready) echo readyok;; "setoption name USI_ShowWDL value true") wdl=yes;; "go infinite"*) if [ $wdl = yes ]; then echo "info depth 8 multipv 1 score cp 107 wdl 293 703 4 pv 5d5c"; else echo "info depth 8 multipv 1 score cp 107 pv 5d5c"; fi;; stop) echo "bestmove 5d5c";; quit) exit 0;; esac; done"#;
    let without = r#"while read -r line; do case "$line" in usi) echo "id name shell"; echo usiok;; isready) echo readyok;; "go infinite"*) echo "info depth 8 multipv 1 score cp 107 pv 5d5c";; stop) echo "bestmove 5d5c";; quit) exit 0;; esac; done"#;
    for (script, expected) in [
        (with_wdl, 0.6445),
        (
            without,
            1.0 / (1.0 + (-107.0f64 / gogo_gui::chances::DEFAULT_WIN_SCALE).exp()),
        ),
    ] {
        let mut s = connect(sh_engine(script)).await;
        next(&mut s, "state", |_| true).await;
        request(&mut s, new_game("standard", "human", "human")).await;
        next(&mut s, "state", |v| moves(v) == 0).await;
        request(&mut s, json!({"type": "analyze", "on": true, "multipv": 1})).await;
        let analysis = next(&mut s, "analysis", |v| {
            !v["lines"].as_array().unwrap().is_empty()
        })
        .await;
        let line = &analysis["lines"][0];
        assert_eq!(line["score"]["value"], 107, "{line}");
        let chance = line["sente_win"].as_f64().unwrap();
        assert!(
            (chance - expected).abs() < 1e-3,
            "{chance} against {expected}"
        );
    }
}

/// Against a person, the engine's thinking (and the reply it expects) is not shown unless
/// the person turns the analysis on.
#[tokio::test]
async fn the_engines_thoughts_stay_hidden_without_analysis() {
    let mut s = connect(shell_engine(
        r#"echo "info depth 3 score cp 40 pv 1b1c 4d3c"; echo "bestmove 1b1c""#,
    ))
    .await;
    next(&mut s, "state", |_| true).await;
    request(&mut s, new_game("standard", "human", "engine")).await;
    next(&mut s, "state", |v| moves(v) == 0).await;
    request(&mut s, json!({"type": "move", "usi": "3e4d"})).await;
    // Everything up to the engine's move: no analysis among it.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let message = tokio::time::timeout_at(deadline, s.next())
            .await
            .expect("the engine's move in time")
            .unwrap()
            .unwrap();
        if let Message::Text(text) = message {
            let v: Value = serde_json::from_str(&text).unwrap();
            // (An empty analysis clears the panel at each move.)
            let shown = v["lines"].as_array().is_some_and(|l| !l.is_empty());
            assert!(!(v["type"] == "analysis" && shown), "{v}");
            if v["type"] == "state" && moves(&v) == 2 {
                assert!(
                    v["scores"].as_array().unwrap().iter().all(|s| s.is_null()),
                    "{v}"
                );
                break;
            }
        }
    }
    // Asked for, the analysis shows.
    request(&mut s, json!({"type": "analyze", "on": true, "multipv": 1})).await;
    request(&mut s, json!({"type": "takeback"})).await;
    next(&mut s, "state", |v| moves(v) == 0).await;
    request(&mut s, json!({"type": "move", "usi": "3e4d"})).await;
    next(&mut s, "analysis", |v| {
        !v["lines"].as_array().unwrap().is_empty()
    })
    .await;
}

/// The engine's level is set for its game moves (and back to full strength for the
/// analysis), shown in the state and named in the records.
#[tokio::test]
async fn a_game_at_a_level() {
    // The shell engine plays 1b1c at level 3, 5a5b otherwise.
    let script = r#"lvl=0; while read -r line; do case "$line" in usi) echo "id name shell"; echo "option name Level type spin default 0 min 0 max 10"; echo usiok;; isready) echo readyok;; "setoption name Level value "*) lvl=${line##* };; go*) if [ "$lvl" = 3 ]; then echo "bestmove 1b1c"; else echo "bestmove 5a5b"; fi;; quit) exit 0;; esac; done"#;
    let mut s = connect(sh_engine(script)).await;
    next(&mut s, "state", |_| true).await;
    let mut game = new_game("standard", "human", "engine");
    game["level"] = json!(3);
    request(&mut s, game).await;
    // (The engine, started with the session, may announce itself with a state of the
    // game before: wait for this one's.)
    let state = next(&mut s, "state", |v| moves(v) == 0 && v["level"] == 3).await;
    assert_eq!(state["level"], 3);
    request(&mut s, json!({"type": "move", "usi": "3e4d"})).await;
    let state = next(&mut s, "state", |v| moves(v) == 2).await;
    assert_eq!(state["moves"][1]["usi"], "1b1c", "{state}");
    request(&mut s, json!({"type": "export"})).await;
    let export = next(&mut s, "export", |_| true).await;
    assert!(
        export["kif"]
            .as_str()
            .unwrap()
            .contains("後手：shell (level 3)"),
        "{export}"
    );
    assert!(
        export["csa"]
            .as_str()
            .unwrap()
            .contains("N-shell (level 3)"),
        "{export}"
    );
    let mut game = new_game("standard", "human", "engine");
    game["level"] = json!(11);
    request(&mut s, game).await;
    next(&mut s, "error", |v| {
        v["message"].as_str().unwrap().contains("level 11")
    })
    .await;
}

fn gogo_engine() -> EngineSpec {
    EngineSpec::new(gogo().display().to_string())
}

/// A hint is the full-strength engine's move in the position shown, and the game goes on
/// without it.
#[tokio::test]
async fn a_hint_is_a_legal_move_of_the_position() {
    let mut s = connect(gogo_engine()).await;
    next(&mut s, "state", |_| true).await;
    request(&mut s, new_game("standard", "human", "engine")).await;
    next(&mut s, "state", |v| moves(v) == 0).await;
    request(&mut s, json!({"type": "hint"})).await;
    let hint = next(&mut s, "hint", |_| true).await;
    let start = Position::startpos();
    assert_eq!(hint["sfen"], start.to_sfen());
    let usi = hint["usi"].as_str().unwrap();
    assert!(start.parse_move(usi).is_ok(), "{hint}");
    assert!(!hint["japanese"].as_str().unwrap().is_empty());
    // The hint plays nothing.
    request(&mut s, json!({"type": "export"})).await;
    let export = next(&mut s, "export", |_| true).await;
    assert_eq!(export["sfen"], start.to_sfen());
}

/// A game where Sente gives its rook away on the first move (1e1c, taken by the pawn): the
/// review marks that move a blunder with a better one, counts it in Sente's summary, says
/// how far it has got as it goes, and the KIF carries the marks as comments.
#[tokio::test]
async fn a_review_marks_the_blunder_and_the_kif_carries_it() {
    let moves_played = ["1e1c", "1b1c", "4e4d", "2a2b", "3e3d"];
    let mut game = gogo_rules::Game::new(gogo_rules::RuleSet::standard());
    for m in moves_played {
        game.play_usi(m).unwrap();
    }
    let kif = gogo_rules::kif::write_kif(game.start(), game.moves(), &Default::default());
    let mut s = connect(gogo_engine()).await;
    next(&mut s, "state", |_| true).await;
    request(&mut s, new_game("standard", "human", "human")).await;
    next(&mut s, "state", |v| moves(v) == 0).await;
    request(&mut s, json!({"type": "load", "text": kif})).await;
    next(&mut s, "state", |v| moves(v) == 5).await;
    request(&mut s, json!({"type": "review", "millis": 100})).await;
    let mut progress = Vec::new();
    let review = loop {
        let r = next(&mut s, "review", |_| true).await;
        progress.push(r["done"].as_u64().unwrap());
        if !r["summary"].is_null() {
            break r;
        }
    };
    assert_eq!(review["total"], 6);
    assert_eq!(
        progress,
        (0..=6).collect::<Vec<u64>>(),
        "one update per position"
    );
    let first = &review["moves"][0];
    assert_eq!(first["mark"], "blunder", "{review}");
    assert!(first["loss"].as_f64().unwrap() >= 0.15, "{first}");
    let best = first["best"].as_str().unwrap();
    assert_ne!(best, "1e1c");
    assert!(Position::startpos().parse_move(best).is_ok());
    assert!(
        review["summary"][0]["blunders"].as_u64().unwrap() >= 1,
        "{review}"
    );
    assert_eq!(review["summary"][0]["moves"], 3);
    assert_eq!(review["summary"][1]["moves"], 2);
    request(&mut s, json!({"type": "export"})).await;
    let export = next(&mut s, "export", |_| true).await;
    let kif = export["kif"].as_str().unwrap();
    let after_first = kif
        .lines()
        .skip_while(|l| !l.starts_with("   1 "))
        .nth(2)
        .unwrap();
    assert!(after_first.starts_with("*大悪手 (blunder"), "{kif}");
    // A move changes the game: the review is gone from the record.
    request(&mut s, json!({"type": "move", "usi": "1c1d"})).await;
    next(&mut s, "state", |v| moves(v) == 6).await;
    request(&mut s, json!({"type": "export"})).await;
    let export = next(&mut s, "export", |_| true).await;
    assert!(!export["kif"].as_str().unwrap().contains('*'), "{export}");
}

/// A game against the engine (which answers 1b1c), one move each, then the person resigns;
/// the state with the result.
async fn resign_after_one_move(s: &mut Socket) -> Value {
    request(s, new_game("standard", "human", "engine")).await;
    next(s, "state", |v| moves(v) == 0).await;
    request(s, json!({"type": "move", "usi": "3e4d"})).await;
    next(s, "state", |v| moves(v) == 2).await;
    request(s, json!({"type": "resign"})).await;
    next(s, "state", |v| v["result"] == "0-1").await
}

/// Safeguards and settings: a resigned game cannot be taken back, an empty Load says what
/// it wants, a kept game is played again (up to a bad move), and a move limit draws.
#[tokio::test]
async fn takeback_after_resigning_kept_games_and_move_limits() {
    let mut s = connect(shell_engine(r#"echo "bestmove 1b1c""#)).await;
    next(&mut s, "state", |_| true).await;
    resign_after_one_move(&mut s).await;
    request(&mut s, json!({"type": "takeback"})).await;
    let refused = next(&mut s, "error", |_| true).await;
    assert!(
        refused["message"].as_str().unwrap().contains("resignation"),
        "{refused}"
    );
    request(&mut s, json!({"type": "load", "text": "  "})).await;
    let empty = next(&mut s, "error", |_| true).await;
    assert!(
        empty["message"]
            .as_str()
            .unwrap()
            .starts_with("nothing to load"),
        "{empty}"
    );

    // A kept game: played again as far as it is legal.
    let mut kept = new_game("standard", "human", "human");
    kept["moves"] = json!(["3e4d", "1b1c", "4d4c"]);
    request(&mut s, kept.clone()).await;
    let state = next(&mut s, "state", |v| moves(v) == 3).await;
    assert!(state["result"].is_null());
    kept["moves"] = json!(["3e4d", "1b1c", "9z9z", "4d4c"]);
    request(&mut s, kept).await;
    next(&mut s, "state", |v| moves(v) == 2).await;
    let error = next(&mut s, "error", |_| true).await;
    assert!(
        error["message"].as_str().unwrap().contains("move 3"),
        "{error}"
    );

    // A limit of two plies: the second move draws.
    let mut limited = new_game("standard", "human", "human");
    limited["max_plies"] = json!(2);
    request(&mut s, limited).await;
    let state = next(&mut s, "state", |v| moves(v) == 0 && v["max_plies"] == 2).await;
    assert_eq!(state["max_plies"], 2);
    request(&mut s, json!({"type": "move", "usi": "3e4d"})).await;
    request(&mut s, json!({"type": "move", "usi": "1b1c"})).await;
    let state = next(&mut s, "state", |v| moves(v) == 2).await;
    assert_eq!(state["result"], "1/2-1/2", "{state}");
}

/// Issue 55: the server is the authority of how a game ended. A page that plays a kept game
/// again (as it does when the server no longer has its board) and claims it ended (the
/// engine resigned at move 0, a flag fell in a game without a clock, a resignation) gets the
/// moves played and nothing else: the game is live, its record says no ending.
#[tokio::test]
async fn a_pages_claimed_ending_is_not_taken() {
    let engine = || shell_engine(r#"echo "bestmove 1b1c""#);
    let mut s = connect(engine()).await;
    next(&mut s, "state", |_| true).await;
    for (kept, claim) in [
        (json!([]), json!({"kind": "resignation", "loser": "gote"})),
        (
            json!(["3e4d", "1b1c"]),
            json!({"kind": "time", "loser": "gote"}),
        ),
        (
            json!(["3e4d", "1b1c"]),
            json!({"kind": "resignation", "loser": "sente"}),
        ),
    ] {
        let mut claimed = new_game("standard", "human", "engine");
        claimed["moves"] = kept.clone();
        claimed["ending"] = claim;
        request(&mut s, claimed).await;
        let n = kept.as_array().unwrap().len();
        let state = next(&mut s, "state", |v| moves(v) == n).await;
        assert!(state["result"].is_null(), "{state}");
        assert!(state["ending"].is_null(), "{state}");
        request(&mut s, json!({"type": "export"})).await;
        let export = next(&mut s, "export", |_| true).await;
        assert!(
            !export["csa"].as_str().unwrap().contains("%TORYO"),
            "{export}"
        );
    }
}

/// Issue 35: the clock starts with each side's first move, as on lishogi: neither runs
/// before Sente's first move or Gote's; from the third ply on, the side to move's runs.
#[tokio::test]
async fn the_clocks_start_with_each_sides_first_move() {
    let mut s = connect(shell_engine(r#"echo "bestmove 1b1c""#)).await;
    next(&mut s, "state", |_| true).await;
    let mut clocked = new_game("standard", "human", "engine");
    clocked["clock"] = json!({"kind": "byoyomi", "main_ms": 60000, "byoyomi_ms": 5000});
    request(&mut s, clocked).await;
    let start = next(&mut s, "state", |v| moves(v) == 0).await;
    assert!(start["clock"]["running"].is_null(), "{}", start["clock"]);
    request(&mut s, json!({"type": "move", "usi": "3e4d"})).await;
    let answered = next(&mut s, "state", |v| moves(v) == 2).await;
    assert_eq!(answered["clock"]["running"], 0, "{}", answered["clock"]);
    // Neither first move cost time (Sente's clock has just started to run).
    assert_eq!(answered["clock"]["main_ms"][1], 60000);
    assert!(answered["clock"]["main_ms"][0].as_u64().unwrap() > 59_000);
}

/// Issue 35, item 8: below full strength the engine's move comes after a short, varied
/// thinking pause (the shell engine answers at once); at full strength, or with the pause
/// off, at once.
#[tokio::test]
async fn a_weaker_level_takes_a_thinking_pause() {
    let mut s = connect(shell_engine(r#"echo "bestmove 1b1c""#)).await;
    next(&mut s, "state", |_| true).await;
    let mut answers = Vec::new();
    for (level, pause) in [(1, true), (1, true), (0, true), (3, false)] {
        let mut game = new_game("standard", "human", "engine");
        game["level"] = json!(level);
        game["thinking_pause"] = json!(pause);
        request(&mut s, game).await;
        next(&mut s, "state", |v| moves(v) == 0 && v["level"] == level).await;
        let sent = std::time::Instant::now();
        request(&mut s, json!({"type": "move", "usi": "3e4d"})).await;
        let thinking = next(&mut s, "state", |v| moves(v) == 1).await;
        assert_eq!(thinking["thinking"], true);
        next(&mut s, "state", |v| moves(v) == 2).await;
        answers.push(sent.elapsed());
    }
    for paused in &answers[..2] {
        assert!(
            (Duration::from_millis(450)..Duration::from_millis(2200)).contains(paused),
            "{answers:?}"
        );
    }
    for at_once in &answers[2..] {
        assert!(*at_once < Duration::from_millis(400), "{answers:?}");
    }
}

/// Issue 34: the levels a game may ask for are the ones the engine offers (its `Level`
/// option), not a number the board keeps.
#[tokio::test]
async fn the_levels_are_the_engines() {
    let mut s = connect(shell_engine(r#"echo "bestmove 1b1c""#)).await;
    let ready = next(&mut s, "state", |v| v["engine_ready"] == true).await;
    assert_eq!(ready["max_level"], 5);
    let mut game = new_game("standard", "human", "engine");
    game["level"] = json!(6);
    request(&mut s, game.clone()).await;
    let error = next(&mut s, "error", |_| true).await;
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("0 (full strength) to 5"),
        "{error}"
    );
    game["level"] = json!(5);
    request(&mut s, game).await;
    next(&mut s, "state", |v| v["level"] == 5 && moves(v) == 0).await;

    // An engine without levels plays at full strength only.
    let plain = sh_engine(
        r#"while read -r line; do case "$line" in usi) echo "id name plain"; echo usiok;; isready) echo readyok;; quit) exit 0;; esac; done"#,
    );
    let mut s = connect(plain).await;
    let ready = next(&mut s, "state", |v| v["engine_ready"] == true).await;
    assert_eq!(ready["max_level"], 0);
    let mut game = new_game("standard", "human", "human");
    game["level"] = json!(1);
    request(&mut s, game).await;
    let error = next(&mut s, "error", |_| true).await;
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("no strength levels"),
        "{error}"
    );
}

/// Issue 35, item 9: a loaded record is labelled with its own players, and saved with them.
#[tokio::test]
async fn a_loaded_record_keeps_its_players_names() {
    let mut s = connect(shell_engine(r#"echo "bestmove 1b1c""#)).await;
    next(&mut s, "state", |_| true).await;
    request(&mut s, new_game("standard", "human", "human")).await;
    next(&mut s, "state", |v| moves(v) == 0).await;
    let mut game = gogo_rules::Game::new(gogo_rules::RuleSet::standard());
    game.play_usi("5d5c").unwrap();
    game.play_usi("1b1c").unwrap();
    let csa = gogo_rules::csa::write_csa(game.start(), game.moves(), "alice", "bob", None);
    request(&mut s, json!({"type": "load", "text": csa})).await;
    let loaded = next(&mut s, "state", |v| moves(v) == 2).await;
    assert_eq!(loaded["names"], json!(["alice", "bob"]));
    request(&mut s, json!({"type": "export"})).await;
    let export = next(&mut s, "export", |_| true).await;
    let kif = export["kif"].as_str().unwrap();
    assert!(
        kif.contains("先手：alice") && kif.contains("後手：bob"),
        "{kif}"
    );
    // A new game is this board's again.
    request(&mut s, new_game("standard", "human", "human")).await;
    let fresh = next(&mut s, "state", |v| moves(v) == 0).await;
    assert_eq!(fresh["names"], json!([null, null]));
}

/// Issue 36: a puzzle of the shipped set, solved move by move: the reply comes after a
/// pause, the rating rises on a rated solve and falls on a miss, the engine's help waits for
/// the end, hints come in two steps, the solution ends the try, bad requests are refused.
#[tokio::test]
async fn puzzles_are_solved_move_by_move_and_move_the_rating() {
    use gogo_puzzle::set::shipped;
    let set = shipped();
    let long = set
        .iter()
        .find(|p| p.solution().len() >= 3)
        .expect("a puzzle of two moves or more");
    let mut s = connect(shell_engine(r#"echo "bestmove 1b1c""#)).await;
    next(&mut s, "state", |v| v["engine_ready"] == true).await;
    let start = json!({"rating": 1500.0, "deviation": 350.0, "volatility": 0.09});
    request(
        &mut s,
        json!({"type": "puzzle", "id": long.id(), "rating": start}),
    )
    .await;
    let opened = next(&mut s, "puzzle", |_| true).await;
    assert_eq!(opened["state"], "playing");
    assert_eq!(opened["sfen"], long.position().to_sfen());
    assert_eq!(opened["solution"], json!([]), "the solution stays hidden");
    // The engine's help waits; so does moving the other side's pieces.
    request(&mut s, json!({"type": "hint"})).await;
    let refused = next(&mut s, "error", |_| true).await;
    assert!(refused["message"].as_str().unwrap().contains("puzzle"));
    // Hints: the piece, then the square too.
    request(&mut s, json!({"type": "puzzle_hint"})).await;
    let hint = next(&mut s, "puzzle", |v| !v["hint"].is_null()).await;
    assert!(hint["hint"][1].is_null());
    request(&mut s, json!({"type": "puzzle_hint"})).await;
    let hint = next(&mut s, "puzzle", |v| !v["hint"][1].is_null()).await;
    assert_eq!(hint["hint"][1], long.solution()[0].to().to_string());
    // The first move: right; the reply follows after a pause.
    request(
        &mut s,
        json!({"type": "move", "usi": long.solution()[0].to_string()}),
    )
    .await;
    let replying = next(&mut s, "puzzle", |v| v["state"] == "replying").await;
    assert_eq!(replying["found"], 1);
    let sent = std::time::Instant::now();
    next(&mut s, "state", |v| moves(v) == 2).await;
    assert!(sent.elapsed() >= Duration::from_millis(300));
    let playing = next(&mut s, "puzzle", |v| v["state"] == "playing").await;
    assert!(playing["hint"].is_null(), "a hint is for one move");
    // The rest: solved, rated, but a solve with a hint does not raise the rating.
    let mut ply = 2;
    while ply < long.solution().len() {
        request(
            &mut s,
            json!({"type": "move", "usi": long.solution()[ply].to_string()}),
        )
        .await;
        ply += 2;
        if ply < long.solution().len() {
            next(&mut s, "puzzle", |v| {
                v["state"] == "playing" && v["found"] == ply / 2
            })
            .await;
        }
    }
    let solved = next(&mut s, "puzzle", |v| v["state"] == "solved").await;
    // Both a solve after a hint and a wrong move are Glicko-2's loss against the puzzle.
    let miss = |puzzle_rating: u16| {
        gogo_puzzle::glicko::Rating {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.09,
        }
        .after_puzzle(f64::from(puzzle_rating), false)
        .rating
    };
    let hinted = solved["new_rating"]["rating"].as_f64().unwrap();
    assert!(hinted < 1500.0, "{solved}");
    assert!((hinted - miss(long.rating())).abs() < 1e-9, "{solved}");
    assert_eq!(
        solved["solution"].as_array().unwrap().len(),
        long.solution().len()
    );

    // A wrong move lowers it and is not played (another puzzle: this one's first result
    // is in, so it is practice from now on).
    let long = set
        .iter()
        .filter(|p| p.solution().len() >= 3)
        .nth(1)
        .expect("two puzzles of two moves or more");
    request(
        &mut s,
        json!({"type": "puzzle", "id": long.id(), "rating": start}),
    )
    .await;
    next(&mut s, "puzzle", |v| {
        v["state"] == "playing" && v["found"] == 0 && v["id"] == long.id()
    })
    .await;
    let pos = long.position().clone();
    let wrong = pos
        .legal_moves()
        .iter()
        .copied()
        .find(|&m| long.judge(0, m) == gogo_puzzle::Verdict::Wrong)
        .unwrap();
    request(&mut s, json!({"type": "move", "usi": wrong.to_string()})).await;
    let failed = next(&mut s, "puzzle", |v| v["state"] == "failed").await;
    assert_eq!(failed["mistake"], wrong.to_string());
    let missed = failed["new_rating"]["rating"].as_f64().unwrap();
    assert!((missed - miss(long.rating())).abs() < 1e-9, "{failed}");
    // A retry is practice: not rated.
    request(&mut s, json!({"type": "puzzle", "id": long.id()})).await;
    let retry = next(&mut s, "puzzle", |v| v["state"] == "playing").await;
    assert_eq!(retry["rated"], false);
    request(&mut s, json!({"type": "puzzle_solution"})).await;
    let state = next(&mut s, "state", |v| moves(v) == long.solution().len()).await;
    assert_eq!(state["legal"], json!([]));
    let shown = next(&mut s, "puzzle", |v| v["state"] == "failed").await;
    assert!(shown["new_rating"].is_null());
    // Clean solve of a one-move puzzle from a fresh rating.
    let one = set.iter().find(|p| p.solution().len() == 1).unwrap();
    request(
        &mut s,
        json!({"type": "puzzle", "id": one.id(), "rating": start}),
    )
    .await;
    next(&mut s, "puzzle", |v| v["id"] == one.id()).await;
    request(
        &mut s,
        json!({"type": "move", "usi": one.solution()[0].to_string()}),
    )
    .await;
    let clean = next(&mut s, "puzzle", |v| v["state"] == "solved").await;
    assert!(
        clean["new_rating"]["rating"].as_f64().unwrap() > 1500.0,
        "{clean}"
    );

    // Picking: near the rating, of the theme, not among those seen.
    request(
        &mut s,
        json!({"type": "puzzle", "rating": start, "theme": "mate-in-1", "seen": [one.id()]}),
    )
    .await;
    let picked = next(&mut s, "puzzle", |v| v["id"] != one.id()).await;
    assert!(picked["theme_words"]
        .as_array()
        .unwrap()
        .contains(&json!("mate-in-1")));
    for bad in [
        json!({"type": "puzzle", "id": "no-such-puzzle"}),
        json!({"type": "puzzle", "theme": "mate-in-2"}),
        json!({"type": "puzzle", "rating": {"rating": 1e9, "deviation": 350.0, "volatility": 0.09}}),
    ] {
        request(&mut s, bad).await;
        next(&mut s, "error", |_| true).await;
    }
}

/// Issue 54: the server keeps what was used of a puzzle, whatever the page claims: hints
/// asked before a reload still count after it, a first result stands (reopening is
/// practice), and the engine's review and analysis are refused while a puzzle is on.
#[tokio::test]
async fn a_reload_keeps_a_puzzles_hints_and_first_result() {
    use gogo_puzzle::set::shipped;
    let set = shipped();
    let one = set
        .iter()
        .filter(|p| p.solution().len() == 1)
        .nth(3)
        .expect("a one-move puzzle");
    let start = json!({"rating": 1500.0, "deviation": 350.0, "volatility": 0.09});
    let (address, token) = common::serve(
        shell_engine(r#"echo "bestmove 1b1c""#),
        gogo_gui::Limits::default(),
    )
    .await;
    // A page (new, as after a reload) that opens the puzzle as the page does.
    let open = |mut s: Socket| {
        let start = start.clone();
        async move {
            next(&mut s, "state", |_| true).await;
            request(
                &mut s,
                json!({"type": "puzzle", "id": one.id(), "rating": start}),
            )
            .await;
            next(&mut s, "puzzle", |v| v["id"] == one.id()).await;
            s
        }
    };
    let mut s = open(common::page(address, &token).await).await;
    // Three hints, then the page reloads (a new connection) and opens the puzzle again.
    for _ in 0..3 {
        request(&mut s, json!({"type": "puzzle_hint"})).await;
        next(&mut s, "puzzle", |v| !v["hint"].is_null()).await;
    }
    // The engine stays silent meanwhile: no review, no analysis.
    request(&mut s, json!({"type": "review", "millis": 100})).await;
    let refused = next(&mut s, "error", |_| true).await;
    assert!(
        refused["message"].as_str().unwrap().contains("puzzle"),
        "{refused}"
    );
    request(&mut s, json!({"type": "analyze", "on": true, "multipv": 1})).await;
    next(&mut s, "error", |_| true).await;
    drop(s);
    let mut s = open(common::page(address, &token).await).await;
    request(
        &mut s,
        json!({"type": "move", "usi": one.solution()[0].to_string()}),
    )
    .await;
    let solved = next(&mut s, "puzzle", |v| v["state"] == "solved").await;
    let after = solved["new_rating"]["rating"].as_f64().unwrap();
    assert!(after < 1500.0, "a solve after hints is a miss: {solved}");
    // Once the first result is in, the same puzzle is practice, however it is asked for.
    drop(s);
    let mut s = open(common::page(address, &token).await).await;
    request(
        &mut s,
        json!({"type": "move", "usi": one.solution()[0].to_string()}),
    )
    .await;
    let again = next(&mut s, "puzzle", |v| v["state"] == "solved").await;
    assert_eq!(again["rated"], false, "{again}");
    assert!(again["new_rating"].is_null(), "{again}");
}

/// Issue 56: the start rating is written once, in the puzzle crate. A page with no rating
/// yet asks as a new player; the server starts it at Glicko-2's start, says so in
/// `rating_before`, and moves it from there; a practice request (no rating) stays unrated.
#[tokio::test]
async fn a_new_player_starts_from_the_servers_start_rating() {
    use gogo_puzzle::glicko::START;
    let mut s = connect(shell_engine(r#"echo "bestmove 1b1c""#)).await;
    next(&mut s, "state", |_| true).await;
    request(&mut s, json!({"type": "puzzle", "new_player": true})).await;
    let opened = next(&mut s, "puzzle", |_| true).await;
    assert_eq!(opened["rated"], true, "{opened}");
    let before = &opened["rating_before"];
    assert_eq!(before["rating"].as_f64(), Some(START.rating), "{opened}");
    assert_eq!(before["deviation"].as_f64(), Some(START.deviation));
    assert_eq!(before["volatility"].as_f64(), Some(START.volatility));
    request(&mut s, json!({"type": "puzzle_solution"})).await;
    let over = next(&mut s, "puzzle", |v| v["state"] == "failed").await;
    let after = over["new_rating"]["rating"].as_f64().unwrap();
    assert!(
        after < START.rating,
        "asking for the solution is a miss: {over}"
    );
    // The pick is random among the nearest: the one just played is marked seen, so the
    // next puzzle is another and this waits for it, not for a chance.
    request(&mut s, json!({"type": "puzzle", "seen": [opened["id"]]})).await;
    let practice = next(&mut s, "puzzle", |v| v["id"] != opened["id"]).await;
    assert_eq!(practice["rated"], false, "{practice}");
    assert!(practice["rating_before"].is_null(), "{practice}");
}

/// Issue 37: the explorer answers with the built-in book's moves for a position, says where
/// the game left the book, and refuses what is not a position.
#[tokio::test]
async fn the_explorer_gives_the_books_moves() {
    let mut s = connect(shell_engine(r#"echo "bestmove 1b1c""#)).await;
    next(&mut s, "state", |_| true).await;
    let start = Position::startpos().to_sfen();
    request(&mut s, json!({"type": "explore", "sfen": start})).await;
    let answer = next(&mut s, "explorer", |_| true).await;
    let book = gogo_book::internal();
    let expected: Vec<String> = book
        .moves(&Position::startpos())
        .iter()
        .map(|m| m.mv.to_string())
        .collect();
    let got: Vec<&str> = answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["usi"].as_str().unwrap())
        .collect();
    assert_eq!(got, expected);
    assert!(answer["left_book_at"].is_null());
    // Out of the book: no moves.
    request(
        &mut s,
        json!({"type": "explore", "sfen": "k4/5/5/5/4K b - 1"}),
    )
    .await;
    let outside = next(&mut s, "explorer", |_| true).await;
    assert_eq!(outside["moves"], json!([]));
    for bad in ["rbsgk/9/5/P4/KGSBR b - 1", &"x".repeat(500)] {
        request(&mut s, json!({"type": "explore", "sfen": bad})).await;
        next(&mut s, "error", |_| true).await;
    }
}

/// Issue 37: the explorer also lists the moves the games loaded on the page played in the
/// position shown, with how often.
#[tokio::test]
async fn the_explorer_counts_the_loaded_games_moves() {
    let mut s = connect(shell_engine(r#"echo "bestmove 1b1c""#)).await;
    next(&mut s, "state", |_| true).await;
    for line in ["2e3d 4a3b", "2e3d 2a2b", "3e2d 4a3b"] {
        request(
            &mut s,
            json!({"type": "load", "text": format!("startpos moves {line}")}),
        )
        .await;
        next(&mut s, "state", |v| moves(v) == 2).await;
    }
    let start = Position::startpos().to_sfen();
    request(&mut s, json!({"type": "explore", "sfen": start})).await;
    let answer = next(&mut s, "explorer", |_| true).await;
    assert_eq!(answer["loaded_games"], 3);
    let loaded: Vec<(String, u64)> = answer["loaded_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["usi"].as_str().unwrap().to_string(),
                m["count"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(loaded, [("2e3d".to_string(), 2), ("3e2d".to_string(), 1)]);
}

/// The board's limits on what a page sends about puzzles and loaded games, through the real
/// server: a list of met puzzles past 20,000 ids is cut, not refused (the pick still skips
/// the first ones); past 1,000 loaded games the explorer counts the first 1,000.
#[tokio::test]
async fn the_puzzle_and_explorer_limits_hold() {
    let mut s = connect(shell_engine(r#"echo "bestmove 1b1c""#)).await;
    next(&mut s, "state", |_| true).await;
    let set = gogo_puzzle::set::shipped();
    // Every puzzle but one listed as met, then 25,000 made-up ids after them.
    let last = set.last().unwrap();
    let mut seen: Vec<String> = set[..set.len() - 1]
        .iter()
        .map(|p| p.id().to_string())
        .collect();
    seen.extend((0..25_000).map(|i| format!("x{i}")));
    request(&mut s, json!({"type": "puzzle", "seen": seen})).await;
    let picked = next(&mut s, "puzzle", |_| true).await;
    assert_eq!(picked["id"], last.id());
    // 1,001 games loaded: the explorer has counted 1,000.
    for i in 0..1_001 {
        let line = if i % 2 == 0 { "2e3d" } else { "3e2d" };
        request(
            &mut s,
            json!({"type": "load", "text": format!("startpos moves {line}")}),
        )
        .await;
    }
    // The last load's state has come once the explorer's answer follows it.
    request(
        &mut s,
        json!({"type": "explore", "sfen": Position::startpos().to_sfen()}),
    )
    .await;
    let answer = next(&mut s, "explorer", |_| true).await;
    assert_eq!(answer["loaded_games"], 1_000);
    let total: u64 = answer["loaded_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["count"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 1_000);
}
