//! The `match_records` fuzz corpus replayed through the target's check (see fuzz/), so that
//! whatever once broke stays fixed.

use gogo_arena::fuzz_checks::check_match_records;
use gogo_rules::fuzz_checks::replay_corpus;

#[test]
fn match_records_corpus() {
    assert!(replay_corpus("match_records", check_match_records) >= 5);
}
