//! Every evaluation weight, in one place so that they can be tuned together. Values are in
//! centipawns, from Sente's point of view; piece-square tables are written as Sente sees the
//! board (row 0 = rank a, the far rank; column 0 = file 5) and mirrored for Gote.

use gogo_rules::PieceKind;

/// Value of a piece on the board, by [`PieceKind`] index.
pub const BOARD_VALUE: [i32; 10] = [
    100,  // pawn
    390,  // silver
    420,  // gold
    610,  // bishop
    820,  // rook
    0,    // king
    450,  // promoted pawn
    420,  // promoted silver
    820,  // horse
    1120, // dragon
];

/// Value of a piece in hand (it can be dropped anywhere), by hand-kind index.
pub const HAND_VALUE: [i32; 5] = [
    120, // pawn
    440, // silver
    470, // gold
    650, // bishop
    870, // rook
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
pub const KING_ATTACKER_WEIGHT: [i32; 10] = [1, 3, 4, 4, 5, 0, 4, 4, 6, 7];
/// King safety: weight of each kind the attacker holds in hand (a drop threat).
pub const KING_HAND_WEIGHT: [i32; 5] = [1, 3, 4, 3, 5];
/// King danger per (attacker count x summed attacker weight).
pub const KING_DANGER_ATTACKERS: i32 = 8;
/// King danger per attack on a square of the king's zone.
pub const KING_DANGER_ZONE_ATTACK: i32 = 40;
/// King danger per zone square attacked by the enemy and defended only by the king.
pub const KING_DANGER_WEAK: i32 = 120;
/// King danger per empty square, not defended by a piece other than the king, where a piece
/// in the enemy's hand could be dropped with check.
pub const KING_DANGER_DROP_CHECK: i32 = 100;
/// King danger per unit of [`KING_HAND_WEIGHT`] in the enemy's hand.
pub const KING_DANGER_HAND: i32 = 25;
/// King danger removed per own gold or silver (promoted ones too) next to the king.
pub const KING_DANGER_DEFENDER: i32 = 60;
/// Penalty = danger² / this, in centipawns.
pub const KING_DANGER_DIVISOR: i32 = 512;
/// Cap of the penalty.
pub const KING_DANGER_MAX: i32 = 2500;

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
