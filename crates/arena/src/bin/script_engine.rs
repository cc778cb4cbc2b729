//! A scripted USI engine for the arena's tests: it answers each `go` with the next word of
//! its script, whatever the position. A word is a move (sent as `bestmove <word>`) or one of:
//! `!resign`, `!crash` (exits), `!hang` (never answers), `!garbage` (a line that is not a
//! move), `!sleep=MS:MOVE` (waits, then plays MOVE). After the script: `bestmove resign`.
//! `usinewgame` starts the script again.
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
