//! [`Book`]: positions by key, each with its moves.

use gogo_rules::{Move, Position, Rng};
use std::collections::HashMap;

/// A move of a book position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// The expected reply, if known.
    pub ponder: Option<Move>,
    /// Its evaluation for the mover, centipawns (the search's score scale).
    pub eval: i32,
    /// The depth of the search that gave `eval` (0: from games only).
    pub depth: i32,
    /// How often it was played (games), or a weight.
    pub count: u64,
    /// The games' results after it, from the mover's side: wins, draws, losses.
    pub wdl: [u64; 3],
}

/// A position of the book and its moves, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookPosition {
    /// The position (its move number is the ply the file gave, not part of the match).
    pub position: Position,
    /// Its moves, by eval, then count.
    pub moves: Vec<BookMove>,
}

/// An opening book.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    positions: HashMap<u64, BookPosition>,
}

impl Book {
    /// An empty book.
    pub fn new() -> Book {
        Book::default()
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether it has no position.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The book's entry for `pos` (by key: a transposition finds it too).
    pub fn get(&self, pos: &Position) -> Option<&BookPosition> {
        self.positions.get(&pos.key())
    }

    /// The moves the book gives for `pos` that are legal there, best first.
    pub fn moves(&self, pos: &Position) -> Vec<&BookMove> {
        self.get(pos)
            .map(|entry| entry.moves.iter().filter(|m| pos.is_legal(m.mv)).collect())
            .unwrap_or_default()
    }

    /// Every position, in no order.
    pub fn positions(&self) -> impl Iterator<Item = &BookPosition> {
        self.positions.values()
    }

    /// Adds `mv` in `pos`, or merges it into the move there: counts and results add up, and
    /// the deeper search's eval stands (an equal depth: the new one). A move that is not legal
    /// in `pos` is not added (returns false).
    pub fn add(&mut self, pos: &Position, mv: BookMove) -> bool {
        if !pos.is_legal(mv.mv) {
            return false;
        }
        let entry = self
            .positions
            .entry(pos.key())
            .or_insert_with(|| BookPosition {
                position: pos.clone(),
                moves: Vec::new(),
            });
        match entry.moves.iter_mut().find(|m| m.mv == mv.mv) {
            Some(old) => {
                old.count += mv.count;
                for (a, b) in old.wdl.iter_mut().zip(mv.wdl) {
                    *a += b;
                }
                if mv.depth >= old.depth {
                    old.eval = mv.eval;
                    old.depth = mv.depth;
                    old.ponder = mv.ponder.or(old.ponder);
                }
            }
            None => entry.moves.push(mv),
        }
        sort_moves(&mut entry.moves);
        true
    }

    /// Sets the games' results after `mv` in `pos`, if the book has that move.
    pub fn set_wdl(&mut self, pos: &Position, mv: Move, wdl: [u64; 3]) {
        if let Some(m) = self
            .positions
            .get_mut(&pos.key())
            .and_then(|e| e.moves.iter_mut().find(|m| m.mv == mv))
        {
            m.wdl = wdl;
        }
    }

    /// Every position and move of `other` added to this book.
    pub fn merge(&mut self, other: &Book) {
        for entry in other.positions.values() {
            for mv in &entry.moves {
                self.add(&entry.position, mv.clone());
            }
        }
    }

    /// The move to play in `pos`: among the legal book moves whose eval is within `margin`
    /// of the best, one chosen by `rng` with a weight of its count plus one (a move games
    /// never tried can still come). Where some moves have a searched eval, only those count
    /// (a move from games alone has no eval to compare). `None` when the book has no legal
    /// move here.
    pub fn choose(&self, pos: &Position, margin: i32, rng: &mut Rng) -> Option<&BookMove> {
        let mut moves = self.moves(pos);
        if moves.iter().any(|m| m.depth > 0) {
            moves.retain(|m| m.depth > 0);
        }
        let best = moves.iter().map(|m| m.eval).max()?;
        let near: Vec<&BookMove> = moves
            .into_iter()
            .filter(|m| best.saturating_sub(m.eval) <= margin.max(0))
            .collect();
        let total: u64 = near.iter().map(|m| m.count + 1).sum();
        let mut at = rng.next_u64() % total.max(1);
        for m in &near {
            if at < m.count + 1 {
                return Some(m);
            }
            at -= m.count + 1;
        }
        near.last().copied()
    }

    /// The minimax value of the book: each move whose child position is in the book (and has
    /// a searched move) takes the negated best eval of that child, from the leaves up, so a
    /// position's eval is its best child's. Runs until nothing changes (a book is a graph:
    /// transpositions, and cycles at most `rounds` deep).
    pub fn back_up(&mut self, rounds: usize) {
        for _ in 0..rounds {
            let best: HashMap<u64, i32> = self
                .positions
                .iter()
                .filter_map(|(&k, e)| {
                    e.moves
                        .iter()
                        .filter(|m| m.depth > 0)
                        .map(|m| m.eval)
                        .max()
                        .map(|b| (k, b))
                })
                .collect();
            let mut changed = false;
            for entry in self.positions.values_mut() {
                for m in &mut entry.moves {
                    let child = entry.position.played(m.mv).key();
                    if let Some(&b) = best.get(&child) {
                        if m.eval != -b || m.depth == 0 {
                            m.eval = -b;
                            // Its eval is a search's now, one ply further.
                            m.depth = m.depth.max(1);
                            changed = true;
                        }
                    }
                }
                sort_moves(&mut entry.moves);
            }
            if !changed {
                break;
            }
        }
    }
}

fn sort_moves(moves: &mut [BookMove]) {
    moves.sort_by(|a, b| {
        b.eval
            .cmp(&a.eval)
            .then(b.count.cmp(&a.count))
            .then(a.mv.bits().cmp(&b.mv.bits()))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book_move(text: &str, eval: i32, count: u64) -> BookMove {
        BookMove {
            mv: text.parse().unwrap(),
            ponder: None,
            eval,
            depth: 10,
            count,
            wdl: [count, 0, 0],
        }
    }

    #[test]
    fn transpositions_meet_and_moves_merge() {
        let start = Position::startpos();
        let mut book = Book::new();
        // Two move orders to one position.
        let a = ["2e3d", "2a2b", "3e2d", "3a4b"];
        let b = ["3e2d", "3a4b", "2e3d", "2a2b"];
        let play = |moves: &[&str]| {
            moves
                .iter()
                .fold(start.clone(), |p, m| p.played(p.parse_move(m).unwrap()))
        };
        let (pa, pb) = (play(&a), play(&b));
        assert_eq!(pa.key(), pb.key());
        assert!(book.add(&pa, book_move("1e1d", 30, 2)));
        assert!(book.add(&pb, book_move("1e1d", 20, 3)));
        assert_eq!(book.len(), 1);
        let entry = book.get(&pb).unwrap();
        assert_eq!(entry.moves.len(), 1);
        assert_eq!(entry.moves[0].count, 5);
        assert_eq!(entry.moves[0].wdl, [5, 0, 0]);
        // An illegal move is not added.
        assert!(!book.add(&start, book_move("5a4a", 0, 1)));
    }

    #[test]
    fn the_choice_stays_within_the_margin_and_follows_the_counts() {
        let start = Position::startpos();
        let mut book = Book::new();
        book.add(&start, book_move("2e3d", 50, 90));
        book.add(&start, book_move("3e2d", 40, 10));
        book.add(&start, book_move("1e1d", -200, 1000));
        let mut rng = Rng::new(1);
        let mut picks = HashMap::new();
        for _ in 0..2000 {
            let m = book.choose(&start, 30, &mut rng).unwrap();
            *picks.entry(m.mv.to_string()).or_insert(0) += 1;
        }
        assert!(!picks.contains_key("1e1d"), "{picks:?}");
        assert!(picks["2e3d"] > 5 * picks["3e2d"], "{picks:?}");
        assert!(picks["3e2d"] > 50, "{picks:?}");
        // A margin of 0: the best only.
        assert_eq!(
            book.choose(&start, 0, &mut rng).unwrap().mv.to_string(),
            "2e3d"
        );
        assert!(book
            .choose(
                &start.played(start.parse_move("2e3d").unwrap()),
                30,
                &mut rng
            )
            .is_none());
    }

    #[test]
    fn values_back_up_from_the_children() {
        let start = Position::startpos();
        let mv: Move = start.parse_move("2e3d").unwrap();
        let child = start.played(mv);
        let mut book = Book::new();
        book.add(&start, book_move("2e3d", 50, 1));
        book.add(&child, book_move("4a3b", 120, 1));
        book.add(&child, book_move("5a4a", -10, 1));
        book.back_up(8);
        assert_eq!(book.get(&start).unwrap().moves[0].eval, -120);
    }
}
