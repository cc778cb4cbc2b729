//! Invariant checks driven by arbitrary bytes: the bodies of the fuzz targets in `fuzz/`,
//! also run over the kept corpus by `cargo test`. Each panics when an invariant breaks and
//! must never panic otherwise, whatever the input.

use crate::game::same_position;
use crate::{
    parse_usi_position, Game, Move, MoveList, Position, RuleSet, SfenError, MAX_GAME_MOVES,
};

/// Runs `check` over every file of `fuzz/corpus/<target>/` (the seeds and what cargo-fuzz
/// kept), so that `cargo test` replays what the fuzzers found; returns how many there were.
/// Every crate's corpus test calls this.
pub fn replay_corpus(target: &str, check: fn(&[u8])) -> usize {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("a corpus entry").path();
        let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        check(&data);
        n += 1;
    }
    n
}

/// SFEN text: whatever parses must print canonically and parse back to the same position,
/// with keys equal to the keys recomputed from scratch.
pub fn check_sfen(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(pos) = Position::from_sfen(&text) {
        let printed = pos.to_sfen();
        let again = Position::from_sfen(&printed).expect("printed SFEN parses");
        assert_eq!(again, pos);
        assert_eq!(again.to_sfen(), printed);
        assert_eq!((pos.board_key(), pos.hand_key()), pos.compute_keys());
    }
}

/// USI position text with moves: every accepted move is legal, in order, and there are at
/// most [`MAX_GAME_MOVES`] (more are refused as too many, before any is read); the same text
/// as a [`Game`] holds the same moves (or stops where the rules ended the game), and its
/// count of the current position's occurrences is a scan's.
pub fn check_usi_position(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match parse_usi_position(&text) {
        Ok((start, moves)) => {
            assert!(moves.len() <= MAX_GAME_MOVES);
            let mut pos = start;
            for &mv in &moves {
                assert!(pos.legal_moves().contains(mv), "{pos} {mv}");
                pos.play(mv);
            }
            assert_eq!((pos.board_key(), pos.hand_key()), pos.compute_keys());
            match Game::from_usi(RuleSet::standard(), &text) {
                Ok(game) => {
                    assert_eq!(game.moves(), &moves[..]);
                    check_repetition_count(&game);
                }
                // Only a move after the game's end is refused here.
                Err(SfenError::Move { index, .. }) => assert!(index >= 1 && index <= moves.len()),
                Err(e) => panic!("parsed, but not as a game: {e}"),
            }
        }
        Err(SfenError::TooManyMoves(_)) => {
            assert!(text.split_whitespace().count() > MAX_GAME_MOVES);
        }
        Err(_) => {}
    }
}

/// The game's count of its current position's occurrences (from its occurrence index) is
/// what a scan of every earlier position finds.
pub fn check_repetition_count(game: &Game) {
    let current = game.position();
    let scanned = game
        .positions()
        .iter()
        .rev()
        .step_by(2)
        .filter(|p| same_position(p, current))
        .count();
    assert_eq!(
        game.repetitions(),
        scanned,
        "after {} moves",
        game.moves().len()
    );
}

/// Bytes as a game: each pair of bytes is a 16-bit move attempt (legal or not) or, when it is
/// no legal move, an index into the legal moves. Checks that `is_legal` agrees with the
/// generator, that playing keeps the incremental state equal to a rebuild, and that the
/// noisy and evasion generators are the filtered full list.
pub fn check_play(data: &[u8]) {
    let mut pos = Position::startpos();
    for pair in data.chunks(2) {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return;
        }
        let bits = u16::from_le_bytes([pair[0], *pair.get(1).unwrap_or(&0)]);
        let attempt = Move::from_bits(bits & 0x0fff);
        let mv = match attempt {
            Some(m) => {
                assert_eq!(pos.is_legal(m), legal.contains(m), "{pos} {m}");
                if legal.contains(m) {
                    m
                } else {
                    legal.as_slice()[bits as usize % legal.len()]
                }
            }
            None => legal.as_slice()[bits as usize % legal.len()],
        };
        let mut noisy = MoveList::new();
        pos.generate_noisy(&mut noisy);
        for &m in legal.iter() {
            assert_eq!(
                noisy.contains(m),
                pos.is_capture(m) || m.is_promotion(),
                "{pos} {m}"
            );
        }
        let before = pos.clone();
        let next = pos.played(mv);
        assert_eq!(pos, before);
        let rebuilt = Position::from_sfen(&next.to_sfen()).expect("a played position is valid");
        assert_eq!(rebuilt, next);
        pos = next;
    }
}

/// KIF text: reading never panics, and whatever reads writes out and reads back the same.
pub fn check_kif(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok((start, moves)) = crate::kif::read_kif(&text) {
        assert!(moves.len() <= MAX_GAME_MOVES);
        let written = crate::kif::write_kif(&start, &moves, &crate::kif::KifInfo::default());
        let again = crate::kif::read_kif(&written).expect("a written KIF reads");
        assert_eq!(again, (start, moves), "{written}");
    }
}

/// CSA text: reading never panics, and whatever reads writes out and reads back the same.
pub fn check_csa(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok((start, moves)) = crate::csa::read_csa(&text) {
        assert!(moves.len() <= MAX_GAME_MOVES);
        let written = crate::csa::write_csa(&start, &moves, "a", "b", None);
        let again = crate::csa::read_csa(&written).expect("a written CSA reads");
        assert_eq!(again, (start, moves), "{written}");
    }
}
