//! # gogo-book
//!
//! Opening books in the text format shogi engines and GUIs already use, YaneuraOu's
//! (`#YANEURAOU-DB2016 1.00`), with 5×5 SFEN:
//!
//! ```text
//! #YANEURAOU-DB2016 1.00
//! sfen rbsgk/4p/5/P4/KGSBR b - 1
//! 2e3d 4a3b 12 14 380
//! #wdl 170 0 210
//! ```
//!
//! A position line `sfen <SFEN> <ply>`, then one line per move: `<move> <ponder move|none>
//! <eval> <depth> <count>`. gogo adds the games' wins, draws and losses from the mover's side
//! as a comment line after a move (`#wdl W D L`), which other readers skip as a comment.
//!
//! Positions are matched by their key (board, hands, side to move), so transpositions meet
//! whatever ply the file gives. Reading parses the text first and then checks the rules: a
//! move that is not legal in its position is dropped (counted in [`ReadReport`]), so that a
//! corrupt or foreign book never makes an illegal move; a file without the header is not a
//! book and is refused with the reason. On the rules crate only: the board can read a book
//! without the search.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod book;
pub mod fuzz_checks;
pub mod sample;
mod text;

pub use book::{Book, BookMove, BookPosition};
pub use text::{read_book, read_book_from, write_book, BookError, LineProblem, ReadReport, HEADER};

use std::sync::{Arc, OnceLock};

/// The book built into gogo (`data/internal.db`, made by `scripts/book.sh`; docs/book.md
/// says how), read at its first use. The file is part of the binary and its tests read it
/// whole, so a bad one is a build no test passed: it panics with the reason rather than
/// play from an empty book unnoticed.
pub fn internal() -> Arc<Book> {
    static BOOK: OnceLock<Arc<Book>> = OnceLock::new();
    BOOK.get_or_init(|| match read_book(INTERNAL_TEXT) {
        Ok((book, _)) => Arc::new(book),
        Err(e) => panic!("the built-in book data/internal.db does not read: {e}"),
    })
    .clone()
}

/// The built-in book's file.
const INTERNAL_TEXT: &str = include_str!("../data/internal.db");
