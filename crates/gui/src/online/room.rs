//! One online room, owned by one task (as lila's round actor owns a game): its seats, its
//! referee, the pages attached to it. Every request comes in tagged with the page it came
//! from; a change is worked out on a copy of the referee, stored, and only then made real
//! and told to anyone, so that nothing acknowledged is ever missing from the database.

use super::protocol::*;
use super::writer::StoreHandle;
use crate::messages::Side;
use crate::referee::{Event, EventKind, Referee, Setup};
use gogo_protocol::Ending;
use gogo_puzzle::glicko::Rating;
use gogo_rules::{Color, Game, RuleSet};
use gogo_store::{
    GameResult, PlayerRecord, SeatRecord, SecretHash, StoreError, StoredMove, StoredRating,
};
use std::collections::HashMap;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};

/// A game whose first moves do not come in this long ends unplayed (lichess: about 30 s).
pub const FIRST_MOVE_LIMIT: Duration = Duration::from_secs(30);
/// How long a player may be gone (no page connected) before the other may claim the win or
/// a draw, unless the server says otherwise (lichess: about 40 s; shorter here, as 5x5
/// games are short).
pub const ABSENCE_GRACE: Duration = Duration::from_secs(30);
/// A room still waiting for its second player closes once its host has had no page for
/// this long, so that the lobby lists only rooms someone waits in.
pub const HOST_GONE: Duration = Duration::from_secs(600);

/// How long a room waits for people who are gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Patience {
    /// A player gone this long may be claimed against ([`ABSENCE_GRACE`]).
    pub absence_grace: Duration,
    /// A waiting room whose host is gone this long closes ([`HOST_GONE`]).
    pub host_gone: Duration,
}

impl Default for Patience {
    fn default() -> Patience {
        Patience {
            absence_grace: ABSENCE_GRACE,
            host_gone: HOST_GONE,
        }
    }
}

/// Updates waiting for one page; a page further behind is let go (it comes back and gets
/// the whole room).
pub const PAGE_UPDATES: usize = 256;

/// A player in a seat.
#[derive(Clone, Debug)]
pub struct Seated {
    /// The player.
    pub player: PlayerRecord,
    /// The hash of the seat's secret.
    pub seat: SecretHash,
}

/// What the room's pages and the server ask of it.
pub enum RoomInput {
    /// A page attaches: a seat's holder (with the hash of the secret it showed) or a
    /// spectator (`None`); `after` is the last event it saw. The answer says whether it
    /// was let in.
    Attach {
        /// The page's connection.
        conn: u64,
        /// Spectators the room takes at most.
        max_spectators: usize,
        /// The hash of the seat secret the page showed.
        seat: Option<SecretHash>,
        /// The epoch and number of the last event the page saw.
        after: Option<(u64, u64)>,
        /// Where its updates go.
        updates: mpsc::Sender<RoomUpdate>,
        /// Whether it was let in (an error in words if not).
        reply: oneshot::Sender<Result<(), String>>,
    },
    /// A page went away.
    Detach {
        /// The page's connection.
        conn: u64,
    },
    /// A page's request, with its connection's lag.
    Request {
        /// The page's connection.
        conn: u64,
        /// The request.
        request: RoomRequest,
        /// Half the connection's last round trip.
        lag: Duration,
    },
    /// A player takes the open seat; the answer is the side they got.
    Join {
        /// The player.
        player: PlayerRecord,
        /// The hash of the seat's secret, made by the caller (who gives the secret to the
        /// player and to no one else).
        seat: SecretHash,
        /// The side, or why not.
        reply: oneshot::Sender<Result<Color, String>>,
    },
}

/// What the registry knows of a room, for the lobby.
#[derive(Clone, Debug, PartialEq)]
pub struct Listing {
    /// The host's name.
    pub host: String,
    /// The host's rating.
    pub rating: u32,
    /// The settings.
    pub settings: RoomSettings,
    /// Whether both seats are taken.
    pub playing: bool,
}

struct Conn {
    side: Option<Color>,
    updates: mpsc::Sender<RoomUpdate>,
}

