//! What a puzzle is about, detected by the generator from the solution (never set by hand).

use gogo_rules::{Move, PieceKind, Position};
use std::fmt;

/// A puzzle's theme.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Theme {
    /// Mate with one move.
    MateIn1,
    /// Mate in three plies.
    MateIn3,
    /// Mate in five plies.
    MateIn5,
    /// Mate in seven plies or more.
    MateIn7Plus,
    /// The mating move is a drop.
    DropMate,
    /// Every move of the solver gives check (a tsume problem).
    Tsume,
    /// A move of the solution promotes.
    Promotion,
    /// The solution wins material: the most valuable piece kind won (unpromoted).
    Material(PieceKind),
    /// The only move that does not lose.
    Defence,
    /// A won position, no material won yet (the gain comes later).
    Advantage,
    /// Four or more moves for the solver.
    LongLine,
}

/// The piece kinds a material theme names, most valuable first.
const MATERIAL_KINDS: [(PieceKind, &str); 5] = [
    (PieceKind::Rook, "rook"),
    (PieceKind::Bishop, "bishop"),
    (PieceKind::Gold, "gold"),
    (PieceKind::Silver, "silver"),
    (PieceKind::Pawn, "pawn"),
];

impl Theme {
    /// Every theme a player can choose, in the order the board lists them.
    pub const CHOICES: [Theme; 15] = [
        Theme::MateIn1,
        Theme::MateIn3,
        Theme::MateIn5,
        Theme::MateIn7Plus,
        Theme::DropMate,
        Theme::Tsume,
        Theme::Promotion,
        Theme::Material(PieceKind::Rook),
        Theme::Material(PieceKind::Bishop),
        Theme::Material(PieceKind::Gold),
        Theme::Material(PieceKind::Silver),
        Theme::Material(PieceKind::Pawn),
        Theme::Defence,
        Theme::Advantage,
        Theme::LongLine,
    ];

    /// The mate theme for a mate of `plies` plies.
    pub fn mate_in(plies: usize) -> Theme {
        match plies {
            0 | 1 => Theme::MateIn1,
            2 | 3 => Theme::MateIn3,
            4 | 5 => Theme::MateIn5,
            _ => Theme::MateIn7Plus,
        }
    }

    /// Whether this theme is a mate length.
    pub fn is_mate(self) -> bool {
        matches!(
            self,
            Theme::MateIn1 | Theme::MateIn3 | Theme::MateIn5 | Theme::MateIn7Plus
        )
    }

    /// The word a player reads.
    pub fn title(self) -> String {
        match self {
            Theme::MateIn1 => "mate in 1".into(),
            Theme::MateIn3 => "mate in 2 moves".into(),
            Theme::MateIn5 => "mate in 3 moves".into(),
            Theme::MateIn7Plus => "mate in 4 or more".into(),
            Theme::DropMate => "drop mate".into(),
            Theme::Tsume => "tsume (checks only)".into(),
            Theme::Promotion => "promotion".into(),
            Theme::Material(kind) => format!("win a {}", material_word(kind)),
            Theme::Defence => "defence".into(),
            Theme::Advantage => "advantage".into(),
            Theme::LongLine => "long line".into(),
        }
    }
}

fn material_word(kind: PieceKind) -> &'static str {
    MATERIAL_KINDS
        .iter()
        .find(|(k, _)| *k == kind.unpromote())
        .map_or("piece", |(_, word)| word)
}

impl fmt::Display for Theme {
    /// The file's word: `mate-in-1`, `drop-mate`, `material-rook`, ...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Theme::MateIn1 => f.write_str("mate-in-1"),
            Theme::MateIn3 => f.write_str("mate-in-3"),
            Theme::MateIn5 => f.write_str("mate-in-5"),
            Theme::MateIn7Plus => f.write_str("mate-in-7-plus"),
            Theme::DropMate => f.write_str("drop-mate"),
            Theme::Tsume => f.write_str("tsume"),
            Theme::Promotion => f.write_str("promotion"),
            Theme::Material(kind) => write!(f, "material-{}", material_word(*kind)),
            Theme::Defence => f.write_str("defence"),
            Theme::Advantage => f.write_str("advantage"),
            Theme::LongLine => f.write_str("long-line"),
        }
    }
}

