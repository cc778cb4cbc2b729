//! SFEN and USI notation: reading and writing positions, and reading moves in a position.
//!
//! Text is read in two steps, as the errors show: first the syntax ([`ParseSfenError`]), then
//! the rules ([`PositionError`]); a move is first read as text ([`crate::ParseMoveError`]),
//! then checked for legality ([`MoveError::Illegal`]).

use crate::error::{
    MoveError, ParseSfenError, PositionError, SfenError, SfenField, TooManyMoves, MAX_GAME_MOVES,
};
use crate::hand::Hand;
use crate::moves::Move;
use crate::piece::{Color, Piece, PieceKind};
use crate::position::{Position, MAX_MOVE_NUMBER};
use crate::square::Square;
use std::fmt;
use std::str::FromStr;

/// The standard start position (Sente's pawn in front of its king).
pub const STANDARD_START: &str = "rbsgk/4p/5/P4/KGSBR b - 1";
/// The start position published with the `kawu` rules (pawn in front of the rook).
pub const KAWU_START: &str = "rbsgk/p4/5/4P/KGSBR b - 1";

/// The fields of an SFEN, read but not yet checked against the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SfenParts {
    /// Pieces by square index.
    pub board: [Option<Piece>; 25],
    /// Hands, Sente first.
    pub hands: [Hand; 2],
    /// Side to move.
    pub side: Color,
    /// Move number (1 when the field is absent).
    pub move_number: u32,
}

fn parse_board(text: &str) -> Result<[Option<Piece>; 25], ParseSfenError> {
    let err = |reason: String| ParseSfenError::new(SfenField::Board, reason);
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 5 {
        return Err(err(format!(
            "'{text}' has {} ranks, expected 5",
            ranks.len()
        )));
    }
    let mut board = [None; 25];
    for (row, rank_text) in ranks.iter().enumerate() {
        let rank_name = (b'a' + row as u8) as char;
        let mut column = 0usize;
        let mut promoted = false;
        for ch in rank_text.chars() {
            if let Some(n) = ch.to_digit(10) {
                if promoted || n == 0 {
                    return Err(err(format!("rank {rank_name}: unexpected '{ch}'")));
                }
                column += n as usize;
            } else if ch == '+' {
                if promoted {
                    return Err(err(format!("rank {rank_name}: '++'")));
                }
                promoted = true;
                continue;
            } else {
                let Some(kind) = PieceKind::from_letter(ch) else {
                    return Err(err(format!("rank {rank_name}: '{ch}' is not a piece")));
                };
                if promoted && !kind.can_promote() {
                    return Err(err(format!("rank {rank_name}: '+{ch}' cannot be promoted")));
                }
                if column >= 5 {
                    return Err(err(format!("rank {rank_name} is wider than 5 squares")));
                }
                let color = if ch.is_ascii_uppercase() {
                    Color::Sente
                } else {
                    Color::Gote
                };
                let kind = if promoted { kind.promote() } else { kind };
                board[row * 5 + column] = Some(Piece::new(color, kind));
                column += 1;
                promoted = false;
            }
            if column > 5 {
                return Err(err(format!("rank {rank_name} is wider than 5 squares")));
            }
        }
        if promoted {
            return Err(err(format!("rank {rank_name} ends with '+'")));
        }
        if column != 5 {
            return Err(err(format!(
                "rank {rank_name} covers {column} squares, expected 5"
            )));
        }
    }
    Ok(board)
}

fn parse_hands(text: &str) -> Result<[Hand; 2], ParseSfenError> {
    let err = |reason: String| ParseSfenError::new(SfenField::Hand, reason);
    let mut hands = [Hand::EMPTY; 2];
    if text == "-" {
        return Ok(hands);
    }
    let mut count: Option<u32> = None;
    let mut seen = [[false; 5]; 2];
    for ch in text.chars() {
        if let Some(d) = ch.to_digit(10) {
            let n = count.unwrap_or(0) * 10 + d;
            if n > 99 {
                return Err(err(format!("'{text}': a count above 99")));
            }
            count = Some(n);
            continue;
        }
        let kind = PieceKind::from_letter(ch)
            .filter(|k| k.is_hand_kind())
            .ok_or_else(|| err(format!("'{text}': '{ch}' cannot be held in hand")))?;
        let n = count.take().unwrap_or(1);
        if n == 0 {
            return Err(err(format!("'{text}': a count of 0")));
        }
        let color = if ch.is_ascii_uppercase() {
            Color::Sente
        } else {
            Color::Gote
        };
        if std::mem::replace(&mut seen[color.index()][kind.index()], true) {
            return Err(err(format!("'{text}': '{ch}' appears twice")));
        }
        hands[color.index()].set(kind, n as u8);
    }
    if count.is_some() {
        return Err(err(format!("'{text}' ends with a count")));
    }
    if text.is_empty() {
        return Err(err("empty (use '-')".to_string()));
    }
    Ok(hands)
}

impl FromStr for SfenParts {
    type Err = ParseSfenError;

