//! [`SearchControl`]: what the searching threads share with whoever runs the search (the
//! USI loop): the stop flag, pondering, and the clock's start.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// Shared between the searching threads and whoever controls the search.
#[derive(Debug)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    start: Mutex<Instant>,
    /// Signalled by `stop` and `ponderhit`, for a search that waits to answer.
    released: Condvar,
}

impl SearchControl {
    /// A control for a search that starts now (`pondering`: on the opponent's time).
    pub fn new(pondering: bool) -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            start: Mutex::new(Instant::now()),
            released: Condvar::new(),
        }
    }

    /// Asks every thread to stop as soon as possible.
    pub fn stop(&self) {
        let _guard = self.start.lock().unwrap_or_else(|e| e.into_inner());
        self.stop.store(true, Ordering::SeqCst);
        self.released.notify_all();
    }

    /// The stop flag itself, for work that polls a flag (perft).
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }

    /// Whether a stop was asked for.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: time limits apply from now on.
    pub fn ponderhit(&self) {
        let mut start = self.start.lock().unwrap_or_else(|e| e.into_inner());
        *start = Instant::now();
        self.pondering.store(false, Ordering::SeqCst);
        self.released.notify_all();
    }

    /// Blocks until `stop`, or `ponderhit` when `until_stop` is false. USI forbids a
    /// `bestmove` during `go infinite` before `stop`, and during `go ponder` before `stop` or
    /// `ponderhit`, even when the search has nothing left to do (a forced mate, the depth
    /// limit of the tree).
    pub fn wait_for_release(&self, until_stop: bool) {
        let mut guard = self.start.lock().unwrap_or_else(|e| e.into_inner());
        while !self.stopped() && (until_stop || self.pondering()) {
            guard = self.released.wait(guard).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Whether the search is pondering.
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// Time since the search started (or since `ponderhit`).
    pub fn elapsed(&self) -> Duration {
        self.start
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .elapsed()
    }
}
