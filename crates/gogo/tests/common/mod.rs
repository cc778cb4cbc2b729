//! Talks USI to the built `gogo` binary, line by line, keeping a transcript for failures.
#![allow(dead_code)]

use gogo_protocol::LineProcess;
use gogo_rules::{Move, Position};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The `gogo` binary under test.
pub struct Gogo {
    process: LineProcess,
    pub transcript: Vec<String>,
}

impl Gogo {
    pub fn start() -> Gogo {
        let no_args: [&str; 0] = [];
        Gogo {
            process: LineProcess::spawn(env!("CARGO_BIN_EXE_gogo"), no_args).expect("gogo starts"),
            transcript: Vec::new(),
        }
    }

    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!(">> {line}"));
        let _ = self.process.send_line(line);
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let _ = self.process.send_bytes(bytes);
    }

    /// The next line, waiting at most `timeout`.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        let line = self.process.recv_line(Instant::now() + timeout).ok()?;
        self.transcript.push(format!("<< {line}"));
        Some(line)
    }

    /// Lines up to and including the first that starts with `prefix`.
    pub fn expect(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                None => panic!(
                    "no '{prefix}' within {timeout:?}; transcript:\n{}",
                    self.transcript.join("\n")
                ),
            }
        }
    }

    /// Asserts that nothing starting with `prefix` arrives within `wait`.
    pub fn expect_silence(&mut self, prefix: &str, wait: Duration) {
        let deadline = Instant::now() + wait;
        while let Some(line) = self.next_line(deadline.saturating_duration_since(Instant::now())) {
            assert!(!line.starts_with(prefix), "unexpected '{line}'");
        }
    }

    pub fn handshake(&mut self) {
        self.send("usi");
        self.expect("usiok", Duration::from_secs(5));
        self.ready();
    }

    pub fn ready(&mut self) {
        self.send("isready");
        self.expect("readyok", Duration::from_secs(30));
    }

    /// Waits for `bestmove` and checks it is legal in `pos`.
    pub fn bestmove_in(&mut self, pos: &Position, timeout: Duration) -> (Move, Vec<String>) {
        let lines = self.expect("bestmove", timeout);
        let last = lines.last().unwrap();
        let text = last.split_whitespace().nth(1).expect("a move");
        let mv = pos
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{last}: {e}\n{}", self.transcript.join("\n")));
        if let Some(ponder) = last.split_whitespace().nth(3) {
            pos.played(mv)
                .parse_move(ponder)
                .expect("legal ponder move");
        }
        (mv, lines)
    }

    /// The SFEN that `d` reports.
    pub fn current_sfen(&mut self) -> String {
        self.send("d");
        let lines = self.expect("info string legal moves", Duration::from_secs(5));
        let sfen = lines
            .iter()
            .find(|l| l.starts_with("info string sfen:"))
            .expect("sfen line");
        sfen.trim_start_matches("info string sfen:")
            .trim()
            .to_string()
    }

    /// The engine process's resident memory, bytes (Linux).
    pub fn rss_bytes(&self) -> u64 {
        self.status_bytes("VmRSS:")
    }

    /// The most resident memory the engine process has had, bytes (Linux).
    pub fn peak_bytes(&self) -> u64 {
        self.status_bytes("VmHWM:")
    }

    /// A figure in KiB of the process's `/proc` status, in bytes.
    fn status_bytes(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.process.pid()))
            .expect("the engine runs");
        let kib: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix(field))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("a {field} line"));
        kib * 1024
    }

    pub fn quit(mut self) -> std::process::ExitStatus {
        self.send("quit");
        self.process
            .wait_exit(Duration::from_secs(5))
            .expect("gogo quits")
    }
}

pub fn secs(n: u64) -> Duration {
    Duration::from_secs(n)
}

pub fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// A fresh folder for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gogo-tests-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `gogo ARGS`, which must end within `limit` (a tool that blocks on a pipe fails the test
/// instead of hanging it).
pub fn gogo(args: &[&str], limit: Duration) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_gogo"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    // Read on a thread of its own, so that a long output never fills the pipe.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(limit) {
        Ok(out) => out.unwrap(),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            panic!("gogo {args:?} did not end within {limit:?}");
        }
    }
}
