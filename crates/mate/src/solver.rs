//! Depth-first proof-number search (df-pn) over tsume rules.
//!
//! Proof and disproof numbers are the attacker's: a proof number of 0 means mate is proven.
//! At an OR node (attacker to move) the children are the checks; at an AND node (defender to
//! move) every legal move. [`Solver::mid`] numbers its steps: the children are read from the
//! table (or given df-pn+ initial numbers from their own move counts), the node's numbers are
//! combined and stored, and the most promising child is searched with thresholds widened by
//! the 1+ε trick, until the node's own thresholds are reached.
//!
//! Repetitions: a child whose position is already on the path is disproven for this path
//! only. Such disproofs, and those derived from them, are stored marked path-dependent; a
//! marked disproof read from the table on another path is not trusted (the node is searched
//! again), so no answer rests on a path it was not found on (the GHI problem).
//!
//! A proven node also keeps the length of the mate its proof found, from which a mating line
//! can always be read; [`crate::line`] looks for a shorter one.

use crate::line;
use crate::table::{Entry, ProofTable, TableSizeError, INFINITE};
use gogo_rules::{Move, MoveList, Position};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The 1+ε trick's ε, as a divisor: a child may go a quarter beyond its sibling's number.
const EPSILON_DIVISOR: u32 = 4;
/// Paths longer than this are given up as failures of the attacker (for this path only).
const MAX_PATH: usize = 400;
/// The least work a proven entry counts as, so that the table keeps the proof tree.
const PROOF_WORK: u64 = 1 << 20;
/// Table keys of AND nodes are the position key XOR this: the same position is an OR node
/// when its side to move attacks and an AND node when it defends, and their numbers differ.
const AND_NODE_SALT: u64 = 0x6a09_e667_f3bc_c909;

/// The proof table's key of `pos` as an OR node (attacker to move) or an AND node.
#[inline]
pub(crate) fn table_key(pos: &Position, or_node: bool) -> u64 {
    if or_node {
        pos.key()
    } else {
        pos.key() ^ AND_NODE_SALT
    }
}

/// When to give up.
#[derive(Clone, Debug, Default)]
pub struct MateLimits {
    /// Node budget.
    pub nodes: Option<u64>,
    /// Time budget.
    pub time: Option<Duration>,
    /// Stopped from elsewhere (USI `stop`): the engine's one control for every job, seen
    /// through [`StopSignal`].
    pub stop: Option<Arc<dyn StopSignal>>,
}

/// A plain stop signal, polled every few hundred nodes: the solver needs nothing more of
/// whoever stops it (the engine's control for every job, or a flag).
pub trait StopSignal: Send + Sync + std::fmt::Debug {
    /// Whether to stop now.
    fn stopped(&self) -> bool;
}

impl StopSignal for std::sync::atomic::AtomicBool {
    fn stopped(&self) -> bool {
        self.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// What the solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateResult {
    /// A forced mate: the attacker's checks and the defender's answers, the defender
    /// resisting longest (see [`crate::line`] for which mate).
    Mate(Vec<Move>),
    /// No mate by checks exists.
    NoMate,
    /// The limits ran out first.
    Unknown,
}

/// A result with what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MateOutcome {
    /// The answer.
    pub result: MateResult,
    /// Nodes searched (df-pn and line extraction).
    pub nodes: u64,
    /// Of those, the nodes of the line extraction.
    pub line_nodes: u64,
    /// For [`MateResult::NoMate`]: the attacker could check on forever, and only the
    /// repetition rule (perpetual check does not mate) refutes it.
    pub perpetual: bool,
    /// For [`MateResult::Mate`]: whether the line is the shortest mate (the exact search
    /// finished within its budget) or the mate the proof found.
    pub shortest: bool,
    /// Time taken.
    pub elapsed: Duration,
}

/// A progress report, sent about once a second.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MateProgress {
    /// Nodes so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
    /// Proof table fill, permille.
    pub fill_permille: u32,
}

/// What is known of a node: its numbers, whether a disproof holds on its path only, and for
/// a proof the length of its mate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Numbers {
    pub(crate) pn: u32,
    pub(crate) dn: u32,
    pub(crate) path_dependent: bool,
    pub(crate) length: u16,
}

