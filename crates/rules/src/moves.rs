//! The move type, its USI notation and a fixed-capacity move list.
//!
//! # Bit layout of [`Move`] (16 bits)
//!
//! | bits  | board move              | drop                      |
//! |-------|-------------------------|---------------------------|
//! | 0-4   | destination square 0-24 | destination square 0-24   |
//! | 5-9   | origin square 0-24      | dropped kind 0-4 (P S G B R) |
//! | 10    | promotes                | 0                         |
//! | 11    | 0                       | 1                         |
//! | 12-15 | 0                       | 0                         |
//!
//! No valid move encodes to 0 (a board move needs origin != destination), so `Option<Move>`
//! is two bytes and 0 can mean "no move" in packed storage such as a transposition table.

use crate::piece::PieceKind;
use crate::square::Square;
use std::fmt;
use std::num::NonZeroU16;
use std::str::FromStr;

const TO_MASK: u16 = 0x1f;
const FROM_SHIFT: u16 = 5;
const PROMOTE_BIT: u16 = 1 << 10;
const DROP_BIT: u16 = 1 << 11;

/// A move, board move or drop, in 16 bits (see the module docs for the layout).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(NonZeroU16);

/// A readable view of a [`Move`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A piece moves on the board, possibly capturing, possibly promoting.
    Board {
        /// Origin square.
        from: Square,
        /// Destination square.
        to: Square,
        /// Whether the piece promotes.
        promote: bool,
    },
    /// A piece from hand is put on an empty square.
    Drop {
        /// Dropped kind, always a hand kind.
        kind: PieceKind,
        /// Destination square.
        to: Square,
    },
}

impl Move {
    /// A board move. `from` must differ from `to`.
    #[inline]
    pub fn board(from: Square, to: Square, promote: bool) -> Move {
        debug_assert_ne!(from, to);
        let bits = to.index() as u16
            | (from.index() as u16) << FROM_SHIFT
            | if promote { PROMOTE_BIT } else { 0 };
        Move(NonZeroU16::new(bits).expect("origin differs from destination"))
    }

    /// A drop of `kind` (a hand kind) on `to`.
    #[inline]
    pub fn drop(kind: PieceKind, to: Square) -> Move {
        debug_assert!(kind.is_hand_kind());
        let bits = to.index() as u16 | (kind.index() as u16) << FROM_SHIFT | DROP_BIT;
        Move(NonZeroU16::new(bits).expect("drop bit is set"))
    }

    /// The move encoded by `bits`, if they are a valid encoding.
    pub fn from_bits(bits: u16) -> Option<Move> {
        if bits >> 12 != 0 {
            return None;
        }
        let to = Square::new((bits & TO_MASK) as u8)?;
        let from_field = ((bits >> FROM_SHIFT) & 0x1f) as u8;
        if bits & DROP_BIT != 0 {
            if bits & PROMOTE_BIT != 0 || from_field >= 5 {
                return None;
            }
            Some(Move::drop(PieceKind::from_index(from_field as usize)?, to))
        } else {
            let from = Square::new(from_field)?;
            if from == to {
                return None;
            }
            Some(Move::board(from, to, bits & PROMOTE_BIT != 0))
        }
    }

    /// The 16-bit encoding, never 0.
    #[inline]
    pub fn bits(self) -> u16 {
        self.0.get()
    }

    /// Number of distinct [`Move::index`] values: every encoding fits in 12 bits.
    pub const INDEX_COUNT: usize = 1 << 12;

    /// The encoding as a table index below [`Move::INDEX_COUNT`] (for tables indexed by
    /// move, such as butterfly histories and countermoves).
    #[inline]
    pub const fn index(self) -> usize {
        self.0.get() as usize
    }

    /// Destination square.
    #[inline]
    pub fn to(self) -> Square {
        Square::new((self.0.get() & TO_MASK) as u8).expect("encoding holds a square")
    }

    /// Whether this is a drop.
    #[inline]
    pub fn is_drop(self) -> bool {
        self.0.get() & DROP_BIT != 0
    }

    /// Whether this is a promoting board move.
    #[inline]
    pub fn is_promotion(self) -> bool {
        self.0.get() & PROMOTE_BIT != 0
    }

    /// Origin square of a board move; `None` for drops.
    #[inline]
    pub fn from(self) -> Option<Square> {
        if self.is_drop() {
            None
        } else {
            Square::new(((self.0.get() >> FROM_SHIFT) & 0x1f) as u8)
        }
    }

    /// The dropped kind of a drop; `None` for board moves.
    #[inline]
    pub fn drop_kind(self) -> Option<PieceKind> {
        if self.is_drop() {
            PieceKind::from_index(((self.0.get() >> FROM_SHIFT) & 0x1f) as usize)
        } else {
            None
        }
    }

    /// The readable view.
    #[inline]
    pub fn kind(self) -> MoveKind {
        let to = self.to();
        let field = ((self.0.get() >> FROM_SHIFT) & 0x1f) as usize;
        if self.is_drop() {
            MoveKind::Drop {
                kind: PieceKind::HAND[field],
                to,
            }
        } else {
            MoveKind::Board {
                from: Square::new(field as u8).expect("encoding holds a square"),
                to,
                promote: self.is_promotion(),
            }
        }
    }

