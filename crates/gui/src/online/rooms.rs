//! The registry of live rooms: each served by its own task ([`super::room`]), found by its
//! public id; the lobby's list of rooms waiting; rooms made, and taken up again from the
//! store after a restart.

use super::cluster::Cluster;
use super::protocol::RoomSettings;
use super::room::{Listing, Patience, Room, RoomInput, Seated};
use crate::writer::StoreHandle;
use gogo_rules::Color;
use gogo_store::{public_id, NewGame, PlayerRecord, SeatRecord, Secret};
use serde::Serialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// Requests waiting for a room's task.
const ROOM_INPUTS: usize = 256;

/// A room as the lobby lists it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LobbyRoom {
    /// Its id (the game's).
    pub id: String,
    /// The host's name, as typed.
    pub host: String,
    /// The host's rating.
    pub rating: u32,
    /// The settings.
    pub settings: RoomSettings,
}

/// The lobby: the rooms waiting, and how many games are being played.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Lobby {
    /// Rooms waiting for a second player, oldest first.
    pub waiting: Vec<LobbyRoom>,
    /// Games being played.
    pub playing: usize,
}

struct Entry {
    inputs: mpsc::Sender<RoomInput>,
    listing: Listing,
    /// The order rooms were opened in, for the lobby.
    serial: u64,
}

/// The live rooms.
pub struct Rooms {
    entries: Mutex<HashMap<String, Entry>>,
    serials: std::sync::atomic::AtomicU64,
    store: StoreHandle,
    /// This run's epoch: events of a room taken up again after a restart are told apart.
    epoch: u64,
    /// Tells the lobby's watchers that it changed.
    lobby: tokio::sync::watch::Sender<u64>,
    /// How long rooms wait for people who are gone.
    patience: Patience,
    /// The CPU players, for rooms whose rule has them play for one who left.
    cpu: Option<super::cpu::CpuPool>,
    /// Events for players' API event streams: the player's id and the event.
    events: tokio::sync::broadcast::Sender<(String, serde_json::Value)>,
    /// Every room's task still running here, finished games' too (their pages may still ask
    /// for a rematch): its serial and inputs.
    tasks: Mutex<HashMap<String, (u64, mpsc::Sender<RoomInput>)>>,
    /// The other processes on the same PostgreSQL, if this is one of several.
    cluster: std::sync::OnceLock<Arc<Cluster>>,
    /// Held while a game is taken up from the store, so that it is taken up once.
    taking_up: tokio::sync::Mutex<()>,
}

impl Rooms {
    /// No rooms yet, on `store`, waiting for people who are gone as `patience` says (the
    /// defaults unless a test wants them short), with `cpu` to play for those who left
    /// (without it, a room cannot choose that rule).
    pub fn new(
        store: StoreHandle,
        patience: Patience,
        cpu: Option<super::cpu::CpuPool>,
    ) -> Arc<Rooms> {
        Arc::new(Rooms {
            entries: Mutex::default(),
            serials: Default::default(),
            store,
            epoch: gogo_store::now_ms(),
            lobby: tokio::sync::watch::channel(0).0,
            patience,
            cpu,
            events: tokio::sync::broadcast::channel(1024).0,
            tasks: Mutex::default(),
            cluster: std::sync::OnceLock::new(),
            taking_up: tokio::sync::Mutex::new(()),
        })
    }

    /// Makes these rooms one process of several ([`Cluster::start`] calls it).
    pub(super) fn set_cluster(&self, cluster: Arc<Cluster>) {
        let _ = self.cluster.set(cluster);
    }

    /// The processes this one works with, if it is one of several.
    pub fn cluster(&self) -> Option<&Arc<Cluster>> {
        self.cluster.get()
    }

    /// The inputs of room `id`: served here, or (one of several processes) relayed to the
    /// process that holds it, or taken up here if no one does; `None` if it is not live.
    pub async fn reach(self: &Arc<Rooms>, id: &str) -> Option<mpsc::Sender<RoomInput>> {
        if let Some(inputs) = self.find(id) {
            return Some(inputs);
        }
        let cluster = Arc::clone(self.cluster.get()?);
        cluster.reach(self, id).await
    }

