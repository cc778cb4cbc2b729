//! The position: pieces, hands, side to move, with attack information and hash keys kept
//! up to date by [`Position::play`].
//!
//! Moves are made by copy-make: a `Position` is 120 bytes, so copying it is cheaper than
//! recording and replaying an undo record, and "unmaking" is dropping the copy. (At most 128
//! bytes the compiler copies it inline; the board is one byte a square for that.)

use crate::attacks::{
    attacks, between, bishop_attacks, bishop_pseudo_attacks, gold_attacks, king_attacks,
    pawn_attacks, rook_attacks, rook_pseudo_attacks, silver_attacks,
};
use crate::bitboard::Bitboard;
use crate::error::PositionError;
use crate::hand::Hand;
use crate::moves::{Move, MoveKind};
use crate::piece::{Color, Piece, PieceKind};
use crate::square::Square;
use crate::zobrist;

/// A square's content in one byte: 0 when empty, else 1 + the kind's index, plus 16 for
/// Gote.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Cell(u8);

impl Cell {
    const EMPTY: Cell = Cell(0);

    #[inline]
    fn new(piece: Option<Piece>) -> Cell {
        match piece {
            None => Cell::EMPTY,
            Some(p) => Cell(1 + p.kind.index() as u8 + 16 * p.color.index() as u8),
        }
    }

    #[inline]
    fn piece(self) -> Option<Piece> {
        if self.0 == 0 {
            return None;
        }
        Some(Piece::new(
            Color::ALL[usize::from(self.0 >= 16)],
            PieceKind::ALL[usize::from(self.0 & 15) - 1],
        ))
    }

    #[inline]
    fn is_some(self) -> bool {
        self.0 != 0
    }
}

impl std::fmt::Debug for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.piece().fmt(f)
    }
}

/// A legal minishogi position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    board: [Cell; 25],
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; 10],
    hands: [Hand; 2],
    side: Color,
    move_number: u32,
    kings: [Square; 2],
    board_key: u64,
    hand_key: u64,
    checkers: Bitboard,
    pinned: Bitboard,
}

/// The largest move number an SFEN may give (a record of a real game is far shorter); a
/// position built with a larger one starts from this, and playing on never wraps.
pub const MAX_MOVE_NUMBER: u32 = 1_000_000;

/// The promotion zone of `color`: its far rank.
#[inline]
pub fn promotion_zone(color: Color) -> Bitboard {
    match color {
        Color::Sente => Bitboard::row(0),
        Color::Gote => Bitboard::row(4),
    }
}

