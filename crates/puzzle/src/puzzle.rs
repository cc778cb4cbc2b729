//! One puzzle, its line in a puzzle file, and the judge of a player's moves.

use crate::theme::{ParseThemeError, Theme};
use gogo_rules::{usi_line, Move, MoveError, Position, SfenError};
use std::fmt;

/// The longest solution a puzzle file may hold, in plies (the player's moves and the replies).
pub const MAX_SOLUTION_PLIES: usize = 31;

/// The longest field a puzzle file may hold; a longer line is refused before it is read.
const MAX_LINE_BYTES: usize = 1024;

/// A puzzle: the side to move in `position` has a win (or the only save) that the solution's
/// first move starts. Its fields are private: every puzzle passed the rules' check, whether
/// it was read from a file ([`str::parse`]) or built ([`Puzzle::new`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    id: String,
    position: Position,
    solution: Vec<Move>,
    themes: Vec<Theme>,
    rating: u16,
    source: String,
}

/// What the judge says of a player's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Right; the opponent's reply follows.
    Right,
    /// Right, and the puzzle is solved.
    Solved,
    /// Not the solution's move.
    Wrong,
}

impl Puzzle {
    /// A puzzle, checked as a line of a file is: an id of letters, digits and `-`; a
    /// solution of odd length up to [`MAX_SOLUTION_PLIES`], each move legal where it is
    /// played; a mate theme only on a line that mates; a source without tabs or line ends
    /// (it is the line's last field).
    pub fn new(
        id: &str,
        position: Position,
        solution: Vec<Move>,
        themes: Vec<Theme>,
        rating: u16,
        source: &str,
    ) -> Result<Puzzle, ParsePuzzleError> {
        if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return Err(ParsePuzzleError::Id);
        }
        if source.contains(['\t', '\n', '\r']) {
            return Err(ParsePuzzleError::Source);
        }
        if solution.len().is_multiple_of(2) || solution.len() > MAX_SOLUTION_PLIES {
            return Err(ParsePuzzleError::SolutionLength(solution.len()));
        }
        let mut pos = position.clone();
        for (ply, &mv) in solution.iter().enumerate() {
            if !pos.is_legal(mv) {
                return Err(ParsePuzzleError::Move {
                    ply,
                    error: MoveError::Illegal(mv),
                });
            }
            pos = pos.played(mv);
        }
        let puzzle = Puzzle {
            id: id.to_string(),
            position,
            solution,
            themes,
            rating,
            source: source.to_string(),
        };
        if puzzle.is_mate() && !pos.legal_moves().is_empty() {
            return Err(ParsePuzzleError::NotMate);
        }
        Ok(puzzle)
    }

    /// The same puzzle at another rating (the generator rates what it found).
    pub fn with_rating(self, rating: u16) -> Puzzle {
        Puzzle { rating, ..self }
    }

    /// Its name in the set (letters, digits, `-`).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The position the player moves in.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The player's moves and the opponent's replies, alternately; it ends with a player's
    /// move, so its length is odd.
    pub fn solution(&self) -> &[Move] {
        &self.solution
    }

    /// What it is about.
    pub fn themes(&self) -> &[Theme] {
        &self.themes
    }

    /// Its rating on the lishogi-like scale of docs/puzzles.md.
    pub fn rating(&self) -> u16 {
        self.rating
    }

    /// Where it came from (a game and ply).
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether this is a mate puzzle (its line ends in checkmate).
    pub fn is_mate(&self) -> bool {
        self.themes.iter().any(|t| t.is_mate())
    }

    /// The judge of the player's move `mv` at `ply` of the solution (0, 2, 4, ...; the
    /// position is the puzzle's with the solution played up to `ply`). At the last move of
    /// a mate puzzle any mating move is right, as lishogi rules.
    pub fn judge(&self, ply: usize, mv: Move) -> Verdict {
        let Some(&expected) = self.solution.get(ply) else {
            return Verdict::Wrong;
        };
        let last = ply + 1 >= self.solution.len();
        if mv == expected {
            return if last {
                Verdict::Solved
            } else {
                Verdict::Right
            };
        }
        if last && self.is_mate() {
            let pos = self.position_at(ply);
            if pos.is_legal(mv) && pos.played(mv).legal_moves().is_empty() {
                return Verdict::Solved;
            }
        }
        Verdict::Wrong
    }

    /// The position after the first `ply` moves of the solution.
    pub fn position_at(&self, ply: usize) -> Position {
        self.solution
            .iter()
            .take(ply)
            .fold(self.position.clone(), |pos, &mv| pos.played(mv))
    }

    /// The puzzle's line in a file: id, SFEN, solution, themes, rating, source, separated by
    /// tabs.
    pub fn to_line(&self) -> String {
        let themes: Vec<String> = self.themes.iter().map(Theme::to_string).collect();
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}",
            self.id,
            self.position.to_sfen(),
            usi_line(&self.solution),
            themes.join(","),
            self.rating,
            self.source
        )
    }
}

