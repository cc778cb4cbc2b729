//! Time management, all of it: [`TimeBudget`] turns the USI clock into a soft target (no new
//! iteration after it) and a hard limit (the search stops inside an iteration);
//! [`TimeManager`] owns that budget for one search and the state that stretches or shrinks
//! the soft target as the iterations go (best-move instability, the best move's share of the
//! nodes), and answers the search's two questions: stop now, and start another iteration.

use crate::params::{
    INSTABILITY_DECAY, INSTABILITY_GROWTH_PCT, INSTABILITY_MAX, NEW_ITERATION_PCT,
    NODE_TM_BASE_PCT, NODE_TM_MIN_DEPTH, NODE_TM_SCALE_PCT, TM_BYOYOMI_MAIN_DIVISOR,
    TM_INC_HARD_DIVISOR, TM_INC_SHARE_PCT, TM_INC_SOFT_DIVISOR,
};
use crate::value::{MATE, MATE_IN_MAX_PLY};
use gogo_rules::{Color, Move};
use std::time::Duration;

/// What `go` asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Remaining main time per colour (`btime`, `wtime`).
    pub time: [Option<Duration>; 2],
    /// Fischer increment per colour (`binc`, `winc`).
    pub increment: [Duration; 2],
    /// Byoyomi per move, once the main time is spent.
    pub byoyomi: Duration,
    /// Moves until the main time is topped up again (classical controls), if known.
    pub moves_to_go: Option<u32>,
    /// Exact time for this move.
    pub movetime: Option<Duration>,
    /// Depth limit in plies.
    pub depth: Option<i32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// No new iteration after this many nodes (data generation's soft limit: the search
    /// ends at the first completed iteration past it, and at [`SearchLimits::nodes`] at the
    /// latest).
    pub soft_nodes: Option<u64>,
    /// The node limit binds only once the first iteration is complete, so that a strength
    /// level always chooses among all its lines, however many moves there are (the clock
    /// still binds at once).
    pub whole_first_iteration: bool,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder: no time limit until `ponderhit`.
    pub ponder: bool,
}

/// Soft and hard limits for one move; `None` for no limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Do not start a new iteration after this (scaled by best-move instability).
    pub soft: Option<Duration>,
    /// Stop the search at this.
    pub hard: Option<Duration>,
}

impl TimeBudget {
    /// No time limit.
    pub const UNLIMITED: TimeBudget = TimeBudget {
        soft: None,
        hard: None,
    };

    /// The budget for `side` to move under `limits`, keeping `overhead` of a clock in
    /// reserve for the transmission and the GUI (a fixed time per move keeps none).
    pub fn new(limits: &SearchLimits, side: Color, overhead: Duration) -> TimeBudget {
        if limits.infinite {
            return TimeBudget::UNLIMITED;
        }
        if let Some(t) = limits.movetime {
            // `go movetime` asks for exactly that long, as Stockfish reads it: spent whole,
            // with no overhead held back (no clock runs out; the overhead guards clocks).
            let t = t.max(Duration::from_millis(1));
            return TimeBudget {
                soft: None,
                hard: Some(t),
            };
        }
        let remaining = limits.time[side.index()];
        let increment = limits.increment[side.index()];
        let byoyomi = limits.byoyomi;
        if remaining.is_none() && byoyomi.is_zero() {
            return TimeBudget::UNLIMITED;
        }
        let remaining = remaining.unwrap_or_default();
        let floor = Duration::from_millis(1);
        // The most this move may take without losing on time.
        let available = (remaining + byoyomi).saturating_sub(overhead).max(floor);
        let (soft, hard) = if !byoyomi.is_zero() {
            // Byoyomi is lost if unused: spend it whole, plus a slice of the main time. With
            // no main time left there is no reason to stop before the hard limit.
            let from_main = remaining / TM_BYOYOMI_MAIN_DIVISOR.get() as u32;
            let hard = (from_main * 3 + byoyomi).min(available);
            if remaining.is_zero() {
                return TimeBudget {
                    soft: None,
                    hard: Some(hard.max(floor)),
                };
            }
            let soft = (from_main + byoyomi).min(hard);
            (soft, hard)
        } else if let Some(n) = limits.moves_to_go {
            // Classical control: the clock is topped up after `n` more moves, so the rest
            // can be shared among them (all of it on the last one).
            let soft = remaining / n.min(30) + increment * 3 / 4;
            let hard = (soft * 4).min(available);
            (soft.min(hard), hard)
        } else if !increment.is_zero() {
            let soft = remaining / TM_INC_SOFT_DIVISOR.get() as u32
                + increment * TM_INC_SHARE_PCT.get() as u32 / 100;
            let hard = (remaining / TM_INC_HARD_DIVISOR.get() as u32 + increment).min(available);
            (soft.min(hard), hard)
        } else {
            let hard = (remaining / 6).min(available).max(floor);
            ((remaining / 30).min(hard), hard)
        };
        TimeBudget {
            soft: Some(soft.max(floor)),
            hard: Some(hard.max(floor)),
        }
    }
}

