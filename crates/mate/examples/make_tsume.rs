//! Makes `tests/data/tsume.tsv`: mate problems from real games. An engine (Fairy-Stockfish,
//! through USI) plays itself from balanced openings; every position where it announces that
//! the side to move mates is a candidate, kept when the exhaustive checks-only search
//! (`gogo_mate::brute`) confirms a mate by checks and its exact length (15 plies at most).
//! Positions from the same games with checks but no mate, disproven by the solver and with
//! no mate within 9 plies by the exhaustive search, are kept as no-mate problems.
//!
//!   cargo run --release -p gogo-mate --example make_tsume -- ENGINE OPENINGS GAMES OUT
//!
//! `scripts/make-tsume.sh` builds Fairy-Stockfish and runs this.

use gogo_mate::{brute, MateLimits, MateResult, Solver};
use gogo_protocol::{BestMove, EngineClient, EngineSpec, GoCommand, GuiCommand, InfoScore};
use gogo_rules::{parse_usi_position, Position};
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::time::{Duration, Instant};

const MAX_LENGTH: u32 = 15;
const BRUTE_BUDGET: u64 = 20_000_000;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [engine, openings, games, out] = &args[..] else {
        eprintln!("usage: make_tsume ENGINE OPENINGS GAMES OUT");
        std::process::exit(2);
    };
    let games: usize = games.parse().expect("a game count");
    let openings: Vec<String> = std::fs::read_to_string(openings)
        .expect("the openings file")
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    let spec = EngineSpec {
        options: vec![("UCI_Variant".into(), "minishogi".into())],
        go_depth: None,
        ..EngineSpec::new(engine.clone())
    };
    let mut client =
        EngineClient::start(&spec, Duration::from_secs(10)).expect("the engine starts");
    let mut seen = HashSet::new();
    let mut mates: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    let mut nomates: Vec<String> = Vec::new();
    let mut solver = Solver::new(64).unwrap();
    let start = Instant::now();
    for g in 0..games {
        let (first, opening_moves) =
            parse_usi_position(&openings[g % openings.len()]).expect("a valid opening");
        let mut moves = opening_moves;
        let mut pos = moves.iter().fold(first.clone(), |p, &m| p.played(m));
        client.send(&GuiCommand::UsiNewGame).unwrap();
        for _ply in 0..200 {
            if !pos.has_legal_move() {
                break;
            }
            client.send(&GuiCommand::position(&first, &moves)).unwrap();
            client
                .send(&GuiCommand::Go(GoCommand {
                    movetime: Some(50),
                    ..Default::default()
                }))
                .unwrap();
            let mut score = None;
            let answer = client
                .wait_bestmove(Instant::now() + Duration::from_secs(10), &mut |i| {
                    score = i.score.or(score)
                })
                .expect("an answer");
            let fresh = Position::from_sfen(&pos.to_sfen()).unwrap();
            if seen.insert(pos.key()) {
                classify(&fresh, score, &mut solver, &mut mates, &mut nomates);
            }
            let BestMove::Move(mv) = answer.best else {
                break;
            };
            if !pos.is_legal(mv) {
                break;
            }
            pos.play(mv);
            moves.push(mv);
        }
        let total: usize = mates.values().map(Vec::len).sum();
        eprintln!(
            "game {}/{games}: {total} mates {:?}, {} no-mates, {:.0} s",
            g + 1,
            mates.iter().map(|(k, v)| (*k, v.len())).collect::<Vec<_>>(),
            nomates.len(),
            start.elapsed().as_secs_f64()
        );
    }
    client.shutdown();
    let mut text = String::new();
    text.push_str(
        "# Minishogi mate problems from real games: positions where Fairy-Stockfish, playing\n",
    );
    text.push_str(
        "# itself from scripts/openings.txt at 50 ms per move, announced that the side to move\n",
    );
    text.push_str(
        "# mates, each kept only when the exhaustive checks-only search (gogo_mate::brute)\n",
    );
    text.push_str("# confirmed a mate by checks and its exact length in plies (second field); and positions\n");
    text.push_str("# of the same games with checks but no mate (the solver's disproof, and no mate within 9\n");
    text.push_str("# plies by the exhaustive search). Made by scripts/make-tsume.sh.\n");
    for (length, list) in &mates {
        for sfen in list {
            let _ = writeln!(text, "{sfen}\t{length}");
        }
    }
    for sfen in &nomates {
        let _ = writeln!(text, "{sfen}\tnomate");
    }
    std::fs::write(out, text).expect("writing the data set");
}

fn classify(
    pos: &Position,
    score: Option<InfoScore>,
    solver: &mut Solver,
    mates: &mut BTreeMap<u32, Vec<String>>,
    nomates: &mut Vec<String>,
) {
    match score {
        Some(InfoScore::Mate(n)) if n > 0 => {
            if let Ok(Some(length)) = brute::mate_length_within(pos, MAX_LENGTH, BRUTE_BUDGET) {
                let list = mates.entry(length).or_default();
                if list.len() < 12 {
                    list.push(pos.to_sfen());
                }
            }
        }
        Some(InfoScore::Centipawns(_)) if nomates.len() < 24 => {
            let mut checks = gogo_rules::MoveList::new();
            pos.generate_checks(&mut checks);
            if checks.len() < 3 {
                return;
            }
            let limits = MateLimits {
                time: Some(Duration::from_secs(5)),
                ..Default::default()
            };
            if solver.solve(pos, &limits, &mut |_| {}).result == MateResult::NoMate
                && brute::mate_length_within(pos, 9, BRUTE_BUDGET) == Ok(None)
            {
                nomates.push(pos.to_sfen());
            }
        }
        _ => {}
    }
}