impl Position {
    /// Builds a position from its parts and checks that the rules allow it.
    pub fn from_parts(
        board: [Option<Piece>; 25],
        hands: [Hand; 2],
        side: Color,
        move_number: u32,
    ) -> Result<Position, PositionError> {
        let mut kings: [Option<Square>; 2] = [None, None];
        let mut base_counts = [0usize; 6];
        let mut pawn_files = [[false; 5]; 2];
        for sq in Square::all() {
            let Some(piece) = board[sq.index()] else {
                continue;
            };
            let c = piece.color;
            base_counts[piece.kind.unpromote().index()] += 1;
            match piece.kind {
                PieceKind::King if kings[c.index()].replace(sq).is_some() => {
                    return Err(PositionError::ExtraKing(c));
                }
                PieceKind::Pawn => {
                    if promotion_zone(c).contains(sq) {
                        return Err(PositionError::PawnOnLastRank {
                            color: c,
                            square: sq,
                        });
                    }
                    if std::mem::replace(&mut pawn_files[c.index()][sq.column() as usize], true) {
                        return Err(PositionError::TwoPawnsOnFile {
                            color: c,
                            file: sq.file(),
                        });
                    }
                }
                _ => {}
            }
        }
        for kind in PieceKind::HAND {
            let count = base_counts[kind.index()]
                + hands.iter().map(|h| h.count(kind) as usize).sum::<usize>();
            if count > 2 {
                return Err(PositionError::TooManyPieces { kind, count });
            }
        }
        let sente_king = kings[0].ok_or(PositionError::MissingKing(Color::Sente))?;
        let gote_king = kings[1].ok_or(PositionError::MissingKing(Color::Gote))?;

        let mut pos = Position {
            board: board.map(Cell::new),
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 10],
            hands,
            side,
            move_number: move_number.clamp(1, MAX_MOVE_NUMBER),
            kings: [sente_king, gote_king],
            board_key: 0,
            hand_key: 0,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
        };
        for sq in Square::all() {
            if let Some(p) = board[sq.index()] {
                pos.by_color[p.color.index()] |= Bitboard::from_square(sq);
                pos.by_kind[p.kind.index()] |= Bitboard::from_square(sq);
            }
        }
        (pos.board_key, pos.hand_key) = pos.compute_keys();
        let them = !side;
        if !pos
            .attackers_to(pos.king_square(them), side, pos.occupied())
            .is_empty()
        {
            return Err(PositionError::OpponentInCheck);
        }
        pos.update_check_info();
        Ok(pos)
    }

    /// The standard start position, `rbsgk/4p/5/P4/KGSBR b - 1`.
    pub fn startpos() -> Position {
        Position::from_sfen(crate::sfen::STANDARD_START).expect("the start position is valid")
    }

    /// Board key and hand key computed from scratch (the incremental ones must equal these).
    pub fn compute_keys(&self) -> (u64, u64) {
        let mut board_key = 0;
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()].piece() {
                board_key ^= zobrist::piece_key(p.color, p.kind, sq);
            }
        }
        if self.side == Color::Gote {
            board_key ^= zobrist::side_key();
        }
        let mut hand_key = 0;
        for color in Color::ALL {
            for kind in PieceKind::HAND {
                hand_key ^= zobrist::hand_key(color, kind, self.hands[color.index()].count(kind));
            }
        }
        (board_key, hand_key)
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()].piece()
    }

    /// The whole board, indexed by square index.
    pub fn board(&self) -> [Option<Piece>; 25] {
        self.board.map(Cell::piece)
    }

    /// The hand of `color`.
    #[inline]
    pub fn hand(&self, color: Color) -> &Hand {
        &self.hands[color.index()]
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The SFEN move number: 1 at the start, one more after each move.
    #[inline]
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// Squares occupied by `color`.
    #[inline]
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Squares occupied by pieces of `color` and `kind`.
    #[inline]
    pub fn pieces_of(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_color[color.index()] & self.by_kind[kind.index()]
    }

    /// Squares occupied by pieces of `kind`, both colours.
    #[inline]
    pub fn pieces_of_kind(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The square of `color`'s king.
    #[inline]
    pub fn king_square(&self, color: Color) -> Square {
        self.kings[color.index()]
    }

    /// Pieces of the side not to move that attack the king of the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        !self.checkers.is_empty()
    }

    /// Pieces of the side to move pinned to their own king.
    #[inline]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    /// The full Zobrist key: board, side to move and hands. Equal keys mean the same
    /// position in the sense of the repetition rules.
    #[inline]
    pub fn key(&self) -> u64 {
        self.board_key ^ self.hand_key
    }

    /// The key of the pieces on the board and the side to move, hands left out.
    #[inline]
    pub fn board_key(&self) -> u64 {
        self.board_key
    }

    /// The key of both hands.
    #[inline]
    pub fn hand_key(&self) -> u64 {
        self.hand_key
    }

    /// Pieces of `color` attacking `sq`, with `occupied` as the blockers for sliders.
    #[inline]
    pub fn attackers_to(&self, sq: Square, color: Color, occupied: Bitboard) -> Bitboard {
        // A piece of `color` on `s` attacks `sq` exactly when a piece of the other colour on
        // `sq` would attack `s`: every pattern is point-symmetric between the colours.
        let them = !color;
        let k = &self.by_kind;
        let golds = k[PieceKind::Gold.index()]
            | k[PieceKind::ProPawn.index()]
            | k[PieceKind::ProSilver.index()];
        let kings =
            k[PieceKind::King.index()] | k[PieceKind::Horse.index()] | k[PieceKind::Dragon.index()];
        let diagonal = k[PieceKind::Bishop.index()] | k[PieceKind::Horse.index()];
        let orthogonal = k[PieceKind::Rook.index()] | k[PieceKind::Dragon.index()];
        let attackers = (pawn_attacks(them, sq) & k[PieceKind::Pawn.index()])
            | (silver_attacks(them, sq) & k[PieceKind::Silver.index()])
            | (gold_attacks(them, sq) & golds)
            | (king_attacks(sq) & kings)
            | (bishop_attacks(sq, occupied) & diagonal)
            | (rook_attacks(sq, occupied) & orthogonal);
        attackers & self.by_color[color.index()]
    }

    /// Every square attacked by a piece of `color`, with `occupied` as the blockers.
    pub fn attacked_squares(&self, color: Color, occupied: Bitboard) -> Bitboard {
        let k = &self.by_kind;
        let own = self.by_color[color.index()];
        let mine = |kind: PieceKind| k[kind.index()] & own;
        let pawns = mine(PieceKind::Pawn).0;
        let mut attacked = Bitboard(match color {
            Color::Sente => pawns >> 5,
            Color::Gote => pawns << 5,
        });
        for sq in mine(PieceKind::Silver) {
            attacked |= silver_attacks(color, sq);
        }
        for sq in mine(PieceKind::Gold) | mine(PieceKind::ProPawn) | mine(PieceKind::ProSilver) {
            attacked |= gold_attacks(color, sq);
        }
        for sq in mine(PieceKind::King) | mine(PieceKind::Horse) | mine(PieceKind::Dragon) {
            attacked |= king_attacks(sq);
        }
        for sq in mine(PieceKind::Bishop) | mine(PieceKind::Horse) {
            attacked |= bishop_attacks(sq, occupied);
        }
        for sq in mine(PieceKind::Rook) | mine(PieceKind::Dragon) {
            attacked |= rook_attacks(sq, occupied);
        }
        attacked
    }

    /// Whether `mv` captures a piece. `mv` must be pseudo-legal here.
    #[inline]
    pub fn is_capture(&self, mv: Move) -> bool {
        !mv.is_drop() && self.board[mv.to().index()].is_some()
    }

    /// The piece `mv` captures, if any.
    #[inline]
    pub fn captured_piece(&self, mv: Move) -> Option<Piece> {
        if mv.is_drop() {
            None
        } else {
            self.board[mv.to().index()].piece()
        }
    }

    /// The kind of the piece that `mv` moves or drops (before promotion).
    #[inline]
    pub fn moved_kind(&self, mv: Move) -> Option<PieceKind> {
        match mv.kind() {
            MoveKind::Drop { kind, .. } => Some(kind),
            MoveKind::Board { from, .. } => self.board[from.index()].piece().map(|p| p.kind),
        }
    }

    #[inline]
    fn put(&mut self, piece: Piece, sq: Square) {
        self.board[sq.index()] = Cell::new(Some(piece));
        self.by_color[piece.color.index()] ^= Bitboard::from_square(sq);
        self.by_kind[piece.kind.index()] ^= Bitboard::from_square(sq);
        self.board_key ^= zobrist::piece_key(piece.color, piece.kind, sq);
    }

    #[inline]
    fn take(&mut self, sq: Square) -> Piece {
        let piece = self.board[sq.index()].piece().expect("a piece is there");
        self.board[sq.index()] = Cell::EMPTY;
        self.by_color[piece.color.index()] ^= Bitboard::from_square(sq);
        self.by_kind[piece.kind.index()] ^= Bitboard::from_square(sq);
        self.board_key ^= zobrist::piece_key(piece.color, piece.kind, sq);
        piece
    }

    #[inline]
    fn change_hand(&mut self, color: Color, kind: PieceKind, add: bool) {
        let hand = &mut self.hands[color.index()];
        let before = hand.count(kind);
        if add {
            hand.add(kind);
        } else {
            hand.remove(kind);
        }
        let after = hand.count(kind);
        self.hand_key ^=
            zobrist::hand_key(color, kind, before) ^ zobrist::hand_key(color, kind, after);
    }

    /// Plays `mv`, which must be legal (see [`Position::is_legal`]); playing an illegal move
    /// leaves a position that breaks the rules.
    pub fn play(&mut self, mv: Move) {
        let us = self.side;
        match mv.kind() {
            MoveKind::Drop { kind, to } => {
                self.change_hand(us, kind, false);
                self.put(Piece::new(us, kind), to);
            }
            MoveKind::Board { from, to, promote } => {
                let mut piece = self.take(from);
                if self.board[to.index()].is_some() {
                    let captured = self.take(to);
                    self.change_hand(us, captured.kind.unpromote(), true);
                }
                if promote {
                    piece.kind = piece.kind.promote();
                }
                if piece.kind == PieceKind::King {
                    self.kings[us.index()] = to;
                }
                self.put(piece, to);
            }
        }
        self.side = !us;
        self.board_key ^= zobrist::side_key();
        self.move_number = self.move_number.saturating_add(1);
        self.update_check_info();
    }

    /// The key of the position after `mv` (legal), without playing it: the search asks for
    /// the child's hash entry before it builds the child.
    pub fn key_after(&self, mv: Move) -> u64 {
        let us = self.side;
        let mut board_key = self.board_key ^ zobrist::side_key();
        let mut hand_key = self.hand_key;
        let hand_change = |kind: PieceKind, count: u8, added: bool| {
            let after = if added {
                count.saturating_add(1)
            } else {
                count.saturating_sub(1)
            };
            zobrist::hand_key(us, kind, count) ^ zobrist::hand_key(us, kind, after)
        };
        match mv.kind() {
            MoveKind::Drop { kind, to } => {
                hand_key ^= hand_change(kind, self.hands[us.index()].count(kind), false);
                board_key ^= zobrist::piece_key(us, kind, to);
            }
            MoveKind::Board { from, to, promote } => {
                let Some(piece) = self.board[from.index()].piece() else {
                    return board_key ^ hand_key;
                };
                board_key ^= zobrist::piece_key(us, piece.kind, from);
                if let Some(captured) = self.board[to.index()].piece() {
                    board_key ^= zobrist::piece_key(captured.color, captured.kind, to);
                    let kind = captured.kind.unpromote();
                    hand_key ^= hand_change(kind, self.hands[us.index()].count(kind), true);
                }
                let kind = if promote {
                    piece.kind.promote()
                } else {
                    piece.kind
                };
                board_key ^= zobrist::piece_key(us, kind, to);
            }
        }
        board_key ^ hand_key
    }

    /// A copy with `mv` (legal) played.
    #[inline]
    pub fn played(&self, mv: Move) -> Position {
        let mut next = self.clone();
        next.play(mv);
        next
    }

    /// Passes the move to the other side (for null-move search). The side to move must not
    /// be in check.
    pub fn play_null(&mut self) {
        debug_assert!(!self.in_check());
        self.side = !self.side;
        self.board_key ^= zobrist::side_key();
        self.move_number = self.move_number.saturating_add(1);
        self.update_check_info();
    }

    fn update_check_info(&mut self) {
        let us = self.side;
        let them = !us;
        let king = self.kings[us.index()];
        let occupied = self.occupied();
        self.checkers = self.attackers_to(king, them, occupied);
        let k = &self.by_kind;
        let snipers = ((rook_pseudo_attacks(king)
            & (k[PieceKind::Rook.index()] | k[PieceKind::Dragon.index()]))
            | (bishop_pseudo_attacks(king)
                & (k[PieceKind::Bishop.index()] | k[PieceKind::Horse.index()])))
            & self.by_color[them.index()];
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & occupied;
            if !blockers.has_more_than_one() {
                pinned |= blockers & self.by_color[us.index()];
            }
        }
        self.pinned = pinned;
    }

    /// Squares attacked by the piece on `sq`, given the current occupancy.
    pub fn attacks_from(&self, sq: Square) -> Bitboard {
        match self.board[sq.index()].piece() {
            Some(p) => attacks(p.color, p.kind, sq, self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// A human-readable board diagram (Gote at the top), with hands.
    pub fn pretty(&self) -> String {
        let mut out = String::new();
        out.push_str("  5  4  3  2  1\n");
        for row in 0..5u8 {
            out.push(' ');
            for col in 0..5u8 {
                let sq = Square::from_row_col(row, col).expect("on the board");
                match self.board[sq.index()].piece() {
                    Some(p) => {
                        let text = p.to_string();
                        out.push_str(&format!("{text:>3}"));
                    }
                    None => out.push_str("  ."),
                }
            }
            out.push_str(&format!(" {}\n", (b'a' + row) as char));
        }
        out
    }
}
