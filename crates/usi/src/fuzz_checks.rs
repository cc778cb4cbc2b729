//! Invariant check for the engine's command loop, driven by arbitrary bytes: the body of the
//! fuzz target `engine_commands`, also run over its kept corpus by `cargo test`.

use crate::engine::{Output, UsiEngine};
use gogo_protocol::{GoCommand, GuiCommand};
use std::io::Write;
use std::sync::{Arc, Mutex};

/// What the engine wrote, shared with the check (and the engine's unit tests).
#[derive(Clone, Default)]
pub(crate) struct Captured(pub(crate) Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Options that would only make a run slow or large (tables of gigabytes, hundreds of
/// threads) are capped, so that each input runs in milliseconds; everything else is passed
/// on as it is.
fn tame(line: &str) -> Option<&str> {
    let lower = line.to_ascii_lowercase();
    if lower.contains("setoption") && (lower.contains("hash") || lower.contains("threads")) {
        let value: Option<i64> = lower.rsplit(' ').next().and_then(|v| v.parse().ok());
        if value.is_some_and(|v| v > 4) {
            return None;
        }
    }
    Some(line)
}

/// Up to 24 lines of any text into the engine's command loop, then `stop`: it never panics
/// or hangs, and every `go` it accepted (other than `go perft`) got exactly one answer,
/// `bestmove` or `checkmate`.
pub fn check_engine_commands(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let captured = Captured::default();
    let mut engine = UsiEngine::new(Output::new(Box::new(captured.clone())));
    let mut asked = 0;
    for line in text.lines().take(24) {
        let Some(line) = tame(line) else { continue };
        if let Ok(GuiCommand::Go(GoCommand { perft: None, .. })) = line.trim().parse() {
            asked += 1;
        }
        if !engine.handle_line(line) {
            break;
        }
    }
    engine.handle_line("stop");
    drop(engine);
    let bytes = captured.0.lock().unwrap_or_else(|e| e.into_inner());
    let output = String::from_utf8_lossy(&bytes);
    let answers = output
        .lines()
        .filter(|l| l.starts_with("bestmove") || l.starts_with("checkmate"))
        .count();
    assert_eq!(answers, asked, "{text:?}\n{output}");
}
