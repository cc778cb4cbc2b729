//! The opening explorer: the built-in book's moves for the position the page shows, and where
//! the game on the board left the book.

use super::*;
use gogo_book::Book;

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
        vec![Update::Explorer(Box::new(ExplorerView {
            sfen: sfen.trim().to_string(),
            moves,
            left_book_at: self.left_book_at(&book),
            book_positions: book.len(),
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
