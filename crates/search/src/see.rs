//! Static exchange evaluation: the material outcome of the capture sequence on one square,
//! each side capturing with its least valuable piece and free to stop. Pins are ignored.

use crate::params::{board_value, capture_gain};
use gogo_rules::{Move, MoveKind, PieceKind, Position};

/// The exchange value of `mv` for the side making it, in centipawns.
pub fn see(pos: &Position, mv: Move) -> i32 {
    let MoveKind::Board { from, to, promote } = mv.kind() else {
        return 0; // a drop captures nothing; the search finds out whether it hangs
    };
    let Some(mover) = pos.piece_at(from) else {
        return 0;
    };
    let mut occupied = pos.occupied().without(from);
    let mut on_square = if promote {
        mover.kind.promote()
    } else {
        mover.kind
    };
    let mut gains = [0i32; 32];
    gains[0] = pos.captured_piece(mv).map_or(0, |p| capture_gain(p.kind)) + board_value(on_square)
        - board_value(mover.kind);
    let mut side = !mover.color;
    let mut depth = 0;
    loop {
        let attackers = pos.attackers_to(to, side, occupied) & occupied;
        let Some((sq, kind)) = attackers
            .map(|s| (s, pos.piece_at(s).expect("attacker").kind))
            .min_by_key(|&(_, k)| {
                if k == PieceKind::King {
                    i32::MAX
                } else {
                    board_value(k)
                }
            })
        else {
            break;
        };
        if kind == PieceKind::King && !(pos.attackers_to(to, !side, occupied) & occupied).is_empty()
        {
            break; // the king may not capture into a defended square
        }
        depth += 1;
        if depth >= gains.len() {
            break;
        }
        gains[depth] = capture_gain(on_square) - gains[depth - 1];
        on_square = kind;
        occupied = occupied.without(sq);
        side = !side;
    }
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_of(sfen: &str, mv: &str) -> i32 {
        let pos = Position::from_sfen(sfen).unwrap();
        see(&pos, pos.parse_move(mv).unwrap())
    }

    #[test]
    fn exchanges() {
        // A free pawn: pawn goes to hand.
        assert_eq!(
            see_of("k4/5/2p2/2R2/4K b - 1", "3d3c"),
            capture_gain(PieceKind::Pawn)
        );
        // Rook takes a pawn defended by a gold: loses the rook for a pawn.
        let v = see_of("k4/2g2/2p2/2R2/4K b - 1", "3d3c");
        assert_eq!(
            v,
            capture_gain(PieceKind::Pawn) - capture_gain(PieceKind::Rook)
        );
        // Silver takes a defended gold and is retaken: gold for silver.
        let v = see_of("k4/2s2/2g2/2S2/4K b - 1", "3d3c");
        assert_eq!(
            v,
            capture_gain(PieceKind::Gold) - capture_gain(PieceKind::Silver)
        );
    }
}
