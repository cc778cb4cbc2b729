//! Moves in Western notation as lishogi writes it ("Western" in its settings): the piece's
//! letter (`+` before a promoted one), the origin square only when another piece of the
//! same kind and side could also reach the destination, `-` for a move, `x` for a capture,
//! `*` for a drop, the destination as two digits (file, then rank counted from the top), and
//! `+` for a promotion or `=` for one declined: `P-53`, `Sx42+`, `G*32`, `B-14=`, `G43-42`.

use crate::moves::{Move, MoveKind};
use crate::piece::PieceKind;
use crate::position::{promotion_zone, Position};
use crate::square::Square;

/// The letters of a kind: `P`, `S`, ..., `+P` for a promoted pawn.
fn letters(kind: PieceKind) -> String {
    if kind.is_promoted() {
        format!("+{}", kind.unpromote().base_letter())
    } else {
        kind.base_letter().to_string()
    }
}

/// A square as two digits: file, then rank from the top (`5c` is `53`).
fn number_square(sq: Square) -> String {
    format!("{}{}", sq.file(), sq.row() + 1)
}

/// `mv`, legal in `pos`, in Western notation.
pub fn western(pos: &Position, mv: Move) -> String {
    let kind = pos.moved_kind(mv).unwrap_or(PieceKind::Pawn);
    match mv.kind() {
        MoveKind::Drop { to, .. } => format!("{}*{}", letters(kind), number_square(to)),
        MoveKind::Board { from, to, promote } => {
            let us = pos.side_to_move();
            let rivals = pos
                .attackers_to(to, us, pos.occupied())
                .without(from)
                .filter(|&sq| pos.piece_at(sq).is_some_and(|p| p.kind == kind))
                .count();
            let origin = if rivals > 0 {
                number_square(from)
            } else {
                String::new()
            };
            let action = if pos.is_capture(mv) { 'x' } else { '-' };
            let zone = promotion_zone(us);
            let could = kind.can_promote() && (zone.contains(from) || zone.contains(to));
            let suffix = match (promote, could) {
                (true, _) => "+",
                (false, true) => "=",
                (false, false) => "",
            };
            format!(
                "{}{origin}{action}{}{suffix}",
                letters(kind),
                number_square(to)
            )
        }
    }
}

/// A line of moves in Western notation, separated by spaces (as far as they are legal).
pub fn western_line(pos: &Position, moves: &[Move]) -> String {
    let mut pos = pos.clone();
    let mut out = Vec::with_capacity(moves.len());
    for &mv in moves {
        if !pos.is_legal(mv) {
            break;
        }
        out.push(western(&pos, mv));
        pos.play(mv);
    }
    out.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(sfen: &str, usi: &[&str]) -> Vec<String> {
        let mut pos = Position::from_sfen(sfen).unwrap();
        usi.iter()
            .map(|u| {
                let mv = pos.parse_move(u).unwrap();
                let text = western(&pos, mv);
                pos.play(mv);
                text
            })
            .collect()
    }

    #[test]
    fn moves_captures_drops_promotions() {
        let start = "rbsgk/4p/5/P4/KGSBR b - 1";
        assert_eq!(
            line(start, &["5d5c", "1b1c", "5c5b", "1c1d", "5b5a+"]),
            ["P-53", "P-13", "P-52", "P-14", "Px51+"]
        );
        // The bishop out to 5b (no zone, no suffix), then into the zone taking the bishop,
        // promoting or not.
        let out = ["2e4c", "1b1c", "4c5b", "1c1d"];
        assert_eq!(line(start, &out), ["B-43", "P-13", "B-52", "P-14"]);
        let take = |usi: &'static str| line(start, &[out[0], out[1], out[2], out[3], usi]);
        assert_eq!(take("5b4a+")[4], "Bx41+");
        assert_eq!(take("5b4a")[4], "Bx41=");
        assert_eq!(line("4k/5/5/5/K4 b P 1", &["P*3c"]), ["P*33"]);
    }

    #[test]
    fn the_origin_when_two_could_go() {
        // Two golds that both reach 4d: the origin says which.
        let sfen = "4k/5/5/5/KGG2 b - 1";
        assert_eq!(line(sfen, &["4e4d"]), ["G45-44"]);
        assert_eq!(line(sfen, &["3e4d"]), ["G35-44"]);
        // Only one reaches 2d.
        assert_eq!(line(sfen, &["3e2d"]), ["G-24"]);
        // A promoted piece keeps its plus.
        assert_eq!(line("4k/5/5/1+P3/K4 b - 1", &["4d4c"]), ["+P-43"]);
    }
}
