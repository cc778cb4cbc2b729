//! The staged move picker: moves come out stage by stage, each stage generated only when
//! reached, so a cutoff on the transposition-table move costs no generation at all.

use crate::history::PieceTo;
use crate::params::{
    board_value, capture_gain, EVASION_NOISY_BONUS, MVV_MULTIPLIER, PROMOTION_ORDER_BONUS,
};
use crate::see::see;
use crate::thread_data::ThreadData;
use gogo_rules::attacks::attacks;
use gogo_rules::{Move, MoveList, Position, MAX_MOVES};

/// The stages, in order. Quiescence search uses only the noisy stages; a side in check gets
/// all its evasions in one scored stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The transposition-table move, if legal.
    TtMove,
    /// Generate and score captures and promotions.
    GenerateNoisy,
    /// Captures and promotions that do not lose material (SEE >= 0), best first.
    GoodNoisy,
    /// The two killer moves of this ply.
    Killers,
    /// The countermove to the previous move.
    Countermove,
    /// Generate and score the quiet moves and drops.
    GenerateQuiets,
    /// Quiet moves and drops by history.
    Quiets,
    /// Captures that lose material, last.
    BadNoisy,
    /// Quiescence only: generate quiet moves and drops that give a direct check safely.
    GenerateChecks,
    /// Those checks.
    QuietChecks,
    /// Generate and score every evasion (in check).
    GenerateEvasions,
    /// Evasions, best first.
    Evasions,
    /// Nothing left.
    Done,
}

/// Picks moves one at a time, best first within each stage.
pub struct MovePicker {
    stage: Stage,
    tt_move: Option<Move>,
    killers: [Option<Move>; 2],
    countermove: Option<Move>,
    quiescence: bool,
    list: MoveList,
    scores: [i32; MAX_MOVES],
    next: usize,
    bad: Vec<Move>,
    bad_next: usize,
    killer_index: usize,
    /// The moves one and two plies back, for continuation history.
    continuation: [Option<PieceTo>; 2],
    /// Quiescence: whether to add quiet checks after the captures.
    quiet_checks: bool,
}

fn is_noisy(pos: &Position, mv: Move) -> bool {
    mv.is_promotion() || pos.is_capture(mv)
}

impl MovePicker {
    /// A picker for a full-width node. `continuation` holds the moves one and two plies
    /// back.
    pub fn new(
        pos: &Position,
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        countermove: Option<Move>,
        continuation: [Option<PieceTo>; 2],
    ) -> MovePicker {
        let mut picker = MovePicker::build(pos, tt_move, killers, countermove, false);
        picker.continuation = continuation;
        picker
    }

    /// The ordering score of a quiet move: butterfly plus continuation histories.
    fn quiet_score(&self, pos: &Position, td: &ThreadData, mv: Move) -> i32 {
        td.quiet_score(
            pos.side_to_move(),
            mv,
            PieceTo::of_move(pos, mv),
            &self.continuation,
        )
    }

    /// A picker for quiescence search: captures and promotions only, unless in check;
    /// with `checks`, then also the quiet moves and drops that give a safe direct check.
    pub fn quiescence(pos: &Position, tt_move: Option<Move>, checks: bool) -> MovePicker {
        let tt_move = tt_move.filter(|&m| pos.in_check() || is_noisy(pos, m));
        let mut picker = MovePicker::build(pos, tt_move, [None; 2], None, true);
        picker.quiet_checks = checks;
        picker
    }

    /// Whether the quiet checking move `mv` checks with the moved or dropped piece itself and
    /// does not simply hang it. (Quiescence leaves discovered checks to the full search.)
    fn is_safe_quiet_check(pos: &Position, mv: Move) -> bool {
        let us = pos.side_to_move();
        let them = !us;
        let Some(kind) = pos.moved_kind(mv) else {
            return false;
        };
        let kind = if mv.is_promotion() {
            kind.promote()
        } else {
            kind
        };
        let to = mv.to();
        let mut occupied = pos.occupied().with(to);
        if let Some(from) = mv.from() {
            occupied = occupied.without(from);
        }
        // A piece of ours on `to` attacks their king exactly when a piece of theirs on the
        // king's square would attack `to`.
        if !attacks(them, kind, pos.king_square(them), occupied).contains(to) {
            return false;
        }
        if mv.is_drop() {
            pos.attackers_to(to, them, occupied).is_empty()
                || !pos.attackers_to(to, us, occupied).is_empty()
        } else {
            see(pos, mv) >= 0
        }
    }