/// The share of a move's time the mate solver may take before the search (one twentieth of
/// the soft target, or of the hard limit where there is no soft one): at fast controls a
/// fixed node count would be a quarter of the move.
const MATE_PROBE_DIVISOR: u32 = 20;

/// What the main thread tells the [`TimeManager`] after each completed iteration.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Iteration {
    /// The iteration's number (1, 2, ...), not the helper-skewed search depth.
    pub(crate) depth: i32,
    /// The best move the iteration settled on.
    pub(crate) best_move: Option<Move>,
    /// Its score.
    pub(crate) best_score: i32,
    /// Nodes below the best move, and below every root move, over all iterations so far.
    pub(crate) best_move_nodes: u64,
    /// See [`Iteration::best_move_nodes`].
    pub(crate) root_nodes: u64,
    /// How many legal root moves there are.
    pub(crate) root_moves: usize,
    /// Every thread's nodes so far (for the soft node limit).
    pub(crate) total_nodes: u64,
}

/// One search's time management: the budget, the state that scales its soft target, and the
/// decisions taken from them. Only the main thread's copy decides; the helpers stop when it
/// says so.
#[derive(Clone, Debug)]
pub struct TimeManager {
    budget: TimeBudget,
    /// Whether the search may stop when it sees fit (no depth, node or infinite search).
    free_to_stop: bool,
    soft_nodes: Option<u64>,
    /// Stretches the soft target while the best move keeps changing; decays back to 1.
    instability: f64,
    last_best: Option<Move>,
}

impl TimeManager {
    /// The time manager of a search for `side` under `limits`, keeping `overhead` in reserve.
    pub fn new(limits: &SearchLimits, side: Color, overhead: Duration) -> TimeManager {
        TimeManager {
            budget: TimeBudget::new(limits, side, overhead),
            free_to_stop: !limits.infinite && limits.depth.is_none() && limits.nodes.is_none(),
            soft_nodes: limits.soft_nodes,
            instability: 1.0,
            last_best: None,
        }
    }

    /// The budget it works from.
    pub fn budget(&self) -> TimeBudget {
        self.budget
    }

    /// The time the mate solver may spend before the search, `None` when the move has no
    /// time limit.
    pub fn mate_probe_time(&self) -> Option<Duration> {
        self.budget
            .soft
            .or(self.budget.hard)
            .map(|t| t / MATE_PROBE_DIVISOR)
    }

    /// Inside an iteration: whether the hard limit has passed. A pondering search has none.
    pub(crate) fn out_of_time(&self, elapsed: Duration, pondering: bool) -> bool {
        !pondering && self.budget.hard.is_some_and(|hard| elapsed >= hard)
    }

    /// After a completed iteration: whether to stop rather than start the next one. Stops
    /// when the soft target, stretched while the best move changes and scaled by the best
    /// move's share of the nodes, is used up (short of it by what a new iteration would
    /// take); at once for a forced move; when a forced mate is found within the depth; and
    /// at the soft node limit.
    pub(crate) fn stop_after(
        &mut self,
        iteration: Iteration,
        elapsed: Duration,
        pondering: bool,
    ) -> bool {
        if self.last_best != iteration.best_move && iteration.depth > 1 {
            let growth = f64::from(INSTABILITY_GROWTH_PCT.get()) / 100.0;
            self.instability = (self.instability * growth).min(INSTABILITY_MAX);
        } else {
            self.instability = (self.instability * INSTABILITY_DECAY).max(1.0);
        }
        self.last_best = iteration.best_move;
        if self
            .soft_nodes
            .is_some_and(|soft| iteration.total_nodes >= soft)
        {
            return true;
        }
        if !pondering {
            if let Some(soft) = self.budget.soft {
                let node_scale = if iteration.depth >= NODE_TM_MIN_DEPTH {
                    best_move_node_scale(iteration.best_move_nodes, iteration.root_nodes)
                } else {
                    // The first iterations' shares say little.
                    1.0
                };
                let target = soft.mul_f64(self.instability * node_scale);
                let target = self.budget.hard.map_or(target, |h| target.min(h));
                let share = f64::from(NEW_ITERATION_PCT.get()) / 100.0;
                if elapsed >= target.mul_f64(share) {
                    return true;
                }
            }
        }
        let free_to_stop = self.free_to_stop && !pondering;
        if free_to_stop && iteration.root_moves == 1 && iteration.depth >= 4 {
            return true; // a forced move: no need to think long
        }
        let best = iteration.best_score.abs();
        // A mate found with room to spare: deeper search cannot improve it.
        free_to_stop && best >= MATE_IN_MAX_PLY && iteration.depth > MATE - best + 4
    }
}

