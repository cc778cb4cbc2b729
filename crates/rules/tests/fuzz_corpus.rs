//! The fuzz corpora (fuzz/corpus/<target>/: seeds and the inputs cargo-fuzz found
//! interesting) replayed through the fuzz targets' checks, so that whatever once broke stays
//! fixed.

use gogo_rules::fuzz_checks::{
    check_csa, check_kif, check_play, check_sfen, check_usi_position, replay_corpus,
};

#[test]
fn sfen_corpus() {
    assert!(replay_corpus("sfen", check_sfen) >= 5);
}

#[test]
fn usi_position_corpus() {
    assert!(replay_corpus("usi_position", check_usi_position) >= 5);
}

#[test]
fn play_corpus() {
    assert!(replay_corpus("play", check_play) >= 5);
}

#[test]
fn kif_corpus() {
    assert!(replay_corpus("kif", check_kif) >= 5);
}

#[test]
fn csa_corpus() {
    assert!(replay_corpus("csa", check_csa) >= 5);
}
