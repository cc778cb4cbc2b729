//! An exhaustive checks-only mate search: slow, and plainly correct, to check the solver and
//! to confirm the data set's mate lengths.

use gogo_rules::{Move, MoveList, Position};
use std::collections::HashMap;

/// The search's memo, by (position, plies), and the positions it may still visit.
struct Memo {
    known: HashMap<(u64, u32), bool>,
    budget: u64,
}

/// Whether the attacker (to move) mates within `plies` plies, every attacker move a check,
/// whatever the defender does; `None` once the budget is spent.
fn mates_within(pos: &Position, plies: u32, memo: &mut Memo) -> Option<bool> {
    if plies == 0 {
        return Some(false);
    }
    if let Some(&known) = memo.known.get(&(pos.key(), plies)) {
        return Some(known);
    }
    memo.budget = memo.budget.checked_sub(1)?;
    let mut checks = MoveList::new();
    pos.generate_checks(&mut checks);
    let mut result = false;
    for &check in checks.iter() {
        if check_mates(pos, check, plies, memo)? {
            result = true;
            break;
        }
    }
    memo.known.insert((pos.key(), plies), result);
    Some(result)
}

/// Whether `check` mates within `plies` plies (itself included), every later attacker move a
/// check, whatever the defender answers; `None` once the budget is spent.
fn check_mates(pos: &Position, check: Move, plies: u32, memo: &mut Memo) -> Option<bool> {
    let child = pos.played(check);
    let answers = child.legal_moves();
    if answers.is_empty() {
        return Some(true);
    }
    if plies < 3 {
        return Some(false);
    }
    for &answer in answers.iter() {
        if !mates_within(&child.played(answer), plies - 2, memo)? {
            return Some(false);
        }
    }
    Some(true)
}

/// The length in plies of the shortest forced mate by checks from `pos`, if one exists within
/// `max_plies`.
pub fn mate_length(pos: &Position, max_plies: u32) -> Option<u32> {
    mate_length_within(pos, max_plies, u64::MAX).expect("an unlimited budget")
}

/// [`mate_length`], giving up (`Err`) after visiting `budget` positions.
pub fn mate_length_within(
    pos: &Position,
    max_plies: u32,
    budget: u64,
) -> Result<Option<u32>, BudgetSpent> {
    let mut memo = Memo {
        known: HashMap::new(),
        budget,
    };
    for n in (1..=max_plies).step_by(2) {
        if mates_within(pos, n, &mut memo).ok_or(BudgetSpent)? {
            return Ok(Some(n));
        }
    }
    Ok(None)
}

/// Every check from `pos` that mates within `plies` plies by checks, whatever the defender
/// does: more than one makes a tsume ambiguous, and unlike a search this misses none.
pub fn mating_checks(pos: &Position, plies: u32) -> Vec<Move> {
    let mut memo = Memo {
        known: HashMap::new(),
        budget: u64::MAX,
    };
    let mut checks = MoveList::new();
    pos.generate_checks(&mut checks);
    checks
        .iter()
        .copied()
        .filter(|&check| check_mates(pos, check, plies, &mut memo).expect("an unlimited budget"))
        .collect()
}

/// The exhaustive search ran out of its budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BudgetSpent;

/// Whether `line` is a mate from `pos` by the rules: every move legal, the attacker's moves
/// all checks, and the last position mate (in check, no legal move).
pub fn is_mating_line(pos: &Position, line: &[Move]) -> bool {
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