/// A room's state, owned by its task.
pub struct Room {
    id: String,
    settings: RoomSettings,
    rules: RuleSet,
    seats: [Option<Seated>; 2],
    referee: Option<Referee>,
    epoch: u64,
    conns: HashMap<u64, Conn>,
    store: StoreHandle,
    /// The registry, for a rematch (set when the room is served).
    pub(super) rooms: Option<std::sync::Weak<super::rooms::Rooms>>,
    rematch_offer: Option<Color>,
    next_game: Option<String>,
    /// Since when each side has had no page connected.
    absent_since: [Option<Instant>; 2],
    /// How long the room waits for people who are gone.
    pub(super) patience: Patience,
    /// The CPU players' pool (rooms whose leave rule is the CPU).
    pub(super) cpu: Option<super::cpu::CpuPool>,
    /// A CPU move asked for: its ply and where it comes.
    cpu_wait: Option<(usize, oneshot::Receiver<Option<gogo_rules::Move>>)>,
    /// After the CPU gave no move, when to ask again.
    cpu_retry: Option<Instant>,
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

fn rating_of(player: &PlayerRecord) -> Rating {
    let r = player.rating;
    Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    }
}

fn stored(r: Rating) -> StoredRating {
    StoredRating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    }
}

impl Room {
    /// A room with its seats; its game starts once both are taken (`game`: the moves so
    /// far and both clocks after each, for a room taken up again after a restart).
    pub fn new(
        id: String,
        settings: RoomSettings,
        seats: [Option<Seated>; 2],
        game: Option<(Game, Vec<[Duration; 2]>)>,
        store: StoreHandle,
        epoch: u64,
    ) -> Result<Room, String> {
        let rules = settings.checked_rules()?;
        let mut room = Room {
            id,
            settings,
            rules,
            seats,
            referee: None,
            epoch,
            conns: HashMap::new(),
            store,
            rooms: None,
            rematch_offer: None,
            next_game: None,
            // Nobody is here yet: after a restart, the grace counts from the start.
            absent_since: [Some(Instant::now()); 2],
            patience: Patience::default(),
            cpu: None,
            cpu_wait: None,
            cpu_retry: None,
        };
        if room.seats.iter().all(Option::is_some) {
            let (game, clocks) = game.unwrap_or_else(|| (room.new_game(), Vec::new()));
            room.start(game, Some(clocks).filter(|c| !c.is_empty()));
        }
        Ok(room)
    }

    fn new_game(&self) -> Game {
        Game::from_position(self.rules, self.rules.start_position())
    }

    fn start(&mut self, game: Game, clocks: Option<Vec<[Duration; 2]>>) {
        let setup = Setup {
            clock: self.settings.clock.control(),
            first_move_limit: Some(FIRST_MOVE_LIMIT),
        };
        self.referee = Some(Referee::new(
            game,
            &setup,
            clocks,
            self.epoch,
            Instant::now(),
        ));
    }

    /// What the lobby shows of this room.
    pub fn listing(&self) -> Listing {
        let host = self.seats.iter().flatten().next();
        Listing {
            host: host.map_or_else(String::new, |s| s.player.name.clone()),
            rating: host.map_or(0, |s| s.player.rating.rating.round() as u32),
            settings: self.settings.clone(),
            playing: self.referee.is_some(),
        }
    }

    /// Whether the room is done with: its game over, or cancelled.
    pub fn is_over(&self) -> bool {
        self.referee.as_ref().is_some_and(|r| r.ending().is_some())
    }

    fn present(&self, side: Color) -> bool {
        self.conns.values().any(|c| c.side == Some(side))
    }

