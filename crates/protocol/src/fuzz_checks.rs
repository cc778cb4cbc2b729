//! Invariant checks driven by arbitrary bytes: the bodies of the fuzz targets `usi_line`,
//! `engine_messages` and `engine_spec`, also run over their kept corpora by `cargo test`.

use crate::clock::{deadline, FARTHEST_DEADLINE};
use crate::{Clock, EngineMessage, EngineSpec, GuiCommand, TimeControl};
use gogo_rules::Color;
use std::time::{Duration, Instant};

/// Whatever parses as a GUI command or an engine message writes out and parses back to the
/// same value.
pub fn check_usi_line(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for line in text.lines() {
        if let Ok(cmd) = line.parse::<GuiCommand>() {
            let again: GuiCommand = cmd.to_string().parse().expect("printed command parses");
            assert_eq!(again, cmd, "{line:?}");
        }
        if let Ok(msg) = line.parse::<EngineMessage>() {
            let again: EngineMessage = msg.to_string().parse().expect("printed message parses");
            assert_eq!(again, msg, "{line:?}");
        }
    }
}

/// An engine's output as the client reads it: lines are cut at the bound (here 256 bytes,
/// so that the fuzzer reaches it), hold no newline, and whatever parses as a message writes
/// out and parses back to the same value.
pub fn check_engine_output(data: &[u8]) {
    const MAX: usize = 256;
    for line in crate::BoundedLines::new(data, MAX) {
        if let crate::Line::Text(text) = line {
            assert!(!text.contains('\n'), "{text:?}");
            // A byte that is not UTF-8 becomes a three-byte replacement character.
            assert!(text.len() <= 3 * MAX, "{}", text.len());
            if let Ok(msg) = text.parse::<EngineMessage>() {
                let again: EngineMessage = msg.to_string().parse().expect("printed message parses");
                assert_eq!(again, msg, "{text:?}");
            }
        }
    }
}

/// The arena's `--engine` and `--tc` text: whatever parses as an engine spec or a time
/// control prints and parses back to the same value, and a clock under any time control
/// that parses (each side under the text's control, or one side under it and the other
/// under a spec's own) charges, flags, writes `go` commands and gives deadlines without
/// a panic.
pub fn check_engine_spec(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut controls = Vec::new();
    if let Ok(tc) = text.parse::<TimeControl>() {
        let again: TimeControl = tc.to_string().parse().expect("printed control parses");
        assert_eq!(again, tc, "{text:?}");
        controls.push(tc);
    }
    if let Ok(spec) = text.parse::<EngineSpec>() {
        let again: EngineSpec = spec.to_string().parse().expect("printed spec parses");
        assert_eq!(again, spec, "{text:?}");
        controls.extend(spec.time_control);
    }
    for &tc in &controls {
        check_clock([tc, tc]);
        check_clock([tc, TimeControl::MoveTime(Duration::from_millis(100))]);
    }
}

/// Plays a few moves on a clock under `controls`, with the moves' times taken from the
/// controls themselves (none, all of the allowance, and past it).
fn check_clock(controls: [TimeControl; 2]) {
    let mut clock = Clock::with_odds(controls);
    let tolerance = Duration::from_millis(100);
    for ply in 0..8 {
        let side = if ply % 2 == 0 {
            Color::Sente
        } else {
            Color::Gote
        };
        let go = GuiCommand::Go(clock.go(side, ply % 3 == 0));
        let again: GuiCommand = go.to_string().parse().expect("printed go parses");
        assert_eq!(again, go);
        let allowed = clock.allowed(side, Duration::from_secs(30));
        let now = Instant::now();
        assert!(
            deadline(now, allowed.saturating_add(tolerance))
                >= now + allowed.min(FARTHEST_DEADLINE)
        );
        let spent = match ply % 3 {
            0 => Duration::ZERO,
            1 => allowed,
            _ => allowed
                .saturating_add(tolerance)
                .saturating_add(Duration::from_nanos(1)),
        };
        let before = clock.main()[side.index()];
        let limit = clock.allowed(side, Duration::MAX).saturating_add(tolerance);
        let charged = clock.charge(side, spent, tolerance);
        // Within the allowance the move stands; past it the side loses on time, with no
        // main time left.
        assert_eq!(charged.is_ok(), spent <= limit, "{controls:?} {spent:?}");
        if charged.is_err() && controls[side.index()].is_clock() {
            assert!(clock.main()[side.index()].is_zero());
        }
        if spent.is_zero() {
            assert!(clock.main()[side.index()] >= before, "{controls:?}");
        }
        clock.start(side);
        let _ = clock.flagged(tolerance);
        let _ = clock.left_now();
        let _ = clock.stop(tolerance);
    }
}
