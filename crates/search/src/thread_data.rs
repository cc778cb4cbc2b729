//! Per-thread search state, owned by one [`ThreadData`]: move-ordering histories, the
//! per-ply stack (moves played, static evaluations, killers, principal variations), the
//! evaluation's state and counters. Threads share only the transposition table.

use crate::evaluator::{Evaluation, Evaluator};
use crate::history::{ButterflyHistory, ContinuationHistory, CounterMoves, PieceTo};
use crate::value::MAX_PLY;
use gogo_rules::Move;

/// What the search keeps for one ply of the current line.
#[derive(Clone, Debug, Default)]
pub struct PlyState {
    /// The move that reached this ply (`None` at the root and after a null move).
    pub played: Option<Move>,
    /// Its piece and destination, for continuation history.
    pub piece_to: Option<PieceTo>,
    /// The static evaluation here (not in check), to tell whether it is improving.
    pub static_eval: i32,
    /// Two quiet moves that caused a cutoff at this ply (kept from search to search).
    pub killers: [Option<Move>; 2],
    /// The principal variation from this ply (triangular PV table).
    pub pv: Vec<Move>,
    /// Beta cutoffs in the move loops of nodes at this ply since the node two plies up
    /// began (it resets the count), for late-move reductions.
    pub cutoffs: u32,
}

impl PlyState {
    /// Records a quiet move that caused a beta cutoff.
    pub fn add_killer(&mut self, mv: Move) {
        if self.killers[0] != Some(mv) {
            self.killers[1] = self.killers[0];
            self.killers[0] = Some(mv);
        }
    }
}

/// Everything one search thread owns.
pub struct ThreadData {
    /// Thread index; 0 is the main thread, which manages time and reports.
    pub id: usize,
    /// Butterfly history.
    pub history: ButterflyHistory,
    /// Continuation history, one and two plies back.
    pub continuation: ContinuationHistory,
    /// Countermoves.
    pub countermoves: CounterMoves,
    /// The per-ply stack, [`MAX_PLY`] + 2 entries (a child of the deepest ply has one).
    pub stack: Vec<PlyState>,
    /// The evaluation, with its per-thread state.
    pub evaluator: Evaluator,
    /// Nodes searched by this thread in the current search.
    pub nodes: u64,
    /// Deepest ply reached in this iteration.
    pub seldepth: usize,
    /// Depth of the last completed iteration.
    pub completed_depth: i32,
    /// Score of the last completed iteration.
    pub best_score: i32,
    /// Best root move of the last completed iteration.
    pub best_move: Option<Move>,
    /// The main thread's MultiPV lines of the last completed iteration: each line's first
    /// move and score, best first (what a strength level chooses among).
    pub completed_lines: Vec<(Move, i32)>,
}

impl ThreadData {
    /// Fresh state for thread `id`.
    pub fn new(id: usize) -> ThreadData {
        ThreadData {
            id,
            history: ButterflyHistory::new(),
            continuation: ContinuationHistory::new(),
            countermoves: CounterMoves::new(),
            stack: vec![PlyState::default(); MAX_PLY + 2],
            evaluator: Evaluator::default(),
            nodes: 0,
            seldepth: 0,
            completed_depth: 0,
            best_score: 0,
            best_move: None,
            completed_lines: Vec::new(),
        }
    }

    /// Readies the thread for a new search with `evaluation`: counters and the
    /// line-dependent part of the stack are reset; histories and killers carry over.
    pub fn start_search(&mut self, evaluation: &Evaluation, best_score: i32) {
        if !self.evaluator.uses(evaluation) {
            self.evaluator = Evaluator::new(evaluation);
        }
        self.nodes = 0;
        self.seldepth = 0;
        self.completed_depth = 0;
        self.best_move = None;
        self.completed_lines.clear();
        self.best_score = best_score;
        for ply in &mut self.stack {
            ply.played = None;
            ply.piece_to = None;
            ply.static_eval = 0;
            ply.cutoffs = 0;
        }
    }

    /// The ordering score of a quiet move: butterfly history plus the continuation
    /// histories of the moves one and two plies back (`continuation`).
    #[inline]
    pub fn quiet_score(
        &self,
        color: gogo_rules::Color,
        mv: Move,
        piece_to: Option<PieceTo>,
        continuation: &[Option<PieceTo>; 2],
    ) -> i32 {
        let mut score = self.history.get(color, mv);
        if let Some(current) = piece_to {
            for previous in continuation.iter().flatten() {
                score += self.continuation.get(*previous, current);
            }
        }
        score
    }

    /// Clears what should not carry over to a new game.
    pub fn clear(&mut self) {
        let evaluator = std::mem::take(&mut self.evaluator);
        *self = ThreadData::new(self.id);
        self.evaluator = evaluator;
    }
}
