//! Every evaluation weight, in one place so that they can be tuned together. Values are in
//! centipawns, from Sente's point of view; piece-square tables are written as Sente sees the
//! board (row 0 = rank a, the far rank; column 0 = file 5) and mirrored for Gote.

use gogo_rules::PieceKind;

/// Value of a piece on the board, by [`PieceKind`] index.
pub const BOARD_VALUE: [i32; 10] = [
    90,  // pawn
    430, // silver
    480, // gold
    560, // bishop
    650, // rook
    0,   // king
    500, // promoted pawn
    490, // promoted silver
    780, // horse
    920, // dragon
];

/// Value of a piece in hand (it can be dropped anywhere), by hand-kind index.
pub const HAND_VALUE: [i32; 5] = [
    115, // pawn
    470, // silver
    520, // gold
    600, // bishop
    700, // rook
];

/// Extra value of the second piece of a kind in hand (less than the first).
pub const SECOND_IN_HAND: [i32; 5] = [-10, -20, -20, -40, -50];

/// Piece-square bonuses by kind (same order as [`BOARD_VALUE`]).
pub const PSQT: [[i32; 25]; 10] = [
    // pawn: pushing is good, the far rank is never reached unpromoted
    [
        0, 0, 0, 0, 0, //
        25, 30, 30, 30, 25, //
        10, 15, 20, 15, 10, //
        0, 5, 5, 5, 0, //
        0, 0, 0, 0, 0,
    ],
    // silver
    [
        5, 10, 10, 10, 5, //
        10, 20, 20, 20, 10, //
        5, 15, 20, 15, 5, //
        0, 10, 10, 10, 0, //
        -5, 0, 0, 0, -5,
    ],
    // gold
    [
        0, 5, 5, 5, 0, //
        5, 15, 15, 15, 5, //
        5, 15, 20, 15, 5, //
        5, 15, 15, 15, 5, //
        0, 5, 10, 5, 0,
    ],
    // bishop
    [
        5, 0, 5, 0, 5, //
        0, 10, 5, 10, 0, //
        5, 5, 15, 5, 5, //
        0, 10, 5, 10, 0, //
        0, 0, 5, 0, 0,
    ],
    // rook
    [
        15, 15, 15, 15, 15, //
        20, 20, 20, 20, 20, //
        5, 5, 5, 5, 5, //
        0, 0, 5, 0, 0, //
        0, 0, 5, 0, 0,
    ],
    // king: the home corner area is safest
    [
        -40, -40, -40, -40, -40, //
        -30, -30, -30, -30, -30, //
        -15, -15, -20, -15, -15, //
        0, 0, -5, 0, 0, //
        15, 10, 0, 0, 0,
    ],
    // promoted pawn
    [
        10, 15, 15, 15, 10, //
        15, 20, 25, 20, 15, //
        10, 15, 20, 15, 10, //
        5, 10, 10, 10, 5, //
        0, 5, 5, 5, 0,
    ],
    // promoted silver
    [
        10, 15, 15, 15, 10, //
        15, 20, 25, 20, 15, //
        10, 15, 20, 15, 10, //
        5, 10, 10, 10, 5, //
        0, 5, 5, 5, 0,
    ],
    // horse
    [
        10, 10, 10, 10, 10, //
        10, 20, 20, 20, 10, //
        10, 20, 25, 20, 10, //
        5, 15, 15, 15, 5, //
        0, 5, 10, 5, 0,
    ],
    // dragon
    [
        20, 20, 20, 20, 20, //
        20, 25, 25, 25, 20, //
        10, 15, 15, 15, 10, //
        5, 10, 10, 10, 5, //
        0, 5, 5, 5, 0,
    ],
];

/// Mobility bonus per attacked square for the long-range pieces.
pub const MOBILITY: [i32; 10] = [0, 0, 0, 4, 4, 0, 0, 0, 3, 3];

/// King safety: weight of each attacking piece kind whose attacks reach the king's zone.
pub const KING_ATTACKER_WEIGHT: [i32; 10] = [1, 2, 3, 3, 4, 0, 3, 3, 5, 6];
/// King safety: weight of each kind the attacker holds in hand (a drop threat).
pub const KING_HAND_WEIGHT: [i32; 5] = [1, 3, 4, 3, 5];
/// King safety: penalty by total attack weight (clamped to the last entry).
pub const KING_DANGER: [i32; 24] = [
    0, 0, 5, 12, 22, 35, 50, 68, 90, 115, 140, 170, 200, 235, 270, 310, 350, 390, 430, 470, 510,
    550, 590, 630,
];
/// King safety: bonus per own gold-like or silver piece next to the king.
pub const KING_DEFENDER: i32 = 18;
/// King safety: penalty per king-zone square attacked by the enemy and not defended.
pub const KING_WEAK_SQUARE: i32 = 14;

/// Bonus for having the move.
pub const TEMPO: i32 = 20;

/// The board value of a kind (for move ordering and exchange evaluation).
#[inline]
pub fn board_value(kind: PieceKind) -> i32 {
    BOARD_VALUE[kind.index()]
}

/// What capturing a piece of `kind` gains: it leaves the opponent's board and joins our hand.
#[inline]
pub fn capture_gain(kind: PieceKind) -> i32 {
    BOARD_VALUE[kind.index()] + HAND_VALUE[kind.unpromote().index()]
}
