//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub use gogo_rules::Rng;
use gogo_rules::{Move, Position};

/// Positions of a random game from `start`, the start included, up to `max_plies` moves or
/// until the side to move has no legal move. Captures are preferred half of the time, so
/// that hands and promoted pieces are common.
pub fn random_game(
    start: &Position,
    rng: &mut Rng,
    max_plies: usize,
) -> Vec<(Position, Option<Move>)> {
    let mut out = vec![(start.clone(), None)];
    let mut pos = start.clone();
    for _ in 0..max_plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let noisy: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| pos.is_capture(m) || m.is_promotion())
            .collect();
        let mv = if !noisy.is_empty() && rng.below(2) == 0 {
            noisy[rng.below(noisy.len())]
        } else {
            moves.as_slice()[rng.below(moves.len())]
        };
        pos.play(mv);
        out.push((pos.clone(), Some(mv)));
    }
    out
}
