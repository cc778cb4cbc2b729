//! Pieces in hand.

use crate::piece::PieceKind;

/// The pieces one side holds in hand: a count (0-2) per droppable kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hand {
    counts: [u8; 5],
}

impl Hand {
    /// An empty hand.
    pub const EMPTY: Hand = Hand { counts: [0; 5] };

    /// How many pieces of `kind` are held (0 for kinds that cannot be in hand).
    #[inline]
    pub fn count(&self, kind: PieceKind) -> u8 {
        if kind.is_hand_kind() {
            self.counts[kind.index()]
        } else {
            0
        }
    }

    /// Whether nothing is held.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.counts == [0; 5]
    }

    /// This hand with one more piece of `kind` (a count beyond the two pieces that exist is
    /// refused later by [`crate::Position::from_parts`]); `None` for a kind that cannot be in
    /// hand (a king or a promoted piece).
    pub fn with(mut self, kind: PieceKind) -> Option<Hand> {
        if !kind.is_hand_kind() {
            return None;
        }
        self.counts[kind.index()] = self.counts[kind.index()].saturating_add(1);
        Some(self)
    }

    /// Adds one piece of `kind` (a hand kind; callers unpromote first).
    #[inline]
    pub(crate) fn add(&mut self, kind: PieceKind) {
        debug_assert!(kind.is_hand_kind());
        self.counts[kind.index()] += 1;
    }

    /// Removes one piece of `kind`, which must be held.
    #[inline]
    pub(crate) fn remove(&mut self, kind: PieceKind) {
        debug_assert!(self.count(kind) > 0);
        self.counts[kind.index()] -= 1;
    }

    /// Sets the count of `kind` (a hand kind).
    pub(crate) fn set(&mut self, kind: PieceKind, count: u8) {
        self.counts[kind.index()] = count;
    }

    /// The kinds held at least once, in discriminant order.
    #[inline]
    pub fn kinds(&self) -> impl Iterator<Item = PieceKind> + '_ {
        PieceKind::HAND
            .into_iter()
            .filter(move |k| self.counts[k.index()] > 0)
    }
}
