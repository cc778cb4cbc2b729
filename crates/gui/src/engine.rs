//! The engine behind a page: a USI engine in a child process ([`gogo_protocol::EngineClient`],
//! the client the arena uses), driven from a thread of its own so that the async server never
//! blocks on it. The session sends [`EngineCommand`]s and receives [`EngineEvent`]s; a new
//! command stops whatever the engine was doing, and a dead or babbling engine is reported,
//! then started again at the next command.

use gogo_protocol::clock::deadline;
use gogo_protocol::{
    BestMoveAnswer, Checkmate, ClientError, EngineClient, EngineMessage, EngineSpec, GoCommand,
    GuiCommand, Info, MateLimit,
};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};
use tokio::sync::mpsc::error::TrySendError;
use tokio::sync::mpsc::Sender as EventSender;

/// How long the engine may take to start and answer `isready`.
const STARTUP: Duration = Duration::from_secs(10);
/// How long it may take to answer `stop`.
const STOP_GRACE: Duration = Duration::from_secs(2);

/// The engine options a search needs. Every search states all of them, so that none leaks
/// from one job into the next (an analysis's lines into a game move, a level into a hint).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobOptions {
    /// `MultiPV`.
    pub multipv: u32,
    /// `Level` (0: full strength).
    pub level: u8,
    /// `Rules`: `standard` or `kawu`.
    pub rules: &'static str,
    /// `MaxPlies` (0: the rule set's own limit).
    pub max_plies: u32,
}

/// What the session asks of the engine. Each job has an id, which its events carry.
#[derive(Clone, Debug)]
pub enum EngineCommand {
    /// Think about a move: `position`, then `go` with these limits, answered by `bestmove`
    /// within `allowed`.
    Search {
        /// The job's id.
        id: u64,
        /// The `position` command.
        position: GuiCommand,
        /// The `go` command.
        go: GoCommand,
        /// The longest the answer may take.
        allowed: Duration,
        /// The options it needs.
        options: JobOptions,
    },
    /// Analyse until told otherwise (`go infinite` with MultiPV lines).
    Analyze {
        /// The job's id.
        id: u64,
        /// The `position` command.
        position: GuiCommand,
        /// The options it needs (its lines, full strength).
        options: JobOptions,
    },
    /// Solve a mate problem (`go mate`).
    Mate {
        /// The job's id.
        id: u64,
        /// The `position` command.
        position: GuiCommand,
        /// Milliseconds.
        millis: u64,
    },
    /// Stop the current job without waiting for anything in return.
    Stop,
    /// A new game starts.
    NewGame,
}

/// What the engine did.
#[derive(Clone, Debug)]
pub enum EngineEvent {
    /// The engine is up; its `id name`.
    Ready {
        /// Its name.
        name: String,
        /// The highest `Level` it offers (its `spin` option's max), `None` if it has none.
        max_level: Option<u8>,
    },
    /// An `info` line of job `id`.
    Info {
        /// The job.
        id: u64,
        /// The line.
        info: Info,
    },
    /// The answer to a search, and how long it took.
    BestMove {
        /// The job.
        id: u64,
        /// The answer.
        answer: BestMoveAnswer,
        /// Time from `go` to `bestmove`.
        elapsed: Duration,
    },
    /// The answer to a mate search.
    Checkmate {
        /// The job.
        id: u64,
        /// The answer.
        answer: Checkmate,
    },
    /// The engine failed (could not start, crashed, hung, sent garbage) during job `id`.
    Failed {
        /// The job, if one was running.
        id: Option<u64>,
        /// What happened, typed: a [`ClientError::Timeout`] is a loss on time.
        error: ClientError,
    },
}

/// The session's handle on the engine thread.
pub struct EngineHandle {
    commands: Sender<EngineCommand>,
}

impl EngineHandle {
    /// Starts the thread for the engine `spec`; events go to `events`, a bounded queue: when
    /// it is full, `info` lines are dropped (a newer one follows) and answers wait for room,
    /// so that an engine that floods its output cannot fill the server's memory.
    pub fn spawn(spec: EngineSpec, events: EventSender<EngineEvent>) -> EngineHandle {
        let (commands, receiver) = channel();
        std::thread::Builder::new()
            .name("engine".into())
            .spawn(move || Worker::new(spec, events, receiver).run())
            .expect("a thread for the engine");
        EngineHandle { commands }
    }

    /// A handle with no engine thread: the commands arrive at the receiver, for whoever
    /// plays the engine's part (tests, the fuzz checks).
    pub fn scripted() -> (EngineHandle, Receiver<EngineCommand>) {
        let (commands, receiver) = channel();
        (EngineHandle { commands }, receiver)
    }

