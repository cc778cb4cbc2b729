//! Strength levels: a weaker gogo that plays like a person of some strength, not like a
//! random mover. A level limits the search by nodes and depth (so that it plays alike on a
//! fast and a slow machine; the clock is only a cap), searches several lines, and picks among
//! the near-best with a per-level temperature, so that it prefers plausible moves and
//! rarely plays one far worse than the best. Now and then a low level looks only one ply
//! deep for a move, and so misses a threat or a tactic, as beginners do; captures are still
//! seen (the quiescence search), so it does not leave a piece hanging every time.
//!
//! What each level does is the table [`LEVELS`]; level 0 is full strength.

use crate::job::SearchJob;
use crate::report::SearchResult;
use crate::value::MATE_IN_MAX_PLY;
use gogo_rules::{Move, Rng};

/// The highest level; level 0 is full strength.
pub const MAX_LEVEL: u8 = 10;

/// How one level searches and chooses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelSettings {
    /// Nodes per move at most, once the first iteration is whole; `None` for the levels
    /// bounded by their depth alone.
    pub nodes: Option<u64>,
    /// Depth at most, in plies.
    pub depth: i32,
    /// Lines searched (MultiPV) to choose among.
    pub lines: usize,
    /// The softmax temperature over the lines' scores, centipawns: a line `T` cp worse than
    /// the best is `e` times less likely.
    pub temperature: f64,
    /// Lines further than this below the best are never chosen, centipawns.
    pub window: i32,
    /// Per mille of moves searched one ply deep only (a tactic missed; the lowest levels
    /// search one or two plies anyway).
    pub shallow_permille: u32,
    /// Whether the mate solver looks first (a level-1 engine that announces mate in 9 is not
    /// level 1).
    pub mate_probe: bool,
    /// Whether a mate the search sees is always played and a mated line avoided; the two
    /// lowest levels, like beginners, can miss a mate in one.
    pub sees_mates: bool,
}

/// What a mate counts for, centipawns, at the levels that do not see mates.
pub const MATE_BLIND_CP: i32 = 2000;

/// Levels 1 to 10, weakest first. Levels 1 to 6 are bounded by their depth alone, levels 7
/// to 10 by nodes too. Every level searches its first iteration whole, whatever its node
/// limit, and so chooses among all its lines in every position: a node limit that cut the
/// first iteration where there are many moves (60 with pieces in hand; 40 lines of one ply
/// take about 5,000 nodes) left the level playing the search's best move, full strength
/// exactly in the sharpest positions.
pub const LEVELS: [LevelSettings; MAX_LEVEL as usize] = [
    level(None, 1, 40, 1000.0, 100_000, 0, Mates::Missed),
    level(None, 1, 40, 700.0, 100_000, 0, Mates::Missed),
    level(None, 1, 12, 700.0, 2000, 0, Mates::Seen),
    level(None, 1, 8, 300.0, 1000, 0, Mates::Seen),
    level(None, 2, 8, 320.0, 1100, 0, Mates::Seen),
    level(None, 2, 8, 285.0, 1000, 0, Mates::Solved),
    level(Some(3_000), 3, 6, 100.0, 450, 70, Mates::Solved),
    level(Some(40_000), 9, 4, 30.0, 150, 10, Mates::Solved),
    level(Some(250_000), 12, 3, 12.0, 70, 0, Mates::Solved),
    level(Some(600_000), 20, 2, 4.0, 30, 0, Mates::Solved),
];

/// How a level meets mates.
enum Mates {
    /// Missed as beginners miss them: a mate counts as [`MATE_BLIND_CP`] only.
    Missed,
    /// A mate the search sees is always played, a mated line avoided.
    Seen,
    /// Seen, and the mate solver looks first.
    Solved,
}

