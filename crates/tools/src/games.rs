//! Games read from files (the arena's JSON lines, KIF, CSA), for the puzzle generator and the
//! opening book's builder.

use gogo_rules::{csa, kif, parse_usi_position, Color, Move, Position, RecordError, SfenError};
use std::fmt;
use std::path::{Path, PathBuf};

/// A game to look through.
#[derive(Clone, Debug)]
pub struct SourceGame {
    /// Its name in a puzzle's source field (file and game).
    pub name: String,
    /// Where it starts.
    pub start: Position,
    /// Its moves.
    pub moves: Vec<Move>,
    /// Its result, where the file says: `Some(Some(winner))`, `Some(None)` for a draw.
    pub result: Option<Option<Color>>,
}

/// Why a file of games was refused.
#[derive(Debug)]
pub enum GameFileError {
    /// It could not be opened or read (the error names the file).
    File(gogo_files::FileError),
    /// Its name ends in none of the extensions of a game file.
    NotAGameFile(PathBuf),
    /// A KIF or CSA record that does not read.
    Record {
        /// The file.
        path: PathBuf,
        /// Why.
        error: RecordError,
    },
    /// A line of the arena's JSON lines that is not a game.
    Line {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// Why.
        problem: GameLineProblem,
    },
}

/// What is wrong with a line of the arena's JSON lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameLineProblem {
    /// Not JSON (the parser's words).
    NotJson(String),
    /// No `start` text.
    NoStart,
    /// No `moves` list.
    NoMoves,
    /// A move that is not text.
    MoveNotText,
    /// The start or a move does not read, or a move is not legal where it is played.
    Position(SfenError),
}

impl fmt::Display for GameLineProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameLineProblem::NotJson(e) => write!(f, "not JSON: {e}"),
            GameLineProblem::NoStart => f.write_str("no \"start\""),
            GameLineProblem::NoMoves => f.write_str("no \"moves\""),
            GameLineProblem::MoveNotText => f.write_str("a move that is not text"),
            GameLineProblem::Position(e) => e.fmt(f),
        }
    }
}

impl fmt::Display for GameFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameFileError::File(e) => e.fmt(f),
            GameFileError::NotAGameFile(path) => write!(
                f,
                "{}: not a game file (.jsonl, .kif, .kifu or .csa)",
                path.display()
            ),
            GameFileError::Record { path, error } => write!(f, "{}: {error}", path.display()),
            GameFileError::Line {
                path,
                line,
                problem,
            } => write!(f, "{}: line {line}: {problem}", path.display()),
        }
    }
}

impl std::error::Error for GameFileError {}

/// The most a file of games may be: the arena's JSON lines of a long match.
pub const GAME_FILE: gogo_files::Limit = gogo_files::Limit::new(1 << 30, "a file of games");

/// Reads the games of a file: the arena's JSON lines (`.jsonl`: `start` and `moves` of each
/// line), a KIF (`.kif`, `.kifu`) or a CSA record (`.csa`); a regular file of at most
/// [`GAME_FILE`], read through a bounded reader.
pub fn read_games(path: &Path) -> Result<Vec<SourceGame>, GameFileError> {
    let text = gogo_files::read_text(path, GAME_FILE).map_err(GameFileError::File)?;
    let stem = path
        .file_stem()
        .map_or("game".into(), |s| s.to_string_lossy().into_owned());
    let extension = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let record = |error| GameFileError::Record {
        path: path.to_path_buf(),
        error,
    };
    match extension.as_deref() {
        Some("jsonl") => arena_games(&text, &stem).map_err(|(line, problem)| GameFileError::Line {
            path: path.to_path_buf(),
            line,
            problem,
        }),
        Some("kif") | Some("kifu") => {
            let (start, moves) = kif::read_kif(&text).map_err(record)?;
            Ok(vec![SourceGame {
                name: stem,
                start,
                moves,
                result: None,
            }])
        }
        Some("csa") => {
            let (start, moves) = csa::read_csa(&text).map_err(record)?;
            Ok(vec![SourceGame {
                name: stem,
                start,
                moves,
                result: None,
            }])
        }
        _ => Err(GameFileError::NotAGameFile(path.to_path_buf())),
    }
}

/// The games of the arena's JSON lines `text`, named `stem#line`; the first line that is not
/// a game is refused with its number (from 1).
pub fn arena_games(text: &str, stem: &str) -> Result<Vec<SourceGame>, (usize, GameLineProblem)> {
    text.lines()
        .enumerate()
        // The run's header (gogo-arena writes one first) is not a game.
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with("{\"header\""))
        .map(|(i, line)| {
            arena_game(line)
                .map(|(start, moves, result)| SourceGame {
                    name: format!("{stem}#{}", i + 1),
                    start,
                    moves,
                    result,
                })
                .map_err(|problem| (i + 1, problem))
        })
        .collect()
}

/// A game and its result, as [`SourceGame`] holds them.
type ReadGame = (Position, Vec<Move>, Option<Option<Color>>);

/// One game of the arena's JSON lines: its `start` SFEN and `moves` (USI), read as a USI
/// position so that the rules check every move, and its `result`.
fn arena_game(line: &str) -> Result<ReadGame, GameLineProblem> {
    let value: serde_json::Value =
        serde_json::from_str(line).map_err(|e| GameLineProblem::NotJson(e.to_string()))?;
    let start = value["start"].as_str().ok_or(GameLineProblem::NoStart)?;
    let moves: Vec<&str> = value["moves"]
        .as_array()
        .ok_or(GameLineProblem::NoMoves)?
        .iter()
        .map(|m| m.as_str().ok_or(GameLineProblem::MoveNotText))
        .collect::<Result<_, _>>()?;
    let text = format!("sfen {start} moves {}", moves.join(" "));
    let (start, moves) = parse_usi_position(&text).map_err(GameLineProblem::Position)?;
    let result = match value["result"].as_str() {
        Some("1-0") => Some(Some(Color::Sente)),
        Some("0-1") => Some(Some(Color::Gote)),
        Some("1/2-1/2") => Some(None),
        _ => None,
    };
    Ok((start, moves, result))
}
