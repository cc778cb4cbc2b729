//! Attack tables, all built at compile time by `const fn`.
//!
//! Step pieces use one table per colour and square. Sliders use one table per square and
//! line (rank, file, two diagonals) indexed by the five occupancy bits of that line. The
//! bits of a file or diagonal are gathered into five contiguous bits with one multiplication
//! (the "kindergarten" trick: on a 5-wide board every partial product lands on its own bit,
//! so no carries disturb the result).

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
/// Directions come in opposite pairs (`d ^ 1` is the opposite of `d`); pair `l` runs along
/// line `l` (rank, file, diagonal, anti-diagonal).
const DIRECTIONS: [(i8, i8); 8] = [
    (0, -1),  // west
    (0, 1),   // east
    (-1, 0),  // north
    (1, 0),   // south
    (-1, -1), // north-west
    (1, 1),   // south-east
    (-1, 1),  // north-east
    (1, -1),  // south-west
];

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
static BETWEEN_AND_LINE: ([[Bitboard; 25]; 25], [[Bitboard; 25]; 25]) = between_and_line_tables();
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

/// Lines through a square, each with its table of attacks by occupancy.
const RANK: usize = 0;
const FILE: usize = 1;
const DIAGONAL: usize = 2; // north-west to south-east
const ANTI_DIAGONAL: usize = 3; // north-east to south-west

/// The squares of `line` through `sq`, `sq` included.
const fn line_mask(line: usize, sq: usize) -> u32 {
    let d = line * 2; // the two opposite directions of this line
    RAYS[d][sq].0 | RAYS[d + 1][sq].0 | (1 << sq)
}

/// The five-bit occupancy index of `line` through `sq`: bit k is column k of a rank or a
/// diagonal, row k of a file.
#[inline]
const fn line_index(line: usize, sq: usize, occupied: u32) -> usize {
    const COLUMN_0: u64 = 0b00001_00001_00001_00001_00001;
    // Moves bit 5k (row k of column 0) to bit 20 + k.
    const FILE_GATHER: u64 = (1 << 20) | (1 << 16) | (1 << 12) | (1 << 8) | (1 << 4);
    let index = match line {
        RANK => occupied >> (sq / 5 * 5),
        FILE => ((((occupied >> (sq % 5)) as u64 & COLUMN_0) * FILE_GATHER) >> 20) as u32,
        // One bit per column: multiplying by column 0 ORs each column into rank e.
        _ => ((((occupied & LINE_MASKS[line][sq]) as u64) * COLUMN_0) >> 20) as u32,
    };
    (index & 31) as usize
}

static LINE_MASKS: [[u32; 25]; 4] = {
    let mut masks = [[0; 25]; 4];
    let mut line = 0;
    while line < 4 {
        let mut sq = 0;
        while sq < 25 {
            masks[line][sq] = line_mask(line, sq);
            sq += 1;
        }
        line += 1;
    }
    masks
};

const fn walk(sq: usize, direction: usize, occupied: u32) -> u32 {
    let (dr, dc) = DIRECTIONS[direction];
    let (mut r, mut c) = ((sq / 5) as i8 + dr, (sq % 5) as i8 + dc);
    let mut bits = 0;
    while r >= 0 && r < 5 && c >= 0 && c < 5 {
        let b = 1 << (r * 5 + c);
        bits |= b;
        if occupied & b != 0 {
            break;
        }
        r += dr;
        c += dc;
    }
    bits
}

static LINE_ATTACKS: [[[Bitboard; 32]; 25]; 4] = {
    let mut table = [[[Bitboard::EMPTY; 32]; 25]; 4];
    let mut line = 0;
    while line < 4 {
        let mut sq = 0;
        while sq < 25 {
            let mask = line_mask(line, sq);
            // Enumerate the occupancies of the line's squares and file each under its index.
            let mut subset: u32 = 0;
            loop {
                let index = line_index(line, sq, subset);
                table[line][sq][index] =
                    Bitboard(walk(sq, line * 2, subset) | walk(sq, line * 2 + 1, subset));
                subset = subset.wrapping_sub(mask) & mask;
                if subset == 0 {
                    break;
                }
            }
            sq += 1;
        }
        line += 1;
    }
    table
};

