//! Where the generator finds positions: game files (the arena's JSON lines, KIF, CSA) or
//! gogo's own self-play.

use super::Analyst;
use gogo_rules::{csa, kif, parse_usi_position, Move, Position, Rng};
use std::path::Path;

/// A self-play game longer than this is cut (the rest is repetition).
const MAX_SELF_PLAY_PLIES: usize = 200;

/// A game to look through.
#[derive(Clone, Debug)]
pub struct SourceGame {
    /// Its name in a puzzle's source field (file and game).
    pub name: String,
    /// Where it starts.
    pub start: Position,
    /// Its moves.
    pub moves: Vec<Move>,
}

/// Reads the games of a file: the arena's JSON lines (`.jsonl`: `start` and `moves` of each
/// line), a KIF (`.kif`, `.kifu`) or a CSA record (`.csa`).
pub fn read_games(path: &Path) -> Result<Vec<SourceGame>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let stem = path
        .file_stem()
        .map_or("game".into(), |s| s.to_string_lossy().into_owned());
    let extension = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let bad = |what: String| format!("{}: {what}", path.display());
    match extension.as_deref() {
        Some("jsonl") => text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, line)| {
                arena_game(line)
                    .map(|(start, moves)| SourceGame {
                        name: format!("{stem}#{}", i + 1),
                        start,
                        moves,
                    })
                    .map_err(|e| bad(format!("line {}: {e}", i + 1)))
            })
            .collect(),
        Some("kif") | Some("kifu") => {
            let (start, moves) = kif::read_kif(&text).map_err(|e| bad(e.to_string()))?;
            Ok(vec![SourceGame {
                name: stem,
                start,
                moves,
            }])
        }
        Some("csa") => {
            let (start, moves) = csa::read_csa(&text).map_err(|e| bad(e.to_string()))?;
            Ok(vec![SourceGame {
                name: stem,
                start,
                moves,
            }])
        }
        _ => Err(bad("not a game file (.jsonl, .kif, .kifu or .csa)".into())),
    }
}

/// One game of the arena's JSON lines: its `start` SFEN and `moves` (USI), read as a USI
/// position so that the rules check every move.
fn arena_game(line: &str) -> Result<(Position, Vec<Move>), String> {
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
    parse_usi_position(&text).map_err(|e| e.to_string())
}

/// A game of gogo against itself named `name`, each side at a level from 4 to 9 (their
/// mistakes make the tactics), from the start position with two random plies first; seeded.
pub fn self_play_game(analyst: &mut Analyst, seed: u64, name: String) -> SourceGame {
    let mut rng = Rng::new(seed);
    let start = Position::startpos();
    let mut moves = rng.random_game(&start, 2);
    let mut game = gogo_rules::Game::new(gogo_rules::RuleSet::standard());
    for &mv in &moves {
        let _ = game.play(mv);
    }
    let levels = [4 + rng.below(6) as u8, 4 + rng.below(6) as u8];
    while game.outcome().is_none() && moves.len() < MAX_SELF_PLAY_PLIES {
        let side = game.position().side_to_move().index();
        let level_seed = rng.next_u64();
        let Some(mv) = analyst.level_move(game.position(), levels[side], level_seed) else {
            break;
        };
        if game.play(mv).is_err() {
            break;
        }
        moves.push(mv);
    }
    SourceGame { name, start, moves }
}
