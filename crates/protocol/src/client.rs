//! The GUI's side of USI: [`EngineClient`] starts an engine as a child process, completes the
//! handshake, and from then on speaks only typed messages, with a deadline on every wait.

use crate::clock::{ParseTimeControlError, TimeControl};
use crate::engine_message::{BestMove, Checkmate, EngineMessage, OptionKind};
use crate::gui_command::GuiCommand;
use crate::info::Info;
use crate::process::{LineProcess, RecvError, MAX_QUEUED_BYTES};
use gogo_rules::Move;
use std::fmt;
use std::time::{Duration, Instant};

/// How to start an engine and what to set once it is up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name used in results and records.
    pub name: String,
    /// The program to run.
    pub program: String,
    /// Its command-line arguments.
    pub args: Vec<String>,
    /// `setoption` pairs sent after `usiok`, in order.
    pub options: Vec<(String, String)>,
    /// A depth cap added to every `go` this engine gets (`depth=N` in the spec text), as
    /// lishogi caps Fairy-Stockfish's AI levels.
    pub go_depth: Option<u32>,
    /// This engine's own time control (`tc=KIND=VALUE` in the spec text), for matches at
    /// time odds; the match's control if `None`.
    pub time_control: Option<TimeControl>,
}

impl EngineSpec {
    /// A spec for `program` without arguments or options, named after the program file.
    pub fn new(program: impl Into<String>) -> EngineSpec {
        let program = program.into();
        EngineSpec {
            name: program_name(&program),
            program,
            args: Vec::new(),
            options: Vec::new(),
            go_depth: None,
            time_control: None,
        }
    }

    /// The value this spec sets for option `name` (USI option names ignore case), if any.
    pub fn option(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

fn program_name(program: &str) -> String {
    program
        .rsplit('/')
        .next()
        .filter(|n| !n.is_empty())
        .unwrap_or("engine")
        .to_string()
}

impl fmt::Display for EngineSpec {
    /// The spec text its parser reads, every field written out (`name=...,cmd=...`, then the
    /// args, depth, time control and options). A spec read from text prints back to text
    /// that reads the same; one built with a comma or `;` inside a value does not.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "name={},cmd={}", self.name, self.program)?;
        for arg in &self.args {
            write!(f, ",arg={arg}")?;
        }
        if let Some(depth) = self.go_depth {
            write!(f, ",depth={depth}")?;
        }
        if let Some(tc) = self.time_control {
            write!(f, ",tc={tc}")?;
        }
        for (name, value) in &self.options {
            write!(f, ",option.{name}={value}")?;
        }
        Ok(())
    }
}

/// Engine spec text that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseEngineSpecError {
    /// A part is not `key=value`.
    NotKeyValue(String),
    /// `depth=` is not a whole number from 1.
    BadDepth(String),
    /// `tc=` is not a time control.
    BadTimeControl(ParseTimeControlError),
    /// A key that specs do not have.
    UnknownKey(String),
    /// No `cmd=`.
    MissingCommand,
}

impl fmt::Display for ParseEngineSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseEngineSpecError::NotKeyValue(part) => {
                write!(f, "engine: '{part}' is not key=value")
            }
            ParseEngineSpecError::UnknownKey(key) => write!(
                f,
                "engine: unknown key '{key}' (name, cmd, arg, depth, tc, option.NAME)"
            ),
            ParseEngineSpecError::BadTimeControl(e) => write!(f, "engine: {e}"),
            ParseEngineSpecError::MissingCommand => f.write_str("engine: cmd= is missing"),
            ParseEngineSpecError::BadDepth(v) => {
                write!(f, "engine: depth '{v}' is not a whole number from 1")
            }
        }
    }
}

impl std::error::Error for ParseEngineSpecError {}

impl std::str::FromStr for EngineSpec {
    type Err = ParseEngineSpecError;

