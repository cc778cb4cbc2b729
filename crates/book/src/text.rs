//! The book as text: YaneuraOu's format read and written.

use crate::book::{Book, BookMove};
use gogo_rules::{Move, Position};
use std::fmt;

/// The first line of a book file.
pub const HEADER: &str = "#YANEURAOU-DB2016 1.00";

/// The longest line read; a longer one is refused before it is parsed.
const MAX_LINE_BYTES: usize = 1024;

/// Why a book file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The first line is not [`HEADER`]: not a book (or not one in this format).
    NotABook(String),
    /// A line (from 1) that does not read, and why.
    Line {
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        problem: String,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::NotABook(first) => write!(
                f,
                "not a book: the first line is '{first}', not '{HEADER}' (YaneuraOu's text format)"
            ),
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

/// Reads a book. A move that is not legal where it stands is dropped and counted; anything
/// that does not read refuses the whole file with the line and the reason.
pub fn read_book(text: &str) -> Result<(Book, ReadReport), BookError> {
    let mut lines = text.lines().enumerate();
    let first = lines.next().map_or("", |(_, l)| l).trim_end();
    if first != HEADER {
        return Err(BookError::NotABook(first.chars().take(40).collect()));
    }
    let mut book = Book::new();
    let mut report = ReadReport::default();
    let mut current: Option<Position> = None;
    let mut last_move: Option<Move> = None;
    for (i, line) in lines {
        let bad = |problem: String| BookError::Line {
            line: i + 1,
            problem,
        };
        if line.len() > MAX_LINE_BYTES {
            return Err(bad(format!("longer than {MAX_LINE_BYTES} bytes")));
        }
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix("#wdl ") {
            let counts: Vec<u64> = rest
                .split_whitespace()
                .map(str::parse)
                .collect::<Result<_, _>>()
                .map_err(|_| bad("#wdl wants three whole numbers".into()))?;
            let (&[w, d, l], Some(pos)) = (&counts[..], &current) else {
                return Err(bad("#wdl wants three whole numbers".into()));
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
                return Err(bad("sfen wants board, side, hands and a ply".into()));
            }
            let sfen = fields.join(" ");
            let pos = Position::from_sfen(&sfen).map_err(|e| bad(format!("sfen: {e}")))?;
            current = Some(pos);
            last_move = None;
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 5 {
            return Err(bad("a move wants: move ponder eval depth count".into()));
        }
        let Some(pos) = &current else {
            return Err(bad("a move before any sfen line".into()));
        };
        let mv: Move = fields[0]
            .parse()
            .map_err(|e| bad(format!("move '{}': {e}", fields[0])))?;
        let ponder = match fields[1] {
            "none" => None,
            text => Some(
                text.parse::<Move>()
                    .map_err(|e| bad(format!("ponder move '{text}': {e}")))?,
            ),
        };
        let number = |i: usize| -> Result<i64, BookError> {
            fields[i]
                .parse()
                .map_err(|_| bad(format!("'{}' is not a whole number", fields[i])))
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
        for m in &entry.moves {
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
    fn what_is_not_a_book_is_refused_and_illegal_moves_dropped() {
        assert!(matches!(
            read_book("rbsgk/4p/5/P4/KGSBR b - 1\n"),
            Err(BookError::NotABook(_))
        ));
        assert!(matches!(read_book(""), Err(BookError::NotABook(_))));
        let line = |text: &str| match read_book(&format!("{HEADER}\n{text}")) {
            Err(BookError::Line { line, .. }) => line,
            other => panic!("{other:?}"),
        };
        assert_eq!(line("2e3d none 0 0 1\n"), 2);
        assert_eq!(line("sfen rbsgk/4p/5/P4/KGSBR b - 1\n2e3d none x 0 1\n"), 3);
        assert_eq!(line("sfen rbsgk/9/5/P4/KGSBR b - 1\n"), 2);
        assert_eq!(line("sfen rbsgk/4p/5/P4/KGSBR b - 1\nzz none 0 0 1\n"), 3);
        assert_eq!(line(&format!("sfen {}\n", "x".repeat(2000))), 2);
        // A move not legal there (a foreign or corrupt book) is dropped, not played.
        let (book, report) = read_book(&format!(
            "{HEADER}\nsfen rbsgk/4p/5/P4/KGSBR b - 1\n5a4a none 0 0 1\n2e3d none 0 0 1\n"
        ))
        .unwrap();
        assert_eq!(report.illegal_moves, 1);
        assert_eq!(book.moves(&Position::startpos()).len(), 1);
    }
}
