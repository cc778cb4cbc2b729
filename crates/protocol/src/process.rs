//! A child process spoken to in lines: what is written goes to its stdin, and each line of
//! its stdout arrives through a reader thread, so that every wait can have a deadline (a
//! hung program never hangs the caller).

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Why no line came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecvError {
    /// Nothing before the deadline.
    Timeout,
    /// The process closed its output (it ended, or is ending).
    Closed,
}

/// A running child process with piped stdin and stdout; stderr goes where the command said
/// (nowhere unless set). Killed when dropped.
pub struct LineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
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
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buffer = Vec::new();
            loop {
                buffer.clear();
                match reader.read_until(b'\n', &mut buffer) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        // Bytes that are not UTF-8 are replaced rather than ending the reader.
                        let line = String::from_utf8_lossy(&buffer);
                        let line = line.trim_end_matches(['\n', '\r']).to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(LineProcess {
            child,
            stdin,
            lines,
        })
    }

    /// Writes `line` and a newline, and flushes.
    pub fn send_line(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.stdin, "{line}")?;
        self.stdin.flush()
    }

    /// Writes raw bytes and flushes.
    pub fn send_bytes(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.stdin.write_all(bytes)?;
        self.stdin.flush()
    }

    /// The next line, waiting until `deadline` at most.
    pub fn recv_line(&mut self, deadline: Instant) -> Result<String, RecvError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(RecvError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(RecvError::Closed),
        }
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Waits up to `timeout` for the process to end by itself; its exit status if it did.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
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

    /// Ends the process now.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for LineProcess {
    fn drop(&mut self) {
        self.kill();
    }
}