const fn level(
    nodes: Option<u64>,
    depth: i32,
    lines: usize,
    temperature: f64,
    window: i32,
    shallow_permille: u32,
    mates: Mates,
) -> LevelSettings {
    LevelSettings {
        nodes,
        depth,
        lines,
        temperature,
        window,
        shallow_permille,
        mate_probe: matches!(mates, Mates::Solved),
        sees_mates: !matches!(mates, Mates::Missed),
    }
}

/// The settings of `level` (1 to [`MAX_LEVEL`]); `None` for full strength (0).
pub fn settings(level: u8) -> Option<&'static LevelSettings> {
    match level {
        0 => None,
        l => LEVELS.get(usize::from(l.min(MAX_LEVEL)) - 1),
    }
}

/// A game search at a strength level: the job as the level searches it, and the move it
/// then chooses. Built by [`crate::SearchContext::search`] from the job's options.
pub(crate) struct LevelSearch {
    settings: &'static LevelSettings,
    chance: Rng,
}

impl LevelSearch {
    /// The level of `job`, if it has one and is a game search (analysis is full strength).
    pub(crate) fn of(job: &SearchJob) -> Option<LevelSearch> {
        let settings = settings(job.options.level).filter(|_| !job.limits.infinite)?;
        Some(LevelSearch {
            settings,
            chance: Rng::new(job.options.level_seed),
        })
    }

    /// `job` with the level's limits: its depth (one ply now and then, when the level misses
    /// a tactic), its nodes (binding once the first iteration is whole) and its lines.
    pub(crate) fn limit(&mut self, job: &SearchJob) -> SearchJob {
        let level = self.settings;
        let depth = if level.shallow(&mut self.chance) {
            1
        } else {
            level.depth
        };
        let mut limited = job.clone();
        let limits = &mut limited.limits;
        limits.depth = Some(limits.depth.map_or(depth, |d| d.min(depth)));
        limits.nodes = match (limits.nodes, level.nodes) {
            (Some(asked), Some(own)) => Some(asked.min(own)),
            (asked, own) => asked.or(own),
        };
        limits.whole_first_iteration = true;
        limited.options.multipv = limited.options.multipv.max(level.lines);
        limited
    }

    /// The level's move among the search's lines; the expected reply goes with a move that
    /// is not the search's best.
    pub(crate) fn choose(&mut self, result: &mut SearchResult) {
        if let Some(mv) = self.settings.choose(&result.lines, &mut self.chance) {
            if Some(mv) != result.best {
                result.best = Some(mv);
                result.ponder = None;
            }
        }
    }
}

impl LevelSettings {
    /// Whether this move is one of the few searched one ply deep.
    pub fn shallow(&self, rng: &mut Rng) -> bool {
        (rng.below(1000) as u32) < self.shallow_permille
    }

