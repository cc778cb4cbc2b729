//! Per-thread search state, owned by one [`ThreadData`]: move-ordering histories, killers,
//! countermoves, the principal variation and counters. Threads share only the
//! transposition table.

use crate::value::MAX_PLY;
use gogo_rules::{Color, Move};

/// History scores are kept within this bound (gravity formula).
pub const HISTORY_MAX: i32 = 16_384;

/// Number of (coloured piece, destination) pairs.
pub const PIECE_TO: usize = 20 * 25;

/// The (coloured piece, destination) index of a move by `color` moving or dropping `kind`.
#[inline]
pub fn piece_to(color: Color, kind: gogo_rules::PieceKind, mv: Move) -> usize {
    (color.index() * 10 + kind.index()) * 25 + mv.to().index()
}

/// Everything one search thread owns.
pub struct ThreadData {
    /// Thread index; 0 is the main thread, which manages time and reports.
    pub id: usize,
    /// Butterfly history by side to move and move encoding.
    pub history: Vec<[i32; 4096]>,
    /// Two killer moves per ply.
    pub killers: [[Option<Move>; 2]; MAX_PLY + 1],
    /// Continuation history: how good a move (by piece and destination) was after a move
    /// one or two plies earlier (by piece and destination). See [`piece_to`].
    pub continuation: Vec<[i32; PIECE_TO]>,
    /// Countermove by the previous move's encoding.
    pub countermoves: Vec<Option<Move>>,
    /// Triangular principal-variation table.
    pub pv: Vec<Vec<Move>>,
    /// Nodes searched by this thread.
    pub nodes: u64,
    /// Deepest ply reached in this iteration.
    pub seldepth: usize,
    /// Depth of the last completed iteration.
    pub completed_depth: i32,
    /// Score of the last completed iteration.
    pub best_score: i32,
    /// Best root move of the last completed iteration.
    pub best_move: Option<Move>,
}

impl ThreadData {
    /// Fresh state for thread `id`.
    pub fn new(id: usize) -> ThreadData {
        ThreadData {
            id,
            history: vec![[0; 4096]; 2],
            killers: [[None; 2]; MAX_PLY + 1],
            continuation: vec![[0; PIECE_TO]; PIECE_TO],
            countermoves: vec![None; 4096],
            pv: vec![Vec::new(); MAX_PLY + 2],
            nodes: 0,
            seldepth: 0,
            completed_depth: 0,
            best_score: 0,
            best_move: None,
        }
    }

    /// The history score of `mv` for `color`.
    #[inline]
    pub fn history(&self, color: Color, mv: Move) -> i32 {
        self.history[color.index()][mv.bits() as usize & 4095]
    }

    /// Moves a history entry towards `bonus` (positive rewards, negative punishes).
    #[inline]
    pub fn update_history(&mut self, color: Color, mv: Move, bonus: i32) {
        let entry = &mut self.history[color.index()][mv.bits() as usize & 4095];
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }

    /// The continuation-history score of the move `to` after the move `from` (both
    /// [`piece_to`] indices).
    #[inline]
    pub fn continuation(&self, from: usize, to: usize) -> i32 {
        self.continuation[from][to]
    }

    /// Moves a continuation-history entry towards `bonus`.
    #[inline]
    pub fn update_continuation(&mut self, from: usize, to: usize, bonus: i32) {
        let entry = &mut self.continuation[from][to];
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }

    /// Records a quiet move that caused a beta cutoff at `ply`.
    pub fn add_killer(&mut self, ply: usize, mv: Move) {
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
    }

    /// Clears what should not carry over to a new game.
    pub fn clear(&mut self) {
        *self = ThreadData::new(self.id);
    }
}
