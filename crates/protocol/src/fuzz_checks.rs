//! Invariant check for the USI line parser, driven by arbitrary bytes: the body of the fuzz
//! target `usi_line`, also run over its kept corpus by `cargo test`.

use crate::{EngineMessage, GuiCommand};

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
