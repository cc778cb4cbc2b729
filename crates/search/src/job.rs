//! What to search ([`SearchJob`]) and the settings that stay from search to search
//! ([`SearchOptions`]).

use crate::evaluator::Evaluation;
use crate::game_history::GameHistory;
use crate::time::SearchLimits;
use gogo_rules::{Position, RuleSet};
use std::time::Duration;

/// Settings that stay the same from search to search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Search threads.
    pub threads: usize,
    /// Principal variations to report.
    pub multipv: usize,
    /// Time kept in reserve per move on a clock, for the GUI and the pipes (a `movetime` is
    /// spent whole).
    pub move_overhead: Duration,
    /// Game rules: repetition meaning and ply limit.
    pub rules: RuleSet,
    /// The evaluation.
    pub evaluation: Evaluation,
    /// The strength level (0: full strength; 1 to [`crate::skill::MAX_LEVEL`]): a game
    /// search at a level searches and chooses as [`crate::skill`] says; analysis (an
    /// infinite search) stays at full strength.
    pub level: u8,
    /// Seeds the level's chance (its shallow moves, its choice among the lines), so that
    /// games differ and a test can repeat one.
    pub level_seed: u64,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(10),
            rules: RuleSet::standard(),
            evaluation: Evaluation::default(),
            level: 0,
            level_seed: 0,
        }
    }
}

/// What to search: the position, how it was reached, the limits and the settings.
#[derive(Clone, Debug)]
pub struct SearchJob {
    /// The position to move in.
    pub root: Position,
    /// The game up to and including `root`, for the repetition rules.
    pub history: GameHistory,
    /// Limits from `go`.
    pub limits: SearchLimits,
    /// Threads, MultiPV, overhead and rules.
    pub options: SearchOptions,
}
