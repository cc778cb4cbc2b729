//! Transcript tests: the built binary, driven over USI as a GUI drives it.

mod common;

use common::{ms, secs, Gogo};
use gogo_protocol::{Checkmate, EngineMessage, InfoScore};
use gogo_rules::Position;
use std::time::Instant;

fn last_score(lines: &[String]) -> Option<InfoScore> {
    lines
        .iter()
        .rev()
        .find_map(|l| match l.parse::<EngineMessage>() {
            Ok(EngineMessage::Info(info)) => info.score,
            _ => None,
        })
}

#[test]
fn handshake_lists_every_option() {
    let mut e = Gogo::start();
    e.send("usi");
    let lines = e.expect("usiok", secs(5));
    // Through a pipe, as a GUI or Lishogi-Bot runs it: protocol only, no greeting (that is
    // for a terminal), so the answer to `usi` is the first line.
    assert!(lines[0].starts_with("id name gogo"), "{lines:?}");
    assert!(lines[1].starts_with("id author"));
    for name in [
        "USI_Hash",
        "USI_Ponder",
        "USI_ShowWDL",
        "Threads",
        "MultiPV",
        "Rules",
        "MaxPlies",
        "MoveOverhead",
        "UseNNUE",
        "EvalFile",
        "MateHash",
        "MateProbe",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} type"))),
            "{name} missing: {lines:?}"
        );
    }
    for line in &lines[1..] {
        line.parse::<EngineMessage>()
            .unwrap_or_else(|err| panic!("{line}: {err}"));
    }
    e.ready();
    assert!(e.quit().success());
}

/// With `USI_ShowWDL`, every search line carries `wdl W D L` for the side to move, from the
/// score on the evaluation's calibrated scale: the three add up to 1000, a better score
/// means more wins, a mate is all wins. Without it, none does.
#[test]
fn wdl_on_request() {
    let mut e = Gogo::start();
    e.handshake();
    e.send("position startpos");
    e.send("go depth 6");
    let lines = e.expect("bestmove", secs(30));
    assert!(!lines.iter().any(|l| l.contains(" wdl ")), "{lines:?}");
    for (option, nnue) in [("UseNNUE", "true"), ("UseNNUE", "false")] {
        e.send("setoption name USI_ShowWDL value true");
        e.send(&format!("setoption name {option} value {nnue}"));
        e.ready();
        // A position Sente mates in three plies (a tsume of the problem set) and the start.
        for (position, mate) in [
            ("position sfen 2k2/5/2P2/5/K3G b G 1", true),
            ("position startpos", false),
        ] {
            e.send(position);
            e.send("go depth 6");
            let lines = e.expect("bestmove", secs(30));
            let mut seen = 0;
            for line in lines.iter().filter(|l| l.contains(" score ")) {
                let EngineMessage::Info(info) = line.parse().unwrap() else {
                    panic!("{line}")
                };
                let wdl = info.wdl.unwrap_or_else(|| panic!("no wdl: {line}"));
                assert_eq!(wdl.win + wdl.draw + wdl.loss, 1000, "{line}");
                match info.score.unwrap() {
                    InfoScore::Mate(n) => assert_eq!(wdl.win, if n > 0 { 1000 } else { 0 }),
                    InfoScore::Centipawns(cp) => {
                        assert_eq!(wdl.win >= 500, cp >= 0, "{line}");
                        assert!(cp.abs() > 2000 || (1..1000).contains(&wdl.win), "{line}");
                    }
                }
                seen += 1;
            }
            assert!(seen > 0, "{lines:?}");
            if mate {
                let last = lines.iter().rev().find(|l| l.contains(" score ")).unwrap();
                assert!(
                    last.contains("score mate") && last.contains("wdl 1000 0 0"),
                    "{last}"
                );
            }
        }
    }
}

