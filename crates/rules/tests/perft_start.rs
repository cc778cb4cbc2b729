//! Perft from the two start positions: the published counts.

use gogo_rules::{perft, perft_mating_pawn_drops, Position, KAWU_START};

#[test]
fn standard_start_depths_1_to_6() {
    let pos = Position::startpos();
    let expected = [14u64, 181, 2512, 35401, 533203, 8276188];
    for (depth, want) in (1..).zip(expected) {
        assert_eq!(perft(&pos, depth), want, "depth {depth}");
    }
}

/// 132680617 legal leaves; Fairy-Stockfish reports 132680698 because it also counts the 81
/// mating pawn drops at the last ply, which the rules forbid.
#[test]
fn standard_start_depth_7() {
    let pos = Position::startpos();
    assert_eq!(perft(&pos, 7), 132_680_617);
    assert_eq!(perft_mating_pawn_drops(&pos, 7), 132_680_698 - 132_680_617);
}

/// The kawu start (pawn in front of the rook): fairy-stockfish and shogiops agree on every
/// depth (no mating pawn drop is reachable this soon).
#[test]
fn kawu_start() {
    let pos = Position::from_sfen(KAWU_START).unwrap();
    let expected = [12u64, 143, 1898, 24876, 351529, 5056467];
    for (depth, want) in (1..).zip(expected) {
        assert_eq!(perft(&pos, depth), want, "depth {depth}");
    }
}
