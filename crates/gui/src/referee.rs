//! The referee of one game: the moves, both clocks, the offers and the ending, judged on the
//! server from what each seat asks and when. It does no I/O and reads no clock of its own:
//! every call is given the time, so the owner of the game can store what it decides before
//! anyone is told, and a test can play a whole game in no time.
//!
//! Every change is an [`Event`], numbered within the referee's epoch, and the last ones are
//! kept, so that a page that comes back with the last number it saw gets what it missed, or
//! the whole state after a gap (lila-ws's `History`). A move names its ply: one sent twice
//! after a reconnect is played once.

use crate::lag::LagTracker;
use gogo_protocol::{Clock, Ending, TimeControl};
use gogo_rules::{Color, Game, TooManyMoves, MAX_GAME_MOVES};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Plies played before the clocks run: each side's first move is free (as on lishogi).
pub const UNTIMED_PLIES: usize = 2;
/// Events kept for pages that come back.
const HISTORY: usize = 128;

/// What a seat asks of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Play `usi` as the move of ply `ply` (0: the game's first move).
    Move {
        /// The ply the mover saw as next.
        ply: usize,
        /// The move, USI.
        usi: String,
    },
    /// Resign.
    Resign,
    /// Offer a draw, or accept the other's offer.
    OfferDraw,
    /// Decline the other's draw offer.
    DeclineDraw,
    /// Ask to take back one's last move, or accept the other's request.
    ProposeTakeback,
    /// Decline the other's takeback request.
    DeclineTakeback,
    /// Call the game off, before both sides have moved.
    Abort,
}

/// Why an action was refused; the game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The game is over.
    GameOver,
    /// It is the other side's turn.
    NotYourTurn,
    /// The move is for another ply than the next (the page is behind: it gets the state).
    WrongPly {
        /// The next ply.
        next: usize,
    },
    /// Not a legal move here.
    Illegal(String),
    /// Both sides have moved: the game can only be resigned.
    TooLateToAbort,
    /// No offer from the other side to decline.
    NoOffer,
    /// The asker has no move to take back.
    NothingToTakeBack,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::GameOver => f.write_str("the game is over"),
            Refusal::NotYourTurn => f.write_str("it is not your turn"),
            Refusal::WrongPly { next } => write!(f, "the next move is ply {next}"),
            Refusal::Illegal(why) => f.write_str(why),
            Refusal::TooLateToAbort => {
                f.write_str("both sides have moved: the game can be resigned, not aborted")
            }
            Refusal::NoOffer => f.write_str("there is no offer to decline"),
            Refusal::NothingToTakeBack => f.write_str("you have no move to take back"),
        }
    }
}

/// What changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// A move was played; both clocks after it.
    Moved {
        /// Its ply (0: the first move).
        ply: usize,
        /// The move, USI.
        usi: String,
        /// Sente's and Gote's main time left after it.
        clocks: [Duration; 2],
    },
    /// A side offered a draw.
    DrawOffered(Color),
    /// A side declined the other's draw offer.
    DrawDeclined(Color),
    /// A side asked to take back its last move.
    TakebackProposed(Color),
    /// A side declined the other's takeback request.
    TakebackDeclined(Color),
    /// Moves were taken back: the game now has `plies` moves, and these clocks.
    TookBack {
        /// Moves left.
        plies: usize,
        /// Sente's and Gote's main time, as they were then.
        clocks: [Duration; 2],
    },
    /// The game ended.
    Ended(Ending),
}

/// One numbered change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// Its number: one more than the one before, within the referee's epoch.
    pub number: u64,
    /// What changed.
    pub kind: EventKind,
}

/// How a game is set up.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The clock; `None` for no clock.
    pub clock: Option<TimeControl>,
    /// A game whose first moves do not come within this ends unplayed (`None`: waits).
    pub first_move_limit: Option<Duration>,
}

