//! Zobrist keys, generated at compile time from a fixed seed (no RNG at start-up).
//!
//! The key of a position is split in two halves that are XORed together for the full key:
//! the board key (pieces on squares and the side to move) and the hand key (one key per
//! colour, hand kind and count, count 0 being 0).

use crate::piece::{Color, PieceKind};
use crate::square::Square;

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

struct Keys {
    pieces: [[[u64; 25]; 10]; 2],
    hands: [[[u64; 3]; 5]; 2],
    side: u64,
}

const fn generate() -> Keys {
    let mut keys = Keys {
        pieces: [[[0; 25]; 10]; 2],
        hands: [[[0; 3]; 5]; 2],
        side: 0,
    };
    let mut state = 0x5f5f_474f_474f_5f5f; // "__GOGO__"
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 10 {
            let mut s = 0;
            while s < 25 {
                let (next, value) = splitmix64(state);
                state = next;
                keys.pieces[c][k][s] = value;
                s += 1;
            }
            k += 1;
        }
        let mut k = 0;
        while k < 5 {
            let mut n = 1;
            while n < 3 {
                let (next, value) = splitmix64(state);
                state = next;
                keys.hands[c][k][n] = value;
                n += 1;
            }
            k += 1;
        }
        c += 1;
    }
    let (_, side) = splitmix64(state);
    keys.side = side;
    keys
}

static KEYS: Keys = generate();

/// Key of a piece of `color` and `kind` on `sq`.
#[inline]
pub fn piece_key(color: Color, kind: PieceKind, sq: Square) -> u64 {
    KEYS.pieces[color.index()][kind.index()][sq.index()]
}

/// Key of `color` holding `count` pieces of the hand kind `kind` (0 when `count` is 0).
#[inline]
pub fn hand_key(color: Color, kind: PieceKind, count: u8) -> u64 {
    KEYS.hands[color.index()][kind.index()][count as usize]
}

/// Key XORed in when Gote is to move.
#[inline]
pub fn side_key() -> u64 {
    KEYS.side
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut all = vec![KEYS.side];
        for c in 0..2 {
            for k in 0..10 {
                all.extend_from_slice(&KEYS.pieces[c][k]);
            }
            for k in 0..5 {
                assert_eq!(KEYS.hands[c][k][0], 0);
                all.extend_from_slice(&KEYS.hands[c][k][1..]);
            }
        }
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
        assert!(!all.contains(&0));
    }
}

/// Hashes a position's key by taking it as it is: a Zobrist key is random already, so a
/// map keyed by one (the mate solver's memo, an opening book of millions of positions)
/// need not hash it again.
#[derive(Clone, Copy, Debug, Default)]
pub struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | b as u64;
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// A map from positions' keys, hashed by [`KeyHasher`].
pub type KeyMap<V> = std::collections::HashMap<u64, V, std::hash::BuildHasherDefault<KeyHasher>>;
