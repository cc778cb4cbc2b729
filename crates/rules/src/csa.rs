//! CSA, the computer-shogi record format, for the 5x5 board: five `P1`-`P5` rows of five
//! squares (file 5 first), hands as `P+00FU`, moves as `+5453FU` (origin, destination, the
//! piece after the move; origin `00` for a drop). Writing and reading, every move checked.

use crate::error::{MoveError, RecordError, TooManyMoves, MAX_GAME_MOVES};
use crate::hand::Hand;
use crate::moves::{Move, MoveKind};
use crate::piece::{Color, Piece, PieceKind};
use crate::position::Position;
use crate::square::Square;
use std::fmt::Write as _;

const CODES: [(&str, PieceKind); 10] = [
    ("FU", PieceKind::Pawn),
    ("GI", PieceKind::Silver),
    ("KI", PieceKind::Gold),
    ("KA", PieceKind::Bishop),
    ("HI", PieceKind::Rook),
    ("OU", PieceKind::King),
    ("TO", PieceKind::ProPawn),
    ("NG", PieceKind::ProSilver),
    ("UM", PieceKind::Horse),
    ("RY", PieceKind::Dragon),
];

fn code(kind: PieceKind) -> &'static str {
    CODES[kind.index()].0
}

fn kind_of(text: &str) -> Option<PieceKind> {
    CODES.iter().find(|(c, _)| *c == text).map(|&(_, k)| k)
}

fn sign(color: Color) -> char {
    match color {
        Color::Sente => '+',
        Color::Gote => '-',
    }
}

/// A game as CSA text (version 2.2): names, the start position, the moves (writing stops at
/// the first illegal one) and `ending` (`%TORYO` and the like) if given.
pub fn write_csa(
    start: &Position,
    moves: &[Move],
    sente: &str,
    gote: &str,
    ending: Option<&str>,
) -> String {
    let mut out = String::from("V2.2\n");
    let _ = writeln!(out, "N+{sente}\nN-{gote}");
    for row in 0..5u8 {
        let _ = write!(out, "P{}", row + 1);
        for col in 0..5u8 {
            let sq = Square::from_row_col(row, col).expect("on the board");
            match start.piece_at(sq) {
                None => out.push_str(" * "),
                Some(p) => {
                    out.push(sign(p.color));
                    out.push_str(code(p.kind));
                }
            }
        }
        out.push('\n');
    }
    for color in Color::ALL {
        let _ = write!(out, "P{}", sign(color));
        for kind in PieceKind::HAND_SFEN_ORDER {
            for _ in 0..start.hand(color).count(kind) {
                let _ = write!(out, "00{}", code(kind));
            }
        }
        out.push('\n');
    }
    out.push(sign(start.side_to_move()));
    out.push('\n');
    let mut pos = start.clone();
    for &mv in moves {
        if !pos.is_legal(mv) {
            break;
        }
        let us = pos.side_to_move();
        let (from, kind) = match mv.kind() {
            MoveKind::Drop { kind, .. } => ("00".to_string(), kind),
            MoveKind::Board { from, promote, .. } => {
                let kind = pos.piece_at(from).expect("a legal move").kind;
                (
                    format!("{}{}", from.file(), from.row() + 1),
                    if promote { kind.promote() } else { kind },
                )
            }
        };
        let to = mv.to();
        let _ = writeln!(
            out,
            "{}{from}{}{}{}",
            sign(us),
            to.file(),
            to.row() + 1,
            code(kind)
        );
        pos.play(mv);
    }
    if let Some(e) = ending {
        let _ = writeln!(out, "{e}");
    }
    out
}

fn square(file: u8, rank: u8) -> Option<Square> {
    Square::from_file_rank(file.checked_sub(b'0')?, rank.checked_sub(b'0')?)
}

