//! What a score means: the scale `K` for which `1 / (1 + e^(-score / K))` best predicts the
//! game results of positions scored by a search (least squared error against 1, 0.5, 0).

use gogo_search::nnue::data::Record;

/// The fitted scale and its error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Calibration {
    /// The scale `K`, in centipawns.
    pub scale: f64,
    /// Mean squared error of the prediction at that scale.
    pub error: f64,
    /// Positions used.
    pub positions: usize,
}

impl Calibration {
    /// The winning chance the scale gives a score.
    pub fn chance(&self, centipawns: f64) -> f64 {
        1.0 / (1.0 + (-centipawns / self.scale).exp())
    }
}

fn error(records: &[&Record], scale: f64) -> f64 {
    let total: f64 = records
        .iter()
        .map(|r| {
            let p = 1.0 / (1.0 + (-(r.score as f64) / scale).exp());
            let d = p - r.result.points() as f64;
            d * d
        })
        .sum();
    total / records.len().max(1) as f64
}

/// Fits the scale over `records` (their scores and results), by golden-section search over
/// 50 to 5000 centipawns.
pub fn calibrate(records: &[Record]) -> Calibration {
    let used: Vec<&Record> = records.iter().collect();
    let (mut lo, mut hi) = (50.0f64, 5000.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if error(&used, a) < error(&used, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    let scale = (lo + hi) / 2.0;
    Calibration {
        scale,
        error: error(&used, scale),
        positions: used.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gogo_rules::{Position, Rng};
    use gogo_search::nnue::data::GameResult;

    /// Results drawn from a known scale are fitted back to it.
    #[test]
    fn recovers_a_known_scale() {
        let mut rng = Rng::new(9);
        let records: Vec<Record> = (0..40_000)
            .map(|_| {
                let score = rng.below(2001) as i32 - 1000;
                let p = 1.0 / (1.0 + (-(score as f64) / 300.0).exp());
                let result = if rng.unit() < p {
                    GameResult::Win
                } else {
                    GameResult::Loss
                };
                Record {
                    position: Position::startpos(),
                    score: score as i16,
                    result,
                    ply: 0,
                }
            })
            .collect();
        let c = calibrate(&records);
        assert!((c.scale - 300.0).abs() < 25.0, "{c:?}");
        assert!((c.chance(0.0) - 0.5).abs() < 1e-9);
    }
}
