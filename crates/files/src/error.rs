//! [`FileError`]: what went wrong with which file, in words a person can act on.

use std::fmt;
use std::path::{Path, PathBuf};

/// A file that could not be read or written, and why.
#[derive(Debug)]
pub struct FileError {
    /// The file, as it was named.
    pub path: PathBuf,
    /// What is wrong with it.
    pub problem: Problem,
}

/// What is wrong with a file.
#[derive(Debug)]
pub enum Problem {
    /// The system refused or failed (missing, no permission, a disk error...).
    Io(std::io::Error),
    /// Not a regular file: a directory, a device, a FIFO, a socket (what it is, in words).
    NotRegular(&'static str),
    /// Larger than the limit (bytes), which is the most this kind of file may be.
    TooLarge {
        /// The limit.
        limit: u64,
        /// What kind of file the limit is for (`a book`, `a puzzle file`).
        kind: &'static str,
    },
    /// Not UTF-8 text; the offset of the first byte that is not.
    NotText(usize),
    /// The output named is one of the run's inputs (writing it would lose what it reads).
    IsAnInput,
    /// An existing output that does not read as the kind of file the tool writes: it is
    /// not written over (the reason; the person decides what to do with it).
    NotOurs(String),
}

impl FileError {
    /// `problem` with the file `path`.
    pub fn new(path: &Path, problem: Problem) -> FileError {
        FileError {
            path: path.to_path_buf(),
            problem,
        }
    }

    /// A system error with `path`.
    pub fn io(path: &Path, error: std::io::Error) -> FileError {
        FileError::new(path, Problem::Io(error))
    }

    /// Whether the file is simply not there.
    pub fn is_not_found(&self) -> bool {
        matches!(&self.problem, Problem::Io(e) if e.kind() == std::io::ErrorKind::NotFound)
    }
}

impl FileError {
    /// What is wrong, without the path (for a message that names the file otherwise).
    pub fn problem_text(&self) -> String {
        self.problem.to_string()
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Io(e) => write!(f, "{e}"),
            Problem::NotRegular(what) => write!(f, "{what}, not a regular file: refused"),
            Problem::TooLarge { limit, kind } => write!(
                f,
                "larger than {}, the most {kind} may be",
                crate::size_in_words(*limit)
            ),
            Problem::NotText(offset) => write!(f, "not UTF-8 text (byte {offset})"),
            Problem::IsAnInput => write!(f, "is also an input of this run: name another output"),
            Problem::NotOurs(why) => write!(
                f,
                "exists and is not written over, since it does not read ({why}): move it \
                 away or name another output"
            ),
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.problem)
    }
}

impl std::error::Error for FileError {}

/// What a file that is not regular is, in words.
pub(crate) fn kind_in_words(file_type: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if file_type.is_dir() {
        "a directory"
    } else if file_type.is_fifo() {
        "a FIFO (named pipe)"
    } else if file_type.is_char_device() {
        "a character device"
    } else if file_type.is_block_device() {
        "a block device"
    } else if file_type.is_socket() {
        "a socket"
    } else {
        "not a file"
    }
}
