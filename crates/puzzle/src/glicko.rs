//! Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012), as lishogi and lichess rate
//! players and puzzles: a rating, its deviation (how unsure it is) and a volatility.

use std::f64::consts::PI;

/// Glicko-2's scale factor between the displayed rating and its internal scale.
const SCALE: f64 = 173.7178;
/// The system constant: how much the volatility may change (lichess's value).
pub const TAU: f64 = 0.75;
/// Where a new player starts.
pub const START: Rating = Rating {
    rating: 1500.0,
    deviation: 350.0,
    volatility: 0.09,
};
/// Where a new player's game rating starts: lishogi's start (1500, deviation 350,
/// volatility 0.06).
pub const GAME_START: Rating = Rating {
    rating: 1500.0,
    deviation: 350.0,
    volatility: 0.06,
};
/// A rating whose deviation is above this is provisional (shown with a `?`, as lichess).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// The deviation a puzzle's rating is taken to have when a player meets it (the shipped
/// ratings come from the engine's levels, not from players).
pub const PUZZLE_DEVIATION: f64 = 90.0;
/// The deviation is kept within these bounds, so that a rating always moves a little and
/// never jumps wildly.
const DEVIATION_BOUNDS: (f64, f64) = (45.0, 350.0);

/// A Glicko-2 rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating (1500 at the start).
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
}

impl Rating {
    /// Whether every field is a finite number in range (what the page sends back is
    /// checked before use).
    pub fn is_valid(&self) -> bool {
        (0.0..=4000.0).contains(&self.rating)
            && (1.0..=500.0).contains(&self.deviation)
            && (0.0..=1.0).contains(&self.volatility)
    }

    /// The rating after one result against a puzzle of `puzzle_rating` (`solved`: a win).
    pub fn after_puzzle(self, puzzle_rating: f64, solved: bool) -> Rating {
        let puzzle = Rating {
            rating: puzzle_rating,
            deviation: PUZZLE_DEVIATION,
            volatility: START.volatility,
        };
        let mut next = self.after(&[(puzzle, if solved { 1.0 } else { 0.0 })], TAU);
        next.deviation = next.deviation.clamp(DEVIATION_BOUNDS.0, DEVIATION_BOUNDS.1);
        next
    }

    /// The rating after one game against `opponent` (`score`: 1 a win, 0.5 a draw, 0 a
    /// loss), the game its own rating period, as on lichess.
    pub fn after_game(self, opponent: Rating, score: f64) -> Rating {
        let mut next = self.after(&[(opponent, score)], TAU);
        next.deviation = next.deviation.clamp(DEVIATION_BOUNDS.0, DEVIATION_BOUNDS.1);
        next
    }

    /// Whether the rating is still provisional (too unsure to compare).
    pub fn is_provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The rating after one rating period with `results` (opponent, score 1, 0.5 or 0),
    /// with system constant `tau`: Glickman's steps 2 to 8.
    pub fn after(self, results: &[(Rating, f64)], tau: f64) -> Rating {
        let mu = (self.rating - 1500.0) / SCALE;
        let phi = self.deviation / SCALE;
        if results.is_empty() {
            let phi = (phi * phi + self.volatility * self.volatility).sqrt();
            return Rating {
                deviation: phi * SCALE,
                ..self
            };
        }
        let g = |phi: f64| 1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt();
        let mut inverse_v = 0.0;
        let mut sum = 0.0;
        for (opponent, score) in results {
            let mu_j = (opponent.rating - 1500.0) / SCALE;
            let g_j = g(opponent.deviation / SCALE);
            let e = 1.0 / (1.0 + (-g_j * (mu - mu_j)).exp());
            inverse_v += g_j * g_j * e * (1.0 - e);
            sum += g_j * (score - e);
        }
        let v = 1.0 / inverse_v;
        let delta = v * sum;
        let volatility = new_volatility(phi, self.volatility, v, delta, tau);
        let phi_star = (phi * phi + volatility * volatility).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * sum;
        Rating {
            rating: mu_new * SCALE + 1500.0,
            deviation: phi_new * SCALE,
            volatility,
        }
    }
}

/// Step 5: the new volatility, by the Illinois algorithm.
fn new_volatility(phi: f64, sigma: f64, v: f64, delta: f64, tau: f64) -> f64 {
    const EPSILON: f64 = 0.000_001;
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - d) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 && k < 1000.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let (mut f_a, mut f_b) = (f(big_a), f(big_b));
    let mut rounds = 0;
    while (big_b - big_a).abs() > EPSILON && rounds < 100 {
        let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(big_c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = big_c;
        f_b = f_c;
        rounds += 1;
    }
    (big_a / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rating(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    #[test]
    fn a_game_moves_both_new_players_and_a_draw_counts_half() {
        let (a, b) = (GAME_START, GAME_START);
        let (won, lost) = (a.after_game(b, 1.0), b.after_game(a, 0.0));
        assert!(
            won.rating > 1600.0 && lost.rating < 1400.0,
            "{won:?} {lost:?}"
        );
        assert!((won.rating - 1500.0 + lost.rating - 1500.0).abs() < 0.01);
        assert!(won.deviation < 350.0 && won.is_provisional());
        let drawn = a.after_game(b, 0.5);
        assert!((drawn.rating - 1500.0).abs() < 0.01, "{drawn:?}");
        // Against a stronger player a draw gains.
        let stronger = Rating {
            rating: 1800.0,
            ..GAME_START
        };
        assert!(a.after_game(stronger, 0.5).rating > 1500.0);
        assert!(!rating(1500.0, 60.0).is_provisional());
    }

    /// Glickman's worked example: 1500 (RD 200, volatility 0.06, tau 0.5) beats 1400 (RD 30),
    /// loses to 1550 (RD 100) and to 1700 (RD 300): 1464.06, RD 151.52, volatility 0.05999.
    #[test]
    fn glickmans_worked_example() {
        let player = rating(1500.0, 200.0);
        let results = [
            (rating(1400.0, 30.0), 1.0),
            (rating(1550.0, 100.0), 0.0),
            (rating(1700.0, 300.0), 0.0),
        ];
        let next = player.after(&results, 0.5);
        assert!((next.rating - 1464.06).abs() < 0.01, "{next:?}");
        assert!((next.deviation - 151.52).abs() < 0.01, "{next:?}");
        assert!((next.volatility - 0.05999).abs() < 0.00001, "{next:?}");
    }

    #[test]
    fn a_solve_raises_a_fail_lowers_and_more_against_a_harder_puzzle() {
        let me = START;
        let solved = me.after_puzzle(1500.0, true);
        let failed = me.after_puzzle(1500.0, false);
        assert!(solved.rating > me.rating && failed.rating < me.rating);
        assert!(solved.deviation < me.deviation);
        let hard = me.after_puzzle(2000.0, true);
        assert!(hard.rating > solved.rating);
        let easy_fail = me.after_puzzle(1000.0, false);
        assert!(easy_fail.rating < failed.rating);
        assert!(solved.is_valid() && failed.is_valid());
        // Many results: the deviation settles at its floor, not at zero.
        let settled = (0..200).fold(me, |r, i| r.after_puzzle(1500.0, i % 2 == 0));
        assert!(
            settled.deviation >= 45.0 && settled.is_valid(),
            "{settled:?}"
        );
        assert!(!Rating {
            rating: f64::NAN,
            ..START
        }
        .is_valid());
    }
}
