//! A child process spoken to in lines: what is written goes to its stdin through a writer
//! thread, and each line of its stdout arrives through a reader thread, so that every wait
//! and every write has a deadline (a hung program never hangs the caller). What a program
//! can make the caller hold is bounded: a line of at most [`MAX_LINE_BYTES`], at most
//! [`MAX_QUEUED_LINES`] lines and [`MAX_QUEUED_BYTES`] bytes read ahead (then the program
//! waits to write), at most [`MAX_QUEUED_WRITES`] lines waiting to be written (then a write
//! fails at its deadline).

use crate::lines::{BoundedLines, Line};
use std::ffi::OsStr;
use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The longest line read from a program; the rest of a longer one is dropped.
pub const MAX_LINE_BYTES: usize = 1 << 20;
/// Lines read from a program and not yet taken by the caller.
pub const MAX_QUEUED_LINES: usize = 1024;
/// Bytes of the lines read from a program and not yet taken by the caller (a longer line
/// still goes through when none is waiting): a program that floods its output makes the
/// caller hold a few MiB, not [`MAX_QUEUED_LINES`] lines of [`MAX_LINE_BYTES`].
pub const MAX_QUEUED_BYTES: usize = 4 << 20;
/// Lines handed to the writer and not yet written to the program.
pub const MAX_QUEUED_WRITES: usize = 256;
/// How long a write may wait for a program that does not read its input.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(5);

/// Why no line came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecvError {
    /// Nothing before the deadline (also when lines keep coming after it).
    Timeout,
    /// The process closed its output (it ended, or is ending).
    Closed,
    /// The program wrote a line longer than [`MAX_LINE_BYTES`] (the rest of it is dropped).
    LineTooLong,
}

/// What the reader thread hands over.
type ReadItem = Result<String, RecvError>;

/// A running child process with piped stdin and stdout; stderr goes where the command said
/// (nowhere unless set). Killed and reaped when dropped.
pub struct LineProcess {
    child: Child,
    writes: Option<SyncSender<Vec<u8>>>,
    write_failed: Arc<AtomicBool>,
    lines: Receiver<ReadItem>,
    read_ahead: Arc<ReadAhead>,
}

/// The bytes read ahead and not yet taken, shared by the reader thread (which waits while
/// they are over [`MAX_QUEUED_BYTES`]) and the caller (who gives them back as it takes
/// lines); closed when the process is dropped, so that a waiting reader ends.
#[derive(Default)]
struct ReadAhead {
    /// Bytes queued, and whether the caller is gone.
    state: Mutex<(usize, bool)>,
    freed: Condvar,
}

impl ReadAhead {
    /// Waits for room for `bytes` more (always room when nothing is queued); false when the
    /// caller is gone.
    fn reserve(&self, bytes: usize) -> bool {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        while !state.1 && state.0 > 0 && state.0 + bytes > MAX_QUEUED_BYTES {
            state = self
                .freed
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        if state.1 {
            return false;
        }
        state.0 += bytes;
        true
    }

    /// The caller took a line of `bytes`.
    fn release(&self, bytes: usize) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.0 = state.0.saturating_sub(bytes);
        self.freed.notify_all();
    }

    /// The caller is gone: a waiting reader ends.
    fn close(&self) {
        self.state.lock().unwrap_or_else(PoisonError::into_inner).1 = true;
        self.freed.notify_all();
    }
}

