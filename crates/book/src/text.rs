//! The book as text: YaneuraOu's format read and written.

use crate::book::{Book, BookMove};
use gogo_rules::{Move, ParseMoveError, Position, SfenError};
use std::fmt;
use std::io::{BufRead, Read};

/// The first line of a book file.
pub const HEADER: &str = "#YANEURAOU-DB2016 1.00";

/// The longest line read; a longer one is refused before it is parsed.
const MAX_LINE_BYTES: usize = 1024;

/// Why a book file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The first line is not [`HEADER`]: not a book (or not one in this format).
    NotABook(String),
    /// The text could not be read (too large, or the system failed), in words.
    Unreadable(String),
    /// A line (from 1) that does not read, and why.
    Line {
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        problem: LineProblem,
    },
}

/// What is wrong with a line of a book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineProblem {
    /// Longer than the longest line read ([`MAX_LINE_BYTES`]).
    TooLong,
    /// Not UTF-8 from this byte of the line on.
    NotUtf8 {
        /// The first byte that is not.
        byte: usize,
    },
    /// A `#wdl` line without three whole numbers, or before any `sfen` line.
    Wdl,
    /// An `sfen` line without board, side, hands and ply.
    SfenFields,
    /// An `sfen` line whose position does not read.
    Sfen(SfenError),
    /// A move line without move, ponder, eval, depth and count.
    MoveFields,
    /// A move line before any `sfen` line.
    MoveBeforeSfen,
    /// A move (`ponder`: the ponder move) that does not read.
    Move {
        /// The text as written.
        text: String,
        /// Whether it is the ponder move.
        ponder: bool,
        /// Why.
        error: ParseMoveError,
    },
    /// An eval, depth or count that is not a whole number (as written).
    NotANumber(String),
}

impl fmt::Display for LineProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineProblem::TooLong => write!(f, "longer than {MAX_LINE_BYTES} bytes"),
            LineProblem::NotUtf8 { byte } => write!(f, "not UTF-8 text (byte {byte})"),
            LineProblem::Wdl => f.write_str("#wdl wants three whole numbers"),
            LineProblem::SfenFields => f.write_str("sfen wants board, side, hands and a ply"),
            LineProblem::Sfen(e) => write!(f, "sfen: {e}"),
            LineProblem::MoveFields => f.write_str("a move wants: move ponder eval depth count"),
            LineProblem::MoveBeforeSfen => f.write_str("a move before any sfen line"),
            LineProblem::Move {
                text,
                ponder,
                error,
            } => {
                let which = if *ponder { "ponder move" } else { "move" };
                write!(f, "{which} '{text}': {error}")
            }
            LineProblem::NotANumber(text) => write!(f, "'{text}' is not a whole number"),
        }
    }
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::NotABook(first) => write!(
                f,
                "not a book: the first line is '{first}', not '{HEADER}' (YaneuraOu's text format)"
            ),
            BookError::Unreadable(why) => write!(f, "{why}"),
            BookError::Line { line, problem } => write!(f, "book line {line}: {problem}"),
        }
    }
}

impl std::error::Error for BookError {}

/// What reading a book passed over.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadReport {
    /// Moves not legal in their position (dropped).
    pub illegal_moves: usize,
}

/// Reads a book from its text. A move that is not legal where it stands is dropped and
/// counted; anything that does not read refuses the whole file with the line and the reason.
pub fn read_book(text: &str) -> Result<(Book, ReadReport), BookError> {
    read_book_from(text.as_bytes())
}

