//! The `game_records` fuzz corpus (fuzz/corpus/game_records/) replayed through the target's
//! check, so that whatever once broke stays fixed.

use gogo_rules::fuzz_checks::replay_corpus;
use gogo_tools::fuzz_checks::check_game_records;

#[test]
fn game_records_corpus() {
    assert!(replay_corpus("game_records", check_game_records) >= 5);
}
