//! The mate problems of `tests/data/tsume.tsv` (from real games, lengths confirmed by the
//! exhaustive search when it was made): every one solved, at its exact length, the line a
//! mate by the rules.

use gogo_mate::{bench, brute, MateLimits, MateResult, Solver};
use gogo_rules::Position;

#[test]
fn every_problem_is_solved_at_its_length() {
    let problems = bench::problems();
    assert!(problems.len() >= 100, "{}", problems.len());
    let longest = problems.iter().filter_map(|p| p.1).max().unwrap();
    assert!(longest >= 15, "{longest}");
    assert!(problems.iter().filter(|p| p.1.is_none()).count() >= 10);
    let mut solver = Solver::new(32).unwrap();
    for (sfen, expected) in problems {
        let pos = Position::from_sfen(&sfen).unwrap();
        solver.clear();
        let outcome = solver.solve(&pos, &MateLimits::default(), &mut |_| {});
        match (outcome.result, expected) {
            (MateResult::Mate(line), Some(n)) => {
                assert!(brute::is_mating_line(&pos, &line), "{sfen}: {line:?}");
                assert_eq!(line.len() as u32, n, "{sfen}: {line:?}");
                assert!(outcome.shortest, "{sfen}");
            }
            (MateResult::NoMate, None) => {}
            (other, e) => panic!("{sfen}: {other:?}, expected {e:?}"),
        }
        // The short ones are cheap to confirm again.
        if expected.is_none_or(|n| n <= 7) {
            assert_eq!(brute::mate_length(&pos, 7), expected, "{sfen}");
        }
    }
}

/// As a GUI asks them, one after another with the table kept: what earlier problems left in
/// the table must not make a line longer than the shortest mate.
#[test]
fn problems_in_a_row_keep_their_lengths() {
    let mut solver = Solver::new(64).unwrap();
    for (sfen, expected) in bench::problems() {
        let pos = Position::from_sfen(&sfen).unwrap();
        let outcome = solver.solve(&pos, &MateLimits::default(), &mut |_| {});
        match (outcome.result, expected) {
            (MateResult::Mate(line), Some(n)) => {
                assert!(brute::is_mating_line(&pos, &line), "{sfen}: {line:?}");
                assert_eq!(line.len() as u32, n, "{sfen}: {line:?}");
            }
            (MateResult::NoMate, None) => {}
            (other, e) => panic!("{sfen}: {other:?}, expected {e:?}"),
        }
    }
}
