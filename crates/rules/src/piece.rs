//! Colours, piece kinds and coloured pieces.

use std::fmt;

/// The side a piece belongs to. Sente (black, `b`) moves first and plays up the board,
/// towards rank `a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first player (black), uppercase letters in SFEN.
    Sente = 0,
    /// The second player (white), lowercase letters in SFEN.
    Gote = 1,
}

impl Color {
    /// Both colours, Sente first.
    pub const ALL: [Color; 2] = [Color::Sente, Color::Gote];

    /// Index 0 for Sente, 1 for Gote.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::Sente => Color::Gote,
            Color::Gote => Color::Sente,
        }
    }

    /// The SFEN letter of the side to move: `b` or `w`.
    pub const fn sfen_char(self) -> char {
        match self {
            Color::Sente => 'b',
            Color::Gote => 'w',
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.flip()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Sente => "sente",
            Color::Gote => "gote",
        })
    }
}

/// The ten kinds of minishogi piece. The first five are the kinds that can be held in hand
/// (their discriminant is their index in a [`crate::Hand`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// Pawn (歩), one step forward.
    Pawn = 0,
    /// Silver general (銀).
    Silver = 1,
    /// Gold general (金).
    Gold = 2,
    /// Bishop (角), diagonal slider.
    Bishop = 3,
    /// Rook (飛), orthogonal slider.
    Rook = 4,
    /// King (玉).
    King = 5,
    /// Promoted pawn (と), moves as a gold.
    ProPawn = 6,
    /// Promoted silver (成銀), moves as a gold.
    ProSilver = 7,
    /// Promoted bishop, horse (馬): bishop plus one orthogonal step.
    Horse = 8,
    /// Promoted rook, dragon (龍): rook plus one diagonal step.
    Dragon = 9,
}

impl PieceKind {
    /// Number of piece kinds.
    pub const COUNT: usize = 10;
    /// All kinds in discriminant order.
    pub const ALL: [PieceKind; 10] = [
        PieceKind::Pawn,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::King,
        PieceKind::ProPawn,
        PieceKind::ProSilver,
        PieceKind::Horse,
        PieceKind::Dragon,
    ];
    /// The kinds that can be held in hand, in the canonical SFEN order (R, B, G, S, P).
    pub const HAND_SFEN_ORDER: [PieceKind; 5] = [
        PieceKind::Rook,
        PieceKind::Bishop,
        PieceKind::Gold,
        PieceKind::Silver,
        PieceKind::Pawn,
    ];
    /// The kinds that can be held in hand, in discriminant order.
    pub const HAND: [PieceKind; 5] = [
        PieceKind::Pawn,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
    ];

    /// Index in `0..10`.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with this index, if any.
    pub const fn from_index(index: usize) -> Option<PieceKind> {
        if index < 10 {
            Some(PieceKind::ALL[index])
        } else {
            None
        }
    }

    /// Whether this kind may be held in hand (and dropped).
    #[inline]
    pub const fn is_hand_kind(self) -> bool {
        (self as u8) < 5
    }

    /// Whether this kind has a promoted form.
    #[inline]
    pub const fn can_promote(self) -> bool {
        matches!(
            self,
            PieceKind::Pawn | PieceKind::Silver | PieceKind::Bishop | PieceKind::Rook
        )
    }

    /// Whether this kind is a promoted piece.
    #[inline]
    pub const fn is_promoted(self) -> bool {
        (self as u8) >= 6
    }

    /// The promoted form; kinds without one are returned unchanged.
    #[inline]
    pub const fn promote(self) -> PieceKind {
        match self {
            PieceKind::Pawn => PieceKind::ProPawn,
            PieceKind::Silver => PieceKind::ProSilver,
            PieceKind::Bishop => PieceKind::Horse,
            PieceKind::Rook => PieceKind::Dragon,
            other => other,
        }
    }

    /// The unpromoted form (what a captured piece becomes in hand).
    #[inline]
    pub const fn unpromote(self) -> PieceKind {
        match self {
            PieceKind::ProPawn => PieceKind::Pawn,
            PieceKind::ProSilver => PieceKind::Silver,
            PieceKind::Horse => PieceKind::Bishop,
            PieceKind::Dragon => PieceKind::Rook,
            other => other,
        }
    }

    /// The uppercase SFEN letter of the unpromoted kind (`P S G B R K`).
    pub const fn base_letter(self) -> char {
        match self.unpromote() {
            PieceKind::Pawn => 'P',
            PieceKind::Silver => 'S',
            PieceKind::Gold => 'G',
            PieceKind::Bishop => 'B',
            PieceKind::Rook => 'R',
            _ => 'K',
        }
    }

    /// The unpromoted kind for an SFEN letter, either case.
    pub const fn from_letter(letter: char) -> Option<PieceKind> {
        match letter.to_ascii_uppercase() {
            'P' => Some(PieceKind::Pawn),
            'S' => Some(PieceKind::Silver),
            'G' => Some(PieceKind::Gold),
            'B' => Some(PieceKind::Bishop),
            'R' => Some(PieceKind::Rook),
            'K' => Some(PieceKind::King),
            _ => None,
        }
    }
}

/// A piece of a given colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The side it belongs to (and fights for; a captured piece changes sides).
    pub color: Color,
    /// What it is, promoted kinds included.
    pub kind: PieceKind,
}

impl Piece {
    /// A piece of `color` and `kind`.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }
}

impl fmt::Display for Piece {
    /// SFEN notation: `+` for promoted pieces, uppercase for Sente.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.kind.is_promoted() {
            f.write_str("+")?;
        }
        let letter = self.kind.base_letter();
        let letter = match self.color {
            Color::Sente => letter,
            Color::Gote => letter.to_ascii_lowercase(),
        };
        write!(f, "{letter}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn promotion_round_trips() {
        for kind in PieceKind::ALL {
            assert_eq!(kind.promote().unpromote(), kind.unpromote());
            assert_eq!(kind.can_promote(), kind.promote() != kind);
            assert_eq!(PieceKind::from_index(kind.index()), Some(kind));
        }
        assert_eq!(PieceKind::from_index(10), None);
    }

    #[test]
    fn display_matches_sfen() {
        assert_eq!(Piece::new(Color::Sente, PieceKind::Horse).to_string(), "+B");
        assert_eq!(
            Piece::new(Color::Gote, PieceKind::ProPawn).to_string(),
            "+p"
        );
        assert_eq!(Piece::new(Color::Gote, PieceKind::King).to_string(), "k");
    }
}
