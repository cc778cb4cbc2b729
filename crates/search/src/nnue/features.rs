//! Feature indices (see the [module docs](super) for the layout) and the features a move
//! changes.

use super::FEATURES;
use gogo_rules::{Color, Move, MoveKind, Piece, PieceKind, Position, Square};

/// First index of the hand features.
const HAND_BASE: usize = 500;

/// The feature of `piece` on `sq`, from `perspective`.
#[inline]
pub fn board_feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    let side = usize::from(piece.color != perspective);
    (side * PieceKind::COUNT + piece.kind.index()) * Square::COUNT + sq.relative_index(perspective)
}

/// The feature "`owner` holds at least `count` (1 or 2) of `kind`", from `perspective`.
#[inline]
pub fn hand_feature(perspective: Color, owner: Color, kind: PieceKind, count: u8) -> usize {
    debug_assert!((1..=2).contains(&count) && kind.is_hand_kind());
    let side = usize::from(owner != perspective);
    HAND_BASE + (side * 5 + kind.index()) * 2 + (count as usize - 1)
}

/// Every active feature of `pos` from `perspective`.
pub fn active_features(pos: &Position, perspective: Color) -> Vec<usize> {
    let mut out = Vec::with_capacity(40);
    for sq in Square::all() {
        if let Some(piece) = pos.piece_at(sq) {
            out.push(board_feature(perspective, piece, sq));
        }
    }
    for owner in Color::ALL {
        for kind in PieceKind::HAND {
            for k in 1..=pos.hand(owner).count(kind) {
                out.push(hand_feature(perspective, owner, kind, k));
            }
        }
    }
    debug_assert!(out.iter().all(|&f| f < FEATURES));
    out
}

/// The features a move removes and adds, for one perspective; at most two of each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FeatureDelta {
    /// Removed features (`removed[..removed_len]`).
    pub removed: [u16; 2],
    /// How many are removed.
    pub removed_len: usize,
    /// Added features (`added[..added_len]`).
    pub added: [u16; 2],
    /// How many are added.
    pub added_len: usize,
}

impl FeatureDelta {
    #[inline]
    fn remove(&mut self, feature: usize) {
        self.removed[self.removed_len] = feature as u16;
        self.removed_len += 1;
    }

    #[inline]
    fn add(&mut self, feature: usize) {
        self.added[self.added_len] = feature as u16;
        self.added_len += 1;
    }

    /// The removed features.
    pub fn removed(&self) -> &[u16] {
        &self.removed[..self.removed_len]
    }

    /// The added features.
    pub fn added(&self) -> &[u16] {
        &self.added[..self.added_len]
    }
}

/// What the legal move `mv` changes in `pos`'s features, from `perspective`.
#[inline]
pub fn move_delta(pos: &Position, mv: Move, perspective: Color) -> FeatureDelta {
    let us = pos.side_to_move();
    let mut delta = FeatureDelta::default();
    match mv.kind() {
        MoveKind::Drop { kind, to } => {
            let before = pos.hand(us).count(kind);
            delta.remove(hand_feature(perspective, us, kind, before));
            delta.add(board_feature(perspective, Piece::new(us, kind), to));
        }
        MoveKind::Board { from, to, promote } => {
            let piece = pos.piece_at(from).expect("a legal move starts on a piece");
            delta.remove(board_feature(perspective, piece, from));
            let arrived = if promote {
                Piece::new(us, piece.kind.promote())
            } else {
                piece
            };
            delta.add(board_feature(perspective, arrived, to));
            if let Some(captured) = pos.piece_at(to) {
                delta.remove(board_feature(perspective, captured, to));
                let kind = captured.kind.unpromote();
                let after = pos.hand(us).count(kind) + 1;
                delta.add(hand_feature(perspective, us, kind, after));
            }
        }
    }
    delta
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use gogo_rules::Rng;
    use std::collections::BTreeSet;

    fn set(v: Vec<usize>) -> BTreeSet<usize> {
        v.into_iter().collect()
    }

    /// The colour-flipped mirror of a position: colours swapped, board turned 180°, hands
    /// swapped, the other side to move.
    pub(crate) fn mirror(pos: &Position) -> Position {
        let flip = |c: Color| !c;
        let mut text = String::new();
        for row in 0..5u8 {
            if row > 0 {
                text.push('/');
            }
            let mut empty = 0;
            for col in 0..5u8 {
                let sq = Square::from_row_col(4 - row, 4 - col).unwrap();
                match pos.piece_at(sq) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            text.push_str(&empty.to_string());
                            empty = 0;
                        }
                        text.push_str(&Piece::new(flip(p.color), p.kind).to_string());
                    }
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
        }
        let side = flip(pos.side_to_move()).sfen_char();
        let mut hands = String::new();
        for color in Color::ALL {
            for kind in PieceKind::HAND_SFEN_ORDER {
                let n = pos.hand(flip(color)).count(kind);
                if n > 0 {
                    if n > 1 {
                        hands.push_str(&n.to_string());
                    }
                    hands.push_str(&Piece::new(color, kind).to_string());
                }
            }
        }
        if hands.is_empty() {
            hands.push('-');
        }
        Position::from_sfen(&format!("{text} {side} {hands} 1")).unwrap()
    }

    fn random_positions(n_games: usize, seed: u64) -> Vec<Position> {
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        for _ in 0..n_games {
            let mut pos = Position::startpos();
            for _ in 0..80 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play(moves.as_slice()[rng.below(moves.len())]);
                out.push(pos.clone());
            }
        }
        out
    }

    #[test]
    fn indices_are_in_range_and_distinct_per_position() {
        for pos in random_positions(30, 1) {
            for p in Color::ALL {
                let f = active_features(&pos, p);
                assert!(f.iter().all(|&i| i < FEATURES));
                assert_eq!(set(f.clone()).len(), f.len(), "{pos}");
            }
        }
    }

    #[test]
    fn the_mirror_has_the_same_features_with_perspectives_exchanged() {
        for pos in random_positions(30, 2) {
            let m = mirror(&pos);
            assert_eq!(
                set(active_features(&pos, Color::Sente)),
                set(active_features(&m, Color::Gote)),
                "{pos} / {m}"
            );
            assert_eq!(
                set(active_features(&pos, Color::Gote)),
                set(active_features(&m, Color::Sente))
            );
        }
    }

    #[test]
    fn move_deltas_turn_one_feature_set_into_the_next() {
        let mut checked = 0;
        for pos in random_positions(40, 3) {
            for &mv in pos.legal_moves().iter() {
                let next = pos.played(mv);
                for p in Color::ALL {
                    let d = move_delta(&pos, mv, p);
                    let mut f = set(active_features(&pos, p));
                    for &r in d.removed() {
                        assert!(f.remove(&(r as usize)), "{pos} {mv}: {r} not active");
                    }
                    for &a in d.added() {
                        assert!(f.insert(a as usize), "{pos} {mv}: {a} already active");
                    }
                    assert_eq!(f, set(active_features(&next, p)), "{pos} {mv}");
                }
                checked += 1;
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
