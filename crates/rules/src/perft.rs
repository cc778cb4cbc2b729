//! Perft: counting the leaves of the legal move tree, the contract for move generation.

use crate::moves::{Move, MoveList};
use crate::position::Position;

/// Number of leaf nodes `depth` plies below `pos` (bulk counted at the last ply).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    // One move list per ply, made once: filling a fresh list costs as much as generating.
    let mut lists: Vec<MoveList> = (0..depth).map(|_| MoveList::new()).collect();
    perft_with(pos, depth, &mut lists)
}

fn perft_with(pos: &Position, depth: u32, lists: &mut [MoveList]) -> u64 {
    let (list, deeper) = lists.split_first_mut().expect("one list per ply");
    list.clear();
    pos.generate_legal(list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut total = 0;
    for &mv in list.iter() {
        total += perft_with(&pos.played(mv), depth - 1, deeper);
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
