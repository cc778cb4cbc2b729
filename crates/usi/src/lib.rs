//! The gogo USI front end: the engine loop ([`engine`]) that reads [`gogo_protocol`]
//! commands and answers them with the search. The `gogo` binary is a thin wrapper around it.

#![warn(missing_docs)]

pub mod datagen;
pub mod engine;
pub mod job_thread;

use gogo_rules::{perft, Position};
use std::io::Write;
use std::time::Instant;

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
