//! The float model: the engine's network shape and activation, its gradient, Adam, and the
//! quantisation to the engine's integer network.

use crate::dataset::{Sample, NO_FEATURE};
use gogo_rules::Rng;
use gogo_search::nnue::{Network, FEATURES, HIDDEN, QA, QB};

/// Where each part of the model sits in its one flat parameter vector.
const W1: usize = 0;
const B1: usize = W1 + FEATURES * HIDDEN;
const W2: usize = B1 + HIDDEN;
const B2: usize = W2 + 2 * HIDDEN;
/// Number of parameters.
pub const PARAMETERS: usize = B2 + 1;

/// Weights are kept within this bound so that they quantise into `i16` without overflow in
/// the engine's accumulators.
const WEIGHT_CLIP: f32 = 1.98;

/// The float network: `W1` (feature rows of `HIDDEN`), `b1`, `W2` (the side to move's half
/// first), `b2`, in one vector.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// All parameters.
    pub params: Vec<f32>,
}

/// Gradients, laid out as [`Model::params`].
pub type Gradients = Vec<f32>;

#[inline]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Model {
    /// Small random weights from `seed`.
    pub fn new(seed: u64) -> Model {
        let mut rng = Rng::new(seed);
        let mut uniform = |a: f64| ((rng.unit() * 2.0 - 1.0) * a) as f32;
        let mut params = vec![0f32; PARAMETERS];
        for p in &mut params[W1..B1] {
            *p = uniform(0.15);
        }
        for p in &mut params[B1..W2] {
            *p = 0.1 + uniform(0.05);
        }
        for p in &mut params[W2..B2] {
            *p = uniform(0.1);
        }
        Model { params }
    }

    /// The float model a quantised network stands for (each weight divided by its scale):
    /// training from it goes on from that network instead of from random weights.
    pub fn from_network(net: &Network) -> Model {
        let mut params = vec![0f32; PARAMETERS];
        for (f, row) in net.feature_weights.iter().enumerate() {
            for (h, &w) in row.iter().enumerate() {
                params[W1 + f * HIDDEN + h] = w as f32 / QA as f32;
            }
        }
        for (h, &b) in net.feature_bias.iter().enumerate() {
            params[B1 + h] = b as f32 / QA as f32;
        }
        for (i, &w) in net.output_weights.iter().enumerate() {
            params[W2 + i] = w as f32 / QB as f32;
        }
        params[B2] = net.output_bias as f32 / (QA * QB) as f32;
        let mut model = Model { params };
        model.clip();
        model
    }

    /// The accumulator of one perspective.
    #[inline]
    fn accumulate(&self, features: &[u16], acc: &mut [f32; HIDDEN]) {
        acc.copy_from_slice(&self.params[B1..W2]);
        for &f in features {
            if f == NO_FEATURE {
                continue;
            }
            let row = &self.params[W1 + f as usize * HIDDEN..][..HIDDEN];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// The output (the logit of the win probability) for a sample.
    pub fn output(&self, s: &Sample) -> f32 {
        let mut us = [0f32; HIDDEN];
        let mut them = [0f32; HIDDEN];
        self.accumulate(&s.us, &mut us);
        self.accumulate(&s.them, &mut them);
        let w2 = &self.params[W2..B2];
        let mut out = self.params[B2];
        for i in 0..HIDDEN {
            let a = us[i].clamp(0.0, 1.0);
            let b = them[i].clamp(0.0, 1.0);
            out += a * a * w2[i] + b * b * w2[HIDDEN + i];
        }
        out
    }

    /// The squared error of a sample's win probability.
    pub fn loss(&self, s: &Sample) -> f32 {
        let d = sigmoid(self.output(s)) - s.target;
        d * d
    }

    /// Adds the gradient of the summed loss over `samples` to `grad`; returns the summed loss.
    pub fn accumulate_gradient(&self, samples: &[Sample], grad: &mut Gradients) -> f64 {
        let mut us = [0f32; HIDDEN];
        let mut them = [0f32; HIDDEN];
        let mut d_us = [0f32; HIDDEN];
        let mut d_them = [0f32; HIDDEN];
        let mut total = 0f64;
        let w2 = &self.params[W2..B2];
        for s in samples {
            self.accumulate(&s.us, &mut us);
            self.accumulate(&s.them, &mut them);
            let mut out = self.params[B2];
            for i in 0..HIDDEN {
                let a = us[i].clamp(0.0, 1.0);
                let b = them[i].clamp(0.0, 1.0);
                out += a * a * w2[i] + b * b * w2[HIDDEN + i];
            }
            let p = sigmoid(out);
            let err = p - s.target;
            total += (err * err) as f64;
            let d_out = 2.0 * err * p * (1.0 - p);
            grad[B2] += d_out;
            {
                let (g_w2_us, g_w2_them) = grad[W2..B2].split_at_mut(HIDDEN);
                for i in 0..HIDDEN {
                    let a = us[i].clamp(0.0, 1.0);
                    let b = them[i].clamp(0.0, 1.0);
                    g_w2_us[i] += d_out * a * a;
                    g_w2_them[i] += d_out * b * b;
                    // d(clamp(x)²)/dx = 2x inside (0, 1), 0 outside.
                    d_us[i] = if us[i] > 0.0 && us[i] < 1.0 {
                        d_out * w2[i] * 2.0 * us[i]
                    } else {
                        0.0
                    };
                    d_them[i] = if them[i] > 0.0 && them[i] < 1.0 {
                        d_out * w2[HIDDEN + i] * 2.0 * them[i]
                    } else {
                        0.0
                    };
                }
            }
            for i in 0..HIDDEN {
                grad[B1 + i] += d_us[i] + d_them[i];
            }
            for (features, d) in [(&s.us, &d_us), (&s.them, &d_them)] {
                for &f in features.iter() {
                    if f == NO_FEATURE {
                        continue;
                    }
                    let row = &mut grad[W1 + f as usize * HIDDEN..][..HIDDEN];
                    for (g, x) in row.iter_mut().zip(d.iter()) {
                        *g += x;
                    }
                }
            }
        }
        total
    }

    /// Keeps every weight quantisable.
    pub fn clip(&mut self) {
        for p in &mut self.params[W1..B2] {
            *p = p.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
    }

    /// The engine's integer network: `W1`, `b1` at scale QA, `W2` at QB, `b2` at QA · QB.
    pub fn quantise(&self) -> Network {
        let q = |x: f32, scale: i32| (x * scale as f32).round().clamp(-32767.0, 32767.0) as i16;
        let mut net = Network::zeroed();
        for (f, row) in net.feature_weights.iter_mut().enumerate() {
            for (h, w) in row.iter_mut().enumerate() {
                *w = q(self.params[W1 + f * HIDDEN + h], QA);
            }
        }
        for (h, b) in net.feature_bias.iter_mut().enumerate() {
            *b = q(self.params[B1 + h], QA);
        }
        for (i, w) in net.output_weights.iter_mut().enumerate() {
            *w = q(self.params[W2 + i], QB);
        }
        net.output_bias = (self.params[B2] * (QA * QB) as f32).round() as i32;
        net
    }
}

/// Adam, with the bias correction.
#[derive(Clone, Debug)]
pub struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
    beta1: f32,
    beta2: f32,
}

impl Adam {
    /// Fresh moments.
    pub fn new() -> Adam {
        Adam {
            m: vec![0.0; PARAMETERS],
            v: vec![0.0; PARAMETERS],
            t: 0,
            beta1: 0.9,
            beta2: 0.999,
        }
    }

    /// One step of `lr` along `grad` (already averaged over the batch).
    pub fn step(&mut self, model: &mut Model, grad: &[f32], lr: f32) {
        self.t += 1;
        let c1 = 1.0 - self.beta1.powi(self.t);
        let c2 = 1.0 - self.beta2.powi(self.t);
        let moments = self.m.iter_mut().zip(self.v.iter_mut());
        for ((p, &g), (m, v)) in model.params.iter_mut().zip(grad).zip(moments) {
            *m = self.beta1 * *m + (1.0 - self.beta1) * g;
            *v = self.beta2 * *v + (1.0 - self.beta2) * g * g;
            *p -= lr * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
        }
        model.clip();
    }
}

impl Default for Adam {
    fn default() -> Self {
        Adam::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gogo_rules::Position;
    use gogo_search::nnue::accumulator::Accumulator;

    fn samples() -> Vec<Sample> {
        let mut rng = Rng::new(3);
        let mut out = Vec::new();
        let mut pos = Position::startpos();
        for i in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                pos = Position::startpos();
                continue;
            }
            pos.play(moves.as_slice()[rng.below(moves.len())]);
            out.push(Sample::new(&pos, (i % 3) as f32 / 2.0));
        }
        out
    }

    /// The analytic gradient agrees with finite differences on a few parameters of each
    /// part of the model.
    #[test]
    fn gradient_matches_finite_differences() {
        let model = Model::new(1);
        let batch = &samples()[..20];
        let mut grad = vec![0f32; PARAMETERS];
        model.accumulate_gradient(batch, &mut grad);
        let loss = |m: &Model| batch.iter().map(|s| m.loss(s) as f64).sum::<f64>();
        let active = batch[0].us[0] as usize;
        for i in [
            W1 + active * HIDDEN + 3,
            W1 + active * HIDDEN + 100,
            B1 + 7,
            W2 + 5,
            W2 + HIDDEN + 9,
            B2,
        ] {
            let h = 1e-3f32;
            let mut plus = model.clone();
            plus.params[i] += h;
            let mut minus = model.clone();
            minus.params[i] -= h;
            let numeric = (loss(&plus) - loss(&minus)) / (2.0 * h as f64);
            let analytic = grad[i] as f64;
            assert!(
                (numeric - analytic).abs() <= 1e-3 + 0.05 * analytic.abs(),
                "parameter {i}: numeric {numeric}, analytic {analytic}"
            );
        }
    }

    /// A network read back as a float model quantises to the same network, so training
    /// from it starts where that network is.
    #[test]
    fn a_network_read_as_a_model_quantises_back_to_itself() {
        let net = Model::new(5).quantise();
        let back = Model::from_network(&net).quantise();
        assert!(back == net, "{net:?} came back as {back:?}");
        let embedded = gogo_search::nnue::Network::embedded();
        assert!(Model::from_network(&embedded).quantise() == *embedded);
    }

    /// Training lowers the loss, and the quantised engine network agrees with the float
    /// model within a few centipawns.
    #[test]
    fn training_learns_and_quantises_faithfully() {
        let data = samples();
        let mut model = Model::new(2);
        let mut adam = Adam::new();
        let before: f32 = data.iter().map(|s| model.loss(s)).sum();
        for _ in 0..200 {
            let mut grad = vec![0f32; PARAMETERS];
            model.accumulate_gradient(&data, &mut grad);
            for g in &mut grad {
                *g /= data.len() as f32;
            }
            adam.step(&mut model, &grad, 1e-3);
        }
        let after: f32 = data.iter().map(|s| model.loss(s)).sum();
        assert!(after < before * 0.7, "{before} -> {after}");
        let net = model.quantise();
        let mut rng = Rng::new(3);
        let mut pos = Position::startpos();
        let mut worst = 0.0f32;
        let mut total = 0.0f32;
        for _ in 0..100 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                pos = Position::startpos();
                continue;
            }
            pos.play(moves.as_slice()[rng.below(moves.len())]);
            let acc = Accumulator::refresh(&net, &pos);
            let us = pos.side_to_move().index();
            let engine = net.evaluate(&acc.0[us], &acc.0[1 - us]) as f32;
            let float = model.output(&Sample::new(&pos, 0.0)) * gogo_search::nnue::SCALE as f32;
            worst = worst.max((engine - float).abs());
            total += (engine - float).abs();
        }
        assert!(
            total / 100.0 < 3.0,
            "quantised and float differ by {} cp on average",
            total / 100.0
        );
        assert!(
            worst < 10.0,
            "quantised and float differ by up to {worst} cp"
        );
    }
}