/// One game's referee.
#[derive(Clone, Debug)]
pub struct Referee {
    game: Game,
    clock: Option<Clock>,
    /// Both clocks' main time after each ply (index: plies played), to take moves back.
    clocks_after: Vec<[Duration; 2]>,
    /// When the side to move's turn began.
    turn_since: Instant,
    first_move_limit: Option<Duration>,
    lag: [LagTracker; 2],
    ending: Option<Ending>,
    draw_offer: Option<Color>,
    takeback_offer: Option<Color>,
    epoch: u64,
    last_event: u64,
    history: VecDeque<Event>,
}

impl Referee {
    /// A referee for `game` (a new game, or one taken up again with its moves), whose clocks
    /// after each ply so far are `clocks_after` (plies + 1 readings; `None` for a game
    /// without them: the clock's start for every ply). The side to move's turn begins at
    /// `now`: time while the game was not being served is charged to no one. `epoch` tells
    /// this referee's events from another's (a restart's).
    pub fn new(
        game: Game,
        setup: &Setup,
        clocks_after: Option<Vec<[Duration; 2]>>,
        epoch: u64,
        now: Instant,
    ) -> Referee {
        let mut clock = setup.clock.map(Clock::new);
        let start = clock.as_ref().map_or([Duration::ZERO; 2], Clock::main);
        let clocks_after = clocks_after
            .filter(|c| c.len() == game.moves().len() + 1)
            .unwrap_or_else(|| vec![start; game.moves().len() + 1]);
        if let Some(clock) = &mut clock {
            clock.set_main(*clocks_after.last().expect("one reading at least"));
        }
        let ending = game.outcome().map(Ending::Rules);
        Referee {
            game,
            clock,
            clocks_after,
            turn_since: now,
            first_move_limit: setup.first_move_limit,
            lag: Default::default(),
            ending,
            draw_offer: None,
            takeback_offer: None,
            epoch,
            last_event: 0,
            history: VecDeque::new(),
        }
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The ending, once there is one.
    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }

    /// The pending draw offer's side.
    pub fn draw_offer(&self) -> Option<Color> {
        self.draw_offer
    }

    /// The pending takeback request's side.
    pub fn takeback_offer(&self) -> Option<Color> {
        self.takeback_offer
    }

    /// The epoch and number of the last event.
    pub fn last_event(&self) -> (u64, u64) {
        (self.epoch, self.last_event)
    }

    /// Whether the game has a clock.
    pub fn timed(&self) -> bool {
        self.clock.is_some()
    }

    /// Whether the side to move's clock runs (both sides have moved, the game goes on).
    pub fn clock_running(&self) -> bool {
        self.clock.is_some() && self.ending.is_none() && self.game.moves().len() >= UNTIMED_PLIES
    }

    /// Both main times at `now`, the running side's counted down.
    pub fn clocks_at(&self, now: Instant) -> [Duration; 2] {
        let mut clocks = self.clock.as_ref().map_or([Duration::ZERO; 2], Clock::main);
        if self.clock_running() {
            let side = self.side_to_move().index();
            clocks[side] =
                clocks[side].saturating_sub(now.saturating_duration_since(self.turn_since));
        }
        clocks
    }

    /// Both main times after each ply so far (for the store).
    pub fn clocks_after(&self) -> &[[Duration; 2]] {
        &self.clocks_after
    }

    /// The time control, if the game has a clock.
    pub fn clock(&self) -> Option<&Clock> {
        self.clock.as_ref()
    }

    fn side_to_move(&self) -> Color {
        self.game.position().side_to_move()
    }

    /// The events after `number` of `epoch`, for a page that saw that one last; `None` when
    /// they are no longer all kept (or are of another epoch): the page needs the whole state.
    pub fn events_after(&self, epoch: u64, number: u64) -> Option<Vec<Event>> {
        if epoch != self.epoch || number > self.last_event {
            return None;
        }
        if number == self.last_event {
            return Some(Vec::new());
        }
        let first = self.history.front()?.number;
        (number + 1 >= first).then(|| {
            self.history
                .iter()
                .filter(|e| e.number > number)
                .cloned()
                .collect()
        })
    }