    /// The room as `side`'s page (or a spectator's) sees it.
    pub fn view(&self, you: Option<Color>) -> RoomView {
        let seats = [Color::Sente, Color::Gote].map(|side| {
            self.seats[side.index()].as_ref().map(|s| {
                let r = rating_of(&s.player);
                SeatView {
                    id: s.player.id.clone(),
                    name: s.player.name.clone(),
                    rating: r.rating.round() as u32,
                    provisional: r.is_provisional(),
                    present: self.present(side),
                    absent_ms: self.absent_since[side.index()]
                        .filter(|_| self.referee.is_some() && !self.is_over())
                        .map(|since| since.elapsed().as_millis() as u64),
                }
            })
        });
        let start = self.rules.start_position();
        let (epoch, event) = self
            .referee
            .as_ref()
            .map_or((self.epoch, 0), Referee::last_event);
        let now = Instant::now();
        let base = RoomView {
            id: self.id.clone(),
            epoch,
            event,
            you: you.map(Side::from),
            status: "waiting",
            seats,
            settings: self.settings.clone(),
            start: start.to_sfen(),
            moves: Vec::new(),
            sfen: start.to_sfen(),
            legal: Vec::new(),
            clocks_ms: [0; 2],
            running: None,
            draw_offer: None,
            takeback_offer: None,
            rematch_offer: self.rematch_offer.map(Side::from),
            next_game: self.next_game.clone(),
            claim_after_ms: self.patience.absence_grace.as_millis() as u64,
            cpu_plays: self.cpu_side().map(Side::from),
            result: None,
            reason: None,
        };
        let Some(referee) = &self.referee else {
            return base;
        };
        let game = referee.game();
        let ending = referee.ending();
        RoomView {
            status: if ending.is_some() { "over" } else { "playing" },
            moves: game.moves().iter().map(ToString::to_string).collect(),
            sfen: game.position().to_sfen(),
            legal: self.position_now().1,
            clocks_ms: referee.clocks_at(now).map(|d| d.as_millis() as u64),
            running: referee
                .clock_running()
                .then(|| game.position().side_to_move().into()),
            draw_offer: referee.draw_offer().map(Side::from),
            takeback_offer: referee.takeback_offer().map(Side::from),
            result: ending.map(Ending::result),
            reason: ending.map(Ending::reason),
            ..base
        }
    }

    /// The position now and its legal moves (none unless the game is being played).
    fn position_now(&self) -> (String, Vec<String>) {
        match &self.referee {
            None => (self.rules.start_position().to_sfen(), Vec::new()),
            Some(referee) => {
                let position = referee.game().position();
                let legal = match referee.ending() {
                    Some(_) => Vec::new(),
                    None => position
                        .legal_moves()
                        .iter()
                        .map(ToString::to_string)
                        .collect(),
                };
                (position.to_sfen(), legal)
            }
        }
    }

    /// Sends `update` to every page; a page too far behind is let go.
    fn broadcast(&mut self, update: impl Fn(Option<Color>) -> RoomUpdate) {
        self.conns
            .retain(|_, conn| conn.updates.try_send(update(conn.side)).is_ok());
    }

    fn broadcast_views(&mut self) {
        let views: [RoomUpdate; 3] = [Some(Color::Sente), Some(Color::Gote), None]
            .map(|side| RoomUpdate::Room(Box::new(self.view(side))));
        self.broadcast(|side| match side {
            Some(Color::Sente) => views[0].clone(),
            Some(Color::Gote) => views[1].clone(),
            None => views[2].clone(),
        });
    }

    fn broadcast_events(&mut self, events: &[Event]) {
        for event in events {
            let (sfen, legal) = self.position_now();
            let update = RoomUpdate::Event {
                epoch: self.epoch,
                number: event.number,
                event: EventView::from(&event.kind),
                sfen,
                legal,
            };
            self.broadcast(|_| update.clone());
        }
        // The end changes the room (its status, the ratings): each page gets it whole.
        if events.iter().any(|e| matches!(e.kind, EventKind::Ended(_))) {
            self.broadcast_views();
        }
    }

