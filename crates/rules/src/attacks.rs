//! Attack tables, all built at compile time by `const fn`.
//!
//! Step pieces use one table per colour and square. Sliders walk eight precomputed rays and
//! cut each ray at its nearest blocker (found with one bit scan), which on a 25-square board
//! is as fast as a magic lookup and needs no tables of occupancies.

use crate::bitboard::Bitboard;
use crate::piece::{Color, PieceKind};
use crate::square::Square;

type Offsets = &'static [(i8, i8)];

// Offsets are (row, column) for Sente, whose forward is row - 1. Gote's are mirrored in rows;
// every pattern is symmetric left-right, so this is also the point reflection.
const PAWN_OFFSETS: Offsets = &[(-1, 0)];
const SILVER_OFFSETS: Offsets = &[(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 1)];
const GOLD_OFFSETS: Offsets = &[(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0)];
const KING_OFFSETS: Offsets = &[
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// Ray directions: the first four are orthogonal (rook), the last four diagonal (bishop).
/// Directions come in opposite pairs (`d ^ 1` is the opposite of `d`); the odd ones are
/// "positive": they run towards higher square indices.
const DIRECTIONS: [(i8, i8); 8] = [
    (-1, 0),  // north
    (1, 0),   // south
    (0, -1),  // west
    (0, 1),   // east
    (-1, -1), // north-west
    (1, 1),   // south-east
    (-1, 1),  // north-east
    (1, -1),  // south-west
];
const DIRECTION_IS_POSITIVE: [bool; 8] = [false, true, false, true, false, true, false, true];

const fn step_table(offsets: Offsets, color: Color) -> [Bitboard; 25] {
    let mut table = [Bitboard::EMPTY; 25];
    let mut sq = 0;
    while sq < 25 {
        let row = (sq / 5) as i8;
        let col = (sq % 5) as i8;
        let mut bits = 0u32;
        let mut i = 0;
        while i < offsets.len() {
            let (mut dr, dc) = offsets[i];
            if matches!(color, Color::Gote) {
                dr = -dr;
            }
            let (r, c) = (row + dr, col + dc);
            if r >= 0 && r < 5 && c >= 0 && c < 5 {
                bits |= 1 << (r * 5 + c);
            }
            i += 1;
        }
        table[sq] = Bitboard(bits);
        sq += 1;
    }
    table
}

const fn ray_table() -> [[Bitboard; 25]; 8] {
    let mut table = [[Bitboard::EMPTY; 25]; 8];
    let mut d = 0;
    while d < 8 {
        let (dr, dc) = DIRECTIONS[d];
        let mut sq = 0;
        while sq < 25 {
            let (mut r, mut c) = ((sq / 5) as i8 + dr, (sq % 5) as i8 + dc);
            let mut bits = 0u32;
            while r >= 0 && r < 5 && c >= 0 && c < 5 {
                bits |= 1 << (r * 5 + c);
                r += dr;
                c += dc;
            }
            table[d][sq] = Bitboard(bits);
            sq += 1;
        }
        d += 1;
    }
    table
}

const fn between_and_line_tables() -> ([[Bitboard; 25]; 25], [[Bitboard; 25]; 25]) {
    let mut between = [[Bitboard::EMPTY; 25]; 25];
    let mut line = [[Bitboard::EMPTY; 25]; 25];
    let mut a = 0;
    while a < 25 {
        let mut d = 0;
        while d < 8 {
            let (dr, dc) = DIRECTIONS[d];
            // The full line through `a` in this direction, both ways, including `a`.
            let opposite = RAYS[d ^ 1][a].0;
            let full = RAYS[d][a].0 | opposite | (1 << a);
            let (mut r, mut c) = ((a / 5) as i8 + dr, (a % 5) as i8 + dc);
            let mut passed = 0u32;
            while r >= 0 && r < 5 && c >= 0 && c < 5 {
                let b = (r * 5 + c) as usize;
                between[a][b] = Bitboard(passed);
                line[a][b] = Bitboard(full);
                passed |= 1 << b;
                r += dr;
                c += dc;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

const RAYS: [[Bitboard; 25]; 8] = ray_table();
static PAWN: [[Bitboard; 25]; 2] = [
    step_table(PAWN_OFFSETS, Color::Sente),
    step_table(PAWN_OFFSETS, Color::Gote),
];
static SILVER: [[Bitboard; 25]; 2] = [
    step_table(SILVER_OFFSETS, Color::Sente),
    step_table(SILVER_OFFSETS, Color::Gote),
];
static GOLD: [[Bitboard; 25]; 2] = [
    step_table(GOLD_OFFSETS, Color::Sente),
    step_table(GOLD_OFFSETS, Color::Gote),
];
static KING: [Bitboard; 25] = step_table(KING_OFFSETS, Color::Sente);
static BETWEEN_AND_LINE: ([[Bitboard; 25]; 25], [[Bitboard; 25]; 25]) =
    between_and_line_tables();
static ROOK_EMPTY: [Bitboard; 25] = slider_empty_table(0);
static BISHOP_EMPTY: [Bitboard; 25] = slider_empty_table(4);

const fn slider_empty_table(first_direction: usize) -> [Bitboard; 25] {
    let mut table = [Bitboard::EMPTY; 25];
    let mut sq = 0;
    while sq < 25 {
        let mut d = first_direction;
        while d < first_direction + 4 {
            table[sq].0 |= RAYS[d][sq].0;
            d += 1;
        }
        sq += 1;
    }
    table
}

#[inline]
fn ray_attacks(direction: usize, sq: Square, occupied: Bitboard) -> Bitboard {
    let ray = RAYS[direction][sq.index()];
    let blockers = ray.0 & occupied.0;
    if blockers == 0 {
        return ray;
    }
    let nearest = if DIRECTION_IS_POSITIVE[direction] {
        blockers.trailing_zeros()
    } else {
        31 - blockers.leading_zeros()
    };
    Bitboard(ray.0 ^ RAYS[direction][nearest as usize].0)
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN[color.index()][sq.index()]
}

/// Squares a silver of `color` on `sq` attacks.
#[inline]
pub fn silver_attacks(color: Color, sq: Square) -> Bitboard {
    SILVER[color.index()][sq.index()]
}

/// Squares a gold (or a piece moving as one) of `color` on `sq` attacks.
#[inline]
pub fn gold_attacks(color: Color, sq: Square) -> Bitboard {
    GOLD[color.index()][sq.index()]
}

/// Squares a king on `sq` attacks.
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING[sq.index()]
}

/// Squares a rook on `sq` attacks, given the occupied squares.
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    ray_attacks(0, sq, occupied)
        | ray_attacks(1, sq, occupied)
        | ray_attacks(2, sq, occupied)
        | ray_attacks(3, sq, occupied)
}

/// Squares a bishop on `sq` attacks, given the occupied squares.
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    ray_attacks(4, sq, occupied)
        | ray_attacks(5, sq, occupied)
        | ray_attacks(6, sq, occupied)
        | ray_attacks(7, sq, occupied)
}

/// Rook attacks on an empty board.
#[inline]
pub fn rook_pseudo_attacks(sq: Square) -> Bitboard {
    ROOK_EMPTY[sq.index()]
}

/// Bishop attacks on an empty board.
#[inline]
pub fn bishop_pseudo_attacks(sq: Square) -> Bitboard {
    BISHOP_EMPTY[sq.index()]
}

/// Squares strictly between `a` and `b` when they share a rank, file or diagonal; else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN_AND_LINE.0[a.index()][b.index()]
}

/// The whole line through `a` and `b` (both included) when they are aligned; else empty.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    BETWEEN_AND_LINE.1[a.index()][b.index()]
}