    /// The rooms whose task runs here (finished games' too): each id and inputs.
    pub(super) fn served(&self) -> Vec<(String, mpsc::Sender<RoomInput>)> {
        let tasks = self.tasks.lock().expect("rooms lock");
        tasks
            .iter()
            .map(|(id, (_, inputs))| (id.clone(), inputs.clone()))
            .collect()
    }

    /// The store.
    pub fn store(&self) -> &StoreHandle {
        &self.store
    }

    /// Where to read what no write waits for: the cluster's own connection when this is one
    /// of several processes, else the store.
    fn reader(&self) -> &StoreHandle {
        self.cluster.get().map_or(&self.store, |c| c.db())
    }

    /// A receiver that changes whenever the lobby does.
    pub fn watch_lobby(&self) -> tokio::sync::watch::Receiver<u64> {
        self.lobby.subscribe()
    }

    /// Wakes the lobby's watchers (the lobby of every process changed).
    pub(super) fn tell_lobby_watchers(&self) {
        self.lobby.send_modify(|n| *n += 1);
    }

    /// The lobby changed here: its watchers are told, and (one of several processes) every
    /// other process.
    fn lobby_changed(&self) {
        match self.cluster.get() {
            Some(cluster) => cluster.lobby_changed(),
            None => self.tell_lobby_watchers(),
        }
    }

    /// The lobby as it is (of every process, if this is one of several).
    pub fn lobby(&self) -> Lobby {
        if let Some(cluster) = self.cluster.get() {
            return cluster.lobby();
        }
        let entries = self.entries.lock().expect("rooms lock");
        let mut waiting: Vec<(u64, LobbyRoom)> = entries
            .iter()
            .filter(|(_, e)| !e.listing.playing && !e.listing.private)
            .map(|(id, e)| {
                (
                    e.serial,
                    LobbyRoom {
                        id: id.clone(),
                        host: e.listing.host.clone(),
                        rating: e.listing.rating,
                        settings: e.listing.settings.clone(),
                    },
                )
            })
            .collect();
        waiting.sort_by_key(|(serial, _)| *serial);
        Lobby {
            playing: entries.values().filter(|e| e.listing.playing).count(),
            waiting: waiting.into_iter().map(|(_, r)| r).collect(),
        }
    }

    /// The live games `player` is seated in, on every process: each game's id and their
    /// side.
    pub async fn playing(&self, player: &str) -> Vec<(String, Color)> {
        if self.cluster.get().is_some() {
            let key = player.to_string();
            let found = self
                .reader()
                .run(move |store| store.leases()?.games_played(&key))
                .await;
            return match found {
                Ok(Ok((_, games))) => games
                    .into_iter()
                    .map(|(id, sente)| (id, if sente { Color::Sente } else { Color::Gote }))
                    .collect(),
                _ => Vec::new(),
            };
        }
        let entries = self.entries.lock().expect("rooms lock");
        let mut games: Vec<(u64, String, Color)> = entries
            .iter()
            .filter(|(_, e)| e.listing.playing)
            .filter_map(|(id, e)| {
                let side = [Color::Sente, Color::Gote]
                    .into_iter()
                    .find(|c| e.listing.players[c.index()].as_deref() == Some(player))?;
                Some((e.serial, id.clone(), side))
            })
            .collect();
        games.sort();
        games.into_iter().map(|(_, id, side)| (id, side)).collect()
    }

