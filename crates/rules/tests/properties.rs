//! Properties checked over many positions from seeded random games.

mod common;

use common::{random_game, Rng};
use gogo_rules::{Move, MoveList, PieceKind, Position, KAWU_START};

fn positions(games: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let starts = [
        Position::startpos(),
        Position::from_sfen(KAWU_START).unwrap(),
    ];
    let mut out = Vec::new();
    for g in 0..games {
        for (pos, _) in random_game(&starts[g % 2], &mut rng, 120) {
            out.push(pos);
        }
    }
    out
}

fn sorted(list: &MoveList) -> Vec<u16> {
    let mut v: Vec<u16> = list.iter().map(|m| m.bits()).collect();
    v.sort_unstable();
    v
}

/// Incremental state (hash halves, checkers, pins, bitboards) equals the state rebuilt from
/// the SFEN, and SFEN printing, parsing and printing again is a fixed point.
#[test]
fn incremental_state_equals_state_rebuilt_from_scratch() {
    let all = positions(400, 1);
    assert!(all.len() > 20_000, "{}", all.len());
    for pos in &all {
        assert_eq!(
            (pos.board_key(), pos.hand_key()),
            pos.compute_keys(),
            "{pos}"
        );
        assert_eq!(pos.key(), pos.board_key() ^ pos.hand_key());
        let sfen = pos.to_sfen();
        let reparsed = Position::from_sfen(&sfen).unwrap();
        assert_eq!(&reparsed, pos, "{sfen}");
        assert_eq!(reparsed.to_sfen(), sfen);
    }
    // The hash distinguishes hands: same board, different hands, different key.
    let distinct: std::collections::HashSet<u64> = all.iter().map(|p| p.key()).collect();
    let distinct_sfens: std::collections::HashSet<String> = all
        .iter()
        .map(|p| p.to_sfen().rsplit_once(' ').unwrap().0.to_string())
        .collect();
    assert_eq!(distinct.len(), distinct_sfens.len());
}

/// Check generation: `gives_check` agrees with playing the move, and `generate_checks`
/// (generated directly) gives exactly the legal moves that check, in the full generator's
/// order.
#[test]
fn check_generation_equals_filtered_legal_moves() {
    let mut checking_positions = 0;
    let mut discovered = 0;
    for pos in positions(150, 5) {
        let legal = pos.legal_moves();
        let mut want = MoveList::new();
        for &mv in legal.iter() {
            let checks = pos.played(mv).in_check();
            assert_eq!(pos.gives_check(mv), checks, "{pos} {mv}");
            if checks {
                want.push(mv);
                let moved_piece_checks = mv.from().is_some_and(|_| {
                    let after = pos.played(mv);
                    after.checkers().contains(mv.to())
                });
                if mv.from().is_some() && !moved_piece_checks {
                    discovered += 1;
                }
            }
        }
        let mut got = MoveList::new();
        pos.generate_checks(&mut got);
        assert_eq!(got.as_slice(), want.as_slice(), "{pos}");
        checking_positions += usize::from(!got.is_empty());
    }
    assert!(checking_positions > 2000, "{checking_positions}");
    assert!(discovered > 20, "{discovered}");
}

/// `has_legal_move`, with its early answers (king steps, captures of the checker, drops
/// between), agrees with generating every move, in positions after a check (where a mate
/// search asks it) and elsewhere.
#[test]
fn has_legal_move_agrees_with_the_move_list() {
    let (mut after_checks, mut mated) = (0, 0);
    for pos in positions(150, 6) {
        assert_eq!(pos.has_legal_move(), !pos.legal_moves().is_empty(), "{pos}");
        let mut checks = MoveList::new();
        pos.generate_checks(&mut checks);
        for &mv in checks.iter() {
            let after = pos.played(mv);
            let has = after.has_legal_move();
            assert_eq!(has, !after.legal_moves().is_empty(), "{after}");
            after_checks += 1;
            mated += usize::from(!has);
        }
    }
    assert!(after_checks > 10_000, "{after_checks}");
    assert!(mated > 20, "{mated}");
}

