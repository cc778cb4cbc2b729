//! Static evaluation: material (board and hand valued apart), piece-square terms, mobility of
//! the long-range pieces, and king safety (attackers and drop threats against defenders).
//! Weights live in [`crate::weights`].

use crate::weights::{Weights, WEIGHTS};

/// The hand-made evaluation's score scale, from its weights file's header (see
/// [`crate::nnue::score_scale_in`]).
pub fn classical_score_scale() -> f64 {
    crate::nnue::score_scale_in(include_str!("tuned_weights.rs"))
        .expect("tuned_weights.rs gives its score scale")
}
use gogo_rules::attacks::{attacks, king_attacks};
use gogo_rules::{Bitboard, Color, PieceKind, Position};

/// Evaluation from the side to move's point of view, in centipawns.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &WEIGHTS)
}

/// [`evaluate`] with other weights (the tuner's way in).
pub fn evaluate_with(pos: &Position, w: &Weights) -> i32 {
    let occupied = pos.occupied();
    let mut score = [0i32; 2];
    // Squares attacked by each side, by its pieces other than the king, and twice.
    let mut attacked = [Bitboard::EMPTY; 2];
    let mut attacked_no_king = [Bitboard::EMPTY; 2];
    // Against each colour's king: attackers, their summed weight, attacks on the zone.
    let mut attackers = [0i32; 2];
    let mut attacker_weight = [0i32; 2];
    let mut zone_attacks = [0i32; 2];
    let kings = [pos.king_square(Color::Sente), pos.king_square(Color::Gote)];
    let zones = [king_attacks(kings[0]), king_attacks(kings[1])];

    for color in Color::ALL {
        let us = color.index();
        let enemy_zone = zones[1 - us];
        for sq in pos.pieces(color) {
            let kind = pos.piece_at(sq).expect("occupied").kind;
            let k = kind.index();
            score[us] += w.board_value[k] + w.psqt[k][sq.relative_index(color)];
            if kind != PieceKind::King {
                score[us] += w.own_king_distance[k][sq.distance(kings[us]) as usize - 1];
            }
            score[us] += w.enemy_king_distance[k][sq.distance(kings[1 - us]) as usize - 1];
            let reach = attacks(color, kind, sq, occupied);
            attacked[us] |= reach;
            if kind != PieceKind::King {
                attacked_no_king[us] |= reach;
            }
            if w.mobility[k] != 0 {
                score[us] += w.mobility[k] * (reach & !pos.pieces(color)).count() as i32;
            }
            let hits = reach & enemy_zone;
            if !hits.is_empty() && kind != PieceKind::King {
                attackers[1 - us] += 1;
                attacker_weight[1 - us] += w.king_attacker_weight[k];
                zone_attacks[1 - us] += hits.count() as i32;
            }
        }
        let hand = pos.hand(color);
        for kind in hand.kinds() {
            let n = hand.count(kind) as i32;
            score[us] += w.hand_value[kind.index()] * n + w.second_in_hand[kind.index()] * (n - 1);
        }
    }

    // King danger, Stockfish style, with drops: the pieces bearing on the king's zone, the
    // zone squares only the king defends, the safe squares where a piece in the enemy's hand
    // could be dropped with check, and the hand itself; less the generals beside the king.
    let empty = !occupied;
    for color in Color::ALL {
        let us = color.index();
        let them = !color;
        let king = kings[us];
        let zone = zones[us];
        let defenders = zone
            & pos.pieces(color)
            & (pos.pieces_of_kind(PieceKind::Gold)
                | pos.pieces_of_kind(PieceKind::Silver)
                | pos.pieces_of_kind(PieceKind::ProPawn)
                | pos.pieces_of_kind(PieceKind::ProSilver));
        let weak = zone & attacked[them.index()] & !attacked_no_king[us];
        let enemy_hand = pos.hand(them);
        let mut safe_drop_checks = 0;
        let mut hand_units = 0;
        for kind in enemy_hand.kinds() {
            // A piece of `them` on s checks the king exactly when a piece of `color` on the
            // king's square would attack s.
            let checks = attacks(color, kind, king, occupied) & empty & !attacked_no_king[us];
            safe_drop_checks += checks.count() as i32;
            hand_units += w.king_hand_weight[kind.index()] * enemy_hand.count(kind) as i32;
        }
        let danger = attackers[us] * attacker_weight[us] * w.king_danger_attackers
            + zone_attacks[us] * w.king_danger_zone_attack
            + weak.count() as i32 * w.king_danger_weak
            + safe_drop_checks * w.king_danger_drop_check
            + hand_units * w.king_danger_hand
            - defenders.count() as i32 * w.king_danger_defender;
        if danger > 0 {
            score[us] -= (danger * danger / w.king_danger_divisor).min(w.king_danger_max);
        }
    }

    let side = pos.side_to_move().index();
    score[side] - score[1 - side] + w.tempo
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced_and_symmetric() {
        let pos = Position::startpos();
        assert_eq!(evaluate(&pos), WEIGHTS.tempo);
        // The mirror image (colours swapped, board rotated) scores the same for the mover.
        let a = Position::from_sfen("k4/5/5/5/2G1K b P 1").unwrap();
        let b = Position::from_sfen("k1g2/5/5/5/4K w p 1").unwrap();
        assert_eq!(evaluate(&a), evaluate(&b));
    }

    #[test]
    fn material_counts() {
        let up_a_rook = Position::from_sfen("rbsgk/4p/5/P4/KGSBR b R 1");
        assert!(up_a_rook.is_err()); // three rooks: not a position
        let ahead = Position::from_sfen("1bsgk/4p/5/P4/KGSBR b R 1").unwrap();
        assert!(evaluate(&ahead) > 900);
        let behind = Position::from_sfen("1bsgk/4p/5/P4/KGSBR w R 1").unwrap();
        assert!(evaluate(&behind) < -800);
    }
}
