//! `gogo`: a minishogi engine speaking USI on stdin/stdout, with command-line tools.

use clap::{Parser, Subcommand};
use gogo_rules::parse_usi_position;
use gogo_search::nnue::{self, Network};
use gogo_search::{Evaluation, TranspositionTable};
use gogo_usi::datagen::{self, DatagenConfig, DatagenTotals};
use gogo_usi::{engine, print_perft};
use std::sync::Arc;

/// The scale of the hand-made evaluation's scores: `sigmoid(score / 800)` fits game results
/// (the tuner's fitted K was 794).
const CLASSICAL_SCORE_SCALE: u32 = 800;
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
        Some(Command::Bench {
            depth,
            threads,
            hash,
        }) => {
            let result = gogo_search::bench::run(depth, threads, hash, &mut |i, sfen, nodes| {
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
            let (evaluation, score_scale) = match eval.as_str() {
                "classical" => (Evaluation::Classical, CLASSICAL_SCORE_SCALE),
                "nnue" => (Evaluation::Nnue(Network::embedded()), nnue::SCALE as u32),
                path => match Network::load(std::path::Path::new(path)) {
                    Ok(net) => (Evaluation::Nnue(Arc::new(net)), nnue::SCALE as u32),
                    Err(e) => {
                        eprintln!("gogo datagen: {path}: {e}");
                        return ExitCode::from(2);
                    }
                },
            };
            if min_random_plies > max_random_plies {
                eprintln!("gogo datagen: --min-random-plies is above --max-random-plies");
                return ExitCode::from(2);
            }
            if let Err(e) = TranspositionTable::new(hash) {
                eprintln!("gogo datagen: --hash {hash}: {e}");
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
            let stdout = std::io::stdout();
            match print_perft(&mut stdout.lock(), &pos, depth) {
                Ok(()) => ExitCode::SUCCESS,
                Err(_) => ExitCode::FAILURE,
            }
        }
    }
}
