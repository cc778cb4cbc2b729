//! Squares of the 5x5 board.
//!
//! Index `0..25` runs in SFEN order: rank `a` (Gote's back rank) first, and inside a rank from
//! file 5 to file 1. So `index = row * 5 + column`, with `row` 0 for rank `a` and `column` 0
//! for file 5.

use std::fmt;
use std::str::FromStr;

/// One of the 25 squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of squares.
    pub const COUNT: usize = 25;

    /// The square with this index, if it is below 25.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 25 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with index `index`, which the caller knows is below 25 (a bit of a valid
    /// [`crate::Bitboard`]). A larger index makes later table lookups panic, never misbehave.
    #[inline]
    pub(crate) const fn from_index_trusted(index: u8) -> Square {
        debug_assert!(index < 25);
        Square(index)
    }

    /// The square at `row` (0 = rank a) and `column` (0 = file 5), if both are below 5.
    #[inline]
    pub const fn from_row_col(row: u8, column: u8) -> Option<Square> {
        if row < 5 && column < 5 {
            Some(Square(row * 5 + column))
        } else {
            None
        }
    }

    /// The square with USI coordinates: `file` 1-5 and `rank` 1-5 (a-e).
    pub const fn from_file_rank(file: u8, rank: u8) -> Option<Square> {
        if file >= 1 && file <= 5 && rank >= 1 && rank <= 5 {
            Some(Square((rank - 1) * 5 + (5 - file)))
        } else {
            None
        }
    }

    /// Index in `0..25`; callers rely on it for table lookups.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The index as `color` sees the board: Sente's own, Gote's turned half round (24
    /// minus it), so that tables written for Sente serve both sides.
    #[inline]
    pub const fn relative_index(self, color: crate::Color) -> usize {
        match color {
            crate::Color::Sente => self.index(),
            crate::Color::Gote => 24 - self.index(),
        }
    }

    /// Row, 0 for rank `a` up to 4 for rank `e`.
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 / 5
    }

    /// Column, 0 for file 5 up to 4 for file 1.
    #[inline]
    pub const fn column(self) -> u8 {
        self.0 % 5
    }

    /// Chebyshev distance (king steps) to `other`: 0 to 4.
    #[inline]
    pub const fn distance(self, other: Square) -> u8 {
        let rows = self.row().abs_diff(other.row());
        let columns = self.column().abs_diff(other.column());
        if rows > columns {
            rows
        } else {
            columns
        }
    }

    /// USI file number, 1-5.
    #[inline]
    pub const fn file(self) -> u8 {
        5 - self.column()
    }

    /// All squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..25).map(Square)
    }

    /// Parses two USI characters like `3c`.
    pub fn parse(file: u8, rank: u8) -> Option<Square> {
        if !(b'1'..=b'5').contains(&file) || !(b'a'..=b'e').contains(&rank) {
            return None;
        }
        Square::from_file_rank(file - b'0', rank - b'a' + 1)
    }
}

/// Text that is not a square of the 5x5 board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError {
    /// The text that was given.
    pub text: String,
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a square (a file 1-5 then a rank a-e, e.g. 3c)",
            self.text
        )
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Reads USI notation, e.g. `3c`.
    fn from_str(text: &str) -> Result<Square, ParseSquareError> {
        match text.as_bytes() {
            [file, rank] => Square::parse(*file, *rank),
            _ => None,
        }
        .ok_or_else(|| ParseSquareError {
            text: text.to_string(),
        })
    }
}

impl fmt::Display for Square {
    /// USI notation, e.g. `3c`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), (b'a' + self.row()) as char)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_counts_king_steps() {
        let sq = |t: &str| t.parse::<Square>().unwrap();
        assert_eq!(sq("3c").distance(sq("3c")), 0);
        assert_eq!(sq("3c").distance(sq("2b")), 1);
        assert_eq!(sq("5a").distance(sq("1e")), 4);
        assert_eq!(sq("5a").distance(sq("4e")), 4);
        assert_eq!(sq("2d").distance(sq("4c")), 2);
        for a in Square::all() {
            for b in Square::all() {
                assert_eq!(a.distance(b), b.distance(a));
            }
        }
    }

    #[test]
    fn usi_coordinates() {
        let sq = Square::parse(b'5', b'a').unwrap();
        assert_eq!(sq.index(), 0);
        assert_eq!(Square::parse(b'1', b'e').unwrap().index(), 24);
        assert_eq!(Square::parse(b'3', b'c').unwrap().to_string(), "3c");
        assert_eq!(Square::parse(b'6', b'a'), None);
        assert_eq!(Square::parse(b'1', b'f'), None);
        for sq in Square::all() {
            let text = sq.to_string();
            let b = text.as_bytes();
            assert_eq!(Square::parse(b[0], b[1]), Some(sq));
            assert_eq!(text.parse::<Square>(), Ok(sq));
        }
        for bad in ["", "3", "3c ", "6a", "1f", "c3", "33"] {
            assert_eq!(
                bad.parse::<Square>(),
                Err(ParseSquareError { text: bad.into() }),
                "{bad:?}"
            );
        }
    }
}
