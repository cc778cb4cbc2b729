//! Match statistics: Elo difference with its 95% error bar, likelihood of superiority,
//! pentanomial counts of game pairs, and the sequential probability ratio test.

/// Results of a match from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Score fraction, 0 to 1.
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games() as f64
    }

    /// Elo difference and the half-width of its 95% confidence interval (trinomial model).
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games() as f64;
        if n == 0.0 {
            return (0.0, f64::INFINITY);
        }
        let s = self.score();
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        let se = (var / n).sqrt();
        let lo = elo_from_score(s - 1.96 * se);
        let hi = elo_from_score(s + 1.96 * se);
        (elo_from_score(s), (hi - lo) / 2.0)
    }

    /// Likelihood of superiority: the probability that the first engine is the stronger.
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
    }
}

/// The Elo difference that gives an expected score `s`.
pub fn elo_from_score(s: f64) -> f64 {
    let s = s.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The expected score of an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function (Abramowitz and Stegun 7.1.26, error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    sign * y
}

/// Counts of game pairs (the same opening with colours swapped) by the first engine's pair
/// score: 0, 0.5, 1, 1.5, 2 points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    /// Adds a pair scored `points` (in half points, 0 to 4).
    pub fn add(&mut self, half_points: usize) {
        self.0[half_points.min(4)] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }
}

/// A sequential probability ratio test of Elo `elo0` against `elo1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Null hypothesis Elo.
    pub elo0: f64,
    /// Alternative hypothesis Elo.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// The SPRT's verdict so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// H1 accepted: the first engine is at least `elo1` stronger.
    AcceptH1,
    /// H0 accepted: not as much as `elo1`.
    AcceptH0,
    /// Keep playing.
    Continue,
}

impl Sprt {
    /// Lower and upper log-likelihood-ratio bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the pair results (generalised SPRT, normal approximation
    /// over pentanomial pair scores), 0 when there is too little data.
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        let n = pairs.pairs() as f64;
        if n < 2.0 {
            return 0.0;
        }
        let values = [0.0, 0.25, 0.5, 0.75, 1.0];
        let mean = values
            .iter()
            .zip(pairs.0)
            .map(|(v, c)| v * c as f64)
            .sum::<f64>()
            / n;
        let var = values
            .iter()
            .zip(pairs.0)
            .map(|(v, c)| c as f64 * (v - mean).powi(2))
            .sum::<f64>()
            / n;
        if var <= 0.0 {
            return 0.0;
        }
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// The decision for the pairs so far.
    pub fn decide(&self, pairs: &Pentanomial) -> SprtDecision {
        let llr = self.llr(pairs);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

/// Why an SPRT's settings text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseSprtError {
    /// A word that is not `key=value`.
    NotKeyValue(String),
    /// A value that is not a number.
    NotANumber(String),
    /// A key other than elo0, elo1, alpha, beta.
    UnknownKey(String),
    /// alpha or beta outside (0, 1).
    ErrorRate,
    /// elo0 not below elo1.
    Hypotheses,
}

impl std::fmt::Display for ParseSprtError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParseSprtError::NotKeyValue(word) => write!(f, "sprt: '{word}' is not key=value"),
            ParseSprtError::NotANumber(value) => write!(f, "sprt: '{value}' is not a number"),
            ParseSprtError::UnknownKey(key) => write!(f, "sprt: unknown key '{key}'"),
            ParseSprtError::ErrorRate => write!(f, "sprt: alpha and beta must be between 0 and 1"),
            ParseSprtError::Hypotheses => write!(f, "sprt: elo0 must be below elo1"),
        }
    }
}

impl std::error::Error for ParseSprtError {}

impl std::str::FromStr for Sprt {
    type Err = ParseSprtError;

