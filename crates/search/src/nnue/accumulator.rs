//! The accumulator: the first layer's output for both perspectives, kept up to date move by
//! move (a move changes two to four features), and a stack of them that follows the search.

use super::features::{active_features, move_delta, FeatureDelta};
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
        next.update_from(self, net, &Color::ALL.map(|p| move_delta(pos, mv, p)));
        next
    }

    /// Becomes `parent` changed by `deltas` (Sente's perspective first), in one pass.
    #[inline]
    fn update_from(&mut self, parent: &Accumulator, net: &Network, deltas: &[FeatureDelta; 2]) {
        for (i, delta) in deltas.iter().enumerate() {
            // Unused slots of the delta hold feature 0, a valid row that is not used.
            let rows = |features: [u16; 2]| features.map(|f| &net.feature_weights[f as usize]);
            let added = rows(delta.added);
            let removed = rows(delta.removed);
            simd::update_from(
                &mut self.0[i],
                &parent.0[i],
                &added[..delta.added_len],
                &removed[..delta.removed_len],
            );
        }
    }
}

/// One ply of the line: its accumulator once computed, and how it differs from the ply
/// below.
#[derive(Clone, Debug)]
struct Ply {
    acc: Accumulator,
    /// Whether `acc` holds this ply's accumulator yet.
    computed: bool,
    /// The move's feature changes by perspective (none for a null move).
    deltas: [FeatureDelta; 2],
}

/// A search thread's NNUE state: the network and a stack of accumulators, one per ply of the
/// current line (the root's at the bottom).
///
/// The accumulators are lazy: a move only records its feature changes, and an accumulator
/// is computed when its position is evaluated, from the nearest one below that is. Most
/// nodes end on a table hit, a repetition or a prune before they evaluate.
#[derive(Clone, Debug)]
pub struct NnueState {
    net: Arc<Network>,
    /// Plies of the line, `plies[..len]`; the slots above are kept to be reused.
    plies: Vec<Ply>,
    len: usize,
}

impl NnueState {
    /// State for `net`, with room for a whole line.
    pub fn new(net: Arc<Network>) -> NnueState {
        let empty = Ply {
            acc: Accumulator([[0; HIDDEN]; 2]),
            computed: false,
            deltas: Default::default(),
        };
        NnueState {
            net,
            plies: vec![empty; MAX_PLY + 4],
            len: 0,
        }
    }

    /// The network.
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// Starts a line at `root`.
    pub fn start(&mut self, root: &Position) {
        self.len = 0;
        self.push_computed(Accumulator::refresh(&self.net, root));
    }

    fn push_computed(&mut self, acc: Accumulator) {
        self.push_slot();
        let ply = &mut self.plies[self.len - 1];
        ply.acc = acc;
        ply.computed = true;
    }

    /// Makes room for one more ply (a line can outgrow the search's nominal maximum ply).
    #[inline]
    fn push_slot(&mut self) {
        if self.len == self.plies.len() {
            let top = self.plies[self.len - 1].clone();
            self.plies.push(top);
        }
        self.len += 1;
    }

    /// `child` was reached from `parent` (the top of the stack) by `mv`, or by a null move.
    #[inline]
    pub fn push(&mut self, parent: &Position, mv: Option<Move>, child: &Position) {
        if self.len == 0 {
            self.push_computed(Accumulator::refresh(&self.net, child));
            return;
        }
        let deltas = match mv {
            Some(mv) => Color::ALL.map(|p| move_delta(parent, mv, p)),
            None => Default::default(),
        };
        self.push_slot();
        let ply = &mut self.plies[self.len - 1];
        ply.computed = false;
        ply.deltas = deltas;
    }

    /// Back to the parent.
    #[inline]
    pub fn pop(&mut self) {
        self.len = self.len.saturating_sub(1);
    }

    /// The evaluation of `pos`, the position at the top of the stack, for its side to move.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        if self.len == 0 {
            self.start(pos);
        }
        self.compute_top();
        let acc = &self.plies[self.len - 1].acc;
        let us = pos.side_to_move().index();
        self.net.evaluate(&acc.0[us], &acc.0[1 - us])
    }

    /// The accumulator at the top of the stack, computed.
    pub fn top(&mut self) -> Option<&Accumulator> {
        if self.len == 0 {
            return None;
        }
        self.compute_top();
        Some(&self.plies[self.len - 1].acc)
    }

    /// Computes the accumulators from the nearest computed one up to the top.
    fn compute_top(&mut self) {
        let top = self.len - 1;
        // The root (ply 0 of the line) is always computed.
        let mut first = top;
        while !self.plies[first].computed {
            first -= 1;
        }
        for i in first + 1..=top {
            let (below, above) = self.plies.split_at_mut(i);
            let ply = &mut above[0];
            ply.acc
                .update_from(&below[i - 1].acc, &self.net, &ply.deltas);
            ply.computed = true;
        }
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

    /// Lines pushed several plies deep (moves and null moves) before anything is evaluated,
    /// popped part way, evaluated at random points: every evaluation equals a refresh's.
    #[test]
    fn lazy_accumulators_evaluate_as_a_refresh_does() {
        let net = Arc::new(random_network(9));
        let mut rng = Rng::new(13);
        let mut state = NnueState::new(net.clone());
        let mut evaluated = 0;
        let mut deepest = 0;
        for _ in 0..40 {
            let mut line = vec![Position::startpos()];
            state.start(&line[0]);
            for _ in 0..400 {
                let pos = line.last().expect("the root").clone();
                let moves = pos.legal_moves();
                let pass = !pos.in_check() && rng.below(10) == 0;
                if line.len() > 1 && (moves.is_empty() || rng.below(3) == 0) {
                    line.pop();
                    state.pop();
                } else if pass {
                    let mut passed = pos.clone();
                    passed.play_null();
                    state.push(&pos, None, &passed);
                    line.push(passed);
                } else if !moves.is_empty() {
                    let mv = moves.as_slice()[rng.below(moves.len())];
                    let child = pos.played(mv);
                    state.push(&pos, Some(mv), &child);
                    line.push(child);
                }
                deepest = deepest.max(line.len());
                if rng.below(4) == 0 {
                    let top = line.last().expect("a position");
                    let fresh = Accumulator::refresh(&net, top);
                    assert_eq!(state.top(), Some(&fresh), "{top}");
                    let us = top.side_to_move().index();
                    assert_eq!(
                        state.evaluate(top),
                        net.evaluate(&fresh.0[us], &fresh.0[1 - us])
                    );
                    evaluated += 1;
                }
            }
        }
        assert!(evaluated > 2000 && deepest > 8, "{evaluated} {deepest}");
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
