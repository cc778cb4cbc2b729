//! The fuzz corpus of puzzle files (fuzz/corpus/puzzle_lines) replayed through the target's
//! check, so that whatever once broke stays fixed.

use gogo_puzzle::fuzz_checks::check_puzzle_lines;
use gogo_rules::fuzz_checks::replay_corpus;

#[test]
fn puzzle_lines_corpus() {
    assert!(replay_corpus("puzzle_lines", check_puzzle_lines) >= 5);
}
