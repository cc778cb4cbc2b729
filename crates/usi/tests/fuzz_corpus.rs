//! The `engine_commands` fuzz corpus (fuzz/corpus/engine_commands/) replayed through the
//! target's check, so that whatever once broke stays fixed.

use gogo_rules::fuzz_checks::replay_corpus;
use gogo_usi::fuzz_checks::check_engine_commands;

#[test]
fn engine_commands_corpus() {
    assert!(replay_corpus("engine_commands", check_engine_commands) >= 5);
}
