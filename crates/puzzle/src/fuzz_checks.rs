//! What the fuzz target checks (`fuzz/fuzz_targets/puzzle_lines.rs`), and the corpus test
//! replays: a puzzle file is read or refused without a panic, and whatever reads writes back
//! to the same line, and its judge answers every legal move.

use crate::{read_puzzles, Puzzle};

/// Puzzle-file bytes: reading never panics; a puzzle that reads prints back to a line that
/// reads the same, and the judge answers any legal move at any ply of the solution.
pub fn check_puzzle_lines(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(puzzles) = read_puzzles(&text) {
        for puzzle in puzzles {
            let again: Puzzle = puzzle.to_line().parse().expect("a written puzzle reads");
            assert_eq!(again, puzzle);
            for ply in (0..puzzle.solution().len()).step_by(2) {
                let pos = puzzle.position_at(ply);
                for &mv in pos.legal_moves().iter() {
                    let _ = puzzle.judge(ply, mv);
                }
            }
        }
    }
}
