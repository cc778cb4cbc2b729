//! Training as types: the learning-rate [`Schedule`] over the epochs, and the [`Trainer`]
//! (the model, its optimiser and the shuffle), whose epochs are deterministic for a seed
//! whatever the number of threads.

use crate::{Adam, Model, Sample, PARAMETERS};
use gogo_rules::Rng;
use rayon::prelude::*;

/// Positions per gradient chunk: fixed, so that the sums (and the network) do not depend on
/// the number of threads.
pub const CHUNK: usize = 1024;

/// The learning rate over the epochs: `lr`, then a tenth of it for the last part.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// Epochs in all.
    pub epochs: usize,
    /// The learning rate at the start.
    pub lr: f32,
    /// The last epoch at the full rate.
    pub decay_from: usize,
}

impl Schedule {
    /// `epochs` epochs at `lr`, the last `decay_fraction` of them at a tenth.
    pub fn new(epochs: usize, lr: f32, decay_fraction: f64) -> Schedule {
        Schedule {
            epochs,
            lr,
            decay_from: ((epochs as f64) * (1.0 - decay_fraction)).round() as usize,
        }
    }

    /// The rate of `epoch` (from 1).
    pub fn lr(&self, epoch: usize) -> f32 {
        if epoch > self.decay_from {
            self.lr / 10.0
        } else {
            self.lr
        }
    }
}

/// The mean loss of `model` over `samples` (NaN for none).
pub fn mean_loss(model: &Model, samples: &[Sample]) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    let total: f64 = samples
        .par_chunks(CHUNK)
        .map(|c| c.iter().map(|s| model.loss(s) as f64).sum::<f64>())
        .collect::<Vec<_>>()
        .iter()
        .sum();
    total / samples.len() as f64
}

/// A model in training.
pub struct Trainer {
    model: Model,
    adam: Adam,
    rng: Rng,
    batch: usize,
}

impl Trainer {
    /// A fresh model from `seed`, trained `batch` positions a step.
    pub fn new(seed: u64, batch: usize) -> Trainer {
        Trainer::starting_from(Model::new(seed), seed, batch)
    }

    /// Training that goes on from `model` (a network read back with
    /// [`Model::from_network`], say), shuffled from `seed`, `batch` positions a step.
    pub fn starting_from(model: Model, seed: u64, batch: usize) -> Trainer {
        Trainer {
            model,
            adam: Adam::new(),
            rng: Rng::new(seed ^ 0x5eed),
            batch: batch.max(1),
        }
    }

    /// The model.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// One epoch: `train` shuffled, then a step of the optimiser at `lr` per batch.
    /// Returns the mean training loss.
    pub fn epoch(&mut self, train: &mut [Sample], lr: f32) -> f64 {
        for i in (1..train.len()).rev() {
            train.swap(i, self.rng.below(i + 1));
        }
        let mut train_loss = 0.0;
        for batch in train.chunks(self.batch) {
            let parts: Vec<(Vec<f32>, f64)> = batch
                .par_chunks(CHUNK)
                .map(|chunk| {
                    let mut grad = vec![0f32; PARAMETERS];
                    let loss = self.model.accumulate_gradient(chunk, &mut grad);
                    (grad, loss)
                })
                .collect();
            let mut grad = vec![0f32; PARAMETERS];
            for (g, loss) in &parts {
                for (a, b) in grad.iter_mut().zip(g) {
                    *a += b;
                }
                train_loss += loss;
            }
            let n = batch.len() as f32;
            grad.iter_mut().for_each(|g| *g /= n);
            self.adam.step(&mut self.model, &grad, lr);
        }
        train_loss / train.len().max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_drops_to_a_tenth_for_the_last_part() {
        let s = Schedule::new(40, 1e-3, 0.25);
        assert_eq!(s.decay_from, 30);
        assert_eq!(s.lr(30), 1e-3);
        assert!((s.lr(31) - 1e-4).abs() < 1e-9);
    }
}
