//! NNUE: an efficiently updatable neural network evaluation.
//!
//! # Inputs
//!
//! Each position is seen from both colours' points of view ("perspectives"). From a
//! perspective, a position is a set of active features out of [`FEATURES`] = 520:
//!
//! | index | feature |
//! |---|---|
//! | `(side · 10 + kind) · 25 + square`, 0-499 | a piece on the board: `side` 0 for the perspective's own pieces, 1 for the other's; `kind` is [`gogo_rules::PieceKind::index`] (promoted kinds apart); `square` is the square index as the perspective sees the board (Gote's view is the board turned 180°: `24 - index`) |
//! | `500 + (side · 5 + kind) · 2 + (k - 1)`, 500-519 | "at least `k` pieces of `kind` in hand" (`k` = 1, 2; `kind` the hand-kind index), so that a capture or a drop adds or removes exactly one feature |
//!
//! A position and its colour-flipped mirror (colours swapped, board turned, hands swapped,
//! the other side to move) have the same features with the perspectives exchanged, so they
//! evaluate the same; [`features`] has the tests.
//!
//! # Network
//!
//! `520 → 256` per perspective (shared weights), the side to move's half first, squared
//! clipped ReLU, `512 → 1`. Integer inference: the first layer in `i16` at scale
//! [`QA`], the output weights at scale [`QB`]; the output in centipawns is
//! `(Σ clamp(a, 0, QA)² · w / QA + bias) · SCALE / (QA · QB)`. See [`network`] for the file
//! format, [`accumulator`] for the incremental update.

pub mod accumulator;
pub mod data;
pub mod features;
pub mod network;
mod simd;

pub use accumulator::NnueState;
pub use network::{embedded_score_scale, Network, NetworkError};

/// Number of input features per perspective.
pub const FEATURES: usize = 520;
/// Width of the hidden layer per perspective.
pub const HIDDEN: usize = 256;
/// Quantisation scale of the first layer (activations clip at this).
pub const QA: i32 = 511;
/// Quantisation scale of the output weights.
pub const QB: i32 = 1024;
/// The network's output unit: `sigmoid(output)` is its win probability, and the engine
/// reports `output · SCALE` as centipawns.
pub const SCALE: i32 = 400;

/// The number after `score scale:` in a provenance text (a network's `.txt`, the hand-made
/// evaluation's weights file): the `K` for which `1 / (1 + e^(-score / K))` fits the results
/// of games the evaluation played, as `gogo-train --calibrate` measured it.
pub fn score_scale_in(provenance: &str) -> Option<f64> {
    provenance.lines().find_map(|line| {
        let rest = line.split("score scale:").nth(1)?;
        rest.split_whitespace().next()?.parse().ok()
    })
}
