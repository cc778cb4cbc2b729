//! Strength levels live in the search: a job's level limits the search and chooses among its
//! lines, from its seed (analysis at full strength: crates/gogo/tests/levels.rs).

use gogo_rules::Position;
use gogo_search::skill::{settings, MAX_LEVEL};
use gogo_search::{
    GameHistory, SearchControl, SearchInfo, SearchJob, SearchLimits, SearchOptions, SearchResult,
    Searcher,
};

fn search(level: u8, seed: u64) -> SearchResult {
    let pos = Position::startpos();
    let job = SearchJob {
        root: pos.clone(),
        history: GameHistory::from_positions(std::slice::from_ref(&pos)),
        limits: SearchLimits::default(),
        options: SearchOptions {
            level,
            level_seed: seed,
            ..Default::default()
        },
    };
    let searcher = Searcher::new(4).unwrap();
    searcher
        .context()
        .search(&job, &SearchControl::new(false), &|_: SearchInfo| {})
}

#[test]
fn a_level_limits_the_search_and_chooses_from_its_seed() {
    for level in [1, 4, 7] {
        let settings = settings(level).unwrap();
        let result = search(level, 7);
        assert!(
            result.depth <= settings.depth,
            "level {level}: depth {}",
            result.depth
        );
        assert!(
            result.nodes <= settings.nodes + 2,
            "level {level}: {} nodes",
            result.nodes
        );
        assert!(
            result.lines.len() >= settings.lines.min(14),
            "{:?}",
            result.lines
        );
        let legal = Position::startpos().legal_moves();
        assert!(legal.contains(result.best.unwrap()));
        // The same seed, the same choice.
        assert_eq!(search(level, 7).best, result.best, "level {level}");
    }
    // Level 1 chooses all but evenly: over seeds it plays many different first moves.
    let mut seen = std::collections::HashSet::new();
    for seed in 0..40 {
        seen.insert(search(1, seed).best);
    }
    assert!(seen.len() >= 5, "{seen:?}");
    assert!(settings(MAX_LEVEL + 1).is_some_and(|s| *s == *settings(MAX_LEVEL).unwrap()));
    assert!(settings(0).is_none());
}
