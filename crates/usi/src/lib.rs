//! The gogo engine: the USI loop ([`engine`]) that reads [`gogo_protocol`] commands and
//! answers them with the search, its options, the book it plays from, and perft. The `gogo`
//! binary (`crates/gogo`) runs it; the offline tools live in `gogo-tools`.

#![warn(missing_docs)]

pub mod book_file;
pub mod engine;
pub mod fuzz_checks;
pub mod mate_probe;
pub mod options;
pub mod output;
pub mod usi_option;

use gogo_rules::{perft_until, Position, MAX_PERFT_DEPTH};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// A perft depth beyond [`MAX_PERFT_DEPTH`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerftTooDeep(pub u32);

impl std::fmt::Display for PerftTooDeep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "perft depth {} is beyond the limit, {MAX_PERFT_DEPTH}",
            self.0
        )
    }
}

impl std::error::Error for PerftTooDeep {}

/// Checks a perft depth against [`MAX_PERFT_DEPTH`].
pub fn perft_depth(depth: u32) -> Result<u32, PerftTooDeep> {
    if depth > MAX_PERFT_DEPTH {
        return Err(PerftTooDeep(depth));
    }
    Ok(depth)
}

/// Prints `<move>: <count>` per root move and `Nodes searched: <total>` last. Once `stop`
/// is set, it stops counting, prints the root moves it finished and `Nodes searched` with
/// what it has counted, and says so in the line before.
pub fn print_perft(
    out: &mut impl Write,
    pos: &Position,
    depth: u32,
    stop: &AtomicBool,
) -> std::io::Result<()> {
    let start = Instant::now();
    let mut total = 0;
    let mut stopped = false;
    if depth == 0 {
        total = 1;
    } else {
        let moves = pos.legal_moves();
        for (i, mv) in moves.iter().enumerate() {
            let count = perft_until(&pos.played(*mv), depth - 1, stop);
            total += count;
            if stop.load(Ordering::Relaxed) {
                stopped = true;
                writeln!(
                    out,
                    "perft stopped: {i} of {} root moves counted, and part of {mv}",
                    moves.len()
                )?;
                break;
            }
            writeln!(out, "{mv}: {count}")?;
        }
    }
    log::info!("perft {depth}: {total} nodes in {:?}", start.elapsed());
    writeln!(out)?;
    if stopped {
        writeln!(out, "Nodes searched: {total} (stopped)")
    } else {
        writeln!(out, "Nodes searched: {total}")
    }
}
