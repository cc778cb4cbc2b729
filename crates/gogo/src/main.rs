//! `gogo`: a minishogi engine speaking USI on stdin/stdout, with command-line tools. The
//! engine is `gogo-usi`; the tools' subcommands are thin calls into `gogo-tools` (`tools.rs`).

use clap::{Parser, Subcommand};
use gogo_mate::{MateLimits, MateResult, Solver};
use gogo_rules::{parse_usi_position, usi_line, Position};
use gogo_search::nnue::{self, Network};
use gogo_search::Evaluation;
use gogo_usi::{engine, perft_depth, print_perft};
use std::sync::Arc;

use std::process::ExitCode;
use tools::{
    book_command, datagen_command, puzzles_command, repetitions_command, BookCommand, DatagenArgs,
    PuzzlesCommand, RepetitionsArgs,
};

mod tools;

#[derive(Parser)]
#[command(
    name = "gogo",
    version,
    about = "A minishogi (5x5 shogi) engine speaking USI"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Search a fixed list of positions and print the node count and speed.
    Bench(BenchArgs),
    /// Self-play games at a fixed node count, written as NNUE training data.
    Datagen(DatagenArgs),
    /// Solve a mate problem (tsume): print the mating line, nomate or timeout.
    Mate(MateArgs),
    /// Print an evaluation's score scale K (a score s wins with chance 1 / (1 + e^(-s / K))),
    /// from its provenance: fitted to game results by `gogo-train --calibrate`.
    ScoreScale(ScoreScaleArgs),
    /// Count the leaves of the legal move tree, per root move.
    Perft(PerftArgs),
    /// Find puzzles in games (or self-play), rate them by gogo's levels, check a set.
    #[command(subcommand)]
    Puzzles(PuzzlesCommand),
    /// Build, merge and show opening books (YaneuraOu's text format).
    #[command(subcommand)]
    Book(BookCommand),
    /// In games lost by fourfold repetition, the loser's steps into a third occurrence or
    /// later, searched again beside the best move that avoids the repeat.
    Repetitions(RepetitionsArgs),
    /// Print the search's tunable parameters as CSV (name, default, min, max, step), for
    /// `gogo-arena tune`; a build with `--features tune` takes them as USI options.
    Tunables,
}

/// `gogo bench`.
#[derive(clap::Args)]
struct BenchArgs {
    /// Depth in plies.
    #[arg(long, default_value_t = 9)]
    depth: i32,
    /// Search threads (the node count is a deterministic signature only with one).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Hash table size in MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// The evaluation: `classical`, `nnue` (the built-in network) or a network file;
    /// the engine's default when not given.
    #[arg(long)]
    eval: Option<String>,
    /// Print the bench positions (one SFEN a line) instead.
    #[arg(long)]
    list: bool,
}

/// `gogo mate`.
#[derive(clap::Args)]
struct MateArgs {
    /// The position: an SFEN, or `startpos`.
    #[arg(long, default_value = "startpos")]
    sfen: String,
    /// Moves played from it first.
    #[arg(long, num_args = 0..)]
    moves: Vec<String>,
    /// Milliseconds to spend at most (per problem with --bench).
    #[arg(long)]
    time: Option<u64>,
    /// Nodes to spend at most (per problem with --bench); the engine's mate probe before a
    /// game move is `--nodes 5000` with a twentieth of the move's time.
    #[arg(long)]
    nodes: Option<u64>,
    /// Proof table size in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Solve the fixed problem set instead (tests/data/tsume.tsv).
    #[arg(long)]
    bench: bool,
}

/// `gogo scorescale`.
#[derive(clap::Args)]
struct ScoreScaleArgs {
    /// `classical`, `nnue` (the built-in network) or a network file (its nominal scale).
    #[arg(long, default_value = "nnue")]
    eval: String,
}

/// `gogo perft`.
#[derive(clap::Args)]
struct PerftArgs {
    /// Depth in plies.
    depth: u32,
    /// Start position: an SFEN, or `startpos`.
    #[arg(long, default_value = "startpos")]
    sfen: String,
    /// Moves played from the start position first.
    #[arg(long, num_args = 0.., allow_hyphen_values = false)]
    moves: Vec<String>,
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    match Cli::parse().command {
        None => {
            engine::run();
            ExitCode::SUCCESS
        }
        Some(Command::Bench(args)) => bench_command(args),
        Some(Command::Datagen(args)) => datagen_command(args),
        Some(Command::Mate(args)) => mate_command(args),
        Some(Command::ScoreScale(args)) => score_scale_command(args),
        Some(Command::Perft(args)) => perft_command(args),
        Some(Command::Puzzles(command)) => puzzles_command(command),
        Some(Command::Book(command)) => book_command(command),
        Some(Command::Repetitions(args)) => repetitions_command(args),
        Some(Command::Tunables) => {
            println!("name,default,min,max,step");
            for t in gogo_search::params::TUNABLES {
                println!("{},{},{},{},{}", t.name, t.default, t.min, t.max, t.step);
            }
            ExitCode::SUCCESS
        }
    }
}

/// Reports a bad argument of `gogo COMMAND` and gives its exit code.
fn usage_error(command: &str, error: impl std::fmt::Display) -> ExitCode {
    eprintln!("gogo {command}: {error}");
    ExitCode::from(2)
}

/// The position `sfen` (or `startpos`) with `moves` played.
fn position_from(sfen: &str, moves: &[String]) -> Result<Position, gogo_rules::SfenError> {
    let mut text = sfen.to_string();
    if !moves.is_empty() {
        text = format!("{text} moves {}", moves.join(" "));
    }
    parse_usi_position(&text).map(|(start, moves)| moves.iter().fold(start, |p, &m| p.played(m)))
}