impl Numbers {
    const fn new(pn: u32, dn: u32) -> Numbers {
        Numbers {
            pn,
            dn,
            path_dependent: false,
            length: 0,
        }
    }

    /// Disproven here by a repetition.
    const REPETITION: Numbers = Numbers {
        pn: INFINITE,
        dn: 0,
        path_dependent: true,
        length: 0,
    };

    fn untrusted(&self) -> bool {
        self.dn == 0 && self.path_dependent
    }
}

impl From<Entry> for Numbers {
    fn from(e: Entry) -> Numbers {
        Numbers {
            pn: e.pn,
            dn: e.dn,
            path_dependent: e.path_dependent,
            length: e.length,
        }
    }
}

/// A child of the node being searched, with what is known of it.
#[derive(Clone, Copy, Debug)]
struct Child {
    mv: Move,
    key: u64,
    /// df-pn+ numbers from its move count, used until the table knows better.
    initial: Numbers,
    /// Its numbers as this node's own search of it last returned them.
    last: Option<Numbers>,
}

/// The df-pn solver, with its proof table (kept from problem to problem until cleared).
pub struct Solver {
    pub(crate) table: ProofTable,
    pub(crate) nodes: u64,
    path: Vec<u64>,
    start: Instant,
    limits: MateLimits,
    aborted: bool,
    last_report: Instant,
}

impl Solver {
    /// A solver with a proof table of `megabytes` MiB.
    pub fn new(megabytes: usize) -> Result<Solver, TableSizeError> {
        Ok(Solver {
            table: ProofTable::new(megabytes)?,
            nodes: 0,
            path: Vec::new(),
            start: Instant::now(),
            limits: MateLimits::default(),
            aborted: false,
            last_report: Instant::now(),
        })
    }

    /// Forgets what earlier problems taught.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Solves `root` (the attacker to move) within `limits`; `progress` is told now and then.
    pub fn solve(
        &mut self,
        root: &Position,
        limits: &MateLimits,
        progress: &mut dyn FnMut(&MateProgress),
    ) -> MateOutcome {
        self.nodes = 0;
        self.start = Instant::now();
        self.last_report = self.start;
        self.limits = limits.clone();
        self.aborted = false;
        let mut numbers = self.prove(root, progress);
        let mut proof_nodes = self.nodes;
        let mut result = MateResult::Unknown;
        let mut shortest = false;
        if !self.aborted && numbers.pn == 0 {
            let mut found = line::mate_line(root, self, proof_nodes);
            if !matches!(found, Some((_, true))) && !self.aborted {
                // Earlier problems pushed part of the proof tree out of the table, or left
                // so much of theirs in it that this proof came cheap and so did the exact
                // search's budget: prove again in an empty table, once, and keep the better
                // line.
                self.table.clear();
                numbers = self.prove(root, progress);
                proof_nodes = self.nodes;
                if !self.aborted && numbers.pn == 0 {
                    if let Some(again) = line::mate_line(root, self, proof_nodes) {
                        if again.1 || found.is_none() {
                            found = Some(again);
                        }
                    }
                }
            }
            if let Some((moves, exact)) = found {
                result = MateResult::Mate(moves);
                shortest = exact;
            }
        } else if !self.aborted && numbers.dn == 0 {
            result = MateResult::NoMate;
        }
        MateOutcome {
            perpetual: result == MateResult::NoMate && numbers.path_dependent,
            result,
            nodes: self.nodes,
            line_nodes: self.nodes - proof_nodes,
            shortest,
            elapsed: self.start.elapsed(),
        }
    }

    fn prove(&mut self, root: &Position, progress: &mut dyn FnMut(&MateProgress)) -> Numbers {
        self.path.clear();
        self.mid(root, INFINITE, INFINITE, progress)
    }

