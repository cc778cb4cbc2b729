//! Legal move generation, legality of a single move, and the narrower generators the search
//! uses (captures and promotions; check evasions).

use crate::attacks::{
    attacks, between, bishop_attacks, bishop_pseudo_attacks, gold_attacks, king_attacks, line,
    pawn_attacks, rook_attacks, rook_pseudo_attacks, silver_attacks,
};
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind, MoveList};
use crate::piece::{Color, PieceKind};
use crate::position::{promotion_zone, Position};
use crate::square::Square;

impl Position {
    /// Appends every legal move.
    pub fn generate_legal(&self, list: &mut MoveList) {
        self.generate::<false>(list);
    }

    /// Appends every legal move that captures or promotes (drops never do).
    pub fn generate_noisy(&self, list: &mut MoveList) {
        self.generate::<true>(list);
    }

    /// Appends every legal move of a side in check (nothing when not in check). Generation
    /// is already restricted to king moves, captures of the checker and interpositions.
    pub fn generate_evasions(&self, list: &mut MoveList) {
        if self.in_check() {
            self.generate::<false>(list);
        }
    }

    /// Appends every legal move that gives check: direct checks by the moved or dropped
    /// piece and discovered checks by a slider behind it. The attacker's moves in a mate
    /// search, and the quiet checks of quiescence.
    ///
    /// Generated directly, since a mate search asks at nearly every node: drops only on the
    /// squares from which the dropped piece attacks the king, board moves only to such
    /// squares (for the piece as it is after the move) or off the line they alone block.
    /// A side that is itself in check filters its evasions instead.
    pub fn generate_checks(&self, list: &mut MoveList) {
        let uncoverers = self.check_uncoverers();
        if self.in_check() {
            let mut evasions = MoveList::new();
            self.generate::<false>(&mut evasions);
            for &mv in evasions.iter() {
                if self.gives_check_with(mv, uncoverers) {
                    list.push(mv);
                }
            }
            return;
        }
        let us = self.side_to_move();
        let them = !us;
        let their_king = self.king_square(them);
        let our_king = self.king_square(us);
        let own = self.pieces(us);
        let occupied = self.occupied();
        let zone = promotion_zone(us);
        let pinned = self.pinned();

        // 1. Board moves. A piece of ours on `to` attacks the king exactly when a piece of
        //    theirs on the king's square would attack `to`, with the moving piece gone from
        //    its square (a slider it unblocks sees further); discovered checks leave the line
        //    between the king and one of our sliders.
        //    In the order of the full generator (kind by kind, pinned pieces last), so that
        //    this list is that one's filtered by `gives_check`.
        const ORDER: [PieceKind; 8] = [
            PieceKind::King,
            PieceKind::Pawn,
            PieceKind::Silver,
            PieceKind::Bishop,
            PieceKind::Rook,
            PieceKind::Gold,
            PieceKind::Horse,
            PieceKind::Dragon,
        ];
        let free = own & !pinned;
        let golds =
            self.pieces_of(us, PieceKind::ProPawn) | self.pieces_of(us, PieceKind::ProSilver);
        let pieces = ORDER
            .iter()
            .flat_map(|&kind| {
                let mut of_kind = self.pieces_of(us, kind);
                if kind == PieceKind::Gold {
                    of_kind |= golds;
                }
                of_kind & free
            })
            .chain(pinned & own);
        for from in pieces {
            let kind = self.piece_at(from).expect("own piece").kind;
            if kind == PieceKind::King && !uncoverers.contains(from) {
                // A king checks only by uncovering a slider.
                continue;
            }
            let mut targets = attacks(us, kind, from, occupied) & !own;
            if kind == PieceKind::King {
                targets &= !self.attacked_squares(them, occupied.without(from));
            } else if pinned.contains(from) {
                targets &= line(our_king, from);
            }
            if targets.is_empty() {
                continue;
            }
            let discovered = if uncoverers.contains(from) {
                !line(their_king, from)
            } else {
                Bitboard::EMPTY
            };
            let vacated = occupied.without(from);
            let checking = |kind: PieceKind| {
                if kind == PieceKind::King {
                    discovered
                } else {
                    attacks(them, kind, their_king, vacated) | discovered
                }
            };
            if kind.can_promote() {
                let promoting = if zone.contains(from) {
                    targets
                } else {
                    targets & zone
                };
                for to in promoting & checking(kind.promote()) {
                    list.push(Move::board(from, to, true));
                }
                // A pawn reaching the far rank must promote.
                let plain = if kind == PieceKind::Pawn {
                    targets & !zone
                } else {
                    targets
                };
                for to in plain & checking(kind) {
                    list.push(Move::board(from, to, false));
                }
            } else {
                for to in targets & checking(kind) {
                    list.push(Move::board(from, to, false));
                }
            }
        }

        // 2. Drops on the empty squares from which the piece attacks the king (a pawn's by
        //    the pawn-drop rules, the mating drop excluded).
        let empty = !occupied;
        self.push_drops(list, |kind| {
            attacks(them, kind, their_king, occupied) & empty
        });
    }