    /// Reads `name=N,cmd=PROGRAM[,arg=A]...[,depth=D][,tc=TC][,option.NAME=VALUE]...` (commas
    /// or `;`), e.g. `name=fsf,cmd=/usr/games/fairy-stockfish,option.UCI_Variant=minishogi`
    /// or `name=fsf,cmd=fsf,tc=movetime=400`. The name defaults to the program's file name.
    fn from_str(text: &str) -> Result<EngineSpec, ParseEngineSpecError> {
        let mut name = None;
        let mut program = None;
        let mut args = Vec::new();
        let mut options = Vec::new();
        let mut go_depth = None;
        let mut time_control = None;
        for part in text
            .split([',', ';'])
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| ParseEngineSpecError::NotKeyValue(part.to_string()))?;
            match key {
                "name" => name = Some(value.to_string()),
                "cmd" => program = Some(value.to_string()),
                "arg" => args.push(value.to_string()),
                "depth" => match value.parse::<u32>() {
                    Ok(d) if d >= 1 => go_depth = Some(d),
                    _ => return Err(ParseEngineSpecError::BadDepth(value.to_string())),
                },
                "tc" => {
                    time_control = Some(
                        value
                            .parse()
                            .map_err(ParseEngineSpecError::BadTimeControl)?,
                    )
                }
                _ => match key.strip_prefix("option.") {
                    Some(option) if !option.is_empty() => {
                        options.push((option.to_string(), value.to_string()))
                    }
                    _ => return Err(ParseEngineSpecError::UnknownKey(key.to_string())),
                },
            }
        }
        let program = program.ok_or(ParseEngineSpecError::MissingCommand)?;
        Ok(EngineSpec {
            name: name.unwrap_or_else(|| program_name(&program)),
            program,
            args,
            options,
            go_depth,
            time_control,
        })
    }
}

/// Why an engine failed to answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientError {
    /// No answer before the deadline.
    Timeout,
    /// The process ended (or closed its output).
    Crashed,
    /// A line that should have been the answer could not be read.
    Malformed(String),
    /// The process could not be started.
    Start(String),
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Timeout => f.write_str("no answer in time"),
            ClientError::Crashed => f.write_str("the engine process ended"),
            ClientError::Malformed(line) => write!(f, "malformed line '{line}'"),
            ClientError::Start(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for ClientError {}

impl From<RecvError> for ClientError {
    fn from(e: RecvError) -> ClientError {
        match e {
            RecvError::Timeout => ClientError::Timeout,
            RecvError::Closed => ClientError::Crashed,
            RecvError::LineTooLong => ClientError::Malformed(format!(
                "a line longer than {} bytes",
                crate::process::MAX_LINE_BYTES
            )),
        }
    }
}

/// The answer to `go` (or to `stop` or `ponderhit` after `go ponder`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BestMoveAnswer {
    /// The move, unchecked against the position: the caller judges it.
    pub best: BestMove,
    /// The reply the engine expects, unchecked.
    pub ponder: Option<Move>,
}

/// A line from the engine that is not a USI message, with the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnreadableLine {
    /// The line as sent.
    pub line: String,
    /// What is wrong with it.
    pub reason: String,
}

/// The most options an engine may offer before `usiok` (engines offer tens).
pub const MAX_OFFERED_OPTIONS: usize = 512;
/// The most bytes of option names and values an engine may offer before `usiok`.
pub const MAX_OFFERED_BYTES: usize = 256 * 1024;

/// Lines kept for [`EngineClient::diagnosis`].
const RECENT_LINES: usize = 6;
/// How long a write that found the engine's input closed waits for its output to say why
/// (an engine that ends closes both within a moment).
const CAUSE_GRACE: Duration = Duration::from_millis(500);

/// A USI engine in a child process.
pub struct EngineClient {
    spec: EngineSpec,
    process: LineProcess,
    offered: Vec<(String, OptionKind)>,
    id_name: Option<String>,
    /// The last lines the engine sent, with when they came.
    recent: std::collections::VecDeque<(Instant, String)>,
    /// Set once a write found the engine's input closed: why, as its output told (see
    /// [`EngineClient::cause_of_closed_input`]). Every later send and wait returns it.
    lost: Option<ClientError>,
}

