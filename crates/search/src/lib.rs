//! # gogo-search
//!
//! Search and evaluation for the gogo minishogi engine: iterative deepening principal
//! variation search with aspiration windows, quiescence search, null-move pruning, late-move
//! reductions and futility pruning; a staged move picker; a lock-free transposition table
//! shared by Lazy SMP threads; and a hand-aware evaluation whose weights live in one module.

#![warn(missing_docs)]

pub mod bench;
pub mod eval;
pub mod movepick;
pub mod search;
pub mod see;
pub mod thread;
pub mod time;
pub mod tt;
pub mod value;
pub mod weights;

pub use search::{
    search, History, SearchControl, SearchInfo, SearchJob, SearchOptions, SearchResult,
};
pub use thread::ThreadData;
pub use time::{SearchLimits, TimeBudget};
pub use tt::TranspositionTable;
pub use value::Score;