/// [`read_book`] from a reader, a line at a time: a large book never stands in memory as
/// text beside the book it makes (what the engine's `BookFile` loads, through a bounded
/// reader whose failure is refused as [`BookError::Unreadable`]).
pub fn read_book_from(reader: impl BufRead) -> Result<(Book, ReadReport), BookError> {
    let mut lines = Lines {
        reader,
        buffer: Vec::new(),
        number: 0,
    };
    let first = lines.next_line()?.map_or(String::new(), |(_, line)| {
        String::from_utf8_lossy(line).trim_end().to_string()
    });
    if first != HEADER {
        return Err(BookError::NotABook(first.chars().take(40).collect()));
    }
    let mut book = Book::new();
    let mut report = ReadReport::default();
    let mut current: Option<Position> = None;
    let mut last_move: Option<Move> = None;
    while let Some((number, bytes)) = lines.next_line()? {
        let bad = |problem: LineProblem| BookError::Line {
            line: number,
            problem,
        };
        let line = std::str::from_utf8(bytes)
            .map_err(|e| {
                bad(LineProblem::NotUtf8 {
                    byte: e.valid_up_to(),
                })
            })?
            .trim();
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix("#wdl ") {
            let counts: Vec<u64> = rest
                .split_whitespace()
                .map(str::parse)
                .collect::<Result<_, _>>()
                .map_err(|_| bad(LineProblem::Wdl))?;
            let (&[w, d, l], Some(pos)) = (&counts[..], &current) else {
                return Err(bad(LineProblem::Wdl));
            };
            // After a move that was dropped (not legal), there is nothing to count.
            if let Some(mv) = last_move {
                book.set_wdl(pos, mv, [w, d, l]);
            }
            continue;
        }
        if line.starts_with('#') || line.starts_with("//") {
            continue;
        }
        if let Some(rest) = line.strip_prefix("sfen ") {
            let fields: Vec<&str> = rest.split_whitespace().collect();
            if fields.len() < 3 {
                return Err(bad(LineProblem::SfenFields));
            }
            let sfen = fields.join(" ");
            let pos = Position::from_sfen(&sfen).map_err(|e| bad(LineProblem::Sfen(e)))?;
            current = Some(pos);
            last_move = None;
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 5 {
            return Err(bad(LineProblem::MoveFields));
        }
        let Some(pos) = &current else {
            return Err(bad(LineProblem::MoveBeforeSfen));
        };
        let read_move = |text: &str, ponder: bool| {
            text.parse::<Move>().map_err(|error| {
                bad(LineProblem::Move {
                    text: text.to_string(),
                    ponder,
                    error,
                })
            })
        };
        let mv = read_move(fields[0], false)?;
        let ponder = match fields[1] {
            "none" => None,
            text => Some(read_move(text, true)?),
        };
        let number = |i: usize| -> Result<i64, BookError> {
            fields[i]
                .parse()
                .map_err(|_| bad(LineProblem::NotANumber(fields[i].to_string())))
        };
        let (eval, depth, count) = (number(2)?, number(3)?, number(4)?);
        let added = book.add(
            pos,
            BookMove {
                mv,
                ponder,
                eval: eval.clamp(-32_000, 32_000) as i32,
                depth: depth.clamp(0, 1_000) as i32,
                count: count.max(0) as u64,
                wdl: [0; 3],
            },
        );
        if added {
            last_move = Some(mv);
        } else {
            report.illegal_moves += 1;
            last_move = None;
        }
    }
    Ok((book, report))
}

/// The lines of a book's text, each at most [`MAX_LINE_BYTES`] (a longer one is refused
/// before more of it is read), without their line ends.
struct Lines<R> {
    reader: R,
    buffer: Vec<u8>,
    /// The line last given, from 1.
    number: usize,
}

impl<R: BufRead> Lines<R> {
    /// The next line with its number, `None` at the end.
    fn next_line(&mut self) -> Result<Option<(usize, &[u8])>, BookError> {
        self.buffer.clear();
        self.number += 1;
        // Room for the longest line and its "\r\n": anything longer is cut and refused.
        let room = MAX_LINE_BYTES as u64 + 2;
        let read = (&mut self.reader)
            .take(room)
            .read_until(b'\n', &mut self.buffer)
            .map_err(|e| BookError::Unreadable(e.to_string()))?;
        if read == 0 {
            return Ok(None);
        }
        let ended = self.buffer.last() == Some(&b'\n');
        let mut line = &self.buffer[..];
        line = line.strip_suffix(b"\n").unwrap_or(line);
        line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.len() > MAX_LINE_BYTES || (!ended && read as u64 == room) {
            return Err(BookError::Line {
                line: self.number,
                problem: LineProblem::TooLong,
            });
        }
        Ok(Some((self.number, line)))
    }
}

/// The book as text, positions in SFEN order and moves best first, so that a book written
/// twice is the same file.
pub fn write_book(book: &Book) -> String {
    let mut entries: Vec<_> = book.positions().collect();
    let sfen = |p: &Position| {
        let text = p.to_sfen();
        // The board, side and hands; the ply is written apart.
        text.rsplit_once(' ')
            .map_or(text.clone(), |(head, _)| head.to_string())
    };
    entries.sort_by_cached_key(|e| sfen(&e.position));
    let mut out = format!("{HEADER}\n");
    for entry in entries {
        out.push_str(&format!(
            "sfen {} {}\n",
            sfen(&entry.position),
            entry.position.move_number()
        ));
        for m in entry.moves {
            let ponder = m.ponder.map_or("none".to_string(), |p| p.to_string());
            out.push_str(&format!(
                "{} {} {} {} {}\n",
                m.mv, ponder, m.eval, m.depth, m.count
            ));
            if m.wdl != [0; 3] {
                out.push_str(&format!("#wdl {} {} {}\n", m.wdl[0], m.wdl[1], m.wdl[2]));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOOK: &str = "#YANEURAOU-DB2016 1.00
sfen rbsgk/4p/5/P4/KGSBR b - 1
2e3d 4a3b 12 14 380
#wdl 170 0 210
3e2d none -30 14 12
sfen rbsgk/4p/5/P3B/KGS1R w - 2
4a3b none 5 12 7
";

    #[test]
    fn a_book_reads_and_writes_back_the_same() {
        let (book, report) = read_book(BOOK).unwrap();
        assert_eq!(report, ReadReport::default());
        assert_eq!(book.len(), 2);
        let start = Position::startpos();
        let moves = book.moves(&start);
        assert_eq!(moves.len(), 2);
        assert_eq!(moves[0].mv.to_string(), "2e3d");
        assert_eq!(moves[0].ponder.unwrap().to_string(), "4a3b");
        assert_eq!(
            (moves[0].eval, moves[0].depth, moves[0].count),
            (12, 14, 380)
        );
        assert_eq!(moves[0].wdl, [170, 0, 210]);
        let text = write_book(&book);
        let (again, _) = read_book(&text).unwrap();
        assert_eq!(again, book);
        assert_eq!(write_book(&again), text);
    }

    #[test]
    fn lines_are_read_one_at_a_time_within_their_bound() {
        // A line of the longest length, with either line end, reads; one byte more does not.
        let longest = format!("#{}", "x".repeat(MAX_LINE_BYTES - 1));
        for end in ["\n", "\r\n"] {
            let text = format!("{HEADER}{end}{longest}{end}sfen rbsgk/4p/5/P4/KGSBR b - 1{end}");
            assert_eq!(read_book(&text).unwrap().0.len(), 0);
            let text = format!("{HEADER}{end}{longest}x{end}");
            match read_book(&text) {
                Err(BookError::Line {
                    line: 2,
                    problem: LineProblem::TooLong,
                }) => {}
                other => panic!("{other:?}"),
            }
        }
        // A byte that is not UTF-8 is refused with its line.
        let mut bytes = format!("{HEADER}\n# fine\n").into_bytes();
        bytes.extend_from_slice(b"# \xff\n");
        match read_book_from(&bytes[..]) {
            Err(BookError::Line {
                line: 3,
                problem: LineProblem::NotUtf8 { .. },
            }) => {}
            other => panic!("{other:?}"),
        }
        // A reader that fails (a bounded one past its limit) refuses the book with its words.
        struct Failing;
        impl std::io::Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("larger than 8 bytes"))
            }
        }
        let error = read_book_from(std::io::BufReader::new(Failing)).unwrap_err();
        assert_eq!(error, BookError::Unreadable("larger than 8 bytes".into()));
        assert_eq!(error.to_string(), "larger than 8 bytes");
    }

    #[test]
    fn what_is_not_a_book_is_refused_and_illegal_moves_dropped() {
        assert!(matches!(
            read_book("rbsgk/4p/5/P4/KGSBR b - 1\n"),
            Err(BookError::NotABook(_))
        ));
        assert!(matches!(read_book(""), Err(BookError::NotABook(_))));
        // Each refusal typed, with its line and the words the tools print.
        let refused = |text: &str| match read_book(&format!("{HEADER}\n{text}")) {
            Err(e @ BookError::Line { line, .. }) => {
                let BookError::Line { problem, .. } = &e else {
                    unreachable!()
                };
                (line, problem.clone(), e.to_string())
            }
            other => panic!("{other:?}"),
        };
        let start = "sfen rbsgk/4p/5/P4/KGSBR b - 1\n";
        let (line, problem, said) = refused("2e3d none 0 0 1\n");
        assert_eq!((line, problem), (2, LineProblem::MoveBeforeSfen));
        assert_eq!(said, "book line 2: a move before any sfen line");
        let (line, problem, said) = refused(&format!("{start}2e3d none x 0 1\n"));
        assert_eq!((line, problem), (3, LineProblem::NotANumber("x".into())));
        assert_eq!(said, "book line 3: 'x' is not a whole number");
        let (line, problem, _) = refused("sfen rbsgk/9/5/P4/KGSBR b - 1\n");
        assert!(matches!((line, problem), (2, LineProblem::Sfen(_))));
        let (line, problem, said) = refused(&format!("{start}zz none 0 0 1\n"));
        assert!(matches!(
            (line, problem),
            (3, LineProblem::Move { ponder: false, .. })
        ));
        assert!(said.starts_with("book line 3: move 'zz': "), "{said}");
        let (_, problem, said) = refused(&format!("{start}2e3d zz 0 0 1\n"));
        assert!(matches!(problem, LineProblem::Move { ponder: true, .. }));
        assert!(
            said.starts_with("book line 3: ponder move 'zz': "),
            "{said}"
        );
        let (_, problem, said) = refused(&format!("{start}#wdl 1 2\n"));
        assert_eq!(problem, LineProblem::Wdl);
        assert_eq!(said, "book line 3: #wdl wants three whole numbers");
        let (_, problem, _) = refused("sfen rbsgk/4p/5\n");
        assert_eq!(problem, LineProblem::SfenFields);
        let (_, problem, _) = refused(&format!("{start}2e3d none 0\n"));
        assert_eq!(problem, LineProblem::MoveFields);
        let (line, problem, said) = refused(&format!("sfen {}\n", "x".repeat(2000)));
        assert_eq!((line, problem), (2, LineProblem::TooLong));
        assert_eq!(said, "book line 2: longer than 1024 bytes");
        // A move not legal there (a foreign or corrupt book) is dropped, not played.
        let (book, report) = read_book(&format!(
            "{HEADER}\nsfen rbsgk/4p/5/P4/KGSBR b - 1\n5a4a none 0 0 1\n2e3d none 0 0 1\n"
        ))
        .unwrap();
        assert_eq!(report.illegal_moves, 1);
        assert_eq!(book.moves(&Position::startpos()).len(), 1);
    }
}