    /// Stores what `events` did to `next`; then `next` is the referee. On failure nothing
    /// changes (and nothing was told).
    async fn commit(&mut self, next: Referee, events: Vec<Event>) -> Result<(), String> {
        if events.is_empty() {
            return Ok(());
        }
        let id = self.id.clone();
        let at_ms = now_ms();
        let moves = next.game().moves().to_vec();
        let clocks = next.clocks_after().to_vec();
        let kinds: Vec<EventKind> = events.iter().map(|e| e.kind.clone()).collect();
        let rated = self.settings.rated;
        let players = self.seats.clone().map(|s| s.map(|s| s.player.id));
        let written = self
            .store
            .run(
                move |store| -> Result<Option<[PlayerRecord; 2]>, StoreError> {
                    let mut ratings = None;
                    for kind in &kinds {
                        match kind {
                            EventKind::Moved { ply, .. } => {
                                let mv = StoredMove {
                                    mv: moves[*ply],
                                    clocks_ms: clocks[*ply + 1].map(|d| d.as_millis() as u64),
                                    at_ms,
                                };
                                store.add_move(&id, *ply, &mv)?;
                            }
                            EventKind::TookBack { plies, .. } => store.take_back(&id, *plies)?,
                            EventKind::Ended(ending) => {
                                let result = GameResult {
                                    winner: ending.has_result().then(|| ending.winner()).flatten(),
                                    reason: ending.reason(),
                                    ended_ms: at_ms,
                                };
                                store.finish(&id, &result)?;
                                if let (true, true, [Some(s), Some(g)]) =
                                    (rated, ending.has_result(), &players)
                                {
                                    ratings = rate(store, [s, g], ending.winner())?;
                                }
                            }
                            _ => {}
                        }
                    }
                    Ok(ratings)
                },
            )
            .await;
        match written {
            Ok(Ok(ratings)) => {
                if let Some(players) = ratings {
                    for (seat, player) in self.seats.iter_mut().zip(players) {
                        if let Some(seat) = seat {
                            seat.player = player;
                        }
                    }
                }
                self.referee = Some(next);
                self.broadcast_events(&events);
                Ok(())
            }
            Ok(Err(e)) => {
                log::error!("game {}: cannot store a change: {e}", self.id);
                Err("the server could not keep that: try again".into())
            }
            Err(e) => {
                log::error!("game {}: {e}", self.id);
                Err("the server could not keep that: try again".into())
            }
        }
    }

    async fn request(&mut self, conn: u64, request: RoomRequest, lag: Duration) {
        let side = self.conns.get(&conn).and_then(|c| c.side);
        let outcome = match side {
            None => Err("a spectator watches: only the players move".to_string()),
            Some(side) => self.act(side, request, lag).await,
        };
        if let Err(message) = outcome {
            if let Some(c) = self.conns.get(&conn) {
                let _ = c.updates.try_send(RoomUpdate::Refused { message });
            }
        }
    }

    async fn act(
        &mut self,
        side: Color,
        request: RoomRequest,
        lag: Duration,
    ) -> Result<(), String> {
        if request == RoomRequest::Cancel {
            return self.cancel(side).await;
        }
        if request == RoomRequest::Rematch {
            return self.rematch(side).await;
        }
        if matches!(request, RoomRequest::ClaimVictory | RoomRequest::ClaimDraw) {
            return self.claim(side, request == RoomRequest::ClaimDraw).await;
        }
        let action = request
            .action()
            .expect("every other request is the referee's");
        let Some(referee) = &self.referee else {
            return Err("waiting for an opponent to join".into());
        };
        let mut next = referee.clone();
        let events = next
            .act(side, action, lag, Instant::now())
            .map_err(|e| e.to_string())?;
        self.commit(next, events).await
    }

    /// `side` asks for a rematch, or accepts the other's request: a new room with the same
    /// settings and players (colours swapped if the room alternates), each seat's new secret
    /// sent to its holder's pages alone.
    async fn rematch(&mut self, side: Color) -> Result<(), String> {
        if !self.is_over() || self.seats.iter().any(Option::is_none) {
            return Err("a rematch follows a game that was played to its end".into());
        }
        if self.next_game.is_some() {
            return Err("the rematch is already made".into());
        }
        match self.rematch_offer {
            Some(by) if by == side => Ok(()),
            None => {
                self.rematch_offer = Some(side);
                self.broadcast(|_| RoomUpdate::RematchOffered { by: side.into() });
                Ok(())
            }
            Some(_) => {
                let rooms = self
                    .rooms
                    .as_ref()
                    .and_then(std::sync::Weak::upgrade)
                    .ok_or("the server is stopping")?;
                let [sente, gote] = self.seats.clone().map(|s| s.expect("both seats"));
                let players = if self.settings.alternate {
                    [gote.player, sente.player]
                } else {
                    [sente.player, gote.player]
                };
                let (game, secrets) = rooms.open_game(self.settings.clone(), players).await?;
                self.next_game = Some(game.clone());
                self.rematch_offer = None;
                // The new seats by the player who holds them here.
                let seat_of = |side: Option<Color>, seats: &[Option<Seated>; 2]| {
                    let id = &seats[side?.index()].as_ref()?.player.id;
                    secrets
                        .iter()
                        .find(|(p, _)| p == id)
                        .map(|(_, s)| s.expose().to_string())
                };
                let seats = self.seats.clone();
                self.broadcast(|side| RoomUpdate::Rematch {
                    game: game.clone(),
                    seat: seat_of(side, &seats),
                });
                Ok(())
            }
        }
    }

