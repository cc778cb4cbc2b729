//! One online room, owned by one task (as lila's round actor owns a game): its seats, its
//! referee, the pages attached to it. Every request comes in tagged with the page it came
//! from; a change is worked out on a copy of the referee, stored, and only then made real
//! and told to anyone, so that nothing acknowledged is ever missing from the database.

use super::protocol::*;
use crate::messages::Side;
use crate::referee::{Event, EventKind, Referee, Setup};
use crate::writer::StoreHandle;
use gogo_protocol::Ending;
use gogo_puzzle::glicko::Rating;
use gogo_rules::{Color, Game, RuleSet};
use gogo_store::{
    GameResult, PlayerRecord, SeatRecord, SecretHash, StoreError, StoredMove, StoredRating,
};
use std::collections::HashMap;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};

mod commit;
mod cpu_turn;
mod requests;

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

/// Who attaches to a room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Who {
    /// Anyone with the game's id: watches.
    Spectator,
    /// The holder of the seat whose secret hashes to this (a page).
    Seat(SecretHash),
    /// The player with this id, whose key the request bore (the API).
    Player(String),
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
        /// Who it is.
        who: Who,
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
    /// A request of the player with this id, through the API (a move is for the next ply).
    Act {
        /// The player's id.
        player: String,
        /// What they ask (a move's ply is the room's next).
        request: RoomRequest,
        /// Whether it was done (an error in words if not).
        reply: oneshot::Sender<Result<(), String>>,
    },
    /// The player a challenge waits for declines it: the room closes unplayed.
    Decline {
        /// The player's id.
        player: String,
        /// Whether it was declined (an error in words if not).
        reply: oneshot::Sender<Result<(), String>>,
    },
    /// Another process judges the game now: the room's task ends and its pages are let
    /// go (they come back, and reach the game there).
    Close,
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
    /// Sente's and Gote's player ids, where seated.
    pub players: [Option<String>; 2],
    /// Whether only one player may join (a challenge): not in the lobby.
    pub private: bool,
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
    pub(super) rooms: Option<std::sync::Weak<crate::online::rooms::Rooms>>,
    rematch_offer: Option<Color>,
    next_game: Option<String>,
    /// Since when each side has had no page connected.
    absent_since: [Option<Instant>; 2],
    /// How long the room waits for people who are gone.
    pub(super) patience: Patience,
    /// The CPU players' pool (rooms whose leave rule is the CPU).
    pub(super) cpu: Option<crate::online::cpu::CpuPool>,
    /// A CPU move asked for: its ply and where it comes.
    cpu_wait: Option<(usize, oneshot::Receiver<Option<gogo_rules::Move>>)>,
    /// After the CPU gave no move, when to ask again.
    cpu_retry: Option<Instant>,
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
        if room.seats_filled() {
            let (game, clocks) = game.unwrap_or_else(|| (room.new_game(), Vec::new()));
            room.start(game, Some(clocks).filter(|c| !c.is_empty()));
        }
        Ok(room)
    }

    /// Whether both seats are taken: by two players, or by one and the CPU.
    fn seats_filled(&self) -> bool {
        let players = self.seats.iter().flatten().count();
        players == 2 || (players == 1 && self.settings.cpu_opponent.is_some())
    }

    /// The CPU's side in a game against it: the seat no player holds.
    pub(super) fn cpu_opponent(&self) -> Option<Color> {
        self.settings.cpu_opponent?;
        [Color::Sente, Color::Gote]
            .into_iter()
            .find(|c| self.seats[c.index()].is_none())
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
            players: self.seats.clone().map(|s| s.map(|s| s.player.id)),
            private: self.settings.opponent.is_some() || self.settings.cpu_opponent.is_some(),
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
        let cpu = self.cpu_opponent();
        let seats = [Color::Sente, Color::Gote].map(|side| {
            if cpu == Some(side) {
                return Some(SeatView {
                    id: String::new(),
                    name: self.settings.cpu_name().unwrap_or_default(),
                    rating: 0,
                    provisional: false,
                    present: true,
                    absent_ms: None,
                    cpu: true,
                });
            }
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
                    cpu: false,
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
            status: "waiting".into(),
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
            status: if ending.is_some() { "over" } else { "playing" }.into(),
            moves: game.moves().iter().map(ToString::to_string).collect(),
            sfen: game.position().to_sfen(),
            legal: self.position_now().1,
            clocks_ms: referee.clocks_at(now).map(|d| d.as_millis() as u64),
            running: referee
                .clock_running()
                .then(|| game.position().side_to_move().into()),
            draw_offer: referee.draw_offer().map(Side::from),
            takeback_offer: referee.takeback_offer().map(Side::from),
            result: ending.map(|e| e.result().into()),
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

    fn attach(
        &mut self,
        conn: u64,
        max_spectators: usize,
        who: Who,
        after: Option<(u64, u64)>,
        updates: mpsc::Sender<RoomUpdate>,
    ) -> Result<(), String> {
        let side = match who {
            Who::Spectator => None,
            Who::Seat(hash) => Some(
                self.side_where(|s| s.seat == hash)
                    .ok_or("that is not a seat of this game")?,
            ),
            Who::Player(id) => Some(
                self.side_where(|s| s.player.id == id)
                    .ok_or("you are not a player of this game")?,
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

    /// The side whose seat satisfies `test`.
    fn side_where(&self, test: impl Fn(&Seated) -> bool) -> Option<Color> {
        [Color::Sente, Color::Gote]
            .into_iter()
            .find(|c| self.seats[c.index()].as_ref().is_some_and(&test))
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
        // A game against the CPU may begin with the CPU's move.
        self.ask_cpu();
        loop {
            let deadline = match &self.referee {
                Some(referee) => [
                    referee.next_deadline(),
                    self.cpu_deadline(),
                    self.cpu_game_left_at(),
                ]
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
                    None | Some(RoomInput::Close) => break,
                    Some(RoomInput::Attach { conn, max_spectators, who, after, updates, reply }) => {
                        let _ = reply.send(self.attach(conn, max_spectators, who, after, updates));
                    }
                    Some(RoomInput::Act { player, request, reply }) => {
                        let _ = reply.send(self.act_for(&player, request).await);
                    }
                    Some(RoomInput::Decline { player, reply }) => {
                        let _ = reply.send(self.decline(&player).await);
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
                    if self.cpu_game_left_at().is_some_and(|at| Instant::now() >= at) {
                        self.leave_cpu_game().await;
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