    fn emit(&mut self, kind: EventKind, events: &mut Vec<Event>) {
        self.last_event += 1;
        let event = Event {
            number: self.last_event,
            kind,
        };
        if self.history.len() == HISTORY {
            self.history.pop_front();
        }
        self.history.push_back(event.clone());
        events.push(event);
    }

    fn end(&mut self, ending: Ending, events: &mut Vec<Event>) {
        self.draw_offer = None;
        self.takeback_offer = None;
        self.ending = Some(ending.clone());
        self.emit(EventKind::Ended(ending), events);
    }

    /// Carries out `side`'s `action`, received at `now` over a connection whose lag is
    /// `lag` (half its last round trip). The events it made, in order; none for a move
    /// that was already played (sent twice).
    pub fn act(
        &mut self,
        side: Color,
        action: Action,
        lag: Duration,
        now: Instant,
    ) -> Result<Vec<Event>, Refusal> {
        let mut events = Vec::new();
        // A move sent again after a reconnect is no error: it was played.
        if let Action::Move { ply, usi } = &action {
            if let Some(played) = self.game.moves().get(*ply) {
                let same = self.game.positions()[*ply].side_to_move() == side
                    && played.to_string() == *usi;
                return if same {
                    Ok(events)
                } else {
                    Err(Refusal::WrongPly {
                        next: self.game.moves().len(),
                    })
                };
            }
        }
        // The flag may have fallen before this arrived: judge the time first.
        events.extend(self.tick(now));
        if self.ending.is_some() {
            return if events.is_empty() {
                Err(Refusal::GameOver)
            } else {
                Ok(events)
            };
        }
        match action {
            Action::Move { ply, usi } => self.play(side, ply, &usi, lag, now, &mut events)?,
            Action::Resign => self.end(Ending::Resignation(side), &mut events),
            Action::Abort => {
                if self.game.moves().len() >= UNTIMED_PLIES {
                    return Err(Refusal::TooLateToAbort);
                }
                self.end(Ending::Aborted, &mut events);
            }
            Action::OfferDraw => match self.draw_offer {
                Some(by) if by != side => self.end(Ending::DrawAgreed, &mut events),
                Some(_) => {}
                None => {
                    self.draw_offer = Some(side);
                    self.emit(EventKind::DrawOffered(side), &mut events);
                }
            },
            Action::DeclineDraw => {
                if self.draw_offer != Some(!side) {
                    return Err(Refusal::NoOffer);
                }
                self.draw_offer = None;
                self.emit(EventKind::DrawDeclined(side), &mut events);
            }
            Action::ProposeTakeback => match self.takeback_offer {
                Some(by) if by != side => self.take_back(by, now, &mut events),
                Some(_) => {}
                None => {
                    if self.takeback_plies(side).is_none() {
                        return Err(Refusal::NothingToTakeBack);
                    }
                    self.takeback_offer = Some(side);
                    self.emit(EventKind::TakebackProposed(side), &mut events);
                }
            },
            Action::DeclineTakeback => {
                if self.takeback_offer != Some(!side) {
                    return Err(Refusal::NoOffer);
                }
                self.takeback_offer = None;
                self.emit(EventKind::TakebackDeclined(side), &mut events);
            }
        }
        Ok(events)
    }

