//! The search of one thread: iterative deepening with aspiration windows, principal
//! variation search and quiescence. Threads are launched, and the best one chosen, in
//! [`crate::thread`].

use crate::control::SearchControl;
use crate::game_history::GameHistory;
use crate::history::PieceTo;
use crate::movepick::MovePicker;
use crate::params::*;
use crate::report::SearchInfo;
use crate::see::see;
use crate::thread_data::ThreadData;
use crate::time::{Iteration, SearchLimits, TimeManager};
use crate::tt::{Bound, TranspositionTable};
use crate::value::*;
use gogo_rules::{Move, Position, RuleSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// A root move with what the last iterations said of it.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub(crate) mv: Move,
    pub(crate) score: i32,
    pub(crate) previous_score: i32,
    pub(crate) pv: Vec<Move>,
    pub(crate) seldepth: usize,
    /// Nodes this thread spent below this move, over every iteration so far (the time
    /// manager's measure of how settled the best move is).
    pub(crate) nodes: u64,
}

impl RootMove {
    pub(crate) fn new(mv: Move) -> RootMove {
        RootMove {
            mv,
            score: -INFINITE,
            previous_score: -INFINITE,
            pv: vec![mv],
            seldepth: 0,
            nodes: 0,
        }
    }
}

/// One searching thread: its own data, and what it shares with the others.
pub(crate) struct Worker<'a> {
    pub(crate) td: ThreadData,
    pub(crate) tt: &'a TranspositionTable,
    pub(crate) control: &'a SearchControl,
    /// Every thread's node count, published now and then for the node limit and reports.
    pub(crate) node_counts: &'a [AtomicU64],
    pub(crate) limits: &'a SearchLimits,
    /// Only the main thread's copy is asked.
    pub(crate) time: TimeManager,
    pub(crate) rules: RuleSet,
    pub(crate) history: GameHistory,
    pub(crate) root: Position,
    pub(crate) root_moves: Vec<RootMove>,
    pub(crate) multipv: usize,
    /// Search threads fill every core: give the input thread a chance now and then.
    pub(crate) yield_cpu: bool,
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

/// Late-move reduction by depth and move number.
fn reduction(depth: i32, move_number: usize) -> i32 {
    if depth < LMR_MIN_DEPTH || move_number < 3 {
        return 0;
    }
    let base = f64::from(LMR_BASE_CENTI.get()) / 100.0;
    let divisor = f64::from(LMR_DIVISOR_CENTI.get()) / 100.0;
    let r = base + (depth as f64).ln() * (move_number as f64).ln() / divisor;
    r as i32
}

impl<'a> Worker<'a> {
    pub(crate) fn total_nodes(&self) -> u64 {
        self.node_counts
            .iter()
            .map(|n| n.load(Ordering::Relaxed))
            .sum()
    }

    /// Every node: publish the node count; on the main thread, enforce the node limit (at
    /// once: `go nodes 300` means 300; for a strength level once its first iteration is
    /// whole) and every 1024 nodes the hard time limit.
    fn check_limits(&mut self) {
        self.node_counts[self.td.id].store(self.td.nodes, Ordering::Relaxed);
        // With a search thread on every core, the thread reading `stop` from the GUI may
        // wait for the scheduler's tick (4 ms) before it runs; yielding about every half
        // millisecond lets it in sooner, for the price of one cheap system call.
        if self.yield_cpu && self.td.nodes & 511 == 0 {
            std::thread::yield_now();
        }
        if self.td.id != 0 {
            return;
        }
        if let Some(max) = self.limits.nodes {
            let binds = self.td.completed_depth > 0 || !self.limits.whole_first_iteration;
            if binds && self.total_nodes() >= max {
                self.control.stop();
            }
        }
        if self.td.nodes & 1023 != 0 {
            return;
        }
        if self
            .time
            .out_of_time(self.control.elapsed(), self.control.pondering())
        {
            self.control.stop();
        }
    }

