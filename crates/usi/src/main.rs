//! `gogo`: a minishogi engine speaking USI on stdin/stdout, with command-line tools.

use clap::{Parser, Subcommand};
use gogo_mate::{MateLimits, MateResult, Solver};
use gogo_rules::parse_usi_position;
use gogo_search::nnue::{self, Network};
use gogo_search::Evaluation;
use gogo_usi::datagen::{self, DatagenConfig, DatagenTotals};
use gogo_usi::{engine, perft_depth, print_perft};
use std::sync::Arc;

use std::process::ExitCode;

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
    Bench {
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
    },
    /// Self-play games at a fixed node count, written as NNUE training data.
    Datagen {
        /// Games to play.
        #[arg(long, default_value_t = 1000)]
        games: usize,
        /// Nodes searched per move.
        #[arg(long, default_value_t = 5000)]
        nodes: u64,
        /// Games played at once (one search thread each).
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// Seed of the random openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Fewest random plies of an opening.
        #[arg(long, default_value_t = 4)]
        min_random_plies: usize,
        /// Most random plies of an opening.
        #[arg(long, default_value_t = 9)]
        max_random_plies: usize,
        /// Openings scored beyond this (centipawns) are replaced.
        #[arg(long, default_value_t = 600)]
        opening_limit: i32,
        /// Games longer than this many plies are drawn.
        #[arg(long, default_value_t = 300)]
        max_plies: usize,
        /// The evaluation that plays: `classical`, `nnue` (the built-in network) or a
        /// network file.
        #[arg(long, default_value = "nnue")]
        eval: String,
        /// Hash table per game, MiB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// The file to write.
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Solve a mate problem (tsume): print the mating line, nomate or timeout.
    Mate {
        /// The position: an SFEN, or `startpos`.
        #[arg(long, default_value = "startpos")]
        sfen: String,
        /// Moves played from it first.
        #[arg(long, num_args = 0..)]
        moves: Vec<String>,
        /// Milliseconds to spend at most (per problem with --bench).
        #[arg(long)]
        time: Option<u64>,
        /// Proof table size in MiB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
        /// Solve the fixed problem set instead (tests/data/tsume.tsv).
        #[arg(long)]
        bench: bool,
    },
    /// Print an evaluation's score scale K (a score s wins with chance 1 / (1 + e^(-s / K))),
    /// from its provenance: fitted to game results by `gogo-train --calibrate`.
    ScoreScale {
        /// `classical`, `nnue` (the built-in network) or a network file (its nominal scale).
        #[arg(long, default_value = "nnue")]
        eval: String,
    },
    /// Count the leaves of the legal move tree, per root move.
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Start position: an SFEN, or `startpos`.
        #[arg(long, default_value = "startpos")]
        sfen: String,
        /// Moves played from the start position first.
        #[arg(long, num_args = 0.., allow_hyphen_values = false)]
        moves: Vec<String>,
    },
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    match cli.command {
        None => {
            engine::run();
            ExitCode::SUCCESS
        }
        Some(Command::ScoreScale { eval }) => match parse_evaluation(&eval) {
            Ok((_, scale)) => {
                println!("{scale}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("gogo score-scale: {e}");
                ExitCode::from(2)
            }
        },
        Some(Command::Bench {
            depth,
            threads,
            hash,
            eval,
        }) => {
            let evaluation = match eval.as_deref().map(parse_evaluation).transpose() {
                Ok(e) => e.map_or_else(Evaluation::default, |(e, _)| e),
                Err(e) => {
                    eprintln!("gogo bench: {e}");
                    return ExitCode::from(2);
                }
            };
            let config = gogo_search::bench::BenchConfig {
                depth,
                threads,
                hash_mb: hash,
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
                Err(e) => {
                    eprintln!("gogo bench: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Some(Command::Datagen {
            games,
            nodes,
            threads,
            seed,
            min_random_plies,
            max_random_plies,
            opening_limit,
            max_plies,
            eval,
            hash,
            out,
        }) => {
            let (evaluation, score_scale) = match parse_evaluation(&eval) {
                Ok(e) => e,
                Err(e) => {
                    eprintln!("gogo datagen: {e}");
                    return ExitCode::from(2);
                }
            };
            if min_random_plies > max_random_plies {
                eprintln!("gogo datagen: --min-random-plies is above --max-random-plies");
                return ExitCode::from(2);
            }
            let config = DatagenConfig {
                games,
                nodes,
                threads,
                seed,
                random_plies: min_random_plies..=max_random_plies,
                opening_limit,
                max_plies,
                evaluation,
                score_scale,
                hash_mb: hash,
                out,
            };
            let mut report = |t: &DatagenTotals, elapsed: std::time::Duration| {
                let secs = elapsed.as_secs_f64().max(1e-9);
                let [w, d, l] = t.sente_results;
                eprintln!(
                    "games {}/{games}, positions {} ({:.0}/s), plies/game {:.1}, Sente +{w} ={d} -{l}, {:.0} s",
                    t.games,
                    t.positions,
                    t.positions as f64 / secs,
                    t.plies as f64 / t.games.max(1) as f64,
                    secs
                );
            };
            match datagen::run(&config, &mut report) {
                Ok(t) => {
                    println!("Positions written: {}", t.positions);
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("gogo datagen: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Command::Mate {
            sfen,
            moves,
            time,
            hash,
            bench,
        }) => mate_command(&sfen, &moves, time, hash, bench),
        Some(Command::Perft { depth, sfen, moves }) => {
            let mut text = sfen;
            if !moves.is_empty() {
                text = format!("{text} moves {}", moves.join(" "));
            }
            let pos = match parse_usi_position(&text) {
                Ok((start, moves)) => moves.iter().fold(start, |p, &m| p.played(m)),
                Err(e) => {
                    eprintln!("gogo perft: {e}");
                    return ExitCode::from(2);
                }
            };
            let depth = match perft_depth(depth) {
                Ok(d) => d,
                Err(e) => {
                    eprintln!("gogo perft: {e}");
                    return ExitCode::from(2);
                }
            };
            let stdout = std::io::stdout();
            let never = std::sync::atomic::AtomicBool::new(false);
            match print_perft(&mut stdout.lock(), &pos, depth, &never) {
                Ok(()) => ExitCode::SUCCESS,
                Err(_) => ExitCode::FAILURE,
            }
        }
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
fn mate_command(
    sfen: &str,
    moves: &[String],
    time: Option<u64>,
    hash: usize,
    bench: bool,
) -> ExitCode {
    let mut solver = match Solver::new(hash) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("gogo mate: {e}");
            return ExitCode::from(2);
        }
    };
    let limits = MateLimits {
        time: time.map(std::time::Duration::from_millis),
        ..Default::default()
    };
    if bench {
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
    let mut text = sfen.to_string();
    if !moves.is_empty() {
        text = format!("{text} moves {}", moves.join(" "));
    }
    let pos = match parse_usi_position(&text) {
        Ok((start, moves)) => moves.iter().fold(start, |p, &m| p.played(m)),
        Err(e) => {
            eprintln!("gogo mate: {e}");
            return ExitCode::from(2);
        }
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
        "{} nodes in {:.3} s{}",
        outcome.nodes,
        outcome.elapsed.as_secs_f64(),
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
        MateResult::Mate(line) => format!(
            "mate {}: {}",
            line.len(),
            line.iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        ),
        MateResult::NoMate => "nomate".into(),
        MateResult::Unknown => "timeout".into(),
    }
}
