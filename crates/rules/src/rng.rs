//! A small seeded random generator (xorshift64*): random play in tests, opening randomisation
//! in self-play and shuffling in training all reproduce from their seed, with no dependency.

/// Deterministic pseudo-random numbers from a seed. Not for anything that needs secrecy.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed` (any value, 0 included).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n`; `n` must not be 0.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() >> 33) as usize % n
    }

    /// A random legal move of `pos`, a capture or promotion half the time when there is one
    /// (so that random games have hands and promoted pieces); `None` when there is no move.
    pub fn pick_move(&mut self, pos: &crate::Position) -> Option<crate::Move> {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let noisy: Vec<crate::Move> = moves
            .iter()
            .copied()
            .filter(|&m| pos.is_capture(m) || m.is_promotion())
            .collect();
        Some(if !noisy.is_empty() && self.below(2) == 0 {
            noisy[self.below(noisy.len())]
        } else {
            moves.as_slice()[self.below(moves.len())]
        })
    }

    /// Up to `plies` moves of a game from `start`, each picked uniformly among the legal
    /// moves; shorter when a position has none.
    pub fn random_game(&mut self, start: &crate::Position, plies: usize) -> Vec<crate::Move> {
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(plies);
        for _ in 0..plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal.as_slice()[self.below(legal.len())];
            moves.push(mv);
            pos.play(mv);
        }
        moves
    }

    /// A game of `plies` random legal moves under `rules` that the rules do not end on the
    /// way: no move mates, stalemates or makes a fourth occurrence (a walk into a forced
    /// ending backs up a few moves and tries another way). Shorter only at the rules' ply
    /// limit. Long games for tests and benchmarks of the game limits.
    pub fn unending_game(&mut self, rules: crate::RuleSet, plies: usize) -> crate::Game {
        use crate::RepetitionRule;
        let start = rules.start_position();
        let mut positions = vec![start.clone()];
        let mut moves: Vec<crate::Move> = Vec::with_capacity(plies);
        let mut seen: std::collections::HashMap<u64, usize> =
            std::collections::HashMap::from([(start.key(), 1)]);
        let mut dead_ends = 0;
        while moves.len() < plies && dead_ends < 10_000 {
            let pos = positions.last().expect("the start at least");
            let goes_on = |next: &crate::Position| {
                next.has_legal_move()
                    && seen.get(&next.key()).copied().unwrap_or(0)
                        < RepetitionRule::DECIDING_OCCURRENCE - 1
            };
            let mut candidates: Vec<crate::Move> = pos
                .legal_moves()
                .iter()
                .copied()
                .filter(|&m| goes_on(&pos.played(m)))
                .collect();
            if candidates.is_empty() {
                dead_ends += 1;
                for _ in 0..moves.len().min(4) {
                    moves.pop();
                    let left = positions.pop().expect("one per move");
                    if let Some(n) = seen.get_mut(&left.key()) {
                        *n -= 1;
                    }
                }
                continue;
            }
            // Captures and promotions half the time, as in `pick_move`.
            let noisy: Vec<crate::Move> = candidates
                .iter()
                .copied()
                .filter(|&m| pos.is_capture(m) || m.is_promotion())
                .collect();
            if !noisy.is_empty() && self.below(2) == 0 {
                candidates = noisy;
            }
            let mv = candidates[self.below(candidates.len())];
            let next = pos.played(mv);
            *seen.entry(next.key()).or_default() += 1;
            positions.push(next);
            moves.push(mv);
        }
        let mut game = crate::Game::from_position(rules, start);
        for mv in moves {
            if game.play(mv).is_err() {
                break;
            }
        }
        game
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_and_spread() {
        let a: Vec<usize> = {
            let mut r = Rng::new(7);
            (0..1000).map(|_| r.below(10)).collect()
        };
        let mut r = Rng::new(7);
        let b: Vec<usize> = (0..1000).map(|_| r.below(10)).collect();
        assert_eq!(a, b);
        for digit in 0..10 {
            let n = a.iter().filter(|&&x| x == digit).count();
            assert!((60..140).contains(&n), "{digit}: {n}");
        }
        let mut r = Rng::new(0);
        assert!((0..1000).map(|_| r.unit()).all(|u| (0.0..1.0).contains(&u)));
    }

    #[test]
    fn random_games_are_legal_and_reproducible() {
        let start = crate::Position::startpos();
        let game = Rng::new(5).random_game(&start, 80);
        assert_eq!(game, Rng::new(5).random_game(&start, 80));
        assert_ne!(game, Rng::new(6).random_game(&start, 80));
        assert!(!game.is_empty() && game.len() <= 80);
        let mut pos = start;
        for &mv in &game {
            assert!(pos.is_legal(mv), "{mv}");
            pos.play(mv);
        }
        // A game stops early only at a position without moves.
        assert!(game.len() == 80 || pos.legal_moves().is_empty());
    }
}
