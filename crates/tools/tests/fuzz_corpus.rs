//! The tools' fuzz corpora (fuzz/corpus/game_records/, fuzz/corpus/datagen_starts/) replayed
//! through their targets' checks, so that whatever once broke stays fixed.

use gogo_rules::fuzz_checks::replay_corpus;
use gogo_tools::fuzz_checks::{check_datagen_starts, check_game_records};

#[test]
fn game_records_corpus() {
    assert!(replay_corpus("game_records", check_game_records) >= 5);
}

#[test]
fn datagen_starts_corpus() {
    assert!(replay_corpus("datagen_starts", check_datagen_starts) >= 5);
}