/// A theme word that is not one of [`Theme`]'s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseThemeError(pub String);

impl fmt::Display for ParseThemeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown theme '{}'", self.0)
    }
}

impl std::error::Error for ParseThemeError {}

impl std::str::FromStr for Theme {
    type Err = ParseThemeError;

    fn from_str(text: &str) -> Result<Theme, ParseThemeError> {
        Theme::CHOICES
            .into_iter()
            .find(|t| t.to_string() == text)
            .ok_or_else(|| ParseThemeError(text.chars().take(40).collect()))
    }
}

/// What kind of win a puzzle is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PuzzleKind {
    /// Mate in this many plies.
    Mate(usize),
    /// Material won, or a won position.
    Tactic,
    /// The only move that holds.
    Defence,
}

/// A solution of at least this many of the player's moves is a long line.
pub const LONG_LINE_MOVES: usize = 4;

/// The themes a solution of `kind` from `pos` shows: the mate's length, a drop mate, a
/// tsume (every move of the player a check); the most valuable piece won, or an advantage;
/// a defence; a promotion; a long line.
pub fn detect_themes(pos: &Position, solution: &[Move], kind: PuzzleKind) -> Vec<Theme> {
    let player = pos.side_to_move();
    let mut themes = Vec::new();
    let mut p = pos.clone();
    let mut all_checks = true;
    let mut promotes = false;
    // Pieces won (+) and lost (-) by the player, by unpromoted kind.
    let mut won = [0i32; 10];
    for &mv in solution {
        let mover = p.side_to_move();
        if let Some(piece) = p.captured_piece(mv) {
            let sign = if mover == player { 1 } else { -1 };
            won[piece.kind.unpromote().index()] += sign;
        }
        let next = p.played(mv);
        if mover == player {
            all_checks &= next.in_check();
            promotes |= mv.is_promotion();
        }
        p = next;
    }
    let player_moves = solution.len().div_ceil(2);
    match kind {
        PuzzleKind::Mate(n) => {
            themes.push(Theme::mate_in(n));
            if solution.last().is_some_and(|m| m.is_drop()) {
                themes.push(Theme::DropMate);
            }
            if all_checks {
                themes.push(Theme::Tsume);
            }
        }
        PuzzleKind::Tactic => {
            let most_valuable = [
                PieceKind::Rook,
                PieceKind::Bishop,
                PieceKind::Gold,
                PieceKind::Silver,
                PieceKind::Pawn,
            ]
            .into_iter()
            .find(|k| won[k.index()] > 0);
            themes.push(most_valuable.map_or(Theme::Advantage, Theme::Material));
        }
        PuzzleKind::Defence => themes.push(Theme::Defence),
    }
    if promotes {
        themes.push(Theme::Promotion);
    }
    if player_moves >= LONG_LINE_MOVES {
        themes.push(Theme::LongLine);
    }
    themes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_theme_reads_back_from_its_word() {
        for theme in Theme::CHOICES {
            assert_eq!(theme.to_string().parse::<Theme>(), Ok(theme));
            assert!(!theme.title().is_empty());
        }
        assert!("mate-in-2".parse::<Theme>().is_err());
        assert!("".parse::<Theme>().is_err());
        assert_eq!(Theme::mate_in(1), Theme::MateIn1);
        assert_eq!(Theme::mate_in(5), Theme::MateIn5);
        assert_eq!(Theme::mate_in(11), Theme::MateIn7Plus);
        assert_eq!(
            Theme::Material(PieceKind::Dragon).to_string(),
            "material-rook"
        );
    }

    #[test]
    fn themes_are_read_from_the_solution() {
        let pos = Position::from_sfen("k4/5/2G2/5/4K b G 1").unwrap();
        let drop: Move = "G*4b".parse().unwrap();
        assert_eq!(
            detect_themes(&pos, &[drop], PuzzleKind::Mate(1)),
            vec![Theme::mate_in(1), Theme::DropMate, Theme::Tsume]
        );
        assert_eq!(
            detect_themes(&pos, &[drop], PuzzleKind::Defence),
            vec![Theme::Defence]
        );
        assert_eq!(
            detect_themes(&pos, &[drop], PuzzleKind::Tactic),
            vec![Theme::Advantage]
        );
    }
}