    fn build(
        pos: &Position,
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        countermove: Option<Move>,
        quiescence: bool,
    ) -> MovePicker {
        let tt_move = tt_move.filter(|&m| pos.is_legal(m));
        MovePicker {
            stage: if tt_move.is_some() {
                Stage::TtMove
            } else if pos.in_check() {
                Stage::GenerateEvasions
            } else {
                Stage::GenerateNoisy
            },
            tt_move,
            killers,
            countermove,
            quiescence,
            list: MoveList::new(),
            scores: [0; MAX_MOVES],
            next: 0,
            bad: Vec::new(),
            bad_next: 0,
            killer_index: 0,
            continuation: [None; 2],
            quiet_checks: false,
        }
    }

    fn take_best(&mut self) -> Option<(Move, i32)> {
        let n = self.list.len();
        if self.next >= n {
            return None;
        }
        // The first of the best scores, found in two passes that the compiler vectorises
        // (a loop keeping the best index so far does not vectorise).
        let rest = &self.scores[self.next..n];
        let top = rest.iter().copied().max().unwrap_or(i32::MIN);
        let best = self.next + rest.iter().position(|&s| s == top).unwrap_or(0);
        self.list.as_mut_slice().swap(self.next, best);
        self.scores.swap(self.next, best);
        let picked = (self.list.as_slice()[self.next], self.scores[self.next]);
        self.next += 1;
        Some(picked)
    }

    fn noisy_score(pos: &Position, mv: Move) -> i32 {
        let victim = pos.captured_piece(mv).map_or(0, |p| capture_gain(p.kind));
        let attacker = pos.moved_kind(mv).map_or(0, board_value);
        let promotion = if mv.is_promotion() {
            PROMOTION_ORDER_BONUS
        } else {
            0
        };
        victim * MVV_MULTIPLIER - attacker + promotion
    }

