//! [`Book`]: positions by key, each with its moves.

use gogo_rules::{KeyMap, Move, PackedPosition, Position, Rng};
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

/// How many games a searched eval weighs as, against a move's own results
/// ([`BookMove::learned_eval`]).
pub const EVAL_WEIGHT_IN_GAMES: f64 = 10.0;

impl BookMove {
    /// Games counted after it (wins, draws and losses).
    pub fn games(&self) -> u64 {
        self.wdl.iter().sum()
    }

    /// Its eval corrected by its games' results: the eval's expected score on `scale` (a
    /// logistic curve, the evaluation's calibration) counts as [`EVAL_WEIGHT_IN_GAMES`] games,
    /// the move's own wins (and half its draws) are added, and the mean is turned back into
    /// centipawns. A move no game tried keeps its eval; one its games keep losing falls
    /// below one they win, however close their evals: against an opponent that answers
    /// alike every time, a line's results say what its eval cannot.
    pub fn learned_eval(&self, scale: f64) -> i32 {
        let games = self.games();
        if games == 0 || scale <= 0.0 {
            return self.eval;
        }
        let prior = 1.0 / (1.0 + (-f64::from(self.eval) / scale).exp());
        let scored = self.wdl[0] as f64 + self.wdl[1] as f64 / 2.0;
        let mean = (EVAL_WEIGHT_IN_GAMES * prior + scored) / (EVAL_WEIGHT_IN_GAMES + games as f64);
        let mean = mean.clamp(1e-4, 1.0 - 1e-4);
        (scale * (mean / (1.0 - mean)).ln()).round() as i32
    }
}

/// A position of the book and its moves, best first, as [`Book::positions`] gives them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookPosition<'a> {
    /// The position (its move number is the ply the file gave, not part of the match).
    pub position: Position,
    /// Its moves, by eval, then count.
    pub moves: &'a [BookMove],
}

/// What the book keeps of a position: packed (a large book holds millions; a
/// [`Position`] is five times the size), with its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    position: PackedPosition,
    moves: Vec<BookMove>,
}

