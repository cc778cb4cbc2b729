//! Perft: counting the leaves of the legal move tree, the contract for move generation.

use crate::moves::{Move, MoveList};
use crate::position::Position;
use std::sync::atomic::{AtomicBool, Ordering};

/// The deepest perft there is: far beyond what finishes (depth 10 already takes hours),
/// and a bound on the move lists made up front.
pub const MAX_PERFT_DEPTH: u32 = 32;

/// Number of leaf nodes `depth` plies below `pos` (bulk counted at the last ply); `depth` is
/// at most [`MAX_PERFT_DEPTH`] (deeper counts as that).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    perft_until(pos, depth, &AtomicBool::new(false))
}

/// [`perft`] that gives up once `stop` is set: then the count so far, short of the total.
pub fn perft_until(pos: &Position, depth: u32, stop: &AtomicBool) -> u64 {
    let depth = depth.min(MAX_PERFT_DEPTH);
    if depth == 0 {
        return 1;
    }
    // One move list per ply, made once: filling a fresh list costs as much as generating.
    let mut lists: Vec<MoveList> = (0..depth).map(|_| MoveList::new()).collect();
    perft_with(pos, depth, &mut lists, stop)
}

fn perft_with(pos: &Position, depth: u32, lists: &mut [MoveList], stop: &AtomicBool) -> u64 {
    let (list, deeper) = lists.split_first_mut().expect("one list per ply");
    list.clear();
    pos.generate_legal(list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut total = 0;
    for &mv in list.iter() {
        // Asked above the last two plies only, where a node costs a whole move list.
        if depth > 2 && stop.load(Ordering::Relaxed) {
            break;
        }
        total += perft_with(&pos.played(mv), depth - 1, deeper, stop);
    }
    total
}

/// Leaf counts per root move, in generation order.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&mv| (mv, perft(&pos.played(mv), depth - 1)))
        .collect()
}

/// Number of mating pawn drops at the last ply of a `depth`-ply perft: the leaves that
/// programs which count such drops as (losing) legal moves find in addition to ours. A
/// mating drop before the last ply ends the line there, so it adds nothing deeper.
pub fn perft_mating_pawn_drops(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 0,
        1 => pos.mating_pawn_drop().is_some() as u64,
        _ => pos
            .legal_moves()
            .iter()
            .map(|&mv| perft_mating_pawn_drops(&pos.played(mv), depth - 1))
            .sum(),
    }
}
