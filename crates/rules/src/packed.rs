//! [`PackedPosition`]: a position in 24 bytes, for tables that hold millions of them (an
//! opening book), as YaneuraOu's PackedSfen does for shogi.

use crate::{Color, Hand, Piece, PieceKind, Position, Square};

/// A position in 24 bytes: each of the 25 squares in 5 bits (empty, or colour and kind),
/// each hand's counts in 2 bits a kind, the side to move, and the move number. Made only from
/// a [`Position`], so it always unpacks to one the rules allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PackedPosition {
    /// The board's 125 bits, low half first (two halves: a `u128` would align the whole to
    /// 16 bytes and make it 32).
    board: [u64; 2],
    /// Sente's hand in bits 0-9, Gote's in 10-19 (2 bits a kind, in [`PieceKind::HAND`]
    /// order), the side to move in bit 20.
    hands_and_side: u32,
    move_number: u32,
}

/// Bits a square takes.
const SQUARE_BITS: u32 = 5;

/// A square's code: 0 empty, else 1 + colour × 10 + kind.
fn code(piece: Option<Piece>) -> u128 {
    piece.map_or(0, |p| {
        1 + (p.color.index() * PieceKind::COUNT + p.kind.index()) as u128
    })
}

fn piece(code: u128) -> Option<Piece> {
    let index = usize::try_from(code).ok()?.checked_sub(1)?;
    let color = Color::ALL[index / PieceKind::COUNT];
    Some(Piece::new(
        color,
        PieceKind::from_index(index % PieceKind::COUNT)?,
    ))
}

impl PackedPosition {
    /// `pos`, packed.
    pub fn pack(pos: &Position) -> PackedPosition {
        let mut board = 0u128;
        for sq in Square::all() {
            board |= code(pos.piece_at(sq)) << (sq.index() as u32 * SQUARE_BITS);
        }
        let mut hands_and_side = 0u32;
        for color in Color::ALL {
            for (i, kind) in PieceKind::HAND.into_iter().enumerate() {
                let count = u32::from(pos.hand(color).count(kind));
                hands_and_side |= count << (color.index() * 10 + i * 2);
            }
        }
        if pos.side_to_move() == Color::Gote {
            hands_and_side |= 1 << 20;
        }
        PackedPosition {
            board: [board as u64, (board >> 64) as u64],
            hands_and_side,
            move_number: pos.move_number(),
        }
    }

    /// The position again, as it was packed (its key and move number included).
    pub fn unpack(&self) -> Position {
        let bits = u128::from(self.board[0]) | (u128::from(self.board[1]) << 64);
        let mut board = [None; 25];
        for (i, cell) in board.iter_mut().enumerate() {
            *cell = piece((bits >> (i as u32 * SQUARE_BITS)) & 0x1f);
        }
        let mut hands = [Hand::EMPTY; 2];
        for color in Color::ALL {
            for (i, kind) in PieceKind::HAND.into_iter().enumerate() {
                let count = (self.hands_and_side >> (color.index() * 10 + i * 2)) & 3;
                for _ in 0..count {
                    let hand = &mut hands[color.index()];
                    *hand = hand.with(kind).unwrap_or(*hand);
                }
            }
        }
        let side = if self.hands_and_side & (1 << 20) != 0 {
            Color::Gote
        } else {
            Color::Sente
        };
        Position::from_parts(board, hands, side, self.move_number)
            .expect("a packed position was made from one the rules allow")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rng;

    #[test]
    fn positions_unpack_as_they_were_packed() {
        assert_eq!(std::mem::size_of::<PackedPosition>(), 24);
        let mut rng = Rng::new(7);
        let mut seen = 0;
        for _ in 0..200 {
            let mut pos = Position::startpos();
            for mv in rng.random_game(&Position::startpos(), 80) {
                let again = PackedPosition::pack(&pos).unpack();
                assert_eq!(again, pos, "{}", pos.to_sfen());
                assert_eq!(again.key(), pos.key());
                assert_eq!(again.to_sfen(), pos.to_sfen());
                pos = pos.played(mv);
                seen += 1;
            }
        }
        assert!(seen > 1_000, "{seen}");
        // Full hands (two of each kind on one side) and Gote to move.
        let full = Position::from_sfen("k4/5/5/5/4K w 2R2B2G2S2P 77").unwrap();
        assert_eq!(
            PackedPosition::pack(&full).unpack().to_sfen(),
            full.to_sfen()
        );
    }
}
