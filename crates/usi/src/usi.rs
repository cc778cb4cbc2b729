//! The USI loop (minimal until the engine lands).

use gogo_rules::{parse_usi_position, Position};
use std::io::{BufRead, Write};

/// Reads USI commands from stdin until `quit` or end of input.
pub fn run() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut pos = Position::startpos();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let line = line.trim();
        let (cmd, rest) = line.split_once(' ').unwrap_or((line, ""));
        match cmd {
            "usi" => {
                let _ = writeln!(out, "id name gogo\nid author gogo developers\nusiok");
            }
            "isready" => {
                let _ = writeln!(out, "readyok");
            }
            "position" => match parse_usi_position(rest) {
                Ok((start, moves)) => pos = moves.iter().fold(start, |p, &m| p.played(m)),
                Err(e) => {
                    let _ = writeln!(out, "info string error: {e}");
                }
            },
            "go" => {
                let mut words = rest.split_whitespace();
                if words.next() == Some("perft") {
                    match words.next().and_then(|d| d.parse().ok()) {
                        Some(depth) => {
                            let _ = crate::print_perft(&mut out, &pos, depth);
                        }
                        None => {
                            let _ = writeln!(out, "info string error: go perft needs a depth");
                        }
                    }
                }
            }
            "quit" => break,
            _ => {}
        }
        let _ = out.flush();
    }
}
