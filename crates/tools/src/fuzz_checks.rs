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

/// A file of datagen's start positions (`fuzz/fuzz_targets/datagen_starts.rs`): reading
/// never panics, and every start read has a legal move and writes out as an SFEN that reads
/// back to the same position.
pub fn check_datagen_starts(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(starts) = crate::datagen::parse_starts(&text) {
        assert!(!starts.is_empty());
        for start in starts {
            assert!(!start.legal_moves().is_empty(), "{start}");
            let sfen = start.to_sfen();
            let again = gogo_rules::Position::from_sfen(&sfen).expect("a written SFEN reads");
            assert_eq!(again.to_sfen(), sfen);
        }
    }
}