    fn play(
        &mut self,
        side: Color,
        ply: usize,
        usi: &str,
        lag: Duration,
        now: Instant,
        events: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        let next = self.game.moves().len();
        if ply != next {
            return Err(Refusal::WrongPly { next });
        }
        if side != self.side_to_move() {
            return Err(Refusal::NotYourTurn);
        }
        let mv = self
            .game
            .position()
            .parse_move(usi)
            .map_err(|e| Refusal::Illegal(format!("{usi}: {e}")))?;
        if next >= MAX_GAME_MOVES {
            return Err(Refusal::Illegal(TooManyMoves.to_string()));
        }
        let timed = self.clock_running();
        let spent = now.saturating_duration_since(self.turn_since);
        let credit = self.lag[side.index()].credit(lag);
        if let (true, Some(clock)) = (timed, &mut self.clock) {
            if clock
                .charge(side, spent.saturating_sub(credit), Duration::ZERO)
                .is_err()
            {
                self.end(Ending::Time(side), events);
                return Ok(());
            }
        }
        self.game
            .play(mv)
            .expect("a legal move, within the game's length");
        let clocks = self.clock.as_ref().map_or([Duration::ZERO; 2], Clock::main);
        self.clocks_after.push(clocks);
        self.turn_since = now;
        // A move answers any offer: an offer stands until the other side moves.
        self.draw_offer = self.draw_offer.filter(|by| *by == side);
        self.takeback_offer = None;
        self.emit(
            EventKind::Moved {
                ply,
                usi: mv.to_string(),
                clocks,
            },
            events,
        );
        if let Some(outcome) = self.game.outcome() {
            self.end(Ending::Rules(outcome), events);
        }
        Ok(())
    }

    /// How many plies a takeback for `side` removes: back to `side`'s turn, with its last
    /// move gone; `None` if it has not moved.
    fn takeback_plies(&self, side: Color) -> Option<usize> {
        let plies = self.game.moves().len();
        let n = if self.side_to_move() == side { 2 } else { 1 };
        (plies >= n).then_some(n)
    }

    fn take_back(&mut self, side: Color, now: Instant, events: &mut Vec<Event>) {
        self.takeback_offer = None;
        let Some(n) = self.takeback_plies(side) else {
            return;
        };
        let keep = self.game.moves().len() - n;
        let mut game = Game::from_position(*self.game.rules(), self.game.start().clone());
        for &mv in &self.game.moves()[..keep] {
            game.play(mv).expect("a move of the game");
        }
        self.game = game;
        self.clocks_after.truncate(keep + 1);
        let clocks = self.clocks_after[keep];
        if let Some(clock) = &mut self.clock {
            clock.set_main(clocks);
        }
        self.turn_since = now;
        self.draw_offer = None;
        self.emit(
            EventKind::TookBack {
                plies: keep,
                clocks,
            },
            events,
        );
    }

    /// The time at `now`: a flag that fell (past the lag still forgivable) or a first move
    /// that did not come in time ends the game.
    pub fn tick(&mut self, now: Instant) -> Vec<Event> {
        let mut events = Vec::new();
        if self.ending.is_some() {
            return events;
        }
        let waited = now.saturating_duration_since(self.turn_since);
        let side = self.side_to_move();
        if self.game.moves().len() < UNTIMED_PLIES {
            if self.first_move_limit.is_some_and(|limit| waited > limit) {
                self.end(Ending::NoStart, &mut events);
            }
            return events;
        }
        if let Some(clock) = &self.clock {
            let allowed = clock
                .allowed(side, Duration::MAX)
                .saturating_add(self.lag[side.index()].grace());
            if waited > allowed {
                self.end(Ending::Time(side), &mut events);
            }
        }
        events
    }

    /// Ends the game for `side`, which left it: the other claimed the win, or a draw with
    /// `drawn` (the room decides when that may be).
    pub fn abandon(&mut self, side: Color, drawn: bool) -> Vec<Event> {
        let mut events = Vec::new();
        if self.ending.is_none() {
            let ending = if drawn {
                Ending::LeftDrawn(side)
            } else {
                Ending::Abandoned(side)
            };
            self.end(ending, &mut events);
        }
        events
    }