    /// The side whose player left and for whom the CPU plays now (the room's rule), if any.
    fn cpu_side(&self) -> Option<Color> {
        let LeaveRule::Cpu { .. } = self.settings.leave else {
            return None;
        };
        let referee = self.referee.as_ref().filter(|r| r.ending().is_none())?;
        let side = referee.game().position().side_to_move();
        let gone = self.absent_since[side.index()].filter(|_| !self.present(side))?;
        (gone.elapsed() >= self.patience.absence_grace).then_some(side)
    }

    /// When the CPU should take the side to move's turn, if its player is gone.
    fn cpu_deadline(&self) -> Option<Instant> {
        let LeaveRule::Cpu { .. } = self.settings.leave else {
            return None;
        };
        let referee = self.referee.as_ref().filter(|r| r.ending().is_none())?;
        let side = referee.game().position().side_to_move();
        let since = self.absent_since[side.index()].filter(|_| !self.present(side))?;
        Some(since + self.patience.absence_grace)
    }

    /// Asks the pool for the absent side's move, once a turn.
    fn ask_cpu(&mut self) {
        let (Some(side), Some(pool), LeaveRule::Cpu { level }) =
            (self.cpu_side(), &self.cpu, self.settings.leave)
        else {
            return;
        };
        let referee = self.referee.as_ref().expect("a game is played");
        let ply = referee.game().moves().len();
        if self.cpu_wait.as_ref().is_some_and(|(p, _)| *p == ply)
            || self.cpu_retry.is_some_and(|at| Instant::now() < at)
        {
            return;
        }
        // A second at most, and a twentieth of what the clock allows.
        let think = referee
            .clock()
            .map_or(Duration::from_secs(1), |c| {
                c.allowed(side, Duration::from_secs(1)) / 20
            })
            .clamp(Duration::from_millis(100), Duration::from_secs(1));
        let (reply, answer) = oneshot::channel();
        let game = referee.game();
        pool.ask(super::cpu::CpuAsk {
            start: game.start().clone(),
            moves: game.moves().to_vec(),
            rules: game.rules().name(),
            max_plies: game.rules().max_plies.unwrap_or(0),
            level,
            think,
            reply,
        });
        self.cpu_wait = Some((ply, answer));
    }

    /// The CPU's move for ply `ply`: played if its player is still gone and it is still
    /// that turn.
    async fn cpu_move(&mut self, ply: usize, mv: Option<gogo_rules::Move>) {
        let Some(side) = self.cpu_side() else { return };
        let current = self.referee.as_ref().map(|r| r.game().moves().len());
        if current != Some(ply) {
            return;
        }
        let Some(mv) = mv else {
            log::warn!(
                "room {}: the CPU gave no move; it tries again in 5 s",
                self.id
            );
            self.cpu_retry = Some(Instant::now() + Duration::from_secs(5));
            return;
        };
        let request = RoomRequest::Move {
            ply,
            usi: mv.to_string(),
        };
        if let Err(e) = self.act(side, request, Duration::ZERO).await {
            log::warn!("room {}: the CPU's move was refused: {e}", self.id);
        }
    }

