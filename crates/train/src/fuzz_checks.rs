//! The check behind the `run_name` fuzz target in `fuzz/`, also run over its kept corpus by
//! `cargo test`: it panics only where the code is wrong, never on the input.

use crate::runs::RunName;
use gogo_search::nnue::data;

/// Any bytes as a file name: a name that reads as a run writes back as itself, and the check
/// against a header (its seed and node limit the input's last 12 bytes, where there are that many) agrees
/// with a comparison of the fields.
pub fn check_run_name(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let Ok(name) = text.parse::<RunName>() else {
        return;
    };
    let written = name.to_string();
    assert_eq!(written.parse::<RunName>().as_ref(), Ok(&name), "{written}");
    let mut h = data::header(323, 0, 0);
    if let Some(start) = bytes.len().checked_sub(12) {
        h[20..32].copy_from_slice(&bytes[start..]);
    }
    let header = data::read_header(&h).expect("a header made by data::header reads");
    let said = header.seed != 0 || header.nodes != 0;
    let agrees = !said || (header.seed == name.seed && header.nodes == name.nodes);
    assert_eq!(name.check(&header).is_ok(), agrees);
}
