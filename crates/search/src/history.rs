//! Move-ordering histories, typed by what indexes them: the butterfly history by side and
//! move, the continuation history by a (piece, destination) pair after another, and
//! countermoves by the previous move.

use crate::params::HISTORY_MAX;
use gogo_rules::{Color, Move, PieceKind, Position, Square};

/// A coloured piece kind and a destination square: what continuation history remembers of a
/// move. Drops and board moves of the same piece to the same square share an index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo(u16);

impl PieceTo {
    /// Number of distinct values: 2 colours x 10 kinds x 25 squares.
    pub const COUNT: usize = 2 * PieceKind::COUNT * Square::COUNT;

    /// The index of `color`'s `kind` arriving on `to`.
    #[inline]
    pub fn new(color: Color, kind: PieceKind, to: Square) -> PieceTo {
        PieceTo(
            ((color.index() * PieceKind::COUNT + kind.index()) * Square::COUNT + to.index()) as u16,
        )
    }

    /// The index of `mv` in `pos` (the kind before promotion), if a piece makes it.
    #[inline]
    pub fn of_move(pos: &Position, mv: Move) -> Option<PieceTo> {
        pos.moved_kind(mv)
            .map(|kind| PieceTo::new(pos.side_to_move(), kind, mv.to()))
    }

    /// The value as a table index below [`PieceTo::COUNT`].
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Moves `entry` towards `bonus` (positive rewards, negative punishes), never beyond
/// [`HISTORY_MAX`].
#[inline]
fn apply_gravity(entry: &mut i32, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
}

/// How often a quiet move caused a cutoff, by side to move and move.
#[derive(Clone)]
pub struct ButterflyHistory(Vec<[i32; Move::INDEX_COUNT]>);

impl ButterflyHistory {
    /// All zero.
    pub fn new() -> ButterflyHistory {
        ButterflyHistory(vec![[0; Move::INDEX_COUNT]; 2])
    }

    /// The score of `mv` for `color`.
    #[inline]
    pub fn get(&self, color: Color, mv: Move) -> i32 {
        self.0[color.index()][mv.index()]
    }

    /// Rewards (positive `bonus`) or punishes `mv` for `color`.
    #[inline]
    pub fn update(&mut self, color: Color, mv: Move, bonus: i32) {
        apply_gravity(&mut self.0[color.index()][mv.index()], bonus);
    }
}

impl Default for ButterflyHistory {
    fn default() -> Self {
        ButterflyHistory::new()
    }
}

/// How good a move was right after another, both as [`PieceTo`].
#[derive(Clone)]
pub struct ContinuationHistory(Vec<[i32; PieceTo::COUNT]>);

impl ContinuationHistory {
    /// All zero.
    pub fn new() -> ContinuationHistory {
        ContinuationHistory(vec![[0; PieceTo::COUNT]; PieceTo::COUNT])
    }

    /// The score of `current` after `previous`.
    #[inline]
    pub fn get(&self, previous: PieceTo, current: PieceTo) -> i32 {
        self.0[previous.index()][current.index()]
    }

    /// Rewards or punishes `current` after `previous`.
    #[inline]
    pub fn update(&mut self, previous: PieceTo, current: PieceTo, bonus: i32) {
        apply_gravity(&mut self.0[previous.index()][current.index()], bonus);
    }
}

impl Default for ContinuationHistory {
    fn default() -> Self {
        ContinuationHistory::new()
    }
}

/// The quiet move that last refuted each move.
#[derive(Clone)]
pub struct CounterMoves(Vec<Option<Move>>);

impl CounterMoves {
    /// Empty.
    pub fn new() -> CounterMoves {
        CounterMoves(vec![None; Move::INDEX_COUNT])
    }

    /// The refutation of `previous`, if one is known.
    #[inline]
    pub fn get(&self, previous: Move) -> Option<Move> {
        self.0[previous.index()]
    }

    /// Records `refutation` as the answer to `previous`.
    #[inline]
    pub fn set(&mut self, previous: Move, refutation: Move) {
        self.0[previous.index()] = Some(refutation);
    }
}

impl Default for CounterMoves {
    fn default() -> Self {
        CounterMoves::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_to_indices_are_distinct_and_in_range() {
        let mut seen = std::collections::HashSet::new();
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                for sq in Square::all() {
                    let i = PieceTo::new(color, kind, sq).index();
                    assert!(i < PieceTo::COUNT);
                    assert!(seen.insert(i));
                }
            }
        }
        assert_eq!(seen.len(), PieceTo::COUNT);
    }

    #[test]
    fn gravity_keeps_scores_bounded() {
        let mut h = ButterflyHistory::new();
        let mv: Move = "5d5c".parse().unwrap();
        for _ in 0..1000 {
            h.update(Color::Sente, mv, 1600);
        }
        assert!(h.get(Color::Sente, mv) <= HISTORY_MAX);
        assert!(h.get(Color::Sente, mv) > HISTORY_MAX / 2);
        assert_eq!(h.get(Color::Gote, mv), 0);
        for _ in 0..1000 {
            h.update(Color::Sente, mv, -1600);
        }
        assert!(h.get(Color::Sente, mv) >= -HISTORY_MAX);
        assert!(h.get(Color::Sente, mv) < 0);
    }
}
