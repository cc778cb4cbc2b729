//! Training data: positions with a search score and the game's result, in a compact binary
//! file that `gogo datagen` writes and the trainer (`gogo-train`) reads.
//!
//! # File format (version 1, little-endian)
//!
//! A 32-byte header, then 32-byte records.
//!
//! | header bytes | field |
//! |---|---|
//! | 0-7 | magic `GOGODATA` |
//! | 8-11 | version, 1 |
//! | 12-15 | record size, 32 |
//! | 16-19 | score scale `K`: the scores' win probability is `1 / (1 + e^(-score / K))` (the evaluation that scored them says what `K` is) |
//! | 20-27 | the seed of the `gogo datagen` run that wrote it, `u64` (0: not said, as in files older than this field) |
//! | 28-31 | its node limit per move, `u32` (0: not said) |
//!
//! | record bytes | field |
//! |---|---|
//! | 0-24 | the board by square index (rank a first, file 5 first): 0 empty, `1 + kind` for Sente's pieces, `11 + kind` for Gote's (`kind` = [`gogo_rules::PieceKind::index`]) |
//! | 25-27 | a 24-bit number: bits `2 · (5 · colour + kind)` and the next hold the count in hand (colour 0 Sente; kind the hand-kind index); bit 23 set when Gote is to move |
//! | 28-29 | the search score, `i16`, centipawns for the side to move |
//! | 30 | the game's result for the side to move: 0 lost, 1 drawn, 2 won |
//! | 31 | the ply of the game (255 for 255 and more) |

use gogo_rules::{Color, Hand, Piece, PieceKind, Position, Square};
use std::fmt;
use std::io::{Read, Write};

const MAGIC: &[u8; 8] = b"GOGODATA";
const VERSION: u32 = 1;
/// Bytes per record.
pub const RECORD_BYTES: usize = 32;
/// Bytes of the header.
pub const HEADER_BYTES: usize = 32;

/// How a game ended for the side to move in a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// The side to move lost.
    Loss = 0,
    /// Drawn.
    Draw = 1,
    /// The side to move won.
    Win = 2,
}

impl GameResult {
    /// 0, 0.5 or 1.
    pub fn points(self) -> f32 {
        self as u8 as f32 / 2.0
    }
}

/// One training position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position (its move number is not kept: records say `ply` instead).
    pub position: Position,
    /// The search score for the side to move, in centipawns.
    pub score: i16,
    /// The game's result for the side to move.
    pub result: GameResult,
    /// The ply of the game, capped at 255.
    pub ply: u8,
}

/// Data that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DataError {
    /// Reading or writing failed.
    Io(String),
    /// Not a `GOGODATA` file, or another version or record size.
    Header(String),
    /// The file ends inside a record.
    Truncated,
    /// Record `index` (0-based) does not hold a legal position or a result.
    Record {
        /// Its place in the file.
        index: u64,
        /// What is wrong.
        reason: String,
    },
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::Io(e) => write!(f, "{e}"),
            DataError::Header(e) => write!(f, "not gogo training data: {e}"),
            DataError::Truncated => f.write_str("the data ends inside a record"),
            DataError::Record { index, reason } => write!(f, "record {index}: {reason}"),
        }
    }
}

impl std::error::Error for DataError {}

impl From<std::io::Error> for DataError {
    fn from(e: std::io::Error) -> Self {
        DataError::Io(e.to_string())
    }
}

/// What a data file's header says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DataHeader {
    /// The scores' scale `K`.
    pub score_scale: u32,
    /// The seed of the run that wrote the file (0: not said).
    pub seed: u64,
    /// Its node limit per move (0: not said).
    pub nodes: u32,
}

/// The header for data scored at scale `score_scale`, written by a run with `seed` and
/// `nodes` a move (0 where not known), so that a set of shards says where each came from.
pub fn header(score_scale: u32, seed: u64, nodes: u32) -> [u8; HEADER_BYTES] {
    let mut h = [0u8; HEADER_BYTES];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&(RECORD_BYTES as u32).to_le_bytes());
    h[16..20].copy_from_slice(&score_scale.to_le_bytes());
    h[20..28].copy_from_slice(&seed.to_le_bytes());
    h[28..32].copy_from_slice(&nodes.to_le_bytes());
    h
}

/// Reads a header.
pub fn read_header(h: &[u8; HEADER_BYTES]) -> Result<DataHeader, DataError> {
    let word = |i: usize| u32::from_le_bytes(h[i..i + 4].try_into().expect("4 bytes"));
    if &h[..8] != MAGIC {
        return Err(DataError::Header("no GOGODATA magic".into()));
    }
    if word(8) != VERSION {
        return Err(DataError::Header(format!("version {}", word(8))));
    }
    if word(12) != RECORD_BYTES as u32 {
        return Err(DataError::Header(format!("record size {}", word(12))));
    }
    Ok(DataHeader {
        score_scale: word(16),
        seed: u64::from_le_bytes(h[20..28].try_into().expect("8 bytes")),
        nodes: word(28),
    })
}

