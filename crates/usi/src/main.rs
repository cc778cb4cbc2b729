//! `gogo`: a minishogi engine speaking USI on stdin/stdout, with command-line tools.

use clap::{Parser, Subcommand};
use gogo_rules::{parse_usi_position, perft, Position};
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

mod usi;

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

/// Prints `<move>: <count>` per root move and `Nodes searched: <total>` last.
pub fn print_perft(out: &mut impl Write, pos: &Position, depth: u32) -> std::io::Result<()> {
    let start = Instant::now();
    let mut total = 0;
    if depth == 0 {
        total = 1;
    } else {
        for mv in pos.legal_moves().iter() {
            let count = perft(&pos.played(*mv), depth - 1);
            total += count;
            writeln!(out, "{mv}: {count}")?;
        }
    }
    log::info!("perft {depth}: {total} nodes in {:?}", start.elapsed());
    writeln!(out)?;
    writeln!(out, "Nodes searched: {total}")
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    match cli.command {
        None => {
            usi::run();
            ExitCode::SUCCESS
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
