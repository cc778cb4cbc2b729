//! Node limits: the hard limit stops the search, the soft limit ends it with the first
//! iteration completed past it.

use gogo_rules::{Position, RuleSet};
use gogo_search::{
    GameHistory, SearchControl, SearchInfo, SearchJob, SearchLimits, SearchOptions, SearchResult,
    Searcher,
};
use std::sync::Mutex;

fn search(sfen: &str, nodes: u64, soft_nodes: Option<u64>) -> (SearchResult, Vec<SearchInfo>) {
    let pos = Position::from_sfen(sfen).unwrap();
    let job = SearchJob {
        root: pos.clone(),
        history: GameHistory::from_positions(std::slice::from_ref(&pos)),
        limits: SearchLimits {
            nodes: Some(nodes),
            soft_nodes,
            ..Default::default()
        },
        options: SearchOptions {
            rules: RuleSet::standard(),
            ..Default::default()
        },
    };
    let searcher = Searcher::new(4).unwrap();
    let infos = Mutex::new(Vec::new());
    let result =
        searcher
            .context()
            .search(&job, &SearchControl::new(false), &|info: SearchInfo| {
                infos.lock().unwrap().push(info)
            });
    (result, infos.into_inner().unwrap())
}

#[test]
fn soft_node_limit_ends_with_the_first_iteration_past_it() {
    let sfen = "rbsgk/4p/5/P4/KGSBR b - 1";
    let hard = 400_000;
    let soft = 20_000;
    let (only_hard, _) = search(sfen, hard, None);
    let (with_soft, infos) = search(sfen, hard, Some(soft));
    // The hard limit holds to the node (give or take the root's and the one entered after
    // the stop, which returns at once).
    assert!(
        (hard..=hard + 2).contains(&only_hard.nodes),
        "{} nodes",
        only_hard.nodes
    );
    assert!(with_soft.nodes >= soft, "{} nodes", with_soft.nodes);
    assert!(with_soft.nodes < only_hard.nodes);
    // It stopped after a completed iteration: the last report is that iteration's, and the
    // one before it had not reached the soft limit.
    let last = infos.last().unwrap();
    assert_eq!(last.depth, with_soft.depth);
    assert_eq!(last.nodes, with_soft.nodes);
    let before: Vec<&SearchInfo> = infos.iter().filter(|i| i.depth < last.depth).collect();
    assert!(before.iter().all(|i| i.nodes < soft));
    assert!(with_soft.depth < only_hard.depth);
}
