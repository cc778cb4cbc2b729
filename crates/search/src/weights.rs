//! Every evaluation weight, in one place so that they can be tuned together. Values are in
//! centipawns, from Sente's point of view; square-indexed tables are written as Sente sees the
//! board (row 0 = rank a, the far rank; column 0 = file 5) and mirrored for Gote.
//!
//! The numbers themselves live in `tuned_weights.rs`, read here with `include!`. They were
//! fitted by Texel's method (the tuner `crates/search/examples/tune.rs` and `scripts/tune.sh`,
//! last in fdf74ed: the network replaced this evaluation). The
//! hand-made evaluation is frozen: it makes a new network shape's first data and is the
//! baseline the network is measured against.

/// The evaluation's weights. Tables indexed by kind follow [`gogo_rules::PieceKind::index`] (pawn, silver,
/// gold, bishop, rook, king, promoted pawn, promoted silver, horse, dragon); hand tables follow
/// the hand-kind index (pawn, silver, gold, bishop, rook).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Value of a piece on the board.
    pub board_value: [i32; 10],
    /// Value of a piece in hand (it can be dropped anywhere).
    pub hand_value: [i32; 5],
    /// Extra value of each further piece of a kind in hand (usually less than the first).
    pub second_in_hand: [i32; 5],
    /// Piece-square bonuses.
    pub psqt: [[i32; 25]; 10],
    /// Bonus by Chebyshev distance (1 to 4, index 0 to 3) to the piece's own king: guards.
    pub own_king_distance: [[i32; 4]; 10],
    /// Bonus by Chebyshev distance (1 to 4) to the enemy king: attackers.
    pub enemy_king_distance: [[i32; 4]; 10],
    /// Bonus per square a piece attacks that is not occupied by its own side.
    pub mobility: [i32; 10],
    /// King safety: weight of each attacking kind whose attacks reach the king's zone.
    pub king_attacker_weight: [i32; 10],
    /// King safety: weight of each kind the attacker holds in hand (a drop threat).
    pub king_hand_weight: [i32; 5],
    /// King danger per (attacker count x summed attacker weight).
    pub king_danger_attackers: i32,
    /// King danger per attack on a square of the king's zone.
    pub king_danger_zone_attack: i32,
    /// King danger per zone square attacked by the enemy and defended only by the king.
    pub king_danger_weak: i32,
    /// King danger per empty square, not defended by a piece other than the king, where a
    /// piece in the enemy's hand could be dropped with check.
    pub king_danger_drop_check: i32,
    /// King danger per unit of `king_hand_weight` in the enemy's hand.
    pub king_danger_hand: i32,
    /// King danger removed per own gold or silver (promoted ones too) next to the king.
    pub king_danger_defender: i32,
    /// The king-safety penalty is danger² / this, in centipawns (not tuned: it sets the scale).
    pub king_danger_divisor: i32,
    /// Cap of the king-safety penalty.
    pub king_danger_max: i32,
    /// Bonus for having the move.
    pub tempo: i32,
}

/// The weights the engine plays with.
pub const WEIGHTS: Weights = include!("tuned_weights.rs");
