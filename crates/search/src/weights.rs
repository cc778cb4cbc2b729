//! Every evaluation weight, in one place so that they can be tuned together. Values are in
//! centipawns, from Sente's point of view; square-indexed tables are written as Sente sees the
//! board (row 0 = rank a, the far rank; column 0 = file 5) and mirrored for Gote.
//!
//! The numbers themselves live in `tuned_weights.rs`, written by the tuner
//! (`cargo run --release -p gogo-search --example tune`, driven by `scripts/tune.sh`), and are
//! read here with `include!`; [`Weights::to_rust`] writes that file.

use std::fmt::Write;

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

impl Weights {
    /// Every weight the tuner may change, in a fixed order (all but the danger divisor).
    pub fn tunable_mut(&mut self) -> Vec<&mut i32> {
        let mut out: Vec<&mut i32> = Vec::new();
        out.extend(self.board_value.iter_mut());
        out.extend(self.hand_value.iter_mut());
        out.extend(self.second_in_hand.iter_mut());
        out.extend(self.psqt.iter_mut().flatten());
        out.extend(self.own_king_distance.iter_mut().flatten());
        out.extend(self.enemy_king_distance.iter_mut().flatten());
        out.extend(self.mobility.iter_mut());
        out.extend(self.king_attacker_weight.iter_mut());
        out.extend(self.king_hand_weight.iter_mut());
        out.extend([
            &mut self.king_danger_attackers,
            &mut self.king_danger_zone_attack,
            &mut self.king_danger_weak,
            &mut self.king_danger_drop_check,
            &mut self.king_danger_hand,
            &mut self.king_danger_defender,
            &mut self.king_danger_max,
            &mut self.tempo,
        ]);
        out
    }

    /// These weights as the Rust expression `tuned_weights.rs` holds, with a header comment.
    pub fn to_rust(&self, header: &str) -> String {
        fn row(out: &mut String, values: &[i32]) {
            let text: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            out.push_str(&text.join(", "));
        }
        fn list(out: &mut String, name: &str, values: &[i32]) {
            let _ = write!(out, "    {name}: [");
            row(out, values);
            out.push_str("],\n");
        }
        fn table<const N: usize>(out: &mut String, name: &str, rows: &[[i32; N]], board: bool) {
            let _ = writeln!(out, "    {name}: [");
            for (kind, values) in rows.iter().enumerate() {
                let _ = writeln!(out, "        // {}", KIND_NAMES[kind]);
                if board {
                    out.push_str("        [\n");
                    for rank in values.chunks(5) {
                        out.push_str("            ");
                        row(out, rank);
                        out.push_str(",\n");
                    }
                    out.push_str("        ],\n");
                } else {
                    out.push_str("        [");
                    row(out, values);
                    out.push_str("],\n");
                }
            }
            out.push_str("    ],\n");
        }
        let mut out = String::new();
        for line in header.lines() {
            let _ = writeln!(out, "// {line}");
        }
        out.push_str("Weights {\n");
        list(&mut out, "board_value", &self.board_value);
        list(&mut out, "hand_value", &self.hand_value);
        list(&mut out, "second_in_hand", &self.second_in_hand);
        table(&mut out, "psqt", &self.psqt, true);
        table(
            &mut out,
            "own_king_distance",
            &self.own_king_distance,
            false,
        );
        table(
            &mut out,
            "enemy_king_distance",
            &self.enemy_king_distance,
            false,
        );
        list(&mut out, "mobility", &self.mobility);
        list(&mut out, "king_attacker_weight", &self.king_attacker_weight);
        list(&mut out, "king_hand_weight", &self.king_hand_weight);
        for (name, value) in [
            ("king_danger_attackers", self.king_danger_attackers),
            ("king_danger_zone_attack", self.king_danger_zone_attack),
            ("king_danger_weak", self.king_danger_weak),
            ("king_danger_drop_check", self.king_danger_drop_check),
            ("king_danger_hand", self.king_danger_hand),
            ("king_danger_defender", self.king_danger_defender),
            ("king_danger_divisor", self.king_danger_divisor),
            ("king_danger_max", self.king_danger_max),
            ("tempo", self.tempo),
        ] {
            let _ = writeln!(out, "    {name}: {value},");
        }
        out.push_str("}\n");
        out
    }
}

/// Kind names in [`gogo_rules::PieceKind::index`] order, for the comments of the written file.
const KIND_NAMES: [&str; 10] = [
    "pawn",
    "silver",
    "gold",
    "bishop",
    "rook",
    "king",
    "promoted pawn",
    "promoted silver",
    "horse",
    "dragon",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_weights_file_is_what_to_rust_writes() {
        // The tuner writes the file with `to_rust`; a hand edit that breaks the format, or a
        // writer that drops a field, shows up here.
        let text = include_str!("tuned_weights.rs");
        let header: Vec<&str> = text
            .lines()
            .take_while(|l| l.starts_with("// "))
            .map(|l| &l[3..])
            .collect();
        assert_eq!(WEIGHTS.to_rust(&header.join("\n")), text);
    }

    #[test]
    fn tunable_covers_every_weight_but_the_divisor() {
        let mut w = WEIGHTS.clone();
        let n = w.tunable_mut().len();
        assert_eq!(n, 10 + 5 + 5 + 250 + 40 + 40 + 10 + 10 + 5 + 8);
        for p in w.tunable_mut() {
            *p += 1;
        }
        assert_eq!(w.king_danger_divisor, WEIGHTS.king_danger_divisor);
        assert_eq!(w.tempo, WEIGHTS.tempo + 1);
        assert_eq!(w.psqt[9][24], WEIGHTS.psqt[9][24] + 1);
    }
}
