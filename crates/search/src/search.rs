//! Iterative deepening principal variation search with aspiration windows, quiescence
//! search, a shared transposition table and Lazy SMP threads.

use crate::eval::evaluate;
use crate::movepick::MovePicker;
use crate::see::see;
use crate::thread::{piece_to, ThreadData};
use crate::time::{SearchLimits, TimeBudget};
use crate::tt::{Bound, TranspositionTable};
use crate::value::*;
use gogo_rules::{Color, Move, Position, RepetitionRule, RuleSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Settings that stay the same from search to search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Search threads.
    pub threads: usize,
    /// Principal variations to report.
    pub multipv: usize,
    /// Time kept in reserve per move.
    pub move_overhead: Duration,
    /// Game rules: repetition meaning and ply limit.
    pub rules: RuleSet,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(10),
            rules: RuleSet::standard(),
        }
    }
}

/// Shared between the searching threads and whoever controls the search (the USI loop).
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    start: Mutex<Instant>,
}

impl SearchControl {
    /// A control for a search that starts now.
    pub fn new(pondering: bool) -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            start: Mutex::new(Instant::now()),
        }
    }

    /// Asks every thread to stop as soon as possible.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Whether a stop was asked for.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: time limits apply from now on.
    pub fn ponderhit(&self) {
        *self.start.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// Whether the search is pondering.
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    fn elapsed(&self) -> Duration {
        self.start
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .elapsed()
    }
}

/// One line of search output (USI `info`).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    /// Iteration depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// 1-based index of this principal variation.
    pub multipv: usize,
    /// Score for the side to move.
    pub score: Score,
    /// `Some` when the score is only a bound (aspiration failure).
    pub bound: Option<Bound>,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Transposition table fill, permille.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play; `None` when there is no legal move.
    pub best: Option<Move>,
    /// The expected reply, to ponder on.
    pub ponder: Option<Move>,
    /// Score of the best move.
    pub score: i32,
    /// Depth of the last completed iteration.
    pub depth: i32,
    /// Nodes searched by all threads.
    pub nodes: u64,
}

#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    score: i32,
    previous_score: i32,
    pv: Vec<Move>,
    seldepth: usize,
}

/// The game so far as the repetition rules need it: each position's key and whether it was
/// in check, the root last.
#[derive(Clone, Debug, Default)]
pub struct History {
    keys: Vec<u64>,
    checks: Vec<bool>,
    /// Plies played before the root (for the ply limit).
    root_plies: u32,
}

impl History {
    /// History from the positions of a game, the current one last.
    pub fn from_positions(positions: &[Position]) -> History {
        History {
            keys: positions.iter().map(|p| p.key()).collect(),
            checks: positions.iter().map(|p| p.in_check()).collect(),
            root_plies: positions.last().map_or(0, |p| p.move_number() - 1),
        }
    }
}

struct Worker<'a> {
    td: ThreadData,
    tt: &'a TranspositionTable,
    control: &'a SearchControl,
    node_counts: &'a [AtomicU64],
    limits: &'a SearchLimits,
    budget: TimeBudget,
    rules: RuleSet,
    history: History,
    root: Position,
    root_moves: Vec<RootMove>,
    multipv: usize,
    /// The move played to reach each ply (for countermoves).
    played: [Option<Move>; MAX_PLY + 2],
    /// Its [`piece_to`] index (for continuation history).
    played_piece_to: [Option<usize>; MAX_PLY + 2],
    static_evals: [i32; MAX_PLY + 2],
    /// Search threads fill every core: give the input thread a chance now and then.
    yield_cpu: bool,
}

/// The machine's cores, asked once: `available_parallelism` reads cgroup files on Linux,
/// which is not for every `go`.
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Whether a stored score with this bound settles the node for the window (alpha, beta).
#[inline]
fn bound_cuts(bound: Bound, score: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    }
}

/// Late-move reduction table by depth and move number.
fn reduction(depth: i32, move_number: usize) -> i32 {
    if depth < 3 || move_number < 3 {
        return 0;
    }
    let r = 0.5 + (depth as f64).ln() * (move_number as f64).ln() / 2.1;
    r as i32
}

impl<'a> Worker<'a> {
    fn total_nodes(&self) -> u64 {
        self.node_counts
            .iter()
            .map(|n| n.load(Ordering::Relaxed))
            .sum()
    }

