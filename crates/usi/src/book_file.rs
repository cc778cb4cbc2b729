//! The book the engine plays from (`USI_OwnBook`, `BookFile`): the one built into the binary,
//! or a file read a line at a time within its bound. The format lives in `gogo-book`; the
//! book builder is a tool (`gogo-tools`).

use gogo_book::{read_book_from, Book, BookError};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Why a book file was refused.
#[derive(Debug)]
pub enum BookFileError {
    /// It could not be opened or read (the error names the file and its limit).
    File(gogo_files::FileError),
    /// Its text is not a book.
    Book {
        /// The file.
        path: PathBuf,
        /// Why.
        error: BookError,
    },
}

impl fmt::Display for BookFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookFileError::File(e) => e.fmt(f),
            BookFileError::Book { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for BookFileError {}

/// `BookFile`'s name for the book built into the binary.
pub const INTERNAL_BOOK: &str = "<internal>";

/// The most a book file may be.
pub const BOOK_FILE: gogo_files::Limit = gogo_files::Limit::new(256 << 20, "a book file");

/// Reads the book file `path` (a regular file of at most [`BOOK_FILE`]) a line at a time, so
/// that its text is never held whole beside the book; moves not legal where they stand are
/// dropped and logged.
pub fn read_book_file(path: &Path) -> Result<Book, BookFileError> {
    let file = gogo_files::open(path, BOOK_FILE).map_err(BookFileError::File)?;
    let (book, report) =
        read_book_from(std::io::BufReader::with_capacity(1 << 16, file)).map_err(|error| {
            BookFileError::Book {
                path: path.to_path_buf(),
                error,
            }
        })?;
    if report.illegal_moves > 0 {
        log::warn!(
            "{}: {} illegal moves dropped",
            path.display(),
            report.illegal_moves
        );
    }
    Ok(book)
}

/// Reads the book `BookFile` names; `<internal>` (or empty) for the built-in one.
pub fn load_book(name: &str) -> Result<Arc<Book>, BookFileError> {
    if name.is_empty() || name == INTERNAL_BOOK {
        return Ok(gogo_book::internal());
    }
    read_book_file(Path::new(name)).map(Arc::new)
}
