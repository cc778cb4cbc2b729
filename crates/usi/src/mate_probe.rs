//! The mate solver's part in a game move: a brief probe before each move on the clock (a
//! forced mate by checks is then played at once), the `info` line of its progress, and the
//! engine's control as its stop signal.

use gogo_mate::{MateLimits, MateResult, Solver};
use gogo_protocol::Info;
use gogo_rules::Position;
use gogo_search::SearchControl;
use std::sync::Arc;
use std::time::Duration;

/// Nodes the mate solver may spend before a game search (about 8 ms).
pub const MATE_PROBE_NODES: u64 = 5_000;

/// A forced mate by checks from `root` found within [`MATE_PROBE_NODES`] and `time`, if any.
pub fn mate_probe(
    solver: &mut Solver,
    root: &Position,
    time: Option<Duration>,
) -> Option<Vec<gogo_rules::Move>> {
    let limits = MateLimits {
        nodes: Some(MATE_PROBE_NODES),
        time,
        ..Default::default()
    };
    match solver.solve(root, &limits, &mut |_| {}).result {
        MateResult::Mate(line) if !line.is_empty() => Some(line),
        _ => None,
    }
}

/// The `info` line of a mate search's progress.
pub(crate) fn mate_info(nodes: u64, elapsed: Duration, hashfull: u32) -> Info {
    let ms = elapsed.as_millis() as u64;
    Info {
        nodes: Some(nodes),
        nps: Some((nodes * 1000).checked_div(ms).unwrap_or(nodes * 1000)),
        time: Some(ms),
        hashfull: (hashfull > 0).then_some(hashfull),
        ..Info::default()
    }
}

/// The engine's control of a job as the mate solver's stop signal (the solver does not know
/// the search's types).
#[derive(Debug)]
pub(crate) struct MateStop(pub(crate) Arc<SearchControl>);

impl gogo_mate::StopSignal for MateStop {
    fn stopped(&self) -> bool {
        self.0.stopped()
    }
}
