//! Several server processes on one PostgreSQL, any of which serves any game (issue 57), in
//! lila's shape: one owner per live game. The process that holds a game's lease in the
//! database runs its room (its referee, clocks, timeouts and CPU player); a page attached
//! to another process reaches the room through a thin relay on the bus (LISTEN/NOTIFY):
//! its requests go to the holder, the room's updates come back, each page's in order.
//!
//! Every second a process renews its leases, takes up games whose lease lapsed (their
//! process died, or drained), lets go of pages whose room's holder changed (they come back
//! and reach the new one), and tells the holders it relays for that it is alive (a holder
//! lets go of the pages of a process it has not heard from). A move is still ordered by the
//! database: a holder that lost its lease without knowing cannot store a ply twice.

pub(crate) mod wire;

use super::protocol::RoomUpdate;
use super::room::{RoomInput, Who, PAGE_UPDATES};
use super::rooms::{Lobby, LobbyRoom, Rooms};
use crate::messages::Side;
use crate::writer::StoreHandle;
use gogo_store::StoreError;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};
use wire::{Heard, Wire, WireWho};

/// How long a lease lasts unless renewed: a process that dies loses its games to the
/// others within this and a [`TICK`].
pub const LEASE: Duration = Duration::from_secs(4);
/// How often a process renews its leases and looks for lapsed ones.
pub const TICK: Duration = Duration::from_secs(1);
/// How long an answer from another process is awaited.
const ANSWER_WAIT: Duration = Duration::from_secs(10);
/// A process not heard from this long has no pages here any more.
const SILENT: Duration = Duration::from_secs(6);
/// Games taken up at most per tick (the rest at the next, or by another process).
const TAKE_UP_PER_TICK: usize = 100;
/// The numbers of pages elsewhere, in a holder's rooms (apart from its own pages').
const REMOTE_CONNS: u64 = 1 << 62;

type Answer = Box<dyn FnOnce(Result<serde_json::Value, String>) + Send>;

/// What the relays hold, on both sides.
#[derive(Default)]
struct Relays {
    /// Pages here attached to rooms held elsewhere: their game and where updates go.
    pages: HashMap<u64, (String, mpsc::Sender<RoomUpdate>)>,
    /// Answers awaited from holders: since when, for which game, and whom to give them.
    answers: HashMap<u64, (Instant, String, Answer)>,
    /// Rooms held elsewhere that pages here reach: their holder and the relay's inputs.
    proxies: HashMap<String, (String, mpsc::Sender<RoomInput>)>,
    /// Pages elsewhere attached to rooms here, by process and number: the number the room
    /// knows them by, and the room's inputs (a finished game's room too).
    remote: HashMap<(String, u64), RemotePage>,
    /// When each process that relays to rooms here was last heard from.
    heard: HashMap<String, Instant>,
}

/// A page elsewhere attached to a room here.
#[derive(Clone)]
struct RemotePage {
    /// The number the room knows it by.
    conn: u64,
    /// The room's inputs.
    room: mpsc::Sender<RoomInput>,
}

/// This process among the others.
pub struct Cluster {
    /// This process's id: its channel on the bus, and the holder named in its leases.
    me: String,
    /// The cluster's own connection to the database.
    db: StoreHandle,
    /// Every process's channel (of the processes on this database's schema).
    all: String,
    outbox: std::sync::mpsc::Sender<(String, Wire)>,
    relays: Mutex<Relays>,
    serials: AtomicU64,
    /// The lobby of every process, as the database has it.
    lobby: Mutex<Lobby>,
    /// Tells the lobby's keeper to read it again.
    lobby_stale: tokio::sync::Notify,
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Cluster({})", self.me)
    }
}