impl EngineClient {
    /// Starts the engine, reads its `usi` answer, sends the spec's options and waits for
    /// `readyok`, all within `timeout`.
    pub fn start(spec: &EngineSpec, timeout: Duration) -> Result<EngineClient, ClientError> {
        let process = LineProcess::spawn(&spec.program, &spec.args)
            .map_err(|e| ClientError::Start(format!("cannot start '{}': {e}", spec.program)))?;
        let mut client = EngineClient {
            spec: spec.clone(),
            process,
            offered: Vec::new(),
            id_name: None,
            recent: std::collections::VecDeque::with_capacity(RECENT_LINES),
            lost: None,
        };
        client.send(&GuiCommand::Usi)?;
        let deadline = crate::clock::deadline(Instant::now(), timeout);
        let mut offered_bytes = 0;
        loop {
            match client.next_message(deadline)? {
                Ok(EngineMessage::UsiOk) => break,
                Ok(EngineMessage::Option { name, kind }) => {
                    offered_bytes += name.len() + kind.text_len();
                    if client.offered.len() == MAX_OFFERED_OPTIONS
                        || offered_bytes > MAX_OFFERED_BYTES
                    {
                        return Err(ClientError::Start(format!(
                            "'{}' offers more options than a client keeps (at most \
                             {MAX_OFFERED_OPTIONS}, of {MAX_OFFERED_BYTES} bytes in all)",
                            spec.program
                        )));
                    }
                    client.offered.push((name, kind));
                }
                Ok(EngineMessage::IdName(name)) => client.id_name = Some(name),
                _ => {}
            }
        }
        for (name, value) in spec.options.clone() {
            client.set_option(&name, &value)?;
        }
        client.ready(timeout)?;
        Ok(client)
    }

    /// How it was started.
    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// The name it gave in `id name`, if any.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// The options it offered in its `usi` answer.
    pub fn offered_options(&self) -> &[(String, OptionKind)] {
        &self.offered
    }

    /// Whether it offered an option of this name.
    pub fn offers(&self, name: &str) -> bool {
        self.offered.iter().any(|(n, _)| n == name)
    }

    /// The range of the spin option `name`, if it offered one.
    pub fn spin_range(&self, name: &str) -> Option<(i64, i64)> {
        self.offered.iter().find_map(|(n, kind)| match kind {
            OptionKind::Spin { min, max, .. } if n == name => Some((*min, *max)),
            _ => None,
        })
    }

    /// Whether a game should let it ponder: its spec sets `USI_Ponder` to true.
    pub fn ponders(&self) -> bool {
        self.spec
            .option("USI_Ponder")
            .is_some_and(|v| v.eq_ignore_ascii_case("true"))
    }

    /// Sends one command. When the engine's input is closed, the error is what its output
    /// says of why: [`ClientError::Malformed`] when it overflowed a line before it went, else
    /// [`ClientError::Crashed`]; the same whichever of the writer and the reader noticed
    /// first.
    pub fn send(&mut self, command: &GuiCommand) -> Result<(), ClientError> {
        if let Some(cause) = &self.lost {
            return Err(cause.clone());
        }
        log::trace!("{} << {command}", self.spec.name);
        match self.process.send_line(&command.to_string()) {
            Ok(()) => Ok(()),
            // The engine stopped reading its input.
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => Err(ClientError::Timeout),
            Err(_) => {
                let cause = self.cause_of_closed_input();
                self.lost = Some(cause.clone());
                Err(cause)
            }
        }
    }

