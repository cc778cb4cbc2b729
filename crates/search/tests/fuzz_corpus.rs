//! The `network` and `training_data` fuzz corpora (fuzz/corpus/<target>/) replayed through
//! the targets' checks, so that whatever once broke stays fixed.

use gogo_search::fuzz_checks::{check_network, check_training_data};

fn replay(target: &str, check: fn(&[u8])) -> usize {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        check(&std::fs::read(&path).unwrap());
        n += 1;
    }
    n
}

#[test]
fn network_corpus() {
    assert!(replay("network", check_network) >= 5);
}

#[test]
fn training_data_corpus() {
    assert!(replay("training_data", check_training_data) >= 5);
}