impl LineProcess {
    /// Starts `program` with `args`, its stderr discarded.
    pub fn spawn<I, S>(program: impl AsRef<OsStr>, args: I) -> std::io::Result<LineProcess>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut command = Command::new(program);
        command.args(args).stderr(Stdio::null());
        LineProcess::start(command)
    }

    /// Starts a prepared command (its environment, directory and stderr as set), with stdin
    /// and stdout piped.
    pub fn start(mut command: Command) -> std::io::Result<LineProcess> {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(std::io::Error::other("the child's pipes are missing"));
        };
        let (tx, lines) = sync_channel(MAX_QUEUED_LINES);
        let read_ahead = Arc::new(ReadAhead::default());
        let budget = Arc::clone(&read_ahead);
        let reader = std::thread::Builder::new()
            .name("child-stdout".into())
            .spawn(move || read_lines(stdout, tx, &budget));
        let (writes, queue) = sync_channel(MAX_QUEUED_WRITES);
        let write_failed = Arc::new(AtomicBool::new(false));
        let failed = Arc::clone(&write_failed);
        let writer = std::thread::Builder::new()
            .name("child-stdin".into())
            .spawn(move || write_lines(stdin, queue, failed));
        if let Err(e) = reader.and(writer) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(e);
        }
        Ok(LineProcess {
            child,
            writes: Some(writes),
            write_failed,
            lines,
            read_ahead,
        })
    }

    /// Writes `line` and a newline (see [`LineProcess::send_bytes`]).
    pub fn send_line(&mut self, line: &str) -> std::io::Result<()> {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        self.send_bytes(&bytes)
    }

    /// Hands raw bytes to the writer thread, waiting up to [`WRITE_TIMEOUT`] while its
    /// queue is full (the program is not reading): then `TimedOut`. A program whose input
    /// is closed gives `BrokenPipe`, at this write or a later one.
    pub fn send_bytes(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        let broken = || std::io::Error::from(std::io::ErrorKind::BrokenPipe);
        let Some(writes) = &self.writes else {
            return Err(broken());
        };
        if self.write_failed.load(Ordering::Relaxed) {
            return Err(broken());
        }
        let deadline = Instant::now() + WRITE_TIMEOUT;
        let mut bytes = bytes.to_vec();
        loop {
            match writes.try_send(bytes) {
                Ok(()) => return Ok(()),
                Err(TrySendError::Disconnected(_)) => return Err(broken()),
                Err(TrySendError::Full(back)) => {
                    if Instant::now() >= deadline {
                        return Err(std::io::Error::from(std::io::ErrorKind::TimedOut));
                    }
                    bytes = back;
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
        }
    }

    /// The next line, waiting until `deadline` at most. Past the deadline it is
    /// [`RecvError::Timeout`] even when lines are waiting, so that a program that floods
    /// its output still runs out of time.
    pub fn recv_line(&mut self, deadline: Instant) -> Result<String, RecvError> {
        let now = Instant::now();
        if now >= deadline {
            return Err(RecvError::Timeout);
        }
        match self.lines.recv_timeout(deadline - now) {
            Ok(item) => {
                if let Ok(line) = &item {
                    self.read_ahead.release(line.len());
                }
                item
            }
            Err(RecvTimeoutError::Timeout) => Err(RecvError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(RecvError::Closed),
        }
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Waits up to `timeout` for the process to end by itself; its exit status if it did.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = crate::clock::deadline(Instant::now(), timeout);
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Ends the process now and reaps it.
    pub fn kill(&mut self) {
        // Closing the writer's queue ends the writer thread; closing the read-ahead, a reader
        // waiting for room.
        self.writes = None;
        self.read_ahead.close();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Each thread of process `pid` as `/proc` shows it (Linux): name, state (R running, S
/// sleeping, D waiting on the disk), the kernel function it waits in, user and system CPU
/// time in clock ticks. Empty where `/proc` is not there.
pub fn threads_report(pid: u32) -> String {
    let mut out = String::new();
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task"));
    for task in tasks.into_iter().flatten().flatten() {
        let path = task.path();
        let read = |name: &str| std::fs::read_to_string(path.join(name)).unwrap_or_default();
        let stat = read("stat");
        // The name is in parentheses and may hold spaces; the fields follow the last ')'.
        let (name, rest) = match (stat.find('('), stat.rfind(')')) {
            (Some(a), Some(b)) if a < b => (&stat[a + 1..b], &stat[b + 1..]),
            _ => continue,
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let field = |i: usize| fields.get(i).copied().unwrap_or("?");
        out.push_str(&format!(
            "\n  thread {} '{name}': state {}, waiting in '{}', utime {} stime {}",
            task.file_name().to_string_lossy(),
            field(0),
            read("wchan").trim(),
            field(11),
            field(12),
        ));
    }
    out
}

/// The reader thread: hands over each line (see [`BoundedLines`]) until the end of the
/// output, or until nobody listens.
fn read_lines(stdout: impl Read, tx: SyncSender<ReadItem>, read_ahead: &ReadAhead) {
    for line in BoundedLines::new(stdout, MAX_LINE_BYTES) {
        let item = match line {
            Line::Text(text) => Ok(text),
            Line::TooLong => Err(RecvError::LineTooLong),
        };
        let bytes = item.as_ref().map_or(0, String::len);
        if !read_ahead.reserve(bytes) || tx.send(item).is_err() {
            return;
        }
    }
}

/// The writer thread: writes what it is handed, in order, until the queue closes or a
/// write fails (the program closed its input), which it records.
fn write_lines(mut stdin: ChildStdin, queue: Receiver<Vec<u8>>, failed: Arc<AtomicBool>) {
    for bytes in queue {
        if stdin.write_all(&bytes).and_then(|_| stdin.flush()).is_err() {
            failed.store(true, Ordering::Relaxed);
            return;
        }
    }
}

impl Drop for LineProcess {
    fn drop(&mut self) {
        self.kill();
    }
}