    /// When the next [`Referee::tick`] could end the game, if the time can end it.
    pub fn next_deadline(&self) -> Option<Instant> {
        if self.ending.is_some() {
            return None;
        }
        if self.game.moves().len() < UNTIMED_PLIES {
            return self.first_move_limit.map(|limit| self.turn_since + limit);
        }
        let clock = self.clock.as_ref()?;
        let side = self.side_to_move();
        let allowed = clock
            .allowed(side, Duration::MAX)
            .saturating_add(self.lag[side.index()].grace());
        Some(self.turn_since + allowed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gogo_rules::RuleSet;
    use Color::{Gote, Sente};

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn referee(
        clock: Option<TimeControl>,
        first_move_limit: Option<Duration>,
    ) -> (Referee, Instant) {
        let t0 = Instant::now();
        let setup = Setup {
            clock,
            first_move_limit,
        };
        (
            Referee::new(Game::new(RuleSet::standard()), &setup, None, 7, t0),
            t0,
        )
    }

    fn fischer(main: u64, increment: u64) -> Option<TimeControl> {
        Some(TimeControl::Fischer {
            main: ms(main),
            increment: ms(increment),
        })
    }

    fn mv(ply: usize, usi: &str) -> Action {
        Action::Move {
            ply,
            usi: usi.into(),
        }
    }

    const OPENING: [&str; 4] = ["2e3d", "4a3b", "3d2c", "3b2c"];

    /// Plays `OPENING[..n]`, one move a second.
    fn play_opening(r: &mut Referee, t0: Instant, n: usize) -> Instant {
        let mut now = t0;
        for (ply, usi) in OPENING[..n].iter().enumerate() {
            now += ms(1000);
            let side = if ply % 2 == 0 { Sente } else { Gote };
            r.act(side, mv(ply, usi), Duration::ZERO, now).unwrap();
        }
        now
    }

    #[test]
    fn only_the_side_to_move_moves_and_a_move_sent_twice_is_played_once() {
        let (mut r, t0) = referee(None, None);
        assert_eq!(
            r.act(Gote, mv(0, "4a3b"), Duration::ZERO, t0),
            Err(Refusal::NotYourTurn)
        );
        let events = r.act(Sente, mv(0, "2e3d"), Duration::ZERO, t0).unwrap();
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].number, 1);
        // The same move again (a reconnect): nothing new, no error.
        assert_eq!(r.act(Sente, mv(0, "2e3d"), Duration::ZERO, t0), Ok(vec![]));
        // Another move for a ply already played, or a ply ahead: the page is behind.
        assert_eq!(
            r.act(Sente, mv(0, "1e1d"), Duration::ZERO, t0),
            Err(Refusal::WrongPly { next: 1 })
        );
        assert_eq!(
            r.act(Gote, mv(2, "4a3b"), Duration::ZERO, t0),
            Err(Refusal::WrongPly { next: 1 })
        );
        assert!(matches!(
            r.act(Gote, mv(1, "5a5e"), Duration::ZERO, t0),
            Err(Refusal::Illegal(_))
        ));
        assert_eq!(r.game().moves().len(), 1);
        assert_eq!(r.last_event(), (7, 1));
    }

    #[test]
    fn clocks_run_from_each_sides_second_move_and_charge_less_the_lag() {
        let (mut r, t0) = referee(fischer(60_000, 2_000), None);
        // The first two plies are free.
        let now = play_opening(&mut r, t0, 2);
        assert_eq!(r.clocks_at(now), [ms(60_000); 2]);
        assert!(r.clock_running());
        // Sente takes 5 s over a line measured at 300 ms: charged 4.7 s, plus 2 s.
        let events = r
            .act(Sente, mv(2, "3d2c"), ms(300), now + ms(5000))
            .unwrap();
        let EventKind::Moved { clocks, .. } = &events[0].kind else {
            panic!("{events:?}")
        };
        assert_eq!(clocks[0], ms(60_000 - 4_700 + 2_000));
        assert_eq!(r.clocks_at(now + ms(8000))[1], ms(57_000));
    }