    /// Appends the drops of every kind in hand on `squares(kind)` (empty squares), a pawn's
    /// narrowed by the pawn-drop rules.
    fn push_drops(&self, list: &mut MoveList, squares: impl Fn(PieceKind) -> Bitboard) {
        for kind in self.hand(self.side_to_move()).kinds() {
            let targets = if kind == PieceKind::Pawn {
                self.pawn_drop_targets(squares(kind))
            } else {
                squares(kind)
            };
            for to in targets {
                list.push(Move::drop(kind, to));
            }
        }
    }

    /// Whether the legal move `mv` puts the enemy king in check, answered without playing
    /// it.
    pub fn gives_check(&self, mv: Move) -> bool {
        self.gives_check_with(mv, self.check_uncoverers())
    }

    /// The pieces of the side to move that alone stand between one of its sliders and the
    /// enemy king: moving one off that line uncovers a check.
    fn check_uncoverers(&self) -> Bitboard {
        let us = self.side_to_move();
        let king = self.king_square(!us);
        let occupied = self.occupied();
        let orthogonal =
            self.pieces_of(us, PieceKind::Rook) | self.pieces_of(us, PieceKind::Dragon);
        let diagonal = self.pieces_of(us, PieceKind::Bishop) | self.pieces_of(us, PieceKind::Horse);
        let snipers =
            (rook_pseudo_attacks(king) & orthogonal) | (bishop_pseudo_attacks(king) & diagonal);
        let mut uncoverers = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & occupied;
            if !blockers.is_empty()
                && !blockers.has_more_than_one()
                && (blockers & self.pieces(us)) == blockers
            {
                uncoverers |= blockers;
            }
        }
        uncoverers
    }

    /// [`Position::gives_check`] with the uncoverers computed once for all the moves of a
    /// position.
    fn gives_check_with(&self, mv: Move, uncoverers: Bitboard) -> bool {
        let us = self.side_to_move();
        let them = !us;
        let king = self.king_square(them);
        match mv.kind() {
            // A piece of ours on `to` attacks the king exactly when a piece of theirs on the
            // king's square would attack `to`; a drop uncovers nothing.
            MoveKind::Drop { kind, to } => attacks(them, kind, king, self.occupied()).contains(to),
            MoveKind::Board { from, to, promote } => {
                let Some(piece) = self.piece_at(from) else {
                    return false;
                };
                let kind = if promote {
                    piece.kind.promote()
                } else {
                    piece.kind
                };
                let occupied = self.occupied().without(from).with(to);
                if kind != PieceKind::King && attacks(them, kind, king, occupied).contains(to) {
                    return true;
                }
                // Discovered: the piece leaves the line on which it alone blocked one of our
                // sliders. (Along that line it still blocks: it cannot pass the king.)
                uncoverers.contains(from) && !line(king, from).contains(to)
            }
        }
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        list
    }

    /// Whether the side to move has any legal move. Asked after every check in a mate
    /// search, so the usual escapes are tried before generating everything: a king step (to a
    /// square outside everything the enemy attacks, found in one pass over its pieces),
    /// then (in single check) a capture of the checker by an unpinned piece, then a drop
    /// between (any piece but a pawn, whose drop has rules of its own).
    pub fn has_legal_move(&self) -> bool {
        let us = self.side_to_move();
        let them = !us;
        let king = self.king_square(us);
        let occupied = self.occupied();
        let king_gone = occupied.without(king);
        let steps = king_attacks(king) & !self.pieces(us);
        if !steps.is_empty() && !(steps & !self.attacked_squares(them, king_gone)).is_empty() {
            return true;
        }
        let checkers = self.checkers();
        if checkers.has_more_than_one() {
            return false;
        }
        if let Some(checker) = checkers.first() {
            let capturers = self.attackers_to(checker, us, occupied).without(king) & !self.pinned();
            if !capturers.is_empty() {
                return true;
            }
            let non_pawn_in_hand = self.hand(us).kinds().any(|kind| kind != PieceKind::Pawn);
            if non_pawn_in_hand && !between(king, checker).is_empty() {
                return true;
            }
        }
        !self.legal_moves().is_empty()
    }

    /// Whether `mv` is legal here. Agrees with [`Position::generate_legal`] for every move.
    pub fn is_legal(&self, mv: Move) -> bool {
        let us = self.side_to_move();
        let them = !us;
        let king = self.king_square(us);
        let checkers = self.checkers();
        match mv.kind() {
            MoveKind::Drop { kind, to } => {
                if self.hand(us).count(kind) == 0 || self.piece_at(to).is_some() {
                    return false;
                }
                if let Some(checker) = checkers.first() {
                    if checkers.has_more_than_one() || !between(king, checker).contains(to) {
                        return false;
                    }
                }
                kind != PieceKind::Pawn
                    || self.pawn_drop_targets(Bitboard::from_square(to)) != Bitboard::EMPTY
            }
            MoveKind::Board { from, to, promote } => {
                let Some(piece) = self.piece_at(from) else {
                    return false;
                };
                if piece.color != us || self.pieces(us).contains(to) {
                    return false;
                }
                if !attacks(us, piece.kind, from, self.occupied()).contains(to) {
                    return false;
                }
                let zone = promotion_zone(us);
                let may_promote =
                    piece.kind.can_promote() && (zone.contains(from) || zone.contains(to));
                if promote && !may_promote {
                    return false;
                }
                if !promote && piece.kind == PieceKind::Pawn && zone.contains(to) {
                    return false;
                }
                if piece.kind == PieceKind::King {
                    return self
                        .attackers_to(to, them, self.occupied().without(from))
                        .is_empty();
                }
                if let Some(checker) = checkers.first() {
                    if checkers.has_more_than_one()
                        || !between(king, checker).with(checker).contains(to)
                    {
                        return false;
                    }
                }
                !self.pinned().contains(from) || line(king, from).contains(to)
            }
        }
    }

    /// The pawn drop that would be legal but for the rule against mating by a pawn drop,
    /// if there is one (at most one: the square in front of the enemy king). Other programs
    /// count such a drop as a (losing) move; this reconciles their perft counts with ours.
    pub fn mating_pawn_drop(&self) -> Option<Move> {
        let us = self.side_to_move();
        let them = !us;
        let sq = pawn_attacks(them, self.king_square(them)).first()?;
        let drop = Move::drop(PieceKind::Pawn, sq);
        let resolves_check = match self.checkers().first() {
            None => true,
            Some(checker) => {
                !self.checkers().has_more_than_one()
                    && between(self.king_square(us), checker).contains(sq)
            }
        };
        let otherwise_legal = self.hand(us).count(PieceKind::Pawn) > 0
            && self.piece_at(sq).is_none()
            && self.pawn_drop_base_targets().contains(sq)
            && resolves_check;
        (otherwise_legal && !self.played(drop).has_legal_move()).then_some(drop)
    }

    /// Squares where a pawn of the side to move may be dropped by the last-rank and
    /// two-pawn rules, ignoring the pawn-drop-mate rule and occupancy.
    fn pawn_drop_base_targets(&self) -> Bitboard {
        let us = self.side_to_move();
        let mut allowed = !promotion_zone(us);
        for pawn in self.pieces_of(us, PieceKind::Pawn) {
            allowed &= !Bitboard::column(pawn.column());
        }
        allowed
    }

    /// The subset of `candidates` (empty squares that resolve any check) where a pawn may be
    /// dropped: not on the last rank, not on a file with an own unpromoted pawn, and not
    /// giving mate.
    fn pawn_drop_targets(&self, candidates: Bitboard) -> Bitboard {
        let them = !self.side_to_move();
        let mut targets = candidates & self.pawn_drop_base_targets();
        if let Some(check_square) = pawn_attacks(them, self.king_square(them)).first() {
            if targets.contains(check_square) && self.pawn_drop_mates(check_square) {
                targets = targets.without(check_square);
            }
        }
        targets
    }

    /// Whether a pawn dropped on `sq`, the square in front of the enemy king, mates. The
    /// pawn's check is a contact check, so it cannot be blocked: the enemy must capture the
    /// pawn or move the king. Answered without playing the drop, since it is asked at nearly
    /// every node where a pawn is in hand.
    fn pawn_drop_mates(&self, sq: Square) -> bool {
        let us = self.side_to_move();
        let them = !us;
        let king = self.king_square(them);
        let occupied = self.occupied().with(sq);
        // The pawn attacks only the king's square, so it need not be counted as an attacker
        // below; it only blocks.
        let king_gone = occupied.without(king);
        for to in king_attacks(king) & !self.pieces(them) {
            if self.attackers_to(to, us, king_gone).is_empty() {
                return false;
            }
        }
        let capturers = self.attackers_to(sq, them, occupied).without(king);
        for from in capturers {
            // After the capture `from` is empty and `sq` is occupied by the capturer.
            let after = occupied.without(from);
            let exposed = (rook_attacks(king, after)
                & (self.pieces_of(us, PieceKind::Rook) | self.pieces_of(us, PieceKind::Dragon)))
                | (bishop_attacks(king, after)
                    & (self.pieces_of(us, PieceKind::Bishop)
                        | self.pieces_of(us, PieceKind::Horse)));
            if exposed.is_empty() {
                return false;
            }
        }
        true
    }

    fn generate<const NOISY: bool>(&self, list: &mut MoveList) {
        let us = self.side_to_move();
        let them = !us;
        let king = self.king_square(us);
        let own = self.pieces(us);
        let enemy = self.pieces(them);
        let occupied = own | enemy;
        let checkers = self.checkers();

        // 1. King moves: to any square not attacked once the king has left its square (so
        //    that a slider's line through the king counts).
        let mut king_targets = king_attacks(king) & !own;
        if NOISY {
            king_targets &= enemy;
        }
        if !king_targets.is_empty() {
            king_targets &= !self.attacked_squares(them, occupied.without(king));
            for to in king_targets {
                list.push(Move::board(king, to, false));
            }
        }

        // 2. In double check only the king may move; in single check the others must capture
        //    the checker or step (or be dropped) between it and the king.
        if checkers.has_more_than_one() {
            return;
        }
        let (board_targets, drop_targets) = match checkers.first() {
            Some(checker) => {
                let block = between(king, checker);
                (block.with(checker), block)
            }
            None => (!own, !occupied),
        };

        // 3. Other pieces' board moves, kind by kind so that each uses its own attack table
        //    and promotion rule. Pinned pieces come last: they stay on the line through
        //    their king.
        let zone = promotion_zone(us);
        let pinned = self.pinned();
        let free = !pinned;
        let ours = |kind: PieceKind| self.pieces_of(us, kind) & free;
        // Pawns move one step; reaching the far rank they must promote.
        let pawns = ours(PieceKind::Pawn).0;
        let pawn_steps = Bitboard(match us {
            Color::Sente => pawns >> 5,
            Color::Gote => pawns << 5,
        }) & board_targets;
        for to in pawn_steps {
            let from = Square::new(match us {
                Color::Sente => to.index() as u8 + 5,
                Color::Gote => to.index() as u8 - 5,
            })
            .expect("pawn came from the board");
            if zone.contains(to) {
                list.push(Move::board(from, to, true));
            } else if !NOISY || enemy.contains(to) {
                list.push(Move::board(from, to, false));
            }
        }
        let promotable = |list: &mut MoveList, from: Square, targets: Bitboard| {
            let may_promote = if zone.contains(from) {
                targets
            } else {
                targets & zone
            };
            for to in may_promote {
                list.push(Move::board(from, to, true));
            }
            let plain = if NOISY { targets & enemy } else { targets };
            for to in plain {
                list.push(Move::board(from, to, false));
            }
        };
        let plain = |list: &mut MoveList, from: Square, targets: Bitboard| {
            let targets = if NOISY { targets & enemy } else { targets };
            for to in targets {
                list.push(Move::board(from, to, false));
            }
        };
        for from in ours(PieceKind::Silver) {
            promotable(list, from, silver_attacks(us, from) & board_targets);
        }
        for from in ours(PieceKind::Bishop) {
            promotable(list, from, bishop_attacks(from, occupied) & board_targets);
        }
        for from in ours(PieceKind::Rook) {
            promotable(list, from, rook_attacks(from, occupied) & board_targets);
        }
        let golds = ours(PieceKind::Gold) | ours(PieceKind::ProPawn) | ours(PieceKind::ProSilver);
        for from in golds {
            plain(list, from, gold_attacks(us, from) & board_targets);
        }
        for from in ours(PieceKind::Horse) {
            let targets = (bishop_attacks(from, occupied) | king_attacks(from)) & board_targets;
            plain(list, from, targets);
        }
        for from in ours(PieceKind::Dragon) {
            let targets = (rook_attacks(from, occupied) | king_attacks(from)) & board_targets;
            plain(list, from, targets);
        }
        for from in pinned {
            let kind = self.piece_at(from).expect("pinned piece").kind;
            let targets = attacks(us, kind, from, occupied) & board_targets & line(king, from);
            if kind == PieceKind::Pawn {
                // A pinned pawn can only move along a file pin, never onto its far rank
                // unpromoted.
                for to in targets {
                    if zone.contains(to) {
                        list.push(Move::board(from, to, true));
                    } else if !NOISY || enemy.contains(to) {
                        list.push(Move::board(from, to, false));
                    }
                }
            } else if kind.can_promote() {
                promotable(list, from, targets);
            } else {
                plain(list, from, targets);
            }
        }

        // 4. Drops on empty squares (only between king and checker when in check).
        if NOISY || drop_targets.is_empty() {
            return;
        }
        self.push_drops(list, |_| drop_targets);
    }
}