    /// Plays `mv` from `pos` (at `ply`) into a child position: the one place where the
    /// search moves down the tree, so the per-ply stack, the repetition history and the
    /// evaluation's state all follow. [`Worker::unmake_move`] takes it back.
    #[inline]
    fn make_move(&mut self, pos: &Position, mv: Move, ply: usize) -> Position {
        let child = pos.played(mv);
        let next = &mut self.td.stack[ply + 1];
        next.played = Some(mv);
        next.piece_to = PieceTo::of_move(pos, mv);
        self.history.push(&child);
        self.td.evaluator.push(pos, Some(mv), &child);
        self.tt.prefetch(child.key());
        child
    }

    /// Passes the move (null-move pruning), as [`Worker::make_move`] does for moves.
    #[inline]
    fn make_null_move(&mut self, pos: &Position, ply: usize) -> Position {
        let mut child = pos.clone();
        child.play_null();
        let next = &mut self.td.stack[ply + 1];
        next.played = None;
        next.piece_to = None;
        self.history.push(&child);
        self.td.evaluator.push(pos, None, &child);
        child
    }

    /// Takes back the last [`Worker::make_move`] or [`Worker::make_null_move`].
    #[inline]
    fn unmake_move(&mut self) {
        self.history.pop();
        self.td.evaluator.pop();
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.td.stack.split_at_mut(ply + 1);
        let line = &mut head[ply].pv;
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0].pv);
    }

    /// Searches `child`, reached from a node at `ply` with the window (alpha, beta): the
    /// first move with the full window; a later one with a null window at `new_depth -
    /// reduction`, again at `new_depth` if it beats alpha while reduced, and at PV nodes once
    /// more with the full window if it lands inside it. The root and inner nodes share it.
    #[allow(clippy::too_many_arguments)]
    fn search_child<const PV: bool>(
        &mut self,
        child: &Position,
        first: bool,
        new_depth: i32,
        reduction: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        if first {
            return -self.search::<PV>(child, new_depth, -beta, -alpha, ply + 1, false);
        }
        let mut score = -self.search::<false>(
            child,
            new_depth - reduction,
            -alpha - 1,
            -alpha,
            ply + 1,
            true,
        );
        if score > alpha && reduction > 0 {
            score = -self.search::<false>(child, new_depth, -alpha - 1, -alpha, ply + 1, !cut_node);
        }
        if PV && score > alpha && score < beta {
            score = -self.search::<true>(child, new_depth, -beta, -alpha, ply + 1, false);
        }
        score
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
        // A search stopped (here, by the node limit) counts no further nodes.
        if self.control.stopped() {
            return 0;
        }
        self.td.nodes += 1;
        self.check_limits();
        self.td.seldepth = self.td.seldepth.max(ply);
        self.td.stack[ply].pv.clear();
        if self.control.stopped() {
            return 0;
        }
        if ply >= MAX_PLY {
            return self.td.evaluator.evaluate(pos);
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
            let eval = match tt_entry {
                Some(e) => e.eval,
                None => self.td.evaluator.evaluate(pos),
            };
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
            // Early, as in the main search's move loop: the checks below hide the wait.
            self.tt.prefetch(pos.key_after(mv));
            if !in_check {
                // Losing captures and hopeless ones are not worth a look.
                if pos.is_capture(mv) && see(pos, mv) < 0 {
                    continue;
                }
                let gain = pos.captured_piece(mv).map_or(0, |p| capture_gain(p.kind));
                let quiet_check = !pos.is_capture(mv) && !mv.is_promotion();
                if stand_pat + gain + QS_DELTA_MARGIN.get() < alpha
                    && !mv.is_promotion()
                    && !quiet_check
                {
                    continue;
                }
            }
            let child = self.make_move(pos, mv, ply);
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1, qs_ply + 1);
            self.unmake_move();
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
        // A search stopped (here, by the node limit) counts no further nodes.
        if self.control.stopped() {
            return 0;
        }
        self.td.nodes += 1;
        self.check_limits();
        self.td.stack[ply].pv.clear();
        self.td.seldepth = self.td.seldepth.max(ply);
        if self.control.stopped() {
            return 0;
        }

        // 2. Repetition, ply limit, maximum ply, mate-distance pruning.
        if let Some(score) = self
            .history
            .repetition_score(self.rules.repetition, pos, ply)
        {
            return score;
        }
        if let Some(limit) = self.rules.max_plies {
            if self.history.root_plies() + ply as u32 >= limit {
                return DRAW;
            }
        }
        if ply >= MAX_PLY {
            return self.td.evaluator.evaluate(pos);
        }
        // The grandchildren's count starts afresh (a ply below MAX_PLY, so in the stack).
        self.td.stack[ply + 2].cutoffs = 0;
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
            match tt_entry {
                Some(e) => e.eval,
                None => self.td.evaluator.evaluate(pos),
            }
        };
        self.td.stack[ply].static_eval = eval;
        let improving = !in_check && ply >= 2 && eval > self.td.stack[ply - 2].static_eval;

        if !pv_node && !in_check {
            // 5. Reverse futility pruning: far above beta near the horizon.
            if depth <= RFP_MAX_DEPTH.get()
                && eval - RFP_MARGIN_PER_PLY.get() * depth
                    + if improving {
                        RFP_IMPROVING_BONUS.get()
                    } else {
                        0
                    }
                    >= beta
                && beta.abs() < MATE_IN_MAX_PLY
            {
                return eval;
            }
            // 6. Null move pruning: even passing keeps us above beta. (Zugzwang hardly
            //    exists with drops.)
            if depth >= NMP_MIN_DEPTH
                && eval >= beta
                && self.td.stack[ply].played.is_some()
                && beta.abs() < MATE_IN_MAX_PLY
            {
                let r = NMP_BASE_REDUCTION.get()
                    + depth * NMP_DEPTH_PCT.get() / 100
                    + ((eval - beta) / NMP_EVAL_STEP.get()).min(NMP_EVAL_MAX.get());
                let child = self.make_null_move(pos, ply);
                let score =
                    -self.search::<false>(&child, depth - r, -beta, -beta + 1, ply + 1, !cut_node);
                self.unmake_move();
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

        // 7. ProbCut: a good capture that beats beta by a margin in a reduced search would
        //    very likely beat beta at full depth too.
        let probcut_beta = beta + PROBCUT_MARGIN.get();
        // The depth a ProbCut result is stored at; a table entry as deep that stays below
        // probcut_beta says the cut will not come.
        let probcut_depth = depth - PROBCUT_REDUCTION.get() + 1;
        if !pv_node
            && !in_check
            && depth >= PROBCUT_MIN_DEPTH
            && beta.abs() < MATE_IN_MAX_PLY
            && !tt_entry
                .is_some_and(|e| e.depth >= probcut_depth && from_tt(e.score, ply) < probcut_beta)
        {
            let mut picker = MovePicker::quiescence(pos, tt_move, false);
            while let Some(mv) = picker.next(pos, &self.td) {
                if !pos.is_capture(mv) || see(pos, mv) < 0 {
                    continue;
                }
                let child = self.make_move(pos, mv, ply);
                let mut score =
                    -self.quiescence(&child, -probcut_beta, -probcut_beta + 1, ply + 1, 0);
                if score >= probcut_beta {
                    score = -self.search::<false>(
                        &child,
                        depth - PROBCUT_REDUCTION.get(),
                        -probcut_beta,
                        -probcut_beta + 1,
                        ply + 1,
                        !cut_node,
                    );
                }
                self.unmake_move();
                if self.control.stopped() {
                    return 0;
                }
                if score >= probcut_beta {
                    self.tt.store(
                        key,
                        Some(mv),
                        to_tt(score, ply),
                        eval,
                        probcut_depth,
                        Bound::Lower,
                    );
                    return score;
                }
            }
        }

        // 8. Internal iterative reduction: no TT move on a deep node, search it shallower.
        if depth >= IIR_MIN_DEPTH && tt_move.is_none() && (pv_node || cut_node) {
            depth -= 1;
        }

        // 9. The move loop.
        let side = pos.side_to_move();
        let previous = self.td.stack[ply].played;
        let countermove = previous.and_then(|p| self.td.countermoves.get(p));
        let continuation = [
            self.td.stack[ply].piece_to,
            if ply >= 1 {
                self.td.stack[ply - 1].piece_to
            } else {
                None
            },
        ];
        let mut picker = MovePicker::new(
            pos,
            tt_move,
            self.td.stack[ply].killers,
            countermove,
            continuation,
        );
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut move_number = 0;
        let mut quiets_tried: Vec<(Move, Option<PieceTo>)> = Vec::new();
        let original_alpha = alpha;
        while let Some(mv) = picker.next(pos, &self.td) {
            move_number += 1;
            // Asked for now, the child's hash bucket is on its way while the pruning below
            // decides (a prefetch in `make_move` came too late to hide the wait).
            self.tt.prefetch(pos.key_after(mv));
            let quiet = !pos.is_capture(mv) && !mv.is_promotion();
            let gives_check = pos.gives_check(mv);

            // 10. Shallow pruning of late quiet moves once a non-losing score is in hand.
            if !pv_node && !in_check && best > -MATE_IN_MAX_PLY && quiet && !gives_check {
                let lmp_limit =
                    (LMP_BASE.get() + depth * depth) as usize / if improving { 1 } else { 2 };
                if depth <= LMP_MAX_DEPTH && move_number > lmp_limit + LMP_SLACK.get() as usize {
                    continue;
                }
                if depth <= FUTILITY_MAX_DEPTH.get()
                    && eval + FUTILITY_BASE.get() + FUTILITY_PER_PLY.get() * depth <= alpha
                {
                    continue;
                }
            }

            // 11. Check extension.
            let extension =
                i32::from(gives_check && ply < 2 * depth as usize + CHECK_EXTENSION_SLACK);
            let new_depth = depth - 1 + extension;

            // 12. Late-move reductions, in the search ladder of `search_child`.
            let mut r = 0;
            if depth >= LMR_MIN_DEPTH && move_number > 2 + pv_node as usize && quiet {
                r = reduction(depth, move_number);
                r -= pv_node as i32;
                r -= (self.td.history.get(side, mv) / LMR_HISTORY_DIVISOR.get())
                    .clamp(-LMR_HISTORY_MAX, LMR_HISTORY_MAX);
                r += !improving as i32;
                r += cut_node as i32;
                r += (self.td.stack[ply + 1].cutoffs > LMR_CUTOFF_COUNT.get() as u32) as i32;
                if gives_check {
                    r -= 1;
                }
                r = r.clamp(0, new_depth - 1);
            }
            let child = self.make_move(pos, mv, ply);
            let moved = self.td.stack[ply + 1].piece_to;
            let score = self.search_child::<PV>(
                &child,
                move_number == 1,
                new_depth,
                r,
                alpha,
                beta,
                ply,
                cut_node,
            );
            self.unmake_move();
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
                        // 13. A cutoff: count it, and teach the ordering heuristics.
                        self.td.stack[ply].cutoffs += 1;
                        if quiet {
                            self.reward_quiet_cutoff(
                                side,
                                depth,
                                ply,
                                (mv, moved),
                                &quiets_tried,
                                &continuation,
                                previous,
                            );
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if quiet && quiets_tried.len() < QUIETS_REMEMBERED {
                quiets_tried.push((mv, moved));
            }
        }

        // 14. No legal move: the side to move loses (checkmate or not).
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

    /// A quiet move caused a cutoff: it becomes a killer and the countermove, and gains
    /// history; the quiet moves tried before it lose some.
    #[allow(clippy::too_many_arguments)]
    fn reward_quiet_cutoff(
        &mut self,
        side: gogo_rules::Color,
        depth: i32,
        ply: usize,
        (mv, moved): (Move, Option<PieceTo>),
        quiets_tried: &[(Move, Option<PieceTo>)],
        continuation: &[Option<PieceTo>; 2],
        previous: Option<Move>,
    ) {
        let bonus = (depth * depth * HISTORY_BONUS_SCALE.get()).min(HISTORY_BONUS_MAX.get());
        self.td.stack[ply].add_killer(mv);
        self.td.history.update(side, mv, bonus);
        for &(q, _) in quiets_tried {
            self.td.history.update(side, q, -bonus);
        }
        for &before in continuation.iter().flatten() {
            if let Some(current) = moved {
                self.td.continuation.update(before, current, bonus);
            }
            for &(_, q) in quiets_tried {
                if let Some(q) = q {
                    self.td.continuation.update(before, q, -bonus);
                }
            }
        }
        if let Some(p) = previous {
            self.td.countermoves.set(p, mv);
        }
    }

    /// Searches the root moves from `pv_index` on, in their current order.
    fn root_search(&mut self, depth: i32, mut alpha: i32, beta: i32, pv_index: usize) -> i32 {
        self.td.nodes += 1;
        self.td.stack[2].cutoffs = 0;
        let root = self.root.clone();
        let mut best = -INFINITE;
        for i in pv_index..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            let gives_check = root.gives_check(mv);
            let new_depth = depth - 1 + i32::from(gives_check);
            let reduction = i32::from(
                depth >= LMR_MIN_DEPTH
                    && i > pv_index + ROOT_LMR_AFTER
                    && !root.is_capture(mv)
                    && !gives_check,
            );
            self.td.seldepth = 0;
            let nodes_before = self.td.nodes;
            let child = self.make_move(&root, mv, 0);
            let score = self.search_child::<true>(
                &child,
                i == pv_index,
                new_depth,
                reduction,
                alpha,
                beta,
                0,
                false,
            );
            self.unmake_move();
            self.root_moves[i].nodes += self.td.nodes - nodes_before;
            if self.control.stopped() {
                return best;
            }
            let rm = &mut self.root_moves[i];
            if i == pv_index || score > alpha {
                rm.score = score;
                rm.seldepth = self.td.seldepth;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.td.stack[1].pv);
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
    pub(crate) fn iterate(&mut self, report: &dyn Fn(SearchInfo)) {
        self.td.evaluator.start(&self.root);
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 1)
            .clamp(1, MAX_PLY as i32 - 1);
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
                let mut delta = ASPIRATION_DELTA.get();
                let (mut alpha, mut beta) =
                    if search_depth >= ASPIRATION_MIN_DEPTH && previous.abs() < 10_000 {
                        (previous - delta, previous + delta)
                    } else {
                        (-INFINITE, INFINITE)
                    };
                loop {
                    let full_window = alpha <= -INFINITE && beta >= INFINITE;
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
                        // Nothing to widen: whatever the full window gave stands.
                        None => break,
                        Some(_) if full_window => break,
                        Some(b) => {
                            if self.td.id == 0 && self.control.elapsed() > Duration::from_secs(2) {
                                self.report(search_depth, pv_index, Some(b), report);
                            }
                            delta = (delta + delta / 2).min(INFINITE);
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
            self.td.completed_lines.clear();
            self.td
                .completed_lines
                .extend(self.root_moves[..lines].iter().map(|rm| (rm.mv, rm.score)));
            if self.td.id == 0 {
                for pv_index in 0..lines {
                    self.report(search_depth, pv_index, None, report);
                }
                let iteration = Iteration {
                    depth,
                    best_move: self.td.best_move,
                    best_score: self.td.best_score,
                    best_move_nodes: self.root_moves[0].nodes,
                    root_nodes: self.root_moves.iter().map(|rm| rm.nodes).sum(),
                    root_moves: self.root_moves.len(),
                    total_nodes: self.total_nodes(),
                };
                let (elapsed, pondering) = (self.control.elapsed(), self.control.pondering());
                if self.time.stop_after(iteration, elapsed, pondering) {
                    break;
                }
            }
            depth += 1;
        }
    }
}