    /// Reads `board side hand [move-number]`, separated by single spaces or runs of them.
    fn from_str(text: &str) -> Result<SfenParts, ParseSfenError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let missing = |field| ParseSfenError::new(field, "missing");
        let board = parse_board(fields.first().ok_or(missing(SfenField::Board))?)?;
        let side = match *fields.get(1).ok_or(missing(SfenField::Side))? {
            "b" => Color::Sente,
            "w" => Color::Gote,
            other => {
                return Err(ParseSfenError::new(
                    SfenField::Side,
                    format!("'{other}', expected 'b' or 'w'"),
                ))
            }
        };
        let hands = parse_hands(fields.get(2).ok_or(missing(SfenField::Hand))?)?;
        let move_number = match fields.get(3) {
            None => 1,
            Some(text) => match text.parse::<u32>() {
                Ok(n) if (1..=MAX_MOVE_NUMBER).contains(&n) => n,
                _ => {
                    return Err(ParseSfenError::new(
                        SfenField::MoveNumber,
                        format!("'{text}', expected a number from 1 to {MAX_MOVE_NUMBER}"),
                    ))
                }
            },
        };
        if let Some(extra) = fields.get(4) {
            return Err(ParseSfenError::new(
                SfenField::MoveNumber,
                format!("unexpected text '{extra}' after the move number"),
            ));
        }
        Ok(SfenParts {
            board,
            hands,
            side,
            move_number,
        })
    }
}

impl TryFrom<SfenParts> for Position {
    type Error = PositionError;
    fn try_from(parts: SfenParts) -> Result<Position, PositionError> {
        Position::from_parts(parts.board, parts.hands, parts.side, parts.move_number)
    }
}

impl Position {
    /// Reads an SFEN (`startpos` is accepted too), then checks the position.
    pub fn from_sfen(text: &str) -> Result<Position, SfenError> {
        let text = text.trim();
        if text == "startpos" {
            return Ok(Position::startpos());
        }
        let parts: SfenParts = text.parse()?;
        Ok(Position::try_from(parts)?)
    }

    /// The canonical SFEN: hands in the order R B G S P, Sente first, counts only above 1.
    pub fn to_sfen(&self) -> String {
        self.to_string()
    }

    /// Reads a USI move and checks it is legal here.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let mv: Move = text.parse().map_err(MoveError::Parse)?;
        if self.is_legal(mv) {
            Ok(mv)
        } else {
            Err(MoveError::Illegal(mv))
        }
    }
}

impl FromStr for Position {
    type Err = SfenError;
    fn from_str(text: &str) -> Result<Position, SfenError> {
        Position::from_sfen(text)
    }
}

impl fmt::Display for Position {
    /// The canonical SFEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..5u8 {
            if row > 0 {
                f.write_str("/")?;
            }
            let mut empty = 0;
            for column in 0..5u8 {
                let sq = Square::from_row_col(row, column).expect("on the board");
                match self.piece_at(sq) {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{piece}")?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
        }
        write!(f, " {} ", self.side_to_move().sfen_char())?;
        let mut any = false;
        for color in Color::ALL {
            for kind in PieceKind::HAND_SFEN_ORDER {
                let n = self.hand(color).count(kind);
                if n == 0 {
                    continue;
                }
                any = true;
                if n > 1 {
                    write!(f, "{n}")?;
                }
                let letter = kind.base_letter();
                let letter = match color {
                    Color::Sente => letter,
                    Color::Gote => letter.to_ascii_lowercase(),
                };
                write!(f, "{letter}")?;
            }
        }
        if !any {
            f.write_str("-")?;
        }
        write!(f, " {}", self.move_number())
    }
}

/// Reads what follows `position` in USI: `startpos` or `sfen <sfen>` (or a bare SFEN),
/// optionally followed by `moves m1 m2 ...`. Returns the start position and the moves, each
/// checked for legality in turn; more than [`MAX_GAME_MOVES`] moves are refused before any is
/// read.
pub fn parse_usi_position(text: &str) -> Result<(Position, Vec<Move>), SfenError> {
    let text = text.trim();
    let (setup, moves_text) = match text.find(" moves") {
        Some(i) if text[i + 6..].is_empty() || text[i + 6..].starts_with(char::is_whitespace) => {
            (&text[..i], Some(&text[i + 6..]))
        }
        _ if text == "moves" => ("", Some("")),
        _ => (text, None),
    };
    let setup = setup.trim();
    let start = match setup.strip_prefix("sfen") {
        Some(rest) if rest.is_empty() || rest.starts_with(char::is_whitespace) => {
            Position::from_sfen(rest)?
        }
        _ => Position::from_sfen(setup)?,
    };
    let words = moves_text.unwrap_or("").split_whitespace();
    if words.clone().nth(MAX_GAME_MOVES).is_some() {
        return Err(SfenError::TooManyMoves(TooManyMoves));
    }
    let mut moves = Vec::new();
    let mut pos = start.clone();
    for (i, word) in words.enumerate() {
        let mv = pos.parse_move(word).map_err(|error| SfenError::Move {
            index: i + 1,
            error,
        })?;
        pos.play(mv);
        moves.push(mv);
    }
    Ok((start, moves))
}