    /// `side` claims the win (or a draw, `drawn`) of a game its opponent left more than the
    /// grace time ago.
    async fn claim(&mut self, side: Color, drawn: bool) -> Result<(), String> {
        if let LeaveRule::Cpu { .. } = self.settings.leave {
            return Err("in this room the CPU plays for a player who left".into());
        }
        let Some(referee) = self.referee.as_ref().filter(|r| r.ending().is_none()) else {
            return Err("there is no game being played to claim".into());
        };
        let gone = self.absent_since[(!side).index()]
            .filter(|_| !self.present(!side))
            .map(|since| since.elapsed());
        if gone.is_none_or(|gone| gone < self.patience.absence_grace) {
            return Err(format!(
                "your opponent may come back: a claim waits {} s after they left",
                self.patience.absence_grace.as_secs()
            ));
        }
        let mut next = referee.clone();
        let events = next.abandon(!side, drawn);
        self.commit(next, events).await
    }

    /// The host closes the room before anyone joined: it ends unplayed.
    async fn cancel(&mut self, side: Color) -> Result<(), String> {
        if self.referee.is_some() {
            return Err("an opponent has joined: abort or resign instead".into());
        }
        let mut referee = Referee::new(
            self.new_game(),
            &Setup {
                clock: None,
                first_move_limit: None,
            },
            None,
            self.epoch,
            Instant::now(),
        );
        let events = referee
            .act(
                side,
                crate::referee::Action::Abort,
                Duration::ZERO,
                Instant::now(),
            )
            .map_err(|e| e.to_string())?;
        self.commit(referee, events).await
    }