    /// Main thread, every 1024 nodes: enforce the hard time limit and the node limit.
    fn check_limits(&mut self) {
        self.node_counts[self.td.id].store(self.td.nodes, Ordering::Relaxed);
        // With a search thread on every core, the thread reading `stop` from the GUI may
        // wait for the scheduler's tick (4 ms) before it runs; yielding about every half
        // millisecond lets it in sooner, for the price of one cheap system call.
        if self.yield_cpu && self.td.nodes & 511 == 0 {
            std::thread::yield_now();
        }
        if self.td.id != 0 || self.td.nodes & 1023 != 0 {
            return;
        }
        if let Some(max) = self.limits.nodes {
            if self.total_nodes() >= max {
                self.control.stop();
            }
        }
        if !self.control.pondering() {
            if let Some(hard) = self.budget.hard {
                if self.control.elapsed() >= hard {
                    self.control.stop();
                }
            }
        }
    }

    /// The repetition rule's verdict if the position at the top of the history occurred
    /// before: the score for the side to move.
    fn repetition_score(&self, side: Color, ply: usize) -> Option<i32> {
        let n = self.history.keys.len() - 1;
        let key = self.history.keys[n];
        let mut i = n;
        while i >= 2 {
            i -= 2;
            if self.history.keys[i] != key {
                continue;
            }
            if self.rules.repetition == RepetitionRule::Draw {
                return Some(DRAW);
            }
            // Moves i..n: the move from position j is made by `side` when n - j is even.
            let mut always_checked = [true, true]; // [side to move now, opponent]
            for j in i..n {
                let mover = if (n - j).is_multiple_of(2) { 0 } else { 1 };
                if !self.history.checks[j + 1] {
                    always_checked[mover] = false;
                }
            }
            let win = REPETITION_WIN - ply as i32;
            return Some(match always_checked {
                [true, true] => DRAW,
                [true, false] => -win,
                [false, true] => win,
                [false, false] => {
                    if side == Color::Sente {
                        -win
                    } else {
                        win
                    }
                }
            });
        }
        None
    }

    fn push(&mut self, pos: &Position) {
        self.history.keys.push(pos.key());
        self.history.checks.push(pos.in_check());
    }