/// An opening book.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    positions: KeyMap<Entry>,
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

    /// Whether the book has `pos` (by key: a transposition finds it too).
    pub fn contains(&self, pos: &Position) -> bool {
        self.positions.contains_key(&pos.key())
    }

    /// Every move the book keeps for `pos` (by key), best first; [`Book::moves`] gives those
    /// legal there.
    pub fn stored_moves(&self, pos: &Position) -> Option<&[BookMove]> {
        self.positions.get(&pos.key()).map(|e| &e.moves[..])
    }

    /// The moves the book gives for `pos` that are legal there, best first.
    pub fn moves(&self, pos: &Position) -> Vec<&BookMove> {
        self.stored_moves(pos)
            .map(|moves| moves.iter().filter(|m| pos.is_legal(m.mv)).collect())
            .unwrap_or_default()
    }

    /// Every position, in no order.
    pub fn positions(&self) -> impl Iterator<Item = BookPosition<'_>> {
        self.positions.values().map(|e| BookPosition {
            position: e.position.unpack(),
            moves: &e.moves,
        })
    }

    /// Adds `mv` in `pos`, or merges it into the move there: counts and results add up, and
    /// the deeper search's eval stands (an equal depth: the new one). A move that is not legal
    /// in `pos` is not added (returns false).
    pub fn add(&mut self, pos: &Position, mv: BookMove) -> bool {
        if !pos.is_legal(mv.mv) {
            return false;
        }
        let entry = self.positions.entry(pos.key()).or_insert_with(|| Entry {
            position: PackedPosition::pack(pos),
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
            None => {
                // Most positions have a move or two: a Vec's first growth (to four) would
                // hold a large book at several times its file's size.
                entry.moves.reserve_exact(1);
                entry.moves.push(mv);
            }
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
        for entry in other.positions() {
            for mv in entry.moves {
                self.add(&entry.position, mv.clone());
            }
        }
    }

    /// The move to play in `pos`: among the legal book moves whose [learned
    /// eval](BookMove::learned_eval) is within `margin` of the best, one chosen by `rng` with
    /// a weight of its count plus one (a move games never tried can still come). Where some
    /// moves have a searched eval, only those count (a move from games alone has no eval to
    /// compare). `scale` is the score scale of the evals (the evaluation's, fitted to game
    /// results). `None` when the book has no legal move here.
    pub fn choose(
        &self,
        pos: &Position,
        margin: i32,
        scale: f64,
        rng: &mut Rng,
    ) -> Option<&BookMove> {
        let mut moves = self.moves(pos);
        if moves.iter().any(|m| m.depth > 0) {
            moves.retain(|m| m.depth > 0);
        }
        let learned: Vec<i32> = moves.iter().map(|m| m.learned_eval(scale)).collect();
        let best = learned.iter().copied().max()?;
        let near: Vec<&BookMove> = moves
            .into_iter()
            .zip(learned)
            .filter(|&(_, eval)| best.saturating_sub(eval) <= margin.max(0))
            .map(|(m, _)| m)
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

    /// Every position the book reaches `plies` plies from `start` by its moves (a move
    /// counts where its child is a book position), each once with the first line found to it
    /// (moves best first, lines in the order of the positions they come from), in that
    /// order; the position's eval is its best searched move's, for the side to move. Opening
    /// sets for matches come from here.
    ///
    /// Breadth first, one depth at a time, each position met once per depth by its key: a
    /// transposition or a cycle is not walked again, so the work is at most the book's size
    /// a ply (it stops early where no line goes on), without recursion, whatever `plies`.
    pub fn lines(&self, start: &Position, plies: usize) -> Vec<(Vec<Move>, i32)> {
        if !self.contains(start) {
            return Vec::new();
        }
        // Every node reached: the move to it and its parent's index (lines are read back
        // from these at the end, so no line is copied at each depth).
        let mut nodes: Vec<(Option<Move>, usize)> = vec![(None, 0)];
        let mut frontier: Vec<(Position, usize)> = vec![(start.clone(), 0)];
        for _ in 0..plies {
            let mut seen = std::collections::HashSet::new();
            let mut next = Vec::new();
            for (pos, index) in &frontier {
                for m in self.moves(pos) {
                    let child = pos.played(m.mv);
                    if self.contains(&child) && seen.insert(child.key()) {
                        nodes.push((Some(m.mv), *index));
                        next.push((child, nodes.len() - 1));
                    }
                }
            }
            if next.is_empty() {
                return Vec::new();
            }
            frontier = next;
        }
        frontier
            .into_iter()
            .map(|(pos, mut index)| {
                let mut line = Vec::with_capacity(plies);
                while let (Some(mv), parent) = nodes[index] {
                    line.push(mv);
                    index = parent;
                }
                line.reverse();
                // A move from games alone has no eval to stand for the position.
                let moves = self.stored_moves(&pos).expect("a book position");
                let searched = moves.iter().filter(|m| m.depth > 0);
                (line, searched.map(|m| m.eval).max().unwrap_or(0))
            })
            .collect()
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
                let position = entry.position.unpack();
                for m in &mut entry.moves {
                    let child = position.played(m.mv).key();
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

    fn no_games(m: BookMove) -> BookMove {
        BookMove { wdl: [0; 3], ..m }
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
        let moves = book.stored_moves(&pb).unwrap();
        assert_eq!(moves.len(), 1);
        assert_eq!(moves[0].count, 5);
        assert_eq!(moves[0].wdl, [5, 0, 0]);
        // An illegal move is not added.
        assert!(!book.add(&start, book_move("5a4a", 0, 1)));
    }

    #[test]
    fn the_choice_stays_within_the_margin_and_follows_the_counts() {
        let start = Position::startpos();
        let mut book = Book::new();
        book.add(&start, no_games(book_move("2e3d", 50, 90)));
        book.add(&start, no_games(book_move("3e2d", 40, 10)));
        book.add(&start, no_games(book_move("1e1d", -200, 1000)));
        let mut rng = Rng::new(1);
        let mut picks = HashMap::new();
        for _ in 0..2000 {
            let m = book.choose(&start, 30, 300.0, &mut rng).unwrap();
            *picks.entry(m.mv.to_string()).or_insert(0) += 1;
        }
        assert!(!picks.contains_key("1e1d"), "{picks:?}");
        assert!(picks["2e3d"] > 5 * picks["3e2d"], "{picks:?}");
        assert!(picks["3e2d"] > 50, "{picks:?}");
        // A margin of 0: the best only.
        assert_eq!(
            book.choose(&start, 0, 300.0, &mut rng)
                .unwrap()
                .mv
                .to_string(),
            "2e3d"
        );
        assert!(book
            .choose(
                &start.played(start.parse_move("2e3d").unwrap()),
                30,
                300.0,
                &mut rng
            )
            .is_none());
    }

    #[test]
    fn results_move_the_choice() {
        let start = Position::startpos();
        let scale = 300.0;
        let with = |eval, wdl| BookMove {
            wdl,
            ..book_move("2e3d", eval, 0)
        };
        // No games: the eval itself.
        assert_eq!(with(40, [0, 0, 0]).learned_eval(scale), 40);
        // Lost games pull it down, won games up, more games further; draws count half.
        let lost = with(40, [1, 0, 9]).learned_eval(scale);
        let won = with(40, [9, 0, 1]).learned_eval(scale);
        assert!(lost < -50 && won > 100, "{lost} {won}");
        assert!(with(40, [2, 0, 18]).learned_eval(scale) < lost);
        assert_eq!(with(0, [0, 10, 0]).learned_eval(scale), 0);
        // Between two moves of equal eval, the one its games win is chosen at margin 0.
        let mut book = Book::new();
        book.add(
            &start,
            BookMove {
                wdl: [2, 0, 8],
                ..book_move("2e3d", 20, 10)
            },
        );
        book.add(
            &start,
            BookMove {
                wdl: [6, 0, 4],
                ..book_move("4e4d", 15, 10)
            },
        );
        let mut rng = Rng::new(3);
        for _ in 0..20 {
            let m = book.choose(&start, 0, scale, &mut rng).unwrap();
            assert_eq!(m.mv.to_string(), "4e4d");
        }
    }

    #[test]
    fn lines_reach_each_book_position_once() {
        let start = Position::startpos();
        let play = |moves: &[&str]| {
            moves
                .iter()
                .fold(start.clone(), |p, m| p.played(p.parse_move(m).unwrap()))
        };
        let mut book = Book::new();
        book.add(&start, book_move("2e3d", 10, 1));
        book.add(&start, book_move("3e2d", 5, 1));
        book.add(&start, book_move("1e1d", -300, 1));
        book.add(&play(&["2e3d"]), book_move("2a2b", 20, 1));
        book.add(&play(&["3e2d"]), book_move("2a2b", 30, 1));
        // Two lines to one position at ply 3 (it counts once); 1e1d's child is not a book
        // position, so no line goes through it.
        book.add(&play(&["2e3d", "2a2b"]), book_move("3e2d", -40, 1));
        book.add(&play(&["3e2d", "2a2b"]), book_move("2e3d", -40, 1));
        book.add(&play(&["2e3d", "2a2b", "3e2d"]), book_move("3a4b", 45, 1));
        let texts: Vec<String> = book
            .lines(&start, 1)
            .iter()
            .map(|(l, e)| format!("{} {e}", l[0]))
            .collect();
        assert_eq!(texts, ["2e3d 20", "3e2d 30"]);
        assert_eq!(book.lines(&start, 2).len(), 2);
        let at_three = book.lines(&start, 3);
        assert_eq!(at_three.len(), 1, "{at_three:?}");
        assert_eq!(at_three[0].0.len(), 3);
        assert_eq!(at_three[0].1, 45);
        assert!(book.lines(&start, 4).is_empty());
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
        assert_eq!(book.stored_moves(&start).unwrap()[0].eval, -120);
    }
}
