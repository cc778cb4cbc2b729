//! A scripted USI engine for the arena's tests: it answers each `go` with the next word of
//! its script, whatever the position. A word is a move (sent as `bestmove <word>`) or one of:
//! `!resign`, `!crash` (exits), `!hang` (never answers), `!garbage` (a line that is not a
//! move), `!sleep=MS:MOVE` (waits, then plays MOVE). Engines that misbehave by volume:
//! `!flood` (`info` lines forever), `!endless` (one line that never ends), `!deaf` (never
//! reads its input again, nor answers), `!midline` (half a `bestmove` line, then exits),
//! `!badinfo:MOVE` (`info` lines with `multipv 0`, a huge `multipv` and the lowest `score cp`,
//! then plays MOVE). After the script: `bestmove resign`. `usinewgame` starts the script
//! again.
//!
//! Usage: `usi-script-engine "5d5c 1e1d !crash"`

use std::io::{BufRead, Write};

fn main() {
    let script: Vec<String> = std::env::args()
        .skip(1)
        .flat_map(|a| a.split_whitespace().map(String::from).collect::<Vec<_>>())
        .collect();
    let mut next = 0;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let cmd = line.split_whitespace().next().unwrap_or("");
        let reply = match cmd {
            "usi" => "id name script\nid author arena tests\nusiok".to_string(),
            "isready" => "readyok".to_string(),
            "quit" => break,
            "usinewgame" => {
                next = 0; // each game replays the script from its start
                continue;
            }
            "go" => {
                let word = script
                    .get(next)
                    .cloned()
                    .unwrap_or_else(|| "!resign".into());
                next += 1;
                match word.as_str() {
                    "!resign" => "bestmove resign".into(),
                    "!crash" => std::process::exit(3),
                    "!hang" => continue,
                    "!garbage" => "bestmove banana".into(),
                    "!flood" => loop {
                        if writeln!(out, "info depth 1 score cp 0 nodes 1 pv 5d5c").is_err() {
                            std::process::exit(0);
                        }
                    },
                    "!endless" => loop {
                        if out.write_all(&[b'x'; 4096]).is_err() {
                            std::process::exit(0);
                        }
                    },
                    "!deaf" => loop {
                        std::thread::sleep(std::time::Duration::from_secs(3600));
                    },
                    "!midline" => {
                        let _ = out.write_all(b"bestmove 5d");
                        let _ = out.flush();
                        std::process::exit(0);
                    }
                    w if w.starts_with("!badinfo:") => format!(
                        "info depth 1 multipv 0 score cp -2147483648 pv {mv}\n\
                         info depth 1 multipv 4294967295 score cp 2147483647 pv {mv}\n\
                         info depth 2 multipv 1 score mate -2147483648 pv {mv}\n\
                         bestmove {mv}",
                        mv = &w["!badinfo:".len()..]
                    ),
                    w => match w.strip_prefix("!sleep=") {
                        Some(rest) => {
                            let (ms, mv) = rest.split_once(':').unwrap_or((rest, "resign"));
                            std::thread::sleep(std::time::Duration::from_millis(
                                ms.parse().unwrap_or(0),
                            ));
                            format!("info depth 1 score cp 0\nbestmove {mv}")
                        }
                        None => format!("info depth 1 score cp 0 pv {w}\nbestmove {w}"),
                    },
                }
            }
            _ => continue,
        };
        let _ = writeln!(out, "{reply}");
        let _ = out.flush();
    }
}
