//! Talks USI to the built `gogo` binary.
#![allow(dead_code)]

use gogo_rules::{Move, Position};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    pub transcript: Vec<String>,
}

impl Engine {
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gogo"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("gogo starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
            transcript: Vec::new(),
        }
    }

    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!(">> {line}"));
        let _ = writeln!(self.stdin, "{line}");
        let _ = self.stdin.flush();
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let _ = self.stdin.write_all(bytes);
        let _ = self.stdin.flush();
    }

    /// The next line, waiting at most `timeout`.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(format!("<< {line}"));
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
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

    pub fn quit(mut self) -> std::process::ExitStatus {
        self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "gogo did not quit");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

pub fn secs(n: u64) -> Duration {
    Duration::from_secs(n)
}

pub fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// A small deterministic generator (xorshift64*), so that failures reproduce.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}
