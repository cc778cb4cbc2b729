//! The evaluation as the search sees it: one [`Evaluator`] per thread, told of every move
//! made and unmade, so that an evaluation with incremental state (the NNUE's accumulators)
//! follows the search; the hand-made evaluation ignores the moves.

use crate::eval;
use crate::nnue::{Network, NnueState};
use gogo_rules::{Move, Position};
use std::sync::Arc;

/// Which evaluation a search uses (a search option).
#[derive(Clone, Debug)]
pub enum Evaluation {
    /// The hand-made evaluation ([`crate::eval`]).
    Classical,
    /// An NNUE network ([`crate::nnue`]).
    Nnue(Arc<Network>),
}

impl Default for Evaluation {
    /// The network built into the binary: it beat the hand-made evaluation by SPRT
    /// (`crates/search/nets/README.md`).
    fn default() -> Self {
        Evaluation::Nnue(Network::embedded())
    }
}

impl PartialEq for Evaluation {
    /// The same kind, and for networks the same loaded network.
    fn eq(&self, other: &Evaluation) -> bool {
        match (self, other) {
            (Evaluation::Classical, Evaluation::Classical) => true,
            (Evaluation::Nnue(a), Evaluation::Nnue(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

/// A thread's evaluation, with its state.
#[derive(Clone, Debug, Default)]
pub enum Evaluator {
    /// The hand-made evaluation: stateless.
    #[default]
    Classical,
    /// A network and this thread's accumulator stack.
    Nnue(Box<NnueState>),
}

impl Evaluator {
    /// A fresh evaluator for `evaluation`.
    pub fn new(evaluation: &Evaluation) -> Evaluator {
        match evaluation {
            Evaluation::Classical => Evaluator::Classical,
            Evaluation::Nnue(net) => Evaluator::Nnue(Box::new(NnueState::new(net.clone()))),
        }
    }

    /// Whether this evaluator evaluates with `evaluation`.
    pub fn uses(&self, evaluation: &Evaluation) -> bool {
        match (self, evaluation) {
            (Evaluator::Classical, Evaluation::Classical) => true,
            (Evaluator::Nnue(state), Evaluation::Nnue(net)) => Arc::ptr_eq(state.network(), net),
            _ => false,
        }
    }

    /// A new search starts from `root`: state from earlier searches is dropped.
    #[inline]
    pub fn start(&mut self, root: &Position) {
        if let Evaluator::Nnue(state) = self {
            state.start(root);
        }
    }

    /// `child` was reached from `parent` by `mv` (`None` for a null move).
    #[inline]
    pub fn push(&mut self, parent: &Position, mv: Option<Move>, child: &Position) {
        if let Evaluator::Nnue(state) = self {
            state.push(parent, mv, child);
        }
    }

    /// The last pushed move was taken back.
    #[inline]
    pub fn pop(&mut self) {
        if let Evaluator::Nnue(state) = self {
            state.pop();
        }
    }

    /// The score of `pos`, the position after the last push, from its side to move's point
    /// of view, in centipawns.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        match self {
            Evaluator::Classical => eval::evaluate(pos),
            Evaluator::Nnue(state) => state.evaluate(pos),
        }
    }
}
