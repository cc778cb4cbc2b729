//! The puzzles built into the board (`data/puzzles.tsv`, made by `gogo puzzles generate`;
//! docs/puzzles.md says how) and the pick of the next one.

use crate::{read_puzzles, Puzzle, Theme};
use std::sync::OnceLock;

/// The shipped set's file.
pub const SHIPPED_TEXT: &str = include_str!("../data/puzzles.tsv");

/// The shipped set, read once. The file is part of the binary and the tests read every
/// line, so a bad one is a build no test passed: it panics with the line and the reason
/// rather than serve an empty set unnoticed.
pub fn shipped() -> &'static [Puzzle] {
    static SET: OnceLock<Vec<Puzzle>> = OnceLock::new();
    SET.get_or_init(|| match read_puzzles(SHIPPED_TEXT) {
        Ok(set) => set,
        Err((line, e)) => panic!("the shipped puzzle set, line {line}: {e}"),
    })
}

/// How many of the nearest puzzles the pick chooses among, so that two players of one
/// rating do not get one sequence.
const NEAREST: usize = 12;

/// The next puzzle for a player of `rating`: one of `theme` (any if `None`) not yet `seen`,
/// among the [`NEAREST`] closest in rating, chosen by `seed`. `None` when none is left.
pub fn pick<'a>(
    puzzles: &'a [Puzzle],
    rating: f64,
    theme: Option<Theme>,
    seen: &dyn Fn(&str) -> bool,
    seed: u64,
) -> Option<&'a Puzzle> {
    let mut candidates: Vec<&Puzzle> = puzzles
        .iter()
        .filter(|p| theme.is_none_or(|t| p.themes().contains(&t)) && !seen(p.id()))
        .collect();
    candidates.sort_by(|a, b| {
        let da = (f64::from(a.rating()) - rating).abs();
        let db = (f64::from(b.rating()) - rating).abs();
        da.total_cmp(&db).then_with(|| a.id().cmp(b.id()))
    });
    candidates.truncate(NEAREST);
    if candidates.is_empty() {
        return None;
    }
    Some(candidates[gogo_rules::Rng::new(seed).below(candidates.len())])
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn the_shipped_set_reads_whole_with_unique_ids() {
        let lines = SHIPPED_TEXT
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .count();
        assert_eq!(read_puzzles(SHIPPED_TEXT).map(|p| p.len()), Ok(lines));
        assert_eq!(shipped().len(), lines);
        let ids: HashSet<&str> = shipped().iter().map(|p| p.id()).collect();
        assert_eq!(ids.len(), lines);
    }

    #[test]
    fn the_pick_stays_near_the_rating_and_skips_what_was_seen() {
        let set = shipped();
        if set.len() < 2 * NEAREST {
            return;
        }
        for target in [800.0, 1500.0, 2200.0] {
            let picked = pick(set, target, None, &|_| false, 7).unwrap();
            let mut distances: Vec<f64> = set
                .iter()
                .map(|p| (f64::from(p.rating()) - target).abs())
                .collect();
            distances.sort_by(f64::total_cmp);
            assert!((f64::from(picked.rating()) - target).abs() <= distances[NEAREST - 1]);
            let again = pick(set, target, None, &|id| id == picked.id(), 7).unwrap();
            assert_ne!(again.id(), picked.id());
        }
        let mate = pick(set, 1500.0, Some(Theme::MateIn1), &|_| false, 3);
        assert!(mate.is_none_or(|p| p.themes().contains(&Theme::MateIn1)));
        assert!(pick(set, 1500.0, None, &|_| true, 3).is_none());
    }
}