    /// Every valid encoding: all board moves (with and without promotion) and all drops.
    /// This is every move that USI text can name.
    pub fn all() -> impl Iterator<Item = Move> {
        (0..=u16::MAX >> 4).filter_map(Move::from_bits)
    }
}

/// A line of moves in USI notation, separated by spaces (`2e3d 1a2a P*3c`), as `info pv`,
/// `position ... moves` and the mate answers write them.
pub fn usi_line(moves: &[Move]) -> String {
    let mut text = String::with_capacity(moves.len() * 5);
    for (i, mv) in moves.iter().enumerate() {
        if i > 0 {
            text.push(' ');
        }
        text.push_str(&mv.to_string());
    }
    text
}

impl fmt::Display for Move {
    /// USI notation: `2e3d`, `2b1a+`, `P*3c`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            MoveKind::Board { from, to, promote } => {
                write!(f, "{from}{to}{}", if promote { "+" } else { "" })
            }
            MoveKind::Drop { kind, to } => write!(f, "{}*{to}", kind.base_letter()),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Text that is not a USI move for a 5x5 board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError {
    /// The text that was given.
    pub text: String,
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a USI move (expected e.g. 2e3d, 2b1a+ or P*3c; files 1-5, ranks a-e)",
            self.text
        )
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Parses USI text. Only the syntax is checked: whether the move is legal depends on a
    /// position (see [`crate::Position::parse_move`]).
    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        let err = || ParseMoveError {
            text: text.to_string(),
        };
        let b = text.as_bytes();
        match b {
            [piece, b'*', file, rank] => {
                let kind = match piece {
                    b'P' => PieceKind::Pawn,
                    b'S' => PieceKind::Silver,
                    b'G' => PieceKind::Gold,
                    b'B' => PieceKind::Bishop,
                    b'R' => PieceKind::Rook,
                    _ => return Err(err()),
                };
                Ok(Move::drop(
                    kind,
                    Square::parse(*file, *rank).ok_or_else(err)?,
                ))
            }
            [f1, r1, f2, r2, rest @ ..] if rest.is_empty() || rest == b"+" => {
                let from = Square::parse(*f1, *r1).ok_or_else(err)?;
                let to = Square::parse(*f2, *r2).ok_or_else(err)?;
                if from == to {
                    return Err(err());
                }
                Ok(Move::board(from, to, !rest.is_empty()))
            }
            _ => Err(err()),
        }
    }
}

/// Upper bound on the legal moves of any position: drops are at most 5 kinds x 23 empty
/// squares, and the pieces held in hand are missing from the board, so 256 is never reached.
pub const MAX_MOVES: usize = 256;

/// A list of moves on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        const FILLER: Move = Move(NonZeroU16::MIN);
        MoveList {
            moves: [FILLER; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Whether `mv` is in the list.
    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for sorting).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Iterates over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_usi_line_is_the_moves_with_single_spaces() {
        let moves: Vec<Move> = ["2e3d", "P*3c", "2b1a+"]
            .iter()
            .map(|t| t.parse().unwrap())
            .collect();
        assert_eq!(usi_line(&moves), "2e3d P*3c 2b1a+");
        assert_eq!(usi_line(&moves[..1]), "2e3d");
        assert_eq!(usi_line(&[]), "");
    }

    use super::*;

    #[test]
    fn bit_layout_is_documented_one() {
        let mv: Move = "2b1a+".parse().unwrap();
        // 2b = row 1, column 3 -> 8; 1a = row 0, column 4 -> 4.
        assert_eq!(mv.bits(), 4 | 8 << 5 | 1 << 10);
        let drop: Move = "P*5a".parse().unwrap();
        assert_eq!(drop.bits(), 1 << 11);
        assert_eq!(drop.drop_kind(), Some(PieceKind::Pawn));
        assert_eq!(drop.from(), None);
    }

    #[test]
    fn every_encoding_round_trips() {
        let all: Vec<Move> = Move::all().collect();
        // 25 * 24 board moves, each with and without promotion, plus 5 * 25 drops.
        assert_eq!(all.len(), 25 * 24 * 2 + 5 * 25);
        for mv in all {
            assert_eq!(Move::from_bits(mv.bits()), Some(mv));
            assert!(mv.index() < Move::INDEX_COUNT);
            let text = mv.to_string();
            assert_eq!(text.parse::<Move>(), Ok(mv), "{text}");
            let rebuilt = match mv.kind() {
                MoveKind::Board { from, to, promote } => Move::board(from, to, promote),
                MoveKind::Drop { kind, to } => Move::drop(kind, to),
            };
            assert_eq!(rebuilt, mv);
        }
        assert_eq!(Move::from_bits(0), None);
        assert_eq!(Move::from_bits(1 << 12), None);
    }

    #[test]
    fn malformed_text_is_rejected() {
        for bad in [
            "", "2e", "2e3", "2e3d++", "2e2e", "6e3d", "2f3d", "K*3c", "p*3c", "P*3f", "P3c",
            "2e3d=", "2E3D", " 2e3d",
        ] {
            assert_eq!(
                bad.parse::<Move>(),
                Err(ParseMoveError {
                    text: bad.to_string()
                }),
                "{bad:?}"
            );
        }
    }
}