impl Cluster {
    /// Joins the processes on the PostgreSQL database at `url` that `rooms` stores in:
    /// starts the bus, the lease keeper (which takes up games no one holds) and the lobby's
    /// keeper.
    pub async fn start(url: &str, rooms: &Arc<Rooms>) -> Result<Arc<Cluster>, String> {
        // A connection of its own, so that the leases, the lobby and the lookups of where a
        // game is never wait behind the moves being written (nor they behind them).
        let location = std::path::PathBuf::from(url);
        let db = tokio::task::spawn_blocking(move || StoreHandle::open(Some(&location)))
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())?;
        let schema = db
            .run(|store| store.leases()?.schema_name())
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())?;
        let mut all: String = format!("gogo_all_{schema}")
            .chars()
            .map(|c| match c.to_ascii_lowercase() {
                c @ ('a'..='z' | '0'..='9' | '_') => c,
                _ => '_',
            })
            .collect();
        all.truncate(63);
        let mut bytes = [0u8; 8];
        getrandom::fill(&mut bytes).expect("random bytes");
        let me = format!(
            "gogo_{}",
            bytes.iter().map(|b| format!("{b:02x}")).collect::<String>()
        );
        let cluster = Arc::new(Cluster {
            outbox: wire::start_sender(url.to_string(), me.clone()),
            me: me.clone(),
            db,
            all: all.clone(),
            relays: Mutex::default(),
            serials: AtomicU64::new(0),
            lobby: Mutex::default(),
            lobby_stale: tokio::sync::Notify::new(),
        });
        let (heard_tx, heard) = mpsc::channel(4096);
        wire::start_listener(url.to_string(), me, all, heard_tx);
        rooms.set_cluster(Arc::clone(&cluster));
        // The lobby is read at once, then as it changes.
        cluster.lobby_stale.notify_one();
        tokio::spawn(Arc::clone(&cluster).dispatch(Arc::downgrade(rooms), heard));
        tokio::spawn(Arc::clone(&cluster).keep_leases(Arc::downgrade(rooms)));
        tokio::spawn(Arc::clone(&cluster).keep_lobby(Arc::downgrade(rooms)));
        Ok(cluster)
    }

    /// Tells every process (this one too) that the lobby changed.
    pub(super) fn lobby_changed(&self) {
        self.send(&self.all, Wire::Lobby);
    }

    /// Tells `player`'s event streams on every process `event`.
    pub(super) fn tell(&self, player: &str, event: serde_json::Value) {
        let player = player.to_string();
        self.send(&self.all, Wire::Tell { player, event });
    }

    /// The lobby of every process.
    pub(super) fn lobby(&self) -> Lobby {
        self.lobby.lock().expect("lobby lock").clone()
    }

    /// Reads the lobby from the database whenever a process says it changed (at most five
    /// times a second), and every five seconds whatever is said.
    async fn keep_lobby(self: Arc<Self>, rooms: Weak<Rooms>) {
        loop {
            let _ = tokio::time::timeout(Duration::from_secs(5), self.lobby_stale.notified()).await;
            let Some(rooms) = rooms.upgrade() else {
                return;
            };
            let read = self
                .db
                .run(|store| -> Result<_, StoreError> {
                    let leases = store.leases()?;
                    Ok((leases.open_games(500)?, leases.games_played("")?.0))
                })
                .await;
            match read {
                Ok(Ok((open, playing))) => {
                    let waiting = open
                        .into_iter()
                        .filter_map(|game| {
                            let settings: super::protocol::RoomSettings =
                                serde_json::from_str(&game.settings).ok()?;
                            let private =
                                settings.opponent.is_some() || settings.cpu_opponent.is_some();
                            (!private).then(|| LobbyRoom {
                                id: game.id,
                                host: game.host,
                                rating: game.rating.round() as u32,
                                settings,
                            })
                        })
                        .collect();
                    *self.lobby.lock().expect("lobby lock") = Lobby { waiting, playing };
                    rooms.tell_lobby_watchers();
                }
                Ok(Err(e)) => log::error!("the lobby: {e}"),
                Err(e) => log::error!("the lobby: {e}"),
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// This process's id.
    pub fn me(&self) -> &str {
        &self.me
    }

    /// The cluster's own connection to the database (for what is read, not what a game
    /// writes).
    pub(super) fn db(&self) -> &StoreHandle {
        &self.db
    }

    fn relays(&self) -> std::sync::MutexGuard<'_, Relays> {
        self.relays.lock().expect("relays lock")
    }

    fn send(&self, to: &str, wire: Wire) {
        let _ = self.outbox.send((to.to_string(), wire));
    }

    /// Registers `answer` to be given what the holder of `game` answers (or an error if
    /// nothing comes in time); its number.
    fn expect(&self, game: &str, answer: Answer) -> u64 {
        let id = self.serials.fetch_add(1, Ordering::SeqCst);
        self.relays()
            .answers
            .insert(id, (Instant::now(), game.to_string(), answer));
        id
    }

    /// The inputs of room `id` held elsewhere (a relay to its holder), or taken up here if
    /// no one holds it; `None` if it is not a live game.
    pub(super) async fn reach(
        self: &Arc<Self>,
        rooms: &Arc<Rooms>,
        id: &str,
    ) -> Option<mpsc::Sender<RoomInput>> {
        if let Some((_, inputs)) = self.relays().proxies.get(id) {
            return Some(inputs.clone());
        }
        // Only what could be a game's id costs a query.
        if id.is_empty() || id.len() > 32 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
            return None;
        }
        let (me, game) = (self.me.clone(), id.to_string());
        let holder = self
            .db
            .run(move |store| -> Result<Option<String>, StoreError> {
                let leases = store.leases()?;
                if let Some(holder) = leases.lease_holder(&game)? {
                    return Ok(Some(holder));
                }
                match leases.claim_game(&game, &me, LEASE)? {
                    true => Ok(Some(me)),
                    false => leases.lease_holder(&game),
                }
            })
            .await
            .ok()?
            .map_err(|e| log::error!("game {id}: its lease: {e}"))
            .ok()??;
        if holder == self.me {
            rooms.take_up(id).await;
            return rooms.find(id);
        }
        let mut relays = self.relays();
        if let Some((_, inputs)) = relays.proxies.get(id) {
            return Some(inputs.clone());
        }
        let (inputs, queue) = mpsc::channel(PAGE_UPDATES);
        relays
            .proxies
            .insert(id.to_string(), (holder.clone(), inputs.clone()));
        tokio::spawn(Arc::clone(self).relay(id.to_string(), holder, queue));
        Some(inputs)
    }

    /// Relays what pages here ask of room `game` to its holder, until the room's pages are
    /// let go.
    async fn relay(
        self: Arc<Self>,
        game: String,
        holder: String,
        mut inputs: mpsc::Receiver<RoomInput>,
    ) {
        let from = self.me.clone();
        while let Some(input) = inputs.recv().await {
            let wire = match input {
                RoomInput::Attach {
                    conn,
                    max_spectators,
                    who,
                    after,
                    updates,
                    reply,
                } => {
                    self.relays().pages.insert(conn, (game.clone(), updates));
                    let answer = self.expect(
                        &game,
                        Box::new(move |r| {
                            let _ = reply.send(r.map(|_| ()));
                        }),
                    );
                    let who = match who {
                        Who::Spectator => WireWho::Spectator,
                        Who::Seat(hash) => WireWho::Seat(wire::hex(&hash)),
                        Who::Player(id) => WireWho::Player(id),
                    };
                    Wire::Attach {
                        game: game.clone(),
                        from: from.clone(),
                        conn,
                        who,
                        after,
                        max_spectators,
                        answer,
                    }
                }
                RoomInput::Detach { conn } => {
                    self.relays().pages.remove(&conn);
                    Wire::Detach {
                        game: game.clone(),
                        from: from.clone(),
                        conn,
                    }
                }
                RoomInput::Request { conn, request, lag } => Wire::Request {
                    game: game.clone(),
                    from: from.clone(),
                    conn,
                    request,
                    lag_ms: lag.as_millis() as u64,
                },
                RoomInput::Act {
                    player,
                    request,
                    reply,
                } => Wire::Act {
                    game: game.clone(),
                    from: from.clone(),
                    answer: self.expect(
                        &game,
                        Box::new(move |r| {
                            let _ = reply.send(r.map(|_| ()));
                        }),
                    ),
                    player,
                    request,
                },
                RoomInput::Decline { player, reply } => Wire::Decline {
                    game: game.clone(),
                    from: from.clone(),
                    answer: self.expect(
                        &game,
                        Box::new(move |r| {
                            let _ = reply.send(r.map(|_| ()));
                        }),
                    ),
                    player,
                },
                RoomInput::Join {
                    player,
                    seat,
                    reply,
                } => Wire::Join {
                    game: game.clone(),
                    from: from.clone(),
                    answer: self.expect(
                        &game,
                        Box::new(move |r| {
                            let side = r.and_then(|v| {
                                serde_json::from_value::<Side>(v).map_err(|e| e.to_string())
                            });
                            let _ = reply.send(side.map(Into::into));
                        }),
                    ),
                    player: player.id,
                    seat: wire::hex(&seat),
                },
                RoomInput::Close => break,
            };
            self.send(&holder, wire);
        }
    }

    /// Handles what other processes say, in the order they said it.
    async fn dispatch(self: Arc<Self>, rooms: Weak<Rooms>, mut heard: mpsc::Receiver<Heard>) {
        while let Some(heard) = heard.recv().await {
            let Some(rooms) = rooms.upgrade() else {
                return;
            };
            match heard {
                // Updates may have been missed: the pages come back and get their rooms
                // whole.
                Heard::Gap => self.let_go(|_| true),
                Heard::Message(wire) => self.handle(&rooms, wire).await,
            }
        }
    }

    async fn handle(self: &Arc<Self>, rooms: &Arc<Rooms>, wire: Wire) {
        match wire {
            Wire::Attach {
                game,
                from,
                conn,
                who,
                after,
                max_spectators,
                answer,
            } => {
                let who = match who {
                    WireWho::Spectator => Some(Who::Spectator),
                    WireWho::Seat(hex) => wire::unhex(&hex).map(Who::Seat),
                    WireWho::Player(id) => Some(Who::Player(id)),
                };
                // A game this process has just claimed may not be served yet.
                let inputs = match rooms.find(&game) {
                    Some(inputs) => Some(inputs),
                    None => self.serve_if_held(rooms, &game).await,
                };
                let (Some(inputs), Some(who)) = (inputs, who) else {
                    let result = Err("no such live game".to_string());
                    return self.send(&from, Wire::Answer { answer, result });
                };
                let local = REMOTE_CONNS | self.serials.fetch_add(1, Ordering::SeqCst);
                {
                    let mut relays = self.relays();
                    relays.heard.insert(from.clone(), Instant::now());
                    relays.remote.insert(
                        (from.clone(), conn),
                        RemotePage {
                            conn: local,
                            room: inputs.clone(),
                        },
                    );
                }
                let (updates, mut out) = mpsc::channel(PAGE_UPDATES);
                let me = Arc::clone(self);
                let (to, room) = (from.clone(), game.clone());
                tokio::spawn(async move {
                    while let Some(update) = out.recv().await {
                        let (game, from) = (room.clone(), me.me.clone());
                        me.send(
                            &to,
                            Wire::Update {
                                game,
                                from,
                                conn,
                                update,
                            },
                        );
                    }
                    me.relays().remote.remove(&(to.clone(), conn));
                    me.send(&to, Wire::Closed { conn });
                });
                let (reply, answered) = oneshot::channel();
                let attach = RoomInput::Attach {
                    conn: local,
                    max_spectators,
                    who,
                    after,
                    updates,
                    reply,
                };
                if inputs.send(attach).await.is_err() {
                    let result = Err("no such live game".to_string());
                    return self.send(&from, Wire::Answer { answer, result });
                }
                self.answer_when(from, answer, async move {
                    answered
                        .await
                        .map_err(|_| "the room has closed".to_string())??;
                    Ok(serde_json::Value::Null)
                });
            }
            Wire::Detach { from, conn, .. } => {
                let found = self.relays().remote.remove(&(from, conn));
                if let Some(page) = found {
                    let _ = page.room.send(RoomInput::Detach { conn: page.conn }).await;
                }
            }
            Wire::Request {
                from,
                conn,
                request,
                lag_ms,
                ..
            } => {
                let found = self.relays().remote.get(&(from, conn)).cloned();
                if let Some(page) = found {
                    let lag = Duration::from_millis(lag_ms);
                    let _ = page
                        .room
                        .send(RoomInput::Request {
                            conn: page.conn,
                            request,
                            lag,
                        })
                        .await;
                }
            }
            Wire::Act {
                game,
                from,
                answer,
                player,
                request,
            } => {
                let (reply, answered) = oneshot::channel();
                let act = RoomInput::Act {
                    player,
                    request,
                    reply,
                };
                self.ask(rooms, &game, from, answer, act, answered).await;
            }
            Wire::Decline {
                game,
                from,
                answer,
                player,
            } => {
                let (reply, answered) = oneshot::channel();
                let decline = RoomInput::Decline { player, reply };
                self.ask(rooms, &game, from, answer, decline, answered)
                    .await;
            }
            Wire::Join {
                game,
                from,
                answer,
                player,
                seat,
            } => {
                let found = self.db.run(move |s| s.player(&player)).await;
                let (Ok(Ok(Some(player))), Some(seat)) = (found, wire::unhex(&seat)) else {
                    let result = Err("no such player".to_string());
                    return self.send(&from, Wire::Answer { answer, result });
                };
                let Some(inputs) = rooms.find(&game) else {
                    let result = Err("no such room, or its game is over".to_string());
                    return self.send(&from, Wire::Answer { answer, result });
                };
                let (reply, answered) = oneshot::channel();
                if inputs
                    .send(RoomInput::Join {
                        player,
                        seat,
                        reply,
                    })
                    .await
                    .is_err()
                {
                    let result = Err("the room has closed".to_string());
                    return self.send(&from, Wire::Answer { answer, result });
                }
                self.answer_when(from, answer, async move {
                    let side = answered
                        .await
                        .map_err(|_| "the room has closed".to_string())??;
                    Ok(serde_json::json!(Side::from(side)))
                });
            }
            Wire::Alive { from } => {
                self.relays().heard.insert(from, Instant::now());
            }
            Wire::Lobby => self.lobby_stale.notify_one(),
            Wire::Tell { player, event } => rooms.tell_here(&player, event),
            Wire::Update {
                game,
                from,
                conn,
                update,
            } => {
                let mut relays = self.relays();
                let delivered = match relays.pages.get(&conn) {
                    Some((_, page)) => page.try_send(update).is_ok(),
                    None => false,
                };
                if !delivered {
                    // Gone, or too far behind: it comes back and gets the room whole.
                    relays.pages.remove(&conn);
                    drop(relays);
                    let me = self.me.clone();
                    self.send(
                        &from,
                        Wire::Detach {
                            game,
                            from: me,
                            conn,
                        },
                    );
                }
            }
            Wire::Closed { conn } => {
                self.relays().pages.remove(&conn);
            }
            Wire::Answer { answer, result } => {
                let waiting = self.relays().answers.remove(&answer);
                if let Some((_, _, give)) = waiting {
                    give(result);
                }
            }
        }
    }

    /// Room `id`, taken up here if this process holds its lease (it claimed it, and has not
    /// served it yet).
    async fn serve_if_held(&self, rooms: &Arc<Rooms>, id: &str) -> Option<mpsc::Sender<RoomInput>> {
        let key = id.to_string();
        let holder = self
            .db
            .run(move |store| store.leases()?.lease_holder(&key))
            .await
            .ok()?
            .ok()??;
        if holder != self.me {
            return None;
        }
        rooms.take_up(id).await;
        rooms.find(id)
    }

    /// Asks room `game` here `input`, and answers `from` with what it says.
    async fn ask(
        self: &Arc<Self>,
        rooms: &Rooms,
        game: &str,
        from: String,
        answer: u64,
        input: RoomInput,
        answered: oneshot::Receiver<Result<(), String>>,
    ) {
        let sent = match rooms.find(game) {
            Some(inputs) => inputs.send(input).await.is_ok(),
            None => false,
        };
        if !sent {
            let result = Err("no such live game".to_string());
            return self.send(&from, Wire::Answer { answer, result });
        }
        self.answer_when(from, answer, async move {
            answered
                .await
                .map_err(|_| "the room has closed".to_string())??;
            Ok(serde_json::Value::Null)
        });
    }

    /// Answers `from` once `result` is known (without holding up what comes after).
    fn answer_when(
        self: &Arc<Self>,
        from: String,
        answer: u64,
        result: impl std::future::Future<Output = Result<serde_json::Value, String>> + Send + 'static,
    ) {
        let me = Arc::clone(self);
        tokio::spawn(async move {
            let result = result.await;
            me.send(&from, Wire::Answer { answer, result });
        });
    }

    /// Lets go of the relays to rooms elsewhere whose game `gone` says: their pages close
    /// (and come back), their answers fail.
    fn let_go(&self, gone: impl Fn(&str) -> bool) {
        let mut relays = self.relays();
        relays.pages.retain(|_, (game, _)| !gone(game));
        relays.answers.retain(|_, (_, game, _)| !gone(game));
        relays.proxies.retain(|game, _| !gone(game));
    }

    /// Every [`TICK`]: renews this process's leases and closes the rooms it lost, takes up
    /// games no one holds, lets go of relays to rooms whose holder changed, tells holders
    /// it is alive, and forgets pages of processes gone silent.
    async fn keep_leases(self: Arc<Self>, rooms: Weak<Rooms>) {
        let mut ticks = tokio::time::interval(TICK);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let Some(rooms) = rooms.upgrade() else {
                return;
            };
            // Rooms served before the leases are read (one made meanwhile holds its lease
            // but may not be among those renewed).
            let served = rooms.served();
            let ids: Vec<String> = served.iter().map(|(id, _)| id.clone()).collect();
            let me = self.me.clone();
            let proxied: Vec<String> = self.relays().proxies.keys().cloned().collect();
            let asked: HashSet<String> = proxied.iter().cloned().collect();
            let kept = self
                .db
                .run(move |store| -> Result<_, StoreError> {
                    let leases = store.leases()?;
                    let held = leases.renew_leases(&me, &ids, LEASE)?;
                    let taken = leases.claim_lapsed_games(&me, LEASE, TAKE_UP_PER_TICK)?;
                    let holders = leases.lease_holders(&proxied)?;
                    Ok((held, taken, holders))
                })
                .await;
            let (held, taken, holders) = match kept {
                Ok(Ok(kept)) => kept,
                Ok(Err(e)) => {
                    log::error!("leases: {e}");
                    continue;
                }
                Err(e) => {
                    log::error!("leases: {e}");
                    continue;
                }
            };
            // Rooms here whose lease another process took: their pages come back to it.
            let held: HashSet<String> = held.into_iter().chain(taken.iter().cloned()).collect();
            for (id, inputs) in served {
                if !held.contains(&id) {
                    log::warn!("game {id}: this process holds it no more");
                    let _ = inputs.send(RoomInput::Close).await;
                }
            }
            for id in taken {
                rooms.take_up(&id).await;
            }
            let holders: HashMap<String, String> = holders.into_iter().collect();
            // Only relays whose holder was just read: one made since has not been asked
            // about, and letting it go would fail its first answer (a join told "the room
            // has closed", seen under load).
            let changed: HashSet<String> = {
                let relays = self.relays();
                relays
                    .proxies
                    .iter()
                    .filter(|(game, _)| asked.contains(*game))
                    .filter(|(game, (holder, _))| holders.get(*game) != Some(holder))
                    .map(|(game, _)| game.clone())
                    .collect()
            };
            self.let_go(|game| changed.contains(game));
            let silent: Vec<RemotePage>;
            {
                let mut relays = self.relays();
                let alive: HashSet<String> =
                    relays.proxies.values().map(|(h, _)| h.clone()).collect();
                for holder in alive {
                    let _ = self.outbox.send((
                        holder,
                        Wire::Alive {
                            from: self.me.clone(),
                        },
                    ));
                }
                let now = Instant::now();
                relays
                    .answers
                    .retain(|_, (since, _, _)| now - *since < ANSWER_WAIT);
                let heard = relays.heard.clone();
                let quiet = |process: &str| heard.get(process).is_none_or(|at| now - *at > SILENT);
                let gone: Vec<(String, u64)> = relays
                    .remote
                    .keys()
                    .filter(|(process, _)| quiet(process))
                    .cloned()
                    .collect();
                silent = gone
                    .iter()
                    .filter_map(|key| relays.remote.remove(key))
                    .collect();
                relays.heard.retain(|_, at| now - *at <= SILENT);
            }
            for page in silent {
                let _ = page.room.send(RoomInput::Detach { conn: page.conn }).await;
            }
        }
    }

    /// Lets go of every lease this process holds (it drains): the other processes take
    /// its games up at their next tick.
    pub async fn release(&self) -> Result<(), String> {
        let me = self.me.clone();
        self.db
            .run(move |store| store.leases()?.release_leases(&me))
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())
    }
}
