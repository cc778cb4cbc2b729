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
        let Some(mv) = rng.pick_move(&pos) else {
            break;
        };
        pos.play(mv);
        out.push((pos.clone(), Some(mv)));
    }
    out
}