    /// Why the engine's input closed, from what it wrote before: the writer thread can
    /// find the pipe broken before the reader thread has read the engine's last output, so
    /// that output is read first, for [`CAUSE_GRACE`] at most and at most
    /// [`MAX_QUEUED_BYTES`] of lines (an engine that closed its input and floods its output
    /// is crashed as far as a GUI can tell).
    fn cause_of_closed_input(&mut self) -> ClientError {
        let deadline = crate::clock::deadline(Instant::now(), CAUSE_GRACE);
        let mut read = 0;
        loop {
            match self.process.recv_line(deadline) {
                Ok(line) => {
                    read += line.len() + 1;
                    self.remember(&line);
                    if read > MAX_QUEUED_BYTES {
                        return ClientError::Crashed;
                    }
                }
                Err(e @ RecvError::LineTooLong) => return e.into(),
                Err(RecvError::Closed | RecvError::Timeout) => return ClientError::Crashed,
            }
        }
    }

    /// `setoption name <name> value <value>`.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), ClientError> {
        self.send(&GuiCommand::SetOption {
            name: name.to_string(),
            value: Some(value.to_string()),
        })
    }

    /// `isready`, then waits up to `timeout` for `readyok`.
    pub fn ready(&mut self, timeout: Duration) -> Result<(), ClientError> {
        self.send(&GuiCommand::IsReady)?;
        let deadline = crate::clock::deadline(Instant::now(), timeout);
        loop {
            if let Ok(EngineMessage::ReadyOk) = self.next_message(deadline)? {
                return Ok(());
            }
        }
    }

    /// The next line from the engine, read as a message, waiting until `deadline` at most.
    pub fn next_message(
        &mut self,
        deadline: Instant,
    ) -> Result<Result<EngineMessage, UnreadableLine>, ClientError> {
        if let Some(cause) = &self.lost {
            return Err(cause.clone());
        }
        let line = self.process.recv_line(deadline)?;
        self.remember(&line);
        Ok(line
            .parse()
            .map_err(|e: crate::ParseMessageError| UnreadableLine {
                line: line.clone(),
                reason: e.0,
            }))
    }

    /// Keeps the start of a line the engine sent, for [`EngineClient::diagnosis`].
    fn remember(&mut self, line: &str) {
        log::trace!("{} >> {line}", self.spec.name);
        if self.recent.len() == RECENT_LINES {
            self.recent.pop_front();
        }
        let kept: String = line.chars().take(200).collect();
        self.recent.push_back((Instant::now(), kept));
    }

    /// Waits until `deadline` for `bestmove` (after `go`, `ponderhit` or `stop`), handing
    /// every `info` line to `on_info` as it arrives. A `bestmove` line that cannot be read
    /// is [`ClientError::Malformed`]; other unreadable lines are skipped.
    pub fn wait_bestmove(
        &mut self,
        deadline: Instant,
        on_info: &mut dyn FnMut(&Info),
    ) -> Result<BestMoveAnswer, ClientError> {
        self.wait_answer(deadline, on_info, "bestmove", |message| match message {
            EngineMessage::BestMove { best, ponder } => Some(BestMoveAnswer { best, ponder }),
            _ => None,
        })
    }

    /// Waits until `deadline` for the `checkmate` answer to `go mate`, handing every `info`
    /// line to `on_info`, as [`EngineClient::wait_bestmove`] does.
    pub fn wait_checkmate(
        &mut self,
        deadline: Instant,
        on_info: &mut dyn FnMut(&Info),
    ) -> Result<Checkmate, ClientError> {
        self.wait_answer(deadline, on_info, "checkmate", |message| match message {
            EngineMessage::Checkmate(answer) => Some(answer),
            _ => None,
        })
    }

    /// Reads messages until `answer` accepts one; `info` lines go to `on_info`, and an
    /// unreadable line starting with `head` (the answer's first word) is malformed.
    fn wait_answer<T>(
        &mut self,
        deadline: Instant,
        on_info: &mut dyn FnMut(&Info),
        head: &str,
        answer: impl Fn(EngineMessage) -> Option<T>,
    ) -> Result<T, ClientError> {
        loop {
            match self.next_message(deadline)? {
                Ok(EngineMessage::Info(info)) => on_info(&info),
                Ok(message) => {
                    if let Some(found) = answer(message) {
                        return Ok(found);
                    }
                }
                Err(unreadable) if first_word(&unreadable.line) == head => {
                    return Err(ClientError::Malformed(unreadable.line))
                }
                Err(_) => {}
            }
        }
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.process.pid()
    }

    /// What the engine was doing, for a watchdog that finds a move late: its last lines
    /// with how long ago each came, and the state of each of its threads as the kernel
    /// sees it (running, sleeping and in which kernel function, the CPU time used).
    pub fn diagnosis(&self) -> String {
        let now = Instant::now();
        let mut out = format!("{} (pid {}):", self.spec.name, self.pid());
        for (when, line) in &self.recent {
            let ago = now.duration_since(*when).as_millis();
            out.push_str(&format!("\n  {ago} ms ago: {line}"));
        }
        out.push_str(&crate::process::threads_report(self.pid()));
        out
    }

    /// Whether the process is still running.
    pub fn is_alive(&mut self) -> bool {
        self.process.is_running()
    }

    /// Asks the engine to quit, and ends the process if it has not within half a second.
    pub fn shutdown(mut self) {
        let _ = self.send(&GuiCommand::Quit);
        if self.process.wait_exit(Duration::from_millis(500)).is_none() {
            self.process.kill();
        }
    }
}