    #[test]
    fn a_flag_falls_after_the_forgivable_lag_and_only_once() {
        let (mut r, t0) = referee(fischer(10_000, 0), None);
        let now = play_opening(&mut r, t0, 2);
        let deadline = r.next_deadline().unwrap();
        // Ten seconds and the 1 s lag quota.
        assert_eq!(deadline, now + ms(11_000));
        assert!(r.tick(deadline).is_empty());
        let events = r.tick(deadline + ms(1));
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].kind, EventKind::Ended(Ending::Time(Sente)));
        assert!(r.tick(deadline + ms(5000)).is_empty());
        assert_eq!(
            r.act(Sente, mv(2, "3d2c"), Duration::ZERO, deadline + ms(2)),
            Err(Refusal::GameOver)
        );
    }

    #[test]
    fn a_move_that_arrives_after_the_flag_loses_on_time() {
        let (mut r, t0) = referee(fischer(10_000, 0), None);
        let now = play_opening(&mut r, t0, 2);
        let events = r
            .act(Sente, mv(2, "3d2c"), Duration::ZERO, now + ms(20_000))
            .unwrap();
        assert_eq!(events.len(), 1);
        assert_eq!(r.ending(), Some(&Ending::Time(Sente)));
        assert_eq!(r.game().moves().len(), 2);
    }

    #[test]
    fn a_per_turn_limit_is_a_byoyomi_without_main_time() {
        let per_turn = Some(TimeControl::Byoyomi {
            main: Duration::ZERO,
            byoyomi: ms(30_000),
        });
        let (mut r, t0) = referee(per_turn, None);
        let mut now = play_opening(&mut r, t0, 2);
        // 29 s, then 29 s again: each turn has its 30 s.
        now += ms(29_000);
        r.act(Sente, mv(2, "3d2c"), Duration::ZERO, now).unwrap();
        now += ms(29_000);
        r.act(Gote, mv(3, "3b2c"), Duration::ZERO, now).unwrap();
        assert!(r.ending().is_none());
        assert!(r.tick(now + ms(31_500)).len() == 1);
        assert_eq!(r.ending(), Some(&Ending::Time(Sente)));
    }

    #[test]
    fn a_game_without_its_first_move_in_time_ends_unplayed() {
        let (mut r, t0) = referee(fischer(60_000, 0), Some(ms(30_000)));
        assert!(r.tick(t0 + ms(29_000)).is_empty());
        assert_eq!(
            r.tick(t0 + ms(30_001))[0].kind,
            EventKind::Ended(Ending::NoStart)
        );
        // Gote's first move has its own limit from Sente's move.
        let (mut r, t0) = referee(fischer(60_000, 0), Some(ms(30_000)));
        r.act(Sente, mv(0, "2e3d"), Duration::ZERO, t0 + ms(20_000))
            .unwrap();
        assert!(r.tick(t0 + ms(45_000)).is_empty());
        assert_eq!(r.tick(t0 + ms(50_001)).len(), 1);
        assert!(!r.ending().unwrap().has_result());
    }

    #[test]
    fn abort_only_before_both_sides_have_moved() {
        let (mut r, t0) = referee(None, None);
        let now = play_opening(&mut r, t0, 1);
        let events = r.act(Gote, Action::Abort, Duration::ZERO, now).unwrap();
        assert_eq!(events[0].kind, EventKind::Ended(Ending::Aborted));
        let (mut r, t0) = referee(None, None);
        let now = play_opening(&mut r, t0, 2);
        assert_eq!(
            r.act(Sente, Action::Abort, Duration::ZERO, now),
            Err(Refusal::TooLateToAbort)
        );
        let events = r.act(Sente, Action::Resign, Duration::ZERO, now).unwrap();
        assert_eq!(events[0].kind, EventKind::Ended(Ending::Resignation(Sente)));
        assert_eq!(r.ending().unwrap().winner(), Some(Gote));
    }

    #[test]
    fn a_draw_needs_both_sides_and_a_move_answers_an_offer() {
        let (mut r, t0) = referee(None, None);
        let now = play_opening(&mut r, t0, 2);
        assert_eq!(
            r.act(Gote, Action::DeclineDraw, Duration::ZERO, now),
            Err(Refusal::NoOffer)
        );
        r.act(Sente, Action::OfferDraw, Duration::ZERO, now)
            .unwrap();
        // Offering twice changes nothing; the offerer cannot decline its own.
        assert_eq!(
            r.act(Sente, Action::OfferDraw, Duration::ZERO, now),
            Ok(vec![])
        );
        assert_eq!(
            r.act(Sente, Action::DeclineDraw, Duration::ZERO, now),
            Err(Refusal::NoOffer)
        );
        r.act(Gote, Action::DeclineDraw, Duration::ZERO, now)
            .unwrap();
        assert_eq!(r.draw_offer(), None);
        r.act(Gote, Action::OfferDraw, Duration::ZERO, now).unwrap();
        // Sente moves instead of answering: the offer lapses.
        r.act(Sente, mv(2, "3d2c"), Duration::ZERO, now).unwrap();
        assert_eq!(r.draw_offer(), None);
        r.act(Gote, Action::OfferDraw, Duration::ZERO, now).unwrap();
        let events = r
            .act(Sente, Action::OfferDraw, Duration::ZERO, now)
            .unwrap();
        assert_eq!(events[0].kind, EventKind::Ended(Ending::DrawAgreed));
        assert_eq!(r.ending().unwrap().winner(), None);
    }

    /// Mate, a fourfold repetition and the move limit end the game on the server, each
    /// with its winner and reason, and nothing is played after.
    #[test]
    fn mate_repetition_and_the_move_limit_are_judged_here() {
        let setup = Setup {
            clock: None,
            first_move_limit: None,
        };
        let t0 = Instant::now();
        // Mate: a gold dropped on 1b, held by the pawn.
        let mate = gogo_rules::Position::from_sfen("4k/5/4P/5/K4 b G 1").unwrap();
        let mut r = Referee::new(
            Game::from_position(RuleSet::standard(), mate),
            &setup,
            None,
            1,
            t0,
        );
        let events = r.act(Sente, mv(0, "G*1b"), ms(0), t0).unwrap();
        let ending = r.ending().unwrap().clone();
        assert_eq!(ending.winner(), Some(Sente), "{ending:?}");
        assert_eq!(ending.reason(), "checkmate");
        assert!(matches!(events.last().unwrap().kind, EventKind::Ended(_)));
        assert_eq!(
            r.act(Gote, Action::Resign, ms(0), t0),
            Err(Refusal::GameOver)
        );
        // Repetition: both rooks shuttle; the fourth occurrence loses for Sente.
        let (mut r, t0) = referee(None, None);
        let cycle = ["1e1d", "5a5b", "1d1e", "5b5a"];
        for ply in 0..12 {
            r.act([Sente, Gote][ply % 2], mv(ply, cycle[ply % 4]), ms(0), t0)
                .unwrap();
        }
        let ending = r.ending().expect("the fourth occurrence ends the game");
        assert_eq!(ending.winner(), Some(Gote));
        assert!(
            ending.reason().contains("Sente loses"),
            "{}",
            ending.reason()
        );
        // The move limit: a draw at the limit.
        let limited = RuleSet::standard().with_max_plies(Some(4));
        let mut r = Referee::new(Game::new(limited), &setup, None, 1, t0);
        for (ply, usi) in OPENING.iter().enumerate() {
            assert!(r.ending().is_none());
            r.act([Sente, Gote][ply % 2], mv(ply, usi), ms(0), t0)
                .unwrap();
        }
        let ending = r.ending().expect("the limit ends the game");
        assert!(
            ending.has_result() && ending.winner().is_none(),
            "{ending:?}"
        );
    }

    #[test]
    fn a_takeback_needs_the_other_side_and_restores_the_clocks() {
        let (mut r, t0) = referee(fischer(60_000, 0), None);
        let mut now = play_opening(&mut r, t0, 3);
        let before = r.clocks_after()[2];
        // Gote has moved once: its takeback removes its move and Sente's reply.
        assert_eq!(
            r.act(Gote, Action::DeclineTakeback, Duration::ZERO, now),
            Err(Refusal::NoOffer)
        );
        r.act(Gote, Action::ProposeTakeback, Duration::ZERO, now)
            .unwrap();
        r.act(Sente, Action::DeclineTakeback, Duration::ZERO, now)
            .unwrap();
        r.act(Gote, Action::ProposeTakeback, Duration::ZERO, now)
            .unwrap();
        now += ms(3000);
        let events = r
            .act(Sente, Action::ProposeTakeback, Duration::ZERO, now)
            .unwrap();
        assert_eq!(
            events[0].kind,
            EventKind::TookBack {
                plies: 1,
                clocks: r.clocks_after()[1]
            }
        );
        assert_eq!(r.game().moves().len(), 1);
        assert_eq!(r.clocks_at(now), r.clocks_after()[1]);
        assert_ne!(before, [ms(0); 2]);
        // Sente, to move, has one move: its takeback takes both back to the start.
        let (mut r, t0) = referee(None, None);
        assert_eq!(
            r.act(Sente, Action::ProposeTakeback, Duration::ZERO, t0),
            Err(Refusal::NothingToTakeBack)
        );
        let now = play_opening(&mut r, t0, 2);
        r.act(Sente, Action::ProposeTakeback, Duration::ZERO, now)
            .unwrap();
        r.act(Gote, Action::ProposeTakeback, Duration::ZERO, now)
            .unwrap();
        assert_eq!(r.game().moves().len(), 0);
    }

    #[test]
    fn a_page_that_comes_back_gets_what_it_missed_or_the_whole_state() {
        let (mut r, t0) = referee(None, None);
        play_opening(&mut r, t0, 4);
        let missed = r.events_after(7, 2).unwrap();
        assert_eq!(missed.iter().map(|e| e.number).collect::<Vec<_>>(), [3, 4]);
        assert_eq!(r.events_after(7, 4), Some(vec![]));
        // From another epoch (before a restart) or ahead: the whole state.
        assert_eq!(r.events_after(6, 2), None);
        assert_eq!(r.events_after(7, 5), None);
        // Past the kept history: the whole state.
        let mut now = t0;
        for _ in 0..HISTORY {
            now += ms(1);
            r.act(Sente, Action::OfferDraw, Duration::ZERO, now)
                .unwrap();
            r.act(Gote, Action::DeclineDraw, Duration::ZERO, now)
                .unwrap();
        }
        assert_eq!(r.events_after(7, 1), None);
        assert_eq!(r.events_after(7, r.last_event().1 - 3).unwrap().len(), 3);
    }

    #[test]
    fn a_game_taken_up_again_keeps_its_clocks_and_charges_no_one_for_the_gap() {
        let (mut r, t0) = referee(fischer(60_000, 0), None);
        let now = play_opening(&mut r, t0, 3);
        let clocks = r.clocks_after().to_vec();
        let later = now + ms(3_600_000);
        let setup = Setup {
            clock: fischer(60_000, 0),
            first_move_limit: None,
        };
        let back = Referee::new(r.game().clone(), &setup, Some(clocks.clone()), 8, later);
        assert_eq!(back.clocks_at(later), clocks[3]);
        assert!(back.ending().is_none());
        assert_eq!(back.clocks_at(later + ms(1000))[1], clocks[3][1] - ms(1000));
    }
}
