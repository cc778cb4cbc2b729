//! Time management: a soft target (no new iteration after it) and a hard limit (the search
//! stops inside an iteration) for each move, from the USI clock parameters.

use crate::params::{
    NODE_TM_BASE_PCT, NODE_TM_SCALE_PCT, TM_BYOYOMI_MAIN_DIVISOR, TM_INC_HARD_DIVISOR,
    TM_INC_SHARE_PCT, TM_INC_SOFT_DIVISOR,
};
use gogo_rules::Color;
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

    /// The budget for `side` to move under `limits`, keeping `overhead` in reserve for
    /// the transmission and the GUI.
    pub fn new(limits: &SearchLimits, side: Color, overhead: Duration) -> TimeBudget {
        if limits.infinite {
            return TimeBudget::UNLIMITED;
        }
        if let Some(t) = limits.movetime {
            // A fixed time per move is spent whole: nothing is saved for later.
            let t = t.saturating_sub(overhead).max(Duration::from_millis(1));
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
}
