//! A USI engine in a child process: started once, reused across games, restarted if it
//! dies. Its lines arrive through a reader thread, so every wait has a deadline.

use gogo_usi::protocol::{EngineMessage, Info};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How to start an engine and what to set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Name used in results and records.
    pub name: String,
    /// Program and arguments, split on white space.
    pub command: String,
    /// `setoption` pairs sent after `usiok`.
    pub options: Vec<(String, String)>,
}

impl std::str::FromStr for EngineSpec {
    type Err = String;

    /// Reads `name=N cmd=PROGRAM [arg=A]... [option.NAME=VALUE]...` separated by commas or
    /// `;`, e.g. `name=fsf,cmd=/usr/games/fairy-stockfish,option.UCI_Variant=minishogi`.
    fn from_str(text: &str) -> Result<EngineSpec, String> {
        let mut name = None;
        let mut command = None;
        let mut args = Vec::new();
        let mut options = Vec::new();
        for part in text
            .split([',', ';'])
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("engine: '{part}' is not key=value"))?;
            match key {
                "name" => name = Some(value.to_string()),
                "cmd" => command = Some(value.to_string()),
                "arg" => args.push(value.to_string()),
                _ => match key.strip_prefix("option.") {
                    Some(opt) if !opt.is_empty() => {
                        options.push((opt.to_string(), value.to_string()))
                    }
                    _ => return Err(format!("engine: unknown key '{key}'")),
                },
            }
        }
        let command = command.ok_or("engine: cmd= is missing")?;
        let command = std::iter::once(command)
            .chain(args)
            .collect::<Vec<_>>()
            .join(" ");
        let name = name.unwrap_or_else(|| {
            command
                .split_whitespace()
                .next()
                .unwrap_or("engine")
                .rsplit('/')
                .next()
                .unwrap_or("engine")
                .to_string()
        });
        Ok(EngineSpec {
            name,
            command,
            options,
        })
    }
}

/// Why an engine failed to answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineFailure {
    /// No answer before the deadline.
    Timeout,
    /// The process ended.
    Crashed,
    /// A line that should have been a `bestmove` could not be read.
    Malformed(String),
    /// The process could not be started or written to.
    Io(String),
}

impl std::fmt::Display for EngineFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineFailure::Timeout => f.write_str("no answer in time"),
            EngineFailure::Crashed => f.write_str("the engine process ended"),
            EngineFailure::Malformed(l) => write!(f, "malformed line '{l}'"),
            EngineFailure::Io(e) => write!(f, "{e}"),
        }
    }
}

/// What an engine answered to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The `bestmove` text (`resign` included), unchecked.
    pub bestmove: String,
    /// The last `info` with a score, if any.
    pub last_info: Option<Info>,
    /// The move it expects in reply (`bestmove .. ponder <move>`), unchecked.
    pub ponder: Option<String>,
}

/// A running engine.
pub struct Engine {
    /// How it was started.
    pub spec: EngineSpec,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Options the engine offered in its `usi` answer.
    pub offered: Vec<String>,
}

impl Engine {
    /// Starts the engine and completes the handshake within `timeout`.
    pub fn start(spec: &EngineSpec, timeout: Duration) -> Result<Engine, EngineFailure> {
        let mut words = spec.command.split_whitespace();
        let program = words
            .next()
            .ok_or_else(|| EngineFailure::Io("empty command".into()))?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| EngineFailure::Io(format!("cannot start '{}': {e}", spec.command)))?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| EngineFailure::Io("no stdin".into()))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| EngineFailure::Io("no stdout".into()))?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let mut engine = Engine {
            spec: spec.clone(),
            child,
            stdin,
            lines: rx,
            offered: Vec::new(),
        };
        engine.send("usi")?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = engine.recv(deadline)?;
            if line.starts_with("usiok") {
                break;
            }
            if let Ok(EngineMessage::Option { name, .. }) = line.parse::<EngineMessage>() {
                engine.offered.push(name);
            }
        }
        for (name, value) in spec.options.clone() {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        engine.ready(timeout)?;
        Ok(engine)
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineFailure> {
        log::trace!("{} << {line}", self.spec.name);
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| EngineFailure::Crashed)
    }

    fn recv(&mut self, deadline: Instant) -> Result<String, EngineFailure> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => {
                log::trace!("{} >> {line}", self.spec.name);
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => Err(EngineFailure::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(EngineFailure::Crashed),
        }
    }

    /// `isready`, waiting for `readyok`.
    pub fn ready(&mut self, timeout: Duration) -> Result<(), EngineFailure> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        while !self.recv(deadline)?.starts_with("readyok") {}
        Ok(())
    }

    /// Whether the process has ended.
    pub fn is_dead(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }

    /// Whether the arena should let this engine ponder: it was given `USI_Ponder` true.
    pub fn ponders(&self) -> bool {
        self.spec
            .options
            .iter()
            .any(|(n, v)| n.eq_ignore_ascii_case("USI_Ponder") && v.eq_ignore_ascii_case("true"))
    }

    /// Sends `position` and `go`, then waits until `deadline` for `bestmove`.
    pub fn think(
        &mut self,
        position: &str,
        go: &str,
        deadline: Instant,
    ) -> Result<Answer, EngineFailure> {
        self.send(position)?;
        self.send(go)?;
        self.wait_bestmove(deadline)
    }

    /// Waits until `deadline` for `bestmove` (after `go`, `ponderhit` or `stop`).
    pub fn wait_bestmove(&mut self, deadline: Instant) -> Result<Answer, EngineFailure> {
        let mut last_info = None;
        loop {
            let line = self.recv(deadline)?;
            if line.starts_with("bestmove") {
                return match line.parse::<EngineMessage>() {
                    Ok(EngineMessage::BestMove { .. }) | Err(_) => {
                        let words: Vec<&str> = line.split_whitespace().collect();
                        let ponder = match words.get(2..4) {
                            Some(["ponder", m]) => Some(m.to_string()),
                            _ => None,
                        };
                        match words.get(1) {
                            Some(w) => Ok(Answer {
                                bestmove: w.to_string(),
                                last_info,
                                ponder,
                            }),
                            None => Err(EngineFailure::Malformed(line)),
                        }
                    }
                    Ok(_) => Err(EngineFailure::Malformed(line)),
                };
            }
            if let Ok(EngineMessage::Info(info)) = line.parse::<EngineMessage>() {
                if info.score.is_some() {
                    last_info = Some(info);
                }
            }
        }
    }

    /// Asks the engine to quit, then ends the process.
    pub fn shutdown(mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if self.is_dead() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
