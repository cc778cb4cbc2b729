//! # gogo-train
//!
//! Trains gogo's NNUE ([`gogo_search::nnue`]) on the CPU: the float model with the engine's
//! shape and activation, mean squared error between its win probability and a target that
//! blends the search score with the game's result, Adam, batches split over threads with
//! rayon, and the quantisation to the file the engine loads.
//!
//! Every position has exactly twelve active features per perspective (each of the twelve
//! pieces is on the board or in a hand, and the hand features count pieces one by one), so a
//! sample is two arrays of twelve indices and a target.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod calibration;
pub mod dataset;
pub mod fuzz_checks;
pub mod model;
pub mod runs;
pub mod trainer;

pub use dataset::{Dataset, Sample};
pub use model::{Adam, Gradients, Model, PARAMETERS};
pub use trainer::{mean_loss, Schedule, Trainer};
