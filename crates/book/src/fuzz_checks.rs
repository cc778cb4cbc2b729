//! What the fuzz target checks (`fuzz/fuzz_targets/book.rs`), and the corpus test replays:
//! a book file is read or refused without a panic, and whatever reads gives only legal moves
//! and writes back to a book that reads the same.

use crate::{read_book, read_book_from, write_book};

/// Book-file bytes, read as the engine reads a file (a line at a time from the bytes) and as
/// text: reading never panics, and bytes that are UTF-8 read the same both ways; a book that
/// reads offers only legal moves, chooses one of them, and writes out to text that reads back
/// to the same book.
pub fn check_book(data: &[u8]) {
    let streamed = read_book_from(data);
    if let Ok(text) = std::str::from_utf8(data) {
        assert_eq!(read_book(text), streamed);
    }
    if let Ok((book, _)) = streamed {
        let mut rng = gogo_rules::Rng::new(1);
        for entry in book.positions() {
            for m in book.moves(&entry.position) {
                assert!(entry.position.is_legal(m.mv));
            }
            if let Some(m) = book.choose(&entry.position, 50, 300.0, &mut rng) {
                assert!(entry.position.is_legal(m.mv));
            }
        }
        let written = write_book(&book);
        let (again, report) = read_book(&written).expect("a written book reads");
        assert_eq!(report.illegal_moves, 0);
        assert_eq!(again, book);
    }
}
