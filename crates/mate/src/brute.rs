//! An exhaustive checks-only mate search: slow, and plainly correct, to check the solver and
//! to confirm the data set's mate lengths.

use gogo_rules::{MoveList, Position};
use std::collections::HashMap;

/// Whether the attacker (to move) mates within `plies` plies, every attacker move a check,
/// whatever the defender does. Memoised by (position, plies), nothing else.
fn mates_within(pos: &Position, plies: u32, memo: &mut HashMap<(u64, u32), bool>) -> bool {
    if plies == 0 {
        return false;
    }
    if let Some(&known) = memo.get(&(pos.key(), plies)) {
        return known;
    }
    let mut checks = MoveList::new();
    pos.generate_checks(&mut checks);
    let result = checks.iter().any(|&check| {
        let child = pos.played(check);
        let answers = child.legal_moves();
        if answers.is_empty() {
            return true;
        }
        plies >= 3
            && answers
                .iter()
                .all(|&answer| mates_within(&child.played(answer), plies - 2, memo))
    });
    memo.insert((pos.key(), plies), result);
    result
}

/// The length in plies of the shortest forced mate by checks from `pos`, if one exists within
/// `max_plies`.
pub fn mate_length(pos: &Position, max_plies: u32) -> Option<u32> {
    let mut memo = HashMap::new();
    (1..=max_plies)
        .step_by(2)
        .find(|&n| mates_within(pos, n, &mut memo))
}

/// Whether `line` is a mate from `pos` by the rules: every move legal, the attacker's moves
/// all checks, and the last position mate (in check, no legal move).
pub fn is_mating_line(pos: &Position, line: &[gogo_rules::Move]) -> bool {
    let mut current = pos.clone();
    for (i, &mv) in line.iter().enumerate() {
        if !current.is_legal(mv) {
            return false;
        }
        current.play(mv);
        if i % 2 == 0 && !current.in_check() {
            return false;
        }
    }
    line.len() % 2 == 1 && current.in_check() && !current.has_legal_move()
}
