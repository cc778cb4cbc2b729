//! The accumulator: the first layer's output for both perspectives, kept up to date move by
//! move (a move changes two to four features), and a stack of them that follows the search.

use super::features::{active_features, move_delta};
use super::network::Network;
use super::simd;
use super::HIDDEN;
use crate::value::MAX_PLY;
use gogo_rules::{Color, Move, Position};
use std::sync::Arc;

/// The first layer's output, by perspective (Sente's first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator(pub [[i16; HIDDEN]; 2]);

impl Accumulator {
    /// Computed from scratch.
    pub fn refresh(net: &Network, pos: &Position) -> Accumulator {
        let mut acc = Accumulator([net.feature_bias; 2]);
        for perspective in Color::ALL {
            let rows: Vec<&[i16; HIDDEN]> = active_features(pos, perspective)
                .into_iter()
                .map(|f| &net.feature_weights[f])
                .collect();
            simd::update(&mut acc.0[perspective.index()], &rows, &[]);
        }
        acc
    }

    /// The accumulator after the legal move `mv` in `pos`, whose accumulator this is.
    pub fn after_move(&self, net: &Network, pos: &Position, mv: Move) -> Accumulator {
        let mut next = *self;
        for perspective in Color::ALL {
            let delta = move_delta(pos, mv, perspective);
            // Unused slots of the delta hold feature 0, a valid row that is not used.
            let rows = |features: [u16; 2]| features.map(|f| &net.feature_weights[f as usize]);
            let added = rows(delta.added);
            let removed = rows(delta.removed);
            simd::update(
                &mut next.0[perspective.index()],
                &added[..delta.added_len],
                &removed[..delta.removed_len],
            );
        }
        next
    }
}

/// A search thread's NNUE state: the network and a stack of accumulators, one per ply of the
/// current line (the root's at the bottom).
#[derive(Clone, Debug)]
pub struct NnueState {
    net: Arc<Network>,
    stack: Vec<Accumulator>,
}

impl NnueState {
    /// State for `net`, with room for a whole line.
    pub fn new(net: Arc<Network>) -> NnueState {
        NnueState {
            net,
            stack: Vec::with_capacity(MAX_PLY + 4),
        }
    }

    /// The network.
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// Starts a line at `root`.
    pub fn start(&mut self, root: &Position) {
        self.stack.clear();
        self.stack.push(Accumulator::refresh(&self.net, root));
    }

    /// `child` was reached from `parent` (the top of the stack) by `mv`, or by a null move.
    #[inline]
    pub fn push(&mut self, parent: &Position, mv: Option<Move>, child: &Position) {
        let next = match (self.stack.last(), mv) {
            (Some(top), Some(mv)) => top.after_move(&self.net, parent, mv),
            (Some(top), None) => *top,
            (None, _) => Accumulator::refresh(&self.net, child),
        };
        self.stack.push(next);
    }

    /// Back to the parent.
    #[inline]
    pub fn pop(&mut self) {
        self.stack.pop();
    }

    /// The evaluation of `pos`, the position at the top of the stack, for its side to move.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        if self.stack.is_empty() {
            self.start(pos);
        }
        let acc = self.stack.last().expect("a position");
        let us = pos.side_to_move().index();
        self.net.evaluate(&acc.0[us], &acc.0[1 - us])
    }

    /// The accumulator at the top of the stack.
    pub fn top(&self) -> Option<&Accumulator> {
        self.stack.last()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::features::tests::mirror;
    use crate::nnue::network::tests::random_network;
    use gogo_rules::Rng;

    /// Walks random games through push and pop the way the search does (into a child, back
    /// out, null moves), checking the incremental accumulator against a refresh everywhere.
    #[test]
    fn incremental_updates_equal_a_refresh() {
        let net = Arc::new(random_network(7));
        let mut rng = Rng::new(11);
        let mut checked = 0;
        for _ in 0..60 {
            let mut pos = Position::startpos();
            let mut state = NnueState::new(net.clone());
            state.start(&pos);
            for _ in 0..100 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Look into a few children and come back, as a search does.
                for _ in 0..3 {
                    let mv = moves.as_slice()[rng.below(moves.len())];
                    let child = pos.played(mv);
                    state.push(&pos, Some(mv), &child);
                    assert_eq!(
                        state.top(),
                        Some(&Accumulator::refresh(&net, &child)),
                        "{pos} {mv}"
                    );
                    state.pop();
                }
                if !pos.in_check() && rng.below(8) == 0 {
                    let mut passed = pos.clone();
                    passed.play_null();
                    state.push(&pos, None, &passed);
                    assert_eq!(state.top(), Some(&Accumulator::refresh(&net, &passed)));
                    state.pop();
                }
                let mv = moves.as_slice()[rng.below(moves.len())];
                let child = pos.played(mv);
                state.push(&pos, Some(mv), &child);
                pos = child;
                assert_eq!(state.top(), Some(&Accumulator::refresh(&net, &pos)));
                checked += 1;
            }
        }
        assert!(checked > 3000, "{checked}");
    }

    #[test]
    fn a_position_and_its_mirror_evaluate_the_same() {
        let net = Arc::new(random_network(3));
        let mut rng = Rng::new(5);
        let mut distinct = std::collections::HashSet::new();
        for _ in 0..20 {
            let mut pos = Position::startpos();
            for _ in 0..60 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play(moves.as_slice()[rng.below(moves.len())]);
                let mut a = NnueState::new(net.clone());
                let mut b = NnueState::new(net.clone());
                let m = mirror(&pos);
                let score = a.evaluate(&pos);
                assert_eq!(score, b.evaluate(&m), "{pos} / {m}");
                distinct.insert(score);
            }
        }
        // The random network tells positions apart, so equality above means something.
        assert!(distinct.len() > 100, "{}", distinct.len());
    }
}
