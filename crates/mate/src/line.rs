//! The mating line of a proven position.
//!
//! df-pn proves that a mate exists; the proof keeps, for each proven position, the length of
//! the mate it found. The line given is the shortest mate when it can be found in time: an
//! exact search over every check, deepened two plies at a time, finds the minimal mate
//! length of each position it meets (memoised, and skipping checks the table has disproven).
//! Its cost grows about sixfold every two plies, so it has a budget (half the proof's nodes,
//! and at least 200,000); past it, the line is the mate the proof found, read from the table
//! (the attacker's quickest proven check, the defender's longest-lasting answer), and no mate
//! shorter than the depth the exact search completed exists.
//!
//! Either way the attacker mates as soon as it can and the defender resists longest: at the
//! defender's turns, an answer that is mated last, a board move before a drop when they last
//! as long (interposing a piece that is simply taken, a "useless interposition" to tsume
//! composers, only when nothing else lasts as long).

use crate::solver::{table_key, Solver};
use crate::table::Entry;
use gogo_rules::{KeyMap, Move, MoveList, Position};

/// The least node budget of the exact search.
const MIN_EXACT_BUDGET: u64 = 200_000;

/// What is known of the shortest mate from a position with the attacker to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Known {
    /// It is exactly this many plies.
    Exactly(u32),
    /// It is longer than this many plies (or there is none).
    LongerThan(u32),
}

/// The exact search looks its memo up at every node: keys as they are.
type Memo = KeyMap<Known>;

struct ExactSearch<'a> {
    memo: Memo,
    solver: &'a mut Solver,
    /// The node count at which the budget is spent.
    budget_end: u64,
}

/// The defender's preference among answers mated after `plies`: longest first, then board
/// moves before drops.
fn resistance(plies: u32, answer: Move) -> (u32, bool) {
    (plies, !answer.is_drop())
}

/// Moves with the positions they lead to, visited in an order of their own (sorting indices
/// rather than positions, which are copied at every swap).
struct Ordered {
    moves: Vec<(Move, Position)>,
    order: Vec<((u32, u32), u8)>,
}

impl Ordered {
    fn new(moves: Vec<(Move, Position)>, order: Vec<((u32, u32), u8)>) -> Ordered {
        // Indices are u8: a position has fewer than 256 moves (gogo_rules::MAX_MOVES).
        debug_assert!(moves.len() <= u8::MAX as usize + 1);
        Ordered { moves, order }
    }

    fn iter(&self) -> impl Iterator<Item = &(Move, Position)> {
        self.order.iter().map(|&(_, i)| &self.moves[i as usize])
    }
}