    /// Sends a command (ignored if the thread has ended).
    pub fn send(&self, command: EngineCommand) {
        let _ = self.commands.send(command);
    }
}

/// What the engine is busy with.
#[derive(Clone, Copy, Debug)]
enum Job {
    Search {
        id: u64,
        started: Instant,
        deadline: Instant,
    },
    Analyze {
        id: u64,
    },
    Mate {
        id: u64,
        deadline: Instant,
    },
}

/// Hands an event to the session: an `info` only if there is room, anything else waiting for
/// room (the session is gone if the queue is closed; then nothing is sent).
fn emit(events: &EventSender<EngineEvent>, event: EngineEvent) {
    match event {
        EngineEvent::Info { .. } => match events.try_send(event) {
            Ok(()) | Err(TrySendError::Full(_)) | Err(TrySendError::Closed(_)) => {}
        },
        _ => {
            let _ = events.blocking_send(event);
        }
    }
}

struct Worker {
    spec: EngineSpec,
    events: EventSender<EngineEvent>,
    commands: Receiver<EngineCommand>,
    client: Option<EngineClient>,
    job: Option<Job>,
    /// The options set on the running engine since it started, so that each job states
    /// what it needs and only what changed is sent.
    options_set: Vec<(String, String)>,
}

impl Worker {
    fn new(
        spec: EngineSpec,
        events: EventSender<EngineEvent>,
        commands: Receiver<EngineCommand>,
    ) -> Worker {
        Worker {
            spec,
            events,
            commands,
            client: None,
            job: None,
            options_set: Vec::new(),
        }
    }

    fn emit(&self, event: EngineEvent) {
        emit(&self.events, event);
    }

    /// The engine, started if need be.
    fn client(&mut self) -> Option<&mut EngineClient> {
        if self.client.as_mut().is_some_and(|c| !c.is_alive()) {
            self.client = None;
        }
        if self.client.is_none() {
            match EngineClient::start(&self.spec, STARTUP) {
                Ok(c) => {
                    let name = c.id_name().unwrap_or(&self.spec.name).to_string();
                    let max_level = c
                        .spin_range("Level")
                        .map(|(_, max)| max.clamp(0, i64::from(u8::MAX)) as u8);
                    self.client = Some(c);
                    self.options_set.clear();
                    self.emit(EngineEvent::Ready { name, max_level });
                }
                Err(e) => {
                    self.emit(EngineEvent::Failed {
                        id: None,
                        error: match e {
                            ClientError::Start(why) => ClientError::Start(why),
                            other => ClientError::Start(format!(
                                "cannot start the engine {}: {other}",
                                self.spec.program
                            )),
                        },
                    });
                    return None;
                }
            }
        }
        self.client.as_mut()
    }

    /// Sets `name` to `value` on the engine, if it offers the option and it is not already
    /// so: every job states the options it needs (a game search one line, an analysis its
    /// lines), so that none leaks from one job into the next.
    fn ensure_option(&mut self, name: &str, value: &str) {
        if self
            .options_set
            .iter()
            .any(|(n, v)| n == name && v == value)
        {
            return;
        }
        let Some(client) = self.client() else { return };
        if !client.offers(name) {
            return;
        }
        if client.set_option(name, value).is_ok() {
            self.options_set.retain(|(n, _)| n != name);
            self.options_set.push((name.to_string(), value.to_string()));
        }
    }

    fn ensure_options(&mut self, options: &JobOptions) {
        // The engine's own winning chances, where it offers them (gogo, Fairy-Stockfish).
        self.ensure_option("USI_ShowWDL", "true");
        self.ensure_option("MultiPV", &options.multipv.to_string());
        self.ensure_option("Level", &options.level.to_string());
        self.ensure_option("Rules", options.rules);
        self.ensure_option("MaxPlies", &options.max_plies.to_string());
    }

    fn fail(&mut self, id: Option<u64>, error: ClientError) {
        self.job = None;
        if let Some(c) = self.client.take() {
            c.shutdown();
        }
        self.emit(EngineEvent::Failed { id, error });
    }

    fn run(mut self) {
        // Started at once, so that the page can name it before the first move.
        let _ = self.client();
        loop {
            // Commands first; while a job runs, the engine's lines in between.
            let command = if self.job.is_some() {
                match self.commands.recv_timeout(Duration::from_millis(5)) {
                    Ok(c) => Some(c),
                    Err(RecvTimeoutError::Timeout) => None,
                    Err(RecvTimeoutError::Disconnected) => break,
                }
            } else {
                match self.commands.recv() {
                    Ok(c) => Some(c),
                    Err(_) => break,
                }
            };
            if let Some(command) = command {
                self.stop_job();
                self.start(command);
            }
            self.read_lines();
        }
        self.stop_job();
        if let Some(c) = self.client.take() {
            c.shutdown();
        }
    }