#[test]
fn every_kind_of_limit_ends_with_a_legal_bestmove() {
    let mut e = Gogo::start();
    e.handshake();
    let start = Position::startpos();
    let after = start.played(start.parse_move("5d5c").unwrap());
    for (position, pos, go, timeout) in [
        ("position startpos", &start, "go depth 4", secs(10)),
        ("position startpos", &start, "go nodes 5000", secs(10)),
        (
            "position startpos moves 5d5c",
            &after,
            "go movetime 100",
            secs(5),
        ),
        (
            "position startpos",
            &start,
            "go btime 0 wtime 0 byoyomi 100",
            secs(5),
        ),
        (
            "position startpos moves 5d5c",
            &after,
            "go btime 1000 wtime 1000 binc 10 winc 10",
            secs(5),
        ),
        (
            "position startpos",
            &start,
            "go btime 500 wtime 500",
            secs(5),
        ),
    ] {
        e.send(position);
        e.send(go);
        let (_, lines) = e.bestmove_in(pos, timeout);
        assert!(
            lines.iter().any(|l| l.starts_with("info depth")),
            "{go}: {lines:?}"
        );
    }
    // A depth limit is respected.
    e.send("position startpos");
    e.send("go depth 3");
    let (_, lines) = e.bestmove_in(&start, secs(5));
    assert!(lines.iter().all(|l| !l.starts_with("info depth 4")));
    // The node limit is respected (checked every 1024 nodes).
    e.send("go nodes 3000");
    let (_, lines) = e.bestmove_in(&start, secs(5));
    let nodes: Vec<u64> = lines
        .iter()
        .filter_map(|l| match l.parse::<EngineMessage>() {
            Ok(EngineMessage::Info(i)) => i.nodes,
            _ => None,
        })
        .collect();
    assert!(*nodes.last().unwrap() < 3000 + 2048, "{nodes:?}");
}

#[test]
fn stop_ends_an_infinite_search_at_once() {
    let mut e = Gogo::start();
    e.handshake();
    let pos = Position::startpos();
    for wait in [0u64, 5, 300] {
        e.send("position startpos");
        e.send("go infinite");
        std::thread::sleep(ms(wait));
        e.expect_silence("bestmove", ms(50));
        let t = Instant::now();
        e.send("stop");
        e.bestmove_in(&pos, secs(2));
        assert!(t.elapsed() < ms(500), "{:?}", t.elapsed());
    }
    // stop with nothing running is harmless.
    e.send("stop");
    e.ready();
}

#[test]
fn ponder_then_ponderhit_and_ponder_then_stop() {
    let mut e = Gogo::start();
    e.handshake();
    e.send("setoption name USI_Ponder value true");
    let pos = Position::from_sfen("rbsgk/4p/P4/5/KGSBR w - 2").unwrap();
    e.send("position startpos moves 5d5c");
    e.send("go ponder btime 0 wtime 0 byoyomi 200");
    // Pondering ignores the clock: no answer until ponderhit.
    e.expect_silence("bestmove", ms(400));
    e.send("ponderhit");
    let t = Instant::now();
    e.bestmove_in(&pos, secs(2));
    assert!(t.elapsed() < ms(1000), "{:?}", t.elapsed());

    e.send("go ponder btime 0 wtime 0 byoyomi 200");
    e.expect_silence("bestmove", ms(300));
    e.send("stop");
    e.bestmove_in(&pos, secs(2));
    e.ready();
}

/// A search with nothing left to do (a mate found, every depth searched at once) still
/// answers a ponder search only at `ponderhit` or `stop`, and an infinite one only at `stop`:
/// UCI2WB (XBoard) took such an early `bestmove` as the answer to its later `stop`, and the
/// game went out of step.
#[test]
fn searches_that_finish_early_wait_for_ponderhit_or_stop() {
    let mut e = Gogo::start();
    e.handshake();
    e.send("setoption name USI_Ponder value true");
    // Gote is mated in one whatever it does: the tree is tiny.
    let sfen = "k4/2S2/1G3/5/4K b G 1";
    let pos = Position::from_sfen(sfen).unwrap();
    e.send(&format!("position sfen {sfen}"));
    e.send("go ponder btime 0 wtime 0 byoyomi 100");
    e.expect_silence("bestmove", ms(600));
    e.send("ponderhit");
    e.bestmove_in(&pos, secs(2));
    e.send("go infinite");
    e.expect_silence("bestmove", ms(600));
    e.send("stop");
    e.bestmove_in(&pos, secs(2));
    e.send("go ponder btime 0 wtime 0 byoyomi 100");
    e.expect_silence("bestmove", ms(300));
    e.send("stop");
    e.bestmove_in(&pos, secs(2));
    e.ready();
}

