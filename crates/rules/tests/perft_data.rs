//! Perft of 60+ random positions against counts from independent programs
//! (tests/data/perft.tsv, made by scripts/gen-perft-data.sh).

use gogo_rules::{perft, perft_mating_pawn_drops, Position};

struct Row {
    sfen: String,
    depth: u32,
    shogiops: u64,
    fairy_stockfish: u64,
    minishogilib: u64,
    mating_pawn_drops: u64,
}

fn rows() -> Vec<Row> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/perft.tsv");
    let text = std::fs::read_to_string(path).expect("tests/data/perft.tsv is in the repo");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("sfen\t") && !l.is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let n = |i: usize| f[i].parse::<u64>().expect("a count");
            Row {
                sfen: f[0].to_string(),
                depth: n(1) as u32,
                shogiops: n(2),
                fairy_stockfish: n(3),
                minishogilib: n(4),
                mating_pawn_drops: n(5),
            }
        })
        .collect()
}

#[test]
fn data_has_enough_varied_positions() {
    let rows = rows();
    assert!(rows.len() >= 62, "{} rows", rows.len());
    let positions: Vec<Position> = rows.iter().map(|r| r.sfen.parse().unwrap()).collect();
    assert!(positions.iter().filter(|p| p.in_check()).count() >= 15);
    let with_hands = positions.iter().filter(|p| {
        !p.hand(gogo_rules::Color::Sente).is_empty() || !p.hand(gogo_rules::Color::Gote).is_empty()
    });
    assert!(with_hands.count() >= 30);
    let promoted = positions.iter().filter(|p| {
        p.board()
            .iter()
            .flatten()
            .any(|piece| piece.kind.is_promoted())
    });
    assert!(promoted.count() >= 15);
    assert!(rows.iter().filter(|r| r.mating_pawn_drops > 0).count() >= 5);
}

#[test]
fn gogo_matches_independent_counts() {
    for row in rows() {
        let pos: Position = row.sfen.parse().unwrap();
        let ours = perft(&pos, row.depth);
        assert_eq!(ours, row.shogiops, "{} depth {}", row.sfen, row.depth);
        // The two programs that count mating pawn drops agree with each other, and exceed
        // our count by exactly the mating pawn drops we find at the last ply.
        assert_eq!(row.fairy_stockfish, row.minishogilib, "{}", row.sfen);
        let drops = perft_mating_pawn_drops(&pos, row.depth);
        assert_eq!(drops, row.mating_pawn_drops, "{}", row.sfen);
        assert_eq!(ours + drops, row.fairy_stockfish, "{}", row.sfen);
    }
}