/// Squares a piece of `color` and `kind` on `sq` attacks, given the occupied squares.
#[inline]
pub fn attacks(color: Color, kind: PieceKind, sq: Square, occupied: Bitboard) -> Bitboard {
    match kind {
        PieceKind::Pawn => pawn_attacks(color, sq),
        PieceKind::Silver => silver_attacks(color, sq),
        PieceKind::Gold | PieceKind::ProPawn | PieceKind::ProSilver => gold_attacks(color, sq),
        PieceKind::King => king_attacks(sq),
        PieceKind::Bishop => bishop_attacks(sq, occupied),
        PieceKind::Rook => rook_attacks(sq, occupied),
        PieceKind::Horse => bishop_attacks(sq, occupied) | king_attacks(sq),
        PieceKind::Dragon => rook_attacks(sq, occupied) | king_attacks(sq),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(text: &str) -> Square {
        let b = text.as_bytes();
        Square::parse(b[0], b[1]).unwrap()
    }

    fn names(bb: Bitboard) -> Vec<String> {
        let mut v: Vec<String> = bb.map(|s| s.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn step_pieces() {
        assert_eq!(names(pawn_attacks(Color::Sente, sq("3c"))), ["3b"]);
        assert_eq!(names(pawn_attacks(Color::Gote, sq("3c"))), ["3d"]);
        assert_eq!(
            names(silver_attacks(Color::Sente, sq("3c"))),
            ["2b", "2d", "3b", "4b", "4d"]
        );
        assert_eq!(
            names(gold_attacks(Color::Gote, sq("3c"))),
            ["2c", "2d", "3b", "3d", "4c", "4d"]
        );
        assert_eq!(king_attacks(sq("5a")).count(), 3);
        assert!(pawn_attacks(Color::Sente, sq("2a")).is_empty());
    }

    #[test]
    fn sliders_stop_at_blockers() {
        let occupied = Bitboard::from_square(sq("3a")) | Bitboard::from_square(sq("1c"));
        assert_eq!(
            names(rook_attacks(sq("3c"), occupied)),
            ["1c", "2c", "3a", "3b", "3d", "3e", "4c", "5c"]
        );
        let occupied = Bitboard::from_square(sq("2b"));
        assert_eq!(
            names(bishop_attacks(sq("3c"), occupied)),
            ["1e", "2b", "2d", "4b", "4d", "5a", "5e"]
        );
        assert_eq!(rook_pseudo_attacks(sq("3c")).count(), 8);
        assert_eq!(bishop_pseudo_attacks(sq("5e")).count(), 4);
    }

    #[test]
    fn between_and_line() {
        assert_eq!(names(between(sq("5e"), sq("1a"))), ["2b", "3c", "4d"]);
        assert_eq!(names(between(sq("5a"), sq("5d"))), ["5b", "5c"]);
        assert!(between(sq("5a"), sq("4c")).is_empty());
        assert!(line(sq("5a"), sq("4c")).is_empty());
        assert_eq!(line(sq("3c"), sq("3d")).count(), 5);
        assert!(line(sq("4b"), sq("3c")).contains(sq("1e")));
    }
}
