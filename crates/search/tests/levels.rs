//! Strength levels live in the search: a job's level limits the search and chooses among its
//! lines, from its seed (analysis at full strength: crates/gogo/tests/levels.rs).

use gogo_rules::Position;
use gogo_search::skill::{settings, MAX_LEVEL};
use gogo_search::{
    GameHistory, SearchControl, SearchInfo, SearchJob, SearchLimits, SearchOptions, SearchResult,
    Searcher,
};

fn search(level: u8, seed: u64) -> SearchResult {
    search_in(&Position::startpos(), level, seed)
}

fn search_in(pos: &Position, level: u8, seed: u64) -> SearchResult {
    let pos = pos.clone();
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
        if let Some(nodes) = settings.nodes {
            assert!(
                result.nodes <= nodes + 2,
                "level {level}: {} nodes",
                result.nodes
            );
        }
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

/// Every level chooses among all its lines even where there are 60 moves (pieces in hand): a
/// node limit used to cut the first iteration there, and levels 1 to 6 then played the
/// search's best move, here a mate in one, every time.
#[test]
fn every_level_chooses_among_its_lines_in_a_position_with_many_moves() {
    let pos = Position::from_sfen("4R/2b2/2Sk1/G4/K4 b GPrbsp 29").unwrap();
    assert_eq!(pos.legal_moves().len(), 60);
    for level in 1..=MAX_LEVEL {
        let result = search_in(&pos, level, 1);
        let lines = settings(level).unwrap().lines;
        assert_eq!(
            result.lines.len(),
            lines,
            "level {level}: {:?}",
            result.lines
        );
    }
    // Level 1 does not look for mates: over seeds it plays many moves, not the mate.
    let mut seen = std::collections::HashSet::new();
    for seed in 0..20 {
        seen.insert(search_in(&pos, 1, seed).best);
    }
    assert!(seen.len() >= 5, "{seen:?}");
    // From level 3 up a level sees mates: it always mates.
    for seed in 0..5 {
        let best = search_in(&pos, 3, seed).best.unwrap();
        assert!(pos.played(best).legal_moves().is_empty(), "{best}");
    }
}
