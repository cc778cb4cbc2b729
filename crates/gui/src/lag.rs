//! Forgiving network lag on a server clock, after scalachess's `LagTracker`: each move may
//! be credited the lag its connection measured, from a quota that refills a little each move
//! and is capped, so that a slow line is not robbed of its time and a fast one cannot bank
//! time by claiming lag it does not have. A flag falls only once the time is gone and the
//! lag that could still be forgiven is gone too.

use std::time::Duration;

/// The most credited to one move.
pub const MAX_PER_MOVE: Duration = Duration::from_millis(1000);
/// Added to the quota after each move.
pub const GAIN_PER_MOVE: Duration = Duration::from_millis(200);
/// The most the quota holds.
pub const MAX_QUOTA: Duration = Duration::from_millis(2000);
/// The quota a player starts with.
pub const START_QUOTA: Duration = Duration::from_millis(1000);

/// One player's lag quota.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LagTracker {
    quota: Duration,
}

impl Default for LagTracker {
    fn default() -> LagTracker {
        LagTracker { quota: START_QUOTA }
    }
}

impl LagTracker {
    /// The time credited to a move whose connection measured `lag` (half a round trip):
    /// as much of it as the quota and the cap allow. The quota is spent, then refilled.
    pub fn credit(&mut self, lag: Duration) -> Duration {
        let credit = lag.min(self.quota).min(MAX_PER_MOVE);
        self.quota = (self.quota - credit + GAIN_PER_MOVE).min(MAX_QUOTA);
        credit
    }

    /// How long past the end of its time a player's flag waits: the lag that could still
    /// be credited to a move arriving now.
    pub fn grace(&self) -> Duration {
        self.quota.min(MAX_PER_MOVE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn lag_is_credited_from_a_quota_that_refills_and_is_capped() {
        let mut lag = LagTracker::default();
        assert_eq!(lag.credit(ms(300)), ms(300));
        // 1000 - 300 + 200 = 900 left.
        assert_eq!(lag.credit(ms(5000)), ms(900));
        // Spent: only the refill is left.
        assert_eq!(lag.credit(ms(5000)), GAIN_PER_MOVE);
        for _ in 0..50 {
            lag.credit(Duration::ZERO);
        }
        // Never more than the cap per move, however much is in store.
        assert_eq!(lag.grace(), MAX_PER_MOVE);
        assert_eq!(lag.credit(ms(5000)), MAX_PER_MOVE);
    }

    #[test]
    fn a_fast_line_banks_no_time() {
        let mut lag = LagTracker::default();
        for _ in 0..100 {
            assert_eq!(lag.credit(Duration::ZERO), Duration::ZERO);
        }
        assert!(lag.grace() <= MAX_QUOTA);
    }
}