    /// Reads `elo0=0 elo1=10 alpha=0.05 beta=0.05` (any order, any subset; those defaults).
    fn from_str(text: &str) -> Result<Sprt, ParseSprtError> {
        let mut sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        for word in text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
        {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| ParseSprtError::NotKeyValue(word.to_string()))?;
            let v: f64 = value
                .parse()
                .map_err(|_| ParseSprtError::NotANumber(value.to_string()))?;
            match key {
                "elo0" => sprt.elo0 = v,
                "elo1" => sprt.elo1 = v,
                "alpha" => sprt.alpha = v,
                "beta" => sprt.beta = v,
                _ => return Err(ParseSprtError::UnknownKey(key.to_string())),
            }
        }
        if !(0.0 < sprt.alpha && sprt.alpha < 1.0 && 0.0 < sprt.beta && sprt.beta < 1.0) {
            return Err(ParseSprtError::ErrorRate);
        }
        if sprt.elo0 >= sprt.elo1 {
            return Err(ParseSprtError::Hypotheses);
        }
        Ok(sprt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn elo_and_error_bar_of_known_counts() {
        let t = Tally {
            wins: 60,
            losses: 40,
            draws: 0,
        };
        let (elo, err) = t.elo();
        assert!(close(elo, 70.437, 0.01), "{elo}");
        // s = 0.6, se = sqrt(0.24 / 100) = 0.04899; bounds 0.50398..0.69602.
        let want = (elo_from_score(0.6 + 1.96 * 0.048_989_8)
            - elo_from_score(0.6 - 1.96 * 0.048_989_8))
            / 2.0;
        assert!(close(err, want, 0.01) && close(err, 70.0, 2.0), "{err}");
        assert!(close(t.los(), 0.977_25, 0.0005), "{}", t.los());
        let even = Tally {
            wins: 10,
            losses: 10,
            draws: 30,
        };
        assert_eq!(even.elo().0, 0.0);
        assert!(close(even.los(), 0.5, 1e-6));
        assert!(close(
            Tally {
                wins: 3,
                losses: 1,
                draws: 0
            }
            .score(),
            0.75,
            1e-12
        ));
        assert!(close(elo_from_score(score_from_elo(123.0)), 123.0, 1e-9));
        assert!(close(erf(1.0), 0.842_700_79, 1e-6));
    }

    #[test]
    fn sprt_decisions_on_fixed_sequences() {
        let sprt: Sprt = "elo0=0 elo1=10 alpha=0.05 beta=0.05".parse().unwrap();
        let (lo, hi) = sprt.bounds();
        assert!(close(lo, -2.944, 0.001) && close(hi, 2.944, 0.001));
        // Too few pairs: no decision.
        assert_eq!(
            sprt.decide(&Pentanomial([0, 0, 1, 0, 0])),
            SprtDecision::Continue
        );
        // A crushing result accepts H1; a crushing loss accepts H0; a dead draw continues.
        assert_eq!(
            sprt.decide(&Pentanomial([0, 5, 20, 60, 40])),
            SprtDecision::AcceptH1
        );
        assert_eq!(
            sprt.decide(&Pentanomial([40, 60, 20, 5, 0])),
            SprtDecision::AcceptH0
        );
        assert_eq!(
            sprt.decide(&Pentanomial([5, 10, 30, 10, 5])),
            SprtDecision::Continue
        );
        // LLR by hand for [10, 20, 40, 20, 10]: mean 0.5, variance 0.075, 100 pairs.
        let s0 = score_from_elo(0.0);
        let s1 = score_from_elo(10.0);
        let want = 100.0 * (s1 - s0) * (1.0 - s0 - s1) / (2.0 * 0.075);
        assert!(close(
            sprt.llr(&Pentanomial([10, 20, 40, 20, 10])),
            want,
            1e-9
        ));
        assert_eq!(
            "elo0=5 elo1=1".parse::<Sprt>(),
            Err(ParseSprtError::Hypotheses)
        );
        assert_eq!("alpha=2".parse::<Sprt>(), Err(ParseSprtError::ErrorRate));
        assert_eq!(
            "elo0=x".parse::<Sprt>(),
            Err(ParseSprtError::NotANumber("x".into()))
        );
        assert_eq!(
            "gamma=1".parse::<Sprt>(),
            Err(ParseSprtError::UnknownKey("gamma".into()))
        );
    }
}