/// Copy-make: playing a move on a copy leaves the original exactly as it was, and a
/// position reached by a different move order has the same key.
#[test]
fn playing_a_copy_restores_nothing_because_nothing_changes() {
    for pos in positions(40, 2) {
        let before = pos.clone();
        for &mv in pos.legal_moves().iter() {
            let after = pos.played(mv);
            assert_eq!(pos, before);
            // The side that moved is never left in check.
            let mover = pos.side_to_move();
            assert!(after
                .attackers_to(after.king_square(mover), !mover, after.occupied())
                .is_empty());
            assert_eq!(after.side_to_move(), !mover);
        }
    }
}

/// The key foretold before a move (for the search's hash prefetch) is the key of the
/// position the move makes: drops, captures of promoted pieces, promotions.
#[test]
fn key_after_is_the_key_of_the_played_position() {
    let (mut drops, mut promotions, mut promoted_taken) = (0, 0, 0);
    for pos in positions(40, 3) {
        for &mv in pos.legal_moves().iter() {
            assert_eq!(
                pos.key_after(mv),
                pos.played(mv).key(),
                "{} {mv}",
                pos.to_sfen()
            );
            drops += usize::from(mv.is_drop());
            promotions += usize::from(mv.is_promotion());
            let taken = pos.piece_at(mv.to()).map(|p| p.kind);
            promoted_taken += usize::from(taken.is_some_and(|k| k != k.unpromote()));
        }
    }
    assert!(
        drops > 1000 && promotions > 100 && promoted_taken > 10,
        "{drops} drops, {promotions} promotions, {promoted_taken} captures of promoted pieces"
    );
}

#[test]
fn every_legal_move_round_trips_through_usi_text() {
    for pos in positions(100, 3) {
        for &mv in pos.legal_moves().iter() {
            let text = mv.to_string();
            assert_eq!(pos.parse_move(&text), Ok(mv), "{pos} {text}");
        }
    }
}

/// `is_legal` agrees with the generated list for every move that USI text can name.
#[test]
fn is_legal_agrees_with_the_generator_for_every_move() {
    let all_moves: Vec<Move> = Move::all().collect();
    for pos in positions(60, 4) {
        let legal = pos.legal_moves();
        for &mv in &all_moves {
            assert_eq!(pos.is_legal(mv), legal.contains(mv), "{pos} {mv}");
        }
    }
}

#[test]
fn noisy_and_evasion_generators_equal_filtered_full_lists() {
    let mut in_check = 0;
    for pos in positions(300, 5) {
        let legal = pos.legal_moves();
        let mut noisy = MoveList::new();
        pos.generate_noisy(&mut noisy);
        let mut expected = MoveList::new();
        for &mv in legal.iter() {
            if pos.is_capture(mv) || mv.is_promotion() {
                expected.push(mv);
            }
        }
        assert_eq!(sorted(&noisy), sorted(&expected), "{pos}");

        let mut evasions = MoveList::new();
        pos.generate_evasions(&mut evasions);
        if pos.in_check() {
            in_check += 1;
            assert_eq!(sorted(&evasions), sorted(&legal), "{pos}");
        } else {
            assert!(evasions.is_empty());
        }
        // No duplicates in the full list.
        let s = sorted(&legal);
        let mut d = s.clone();
        d.dedup();
        assert_eq!(s, d, "{pos}");
    }
    assert!(in_check > 500, "{in_check}");
}

/// A pawn drop that mates is reported by `mating_pawn_drop`, is not legal, and really mates.
#[test]
fn mating_pawn_drops_are_excluded_and_really_mate() {
    let mut found = 0;
    for pos in positions(400, 6) {
        if let Some(drop) = pos.mating_pawn_drop() {
            found += 1;
            assert!(!pos.is_legal(drop));
            let after = pos.played(drop);
            assert!(
                after.in_check() && after.legal_moves().is_empty(),
                "{pos} {drop}"
            );
        }
        // Conversely every legal pawn drop that checks leaves the opponent a move.
        for &mv in pos.legal_moves().iter() {
            if mv.drop_kind() == Some(PieceKind::Pawn) {
                let after = pos.played(mv);
                assert!(!after.in_check() || after.has_legal_move(), "{pos} {mv}");
            }
        }
    }
    assert!(found >= 3, "{found}");
}
