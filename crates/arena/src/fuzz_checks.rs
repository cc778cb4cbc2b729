//! What the `match_records` fuzz target checks (see fuzz/), kept here so that `cargo test`
//! replays its corpus: the shards' JSON lines that `gogo-arena merge` reads, the tuner's CSV
//! files (tunables, trajectory) and the openings file give a result or an error on any
//! bytes, never a panic.

use crate::{shard, spsa};

/// Reads `data` as merge input, as tunables, as a trajectory and as openings; checks what
/// comes back.
pub fn check_match_records(data: &[u8]) {
    let text = String::from_utf8_lossy(data).into_owned();
    // Kept for a resumed shard: only games of its run, each once, each a JSON line.
    let header = shard::RunHeader::new(String::new(), 8, shard::Shard::default());
    if let Ok(kept) = shard::kept_games(&text, &header) {
        let mut seen = std::collections::BTreeSet::new();
        for (g, line) in kept {
            assert!(seen.insert(g));
            assert!(serde_json::from_str::<serde_json::Value>(&line).is_ok());
        }
    }
    if let Ok(merged) = shard::merge(std::slice::from_ref(&text)) {
        let (t, p) = (merged.tally, merged.pentanomial);
        assert_eq!(t.wins + t.losses + t.draws, merged.games.len() as u32);
        assert!(p.0.iter().sum::<u32>() as usize <= merged.games.len() / 2);
    }
    if let Ok(mut params) = spsa::read_params(&text) {
        for p in &params {
            assert!(p.min <= p.value && p.value <= p.max && p.c_end > 0.0);
        }
        let _ = spsa::resume_from(&text, &mut params);
        let _ = spsa::plot(&text);
    }
    // Every opening kept is a position a game can start from.
    if let Ok(openings) = crate::read_openings(&text) {
        for line in openings {
            assert!(gogo_rules::parse_usi_position(&line).is_ok(), "{line}");
        }
    }
}
