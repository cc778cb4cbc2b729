//! The `network` and `training_data` fuzz corpora (fuzz/corpus/<target>/) replayed through
//! the targets' checks, so that whatever once broke stays fixed.

use gogo_rules::fuzz_checks::replay_corpus;
use gogo_search::fuzz_checks::{check_network, check_training_data};

#[test]
fn network_corpus() {
    assert!(replay_corpus("network", check_network) >= 5);
}

#[test]
fn training_data_corpus() {
    assert!(replay_corpus("training_data", check_training_data) >= 5);
}
