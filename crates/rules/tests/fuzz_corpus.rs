//! The fuzz corpora (fuzz/corpus/<target>/: seeds and the inputs cargo-fuzz found
//! interesting) replayed through the fuzz targets' checks, so that whatever once broke stays
//! fixed.

use gogo_rules::fuzz_checks::{check_csa, check_kif, check_play, check_sfen, check_usi_position};

fn replay(target: &str, check: fn(&[u8])) -> usize {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        check(&data);
        n += 1;
    }
    n
}

#[test]
fn sfen_corpus() {
    assert!(replay("sfen", check_sfen) >= 5);
}

#[test]
fn usi_position_corpus() {
    assert!(replay("usi_position", check_usi_position) >= 5);
}

#[test]
fn play_corpus() {
    assert!(replay("play", check_play) >= 5);
}

#[test]
fn kif_corpus() {
    assert!(replay("kif", check_kif) >= 5);
}

#[test]
fn csa_corpus() {
    assert!(replay("csa", check_csa) >= 5);
}
