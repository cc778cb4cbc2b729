//! Games read from files (the arena's JSON lines, KIF, CSA), for the puzzle generator and the
//! opening book's builder.

use gogo_rules::{csa, kif, parse_usi_position, Color, Move, Position};
use std::path::Path;

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

/// The most a file of games may be: the arena's JSON lines of a long match.
pub const GAME_FILE: gogo_files::Limit = gogo_files::Limit::new(1 << 30, "a file of games");

/// Reads the games of a file: the arena's JSON lines (`.jsonl`: `start` and `moves` of each
/// line), a KIF (`.kif`, `.kifu`) or a CSA record (`.csa`); a regular file of at most
/// [`GAME_FILE`], read through a bounded reader.
pub fn read_games(path: &Path) -> Result<Vec<SourceGame>, String> {
    let text = gogo_files::read_text(path, GAME_FILE).map_err(|e| e.to_string())?;
    let stem = path
        .file_stem()
        .map_or("game".into(), |s| s.to_string_lossy().into_owned());
    let extension = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let bad = |what: String| format!("{}: {what}", path.display());
    match extension.as_deref() {
        Some("jsonl") => arena_games(&text, &stem).map_err(bad),
        Some("kif") | Some("kifu") => {
            let (start, moves) = kif::read_kif(&text).map_err(|e| bad(e.to_string()))?;
            Ok(vec![SourceGame {
                name: stem,
                start,
                moves,
                result: None,
            }])
        }
        Some("csa") => {
            let (start, moves) = csa::read_csa(&text).map_err(|e| bad(e.to_string()))?;
            Ok(vec![SourceGame {
                name: stem,
                start,
                moves,
                result: None,
            }])
        }
        _ => Err(bad("not a game file (.jsonl, .kif, .kifu or .csa)".into())),
    }
}

/// The games of the arena's JSON lines `text`, named `stem#line`; the first line that is not
/// a game is refused with its number.
pub fn arena_games(text: &str, stem: &str) -> Result<Vec<SourceGame>, String> {
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
                .map_err(|e| format!("line {}: {e}", i + 1))
        })
        .collect()
}

/// A game and its result, as [`SourceGame`] holds them.
type ReadGame = (Position, Vec<Move>, Option<Option<Color>>);

/// One game of the arena's JSON lines: its `start` SFEN and `moves` (USI), read as a USI
/// position so that the rules check every move, and its `result`.
fn arena_game(line: &str) -> Result<ReadGame, String> {
    let value: serde_json::Value =
        serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let start = value["start"].as_str().ok_or("no \"start\"")?;
    let moves: Vec<&str> = value["moves"]
        .as_array()
        .ok_or("no \"moves\"")?
        .iter()
        .map(|m| m.as_str().ok_or("a move that is not text"))
        .collect::<Result<_, _>>()?;
    let text = format!("sfen {start} moves {}", moves.join(" "));
    let (start, moves) = parse_usi_position(&text).map_err(|e| e.to_string())?;
    let result = match value["result"].as_str() {
        Some("1-0") => Some(Some(Color::Sente)),
        Some("0-1") => Some(Some(Color::Gote)),
        Some("1/2-1/2") => Some(None),
        _ => None,
    };
    Ok((start, moves, result))
}
