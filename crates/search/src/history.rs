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

/// What indexes a history table's rows or columns: a side, a move, a [`PieceTo`].
pub trait HistoryKey: Copy {
    /// The number of distinct keys.
    const COUNT: usize;
    /// The key as an index below [`HistoryKey::COUNT`].
    fn index(self) -> usize;
}

impl HistoryKey for Color {
    const COUNT: usize = 2;
    #[inline]
    fn index(self) -> usize {
        Color::index(self)
    }
}

impl HistoryKey for Move {
    const COUNT: usize = Move::INDEX_COUNT;
    #[inline]
    fn index(self) -> usize {
        Move::index(self)
    }
}

impl HistoryKey for PieceTo {
    const COUNT: usize = PieceTo::COUNT;
    #[inline]
    fn index(self) -> usize {
        PieceTo::index(self)
    }
}

/// A move-ordering history: a score by a row key and a column key (`WIDTH` is the column
/// key's count), moved towards each bonus by the gravity formula and never beyond
/// [`HISTORY_MAX`]. One table for every history the search keeps.
#[derive(Clone)]
pub struct History<Row, Column, const WIDTH: usize> {
    table: Vec<[i32; WIDTH]>,
    keys: std::marker::PhantomData<(Row, Column)>,
}

impl<Row: HistoryKey, Column: HistoryKey, const WIDTH: usize> History<Row, Column, WIDTH> {
    /// All zero.
    pub fn new() -> Self {
        debug_assert_eq!(WIDTH, Column::COUNT);
        History {
            table: vec![[0; WIDTH]; Row::COUNT],
            keys: std::marker::PhantomData,
        }
    }

    /// The score of `column` under `row`.
    #[inline]
    pub fn get(&self, row: Row, column: Column) -> i32 {
        self.table[row.index()][column.index()]
    }

    /// Rewards (positive `bonus`) or punishes `column` under `row`.
    #[inline]
    pub fn update(&mut self, row: Row, column: Column, bonus: i32) {
        apply_gravity(&mut self.table[row.index()][column.index()], bonus);
    }
}

impl<Row: HistoryKey, Column: HistoryKey, const WIDTH: usize> Default
    for History<Row, Column, WIDTH>
{
    fn default() -> Self {
        History::new()
    }
}

/// How often a quiet move caused a cutoff, by side to move and move.
pub type ButterflyHistory = History<Color, Move, { Move::INDEX_COUNT }>;

/// How good a move was right after another, both as [`PieceTo`].
pub type ContinuationHistory = History<PieceTo, PieceTo, { PieceTo::COUNT }>;

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
