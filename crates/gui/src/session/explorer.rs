//! The opening explorer: the built-in book's moves for the position the page shows, and where
//! the game on the board left the book.

use super::*;
use gogo_book::Book;
use std::collections::HashMap;

/// The most games and positions kept of what a page loads (each load is one game; a page
/// that loads more keeps the first ones).
const MAX_LOADED_GAMES: usize = 1_000;

/// The moves played in each position of the games loaded on a page.
#[derive(Debug, Default)]
pub(super) struct LoadedGames {
    games: usize,
    moves: HashMap<u64, Vec<(Move, u32)>>,
}

impl LoadedGames {
    /// Counts the moves of a loaded game, each position once per game.
    pub(super) fn add(&mut self, start: &Position, moves: &[Move]) {
        if self.games >= MAX_LOADED_GAMES {
            return;
        }
        self.games += 1;
        let mut pos = start.clone();
        let mut seen = std::collections::HashSet::new();
        for &mv in moves {
            if !pos.is_legal(mv) {
                break;
            }
            if seen.insert(pos.key()) {
                let here = self.moves.entry(pos.key()).or_default();
                match here.iter_mut().find(|(m, _)| *m == mv) {
                    Some((_, n)) => *n += 1,
                    None => here.push((mv, 1)),
                }
            }
            pos = pos.played(mv);
        }
    }

    /// The moves played in `pos`, most played first.
    fn at(&self, pos: &Position) -> Vec<(Move, u32)> {
        let mut moves = self.moves.get(&pos.key()).cloned().unwrap_or_default();
        moves.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.bits().cmp(&b.0.bits())));
        moves
    }
}

/// The longest SFEN taken (a 5x5 position is far shorter).
const MAX_SFEN_CHARS: usize = 200;

impl Session {
    /// `Request::Explore`.
    pub(super) fn explore(&self, sfen: &str) -> Vec<Update> {
        if sfen.len() > MAX_SFEN_CHARS {
            return vec![Update::error("explore: an SFEN too long")];
        }
        let pos = match Position::from_sfen(sfen.trim()) {
            Ok(p) => p,
            Err(e) => return vec![Update::error(format!("explore: {e}"))],
        };
        let book = gogo_book::internal();
        let moves = book
            .moves(&pos)
            .into_iter()
            .map(|m| ExplorerMove {
                usi: m.mv.to_string(),
                japanese: japanese(&pos, m.mv, None),
                western: western(&pos, m.mv),
                eval: m.eval,
                depth: m.depth,
                count: m.count,
                wdl: m.wdl,
            })
            .collect();
        let loaded_moves = self
            .loaded
            .at(&pos)
            .into_iter()
            .map(|(mv, count)| LoadedMove {
                usi: mv.to_string(),
                japanese: japanese(&pos, mv, None),
                western: western(&pos, mv),
                count,
            })
            .collect();
        vec![Update::Explorer(Box::new(ExplorerView {
            sfen: sfen.trim().to_string(),
            moves,
            left_book_at: self.left_book_at(&book),
            book_positions: book.len(),
            loaded_moves,
            loaded_games: self.loaded.games,
        }))]
    }

    /// The ply of the game's first move the book does not have, if it started in the book.
    fn left_book_at(&self, book: &Book) -> Option<usize> {
        let positions = self.game.positions();
        if book.moves(&positions[0]).is_empty() {
            return None;
        }
        self.game
            .moves()
            .iter()
            .zip(positions)
            .position(|(&mv, pos)| !book.moves(pos).iter().any(|m| m.mv == mv))
    }
}