    /// The challenges waiting for `player`'s answer, on every process: each room's id and
    /// listing, oldest first.
    pub async fn challenges_for(&self, player: &str) -> Vec<(String, Listing)> {
        if self.cluster.get().is_some() {
            let found = self
                .reader()
                .run(|store| store.leases()?.open_games(500))
                .await;
            let Ok(Ok(open)) = found else {
                return Vec::new();
            };
            return open
                .into_iter()
                .filter_map(|game| {
                    let settings: RoomSettings = serde_json::from_str(&game.settings).ok()?;
                    (settings.opponent.as_deref() == Some(player)).then(|| {
                        let listing = Listing {
                            host: game.host,
                            rating: game.rating.round() as u32,
                            settings,
                            playing: false,
                            players: game.players,
                            private: true,
                        };
                        (game.id, listing)
                    })
                })
                .collect();
        }
        let entries = self.entries.lock().expect("rooms lock");
        let mut waiting: Vec<(u64, String, Listing)> = entries
            .iter()
            .filter(|(_, e)| !e.listing.playing)
            .filter(|(_, e)| e.listing.settings.opponent.as_deref() == Some(player))
            .map(|(id, e)| (e.serial, id.clone(), e.listing.clone()))
            .collect();
        waiting.sort_by_key(|(serial, _, _)| *serial);
        waiting.into_iter().map(|(_, id, l)| (id, l)).collect()
    }

    /// Tells `player`'s event streams `event` (none listening: nothing happens), on every
    /// process.
    pub fn tell(&self, player: &str, event: serde_json::Value) {
        match self.cluster.get() {
            Some(cluster) => cluster.tell(player, event),
            None => self.tell_here(player, event),
        }
    }

    /// Tells `player`'s event streams on this process `event`.
    pub(super) fn tell_here(&self, player: &str, event: serde_json::Value) {
        let _ = self.events.send((player.to_string(), event));
    }

    /// Every player's events, as they come (each stream keeps its own).
    pub fn listen(&self) -> tokio::sync::broadcast::Receiver<(String, serde_json::Value)> {
        self.events.subscribe()
    }

    /// How many rooms are open.
    pub fn len(&self) -> usize {
        self.entries.lock().expect("rooms lock").len()
    }

    /// Whether no room is open.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The inputs of room `id`, if it is live.
    pub fn find(&self, id: &str) -> Option<mpsc::Sender<RoomInput>> {
        let entries = self.entries.lock().expect("rooms lock");
        entries.get(id).map(|e| e.inputs.clone())
    }

    /// A new room hosted by `host`, kept in the store before it is listed; its id, and the
    /// host's seat secret (for the host alone).
    pub async fn create(
        self: &Arc<Rooms>,
        host: PlayerRecord,
        settings: RoomSettings,
    ) -> Result<(String, Secret, Color), String> {
        settings.checked_rules()?;
        if settings.cpu_opponent.is_some() && self.cpu.is_none() {
            return Err("this server has no CPU players".into());
        }
        if matches!(settings.leave, super::protocol::LeaveRule::Cpu { .. }) && self.cpu.is_none() {
            return Err(
                "this server has no CPU players: a room here leaves claims to the \
                        one who stays"
                    .into(),
            );
        }
        let side = match settings.color {
            super::protocol::ColorChoice::Sente => Color::Sente,
            super::protocol::ColorChoice::Gote => Color::Gote,
            super::protocol::ColorChoice::Random => {
                let mut bit = [0u8];
                getrandom::fill(&mut bit).map_err(|e| e.to_string())?;
                if bit[0] & 1 == 0 {
                    Color::Sente
                } else {
                    Color::Gote
                }
            }
        };
        let secret = Secret::generate();
        let mut seated = [None, None];
        seated[side.index()] = Some(Seated {
            player: host,
            seat: secret.hash(),
        });
        let id = self.open(settings, seated).await?;
        Ok((id, secret, side))
    }

    /// A room whose seats are both taken at once (a rematch): Sente's and Gote's players;
    /// its id, and each player's id with their new seat secret.
    pub async fn open_game(
        self: &Arc<Rooms>,
        settings: RoomSettings,
        players: [PlayerRecord; 2],
    ) -> Result<(String, Vec<(String, Secret)>), String> {
        let secrets = [Secret::generate(), Secret::generate()];
        let given = vec![
            (players[0].id.clone(), secrets[0].clone()),
            (players[1].id.clone(), secrets[1].clone()),
        ];
        let [sente, gote] = players;
        let seated = [
            Some(Seated {
                player: sente,
                seat: secrets[0].hash(),
            }),
            Some(Seated {
                player: gote,
                seat: secrets[1].hash(),
            }),
        ];
        let id = self.open(settings, seated).await?;
        Ok((id, given))
    }

