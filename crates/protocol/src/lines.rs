//! Lines from a byte stream with a bound on their length: what both ends of USI read with
//! (the engine its stdin, the client an engine's stdout), so that neither side's memory is at
//! the mercy of the other. A longer line is reported once and skipped to its end; bytes that
//! are not UTF-8 are replaced; a last line without its newline is a line too.

use std::io::{BufRead, BufReader, Read};

/// One item of a [`BoundedLines`] stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line, without its `\n` or `\r\n`.
    Text(String),
    /// A line longer than the bound: its start was dropped, and so is the rest of it.
    TooLong,
}

/// Reads lines of at most `max` bytes from `R`.
pub struct BoundedLines<R> {
    reader: BufReader<R>,
    max: usize,
    /// Skipping the rest of a line that was too long.
    skipping: bool,
}

impl<R: Read> BoundedLines<R> {
    /// Lines of at most `max` bytes (the newline not counted).
    pub fn new(reader: R, max: usize) -> BoundedLines<R> {
        BoundedLines {
            reader: BufReader::with_capacity(64 * 1024, reader),
            max,
            skipping: false,
        }
    }
}

impl<R: Read> Iterator for BoundedLines<R> {
    type Item = Line;

    /// The next line; `None` at the end of the stream or on a read error.
    fn next(&mut self) -> Option<Line> {
        let mut line: Vec<u8> = Vec::new();
        loop {
            let buffer = match self.reader.fill_buf() {
                Ok([]) => {
                    let last = !self.skipping && !line.is_empty();
                    self.skipping = false;
                    return last.then(|| text(&line));
                }
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => return None,
            };
            let (taken, complete) = match buffer.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (buffer.len(), false),
            };
            let mut too_long = false;
            if !self.skipping {
                // The newline itself is not counted.
                if line.len() + taken - usize::from(complete) > self.max {
                    too_long = true;
                    line = Vec::new();
                } else {
                    line.extend_from_slice(&buffer[..taken]);
                }
            }
            self.reader.consume(taken);
            if too_long {
                self.skipping = !complete;
                return Some(Line::TooLong);
            }
            if complete {
                if std::mem::take(&mut self.skipping) {
                    continue;
                }
                return Some(text(&line));
            }
        }
    }
}

fn text(bytes: &[u8]) -> Line {
    let text = String::from_utf8_lossy(bytes);
    Line::Text(text.trim_end_matches(['\n', '\r']).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8], max: usize) -> Vec<Line> {
        BoundedLines::new(bytes, max).collect()
    }

    fn t(s: &str) -> Line {
        Line::Text(s.to_string())
    }

    #[test]
    fn lines_within_and_beyond_the_bound() {
        assert_eq!(
            lines(b"ab\r\ncd\n\nef", 4),
            vec![t("ab"), t("cd"), t(""), t("ef")]
        );
        assert_eq!(
            lines(b"abcd\nabcde\nx\n", 4),
            vec![t("abcd"), Line::TooLong, t("x")]
        );
        // An endless line is reported once; what follows its end is read again.
        let mut long = vec![b'x'; 300_000];
        long.extend_from_slice(b"\nok\n");
        assert_eq!(lines(&long, 1000), vec![Line::TooLong, t("ok")]);
        assert_eq!(lines(&long[..200_000], 1000), vec![Line::TooLong]);
        assert_eq!(lines(b"\xff\xfeok\n", 10), vec![t("\u{fffd}\u{fffd}ok")]);
        assert_eq!(lines(b"", 10), vec![]);
    }
}