/// `EvalFile` loads a network file; a truncated or foreign file is refused with the reason,
/// and the engine keeps playing with the network it had.
#[test]
fn eval_file_loads_good_networks_and_refuses_bad_ones() {
    let dir = std::env::temp_dir().join(format!("gogo-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.nnue");
    std::fs::write(&good, gogo_search::nnue::Network::embedded().to_bytes()).unwrap();
    let bytes = std::fs::read(&good).unwrap();
    let truncated = dir.join("truncated.nnue");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let foreign = dir.join("foreign.nnue");
    std::fs::write(&foreign, b"not a network at all").unwrap();

    let mut e = Gogo::start();
    e.handshake();
    e.send("setoption name UseNNUE value true");
    e.send(&format!("setoption name EvalFile value {}", good.display()));
    e.ready();
    for (bad, reason) in [(&truncated, "truncated"), (&foreign, "not a gogo network")] {
        e.send(&format!("setoption name EvalFile value {}", bad.display()));
        let lines = e.expect("info string error", secs(5));
        let line = lines.last().unwrap();
        assert!(line.contains(reason), "{line}");
        assert!(
            line.contains("keeping") && line.contains("good.nnue"),
            "{line}"
        );
    }
    e.send("position startpos");
    e.send("go depth 4");
    e.bestmove_in(&Position::startpos(), secs(10));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gameover_then_a_new_game() {
    let mut e = Gogo::start();
    e.handshake();
    e.send("position startpos");
    e.send("go depth 3");
    e.bestmove_in(&Position::startpos(), secs(5));
    e.send("gameover lose");
    e.send("usinewgame");
    e.ready();
    let kawu = Position::from_sfen("rbsgk/p4/5/4P/KGSBR b - 1").unwrap();
    e.send("setoption name Rules value kawu");
    e.send("position sfen rbsgk/p4/5/4P/KGSBR b - 1");
    e.send("go movetime 100");
    e.bestmove_in(&kawu, secs(5));
    assert_eq!(e.current_sfen(), "rbsgk/p4/5/4P/KGSBR b - 1");
}

#[test]
fn bad_input_is_reported_and_changes_nothing() {
    let mut e = Gogo::start();
    e.handshake();
    e.send("position startpos moves 5d5c");
    let before = e.current_sfen();
    for bad in [
        "banana",
        "position startpos moves 5d5c 5c5b 9z9z",
        "position startpos moves 5d5b",
        "position sfen rbsgk/4p/5/P4/KGSBR b K 1",
        "position sfen 4k/4R/5/5/K4 b - 1",
        "position sfen",
        "position",
        "setoption name USI_Hash value -1",
        "setoption name USI_Hash value many",
        "setoption name Threads value 0",
        "setoption name MultiPV value 65",
        "setoption name Rules value chess",
        "setoption name USI_Variant value chess",
        "setoption name NoSuchOption value 1",
        "setoption name UseNNUE value maybe",
        "setoption name MateProbe value maybe",
        "setoption name MateHash value 0",
        "setoption name EvalFile value /nonexistent/net.nnue",
        "go depth x",
        "go sideways",
        "gameover maybe",
    ] {
        e.send(bad);
        let lines = e.expect("info string error", secs(5));
        assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
        assert_eq!(e.current_sfen(), before, "{bad}");
    }
    // Variant names that mean minishogi are accepted silently.
    for ok in [
        "setoption name USI_Variant value minishogi",
        "setoption name UCI_Variant value minishogi",
        "setoption name UCI_Variant value 5x5+5_shogi",
    ] {
        e.send(ok);
        e.ready();
    }
    // Still plays.
    e.send("go depth 3");
    let pos = Position::from_sfen(&before).unwrap();
    e.bestmove_in(&pos, secs(5));
}

#[test]
fn no_legal_move_resigns() {
    let mut e = Gogo::start();
    e.handshake();
    // Gote's lone king on 5a has no move and is not in check.
    e.send("position sfen k4/2S2/1G3/5/4K w - 1");
    e.send("go depth 3");
    let lines = e.expect("bestmove", secs(5));
    assert_eq!(lines.last().unwrap(), "bestmove resign");
}

#[test]
fn finds_mates_in_one_three_and_five() {
    let mut e = Gogo::start();
    e.handshake();
    for (sfen, plies) in [
        ("k4/2S2/1G3/5/4K b G 1", 1),
        ("2r2/2Pkg/3BR/P2S1/2Kb1 b gs 49", 3),
        ("2kg1/r1b2/G1s1p/5/1KSBR w p 24", 5),
    ] {
        let pos = Position::from_sfen(sfen).unwrap();
        e.send("usinewgame");
        e.send(&format!("position sfen {sfen}"));
        e.send("go depth 9");
        let (mv, lines) = e.bestmove_in(&pos, secs(30));
        assert_eq!(
            last_score(&lines),
            Some(InfoScore::Mate(plies)),
            "{sfen}: {lines:?}"
        );
        if plies == 1 {
            let after = pos.played(mv);
            assert!(after.in_check() && !after.has_legal_move());
        }
    }
}

#[test]
fn go_perft_and_d() {
    let mut e = Gogo::start();
    e.handshake();
    e.send("position startpos");
    e.send("go perft 3");
    let lines = e.expect("Nodes searched", secs(10));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 2512");
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
            .count(),
        14
    );
    e.send("d");
    let lines = e.expect("info string legal moves", secs(5));
    assert!(lines
        .last()
        .unwrap()
        .starts_with("info string legal moves (14):"));
}

/// The line of a `checkmate` answer, replayed: every move legal, the attacker's all checks,
/// mate at the end.
fn checkmate_line(pos: &Position, answer: &str) -> Vec<gogo_rules::Move> {
    let Ok(EngineMessage::Checkmate(Checkmate::Mate(line))) = answer.parse::<EngineMessage>()
    else {
        panic!("not a mating line: {answer}")
    };
    let mut p = pos.clone();
    for (i, &mv) in line.iter().enumerate() {
        assert!(p.is_legal(mv), "{answer}: {mv}");
        p.play(mv);
        assert!(i % 2 == 1 || p.in_check(), "{answer}: {mv} is no check");
    }
    assert!(
        p.in_check() && !p.has_legal_move(),
        "{answer} does not mate"
    );
    line
}

#[test]
fn go_mate_answers_with_the_line_nomate_or_timeout() {
    let mut e = Gogo::start();
    e.handshake();
    e.send("setoption name MateHash value 8");
    // Mate in 5 against interpositions; a GUI's "solve checkmate".
    let sfen = "1R2p/3+R1/Psg2/B3k/K4 b Bgs 49";
    e.send(&format!("position sfen {sfen}"));
    e.send("go mate 5000");
    let lines = e.expect("checkmate", secs(10));
    let line = checkmate_line(&Position::from_sfen(sfen).unwrap(), lines.last().unwrap());
    assert_eq!(line.len(), 5);
    assert!(
        lines.iter().any(|l| l.starts_with("info nodes")),
        "{lines:?}"
    );
    // No mate, and the only mating pawn drop is no move.
    e.send("position sfen 4b/2Kpr/4k/5/1G1G1 b Prb2s 29");
    e.send("go mate infinite");
    assert_eq!(
        e.expect("checkmate", secs(10)).last().unwrap(),
        "checkmate nomate"
    );
    // No check at all: answered at once.
    e.send("position startpos");
    e.send("go mate 1000");
    assert_eq!(
        e.expect("checkmate", secs(2)).last().unwrap(),
        "checkmate nomate"
    );
    // A long problem with a tiny budget, and one stopped: timeout, promptly.
    e.send("position sfen 5/5/5/K1S1k/P4 w RBPrb2gs 32");
    e.send("go mate 50");
    assert_eq!(
        e.expect("checkmate", secs(2)).last().unwrap(),
        "checkmate timeout"
    );
    e.send("go mate infinite");
    e.expect_silence("checkmate", ms(200));
    e.send("stop");
    assert_eq!(
        e.expect("checkmate", secs(2)).last().unwrap(),
        "checkmate timeout"
    );
    // The engine plays on.
    e.send("position startpos");
    e.send("go depth 3");
    e.bestmove_in(&Position::startpos(), secs(5));
}

/// On the clock, a forced mate by checks is played at once, found by the mate solver before
/// the search starts; without the probe the search finds it too, more slowly.
#[test]
fn a_mate_on_the_clock_is_played_at_once() {
    let mut e = Gogo::start();
    e.handshake();
    // Mate in 9 against interpositions.
    let sfen = "K3+R/4b/3gk/1S3/P4 b RBGPs 33";
    let pos = Position::from_sfen(sfen).unwrap();
    e.send(&format!("position sfen {sfen}"));
    let asked = Instant::now();
    e.send("go btime 60000 wtime 60000 byoyomi 5000");
    let (mv, lines) = e.bestmove_in(&pos, secs(10));
    assert!(asked.elapsed() < ms(1000), "{:?}", asked.elapsed());
    assert_eq!(last_score(&lines), Some(InfoScore::Mate(9)), "{lines:?}");
    let info = lines
        .iter()
        .rev()
        .find(|l| l.contains("score mate"))
        .unwrap();
    let Ok(EngineMessage::Info(info)) = info.parse::<EngineMessage>() else {
        panic!("{info}")
    };
    assert_eq!(info.pv.len(), 9);
    assert_eq!(info.pv[0], mv);
    e.send("setoption name MateProbe value false");
    e.send("go movetime 300");
    let (_, lines) = e.bestmove_in(&pos, secs(10));
    assert!(
        lines.iter().filter(|l| l.starts_with("info depth")).count() > 1,
        "{lines:?}"
    );
}

#[test]
fn multipv_reports_several_lines() {
    let mut e = Gogo::start();
    e.handshake();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    e.send("go depth 5");
    let (_, lines) = e.bestmove_in(&Position::startpos(), secs(10));
    for k in 1..=3 {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth 5") && l.contains(&format!(" multipv {k} "))),
            "{lines:?}"
        );
    }
}

