//! Large valid books made on purpose (random games from the start, each position met once
//! with a few of its legal moves), to measure and test what loading one costs.

use crate::HEADER;
use gogo_rules::{Position, Rng};
use std::collections::HashSet;
use std::io::Write;

/// Writes a book of at least `bytes` bytes (its header and whole positions) to `out`: the
/// positions of random games from the start (`seed`), each once, each with 1 to
/// `most_moves` random legal moves (1: the most positions a byte of text holds).
pub fn write_random_book(
    out: &mut impl Write,
    bytes: u64,
    seed: u64,
    most_moves: usize,
) -> std::io::Result<u64> {
    let mut rng = Rng::new(seed);
    writeln!(out, "{HEADER}")?;
    let mut written = HEADER.len() as u64 + 1;
    let mut seen = HashSet::new();
    while written < bytes {
        let mut pos = Position::startpos();
        for _ in 0..60 {
            let list = pos.legal_moves();
            let moves = list.as_slice();
            if moves.is_empty() {
                break;
            }
            if seen.insert(pos.key()) {
                let mut entry = format!("sfen {}\n", pos.to_sfen());
                for _ in 0..1 + rng.below(most_moves.max(1)) {
                    let mv = moves[rng.below(moves.len())];
                    let eval = rng.below(601) as i32 - 300;
                    let (depth, count) = (rng.below(20), rng.below(50));
                    entry.push_str(&format!("{mv} none {eval} {depth} {count}\n"));
                }
                written += entry.len() as u64;
                out.write_all(entry.as_bytes())?;
            }
            pos = pos.played(moves[rng.below(moves.len())]);
        }
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_random_book_reads_whole_at_its_size() {
        let mut text = Vec::new();
        let written = write_random_book(&mut text, 20_000, 3, 1).unwrap();
        assert_eq!(written, text.len() as u64);
        assert!(written >= 20_000);
        let (book, report) = crate::read_book_from(&text[..]).unwrap();
        assert_eq!(report.illegal_moves, 0);
        assert_eq!(
            book.positions().map(|p| p.moves.len()).sum::<usize>(),
            book.len()
        );
        assert!(book.len() > 300, "{}", book.len());
    }
}