    /// The next move, or `None` when all have been given.
    pub fn next(&mut self, pos: &Position, td: &ThreadData) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = if pos.in_check() {
                        Stage::GenerateEvasions
                    } else {
                        Stage::GenerateNoisy
                    };
                    return self.tt_move;
                }
                Stage::GenerateNoisy => {
                    self.list.clear();
                    pos.generate_noisy(&mut self.list);
                    for i in 0..self.list.len() {
                        self.scores[i] = Self::noisy_score(pos, self.list.as_slice()[i]);
                    }
                    self.next = 0;
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => match self.take_best() {
                    Some((mv, _)) if Some(mv) == self.tt_move => {}
                    Some((mv, _)) => {
                        if pos.is_capture(mv) && see(pos, mv) < 0 {
                            self.bad.push(mv);
                        } else {
                            return Some(mv);
                        }
                    }
                    None => {
                        self.stage = if !self.quiescence {
                            Stage::Killers
                        } else if self.quiet_checks {
                            Stage::GenerateChecks
                        } else {
                            Stage::BadNoisy
                        };
                    }
                },
                Stage::Killers => {
                    if self.killer_index < 2 {
                        let k = self.killers[self.killer_index];
                        self.killer_index += 1;
                        if let Some(mv) = k {
                            if Some(mv) != self.tt_move && pos.is_legal(mv) && !is_noisy(pos, mv) {
                                return Some(mv);
                            }
                        }
                    } else {
                        self.stage = Stage::Countermove;
                    }
                }
                Stage::Countermove => {
                    self.stage = Stage::GenerateQuiets;
                    if let Some(mv) = self.countermove {
                        if Some(mv) != self.tt_move
                            && !self.killers.contains(&Some(mv))
                            && pos.is_legal(mv)
                            && !is_noisy(pos, mv)
                        {
                            return Some(mv);
                        }
                    }
                }
                Stage::GenerateQuiets => {
                    let mut all = MoveList::new();
                    pos.generate_legal(&mut all);
                    self.list.clear();
                    for &mv in all.iter() {
                        if is_noisy(pos, mv)
                            || Some(mv) == self.tt_move
                            || self.killers.contains(&Some(mv))
                            || Some(mv) == self.countermove
                        {
                            continue;
                        }
                        self.scores[self.list.len()] = self.quiet_score(pos, td, mv);
                        self.list.push(mv);
                    }
                    self.next = 0;
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => match self.take_best() {
                    Some((mv, _)) => return Some(mv),
                    None => self.stage = Stage::BadNoisy,
                },
                Stage::BadNoisy => {
                    if self.bad_next < self.bad.len() {
                        self.bad_next += 1;
                        return Some(self.bad[self.bad_next - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenerateChecks => {
                    let mut checks = MoveList::new();
                    pos.generate_checks(&mut checks);
                    self.list.clear();
                    for &mv in checks.iter() {
                        if !is_noisy(pos, mv) && Self::is_safe_quiet_check(pos, mv) {
                            self.scores[self.list.len()] = td.history.get(pos.side_to_move(), mv);
                            self.list.push(mv);
                        }
                    }
                    self.next = 0;
                    self.stage = Stage::QuietChecks;
                }
                Stage::QuietChecks => match self.take_best() {
                    Some((mv, _)) => return Some(mv),
                    None => self.stage = Stage::BadNoisy,
                },
                Stage::GenerateEvasions => {
                    self.list.clear();
                    pos.generate_evasions(&mut self.list);
                    for i in 0..self.list.len() {
                        let mv = self.list.as_slice()[i];
                        self.scores[i] = if is_noisy(pos, mv) {
                            EVASION_NOISY_BONUS + Self::noisy_score(pos, mv)
                        } else {
                            self.quiet_score(pos, td, mv)
                        };
                    }
                    self.next = 0;
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => match self.take_best() {
                    Some((mv, _)) if Some(mv) == self.tt_move => {}
                    Some((mv, _)) => return Some(mv),
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gogo_rules::Position;

    /// The picker yields exactly the legal moves, once each, whatever the hints.
    #[test]
    fn picker_yields_each_legal_move_once() {
        let sfens = [
            "rbsgk/4p/5/P4/KGSBR b - 1",
            "3k1/G4/4g/PK1b1/5 w 2S1B1R1r1p 1",
            "r1s1k/2b1g/1P1r1/PG3/K1SB1 b - 1",
            "k4/2S2/1G3/5/4K b P 1",
        ];
        let td = ThreadData::new(0);
        for sfen in sfens {
            let pos = Position::from_sfen(sfen).unwrap();
            let legal = pos.legal_moves();
            let hint = legal.as_slice().last().copied();
            let bogus: Move = "P*1a".parse().unwrap();
            for (tt, killers) in [(None, [None, None]), (hint, [Some(bogus), hint])] {
                let previous = PieceTo::new(
                    gogo_rules::Color::Sente,
                    gogo_rules::PieceKind::Gold,
                    "3c".parse().unwrap(),
                );
                let mut picker =
                    MovePicker::new(&pos, tt, killers, Some(bogus), [Some(previous), None]);
                let mut seen = Vec::new();
                while let Some(mv) = picker.next(&pos, &td) {
                    seen.push(mv.bits());
                }
                let mut want: Vec<u16> = legal.iter().map(|m| m.bits()).collect();
                seen.sort_unstable();
                want.sort_unstable();
                assert_eq!(seen, want, "{sfen}");
            }
            // Quiescence: only noisy moves (or evasions in check).
            let mut picker = MovePicker::quiescence(&pos, None, false);
            while let Some(mv) = picker.next(&pos, &td) {
                assert!(pos.in_check() || is_noisy(&pos, mv));
            }
        }
    }
}
