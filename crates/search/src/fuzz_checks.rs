//! Invariant checks driven by arbitrary bytes: the bodies of the fuzz targets `network` and
//! `training_data` in `fuzz/`, also run over their kept corpora by `cargo test`. Each panics
//! when an invariant breaks and must never panic otherwise, whatever the input.

use crate::nnue::accumulator::Accumulator;
use crate::nnue::data::{read_all, Record, RECORD_BYTES};
use crate::nnue::network::{fnv1a, Network, FILE_BYTES, HEADER_BYTES};
use crate::value::MAX_EVAL;
use gogo_rules::Position;

/// Network bytes: `from_bytes` refuses or accepts without panicking, and an accepted network
/// writes back the same bytes. Then the bytes as weights of a well-formed file (repeated to
/// fill it, with a valid header and hash): every evaluation along a game the bytes choose
/// stays within [`MAX_EVAL`], and the accumulator kept move by move equals a fresh one.
pub fn check_network(data: &[u8]) {
    if let Ok(net) = Network::from_bytes(data) {
        assert_eq!(net.to_bytes(), data);
    }
    if data.is_empty() {
        return;
    }
    let mut file = Network::zeroed().to_bytes();
    let body = HEADER_BYTES..FILE_BYTES - 8;
    for (byte, &d) in file[body.clone()].iter_mut().zip(data.iter().cycle()) {
        *byte = d;
    }
    let hash = fnv1a(&file[..FILE_BYTES - 8]);
    file[FILE_BYTES - 8..].copy_from_slice(&hash.to_le_bytes());
    let net = Network::from_bytes(&file).expect("a well-formed file reads");
    let mut pos = Position::startpos();
    let mut acc = Accumulator::refresh(&net, &pos);
    for &choice in data.iter().take(64) {
        let us = pos.side_to_move().index();
        let score = net.evaluate(&acc.0[us], &acc.0[1 - us]);
        assert!(score.abs() <= MAX_EVAL, "{score} at {pos}");
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal.as_slice()[choice as usize % legal.len()];
        acc = acc.after_move(&net, &pos, mv);
        pos.play(mv);
        assert_eq!(acc, Accumulator::refresh(&net, &pos), "{pos}");
    }
}

/// Training-data bytes: `read_all` refuses or accepts without panicking, and every record it
/// accepts encodes to bytes that decode to the same record.
pub fn check_training_data(data: &[u8]) {
    if let Ok((_, records)) = read_all(&mut &data[..]) {
        for (i, record) in records.iter().enumerate() {
            let bytes: [u8; RECORD_BYTES] = record.encode();
            assert_eq!(Record::decode(&bytes, i as u64).as_ref(), Ok(record));
        }
    }
}
