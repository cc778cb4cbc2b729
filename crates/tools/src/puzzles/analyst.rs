//! [`Analyst`]: the searches the puzzle generator, the rater and the checker make.

use gogo_mate::Solver;
use gogo_rules::{Move, Position};
use gogo_search::skill;
use gogo_search::{Evaluation, SearchLimits, SearchOptions, SearchResult, Searcher};
use gogo_table::TableSizeError;
use gogo_usi::mate_probe::mate_probe;

/// The hash table of each search, MiB: the positions are small and the searches short.
const HASH_MB: usize = 16;
/// The mate solver's table, MiB.
const MATE_MB: usize = 8;
/// What one analyst (one thread of `gogo puzzles`) takes at most, MiB: its two tables and
/// the search's per-thread data (measured: 64 threads took 783 MB, about 12 MiB each).
pub const ANALYST_MB: usize = HASH_MB + MATE_MB + 8;

/// A searcher, a mate solver and an evaluation's score scale, for one thread.
pub struct Analyst {
    searcher: Searcher,
    solver: Solver,
    evaluation: Evaluation,
    /// The evaluation's score scale: a score `s` wins with chance 1 / (1 + e^(-s / scale)).
    scale: f64,
    /// Nodes searched so far.
    pub nodes: u64,
}

impl Analyst {
    /// An analyst searching with `evaluation`, whose score scale is `scale`.
    pub fn new(evaluation: Evaluation, scale: f64) -> Result<Analyst, TableSizeError> {
        Ok(Analyst {
            searcher: Searcher::new(HASH_MB)?,
            solver: Solver::new(MATE_MB)?,
            evaluation,
            scale,
            nodes: 0,
        })
    }

    /// With the engine's default evaluation (the built-in network) and its scale.
    pub fn with_default_evaluation() -> Result<Analyst, TableSizeError> {
        Analyst::new(
            Evaluation::default(),
            gogo_search::nnue::embedded_score_scale(),
        )
    }

    /// The winning chance (0 to 1) of a score for the side to move.
    pub fn chance(&self, score: i32) -> f64 {
        if score.abs() >= gogo_search::value::MATE_IN_MAX_PLY {
            return if score > 0 { 1.0 } else { 0.0 };
        }
        1.0 / (1.0 + (-f64::from(score) / self.scale).exp())
    }

    /// Empties the tables, so that what follows does not depend on what came before.
    pub fn new_position(&mut self) {
        self.searcher.new_game();
        self.solver.clear();
    }

    /// Searches `pos` with `limits` and `options` (the evaluation its own), counting nodes.
    fn search(
        &mut self,
        pos: &Position,
        limits: SearchLimits,
        options: SearchOptions,
    ) -> SearchResult {
        // A puzzle is its position alone: the board plays it from the SFEN.
        let options = SearchOptions {
            evaluation: self.evaluation.clone(),
            ..options
        };
        let result = self.searcher.search_position(pos, limits, options);
        self.nodes += result.nodes;
        result
    }

    /// The best `multipv` first moves and their scores at `nodes`, best first.
    pub fn lines(&mut self, pos: &Position, nodes: u64, multipv: usize) -> Vec<(Move, i32)> {
        let limits = SearchLimits {
            nodes: Some(nodes),
            ..Default::default()
        };
        let options = SearchOptions {
            multipv,
            ..Default::default()
        };
        self.search(pos, limits, options).lines
    }

    /// The move `level` plays in `pos` with its chance seeded by `seed`, as in a game: the
    /// mate solver looks first at the levels that have it.
    pub fn level_move(&mut self, pos: &Position, level: u8, seed: u64) -> Option<Move> {
        if skill::settings(level).is_some_and(|s| s.mate_probe) {
            if let Some(line) = mate_probe(&mut self.solver, pos, None) {
                return line.first().copied();
            }
        }
        let options = SearchOptions {
            level,
            level_seed: seed,
            ..Default::default()
        };
        self.search(pos, SearchLimits::default(), options).best
    }
}