    /// The move to play among `lines` (first move and score for the side to move, best
    /// first, as [`crate::SearchResult::lines`]): where the level sees mates, a mate is
    /// always taken and a line that is mated avoided when another is not; otherwise a
    /// softmax over the lines within [`LevelSettings::window`] of the best. `None` only for
    /// no lines.
    pub fn choose(&self, lines: &[(Move, i32)], rng: &mut Rng) -> Option<Move> {
        let &(best_move, best) = lines.first()?;
        if self.sees_mates && best >= MATE_IN_MAX_PLY {
            return Some(best_move);
        }
        // A level that does not see mates takes a mate (or a repetition's verdict) for a
        // large advantage only, so that it can miss a mate in one as beginners do; with the
        // whole score the mate would outweigh every other line.
        let seen = |s: i32| {
            if self.sees_mates {
                s
            } else {
                s.clamp(-MATE_BLIND_CP, MATE_BLIND_CP)
            }
        };
        let best = seen(best);
        let candidates: Vec<(Move, i32)> = lines
            .iter()
            .map(|&(mv, s)| (mv, seen(s)))
            .filter(|&(_, s)| !self.sees_mates || s > -MATE_IN_MAX_PLY || best <= -MATE_IN_MAX_PLY)
            .filter(|&(_, s)| best.saturating_sub(s) <= self.window)
            .collect();
        if candidates.len() <= 1 {
            return Some(best_move);
        }
        let weights: Vec<f64> = candidates
            .iter()
            .map(|&(_, s)| (-(f64::from(best - s)) / self.temperature.max(1e-6)).exp())
            .collect();
        let total: f64 = weights.iter().sum();
        // A uniform number in [0, total) from 53 random bits.
        let mut at = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
        for (&(mv, _), w) in candidates.iter().zip(&weights) {
            if at < *w {
                return Some(mv);
            }
            at -= w;
        }
        Some(candidates[candidates.len() - 1].0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gogo_rules::Position;

    fn moves() -> Vec<Move> {
        Position::startpos().legal_moves().iter().copied().collect()
    }

    #[test]
    fn levels_grow_stronger() {
        for pair in LEVELS.windows(2) {
            let (weak, strong) = (pair[0], pair[1]);
            assert!(weak.depth <= strong.depth);
            // Bounded by depth alone below, by nodes too above, more nodes each level up.
            match (weak.nodes, strong.nodes) {
                (Some(w), Some(s)) => assert!(w < s),
                (w, s) => assert!(w.is_none() || s.is_some(), "{weak:?}"),
            }
            // A level that looks deeper, or begins to see mates, may choose more loosely
            // among its better lines.
            assert!(
                weak.depth < strong.depth
                    || (!weak.sees_mates && strong.sees_mates)
                    || (weak.temperature > strong.temperature && weak.window >= strong.window),
                "{weak:?}"
            );
            // Missing a tactic by a one-ply search matters where the level looks deeper.
            if weak.depth > 2 {
                assert!(weak.shallow_permille >= strong.shallow_permille);
            }
        }
        assert!(settings(0).is_none());
        assert_eq!(settings(1), Some(&LEVELS[0]));
        assert_eq!(settings(10), Some(&LEVELS[9]));
        assert_eq!(settings(200), Some(&LEVELS[9]));
    }

    #[test]
    fn choices_follow_the_scores() {
        let m = moves();
        let lines = vec![(m[0], 50), (m[1], 40), (m[2], -400), (m[3], -5000)];
        let mut rng = Rng::new(1);
        let mut counts = [0usize; 4];
        let level = LEVELS[7]; // T 50 cp, window 220
        for _ in 0..10_000 {
            let chosen = level.choose(&lines, &mut rng).unwrap();
            counts[m.iter().position(|&x| x == chosen).unwrap()] += 1;
        }
        // e^(-10/50) = 0.82: the two near-best lines split the moves; the others are
        // outside the window.
        assert!(counts[0] > counts[1] && counts[1] > 4000, "{counts:?}");
        assert_eq!(counts[2] + counts[3], 0, "{counts:?}");
        // A weak level's window takes the third line sometimes, never the fourth.
        let mut third = 0;
        for _ in 0..10_000 {
            let chosen = LEVELS[2].choose(&lines, &mut rng).unwrap();
            assert_ne!(chosen, m[3]);
            third += usize::from(chosen == m[2]);
        }
        assert!(third > 50, "{third}");
        // Mates: from level 3 up always taken, and being mated avoided when there is
        // anything else; level 1 can miss a mate in one (it counts as MATE_BLIND_CP:
        // e^(-2000/1000), 12 % of the time here).
        let mate = vec![(m[0], MATE_IN_MAX_PLY + 3), (m[1], 0)];
        assert_eq!(LEVELS[2].choose(&mate, &mut rng), Some(m[0]));
        let mated = vec![(m[0], 0), (m[1], -MATE_IN_MAX_PLY - 3)];
        for _ in 0..100 {
            assert_eq!(LEVELS[2].choose(&mated, &mut rng), Some(m[0]));
        }
        let missed = (0..1000)
            .filter(|_| LEVELS[0].choose(&mate, &mut rng) == Some(m[1]))
            .count();
        assert!((60..200).contains(&missed), "{missed}");
        assert_eq!(LEVELS[0].choose(&[], &mut rng), None);
    }
}