/// How much to stretch (above 1) or shrink the soft target, from the share of the root's
/// nodes (`best_nodes` of `total_nodes`) that went below the best move: a move that took
/// most of the effort has been looked at closely and rarely changes; one that took little
/// has rivals that needed a close look. 1 when nothing was counted.
pub(crate) fn best_move_node_scale(best_nodes: u64, total_nodes: u64) -> f64 {
    if total_nodes == 0 {
        return 1.0;
    }
    let share = (best_nodes as f64 / total_nodes as f64).min(1.0);
    (f64::from(NODE_TM_BASE_PCT.get()) / 100.0 - share) * f64::from(NODE_TM_SCALE_PCT.get()) / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn byoyomi_only_spends_it_all_less_the_margin() {
        let limits = SearchLimits {
            time: [Some(ms(0)); 2],
            byoyomi: ms(200),
            ..Default::default()
        };
        let b = TimeBudget::new(&limits, Color::Sente, ms(30));
        assert_eq!(b.hard, Some(ms(170)));
        assert_eq!(b.soft, None);
    }

    #[test]
    fn never_more_than_the_clock_allows() {
        for (time, inc, byo) in [
            (10u64, 0u64, 0u64),
            (1000, 10, 0),
            (5, 0, 50),
            (60_000, 0, 0),
            (0, 0, 10),
        ] {
            for side in Color::ALL {
                let limits = SearchLimits {
                    time: [Some(ms(time)); 2],
                    increment: [ms(inc); 2],
                    byoyomi: ms(byo),
                    ..Default::default()
                };
                let b = TimeBudget::new(&limits, side, ms(20));
                let hard = b.hard.unwrap();
                assert!(
                    hard <= ms(time + byo).saturating_sub(ms(20)).max(ms(1)),
                    "{time} {inc} {byo}: {hard:?}"
                );
                assert!(b.soft.is_none_or(|soft| soft <= hard));
            }
        }
    }

    #[test]
    fn moves_to_go_shares_the_clock_and_spends_all_on_the_last_move() {
        let at = |n| {
            let limits = SearchLimits {
                time: [Some(ms(40_000)); 2],
                moves_to_go: Some(n),
                ..Default::default()
            };
            TimeBudget::new(&limits, Color::Sente, ms(50))
        };
        assert_eq!(at(20).soft, Some(ms(2_000)));
        assert_eq!(at(20).hard, Some(ms(8_000)));
        assert_eq!(at(1).hard, Some(ms(39_950)));
        // Without it, sudden death keeps more in reserve.
        let sudden = SearchLimits {
            time: [Some(ms(40_000)); 2],
            ..Default::default()
        };
        assert!(TimeBudget::new(&sudden, Color::Sente, ms(50)).hard < at(1).hard);
    }

    #[test]
    fn reads_the_side_to_move_clock() {
        let limits = SearchLimits {
            time: [Some(ms(60_000)), Some(ms(1_000))],
            ..Default::default()
        };
        let sente = TimeBudget::new(&limits, Color::Sente, ms(0));
        let gote = TimeBudget::new(&limits, Color::Gote, ms(0));
        assert!(sente.hard > gote.hard);
        assert_eq!(
            TimeBudget::new(&SearchLimits::default(), Color::Sente, ms(0)),
            TimeBudget::UNLIMITED
        );
    }

    #[test]
    fn a_settled_best_move_shortens_the_soft_target_and_a_contested_one_stretches_it() {
        let settled = best_move_node_scale(95, 100);
        let even = best_move_node_scale(50, 100);
        let contested = best_move_node_scale(10, 100);
        assert!(settled < 1.0, "{settled}");
        assert!(contested > 1.5, "{contested}");
        assert!(settled < even && even < contested);
        // Nothing counted yet: no change; a share above 1 (it cannot be) is taken as 1.
        assert_eq!(best_move_node_scale(0, 0), 1.0);
        assert_eq!(
            best_move_node_scale(200, 100),
            best_move_node_scale(100, 100)
        );
    }

    fn iteration(depth: i32, best: Move) -> Iteration {
        Iteration {
            depth,
            best_move: Some(best),
            best_score: 0,
            best_move_nodes: 50,
            root_nodes: 100,
            root_moves: 10,
            total_nodes: 1_000,
        }
    }

    fn fischer(remaining: u64, increment: u64) -> SearchLimits {
        SearchLimits {
            time: [Some(ms(remaining)); 2],
            increment: [ms(increment); 2],
            ..Default::default()
        }
    }

    #[test]
    fn a_changing_best_move_buys_another_iteration_a_steady_one_does_not() {
        let moves: Vec<Move> = gogo_rules::Position::startpos()
            .legal_moves()
            .iter()
            .copied()
            .collect();
        let limits = fischer(10_000, 100);
        let soft = TimeBudget::new(&limits, Color::Sente, ms(0)).soft.unwrap();
        let share = f64::from(NEW_ITERATION_PCT.get()) / 100.0;
        // Just past the unstretched point where no new iteration starts.
        let elapsed = soft.mul_f64(share * 1.05);
        let mut steady = TimeManager::new(&limits, Color::Sente, ms(0));
        let mut changing = steady.clone();
        for depth in 1..=4 {
            let stopped = steady.stop_after(iteration(depth, moves[0]), ms(0), false);
            assert!(!stopped, "no time used yet, depth {depth}");
            let other = moves[depth as usize % 2];
            assert!(!changing.stop_after(iteration(depth, other), ms(0), false));
        }
        assert!(steady.stop_after(iteration(5, moves[0]), elapsed, false));
        assert!(!changing.stop_after(iteration(5, moves[0]), elapsed, false));
        // Pondering: no soft target at all.
        assert!(!steady.stop_after(iteration(6, moves[0]), elapsed * 10, true));
    }

    #[test]
    fn the_hard_limit_holds_except_while_pondering() {
        let tm = TimeManager::new(&fischer(10_000, 0), Color::Gote, ms(0));
        let hard = tm.budget().hard.unwrap();
        assert!(!tm.out_of_time(hard - ms(1), false));
        assert!(tm.out_of_time(hard, false));
        assert!(!tm.out_of_time(hard * 10, true));
        let infinite = SearchLimits {
            infinite: true,
            ..fischer(10_000, 0)
        };
        let tm = TimeManager::new(&infinite, Color::Gote, ms(0));
        assert!(!tm.out_of_time(Duration::from_secs(3600), false));
        assert_eq!(tm.mate_probe_time(), None);
    }

    #[test]
    fn forced_moves_and_found_mates_stop_unless_the_search_is_bounded_otherwise() {
        let mv = gogo_rules::Position::startpos()
            .legal_moves()
            .iter()
            .copied()
            .next()
            .unwrap();
        let forced = Iteration {
            root_moves: 1,
            ..iteration(4, mv)
        };
        let mate = Iteration {
            best_score: MATE - 3,
            ..iteration(8, mv)
        };
        let far_mate = Iteration {
            best_score: MATE - 9,
            ..iteration(8, mv)
        };
        let clock = fischer(600_000, 0);
        let fresh = || TimeManager::new(&clock, Color::Sente, ms(0));
        assert!(fresh().stop_after(forced, ms(0), false));
        assert!(fresh().stop_after(mate, ms(0), false));
        assert!(!fresh().stop_after(far_mate, ms(0), false));
        // `go depth` and `go infinite` search as asked, forced or not.
        for bounded in [
            SearchLimits {
                depth: Some(20),
                ..clock.clone()
            },
            SearchLimits {
                infinite: true,
                ..clock.clone()
            },
        ] {
            let mut tm = TimeManager::new(&bounded, Color::Sente, ms(0));
            assert!(!tm.stop_after(forced, ms(0), false));
            assert!(!tm.stop_after(mate, ms(0), false));
        }
        // The soft node limit (datagen) ends the search at the first iteration past it.
        let soft_nodes = SearchLimits {
            soft_nodes: Some(1_000),
            ..Default::default()
        };
        let mut tm = TimeManager::new(&soft_nodes, Color::Sente, ms(0));
        assert!(tm.stop_after(iteration(2, mv), ms(0), false));
    }

    #[test]
    fn a_fixed_time_per_move_is_spent_whole_whatever_the_overhead() {
        let movetime = SearchLimits {
            movetime: Some(ms(100)),
            ..Default::default()
        };
        let budget = TimeBudget::new(&movetime, Color::Sente, ms(10));
        assert_eq!(budget.hard, Some(ms(100)));
        assert_eq!(budget.soft, None);
        // A clock keeps the overhead back: its hard limit is under what is left.
        let clock = fischer(100, 0);
        let budget = TimeBudget::new(&clock, Color::Sente, ms(10));
        assert!(budget.hard.unwrap() <= ms(90), "{budget:?}");
    }

    #[test]
    fn the_mate_probe_gets_a_twentieth_of_the_move() {
        let limits = fischer(10_000, 100);
        let tm = TimeManager::new(&limits, Color::Sente, ms(0));
        assert_eq!(tm.mate_probe_time(), Some(tm.budget().soft.unwrap() / 20));
        let movetime = SearchLimits {
            movetime: Some(ms(400)),
            ..Default::default()
        };
        let tm = TimeManager::new(&movetime, Color::Sente, ms(0));
        assert_eq!(tm.mate_probe_time(), Some(ms(20)));
    }
}
