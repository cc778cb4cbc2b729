//! What a search tells while it runs ([`SearchInfo`]) and what it returns ([`SearchResult`]).

use crate::tt::Bound;
use crate::value::Score;
use gogo_rules::Move;

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
    /// The MultiPV lines of the main thread's last completed iteration (first move and
    /// score, best first); empty when no iteration completed.
    pub lines: Vec<(Move, i32)>,
}