fn first_word(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_specs() {
        let spec: EngineSpec =
            "name=fsf,cmd=/usr/games/fairy-stockfish,arg=-x,option.UCI_Variant=minishogi"
                .parse()
                .unwrap();
        assert_eq!(
            spec,
            EngineSpec {
                name: "fsf".into(),
                program: "/usr/games/fairy-stockfish".into(),
                args: vec!["-x".into()],
                options: vec![("UCI_Variant".into(), "minishogi".into())],
                go_depth: None,
                time_control: None,
            }
        );
        let odds: EngineSpec = "cmd=fsf,tc=movetime=400,depth=9".parse().unwrap();
        assert_eq!(
            (odds.time_control, odds.go_depth),
            (
                Some(TimeControl::MoveTime(Duration::from_millis(400))),
                Some(9)
            )
        );
        assert!(matches!(
            "cmd=fsf,tc=minutes=3".parse::<EngineSpec>(),
            Err(ParseEngineSpecError::BadTimeControl(
                ParseTimeControlError::UnknownKind(_)
            ))
        ));
        let capped: EngineSpec = "cmd=fsf,depth=5".parse().unwrap();
        assert_eq!(capped.go_depth, Some(5));
        assert_eq!(
            "cmd=fsf,depth=0".parse::<EngineSpec>(),
            Err(ParseEngineSpecError::BadDepth("0".into()))
        );
        assert_eq!(spec.option("uci_variant"), Some("minishogi"));
        let unnamed: EngineSpec = "cmd=target/release/gogo".parse().unwrap();
        assert_eq!(unnamed.name, "gogo");
        assert_eq!(
            "name=x".parse::<EngineSpec>(),
            Err(ParseEngineSpecError::MissingCommand)
        );
        assert_eq!(
            "cmd=a,colour=red".parse::<EngineSpec>(),
            Err(ParseEngineSpecError::UnknownKey("colour".into()))
        );
        assert_eq!(
            "cmd=a,option.=1".parse::<EngineSpec>(),
            Err(ParseEngineSpecError::UnknownKey("option.".into()))
        );
        assert_eq!(
            "cmd".parse::<EngineSpec>(),
            Err(ParseEngineSpecError::NotKeyValue("cmd".into()))
        );
    }

    #[test]
    fn a_program_that_is_not_there_is_a_start_error() {
        let spec = EngineSpec::new("/nonexistent/engine");
        assert!(matches!(
            EngineClient::start(&spec, Duration::from_secs(1)),
            Err(ClientError::Start(_))
        ));
    }
}
