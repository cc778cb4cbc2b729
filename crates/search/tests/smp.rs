//! Lazy SMP soundness: many threads on many positions return legal moves and legal PVs, and
//! a corrupted table cannot make them play an illegal move.

use gogo_rules::{Position, RuleSet};
use gogo_search::bench::POSITIONS;
use gogo_search::{
    GameHistory, SearchControl, SearchInfo, SearchJob, SearchLimits, SearchOptions, Searcher,
};
use std::sync::Mutex;

fn run(pos: &Position, threads: usize, depth: i32, searcher: &Searcher) {
    let job = SearchJob {
        root: pos.clone(),
        history: GameHistory::from_positions(std::slice::from_ref(pos)),
        limits: SearchLimits {
            depth: Some(depth),
            ..Default::default()
        },
        options: SearchOptions {
            threads,
            rules: RuleSet::standard(),
            ..Default::default()
        },
    };
    let control = SearchControl::new(false);
    let infos = Mutex::new(Vec::new());
    let report = |info: SearchInfo| infos.lock().unwrap().push(info);
    let result = searcher.context().search(&job, &control, &report);
    // The helpers are the pool's, started once.
    assert!(searcher.context().helper_threads() >= threads - 1);
    let legal = pos.legal_moves();
    match result.best {
        Some(best) => assert!(legal.contains(best), "{pos}: {best}"),
        None => assert!(legal.is_empty()),
    }
    // Every reported PV is a sequence of legal moves.
    for info in infos.lock().unwrap().iter() {
        let mut p = pos.clone();
        for &mv in &info.pv {
            assert!(p.is_legal(mv), "{pos}: pv {:?} has illegal {mv}", info.pv);
            p.play(mv);
        }
    }
    if let (Some(best), Some(ponder)) = (result.best, result.ponder) {
        assert!(pos.played(best).is_legal(ponder));
    }
}

#[test]
fn many_threads_many_positions_legal_moves_and_pvs() {
    let searcher = Searcher::new(8).unwrap();
    for sfen in POSITIONS {
        let pos = Position::from_sfen(sfen).unwrap();
        run(&pos, 4, 6, &searcher);
    }
    assert_eq!(
        searcher.context().helper_threads(),
        3,
        "no thread started per search"
    );
}

#[test]
fn garbage_in_the_table_is_never_played() {
    let searcher = Searcher::new(1).unwrap();
    let tt = searcher.context().table();
    for (i, sfen) in POSITIONS.iter().enumerate().take(12) {
        let pos = Position::from_sfen(sfen).unwrap();
        // Entries that verify against the key but carry arbitrary moves and scores, as a
        // torn write or a key collision could leave: the TT move is checked before use.
        for k in 0..64u64 {
            let data = (k.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ i as u64) | (3 << 56);
            tt.corrupt_for_test(pos.key(), pos.key() ^ data, data);
            let child_key = pos
                .legal_moves()
                .iter()
                .next()
                .map(|&m| pos.played(m).key());
            if let Some(key) = child_key {
                tt.corrupt_for_test(key, key ^ data, data);
            }
            run(&pos, 2, 3, &searcher);
        }
    }
}
