//! The fuzz corpus of book files (fuzz/corpus/book) replayed through the target's check, so
//! that whatever once broke stays fixed.

use gogo_book::fuzz_checks::check_book;
use gogo_rules::fuzz_checks::replay_corpus;

#[test]
fn book_corpus() {
    assert!(replay_corpus("book", check_book) >= 5);
}