#[inline]
fn line_attacks(line: usize, sq: Square, occupied: Bitboard) -> Bitboard {
    LINE_ATTACKS[line][sq.index()][line_index(line, sq.index(), occupied.0)]
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
    line_attacks(RANK, sq, occupied) | line_attacks(FILE, sq, occupied)
}

/// Squares a bishop on `sq` attacks, given the occupied squares.
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    line_attacks(DIAGONAL, sq, occupied) | line_attacks(ANTI_DIAGONAL, sq, occupied)
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

    fn names(bb: Bitboard) -> Vec<String> {
        let mut v: Vec<String> = bb.map(|s| s.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn step_pieces() {
        assert_eq!(
            names(pawn_attacks(Color::Sente, "3c".parse().unwrap())),
            ["3b"]
        );
        assert_eq!(
            names(pawn_attacks(Color::Gote, "3c".parse().unwrap())),
            ["3d"]
        );
        assert_eq!(
            names(silver_attacks(Color::Sente, "3c".parse().unwrap())),
            ["2b", "2d", "3b", "4b", "4d"]
        );
        assert_eq!(
            names(gold_attacks(Color::Gote, "3c".parse().unwrap())),
            ["2c", "2d", "3b", "3d", "4c", "4d"]
        );
        assert_eq!(king_attacks("5a".parse().unwrap()).count(), 3);
        assert!(pawn_attacks(Color::Sente, "2a".parse().unwrap()).is_empty());
    }

    #[test]
    fn sliders_stop_at_blockers() {
        let occupied = Bitboard::from_square("3a".parse().unwrap())
            | Bitboard::from_square("1c".parse().unwrap());
        assert_eq!(
            names(rook_attacks("3c".parse().unwrap(), occupied)),
            ["1c", "2c", "3a", "3b", "3d", "3e", "4c", "5c"]
        );
        let occupied = Bitboard::from_square("2b".parse().unwrap());
        assert_eq!(
            names(bishop_attacks("3c".parse().unwrap(), occupied)),
            ["1e", "2b", "2d", "4b", "4d", "5a", "5e"]
        );
        assert_eq!(rook_pseudo_attacks("3c".parse().unwrap()).count(), 8);
        assert_eq!(bishop_pseudo_attacks("5e".parse().unwrap()).count(), 4);
    }

    /// The table lookup equals walking the rays, for every square and every occupancy of
    /// the squares a slider there can see.
    #[test]
    fn slider_tables_match_ray_walks() {
        for sq in Square::all() {
            for (lines, attack) in [
                (
                    [RANK, FILE],
                    rook_attacks as fn(Square, Bitboard) -> Bitboard,
                ),
                ([DIAGONAL, ANTI_DIAGONAL], bishop_attacks),
            ] {
                let mask = line_mask(lines[0], sq.index()) | line_mask(lines[1], sq.index());
                let mut subset: u32 = 0;
                loop {
                    // Add noise off the lines: it must not matter.
                    let occupied = Bitboard(subset | (!mask & 0x0155_5555 & Bitboard::FULL.0));
                    let walked: u32 = (0..2)
                        .flat_map(|l| [lines[l] * 2, lines[l] * 2 + 1])
                        .map(|d| walk(sq.index(), d, occupied.0))
                        .fold(0, |a, b| a | b);
                    assert_eq!(attack(sq, occupied), Bitboard(walked), "{sq} {subset:025b}");
                    subset = subset.wrapping_sub(mask) & mask;
                    if subset == 0 {
                        break;
                    }
                }
            }
        }
    }

    #[test]
    fn between_and_line() {
        assert_eq!(
            names(between("5e".parse().unwrap(), "1a".parse().unwrap())),
            ["2b", "3c", "4d"]
        );
        assert_eq!(
            names(between("5a".parse().unwrap(), "5d".parse().unwrap())),
            ["5b", "5c"]
        );
        assert!(between("5a".parse().unwrap(), "4c".parse().unwrap()).is_empty());
        assert!(line("5a".parse().unwrap(), "4c".parse().unwrap()).is_empty());
        assert_eq!(
            line("3c".parse().unwrap(), "3d".parse().unwrap()).count(),
            5
        );
        assert!(line("4b".parse().unwrap(), "3c".parse().unwrap()).contains("1e".parse().unwrap()));
    }
}
