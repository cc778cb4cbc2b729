//! The fuzz corpus of data-file names (fuzz/corpus/run_name) replayed through the target's
//! check, so that whatever once broke stays fixed.

use gogo_rules::fuzz_checks::replay_corpus;
use gogo_train::fuzz_checks::check_run_name;

#[test]
fn run_name_corpus() {
    assert!(replay_corpus("run_name", check_run_name) >= 5);
}
