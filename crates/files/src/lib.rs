//! # gogo-files
//!
//! The one way gogo's tools (books, puzzles, data generation, training, the arena's merge)
//! read and write files, so that none of them can be made to read without bound, block on a
//! pipe, or destroy a file:
//!
//! - **Reading** ([`read`], [`read_text`], [`open`]): only a regular file, checked from its
//!   metadata before it is opened (opening a FIFO would wait for a writer) and again once
//!   open, through a [`Bounded`] reader that fails past a limit naming its figure. A link is
//!   followed, so a link to `/dev/zero` is refused as the device it is.
//! - **Writing** ([`Output`]): never over anything but a regular file (a link is followed to
//!   its file and the link kept), never over one of the run's inputs, and always through a
//!   temporary file of a unique name beside the target, renamed over it once whole, so that a
//!   crash or a full disk leaves the old file as it was. Whether an existing file may be
//!   replaced (it must read as the kind the tool writes) is the tool's to check, with
//!   [`read_text`] first.

#![deny(unsafe_code)]
#![warn(missing_docs)]

mod error;
mod read;
mod write;

pub use error::{FileError, Problem};
pub use read::{open, read, read_text, read_text_if_exists, Bounded, Limit};
pub use write::{Output, PendingFile};

/// One mebibyte, for limits written in MiB.
pub const MIB: u64 = 1 << 20;

/// A limit in bytes in words: `256 MiB`, `4 GiB`, `1500 bytes`.
pub fn size_in_words(bytes: u64) -> String {
    const GIB: u64 = 1 << 30;
    if bytes >= GIB && bytes.is_multiple_of(GIB) {
        format!("{} GiB", bytes / GIB)
    } else if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else if bytes >= 1024 && bytes.is_multiple_of(1024) {
        format!("{} KiB", bytes / 1024)
    } else {
        format!("{bytes} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(size_in_words(256 * MIB), "256 MiB");
        assert_eq!(size_in_words(4 << 30), "4 GiB");
        assert_eq!(size_in_words(1536), "1536 bytes");
        assert_eq!(size_in_words(2048), "2 KiB");
        assert_eq!(size_in_words(0), "0 bytes");
    }
}