    fn pop(&mut self) {
        self.history.keys.pop();
        self.history.checks.pop();
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.td.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    /// `qs_ply` counts plies inside quiescence; quiet checks are tried at its first ply.
    fn quiescence(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qs_ply: usize,
    ) -> i32 {
        self.td.nodes += 1;
        self.check_limits();
        self.td.seldepth = self.td.seldepth.max(ply);
        self.td.pv[ply].clear();
        if self.control.stopped() {
            return 0;
        }
        if ply >= MAX_PLY {
            return evaluate(pos);
        }
        let in_check = pos.in_check();
        let tt_entry = self.tt.probe(pos.key());
        if let Some(e) = tt_entry {
            let score = from_tt(e.score, ply);
            if bound_cuts(e.bound, score, alpha, beta) {
                return score;
            }
        }
        let mut best = -INFINITE;
        let stand_pat = if in_check {
            -INFINITE
        } else {
            let eval = tt_entry.map_or_else(|| evaluate(pos), |e| e.eval);
            if eval >= beta {
                return eval;
            }
            alpha = alpha.max(eval);
            best = eval;
            eval
        };
        let mut picker = MovePicker::quiescence(pos, tt_entry.and_then(|e| e.mv), qs_ply == 0);
        let mut best_move = None;
        let mut moves = 0;
        while let Some(mv) = picker.next(pos, &self.td) {
            moves += 1;
            if !in_check {
                // Losing captures and hopeless ones are not worth a look.
                if pos.is_capture(mv) && see(pos, mv) < 0 {
                    continue;
                }
                let gain = pos
                    .captured_piece(mv)
                    .map_or(0, |p| crate::weights::capture_gain(p.kind));
                let quiet_check = !pos.is_capture(mv) && !mv.is_promotion();
                if stand_pat + gain + 250 < alpha && !mv.is_promotion() && !quiet_check {
                    continue;
                }
            }
            let child = pos.played(mv);
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1, qs_ply + 1);
            if self.control.stopped() {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && moves == 0 {
            return mated_in(ply);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.tt
            .store(pos.key(), best_move, to_tt(best, ply), stand_pat, -1, bound);
        best
    }

    fn search<const PV: bool>(
        &mut self,
        pos: &Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        let pv_node = PV;
        // 1. Horizon: resolve captures first.
        if depth <= 0 {
            return self.quiescence(pos, alpha, beta, ply, 0);
        }
        self.td.nodes += 1;
        self.check_limits();
        self.td.pv[ply].clear();
        self.td.seldepth = self.td.seldepth.max(ply);
        if self.control.stopped() {
            return 0;
        }

        // 2. Repetition, ply limit, maximum ply, mate-distance pruning.
        if let Some(score) = self.repetition_score(pos.side_to_move(), ply) {
            return score;
        }
        if let Some(limit) = self.rules.max_plies {
            if self.history.root_plies + ply as u32 >= limit {
                return DRAW;
            }
        }
        if ply >= MAX_PLY {
            return evaluate(pos);
        }
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // 3. Transposition table.
        let key = pos.key();
        let tt_entry = self.tt.probe(key);
        let tt_move = tt_entry.and_then(|e| e.mv);
        if let Some(e) = tt_entry {
            let score = from_tt(e.score, ply);
            if !pv_node && e.depth >= depth && bound_cuts(e.bound, score, alpha, beta) {
                return score;
            }
        }

        // 4. Static evaluation.
        let in_check = pos.in_check();
        let eval = if in_check {
            -INFINITE
        } else {
            tt_entry.map_or_else(|| evaluate(pos), |e| e.eval)
        };
        self.static_evals[ply] = eval;
        let improving = !in_check && ply >= 2 && eval > self.static_evals[ply - 2];

        if !pv_node && !in_check {
            // 5. Reverse futility pruning: far above beta near the horizon.
            if depth <= 6
                && eval - 90 * depth + if improving { 30 } else { 0 } >= beta
                && beta.abs() < MATE_IN_MAX_PLY
            {
                return eval;
            }
            // 6. Null move pruning: even passing keeps us above beta. (Zugzwang hardly
            //    exists with drops.)
            if depth >= 3
                && eval >= beta
                && self.played[ply].is_some()
                && beta.abs() < MATE_IN_MAX_PLY
            {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(2);
                let mut child = pos.clone();
                child.play_null();
                self.played[ply + 1] = None;
                self.played_piece_to[ply + 1] = None;
                self.push(&child);
                let score =
                    -self.search::<false>(&child, depth - r, -beta, -beta + 1, ply + 1, !cut_node);
                self.pop();
                if self.control.stopped() {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_IN_MAX_PLY {
                        beta
                    } else {
                        score
                    };
                }
            }
        }

        // 7. Internal iterative reduction: no TT move on a deep node, search it shallower.
        if depth >= 4 && tt_move.is_none() && (pv_node || cut_node) {
            depth -= 1;
        }

        // 8. The move loop.
        let side = pos.side_to_move();
        let previous = self.played[ply];
        let countermove = previous.and_then(|p| self.td.countermoves[p.bits() as usize & 4095]);
        let continuation = [
            self.played_piece_to[ply],
            if ply >= 1 {
                self.played_piece_to[ply - 1]
            } else {
                None
            },
        ];
        let mut picker = MovePicker::new(
            pos,
            tt_move,
            self.td.killers[ply],
            countermove,
            continuation,
        );
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut move_number = 0;
        let mut quiets_tried: Vec<(Move, Option<usize>)> = Vec::new();
        let original_alpha = alpha;
        while let Some(mv) = picker.next(pos, &self.td) {
            move_number += 1;
            let quiet = !pos.is_capture(mv) && !mv.is_promotion();
            let child = pos.played(mv);
            let gives_check = child.in_check();

            // 9. Shallow pruning of late quiet moves once a non-losing score is in hand.
            if !pv_node && !in_check && best > -MATE_IN_MAX_PLY && quiet && !gives_check {
                let lmp_limit = (3 + depth * depth) as usize / if improving { 1 } else { 2 };
                if depth <= 4 && move_number > lmp_limit + 2 {
                    continue;
                }
                if depth <= 5 && eval + 120 + 100 * depth <= alpha {
                    continue;
                }
            }

            // 10. Check extension.
            let extension = i32::from(gives_check && ply < 2 * depth as usize + 8);
            let new_depth = depth - 1 + extension;

            self.played[ply + 1] = Some(mv);
            let moved_index = pos.moved_kind(mv).map(|k| piece_to(side, k, mv));
            self.played_piece_to[ply + 1] = moved_index;
            self.push(&child);
            self.tt.prefetch(child.key());
            let mut score;
            if move_number == 1 {
                score = -self.search::<PV>(&child, new_depth, -beta, -alpha, ply + 1, false);
            } else {
                // 11. Late-move reductions, then a null-window search, then a full one.
                let mut r = 0;
                if depth >= 3 && move_number > 2 + pv_node as usize && quiet {
                    r = reduction(depth, move_number);
                    r -= pv_node as i32;
                    r -= (self.td.history(side, mv) / 6000).clamp(-2, 2);
                    r += !improving as i32;
                    r += cut_node as i32;
                    if gives_check {
                        r -= 1;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                score =
                    -self.search::<false>(&child, new_depth - r, -alpha - 1, -alpha, ply + 1, true);
                if score > alpha && r > 0 {
                    score = -self.search::<false>(
                        &child,
                        new_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        !cut_node,
                    );
                }
                if pv_node && score > alpha && score < beta {
                    score = -self.search::<true>(&child, new_depth, -beta, -alpha, ply + 1, false);
                }
            }
            self.pop();
            if self.control.stopped() {
                return 0;
            }

            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        // 12. A cutoff: teach the ordering heuristics.
                        if quiet {
                            let bonus = (depth * depth * 16).min(1600);
                            self.td.add_killer(ply, mv);
                            self.td.update_history(side, mv, bonus);
                            for &(q, _) in &quiets_tried {
                                self.td.update_history(side, q, -bonus);
                            }
                            for from in continuation.iter().flatten() {
                                if let Some(to) = moved_index {
                                    self.td.update_continuation(*from, to, bonus);
                                }
                                for &(_, q) in &quiets_tried {
                                    if let Some(q) = q {
                                        self.td.update_continuation(*from, q, -bonus);
                                    }
                                }
                            }
                            if let Some(p) = previous {
                                self.td.countermoves[p.bits() as usize & 4095] = Some(mv);
                            }
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if quiet && quiets_tried.len() < 64 {
                quiets_tried.push((mv, moved_index));
            }
        }

        // 13. No legal move: the side to move loses (checkmate or not).
        if move_number == 0 {
            return mated_in(ply);
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if pv_node && best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_eval = if in_check { 0 } else { eval };
        self.tt
            .store(key, best_move, to_tt(best, ply), stored_eval, depth, bound);
        best
    }

    /// Searches the root moves from `pv_index` on, in their current order.
    fn root_search(&mut self, depth: i32, mut alpha: i32, beta: i32, pv_index: usize) -> i32 {
        self.td.nodes += 1;
        let root = self.root.clone();
        let mut best = -INFINITE;
        for i in pv_index..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            let child = root.played(mv);
            let gives_check = child.in_check();
            let new_depth = depth - 1 + i32::from(gives_check);
            self.played[1] = Some(mv);
            self.played_piece_to[1] = root
                .moved_kind(mv)
                .map(|k| piece_to(root.side_to_move(), k, mv));
            self.push(&child);
            self.td.seldepth = 0;
            let mut score;
            if i == pv_index {
                score = -self.search::<true>(&child, new_depth, -beta, -alpha, 1, false);
            } else {
                let r = if depth >= 3 && i > pv_index + 3 && !root.is_capture(mv) && !gives_check {
                    1
                } else {
                    0
                };
                score = -self.search::<false>(&child, new_depth - r, -alpha - 1, -alpha, 1, true);
                if score > alpha && r > 0 {
                    score = -self.search::<false>(&child, new_depth, -alpha - 1, -alpha, 1, true);
                }
                if score > alpha && score < beta {
                    score = -self.search::<true>(&child, new_depth, -beta, -alpha, 1, false);
                }
            }
            self.pop();
            if self.control.stopped() {
                return best;
            }
            let rm = &mut self.root_moves[i];
            if i == pv_index || score > alpha {
                rm.score = score;
                rm.seldepth = self.td.seldepth;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.td.pv[1]);
            } else {
                rm.score = -INFINITE;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    fn report(
        &self,
        depth: i32,
        pv_index: usize,
        bound: Option<Bound>,
        report: &dyn Fn(SearchInfo),
    ) {
        let rm = &self.root_moves[pv_index];
        let score = if rm.score == -INFINITE {
            rm.previous_score
        } else {
            rm.score
        };
        report(SearchInfo {
            depth,
            seldepth: rm.seldepth.max(1),
            multipv: pv_index + 1,
            score: Score::from_value(score),
            bound,
            nodes: self.total_nodes(),
            time_ms: self.control.elapsed().as_millis() as u64,
            hashfull: self.tt.hashfull(),
            pv: rm.pv.clone(),
        });
    }

    /// Iterative deepening. Helper threads search odd depths one ply deeper, which spreads
    /// the threads over the tree.
    fn iterate(&mut self, report: &dyn Fn(SearchInfo)) {
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 1)
            .clamp(1, MAX_PLY as i32 - 1);
        let mut instability = 1.0f64;
        let mut last_best = None;
        let mut depth = 1;
        while depth <= max_depth {
            let search_depth = if self.td.id % 2 == 1 && depth < max_depth {
                depth + 1
            } else {
                depth
            };
            for rm in &mut self.root_moves {
                rm.previous_score = rm.score;
            }
            let lines = self.multipv.min(self.root_moves.len());
            for pv_index in 0..lines {
                // Aspiration window around the previous score.
                let previous = self.root_moves[pv_index].previous_score;
                let mut delta = 25;
                let (mut alpha, mut beta) = if search_depth >= 4 && previous.abs() < 10_000 {
                    (previous - delta, previous + delta)
                } else {
                    (-INFINITE, INFINITE)
                };
                loop {
                    let score = self.root_search(search_depth, alpha, beta, pv_index);
                    self.root_moves[pv_index..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                    if self.control.stopped() {
                        break;
                    }
                    let bound = if score <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-INFINITE);
                        Some(Bound::Upper)
                    } else if score >= beta {
                        beta = (score + delta).min(INFINITE);
                        Some(Bound::Lower)
                    } else {
                        None
                    };
                    match bound {
                        None => break,
                        Some(b) => {
                            if self.td.id == 0 && self.control.elapsed() > Duration::from_secs(2) {
                                self.report(search_depth, pv_index, Some(b), report);
                            }
                            delta += delta / 2;
                        }
                    }
                }
                self.root_moves[..=pv_index].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.control.stopped() {
                    break;
                }
            }
            if self.control.stopped() {
                break;
            }
            self.td.completed_depth = search_depth;
            self.td.best_move = Some(self.root_moves[0].mv);
            self.td.best_score = self.root_moves[0].score;
            if self.td.id == 0 {
                for pv_index in 0..lines {
                    self.report(search_depth, pv_index, None, report);
                }
                // Time: stop when the soft target, stretched while the best move changes, is
                // used up; and at once when a forced mate is found within the depth.
                if last_best != self.td.best_move && depth > 1 {
                    instability = (instability * 1.4).min(2.5);
                } else {
                    instability = (instability * 0.85).max(1.0);
                }
                last_best = self.td.best_move;
                if !self.control.pondering() {
                    if let Some(soft) = self.budget.soft {
                        let target = soft.mul_f64(instability);
                        let target = self.budget.hard.map_or(target, |h| target.min(h));
                        if self.control.elapsed() >= target.mul_f64(0.6) {
                            break;
                        }
                    }
                }
                let free_to_stop = !self.limits.infinite
                    && !self.control.pondering()
                    && self.limits.depth.is_none()
                    && self.limits.nodes.is_none();
                if free_to_stop && self.root_moves.len() == 1 && depth >= 4 {
                    break; // a forced move: no need to think long
                }
                let best = self.td.best_score.abs();
                if free_to_stop && best >= MATE_IN_MAX_PLY && depth > MATE - best + 4 {
                    break; // a mate found with room to spare: deeper search cannot improve it
                }
            }
            depth += 1;
        }
    }
}

/// What to search: the position, how it was reached, the limits and the settings.
#[derive(Clone, Debug)]
pub struct SearchJob {
    /// The position to move in.
    pub root: Position,
    /// The game up to and including `root`, for the repetition rules.
    pub history: History,
    /// Limits from `go`.
    pub limits: SearchLimits,
    /// Settings.
    pub options: SearchOptions,
}

/// Searches `job.root` and returns the best move. `report` receives the main thread's `info`
/// lines. The threads (one [`ThreadData`] each in `threads`) share only `tt` and `control`.
pub fn search(
    job: &SearchJob,
    tt: &TranspositionTable,
    control: &SearchControl,
    threads: &mut Vec<ThreadData>,
    report: &dyn Fn(SearchInfo),
) -> SearchResult {
    let SearchJob {
        root,
        history,
        limits,
        options,
    } = job;
    let budget = TimeBudget::new(limits, root.side_to_move(), options.move_overhead);
    let legal = root.legal_moves();
    if legal.is_empty() {
        return SearchResult {
            best: None,
            ponder: None,
            score: mated_in(0),
            depth: 0,
            nodes: 0,
        };
    }
    tt.new_search();
    let wanted = options.threads.max(1);
    while threads.len() < wanted {
        threads.push(ThreadData::new(threads.len()));
    }
    threads.truncate(wanted);
    for td in threads.iter_mut() {
        td.nodes = 0;
        td.seldepth = 0;
        td.completed_depth = 0;
        td.best_move = None;
        td.best_score = -INFINITE;
    }
    let node_counts: Vec<AtomicU64> = (0..wanted).map(|_| AtomicU64::new(0)).collect();
    let root_moves: Vec<RootMove> = {
        // Order the first iteration by the picker's idea of the moves (TT move first).
        let tt_move = tt.probe(root.key()).and_then(|e| e.mv);
        let mut v: Vec<RootMove> = legal
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INFINITE,
                previous_score: -INFINITE,
                pv: vec![mv],
                seldepth: 0,
            })
            .collect();
        if let Some(i) = v.iter().position(|rm| Some(rm.mv) == tt_move) {
            v.swap(0, i);
        }
        v
    };
    let mut history = history.clone();
    if history.keys.last() != Some(&root.key()) {
        history.keys.push(root.key());
        history.checks.push(root.in_check());
        history.root_plies = root.move_number() - 1;
    }
    let yield_cpu = wanted > 1 && wanted >= cores();
    let make_worker = |td: ThreadData| Worker {
        multipv: if td.id == 0 {
            options.multipv.max(1)
        } else {
            1
        },
        td,
        tt,
        control,
        node_counts: &node_counts,
        limits,
        budget,
        rules: options.rules,
        history: history.clone(),
        root: root.clone(),
        root_moves: root_moves.clone(),
        played: [None; MAX_PLY + 2],
        played_piece_to: [None; MAX_PLY + 2],
        static_evals: [0; MAX_PLY + 2],
        yield_cpu,
    };

    let mut taken: Vec<ThreadData> = std::mem::take(threads);
    let helpers: Vec<ThreadData> = taken.split_off(1);
    let main_td = taken.pop().expect("main thread data");
    let mut finished: Vec<ThreadData> = Vec::new();
    let main_result = std::thread::scope(|scope| {
        let handles: Vec<_> = helpers
            .into_iter()
            .map(|td| {
                let mut worker = make_worker(td);
                scope.spawn(move || {
                    worker.iterate(&|_| {});
                    (worker.td, worker.root_moves)
                })
            })
            .collect();
        let mut main = make_worker(main_td);
        main.iterate(report);
        // Infinite and ponder searches wait for `stop` (or `ponderhit`) before answering.
        control.stop();
        let mut helpers_done = Vec::new();
        for h in handles {
            if let Ok(done) = h.join() {
                helpers_done.push(done);
            }
        }
        (main.td, main.root_moves, helpers_done)
    });
    let (main_td, main_root_moves, helpers_done) = main_result;
    let total: u64 = node_counts
        .iter()
        .map(|n| n.load(Ordering::Relaxed))
        .sum::<u64>()
        .max(main_td.nodes);

    // The best thread: deepest completed iteration, then best score. The main thread wins
    // ties, and its partial iteration counts when nothing completed.
    let mut best_move = main_td.best_move.unwrap_or(main_root_moves[0].mv);
    let mut best_score = if main_td.best_move.is_some() {
        main_td.best_score
    } else {
        main_root_moves[0].score
    };
    let mut best_depth = main_td.completed_depth;
    let mut best_pv = main_root_moves[0].pv.clone();
    for (td, rms) in &helpers_done {
        if let Some(mv) = td.best_move {
            if td.completed_depth > best_depth
                || (td.completed_depth == best_depth
                    && td.best_score > best_score
                    && td.best_score < MATE_IN_MAX_PLY)
            {
                best_move = mv;
                best_score = td.best_score;
                best_depth = td.completed_depth;
                best_pv = rms[0].pv.clone();
            }
        }
    }
    if best_pv.first() != Some(&best_move) {
        best_pv = vec![best_move];
    }
    finished.push(main_td);
    finished.extend(helpers_done.into_iter().map(|(td, _)| td));
    finished.sort_by_key(|td| td.id);
    *threads = finished;

    // The ponder move: the reply in the PV, else the TT move of the position after ours.
    let after = root.played(best_move);
    let ponder = best_pv
        .get(1)
        .copied()
        .filter(|&m| after.is_legal(m))
        .or_else(|| {
            tt.probe(after.key())
                .and_then(|e| e.mv)
                .filter(|&m| after.is_legal(m))
        });
    SearchResult {
        best: Some(best_move),
        ponder,
        score: best_score,
        depth: best_depth,
        nodes: total,
    }
}