/// Why a line of a puzzle file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParsePuzzleError {
    /// Not six tab-separated fields (how many there are).
    Fields(usize),
    /// A line longer than [`MAX_LINE_BYTES`] (its length), refused before it is split.
    LineTooLong(usize),
    /// The id is empty or has other characters than letters, digits and `-`.
    Id,
    /// The SFEN does not read.
    Sfen(SfenError),
    /// A solution move that does not read or is not legal where it is played.
    Move {
        /// Its index in the solution.
        ply: usize,
        /// Why.
        error: MoveError,
    },
    /// An empty solution, one of even length, or one longer than [`MAX_SOLUTION_PLIES`].
    SolutionLength(usize),
    /// A theme word.
    Theme(ParseThemeError),
    /// A mate puzzle whose line does not end in checkmate.
    NotMate,
    /// The rating is not a whole number up to 65535.
    Rating,
    /// A source with a tab or a line end in it.
    Source,
}

impl fmt::Display for ParsePuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParsePuzzleError::Fields(n) => write!(
                f,
                "{n} fields: a puzzle is id, SFEN, solution, themes, rating, source (tab-separated, at most {MAX_LINE_BYTES} bytes)"
            ),
            ParsePuzzleError::LineTooLong(n) => write!(
                f,
                "a line of {n} bytes: a puzzle's line has at most {MAX_LINE_BYTES}"
            ),
            ParsePuzzleError::Id => write!(f, "an id is letters, digits and '-'"),
            ParsePuzzleError::Sfen(e) => write!(f, "SFEN: {e}"),
            ParsePuzzleError::Move { ply, error } => {
                write!(f, "solution move {}: {error}", ply + 1)
            }
            ParsePuzzleError::SolutionLength(n) => write!(
                f,
                "a solution of {n} plies: it ends with the player's move (odd, 1 to {MAX_SOLUTION_PLIES})"
            ),
            ParsePuzzleError::Theme(e) => e.fmt(f),
            ParsePuzzleError::NotMate => write!(f, "a mate theme, but the line does not mate"),
            ParsePuzzleError::Rating => write!(f, "the rating is not a whole number"),
            ParsePuzzleError::Source => write!(f, "a source has no tabs or line ends"),
        }
    }
}

impl std::error::Error for ParsePuzzleError {}

impl std::str::FromStr for Puzzle {
    type Err = ParsePuzzleError;

    /// Reads one line of a puzzle file: the text first, then the rules (every solution move
    /// legal where it is played, a mate theme only on a mating line).
    fn from_str(line: &str) -> Result<Puzzle, ParsePuzzleError> {
        if line.len() > MAX_LINE_BYTES {
            return Err(ParsePuzzleError::LineTooLong(line.len()));
        }
        let fields: Vec<&str> = line.trim_end_matches(['\r', '\n']).split('\t').collect();
        let [id, sfen, solution, themes, rating, source] = fields[..] else {
            return Err(ParsePuzzleError::Fields(fields.len()));
        };
        if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return Err(ParsePuzzleError::Id);
        }
        let themes = themes
            .split(',')
            .filter(|w| !w.is_empty())
            .map(str::parse)
            .collect::<Result<Vec<Theme>, _>>()
            .map_err(ParsePuzzleError::Theme)?;
        let rating: u16 = rating.parse().map_err(|_| ParsePuzzleError::Rating)?;
        let words: Vec<&str> = solution.split_whitespace().collect();
        if words.len().is_multiple_of(2) || words.len() > MAX_SOLUTION_PLIES {
            return Err(ParsePuzzleError::SolutionLength(words.len()));
        }
        let position = Position::from_sfen(sfen).map_err(ParsePuzzleError::Sfen)?;
        let mut pos = position.clone();
        let mut moves = Vec::with_capacity(words.len());
        for (ply, word) in words.iter().enumerate() {
            let mv = pos
                .parse_move(word)
                .map_err(|error| ParsePuzzleError::Move { ply, error })?;
            pos = pos.played(mv);
            moves.push(mv);
        }
        // Every move was read where it is played, so the rules' check of `new` passes
        // them; it checks the rest once, for both roads.
        Puzzle::new(id, position, moves, themes, rating, source)
    }
}

