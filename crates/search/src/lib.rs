//! # gogo-search
//!
//! Search and evaluation for the gogo minishogi engine: iterative deepening principal
//! variation search with aspiration windows, quiescence search, null-move pruning, late-move
//! reductions and futility pruning; a staged move picker; a lock-free transposition table
//! shared by Lazy SMP threads; and a hand-aware evaluation whose weights live in one module.

// Unsafe code only where it says why it is sound (the SIMD dispatch of the network, the
// helper pool's borrowed jobs).
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod bench;
pub mod control;
pub mod eval;
pub mod evaluator;
pub mod fuzz_checks;
pub mod game_history;
pub mod history;
pub mod job;
pub mod movepick;
pub mod nnue;
pub mod params;
pub mod pool;
pub mod report;
mod search;
pub mod searcher;
pub mod see;
pub mod skill;
pub mod thread;
pub mod thread_data;
pub mod time;
pub mod tt;
pub mod value;
pub mod weights;

pub use control::SearchControl;
pub use evaluator::{Evaluation, Evaluator};
pub use game_history::GameHistory;
pub use job::{SearchJob, SearchOptions};
pub use report::{SearchInfo, SearchResult};
pub use searcher::{SearchContext, Searcher};
pub use thread_data::ThreadData;
pub use time::{SearchLimits, TimeBudget, TimeManager};
pub use tt::TranspositionTable;
pub use value::Score;
