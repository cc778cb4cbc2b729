//! Lazy SMP: the threads of one search, the caller's and the pool's helpers, sharing only
//! the transposition table and the [`SearchControl`]; then the best thread's answer and the
//! move to ponder. [`crate::Searcher`] owns what it needs.

use crate::control::SearchControl;
use crate::job::SearchJob;
use crate::pool::HelperPool;
use crate::report::{SearchInfo, SearchResult};
use crate::search::{RootMove, Worker};
use crate::thread_data::ThreadData;
use crate::time::TimeManager;
use crate::tt::TranspositionTable;
use crate::value::{mated_in, INFINITE, MATE_IN_MAX_PLY};
use gogo_rules::{Move, Position};
use std::sync::atomic::{AtomicU64, Ordering};

/// The machine's cores, asked once: `available_parallelism` reads cgroup files on Linux,
/// which is not for every `go`.
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// What a thread leaves behind: its data and its root moves in their final order.
type Finished = (ThreadData, Vec<RootMove>);

/// Searches `job.root` and returns the best move. `report` receives the main thread's `info`
/// lines. The calling thread is the main thread; the helpers run on `helpers`. The threads
/// (one [`ThreadData`] each in `threads`, grown or shrunk to the number asked for and kept
/// for the next search) share only `tt` and `control`.
pub(crate) fn search(
    job: &SearchJob,
    tt: &TranspositionTable,
    control: &SearchControl,
    threads: &mut Vec<ThreadData>,
    helpers: &HelperPool,
    report: &dyn Fn(SearchInfo),
) -> SearchResult {
    let SearchJob {
        root,
        history,
        limits,
        options,
    } = job;
    let time = TimeManager::new(limits, root.side_to_move(), options.move_overhead);
    let legal = root.legal_moves();
    if legal.is_empty() {
        return SearchResult {
            best: None,
            ponder: None,
            score: mated_in(0),
            depth: 0,
            nodes: 0,
            lines: Vec::new(),
        };
    }
    tt.new_search();
    let wanted = options.threads.max(1);
    while threads.len() < wanted {
        threads.push(ThreadData::new(threads.len()));
    }
    threads.truncate(wanted);
    for td in threads.iter_mut() {
        td.start_search(&options.evaluation, -INFINITE);
    }
    let node_counts: Vec<AtomicU64> = (0..wanted).map(|_| AtomicU64::new(0)).collect();
    // The first iteration is ordered as generated, with the table's move first.
    let mut root_moves: Vec<RootMove> = legal.iter().map(|&mv| RootMove::new(mv)).collect();
    let tt_move = tt.probe(root.key()).and_then(|e| e.mv);
    if let Some(i) = root_moves.iter().position(|rm| Some(rm.mv) == tt_move) {
        root_moves.swap(0, i);
    }
    let history = history.clone().ending_at(root);
    let yield_cpu = wanted > 1 && wanted >= cores();
    let make_worker = |td: ThreadData| Worker {
        multipv: if td.id == 0 {
            options.multipv.max(1)
        } else {
            1
        },
        td,
        tt,
        control,
        node_counts: &node_counts,
        limits,
        time: time.clone(),
        rules: options.rules,
        history: history.clone(),
        root: root.clone(),
        root_moves: root_moves.clone(),
        yield_cpu,
    };

    let mut taken: Vec<ThreadData> = std::mem::take(threads);
    let helper_tds: Vec<ThreadData> = taken.split_off(1);
    let main_td = taken.pop().expect("main thread data");
    let helper_jobs: Vec<Box<dyn FnOnce() -> Finished + Send + '_>> = helper_tds
        .into_iter()
        .map(|td| {
            let mut worker = make_worker(td);
            Box::new(move || {
                worker.iterate(&|_| {});
                (worker.td, worker.root_moves)
            }) as Box<dyn FnOnce() -> Finished + Send + '_>
        })
        .collect();
    let (main, helpers_done) = helpers.scoped(helper_jobs, || {
        let mut main = make_worker(main_td);
        main.iterate(report);
        // Infinite and ponder searches answer only after `stop` (or `ponderhit`); the helpers
        // search on meanwhile.
        control.wait_for_release(limits.infinite);
        control.stop();
        (main.td, main.root_moves)
    });
    // A helper that panicked (a bug) leaves its data behind: it starts afresh next time.
    let helpers_done: Vec<Finished> = helpers_done.into_iter().flatten().collect();
    let total: u64 = node_counts
        .iter()
        .map(|n| n.load(Ordering::Relaxed))
        .sum::<u64>()
        .max(main.0.nodes);
    let (best_move, best_score, best_depth, best_pv) = best_thread(&main, &helpers_done);
    let lines = main.0.completed_lines.clone();
    *threads = std::iter::once(main.0)
        .chain(helpers_done.into_iter().map(|(td, _)| td))
        .collect();
    threads.sort_by_key(|td| td.id);
    SearchResult {
        best: Some(best_move),
        ponder: ponder_move(root, best_move, &best_pv, tt),
        score: best_score,
        depth: best_depth,
        nodes: total,
        lines,
    }
}

/// The best thread's move, score, depth and PV: deepest completed iteration, then best
/// score. The main thread wins ties, and its partial iteration counts when nothing completed.
fn best_thread(main: &Finished, helpers: &[Finished]) -> (Move, i32, i32, Vec<Move>) {
    let (main_td, main_root_moves) = main;
    let mut best_move = main_td.best_move.unwrap_or(main_root_moves[0].mv);
    let mut best_score = if main_td.best_move.is_some() {
        main_td.best_score
    } else {
        main_root_moves[0].score
    };
    let mut best_depth = main_td.completed_depth;
    let mut best_pv = main_root_moves[0].pv.clone();
    for (td, rms) in helpers {
        if let Some(mv) = td.best_move {
            if td.completed_depth > best_depth
                || (td.completed_depth == best_depth
                    && td.best_score > best_score
                    && td.best_score < MATE_IN_MAX_PLY)
            {
                best_move = mv;
                best_score = td.best_score;
                best_depth = td.completed_depth;
                best_pv = rms[0].pv.clone();
            }
        }
    }
    if best_pv.first() != Some(&best_move) {
        best_pv = vec![best_move];
    }
    (best_move, best_score, best_depth, best_pv)
}

/// The move to ponder on: the reply in the PV, else the table's move in the position after
/// ours; only a legal one.
fn ponder_move(root: &Position, best: Move, pv: &[Move], tt: &TranspositionTable) -> Option<Move> {
    let after = root.played(best);
    pv.get(1)
        .copied()
        .filter(|&m| after.is_legal(m))
        .or_else(|| {
            tt.probe(after.key())
                .and_then(|e| e.mv)
                .filter(|&m| after.is_legal(m))
        })
}