/// Reads a puzzle file: one puzzle a line; empty lines and lines starting with `#` are
/// skipped. The first bad line is refused with its number (from 1).
pub fn read_puzzles(text: &str) -> Result<Vec<Puzzle>, (usize, ParsePuzzleError)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| l.parse().map_err(|e| (i + 1, e)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A gold beside the king's corner and one in hand: G*4b mates (defended by the gold).
    const MATE_IN_1: &str = "p1\tk4/5/2G2/5/4K b G 1\tG*4b\tmate-in-1,drop-mate\t900\ttest";

    #[test]
    fn a_line_reads_and_writes_back() {
        let puzzle: Puzzle = MATE_IN_1.parse().unwrap();
        assert_eq!(puzzle.to_line(), MATE_IN_1);
        assert!(puzzle.is_mate());
        assert_eq!(puzzle.rating, 900);
        assert_eq!(puzzle.themes, [Theme::MateIn1, Theme::DropMate]);
    }

    #[test]
    fn bad_lines_say_why() {
        let bad = |line: &str| line.parse::<Puzzle>().unwrap_err();
        assert_eq!(bad("p1\tk4/5/5/5/4K b - 1"), ParsePuzzleError::Fields(2));
        assert_eq!(bad(&MATE_IN_1.replace("p1", "p 1")), ParsePuzzleError::Id);
        assert!(matches!(
            bad(&MATE_IN_1.replace("G*4b", "1e2e")),
            ParsePuzzleError::NotMate
        ));
        assert!(matches!(
            bad(&MATE_IN_1.replace("G*4b", "S*4a")),
            ParsePuzzleError::Move { ply: 0, .. }
        ));
        assert_eq!(
            bad(&MATE_IN_1.replace("G*4b", "G*4a 5a5b")),
            ParsePuzzleError::SolutionLength(2)
        );
        assert!(matches!(
            bad(&MATE_IN_1.replace("mate-in-1", "mate-in-2")),
            ParsePuzzleError::Theme(_)
        ));
        assert_eq!(
            bad(&MATE_IN_1.replace("900", "-1")),
            ParsePuzzleError::Rating
        );
        assert!(matches!(
            bad(&MATE_IN_1.replace("k4/", "k9/")),
            ParsePuzzleError::Sfen(_)
        ));
        assert_eq!(bad(&"x".repeat(2000)), ParsePuzzleError::LineTooLong(2000));
        let file = format!("# a comment\n\n{MATE_IN_1}\nnonsense\n");
        assert_eq!(read_puzzles(&file).unwrap_err().0, 4);
    }

    #[test]
    fn at_the_last_move_of_a_mate_any_mate_is_right() {
        // Sente's king attacked by nothing; a gold in hand and a rook: several mates in 1.
        let pos = Position::from_sfen("k4/5/1G3/5/4K b RG 1").unwrap();
        let mates: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| pos.played(m).legal_moves().is_empty())
            .collect();
        assert!(mates.len() >= 2, "{}", usi_line(&mates));
        let puzzle = Puzzle {
            id: "m".into(),
            position: pos.clone(),
            solution: vec![mates[0]],
            themes: vec![Theme::MateIn1],
            rating: 1000,
            source: String::new(),
        };
        for &m in &mates {
            assert_eq!(puzzle.judge(0, m), Verdict::Solved);
        }
        let quiet = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|m| !mates.contains(m))
            .unwrap();
        assert_eq!(puzzle.judge(0, quiet), Verdict::Wrong);
        // A tactic's last move is the solution's only.
        let tactic = Puzzle {
            themes: vec![Theme::Material(gogo_rules::PieceKind::Gold)],
            ..puzzle.clone()
        };
        assert_eq!(tactic.judge(0, mates[0]), Verdict::Solved);
        assert_eq!(tactic.judge(0, mates[1]), Verdict::Wrong);
        assert_eq!(puzzle.judge(2, mates[0]), Verdict::Wrong);
    }

    /// A puzzle built, not read, passes the same check: the generator cannot make one the
    /// file could not hold.
    #[test]
    fn a_built_puzzle_is_checked_as_a_read_one() {
        let read: Puzzle = MATE_IN_1.parse().unwrap();
        let pos = read.position().clone();
        let drop = read.solution()[0];
        let build = |id: &str, solution: Vec<Move>, themes: Vec<Theme>, source: &str| {
            Puzzle::new(id, pos.clone(), solution, themes, 900, source)
        };
        let themes = read.themes().to_vec();
        assert_eq!(
            build("p1", vec![drop], themes.clone(), "test"),
            Ok(read.clone())
        );
        assert_eq!(
            build("p 1", vec![drop], themes.clone(), "test"),
            Err(ParsePuzzleError::Id)
        );
        assert_eq!(
            build("p1", vec![drop], themes.clone(), "a\tb"),
            Err(ParsePuzzleError::Source)
        );
        assert_eq!(
            build("p1", vec![], themes.clone(), "test"),
            Err(ParsePuzzleError::SolutionLength(0))
        );
        let not_ours: Move = "5a5b".parse().unwrap();
        assert!(matches!(
            build("p1", vec![not_ours], vec![], "test"),
            Err(ParsePuzzleError::Move {
                ply: 0,
                error: MoveError::Illegal(_)
            })
        ));
        let quiet: Move = "1e1d".parse().unwrap();
        assert_eq!(
            build("p1", vec![quiet], themes, "test"),
            Err(ParsePuzzleError::NotMate)
        );
        let rated = read.clone().with_rating(1234);
        assert_eq!(rated.rating(), 1234);
        assert_eq!(
            rated.to_line(),
            read.to_line().replace("\t900\t", "\t1234\t")
        );
    }
}
