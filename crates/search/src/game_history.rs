//! [`GameHistory`]: the game so far as the repetition rules need it, extended and shortened
//! as the search walks the tree.

use crate::value::{DRAW, REPETITION_WIN};
use gogo_rules::{Outcome, Position, RepetitionRule};

/// Each position's key and whether it was in check, from the game's start to the current
/// node of the search (the root and the line searched last).
#[derive(Clone, Debug, Default)]
pub struct GameHistory {
    keys: Vec<u64>,
    in_check: Vec<bool>,
    /// Plies played before the root (for the ply limit).
    root_plies: u32,
    /// The root's index in `keys`: occurrences from here on are the search's own line.
    root_index: usize,
}

impl GameHistory {
    /// History from the positions of a game, the current one last.
    pub fn from_positions(positions: &[Position]) -> GameHistory {
        GameHistory {
            keys: positions.iter().map(|p| p.key()).collect(),
            in_check: positions.iter().map(|p| p.in_check()).collect(),
            root_plies: positions.last().map_or(0, |p| p.move_number() - 1),
            root_index: positions.len().saturating_sub(1),
        }
    }

    /// Makes sure the history ends with `root` (a caller may pass the game without it).
    pub(crate) fn ending_at(mut self, root: &Position) -> GameHistory {
        if self.keys.last() != Some(&root.key()) {
            self.push(root);
            self.root_plies = root.move_number() - 1;
            self.root_index = self.keys.len() - 1;
        }
        self
    }

    /// Plies played before the root.
    #[inline]
    pub fn root_plies(&self) -> u32 {
        self.root_plies
    }

    /// A position was reached.
    #[inline]
    pub(crate) fn push(&mut self, pos: &Position) {
        self.keys.push(pos.key());
        self.in_check.push(pos.in_check());
    }

    /// The last position was left.
    #[inline]
    pub(crate) fn pop(&mut self) {
        self.keys.pop();
        self.in_check.pop();
    }

    /// The repetition rule's verdict on the last position, as a score for its side to move,
    /// `ply` plies from the root, or `None` when the position is not decided by repetition.
    ///
    /// As strong engines do, a position that repeats one on the line from the root (the root
    /// included) is scored at once as the rule's outcome of that cycle: the side that can
    /// repeat will. One whose earlier occurrences all came before the root is decided only
    /// when the game's own count reaches the rule's fourth occurrence (then on the cycle from
    /// the first of the four, as the game record judges it): the opponent can simply leave a
    /// position seen once before, so a second occurrence there decides nothing.
    pub(crate) fn repetition_score(
        &self,
        rule: RepetitionRule,
        pos: &Position,
        ply: usize,
    ) -> Option<i32> {
        let n = self.keys.len() - 1;
        let key = self.keys[n];
        // Earlier positions with the same side to move, latest first.
        let mut earlier = (n % 2..n).step_by(2).rev().filter(|&i| self.keys[i] == key);
        let latest = earlier.next()?;
        let cycle_start = if latest >= self.root_index {
            latest
        } else {
            // Before the root only: the current one is the second occurrence, each further
            // earlier one adds one; the fourth is the first of the four.
            earlier.nth(RepetitionRule::DECIDING_OCCURRENCE - 3)?
        };
        let side = pos.side_to_move();
        let win = REPETITION_WIN - ply as i32;
        Some(match rule.verdict(side, &self.in_check[cycle_start..]) {
            Outcome::Draw { .. } => DRAW,
            Outcome::Win { winner, .. } if winner == side => win,
            Outcome::Win { .. } => -win,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gogo_rules::Game;

    /// The standard start, then golds out and back: the start position again after 4 plies.
    fn shuffle() -> Vec<Position> {
        let mut game = Game::new(gogo_rules::RuleSet::standard());
        for mv in ["4e4d", "2a2b", "4d4e", "2b2a"] {
            game.play_usi(mv).unwrap();
        }
        game.positions().to_vec()
    }

    #[test]
    fn a_repetition_inside_the_line_is_scored_at_once() {
        let positions = shuffle();
        // The root is the start; the search walks the four plies back to it.
        let mut history = GameHistory::from_positions(&positions[..1]);
        for (ply, pos) in positions.iter().enumerate().skip(1) {
            history.push(pos);
            let score = history.repetition_score(RepetitionRule::SenteLoses, pos, ply);
            if ply < 4 {
                assert_eq!(score, None, "ply {ply}");
            } else {
                // Sente to move at the repeated root: the standard rule's loss for Sente.
                assert_eq!(score, Some(-(REPETITION_WIN - 4)));
                assert_eq!(
                    history.repetition_score(RepetitionRule::Draw, pos, ply),
                    Some(DRAW)
                );
            }
        }
    }

    #[test]
    fn a_second_occurrence_before_the_root_is_not() {
        let positions = shuffle();
        // The game reached the start twice, once before the root; the root is one ply before
        // the second, and the search's child is the second occurrence.
        let mut history = GameHistory::from_positions(&positions[..4]);
        history.push(&positions[4]);
        assert_eq!(
            history.repetition_score(RepetitionRule::SenteLoses, &positions[4], 1),
            None
        );
        // The same position as the root's own repetition inside the line is scored.
        let mut history = GameHistory::from_positions(&positions[..1]).ending_at(&positions[0]);
        for pos in &positions[1..] {
            history.push(pos);
        }
        assert!(history
            .repetition_score(RepetitionRule::SenteLoses, &positions[4], 4)
            .is_some());
    }
}