#[test]
fn several_threads_play_legal_moves() {
    let mut e = Gogo::start();
    e.send("setoption name Threads value 4");
    e.handshake();
    let pos = Position::from_sfen("3k1/G4/4g/PK1b1/5 w 2S1B1R1r1p 1").unwrap();
    e.send(&format!("position sfen {}", pos.to_sfen()));
    e.send("go movetime 300");
    e.bestmove_in(&pos, secs(5));
    e.send("go depth 6");
    e.bestmove_in(&pos, secs(20));
}

#[test]
fn what_uci2wb_sends_for_xboard_is_understood() {
    // UCI2WB (the adapter XBoard uses for USI engines) turns XBoard's `hard`/`easy` into
    // `USI_Ponder` 1/0 and a classical `level 40 5 0` into `movestogo`.
    let mut e = Gogo::start();
    e.handshake();
    e.send("setoption name USI_Ponder value 1");
    e.send("setoption name USI_Ponder value 0");
    e.send("usinewgame");
    e.send("isready");
    let lines = e.expect("readyok", secs(5)).join("\n");
    assert!(!lines.contains("error"), "{lines}");
    e.send("position startpos moves 1e1d");
    e.send("go btime 20000 wtime 20000 movestogo 40");
    let (_, lines) = e.bestmove_in(
        &Position::from_sfen("rbsgk/4p/5/P3R/KGSB1 w - 2").unwrap(),
        secs(20),
    );
    assert!(!lines.join("\n").contains("error"), "{lines:?}");
}