    /// A new room with these seats (an open seat is `None`), kept in the store before it is
    /// served; its id.
    async fn open(
        self: &Arc<Rooms>,
        settings: RoomSettings,
        seated: [Option<Seated>; 2],
    ) -> Result<String, String> {
        let rules = settings.checked_rules()?;
        let id = public_id(8);
        let seats = seated.clone().map(|seat| match seat {
            Some(s) => SeatRecord {
                player: Some(s.player.id),
                name: s.player.name,
                seat: Some(s.seat),
            },
            // The CPU's seat in a game against it, or a seat still open.
            None => SeatRecord {
                player: None,
                name: settings.cpu_name().unwrap_or_default(),
                seat: None,
            },
        });
        let record = NewGame {
            id: id.clone(),
            created_ms: gogo_store::now_ms(),
            rules,
            start: rules.start_position(),
            settings: serde_json::to_string(&settings).map_err(|e| e.to_string())?,
            seats,
        };
        // One of several processes: this one holds the new game's lease from the start.
        let holder = self.cluster.get().map(|c| c.me().to_string());
        let game = id.clone();
        self.store
            .run(move |store| {
                store.create_game(&record)?;
                if let Some(holder) = holder {
                    store
                        .leases()?
                        .claim_game(&game, &holder, super::cluster::LEASE)?;
                }
                Ok::<_, gogo_store::StoreError>(())
            })
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())?;
        let room = Room::new(
            id.clone(),
            settings,
            seated,
            None,
            self.store.clone(),
            self.epoch,
        )?;
        self.serve(id.clone(), room);
        Ok(id)
    }

    /// Takes up every game the store has not seen end (after a restart): the rooms waiting
    /// and the games being played, with their moves and clocks. How many.
    pub async fn restore(self: &Arc<Rooms>) -> Result<usize, String> {
        let live = self
            .store
            .run(|store| {
                let games = store.live_games()?;
                games
                    .into_iter()
                    .map(|game| with_players(store, game))
                    .collect::<Result<Vec<_>, _>>()
            })
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())?;
        let mut restored = 0;
        for (game, players) in live {
            restored += usize::from(self.serve_stored(game, players));
        }
        Ok(restored)
    }

    /// Takes up live game `id` from the store, unless it is served here already (one of
    /// several processes, once it holds the game's lease); whether it is served here now.
    pub(super) async fn take_up(self: &Arc<Rooms>, id: &str) -> bool {
        let _once = self.taking_up.lock().await;
        if self.find(id).is_some() {
            return true;
        }
        let key = id.to_string();
        let found = self
            .reader()
            .run(move |store| {
                store
                    .game(&key)?
                    .filter(|g| g.result.is_none())
                    .map(|game| with_players(store, game))
                    .transpose()
            })
            .await;
        match found {
            Ok(Ok(Some((game, players)))) => self.serve_stored(game, players),
            Ok(Ok(None)) => false,
            Ok(Err(e)) => {
                log::error!("game {id}: cannot be taken up: {e}");
                false
            }
            Err(e) => {
                log::error!("game {id}: cannot be taken up: {e}");
                false
            }
        }
    }

    /// Serves a stored live game again, with its players; whether it could be.
    fn serve_stored(
        self: &Arc<Rooms>,
        game: gogo_store::StoredGame,
        players: [Option<PlayerRecord>; 2],
    ) -> bool {
        // The local board's games (no player in either seat) are its own to take up.
        if game.seats.iter().all(|s| s.player.is_none()) {
            return false;
        }
        {
            let settings: RoomSettings = match serde_json::from_str(&game.settings) {
                Ok(s) => s,
                Err(e) => {
                    log::error!("game {}: its settings cannot be read: {e}", game.id);
                    return false;
                }
            };
            let seats = [0, 1].map(|i| match (&players[i], game.seats[i].seat) {
                (Some(player), Some(seat)) => Some(Seated {
                    player: player.clone(),
                    seat,
                }),
                _ => None,
            });
            let clocks = std::iter::once(start_clocks(&settings))
                .chain(
                    game.moves
                        .iter()
                        .map(|m| m.clocks_ms.map(Duration::from_millis)),
                )
                .collect();
            match Room::new(
                game.id.clone(),
                settings,
                seats,
                Some((game.game, clocks)),
                self.store.clone(),
                self.epoch,
            ) {
                Ok(room) => {
                    self.serve(game.id, room);
                    true
                }
                Err(e) => {
                    log::error!("game {}: cannot be taken up again: {e}", game.id);
                    false
                }
            }
        }
    }

    /// Starts room `id`'s task and lists it.
    fn serve(self: &Arc<Rooms>, id: String, mut room: Room) {
        room.rooms = Some(Arc::downgrade(self));
        room.patience = self.patience;
        room.cpu = self.cpu.clone();
        let (inputs, queue) = mpsc::channel(ROOM_INPUTS);
        let serial = self
            .serials
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        self.tasks
            .lock()
            .expect("rooms lock")
            .insert(id.clone(), (serial, inputs.clone()));
        self.entries.lock().expect("rooms lock").insert(
            id.clone(),
            Entry {
                inputs,
                listing: room.listing(),
                serial,
            },
        );
        self.lobby_changed();
        let rooms = Arc::clone(self);
        tokio::spawn(async move {
            let watcher = Arc::clone(&rooms);
            let key = id.clone();
            room.run(queue, move |room| watcher.changed(&key, room))
                .await;
            let mut entries = rooms.entries.lock().expect("rooms lock");
            // Unless the game was taken up here again meanwhile.
            if entries.get(&id).is_some_and(|e| e.serial == serial) {
                entries.remove(&id);
            }
            drop(entries);
            let mut tasks = rooms.tasks.lock().expect("rooms lock");
            if tasks.get(&id).is_some_and(|(s, _)| *s == serial) {
                tasks.remove(&id);
            }
            drop(tasks);
            rooms.lobby_changed();
        });
    }

    /// After each input: the lobby follows the room; a finished room leaves the registry
    /// (its pages stay attached until they go; its record is in the store).
    fn changed(&self, id: &str, room: &Room) {
        let listing = room.listing();
        let mut entries = self.entries.lock().expect("rooms lock");
        let over = room.is_over();
        let changed = match entries.get_mut(id) {
            Some(_) if over => {
                entries.remove(id);
                true
            }
            Some(entry) if entry.listing != listing => {
                entry.listing = listing;
                true
            }
            _ => false,
        };
        drop(entries);
        if changed {
            self.lobby_changed();
        }
    }

    /// `player` joins room `id`: their side and seat secret.
    pub async fn join(
        self: &Arc<Rooms>,
        id: &str,
        player: PlayerRecord,
    ) -> Result<(Color, Secret), String> {
        let inputs = self
            .reach(id)
            .await
            .ok_or("no such room, or its game is over")?;
        let secret = Secret::generate();
        let (reply, answer) = oneshot::channel();
        inputs
            .send(RoomInput::Join {
                player,
                seat: secret.hash(),
                reply,
            })
            .await
            .map_err(|_| "the room has closed")?;
        let side = answer.await.map_err(|_| "the room has closed")??;
        Ok((side, secret))
    }
}

/// A stored game with its players' records.
fn with_players(
    store: &gogo_store::Store,
    game: gogo_store::StoredGame,
) -> Result<(gogo_store::StoredGame, [Option<PlayerRecord>; 2]), gogo_store::StoreError> {
    let [s, g] = [0, 1].map(|i| {
        game.seats[i]
            .player
            .as_deref()
            .map(|id| store.player(id))
            .transpose()
    });
    let players = [s?.flatten(), g?.flatten()];
    Ok((game, players))
}

/// Both clocks at the start under `settings`.
fn start_clocks(settings: &RoomSettings) -> [Duration; 2] {
    let main = match settings.clock.control() {
        Some(gogo_protocol::TimeControl::Fischer { main, .. })
        | Some(gogo_protocol::TimeControl::Byoyomi { main, .. }) => main,
        _ => Duration::ZERO,
    };
    [main; 2]
}