impl ExactSearch<'_> {
    fn out_of_budget(&mut self) -> bool {
        self.solver.tick() || self.solver.nodes > self.budget_end
    }

    /// The checks of `pos`, those the table has disproven (on any path) left out, the most
    /// promising first: proven ones (shortest proof first), then by proof number.
    fn checks(&self, pos: &Position) -> Ordered {
        let mut list = MoveList::new();
        pos.generate_checks(&mut list);
        self.ordered(pos, &list, false, |entry| match entry {
            Some(e) if e.dn == 0 && !e.path_dependent => None,
            Some(e) if e.pn == 0 => Some((0, e.length as u32)),
            Some(e) => Some((1, e.pn)),
            None => Some((1, u32::MAX / 8)),
        })
    }

    /// The defender's answers after a check (`child`), the likeliest escapes first: those the
    /// table has disproven, then by disproof number, proven ones last (longest mate first),
    /// so that a check that fails is found to fail soon.
    fn answers(&self, child: &Position) -> Ordered {
        self.ordered(child, &child.legal_moves(), true, |entry| match entry {
            Some(e) if e.dn == 0 && !e.path_dependent => Some((0, 0)),
            Some(e) if e.pn == 0 => Some((2, u32::MAX - e.length as u32)),
            Some(e) => Some((1, e.dn)),
            None => Some((1, u32::MAX / 8)),
        })
    }

    /// `moves` from `pos` with the positions they lead to, ordered by `key` of each child's
    /// table entry (`None` leaves the move out). The entries are looked up in one loop once
    /// the positions are made, so that the cache misses overlap instead of following one
    /// another.
    fn ordered(
        &self,
        pos: &Position,
        moves: &MoveList,
        children_or_nodes: bool,
        key: impl Fn(Option<Entry>) -> Option<(u32, u32)>,
    ) -> Ordered {
        let moves: Vec<(Move, Position)> = moves.iter().map(|&mv| (mv, pos.played(mv))).collect();
        let entries: Vec<Option<Entry>> = moves
            .iter()
            .map(|(_, child)| self.solver.table.get(table_key(child, children_or_nodes)))
            .collect();
        let mut order: Vec<((u32, u32), u8)> = entries
            .into_iter()
            .enumerate()
            .filter_map(|(i, entry)| Some((key(entry)?, i as u8)))
            .collect();
        order.sort_by_key(|&(key, _)| key);
        Ordered::new(moves, order)
    }

    /// The length of the shortest mate from `pos` (attacker to move) if it is at most
    /// `limit` plies; `None` otherwise, or when the budget runs out.
    fn shortest(&mut self, pos: &Position, limit: u32) -> Option<u32> {
        if self.out_of_budget() {
            return None;
        }
        let key = pos.key();
        match self.memo.get(&key) {
            Some(&Known::Exactly(n)) => return (n <= limit).then_some(n),
            Some(&Known::LongerThan(n)) if limit <= n => return None,
            _ => {}
        }
        if limit == 0 {
            return None;
        }
        if limit < 3 {
            // Mate in one: no order to find, and no table to ask (a cache miss costs more
            // than looking).
            let mut list = MoveList::new();
            pos.generate_checks(&mut list);
            let mates = list.iter().any(|&mv| !pos.played(mv).has_legal_move());
            let known = if mates {
                Known::Exactly(1)
            } else {
                Known::LongerThan(limit)
            };
            self.memo.insert(key, known);
            return mates.then_some(1);
        }
        if let Some(e) = self.solver.table.get(table_key(pos, true)) {
            if e.dn == 0 && !e.path_dependent {
                return None;
            }
        }
        let mut best: Option<u32> = None;
        for (_, child) in self.checks(pos).iter() {
            if !child.has_legal_move() {
                best = Some(1);
                break;
            }
            // To beat the best so far, every answer must be mated within `cap - 2` plies.
            let cap = best.map_or(limit, |b| b - 2);
            if cap < 3 {
                continue;
            }
            let mut longest = 0;
            let mut all_mated = true;
            if cap - 2 < 3 {
                // Each answer is asked for a mate in one, which costs less than asking the
                // table (a cache miss each) for the likeliest escape first.
                for &answer in child.legal_moves().iter() {
                    if self.shortest(&child.played(answer), 1).is_none() {
                        all_mated = false;
                        break;
                    }
                }
                longest = 1;
            } else {
                for (_, next) in self.answers(child).iter() {
                    match self.shortest(next, cap - 2) {
                        Some(n) => longest = longest.max(n),
                        None => {
                            all_mated = false;
                            break;
                        }
                    }
                }
            }
            if all_mated {
                best = Some(2 + longest);
            }
        }
        if self.out_of_budget() {
            return None;
        }
        let known = best.map_or(Known::LongerThan(limit), Known::Exactly);
        self.memo.insert(key, known);
        best
    }

    /// The line of a mate of exactly `length` plies from `pos`.
    fn line(&mut self, pos: &Position, length: u32) -> Option<Vec<Move>> {
        for &(check, ref child) in self.checks(pos).iter() {
            let answers = child.legal_moves();
            if answers.is_empty() {
                if length == 1 {
                    return Some(vec![check]);
                }
                continue;
            }
            if length < 3 {
                continue;
            }
            // This check works when the defender's best answer is mated in `length - 2`.
            let mut best_answer: Option<(u32, Move)> = None;
            let mut all_mated = true;
            for &answer in answers.iter() {
                match self.shortest(&child.played(answer), length - 2) {
                    Some(n) => {
                        if best_answer.is_none_or(|(m, a)| resistance(n, answer) > resistance(m, a))
                        {
                            best_answer = Some((n, answer));
                        }
                    }
                    None => {
                        all_mated = false;
                        break;
                    }
                }
            }
            if let (true, Some((n, answer))) = (all_mated, best_answer) {
                if n == length - 2 {
                    let mut line = vec![check, answer];
                    line.extend(self.line(&child.played(answer), n)?);
                    return Some(line);
                }
            }
        }
        None
    }
}

/// The mate the proof found, read from the table: `None` if part of it is missing.
fn proof_line(root: &Position, solver: &Solver) -> Option<Vec<Move>> {
    let mut line = Vec::new();
    let mut pos = root.clone();
    loop {
        // The attacker: the proven check with the shortest mate.
        let mut best: Option<(u16, Move)> = None;
        for &check in Solver::moves(&pos, true).iter() {
            let child = pos.played(check);
            if let Some(e) = solver.table.get(table_key(&child, false)) {
                if e.pn == 0 && best.is_none_or(|(l, _)| e.length < l) {
                    best = Some((e.length, check));
                }
            }
        }
        let (_, check) = best?;
        line.push(check);
        pos.play(check);
        let answers = pos.legal_moves();
        if answers.is_empty() {
            return Some(line);
        }
        // The defender: the answer whose mate is longest; every answer must be proven.
        let mut best: Option<(u32, Move)> = None;
        for &answer in answers.iter() {
            let e = solver.table.get(table_key(&pos.played(answer), true))?;
            if e.pn != 0 {
                return None;
            }
            let n = e.length as u32;
            if best.is_none_or(|(m, a)| resistance(n, answer) > resistance(m, a)) {
                best = Some((n, answer));
            }
        }
        let (_, answer) = best?;
        line.push(answer);
        pos.play(answer);
        if line.len() > 1000 {
            return None;
        }
    }
}

/// A mating line from `root`, which the solver has proven after `proof_nodes` nodes, and
/// whether it is the shortest mate; `None` when the table lacks part of the proof or the
/// solver's limits run out.
pub(crate) fn mate_line(
    root: &Position,
    solver: &mut Solver,
    proof_nodes: u64,
) -> Option<(Vec<Move>, bool)> {
    let proof_length = solver
        .table
        .get(table_key(root, true))
        .map_or(u32::MAX, |e| e.length as u32);
    let budget_end = solver.nodes + (proof_nodes / 2).max(MIN_EXACT_BUDGET);
    let mut search = ExactSearch {
        memo: Memo::default(),
        solver,
        budget_end,
    };
    let mut limit = 1;
    while limit <= proof_length {
        if let Some(n) = search.shortest(root, limit) {
            if let Some(line) = search.line(root, n) {
                return Some((line, true));
            }
            break;
        }
        if search.out_of_budget() {
            break;
        }
        limit += 2;
    }
    if solver.tick() {
        return None;
    }
    proof_line(root, solver).map(|line| (line, false))
}
