//! Replaying a game is linear: the time per ply of `Game::from_usi` (parse, play and judge
//! every move) at 100, 1,000 and 10,000 plies, beside the same replay judged by rescanning
//! every earlier position for each move (how the game judged repetition before the
//! occurrence index), whose time per ply grows with the game. Medians of several runs.
//! Run with `cargo bench -p gogo-rules --bench replay`.

use gogo_rules::game::same_position;
use gogo_rules::{Game, Rng, RuleSet, MAX_GAME_MOVES};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The median of `runs` timings of `work`.
fn median(runs: usize, mut work: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let started = Instant::now();
            work();
            started.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
}

/// The rescanning judge: for each position, its earlier occurrences found by comparing it
/// with every earlier position of the same side to move.
fn rescan(game: &Game) -> usize {
    let positions = game.positions();
    let mut most = 0;
    for n in 0..positions.len() {
        let current = &positions[n];
        let count = (0..=n)
            .rev()
            .step_by(2)
            .filter(|&i| same_position(&positions[i], current))
            .count();
        most = most.max(count);
    }
    most
}

fn main() {
    // `cargo bench` passes `--bench`; any other argument would be a filter, and there is
    // only one benchmark.
    let longest = Rng::new(2026).unending_game(RuleSet::standard(), MAX_GAME_MOVES);
    println!("plies   replay (occurrence index)   rescanning judge   ratio");
    for plies in [100, 1_000, 10_000] {
        let words: Vec<String> = longest.moves()[..plies]
            .iter()
            .map(|m| m.to_string())
            .collect();
        let text = format!("startpos moves {}", words.join(" "));
        let runs = if plies == 10_000 { 7 } else { 21 };
        let replay = median(runs, || {
            black_box(Game::from_usi(RuleSet::standard(), black_box(&text)).unwrap());
        });
        let game = Game::from_usi(RuleSet::standard(), &text).unwrap();
        let scan = median(runs, || {
            black_box(rescan(black_box(&game)));
        });
        // The rescanning judge's figure is its judging alone; the replay's is everything.
        let per_ply = |d: Duration| d.as_nanos() as f64 / plies as f64 / 1000.0;
        println!(
            "{plies:>6}   {:>10.2} µs/ply ({:>7.2} ms)   {:>10.2} µs/ply   {:>6.1}x",
            per_ply(replay),
            replay.as_secs_f64() * 1000.0,
            per_ply(scan),
            scan.as_secs_f64() / replay.as_secs_f64()
        );
    }
}