impl Record {
    /// The record's bytes.
    pub fn encode(&self) -> [u8; RECORD_BYTES] {
        let mut out = [0u8; RECORD_BYTES];
        for sq in Square::all() {
            if let Some(p) = self.position.piece_at(sq) {
                out[sq.index()] = 1 + p.kind.index() as u8 + 10 * p.color.index() as u8;
            }
        }
        let mut bits = 0u32;
        for color in Color::ALL {
            for kind in PieceKind::HAND {
                let n = self.position.hand(color).count(kind) as u32;
                bits |= n << (2 * (5 * color.index() + kind.index()));
            }
        }
        if self.position.side_to_move() == Color::Gote {
            bits |= 1 << 23;
        }
        out[25..28].copy_from_slice(&bits.to_le_bytes()[..3]);
        out[28..30].copy_from_slice(&self.score.to_le_bytes());
        out[30] = self.result as u8;
        out[31] = self.ply;
        out
    }

    /// A record from its bytes; `index` is its place, for the error.
    pub fn decode(bytes: &[u8; RECORD_BYTES], index: u64) -> Result<Record, DataError> {
        let bad = |reason: String| DataError::Record { index, reason };
        let mut board = [None; 25];
        for (i, &code) in bytes[..25].iter().enumerate() {
            board[i] = match code {
                0 => None,
                1..=20 => {
                    let color = if code <= 10 {
                        Color::Sente
                    } else {
                        Color::Gote
                    };
                    let kind = PieceKind::from_index(((code - 1) % 10) as usize).expect("below 10");
                    Some(Piece::new(color, kind))
                }
                _ => return Err(bad(format!("square {i} holds code {code}"))),
            };
        }
        let bits = u32::from_le_bytes([bytes[25], bytes[26], bytes[27], 0]);
        let mut hands = [Hand::EMPTY; 2];
        for color in Color::ALL {
            for kind in PieceKind::HAND {
                let n = (bits >> (2 * (5 * color.index() + kind.index()))) & 3;
                for _ in 0..n {
                    hands[color.index()] = hands[color.index()]
                        .with(kind)
                        .expect("PieceKind::HAND are hand kinds");
                }
            }
        }
        let side = if bits & (1 << 23) != 0 {
            Color::Gote
        } else {
            Color::Sente
        };
        let position = Position::from_parts(board, hands, side, 1)
            .map_err(|e| bad(format!("impossible position: {e}")))?;
        let result = match bytes[30] {
            0 => GameResult::Loss,
            1 => GameResult::Draw,
            2 => GameResult::Win,
            other => return Err(bad(format!("result {other}"))),
        };
        Ok(Record {
            position,
            score: i16::from_le_bytes([bytes[28], bytes[29]]),
            result,
            ply: bytes[31],
        })
    }
}

/// Reads every record of a data file (header first); returns the header and the records.
pub fn read_all(reader: &mut impl Read) -> Result<(DataHeader, Vec<Record>), DataError> {
    let mut h = [0u8; HEADER_BYTES];
    reader
        .read_exact(&mut h)
        .map_err(|_| DataError::Truncated)?;
    let header = read_header(&h)?;
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes)?;
    if bytes.len() % RECORD_BYTES != 0 {
        return Err(DataError::Truncated);
    }
    let records = bytes
        .chunks_exact(RECORD_BYTES)
        .enumerate()
        .map(|(i, chunk)| Record::decode(chunk.try_into().expect("32 bytes"), i as u64))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((header, records))
}

/// Writes records (without a header).
pub fn write_records(writer: &mut impl Write, records: &[Record]) -> Result<(), DataError> {
    for r in records {
        writer.write_all(&r.encode())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use gogo_rules::Rng;

    #[test]
    fn records_round_trip() {
        let mut rng = Rng::new(4);
        let mut records = Vec::new();
        for g in 0..30 {
            let mut pos = Position::startpos();
            for ply in 0..90u8 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play(moves.as_slice()[rng.below(moves.len())]);
                let fresh = Position::from_sfen(
                    &pos.to_sfen()
                        .replace(&format!(" {}", pos.move_number()), " 1"),
                )
                .unwrap();
                records.push(Record {
                    position: fresh,
                    score: (rng.below(4000) as i16) - 2000,
                    result: [GameResult::Loss, GameResult::Draw, GameResult::Win][g % 3],
                    ply,
                });
            }
        }
        let mut file = header(400, 4101, 5000).to_vec();
        write_records(&mut file, &records).unwrap();
        assert_eq!(file.len(), HEADER_BYTES + RECORD_BYTES * records.len());
        let (h, back) = read_all(&mut file.as_slice()).unwrap();
        assert_eq!(
            h,
            DataHeader {
                score_scale: 400,
                seed: 4101,
                nodes: 5000
            }
        );
        assert_eq!(back, records);
        // Damage is reported, not read as some position.
        let mut truncated = file.clone();
        truncated.pop();
        assert_eq!(
            read_all(&mut truncated.as_slice()),
            Err(DataError::Truncated)
        );
        let mut bad = file.clone();
        bad[HEADER_BYTES] = 99;
        assert!(matches!(
            read_all(&mut bad.as_slice()),
            Err(DataError::Record { index: 0, .. })
        ));
        let mut foreign = file;
        foreign[0] = b'X';
        assert!(matches!(
            read_all(&mut foreign.as_slice()),
            Err(DataError::Header(_))
        ));
    }
}
