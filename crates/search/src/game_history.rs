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
}

impl GameHistory {
    /// History from the positions of a game, the current one last.
    pub fn from_positions(positions: &[Position]) -> GameHistory {
        GameHistory {
            keys: positions.iter().map(|p| p.key()).collect(),
            in_check: positions.iter().map(|p| p.in_check()).collect(),
            root_plies: positions.last().map_or(0, |p| p.move_number() - 1),
        }
    }

    /// Makes sure the history ends with `root` (a caller may pass the game without it).
    pub(crate) fn ending_at(mut self, root: &Position) -> GameHistory {
        if self.keys.last() != Some(&root.key()) {
            self.push(root);
            self.root_plies = root.move_number() - 1;
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

    /// If the last position occurred before (its latest earlier occurrence), the verdict of
    /// the repetition rule on that cycle, as a score for its side to move, `ply` plies from
    /// the root. The search treats the first repetition as final.
    pub(crate) fn repetition_score(
        &self,
        rule: RepetitionRule,
        pos: &Position,
        ply: usize,
    ) -> Option<i32> {
        let n = self.keys.len() - 1;
        let key = self.keys[n];
        let mut i = n;
        while i >= 2 {
            i -= 2;
            if self.keys[i] != key {
                continue;
            }
            let side = pos.side_to_move();
            let win = REPETITION_WIN - ply as i32;
            return Some(match rule.verdict(side, &self.in_check[i..]) {
                Outcome::Draw { .. } => DRAW,
                Outcome::Win { winner, .. } if winner == side => win,
                Outcome::Win { .. } => -win,
            });
        }
        None
    }
}
