//! Reading: a regular file only, checked before and after it is opened, through a reader
//! that fails past its limit.

use crate::error::{kind_in_words, FileError, Problem};
use std::fs::File;
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// The most a kind of file may be: its bytes, and the kind in words for the error
/// (`a book`, `a puzzle file`), so that the refusal says its figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// Bytes at most.
    pub bytes: u64,
    /// What kind of file, in words.
    pub kind: &'static str,
}

impl Limit {
    /// At most `bytes` for a file of `kind`.
    pub const fn new(bytes: u64, kind: &'static str) -> Limit {
        Limit { bytes, kind }
    }
}

/// A reader that gives at most `limit` bytes and then fails (rather than stopping quietly,
/// which would pass a cut file for a whole one).
#[derive(Debug)]
pub struct Bounded<R> {
    inner: R,
    left: u64,
    limit: Limit,
    /// More than the limit has come: the next read fails.
    over: bool,
}

impl<R: Read> Bounded<R> {
    /// `inner`, read at most to `limit`.
    pub fn new(inner: R, limit: Limit) -> Bounded<R> {
        Bounded {
            inner,
            left: limit.bytes,
            limit,
            over: false,
        }
    }
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        // One byte more than is left tells a file at its limit from one past it.
        let room = usize::try_from(self.left.saturating_add(1))
            .unwrap_or(usize::MAX)
            .min(buf.len());
        if self.over {
            return Err(std::io::Error::other(format!(
                "larger than {}, the most {} may be",
                crate::size_in_words(self.limit.bytes),
                self.limit.kind
            )));
        }
        let n = self.inner.read(&mut buf[..room])?;
        if n as u64 > self.left {
            // What fits is given; the next read says there was more.
            self.over = true;
            let fits = self.left as usize;
            self.left = 0;
            return if fits > 0 { Ok(fits) } else { self.read(buf) };
        }
        self.left -= n as u64;
        Ok(n)
    }
}

/// Refuses what is not a regular file, or a file larger than `limit`.
fn check(path: &Path, meta: &std::fs::Metadata, limit: Limit) -> Result<(), FileError> {
    if !meta.is_file() {
        return Err(FileError::new(
            path,
            Problem::NotRegular(kind_in_words(meta.file_type())),
        ));
    }
    if meta.len() > limit.bytes {
        return Err(FileError::new(
            path,
            Problem::TooLarge {
                limit: limit.bytes,
                kind: limit.kind,
            },
        ));
    }
    Ok(())
}

/// Opens `path` for reading: a regular file (links followed) of at most `limit`, checked
/// from its metadata before it is opened and from the open file again (it may have been
/// swapped between), opened without blocking (a FIFO put there meanwhile cannot hold the
/// tool), read through a [`Bounded`] reader (a file that grows past the limit fails).
pub fn open(path: &Path, limit: Limit) -> Result<Bounded<File>, FileError> {
    let io = |e| FileError::io(path, e);
    check(path, &std::fs::metadata(path).map_err(io)?, limit)?;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(io)?;
    check(path, &file.metadata().map_err(io)?, limit)?;
    Ok(Bounded::new(file, limit))
}

/// The bytes of `path`, as [`open`] reads them.
pub fn read(path: &Path, limit: Limit) -> Result<Vec<u8>, FileError> {
    let mut reader = open(path, limit)?;
    let size = reader.inner.metadata().map(|m| m.len()).unwrap_or(0);
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    reader.read_to_end(&mut bytes).map_err(|e| {
        if reader.left == 0 {
            FileError::new(
                path,
                Problem::TooLarge {
                    limit: limit.bytes,
                    kind: limit.kind,
                },
            )
        } else {
            FileError::io(path, e)
        }
    })?;
    Ok(bytes)
}

/// The text of `path`, as [`open`] reads it; refused if it is not UTF-8.
pub fn read_text(path: &Path, limit: Limit) -> Result<String, FileError> {
    String::from_utf8(read(path, limit)?)
        .map_err(|e| FileError::new(path, Problem::NotText(e.utf8_error().valid_up_to())))
}

/// [`read_text`], or `None` when nothing is at `path` (an output not made yet).
pub fn read_text_if_exists(path: &Path, limit: Limit) -> Result<Option<String>, FileError> {
    match read_text(path, limit) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.is_not_found() && std::fs::symlink_metadata(path).is_err() => Ok(None),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Limit = Limit::new(8, "a test file");

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("gogo-files-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn only_regular_files_within_their_limit_are_read() {
        let dir = scratch("read");
        let file = dir.join("a.txt");
        std::fs::write(&file, "12345678").unwrap();
        assert_eq!(read_text(&file, SMALL).unwrap(), "12345678");
        std::fs::write(&file, "123456789").unwrap();
        let error = read(&file, SMALL).unwrap_err().to_string();
        assert!(
            error.contains("larger than 8 bytes, the most a test file may be"),
            "{error}"
        );
        let error = read(&dir, SMALL).unwrap_err().to_string();
        assert!(error.contains("a directory, not a regular file"), "{error}");
        let error = read(Path::new("/dev/zero"), SMALL).unwrap_err().to_string();
        assert!(error.contains("a character device"), "{error}");
        // A link is followed to what it names.
        let link = dir.join("zero");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        assert!(read(&link, SMALL)
            .unwrap_err()
            .to_string()
            .contains("device"));
        std::fs::write(&file, [b'a', 0xff, b'b']).unwrap();
        let error = read_text(&file, SMALL).unwrap_err().to_string();
        assert!(error.contains("not UTF-8 text (byte 1)"), "{error}");
        assert!(read_text_if_exists(&dir.join("none"), SMALL)
            .unwrap()
            .is_none());
        // A link to nothing is not "nothing there": writing would replace the link.
        let dangling = dir.join("dangling");
        std::os::unix::fs::symlink(dir.join("gone"), &dangling).unwrap();
        assert!(read_text_if_exists(&dangling, SMALL).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_fifo_is_refused_at_once() {
        let dir = scratch("fifo");
        let fifo = dir.join("pipe");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid, NUL-terminated path.
        #[allow(unsafe_code)]
        let made = unsafe { libc::mkfifo(c.as_ptr(), 0o600) };
        assert_eq!(made, 0);
        let error = read(&fifo, SMALL).unwrap_err().to_string();
        assert!(error.contains("FIFO"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_bounded_reader_fails_past_its_limit() {
        let mut out = Vec::new();
        let error = Bounded::new(std::io::repeat(7), SMALL)
            .read_to_end(&mut out)
            .unwrap_err();
        assert!(error.to_string().contains("8 bytes"), "{error}");
        assert_eq!(out.len(), 8);
        let mut out = Vec::new();
        Bounded::new(&b"12345678"[..], SMALL)
            .read_to_end(&mut out)
            .unwrap();
        assert_eq!(out, b"12345678");
    }
}
