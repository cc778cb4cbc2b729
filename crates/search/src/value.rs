//! Scores: centipawns, mate scores relative to the root, and the special values.

/// Maximum search depth in plies from the root.
pub const MAX_PLY: usize = 128;
/// A bound beyond every score.
pub const INFINITE: i32 = 32_001;
/// Mate at the root (mate in `n` plies is `MATE - n`).
pub const MATE: i32 = 32_000;
/// Scores at or beyond this are mates found within the search horizon.
pub const MATE_IN_MAX_PLY: i32 = MATE - MAX_PLY as i32;
/// A repetition that the rules score as a win (Sente loses a fourfold repetition under the
/// `standard` rules): beyond any evaluation, below every mate.
pub const REPETITION_WIN: i32 = 20_000;
/// A draw.
pub const DRAW: i32 = 0;
/// The largest magnitude an evaluation may have: below [`REPETITION_WIN`] and every mate,
/// whatever weights a network file holds.
pub const MAX_EVAL: i32 = 15_000;

/// The score of being mated `ply` plies from the root.
#[inline]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// The score of mating `ply` plies from the root.
#[inline]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// Converts a root-relative score to one relative to the node `ply` plies from the root,
/// for storing in the transposition table (mates are stored as distance from the node).
#[inline]
pub fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_IN_MAX_PLY {
        score + ply as i32
    } else if score <= -MATE_IN_MAX_PLY {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_tt`].
#[inline]
pub fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_IN_MAX_PLY {
        score - ply as i32
    } else if score <= -MATE_IN_MAX_PLY {
        score + ply as i32
    } else {
        score
    }
}

/// A score as USI reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Centipawns(i32),
    /// Mate in this many plies (shogi counts a mate in 3 as three plies, 3手詰め);
    /// negative when the side to move is mated.
    Mate(i32),
}

impl Score {
    /// The USI form of a search score.
    pub fn from_value(value: i32) -> Score {
        if value >= MATE_IN_MAX_PLY {
            Score::Mate(MATE - value)
        } else if value <= -MATE_IN_MAX_PLY {
            Score::Mate(-(MATE + value))
        } else {
            Score::Centipawns(value)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_round_trip_through_the_table() {
        for ply in [0usize, 3, 40] {
            for v in [mate_in(7), mated_in(12), 150, -20_000] {
                assert_eq!(from_tt(to_tt(v, ply), ply), v);
            }
        }
        assert_eq!(Score::from_value(mate_in(1)), Score::Mate(1));
        assert_eq!(Score::from_value(mate_in(5)), Score::Mate(5));
        assert_eq!(Score::from_value(mated_in(4)), Score::Mate(-4));
        assert_eq!(Score::from_value(mated_in(0)), Score::Mate(0));
        assert_eq!(Score::from_value(123), Score::Centipawns(123));
    }
}
