//! `gogo`: a minishogi engine speaking USI on stdin/stdout, with command-line tools.

use clap::{Parser, Subcommand};
use gogo_rules::parse_usi_position;
use gogo_usi::{engine, print_perft};
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