/// Reads a CSA record for the 5x5 board: the start position (rows `P1`-`P5`, hands, the side
/// to move) and the moves, each checked for legality.
pub fn read_csa(text: &str) -> Result<(Position, Vec<Move>), RecordError> {
    RecordError::check_length(text)?;
    let mut board: [Option<Piece>; 25] = [None; 25];
    let mut hands = [Hand::EMPTY; 2];
    let mut side = None;
    let mut rows_seen = 0;
    // The start position, once the first move shows it is complete, and the current one.
    let mut start: Option<Position> = None;
    let mut current: Option<Position> = None;
    let mut moves = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.trim_end();
        let bad = |reason: String| RecordError::Syntax {
            line: line_no,
            reason,
        };
        if line.is_empty()
            || line.starts_with('\'')
            || line.starts_with('V')
            || line.starts_with('N')
            || line.starts_with('$')
            || line.starts_with('T')
        {
            continue;
        }
        if line.starts_with('%') {
            break;
        }
        if let Some(rest) = line.strip_prefix('P') {
            let b = rest.as_bytes();
            match b.first() {
                Some(d @ b'1'..=b'5') => {
                    let row = d - b'1';
                    // Editors drop the last cell's trailing space.
                    let cells = format!("{:<15}", &rest[1..]);
                    if cells.len() < 15 || !cells.is_ascii() {
                        return Err(bad(format!("row P{} has fewer than five squares", row + 1)));
                    }
                    for col in 0..5 {
                        let cell = &cells[col * 3..col * 3 + 3];
                        let sq = Square::from_row_col(row, col as u8).expect("on the board");
                        board[sq.index()] = match cell {
                            " * " => None,
                            c => {
                                let color = match &c[..1] {
                                    "+" => Color::Sente,
                                    "-" => Color::Gote,
                                    _ => return Err(bad(format!("'{c}' is not a square"))),
                                };
                                let kind = kind_of(&c[1..])
                                    .ok_or_else(|| bad(format!("'{c}' is not a piece")))?;
                                Some(Piece::new(color, kind))
                            }
                        };
                    }
                    rows_seen += 1;
                }
                Some(s @ (b'+' | b'-')) => {
                    let color = if *s == b'+' {
                        Color::Sente
                    } else {
                        Color::Gote
                    };
                    let pieces = &rest[1..];
                    if pieces.len() % 4 != 0 || !pieces.is_ascii() {
                        return Err(bad(format!("hand '{pieces}' is not 00XX pairs")));
                    }
                    for chunk in pieces.as_bytes().chunks(4) {
                        // ASCII, checked above.
                        let text = std::str::from_utf8(chunk).unwrap_or("");
                        hands[color.index()] = kind_of(text.get(2..).unwrap_or(""))
                            .filter(|_| text.starts_with("00"))
                            .and_then(|kind| hands[color.index()].with(kind))
                            .ok_or_else(|| bad(format!("'{text}' is not a piece in hand")))?;
                    }
                }
                Some(b'I') => return Err(bad("PI is the 9x9 start; write the five rows".into())),
                _ => return Err(bad(format!("'{line}' cannot be read"))),
            }
            continue;
        }
        if line == "+" || line == "-" {
            side = Some(if line == "+" {
                Color::Sente
            } else {
                Color::Gote
            });
            continue;
        }
        if let Some(color) = line
            .strip_prefix('+')
            .map(|_| Color::Sente)
            .or_else(|| line.strip_prefix('-').map(|_| Color::Gote))
        {
            let current = match &mut current {
                Some(pos) => pos,
                None => {
                    if rows_seen != 5 {
                        return Err(RecordError::Position(format!(
                            "{rows_seen} board rows; five are needed"
                        )));
                    }
                    let s = Position::from_parts(board, hands, side.unwrap_or(color), 1)
                        .map_err(|e| RecordError::Position(e.to_string()))?;
                    start = Some(s.clone());
                    current.insert(s)
                }
            };
            let b = line.as_bytes();
            // A move is ASCII (`+5453FU`, a time comment may follow); slicing needs that.
            if b.len() < 7 || !line.is_ascii() {
                return Err(bad(format!("'{line}' is not a move")));
            }
            if moves.len() >= MAX_GAME_MOVES {
                return Err(RecordError::TooManyMoves(TooManyMoves));
            }
            let to = square(b[3], b[4]).ok_or_else(|| bad(format!("'{line}': bad square")))?;
            let kind = kind_of(&line[5..7]).ok_or_else(|| bad(format!("'{line}': bad piece")))?;
            let mv = if &line[1..3] == "00" {
                if !kind.is_hand_kind() {
                    return Err(bad(format!("'{line}': that piece cannot be dropped")));
                }
                Move::drop(kind, to)
            } else {
                let from =
                    square(b[1], b[2]).ok_or_else(|| bad(format!("'{line}': bad square")))?;
                if from == to {
                    return Err(bad(format!("'{line}': the piece does not move")));
                }
                let before = current.piece_at(from).map(|p| p.kind);
                Move::board(from, to, before.is_some_and(|k| k != kind))
            };
            if color != current.side_to_move() || !current.is_legal(mv) {
                return Err(RecordError::Move {
                    number: moves.len() + 1,
                    error: MoveError::Illegal(mv),
                });
            }
            current.play(mv);
            moves.push(mv);
            continue;
        }
        return Err(bad(format!("'{line}' cannot be read")));
    }
    let start = match start {
        Some(s) => s,
        None => {
            if rows_seen != 5 {
                return Err(RecordError::Position(format!(
                    "{rows_seen} board rows; five are needed"
                )));
            }
            Position::from_parts(board, hands, side.unwrap_or(Color::Sente), 1)
                .map_err(|e| RecordError::Position(e.to_string()))?
        }
    };
    Ok((start, moves))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rng;

    #[test]
    fn records_round_trip_over_random_games() {
        let mut rng = Rng::new(21);
        for g in 0..60 {
            let start = if g % 2 == 1 {
                Position::from_sfen("rbsgk/p4/5/4P/KGSBR b - 1").unwrap()
            } else {
                Position::startpos()
            };
            let moves = rng.random_game(&start, 10 + g * 3);
            let text = write_csa(&start, &moves, "gogo", "fairy", Some("%TORYO"));
            let (s, m) = read_csa(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(s, start);
            assert_eq!(m, moves);
            // A later position as the start, with hands and Gote to move.
            let pos = moves.iter().fold(start.clone(), |p, &mv| p.played(mv));
            let hands = [*pos.hand(Color::Sente), *pos.hand(Color::Gote)];
            let later = Position::from_parts(pos.board(), hands, pos.side_to_move(), 1).unwrap();
            let text = write_csa(&later, &[], "a", "b", None);
            assert_eq!(read_csa(&text).unwrap().0, later, "{text}");
        }
    }

    #[test]
    fn the_standard_start_reads() {
        let text = "V2.2\nN+a\nN-b\nP1-HI-KA-GI-KI-OU\nP2 *  *  *  * -FU\nP3 *  *  *  *  * \nP4+FU *  *  *  * \nP5+OU+KI+GI+KA+HI\nP+\nP-\n+\n+3544GI\n-3142GI\n%TORYO\n";
        let (start, moves) = read_csa(text).unwrap();
        assert_eq!(start, Position::startpos());
        assert_eq!(
            moves,
            vec!["3e4d".parse().unwrap(), "3a4b".parse().unwrap()]
        );
    }

    #[test]
    fn bad_records_are_refused() {
        assert!(matches!(
            read_csa("PI\n"),
            Err(RecordError::Syntax { line: 1, .. })
        ));
        assert!(matches!(
            read_csa("P1-HI\n"),
            Err(RecordError::Syntax { line: 1, .. })
        ));
        let text = "P1-HI-KA-GI-KI-OU\nP2 *  *  *  * -FU\nP3 *  *  *  *  * \nP4+FU *  *  *  * \nP5+OU+KI+GI+KA+HI\n+\n+3533GI\n";
        assert!(matches!(
            read_csa(text),
            Err(RecordError::Move { number: 1, .. })
        ));
        assert!(matches!(
            read_csa("+\n+3544GI\n"),
            Err(RecordError::Position(_))
        ));
    }
}
