//! Training samples: the features of a position from the side to move's and the other
//! side's perspective, and the target win probability.

use gogo_rules::{Position, Rng};
use gogo_search::nnue::data::Record;
use gogo_search::nnue::features::active_features;
use std::collections::HashSet;

/// Active features per perspective: one per piece, twelve in a full set (positions with
/// fewer pieces pad with [`NO_FEATURE`]).
pub const ACTIVE: usize = 12;
/// Padding in a sample's feature list.
pub const NO_FEATURE: u16 = u16::MAX;

/// One position, ready for the model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Features from the side to move's perspective.
    pub us: [u16; ACTIVE],
    /// Features from the other side's perspective.
    pub them: [u16; ACTIVE],
    /// The target win probability for the side to move.
    pub target: f32,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl Sample {
    /// The sample of `position` with `target`.
    pub fn new(position: &Position, target: f32) -> Sample {
        let side = position.side_to_move();
        let features = |perspective| {
            let f = active_features(position, perspective);
            let mut out = [NO_FEATURE; ACTIVE];
            for (o, i) in out.iter_mut().zip(f) {
                *o = i as u16;
            }
            out
        };
        Sample {
            us: features(side),
            them: features(!side),
            target,
        }
    }

    /// The sample of a record: `lambda` of the target is the search score's win probability
    /// (`sigmoid(score / score_scale)`), the rest the game's result.
    pub fn from_record(record: &Record, score_scale: f64, lambda: f64) -> Sample {
        let from_score = sigmoid(record.score as f64 / score_scale);
        let target = lambda * from_score + (1.0 - lambda) * record.result.points() as f64;
        Sample::new(&record.position, target as f32)
    }
}

/// Training and validation samples.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Samples to train on, shuffled.
    pub train: Vec<Sample>,
    /// Held-out samples, for the validation loss.
    pub validation: Vec<Sample>,
    /// Records dropped as repeats of an earlier position.
    pub duplicates: usize,
}

impl Dataset {
    /// Builds the samples of `files` (each its score scale and records), dropping repeated
    /// positions (the first is kept), shuffling with `seed` and holding out
    /// `validation_fraction` of them.
    pub fn build(
        files: &[(u32, Vec<Record>)],
        lambda: f64,
        seed: u64,
        validation_fraction: f64,
    ) -> Dataset {
        let mut seen = HashSet::new();
        let mut samples = Vec::new();
        let mut duplicates = 0;
        for (scale, records) in files {
            for record in records {
                let mut key = record.encode();
                key[28..].fill(0); // the position only, not its score, result or ply
                if !seen.insert(key) {
                    duplicates += 1;
                    continue;
                }
                samples.push(Sample::from_record(record, *scale as f64, lambda));
            }
        }
        let mut rng = Rng::new(seed);
        for i in (1..samples.len()).rev() {
            samples.swap(i, rng.below(i + 1));
        }
        let held = ((samples.len() as f64) * validation_fraction).round() as usize;
        let validation = samples.split_off(samples.len() - held.min(samples.len()));
        Dataset {
            train: samples,
            validation,
            duplicates,
        }
    }
}