/// `gogo bench`: the node signature and speed, or `--list` the positions.
fn bench_command(args: BenchArgs) -> ExitCode {
    if args.list {
        for sfen in gogo_search::bench::POSITIONS {
            println!("{sfen}");
        }
        return ExitCode::SUCCESS;
    }
    let evaluation = match args.eval.as_deref().map(parse_evaluation).transpose() {
        Ok(e) => e.map_or_else(Evaluation::default, |(e, _)| e),
        Err(e) => return usage_error("bench", e),
    };
    let config = gogo_search::bench::BenchConfig {
        depth: args.depth,
        threads: args.threads,
        hash_mb: args.hash,
        evaluation,
    };
    let result = gogo_search::bench::run(&config, &mut |i, sfen, nodes| {
        eprintln!("position {:>2} {sfen}: {nodes}", i + 1);
    });
    match result {
        Ok(r) => {
            let nps = (r.nodes as f64 / r.elapsed.as_secs_f64().max(1e-9)) as u64;
            println!("Nodes searched: {}", r.nodes);
            println!("Nodes/second: {nps}");
            ExitCode::SUCCESS
        }
        Err(e) => usage_error("bench", e),
    }
}

/// `gogo score-scale`.
fn score_scale_command(args: ScoreScaleArgs) -> ExitCode {
    match parse_evaluation(&args.eval) {
        Ok((_, scale)) => {
            println!("{scale}");
            ExitCode::SUCCESS
        }
        Err(e) => usage_error("score-scale", e),
    }
}

/// `gogo perft`.
fn perft_command(args: PerftArgs) -> ExitCode {
    let pos = match position_from(&args.sfen, &args.moves) {
        Ok(p) => p,
        Err(e) => return usage_error("perft", e),
    };
    let depth = match perft_depth(args.depth) {
        Ok(d) => d,
        Err(e) => return usage_error("perft", e),
    };
    let never = std::sync::atomic::AtomicBool::new(false);
    match print_perft(&mut std::io::stdout().lock(), &pos, depth, &never) {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::FAILURE,
    }
}

/// An evaluation named on the command line (`classical`, `nnue` for the built-in network, or
/// a network file) and the scale of its scores: the fitted one from the provenance of the
/// hand-made evaluation and of the built-in network, the nominal one for another network
/// (fit it with `gogo-train --calibrate`).
fn parse_evaluation(text: &str) -> Result<(Evaluation, u32), String> {
    match text {
        "classical" => Ok((
            Evaluation::Classical,
            gogo_search::eval::classical_score_scale().round() as u32,
        )),
        "nnue" => Ok((
            Evaluation::Nnue(Network::embedded()),
            nnue::embedded_score_scale().round() as u32,
        )),
        path => Network::load(std::path::Path::new(path))
            .map(|net| (Evaluation::Nnue(Arc::new(net)), nnue::SCALE as u32))
            .map_err(|e| format!("{path}: {e}")),
    }
}

/// `gogo mate`: one problem, or the bench set.
fn mate_command(args: MateArgs) -> ExitCode {
    let mut solver = match Solver::new(args.hash) {
        Ok(s) => s,
        Err(e) => return usage_error("mate", e),
    };
    let limits = MateLimits {
        time: args.time.map(std::time::Duration::from_millis),
        nodes: args.nodes,
        ..Default::default()
    };
    if args.bench {
        let report = |i: usize, p: &gogo_mate::bench::BenchProblem| {
            eprintln!(
                "problem {:>3} {}: {} in {:.3} ms, {} nodes ({} for the line){}",
                i + 1,
                p.sfen,
                describe(&p.result),
                p.elapsed.as_secs_f64() * 1e3,
                p.nodes,
                p.line_nodes,
                if p.right { "" } else { " (WRONG)" }
            )
        };
        return match gogo_mate::bench::run(&mut solver, &limits, &mut { report }) {
            Ok(b) => {
                println!(
                    "Median time: {:.2} ms, longest: {:.1} ms, total: {:.0} ms",
                    b.median.as_secs_f64() * 1e3,
                    b.longest.as_secs_f64() * 1e3,
                    b.total.as_secs_f64() * 1e3
                );
                println!("Positions solved: {}/{}", b.solved, b.problems);
                println!("Nodes/second: {}", b.nps);
                if b.solved == b.problems {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::FAILURE
                }
            }
            Err(e) => {
                eprintln!("gogo mate: a bench problem does not read: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let pos = match position_from(&args.sfen, &args.moves) {
        Ok(p) => p,
        Err(e) => return usage_error("mate", e),
    };
    let outcome = solver.solve(&pos, &limits, &mut |p| {
        eprintln!(
            "{} nodes, {:.1} s, table {}‰",
            p.nodes,
            p.elapsed.as_secs_f64(),
            p.fill_permille
        )
    });
    println!("{}", describe(&outcome.result));
    eprintln!(
        "{} nodes in {:.3} ms{}",
        outcome.nodes,
        outcome.elapsed.as_secs_f64() * 1e3,
        match &outcome.result {
            MateResult::Mate(_) if outcome.shortest => ", the shortest mate",
            MateResult::Mate(_) => ", the mate the proof found",
            MateResult::NoMate if outcome.perpetual => ", perpetual check at most",
            _ => "",
        }
    );
    ExitCode::SUCCESS
}

/// `mate N: moves`, `nomate` or `timeout`.
fn describe(result: &MateResult) -> String {
    match result {
        MateResult::Mate(line) => format!("mate {}: {}", line.len(), usi_line(line)),
        MateResult::NoMate => "nomate".into(),
        MateResult::Unknown => "timeout".into(),
    }
}
