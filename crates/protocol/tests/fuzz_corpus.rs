//! The `usi_line`, `engine_messages` and `engine_spec` fuzz corpora replayed through the targets' checks
//! (see fuzz/), so that whatever once broke stays fixed.

use gogo_protocol::fuzz_checks::{check_engine_output, check_engine_spec, check_usi_line};
use gogo_rules::fuzz_checks::replay_corpus;

#[test]
fn usi_line_corpus() {
    assert!(replay_corpus("usi_line", check_usi_line) >= 5);
}

#[test]
fn engine_messages_corpus_through_the_client() {
    assert!(replay_corpus("engine_messages", check_engine_output) >= 5);
}

#[test]
fn engine_spec_corpus() {
    assert!(replay_corpus("engine_spec", check_engine_spec) >= 5);
}