    /// Counts a node and tells whether the limits are reached (for the line extraction too).
    pub(crate) fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.aborted {
            return true;
        }
        if self.nodes & 255 == 0 {
            let stopped = self.limits.stop.as_ref().is_some_and(|s| s.stopped());
            let out_of_time = self.limits.time.is_some_and(|t| self.start.elapsed() >= t);
            let out_of_nodes = self.limits.nodes.is_some_and(|n| self.nodes >= n);
            self.aborted = stopped || out_of_time || out_of_nodes;
        }
        self.aborted
    }

    fn report(&mut self, progress: &mut dyn FnMut(&MateProgress)) {
        if self.nodes & 4095 == 0 && self.last_report.elapsed() >= Duration::from_secs(1) {
            self.last_report = Instant::now();
            progress(&MateProgress {
                nodes: self.nodes,
                elapsed: self.start.elapsed(),
                fill_permille: self.table.fill_permille(),
            });
        }
    }

    /// The moves of a node: checks at OR nodes, every legal move at AND nodes.
    pub(crate) fn moves(pos: &Position, or_node: bool) -> MoveList {
        let mut list = MoveList::new();
        if or_node {
            pos.generate_checks(&mut list);
        } else {
            pos.generate_legal(&mut list);
        }
        list
    }

    /// df-pn+ initial numbers of a child from its own move count: an AND child (after a
    /// check) with no move is mated; an OR child with no check is disproven.
    fn initial_numbers(child: &Position, child_is_or: bool) -> Numbers {
        let n = Solver::moves(child, child_is_or).len() as u32;
        match (child_is_or, n) {
            (true, 0) => Numbers::new(INFINITE, 0),
            (false, 0) => Numbers::new(0, INFINITE),
            (true, n) => Numbers::new(1, n),
            (false, n) => Numbers::new(n, 1),
        }
    }

    /// A child's numbers now: a repetition disproof of this path, else the table (a
    /// path-dependent disproof found elsewhere is not trusted), else its own search's last
    /// result, else its initial numbers.
    fn child_numbers(&self, c: &Child) -> Numbers {
        if let Some(last) = c.last.filter(|l| l.untrusted()) {
            return last;
        }
        match self.table.get(c.key).map(Numbers::from) {
            Some(n) if !n.untrusted() => n,
            _ => c.last.filter(|l| !l.untrusted()).unwrap_or(c.initial),
        }
    }

    /// Multiple-iterative deepening at one node: searches `pos` until its proof number
    /// reaches `thpn` or its disproof number `thdn`.
    fn mid(
        &mut self,
        pos: &Position,
        thpn: u32,
        thdn: u32,
        progress: &mut dyn FnMut(&MateProgress),
    ) -> Numbers {
        let or_node = self.path.len().is_multiple_of(2);
        let key = table_key(pos, or_node);
        if self.tick() {
            return Numbers::new(1, 1);
        }
        self.report(progress);
        let nodes_before = self.nodes;

        // 1. Terminal nodes: no check (OR: disproven) or no legal move (AND: mated).
        let moves = Solver::moves(pos, or_node);
        if moves.is_empty() {
            let numbers = if or_node {
                Numbers::new(INFINITE, 0)
            } else {
                Numbers::new(0, INFINITE)
            };
            self.store(key, numbers, 1);
            return numbers;
        }
        if self.path.len() >= MAX_PATH {
            return Numbers::REPETITION;
        }

        // 2. The children; a repetition of the path is disproven for this path.
        self.path.push(key);
        let mut children: Vec<Child> = moves
            .iter()
            .map(|&mv| {
                let child = pos.played(mv);
                let child_key = table_key(&child, !or_node);
                if self.path.contains(&child_key) {
                    return Child {
                        mv,
                        key: child_key,
                        initial: Numbers::REPETITION,
                        last: Some(Numbers::REPETITION),
                    };
                }
                let initial = match self.table.get(child_key).map(Numbers::from) {
                    Some(n) if !n.untrusted() => n,
                    untrusted => {
                        let numbers = Solver::initial_numbers(&child, !or_node);
                        if untrusted.is_none() {
                            self.store(child_key, numbers, 0);
                        }
                        numbers
                    }
                };
                Child {
                    mv,
                    key: child_key,
                    initial,
                    last: None,
                }
            })
            .collect();

        loop {
            // 3. Combine the children's numbers, and store them.
            let (numbers, best, second) = self.combine(&children, or_node);
            self.store(key, numbers, self.nodes - nodes_before);
            if numbers.pn >= thpn || numbers.dn >= thdn || self.aborted {
                self.path.pop();
                return numbers;
            }

            // 4. Search the best child with thresholds that stop it once a sibling would be
            //    better (1+ε: a little beyond, so that the search does not thrash).
            let c = children[best];
            let current = self.child_numbers(&c);
            let widened = second
                .saturating_add(second / EPSILON_DIVISOR)
                .saturating_add(1);
            let (child_thpn, child_thdn) = if or_node {
                (thpn.min(widened), add_capped(thdn - numbers.dn, current.dn))
            } else {
                (add_capped(thpn - numbers.pn, current.pn), thdn.min(widened))
            };
            let child = pos.played(c.mv);
            let result = self.mid(&child, child_thpn, child_thdn, progress);
            children[best].last = Some(result);
        }
    }

    /// The node's numbers from its children's, the best child and the second-best child's
    /// number (the attacker's choice is by proof number, the defender's by disproof number).
    fn combine(&self, children: &[Child], or_node: bool) -> (Numbers, usize, u32) {
        let mut best = 0;
        let mut best_value = u32::MAX;
        let mut second = INFINITE;
        let mut sum = 0u32;
        let mut dependent_disproof = false;
        let mut clean_disproof = false;
        let mut proven_lengths: Option<(u16, u16)> = None; // (shortest, longest)
        for (i, c) in children.iter().enumerate() {
            let n = self.child_numbers(c);
            let (value, summed) = if or_node { (n.pn, n.dn) } else { (n.dn, n.pn) };
            if value < best_value {
                second = best_value.min(INFINITE);
                best_value = value;
                best = i;
            } else if value < second {
                second = value;
            }
            sum = add_capped(sum, summed);
            if n.dn == 0 {
                if n.path_dependent {
                    dependent_disproof = true;
                } else {
                    clean_disproof = true;
                }
            }
            if n.pn == 0 {
                proven_lengths = Some(match proven_lengths {
                    None => (n.length, n.length),
                    Some((lo, hi)) => (lo.min(n.length), hi.max(n.length)),
                });
            }
        }
        let best_value = best_value.min(INFINITE);
        let numbers = if or_node {
            // Proven by one check (the shortest proven mate); disproven when every check is,
            // on this path only if any of them is.
            let pn = best_value;
            let dn = if pn == 0 { INFINITE } else { sum };
            Numbers {
                pn,
                dn,
                path_dependent: dn == 0 && dependent_disproof,
                length: proven_lengths.map_or(0, |(lo, _)| lo.saturating_add(1)),
            }
        } else {
            // Disproven by one answer (on this path only if no clean one exists); proven
            // when every answer is, as long as the longest.
            let dn = best_value;
            let pn = if dn == 0 { INFINITE } else { sum };
            Numbers {
                pn,
                dn,
                path_dependent: dn == 0 && dependent_disproof && !clean_disproof,
                length: proven_lengths.map_or(0, |(_, hi)| hi.saturating_add(1)),
            }
        };
        (numbers, best, second)
    }

    fn store(&mut self, key: u64, numbers: Numbers, work: u64) {
        // Proofs are what the line is read from: they give way last.
        let work = if numbers.pn == 0 {
            work.max(PROOF_WORK)
        } else {
            work
        };
        self.table.put(
            key,
            Entry {
                pn: numbers.pn,
                dn: numbers.dn,
                path_dependent: numbers.path_dependent,
                work,
                length: if numbers.pn == 0 { numbers.length } else { 0 },
            },
        );
    }
}

/// `a + b`, never beyond [`INFINITE`].
fn add_capped(a: u32, b: u32) -> u32 {
    a.saturating_add(b).min(INFINITE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve(sfen: &str) -> MateResult {
        let pos = Position::from_sfen(sfen).unwrap();
        let mut solver = Solver::new(16).unwrap();
        solver
            .solve(&pos, &MateLimits::default(), &mut |_| {})
            .result
    }

    #[test]
    fn mate_in_one_and_no_checks() {
        let pos = Position::from_sfen("k4/2S2/1G3/5/4K b G 1").unwrap();
        let MateResult::Mate(line) = solve("k4/2S2/1G3/5/4K b G 1") else {
            panic!("a mate in one")
        };
        assert_eq!(line.len(), 1);
        assert!(crate::brute::is_mating_line(&pos, &line));
        // Nothing in hand and no piece can check: disproven at once.
        assert_eq!(solve("k4/5/5/5/4K b - 1"), MateResult::NoMate);
    }
}
