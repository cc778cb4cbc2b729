//! What a repeated position means: one verdict for the game record ([`crate::Game`]) and
//! for the search, under both rule sets.

use crate::game::{DrawReason, Outcome, WinReason};
use crate::piece::Color;

/// What the fourth occurrence of a position means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RepetitionRule {
    /// Sente loses, unless one side gave check with every one of its moves since the
    /// position first occurred (that side loses) or both did (draw).
    SenteLoses,
    /// The fourth occurrence is a draw, whoever gave check.
    Draw,
}

impl RepetitionRule {
    /// The occurrence of a position that ends the game, under both rule sets.
    pub const DECIDING_OCCURRENCE: usize = 4;

    /// The outcome of a repetition cycle.
    ///
    /// `in_check` holds, for each position of the cycle from the earlier occurrence (first)
    /// to the repetition (last, the current position), whether its side to move was in
    /// check: that is, whether the move that led to it gave check. `side_to_move` is the
    /// side to move in the current position. The game record passes the cycle from the
    /// first of the four occurrences; the search, from the latest earlier occurrence.
    pub fn verdict(self, side_to_move: Color, in_check: &[bool]) -> Outcome {
        if self == RepetitionRule::Draw {
            return Outcome::Draw {
                reason: DrawReason::Repetition,
            };
        }
        // Move k leads from position k to k + 1 and is a check when position k + 1 is in
        // check; it is made by the side to move now when an even number of moves follow it.
        let last = in_check.len().saturating_sub(1);
        let mut always_checked = [true, true]; // by colour index
        for k in 0..last {
            let mover = if (last - k).is_multiple_of(2) {
                side_to_move
            } else {
                !side_to_move
            };
            if !in_check[k + 1] {
                always_checked[mover.index()] = false;
            }
        }
        match always_checked {
            [true, true] => Outcome::Draw {
                reason: DrawReason::MutualPerpetualCheck,
            },
            [true, false] => Outcome::Win {
                winner: Color::Gote,
                reason: WinReason::PerpetualCheck,
            },
            [false, true] => Outcome::Win {
                winner: Color::Sente,
                reason: WinReason::PerpetualCheck,
            },
            [false, false] => Outcome::Win {
                winner: Color::Gote,
                reason: WinReason::Repetition,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts() {
        let rule = RepetitionRule::SenteLoses;
        // Cycle of four moves, Sente to move at the start and at the end (positions 0..=4).
        // Moves 0 and 2 are Sente's (they lead to positions 1 and 3), 1 and 3 are Gote's.
        let quiet = [false, false, false, false, false];
        assert_eq!(
            rule.verdict(Color::Sente, &quiet),
            Outcome::Win {
                winner: Color::Gote,
                reason: WinReason::Repetition
            }
        );
        let sente_checks = [false, true, false, true, false];
        assert_eq!(
            rule.verdict(Color::Sente, &sente_checks),
            Outcome::Win {
                winner: Color::Gote,
                reason: WinReason::PerpetualCheck
            }
        );
        // Gote to move at the end: moves 0 and 2 are Gote's.
        assert_eq!(
            rule.verdict(Color::Gote, &sente_checks),
            Outcome::Win {
                winner: Color::Sente,
                reason: WinReason::PerpetualCheck
            }
        );
        assert_eq!(
            rule.verdict(Color::Sente, &[true; 5]),
            Outcome::Draw {
                reason: DrawReason::MutualPerpetualCheck
            }
        );
        // Whether the first position was in check does not matter: no move of the cycle
        // led to it.
        assert_eq!(
            rule.verdict(Color::Sente, &[true, false, false, false, false]),
            rule.verdict(Color::Sente, &quiet)
        );
        assert_eq!(
            RepetitionRule::Draw.verdict(Color::Sente, &sente_checks),
            Outcome::Draw {
                reason: DrawReason::Repetition
            }
        );
    }
}
