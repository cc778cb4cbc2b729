//! Errors for text that cannot be read ([`ParseSfenError`], [`crate::ParseMoveError`]) and for
//! text that reads well but breaks a rule ([`PositionError`], [`MoveError::Illegal`]).

use crate::moves::{Move, ParseMoveError};
use crate::piece::{Color, PieceKind};
use crate::square::Square;
use std::fmt;

/// The fields of an SFEN string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SfenField {
    /// Piece placement.
    Board,
    /// Side to move.
    Side,
    /// Pieces in hand.
    Hand,
    /// Move number.
    MoveNumber,
}

impl fmt::Display for SfenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SfenField::Board => "board",
            SfenField::Side => "side to move",
            SfenField::Hand => "hand",
            SfenField::MoveNumber => "move number",
        })
    }
}

/// SFEN text that cannot be read: which field, and what was wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSfenError {
    /// The field at fault.
    pub field: SfenField,
    /// What was wrong, in words.
    pub reason: String,
}

impl ParseSfenError {
    pub(crate) fn new(field: SfenField, reason: impl Into<String>) -> ParseSfenError {
        ParseSfenError {
            field,
            reason: reason.into(),
        }
    }
}

impl fmt::Display for ParseSfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad SFEN {}: {}", self.field, self.reason)
    }
}

impl std::error::Error for ParseSfenError {}

/// A position that can be written down but cannot arise under the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A side has no king.
    MissingKing(Color),
    /// A side has more than one king.
    ExtraKing(Color),
    /// More pieces of one kind (promoted ones counted as their base kind, hands included)
    /// than the set holds: two of each.
    TooManyPieces {
        /// The unpromoted kind.
        kind: PieceKind,
        /// How many were found.
        count: usize,
    },
    /// Two unpromoted pawns of one side on one file.
    TwoPawnsOnFile {
        /// Their owner.
        color: Color,
        /// The USI file, 1-5.
        file: u8,
    },
    /// An unpromoted pawn on its last rank, where it could never move.
    PawnOnLastRank {
        /// Its owner.
        color: Color,
        /// Its square.
        square: Square,
    },
    /// The side that is not to move is in check: its king could be captured.
    OpponentInCheck,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::MissingKing(c) => write!(f, "{c} has no king"),
            PositionError::ExtraKing(c) => write!(f, "{c} has more than one king"),
            PositionError::TooManyPieces { kind, count } => write!(
                f,
                "{count} pieces of kind {} (board and hands, promoted included); at most 2 exist",
                kind.base_letter()
            ),
            PositionError::TwoPawnsOnFile { color, file } => {
                write!(f, "{color} has two unpromoted pawns on file {file}")
            }
            PositionError::PawnOnLastRank { color, square } => {
                write!(
                    f,
                    "{color} has an unpromoted pawn on its last rank at {square}"
                )
            }
            PositionError::OpponentInCheck => f.write_str("the side not to move is in check"),
        }
    }
}

impl std::error::Error for PositionError {}

/// A move that cannot be played: bad text, or well-formed but illegal here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a USI move.
    Parse(ParseMoveError),
    /// The move is well-formed but not legal in the position.
    Illegal(Move),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Parse(e) => e.fmt(f),
            MoveError::Illegal(mv) => write!(f, "illegal move {mv} in this position"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Anything wrong with a position given as text, optionally followed by moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SfenError {
    /// The SFEN text cannot be read.
    Parse(ParseSfenError),
    /// The SFEN reads well but describes an impossible position.
    Position(PositionError),
    /// Move number `index` (1-based) of the `moves` list cannot be played.
    Move {
        /// 1-based index in the move list.
        index: usize,
        /// What is wrong with it.
        error: MoveError,
    },
    /// The `moves` list is longer than any game may be.
    TooManyMoves(TooManyMoves),
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SfenError::Parse(e) => e.fmt(f),
            SfenError::Position(e) => write!(f, "impossible position: {e}"),
            SfenError::Move { index, error } => write!(f, "move {index}: {error}"),
            SfenError::TooManyMoves(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SfenError {}

impl From<ParseSfenError> for SfenError {
    fn from(e: ParseSfenError) -> Self {
        SfenError::Parse(e)
    }
}

impl From<PositionError> for SfenError {
    fn from(e: PositionError) -> Self {
        SfenError::Position(e)
    }
}

/// A game record (KIF or CSA) that cannot be used: text first, then the position, then the
/// moves, each checked against the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// Line `line` (1-based) cannot be read.
    Syntax {
        /// Its number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// The start position is not a legal one.
    Position(String),
    /// Move `number` (1-based) is not legal.
    Move {
        /// Its number.
        number: usize,
        /// What is wrong.
        error: MoveError,
    },
    /// The record's text is longer than [`MAX_RECORD_BYTES`].
    TooLong,
    /// The record holds more than [`MAX_GAME_MOVES`] moves.
    TooManyMoves(TooManyMoves),
}

/// The longest record text read, in bytes (a game of [`MAX_GAME_MOVES`] moves in KIF,
/// with comments, is well within it).
pub const MAX_RECORD_BYTES: usize = 1 << 20;
/// The most moves (plies) a game may hold, by every road into one: USI text, SFEN and moves,
/// KIF, CSA, and moves played one by one ([`crate::Game::play`]). Far beyond any real game
/// (the fourth occurrence of a position ends one long before), and small enough that
/// replaying one costs little.
pub const MAX_GAME_MOVES: usize = 10_000;

/// A game of more than [`MAX_GAME_MOVES`] moves: the one error for every road into a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooManyMoves;

impl fmt::Display for TooManyMoves {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "too many moves: a game has at most {MAX_GAME_MOVES}")
    }
}

impl std::error::Error for TooManyMoves {}

impl RecordError {
    /// [`RecordError::TooLong`] for text longer than [`MAX_RECORD_BYTES`].
    pub(crate) fn check_length(text: &str) -> Result<(), RecordError> {
        if text.len() > MAX_RECORD_BYTES {
            return Err(RecordError::TooLong);
        }
        Ok(())
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Syntax { line, reason } => write!(f, "record line {line}: {reason}"),
            RecordError::Position(e) => write!(f, "record position: {e}"),
            RecordError::Move { number, error } => write!(f, "record move {number}: {error}"),
            RecordError::TooLong => write!(
                f,
                "the record is too long (at most {MAX_RECORD_BYTES} bytes)"
            ),
            RecordError::TooManyMoves(e) => write!(f, "record: {e}"),
        }
    }
}

impl std::error::Error for RecordError {}
