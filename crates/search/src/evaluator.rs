//! The evaluation as the search sees it: one [`Evaluator`] per thread, told of every move
//! made and unmade, so that an evaluation with incremental state (NNUE accumulators) can
//! follow the search; the hand-made evaluation simply ignores the moves.

use crate::eval;
use gogo_rules::{Move, Position};

/// A thread's evaluation.
#[derive(Clone, Debug, Default)]
pub enum Evaluator {
    /// The hand-made evaluation ([`crate::eval`]): stateless.
    #[default]
    Classical,
}

impl Evaluator {
    /// A new search starts from `root`: state from earlier searches is dropped.
    #[inline]
    pub fn start(&mut self, _root: &Position) {}

    /// `child` was reached from `parent` by `mv` (`None` for a null move).
    #[inline]
    pub fn push(&mut self, _parent: &Position, _mv: Option<Move>, _child: &Position) {}

    /// The last pushed move was taken back.
    #[inline]
    pub fn pop(&mut self) {}

    /// The score of `pos`, the position after the last push, from its side to move's point
    /// of view, in centipawns.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        match self {
            Evaluator::Classical => eval::evaluate(pos),
        }
    }
}