    async fn join(&mut self, player: PlayerRecord, seat: SecretHash) -> Result<Color, String> {
        let Some(open) = [Color::Sente, Color::Gote]
            .into_iter()
            .find(|c| self.seats[c.index()].is_none())
        else {
            return Err("both seats are taken".into());
        };
        if self
            .seats
            .iter()
            .flatten()
            .any(|s| s.player.id == player.id)
        {
            return Err("you are already in this room".into());
        }
        let record = SeatRecord {
            player: Some(player.id.clone()),
            name: player.name.clone(),
            seat: Some(seat),
        };
        let id = self.id.clone();
        self.store
            .run(move |store| store.set_seat(&id, open, &record))
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())?;
        self.seats[open.index()] = Some(Seated { player, seat });
        let game = self.new_game();
        self.start(game, None);
        self.broadcast_views();
        Ok(open)
    }

    fn attach(
        &mut self,
        conn: u64,
        max_spectators: usize,
        seat: Option<SecretHash>,
        after: Option<(u64, u64)>,
        updates: mpsc::Sender<RoomUpdate>,
    ) -> Result<(), String> {
        let side = match seat {
            None => None,
            Some(hash) => Some(
                [Color::Sente, Color::Gote]
                    .into_iter()
                    .find(|c| {
                        self.seats[c.index()]
                            .as_ref()
                            .is_some_and(|s| s.seat == hash)
                    })
                    .ok_or("that is not a seat of this game")?,
            ),
        };
        if side.is_none()
            && self.conns.values().filter(|c| c.side.is_none()).count() >= max_spectators
        {
            return Err("this game has as many spectators as it can take".into());
        }
        let was_present = side.is_some_and(|s| self.present(s));
        // What it missed, or the whole room.
        let missed = match (after, &self.referee) {
            (Some((epoch, number)), Some(referee)) => referee.events_after(epoch, number),
            _ => None,
        };
        let first: Vec<RoomUpdate> = match missed {
            Some(events) => events
                .iter()
                .map(|e| {
                    let (sfen, legal) = self.position_now();
                    RoomUpdate::Event {
                        epoch: self.epoch,
                        number: e.number,
                        event: EventView::from(&e.kind),
                        sfen,
                        legal,
                    }
                })
                .collect(),
            None => vec![RoomUpdate::Room(Box::new(self.view(side)))],
        };
        for update in first {
            updates
                .try_send(update)
                .map_err(|_| "too many updates".to_string())?;
        }
        self.conns.insert(conn, Conn { side, updates });
        if let Some(side) = side {
            self.absent_since[side.index()] = None;
        }
        if let (Some(side), false) = (side, was_present) {
            self.broadcast(|_| RoomUpdate::Presence {
                side: side.into(),
                present: true,
            });
        }
        Ok(())
    }

    fn detach(&mut self, conn: u64) {
        let Some(gone) = self.conns.remove(&conn) else {
            return;
        };
        if let Some(side) = gone.side.filter(|s| !self.present(*s)) {
            self.absent_since[side.index()] = Some(Instant::now());
            self.broadcast(|_| RoomUpdate::Presence {
                side: side.into(),
                present: false,
            });
        }
    }

    /// The room's task: until its game is over and its pages and the registry let it go.
    pub async fn run(mut self, mut inputs: mpsc::Receiver<RoomInput>, on_change: impl Fn(&Room)) {
        loop {
            let deadline = match &self.referee {
                Some(referee) => [referee.next_deadline(), self.cpu_deadline()]
                    .into_iter()
                    .flatten()
                    .min(),
                // Waiting: until the host has been gone too long.
                None => self
                    .absent_since
                    .iter()
                    .flatten()
                    .min()
                    .filter(|_| self.seats.iter().flatten().count() == 1)
                    .map(|since| *since + self.patience.host_gone),
            };
            let sleep = async {
                match deadline {
                    Some(at) => tokio::time::sleep_until(at.into()).await,
                    None => std::future::pending().await,
                }
            };
            let cpu_ply = self.cpu_wait.as_ref().map(|(ply, _)| *ply);
            let cpu_answer = async {
                match &mut self.cpu_wait {
                    Some((_, answer)) => answer.await.ok().flatten(),
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                mv = cpu_answer => {
                    self.cpu_wait = None;
                    if let Some(ply) = cpu_ply {
                        self.cpu_move(ply, mv).await;
                    }
                }
                input = inputs.recv() => match input {
                    None => break,
                    Some(RoomInput::Attach { conn, max_spectators, seat, after, updates, reply }) => {
                        let _ = reply.send(self.attach(conn, max_spectators, seat, after, updates));
                    }
                    Some(RoomInput::Detach { conn }) => self.detach(conn),
                    Some(RoomInput::Request { conn, request, lag }) => {
                        self.request(conn, request, lag).await;
                    }
                    Some(RoomInput::Join { player, seat, reply }) => {
                        let _ = reply.send(self.join(player, seat).await);
                    }
                },
                _ = sleep => {
                    if self.referee.is_none() {
                        let host = [Color::Sente, Color::Gote]
                            .into_iter()
                            .find(|c| self.seats[c.index()].is_some());
                        if let Some(host) = host.filter(|h| !self.present(*h)) {
                            log::info!("room {}: its host left before anyone joined", self.id);
                            let _ = self.cancel(host).await;
                        }
                    }
                    if let Some(referee) = &self.referee {
                        let mut next = referee.clone();
                        // A flag that falls is told once it is stored; if storing fails it
                        // is judged again at the next wake.
                        let events = next.tick(Instant::now());
                        if self.commit(next, events).await.is_err() {
                            tokio::time::sleep(Duration::from_millis(200)).await;
                        }
                    }
                }
            }
            self.ask_cpu();
            on_change(&self);
        }
    }
}

/// Rates both players of a finished rated game (`winner`: `None` for a draw); their
/// records as they now are.
fn rate(
    store: &mut gogo_store::Store,
    players: [&String; 2],
    winner: Option<Color>,
) -> Result<Option<[PlayerRecord; 2]>, StoreError> {
    let (Some(sente), Some(gote)) = (store.player(players[0])?, store.player(players[1])?) else {
        return Ok(None);
    };
    let score = |side: Color| match winner {
        None => 0.5,
        Some(w) if w == side => 1.0,
        Some(_) => 0.0,
    };
    let (rs, rg) = (rating_of(&sente), rating_of(&gote));
    let next = [
        rs.after_game(rg, score(Color::Sente)),
        rg.after_game(rs, score(Color::Gote)),
    ];
    store.set_rating(&sente.id, stored(next[0]))?;
    store.set_rating(&gote.id, stored(next[1]))?;
    Ok(Some([
        store.player(&sente.id)?.unwrap_or(sente),
        store.player(&gote.id)?.unwrap_or(gote),
    ]))
}
