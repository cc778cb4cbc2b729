//! The solver on problems of every kind, each answer replayed with the rules and its length
//! confirmed by the exhaustive search; and on random positions against that search.

use gogo_mate::{brute, MateLimits, MateOutcome, MateResult, Solver};
use gogo_rules::{Position, Rng};
use std::time::Duration;

fn solve(sfen: &str) -> (Position, MateOutcome) {
    let pos = Position::from_sfen(sfen).unwrap();
    let mut solver = Solver::new(32).unwrap();
    let limits = MateLimits {
        time: Some(Duration::from_secs(20)),
        ..Default::default()
    };
    let outcome = solver.solve(&pos, &limits, &mut |_| {});
    (pos, outcome)
}

/// A mate of `length` plies: the line is legal, all checks, ends in mate, and the exhaustive
/// search finds none shorter (and one this long) when `confirm` allows it.
fn assert_mate(sfen: &str, length: usize, confirm: bool) -> Vec<gogo_rules::Move> {
    let (pos, outcome) = solve(sfen);
    let MateResult::Mate(line) = outcome.result else {
        panic!("{sfen}: {:?}", outcome.result)
    };
    assert!(brute::is_mating_line(&pos, &line), "{sfen}: {line:?}");
    assert_eq!(line.len(), length, "{sfen}: {line:?}");
    if confirm {
        assert_eq!(
            brute::mate_length(&pos, length as u32),
            Some(length as u32),
            "{sfen}"
        );
    }
    line
}

#[test]
fn mates_in_one_three_five_seven_nine() {
    assert_mate("k4/2S2/1G3/5/4K b G 1", 1, true);
    // Mate in 3 by a promotion, Gote attacking.
    let line = assert_mate("r2ss/k2Gb/5/K4/1r3 w BG2p 66", 3, true);
    assert!(line.iter().any(|m| m.is_promotion()));
    // Mate in 5: the defender interposes a dropped piece, the rook promotes.
    let line = assert_mate("1R2p/3+R1/Psg2/B3k/K4 b Bgs 49", 5, true);
    assert!(line.iter().skip(1).step_by(2).any(|m| m.is_drop()));
    assert!(line.iter().any(|m| m.is_promotion()));
    // Mate in 7 with drops on both sides and a promotion.
    let line = assert_mate("pG3/2R2/+B2k1/4s/1K3 b BSrgp 49", 7, true);
    assert!(line.iter().step_by(2).any(|m| m.is_drop()));
    assert!(line.iter().skip(1).step_by(2).any(|m| m.is_drop()));
    // Mate in 9 against interpositions.
    let line = assert_mate("K3+R/4b/3gk/1S3/P4 b RBGPs 33", 9, true);
    assert!(line.iter().skip(1).step_by(2).any(|m| m.is_drop()));
}

#[test]
fn a_long_mate() {
    // 33 plies; the exhaustive search confirms there is nothing within 11.
    let (pos, _) = solve("rbs1k/4g/3S1/Pr3/KG1B1 w P 6");
    assert_eq!(brute::mate_length(&pos, 11), None);
    let line = assert_mate("rbs1k/4g/3S1/Pr3/KG1B1 w P 6", 33, false);
    assert!(line.len() > 15);
}

/// The pawn drop in front of the king would mate, which the rules forbid: the solver must
/// find another mate, or none.
#[test]
fn a_mating_pawn_drop_is_no_move() {
    // Here it is the only way: no mate.
    let (pos, outcome) = solve("4b/2Kpr/4k/5/1G1G1 b Prb2s 29");
    assert!(pos.mating_pawn_drop().is_some());
    assert_eq!(outcome.result, MateResult::NoMate);
    assert_eq!(brute::mate_length(&pos, 9), None);
    // Here another mate exists, and is found.
    let pos = Position::from_sfen("S1G1k/KR3/2R1p/4g/1Sb2 b BP 55").unwrap();
    let pawn = pos.mating_pawn_drop().expect("a pawn drop would mate");
    let line = assert_mate("S1G1k/KR3/2R1p/4g/1Sb2 b BP 55", 7, true);
    assert_ne!(line[0], pawn);
}

/// The attacker can give check for ever, but perpetual check does not mate.
#[test]
fn perpetual_check_is_no_mate() {
    let (pos, outcome) = solve("+B2Sk/2P2/4g/PG2b/K1Sr1 w R 18");
    assert_eq!(outcome.result, MateResult::NoMate);
    assert!(outcome.perpetual, "the disproof rests on repetition");
    assert_eq!(brute::mate_length(&pos, 11), None);
}

#[test]
fn no_check_at_all_is_no_mate_at_once() {
    let (_, outcome) = solve("k4/5/5/5/4K b - 1");
    assert_eq!(outcome.result, MateResult::NoMate);
    assert!(outcome.nodes <= 2, "{}", outcome.nodes);
    let (_, outcome) = solve("rbsgk/4p/5/P4/KGSBR b - 1");
    assert_eq!(outcome.result, MateResult::NoMate);
}

/// The limits are kept: a node budget ends a search with `Unknown`, never a wrong answer.
#[test]
fn limits_end_the_search() {
    let pos = Position::from_sfen("rbs1k/4g/3S1/Pr3/KG1B1 w P 6").unwrap();
    let mut solver = Solver::new(16).unwrap();
    let limits = MateLimits {
        nodes: Some(2000),
        ..Default::default()
    };
    let outcome = solver.solve(&pos, &limits, &mut |_| {});
    assert_eq!(outcome.result, MateResult::Unknown);
    assert!(outcome.nodes < 4000, "{}", outcome.nodes);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let limits = MateLimits {
        stop: Some(stop),
        ..Default::default()
    };
    let outcome = solver.solve(&pos, &limits, &mut |_| {});
    assert_eq!(outcome.result, MateResult::Unknown);
}

/// Over positions from random games: wherever the exhaustive search finds a mate within 7
/// plies the solver finds one exactly as long, and wherever it finds none the solver finds
/// none or a longer one (or runs out of its node budget, on a few long mates with full
/// hands); every line is a mate by the rules. One table serves every problem, as in a game.
#[test]
fn agrees_with_the_exhaustive_search_on_random_positions() {
    let mut rng = Rng::new(2026);
    let mut solver = Solver::new(32).unwrap();
    let (mut mates, mut checked, mut unknown) = (0, 0, 0);
    for _ in 0..40 {
        let mut pos = Position::startpos();
        for _ in 0..60 {
            let Some(mv) = rng.pick_move(&pos) else {
                break;
            };
            pos.play(mv);
            let exhaustive = brute::mate_length(&pos, 7);
            let limits = MateLimits {
                nodes: Some(1_000_000),
                ..Default::default()
            };
            let outcome = solver.solve(&pos, &limits, &mut |_| {});
            match (&outcome.result, exhaustive) {
                (MateResult::Mate(line), e) => {
                    assert!(brute::is_mating_line(&pos, line), "{pos}: {line:?}");
                    match e {
                        Some(n) => assert_eq!(line.len() as u32, n, "{pos}"),
                        None => assert!(line.len() > 7, "{pos}: {line:?}"),
                    }
                    mates += 1;
                }
                (MateResult::NoMate, None) => {}
                (MateResult::Unknown, None) => unknown += 1,
                (other, e) => panic!("{pos}: solver {other:?}, exhaustive {e:?}"),
            }
            checked += 1;
        }
    }
    assert!(
        checked > 1500 && mates > 200,
        "{checked} positions, {mates} mates"
    );
    assert!(unknown * 100 < checked, "{unknown} of {checked} unknown");
}
