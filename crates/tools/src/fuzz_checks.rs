//! Invariant checks driven by arbitrary bytes: the bodies of the fuzz targets of the tools'
//! readers, also run over their kept corpora by `cargo test`.

/// The arena's JSON lines as the puzzle generator and the book builder read them
/// (`fuzz/fuzz_targets/game_records.rs`): reading never panics, and every game read is legal
/// move by move from its start.
pub fn check_game_records(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(games) = crate::games::arena_games(&text, "fuzz") {
        for game in games {
            let mut pos = game.start.clone();
            for &mv in &game.moves {
                assert!(pos.is_legal(mv), "{mv} in {pos}");
                pos = pos.played(mv);
            }
        }
    }
}