    /// Stops the running job and waits for its closing answer, which nobody wants now.
    fn stop_job(&mut self) {
        let Some(job) = self.job.take() else { return };
        let Some(client) = self.client.as_mut() else {
            return;
        };
        let deadline = Instant::now() + STOP_GRACE;
        let result = client.send(&GuiCommand::Stop).and_then(|_| match job {
            Job::Mate { .. } => client.wait_checkmate(deadline, &mut |_| {}).map(|_| ()),
            _ => client.wait_bestmove(deadline, &mut |_| {}).map(|_| ()),
        });
        if let Err(e) = result {
            self.fail(None, e);
        }
    }

    fn start(&mut self, command: EngineCommand) {
        let (position, go, job) = match command {
            EngineCommand::Stop => return,
            EngineCommand::NewGame => {
                if let Some(c) = self.client.as_mut() {
                    let _ = c.send(&GuiCommand::UsiNewGame);
                }
                return;
            }
            EngineCommand::Search {
                id,
                position,
                go,
                allowed,
                options,
            } => {
                self.ensure_options(&options);
                let started = Instant::now();
                (
                    position,
                    go,
                    Job::Search {
                        id,
                        started,
                        deadline: deadline(started, allowed),
                    },
                )
            }
            EngineCommand::Analyze {
                id,
                position,
                options,
            } => {
                self.ensure_options(&options);
                let go = GoCommand {
                    infinite: true,
                    ..Default::default()
                };
                (position, go, Job::Analyze { id })
            }
            EngineCommand::Mate {
                id,
                position,
                millis,
            } => {
                let go = GoCommand {
                    mate: Some(MateLimit::Millis(millis)),
                    ..Default::default()
                };
                let deadline = deadline(
                    Instant::now(),
                    Duration::from_millis(millis).saturating_add(STOP_GRACE),
                );
                (position, go, Job::Mate { id, deadline })
            }
        };
        let id = match job {
            Job::Search { id, .. } | Job::Analyze { id } | Job::Mate { id, .. } => id,
        };
        let Some(client) = self.client() else { return };
        let sent = client
            .send(&position)
            .and_then(|_| client.send(&GuiCommand::Go(go)));
        match sent {
            Ok(()) => self.job = Some(job),
            Err(e) => self.fail(Some(id), e),
        }
    }

    /// Reads what the engine has said, briefly.
    fn read_lines(&mut self) {
        let Some(job) = self.job else { return };
        let events = self.events.clone();
        let Some(client) = self.client.as_mut() else {
            self.job = None;
            return;
        };
        let soon = Instant::now() + Duration::from_millis(20);
        let (id, deadline) = match job {
            Job::Search { id, deadline, .. } | Job::Mate { id, deadline } => (id, Some(deadline)),
            Job::Analyze { id } => (id, None),
        };
        let mut finished = false;
        let mut failure = None;
        while Instant::now() < soon {
            let wait = deadline.map_or(soon, |d| d.min(soon));
            match client.next_message(wait) {
                Ok(Ok(EngineMessage::Info(info))) => {
                    emit(&events, EngineEvent::Info { id, info });
                }
                Ok(Ok(EngineMessage::BestMove { best, ponder })) => {
                    if let Job::Search { started, .. } = job {
                        emit(
                            &events,
                            EngineEvent::BestMove {
                                id,
                                answer: BestMoveAnswer { best, ponder },
                                elapsed: started.elapsed(),
                            },
                        );
                    }
                    finished = true;
                    break;
                }
                Ok(Ok(EngineMessage::Checkmate(answer))) => {
                    if let Job::Mate { .. } = job {
                        emit(&events, EngineEvent::Checkmate { id, answer });
                    }
                    finished = true;
                    break;
                }
                Ok(Ok(_)) => {}
                Ok(Err(unreadable)) => {
                    let head = unreadable.line.split_whitespace().next().unwrap_or("");
                    if head == "bestmove" || head == "checkmate" {
                        failure = Some(ClientError::Malformed(unreadable.line));
                        break;
                    }
                }
                Err(ClientError::Timeout) => {
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        failure = Some(ClientError::Timeout);
                    }
                    break;
                }
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            }
        }
        if finished {
            self.job = None;
        }
        if let Some(e) = failure {
            self.fail(Some(id), e);
        }
    }
}
