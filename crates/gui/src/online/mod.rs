//! Online play: two people, each on their own device, in a room on this server. The server
//! is the authority of every game (the referee judges each request, the store keeps each
//! change before anyone is told), a seat is a secret held by one person, and anyone with a
//! game's id watches.
//!
//! HTTP, in the shape of lishogi's API (a player's key is the bearer token):
//! `POST /api/token` (`{"name"}`: a new player and their key), `GET /api/account`,
//! `GET /api/games/user/{id}`; `POST /online/rooms` (the settings: a room and the host's
//! seat), `POST /online/rooms/{id}/join` (the open seat), `GET /online/lobby`, and the
//! room's WebSocket, `GET /online/ws?game=ID[&seat=SECRET][&epoch=E&after=N]`.

pub mod cpu;
pub mod guard;
pub mod protocol;
pub mod room;
pub mod rooms;
pub mod writer;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use gogo_puzzle::glicko::GAME_START;
use gogo_store::{public_id, PlayerRecord, Secret, StoredRating};
use protocol::{RoomRequest, RoomSettings, RoomUpdate};
use room::RoomInput;
use rooms::Rooms;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};

/// The largest request body or message a page may send online.
pub const MAX_BODY_BYTES: usize = 16 * 1024;
/// The longest display name, in characters.
pub const MAX_NAME_CHARS: usize = 30;
/// Messages a player's connection may send in [`MESSAGE_WINDOW`] (lila-ws: 100 in 20 s).
pub const PLAYER_MESSAGES: u32 = 100;
/// Messages a spectator's connection may send in [`MESSAGE_WINDOW`] (lila-ws: 50).
pub const SPECTATOR_MESSAGES: u32 = 50;
/// The window of the message limits.
pub const MESSAGE_WINDOW: Duration = Duration::from_secs(20);

/// How online play meets strangers.
#[derive(Clone, Debug)]
pub struct OnlineLimits {
    /// A page that sends nothing for this long is let go.
    pub idle: Duration,
    /// Where pages may come from, and whom to believe about client addresses.
    pub origins: guard::Origins,
    /// Players one address may make a minute.
    pub players_per_minute: u32,
    /// Rooms one address may open a minute.
    pub rooms_per_minute: u32,
    /// Sockets one address may open a minute.
    pub sockets_per_minute: u32,
    /// Rooms open at once on the server.
    pub max_rooms: usize,
    /// Spectators of one game at once.
    pub max_spectators: usize,
}

impl Default for OnlineLimits {
    fn default() -> OnlineLimits {
        OnlineLimits {
            idle: Duration::from_secs(60),
            origins: guard::Origins::default(),
            players_per_minute: 10,
            rooms_per_minute: 10,
            sockets_per_minute: 120,
            max_rooms: 10_000,
            max_spectators: 200,
        }
    }
}

/// What online play needs.
pub struct Online {
    /// The live rooms.
    pub rooms: Arc<Rooms>,
    /// Numbers the room sockets.
    conns: AtomicU64,
    limits: OnlineLimits,
    players: guard::AddressLimiter,
    new_rooms: guard::AddressLimiter,
    sockets: guard::AddressLimiter,
}

impl std::fmt::Debug for Online {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Online({} rooms)", self.rooms.len())
    }
}

impl Online {
    /// Online play on `rooms`, within `limits`.
    pub fn new(rooms: Arc<Rooms>, limits: OnlineLimits) -> Arc<Online> {
        let minute = Duration::from_secs(60);
        Arc::new(Online {
            rooms,
            conns: AtomicU64::new(0),
            players: guard::AddressLimiter::new(limits.players_per_minute, minute),
            new_rooms: guard::AddressLimiter::new(limits.rooms_per_minute, minute),
            sockets: guard::AddressLimiter::new(limits.sockets_per_minute, minute),
            limits,
        })
    }

    /// The answer to give when the client of a request (by `peer` and `headers`) may not do
    /// one more of what `limiter` counts; `None` when it may.
    fn over_limit(
        &self,
        limiter: &guard::AddressLimiter,
        peer: Option<guard::PeerAddress>,
        headers: &HeaderMap,
    ) -> Option<Response> {
        let address = self.limits.origins.client(peer, headers)?;
        (!limiter.allow(address)).then(|| {
            error(
                StatusCode::TOO_MANY_REQUESTS,
                "too many requests from your address: wait a minute",
            )
        })
    }
}

/// The online page, its style and script (the pieces' font is the board's).
const PAGE: &str = include_str!("../../static/online.html");
const STYLE: &str = include_str!("../../static/online.css");
const SCRIPT: &str = include_str!("../../static/js/online.js");
/// What the online page may load: only from this server, no inline script or style, and
/// no framing by other sites.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     font-src 'self'; connect-src 'self' ws: wss:; img-src 'self' blob: data:; frame-ancestors 'none'; \
     base-uri 'none'; form-action 'self'";

fn asset(kind: &'static str, body: impl IntoResponse) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        body,
    )
        .into_response()
}

/// The online routes.
pub fn routes(online: Arc<Online>) -> Router {
    Router::new()
        .route(
            "/online",
            get(|| async { asset("text/html; charset=utf-8", PAGE) }),
        )
        .route(
            "/online/online.css",
            get(|| async { asset("text/css", STYLE) }),
        )
        .route(
            "/online/online.js",
            get(|| async { asset("text/javascript", SCRIPT) }),
        )
        .route(
            "/online/pieces.woff2",
            get(|| async { asset("font/woff2", crate::PIECE_FONT) }),
        )
        .route("/api/token", post(new_player))
        .route("/api/account", get(account))
        .route("/api/games/user/{id}", get(games_of))
        .route("/online/rooms", post(create_room))
        .route("/online/rooms/{id}/join", post(join_room))
        .route("/online/lobby", get(lobby))
        .route("/online/lobby/ws", get(lobby_socket))
        .route("/online/games/{id}", get(game_record))
        .route("/online/ws", get(room_socket))
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&online),
            same_origin_only,
        ))
        .with_state(online)
}

/// Refuses a request whose page comes from another site.
async fn same_origin_only(
    State(online): State<Arc<Online>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    match online.limits.origins.refusal(request.headers()) {
        Some(reason) => error(StatusCode::FORBIDDEN, reason),
        None => next.run(request).await,
    }
}

/// An error as an HTTP answer: its status and `{"error": words}`.
fn error(status: StatusCode, message: impl Into<String>) -> Response {
    #[derive(Serialize)]
    struct Error {
        error: String,
    }
    (
        status,
        Json(Error {
            error: message.into(),
        }),
    )
        .into_response()
}

/// A display name as typed, trimmed: 1 to [`MAX_NAME_CHARS`] characters, none a control
/// character. Shown as text everywhere, so any other character is allowed.
pub fn check_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    let chars = name.chars().count();
    if chars == 0 || chars > MAX_NAME_CHARS {
        return Err(format!("a name has 1 to {MAX_NAME_CHARS} characters"));
    }
    if name.chars().any(char::is_control) {
        return Err("a name has no control characters".into());
    }
    Ok(name.to_string())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewPlayer {
    name: String,
}

/// `POST /api/token`: a new player; their key is shown this once.
async fn new_player(
    State(online): State<Arc<Online>>,
    peer: Option<axum::Extension<guard::PeerAddress>>,
    headers: HeaderMap,
    body: Option<Json<NewPlayer>>,
) -> Response {
    if let Some(answer) = online.over_limit(&online.players, peer.map(|p| p.0), &headers) {
        return answer;
    }
    let Some(Json(body)) = body else {
        return error(StatusCode::BAD_REQUEST, "send {\"name\": \"...\"} as JSON");
    };
    let name = match check_name(&body.name) {
        Ok(n) => n,
        Err(e) => return error(StatusCode::BAD_REQUEST, e),
    };
    let key = Secret::generate();
    let player = PlayerRecord {
        id: public_id(10),
        name,
        rating: StoredRating {
            rating: GAME_START.rating,
            deviation: GAME_START.deviation,
            volatility: GAME_START.volatility,
        },
        games: 0,
    };
    let (hash, record) = (key.hash(), player.clone());
    let created = online
        .rooms
        .store()
        .run(move |store| {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as u64);
            store.create_player(&record, hash, now)
        })
        .await;
    match created {
        Ok(Ok(())) => Json(serde_json::json!({
            "token": key.expose(), "id": player.id, "name": player.name,
        }))
        .into_response(),
        Ok(Err(e)) => {
            log::error!("cannot keep a new player: {e}");
            error(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server cannot keep players now",
            )
        }
        Err(e) => error(StatusCode::SERVICE_UNAVAILABLE, e.to_string()),
    }
}

/// The player whose key the request bears, or the answer to give.
async fn bearer(online: &Online, headers: &HeaderMap) -> Result<PlayerRecord, Response> {
    let key = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .and_then(|k| Secret::parse(k.trim()));
    let Some(key) = key else {
        return Err(error(
            StatusCode::UNAUTHORIZED,
            "a player's key is needed: Authorization: Bearer KEY (POST /api/token makes one)",
        ));
    };
    let hash = key.hash();
    match online
        .rooms
        .store()
        .run(move |s| s.player_by_key(hash))
        .await
    {
        Ok(Ok(Some(player))) => Ok(player),
        Ok(Ok(None)) => Err(error(StatusCode::UNAUTHORIZED, "no player has this key")),
        Ok(Err(e)) => {
            log::error!("cannot read a player: {e}");
            Err(error(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server cannot read players now",
            ))
        }
        Err(e) => Err(error(StatusCode::SERVICE_UNAVAILABLE, e.to_string())),
    }
}

fn player_json(player: &PlayerRecord) -> serde_json::Value {
    let r = player.rating;
    serde_json::json!({
        "id": player.id,
        "name": player.name,
        "rating": r.rating.round(),
        "provisional": r.deviation > gogo_puzzle::glicko::PROVISIONAL_DEVIATION,
        "games": player.games,
    })
}

/// `GET /api/account`: the bearer's player.
async fn account(State(online): State<Arc<Online>>, headers: HeaderMap) -> Response {
    match bearer(&online, &headers).await {
        Ok(player) => Json(player_json(&player)).into_response(),
        Err(answer) => answer,
    }
}

/// `GET /api/games/user/{id}`: a player's games, newest first.
async fn games_of(State(online): State<Arc<Online>>, Path(id): Path<String>) -> Response {
    if id.len() > 32 {
        return error(StatusCode::NOT_FOUND, "no such player");
    }
    let listed = online
        .rooms
        .store()
        .run(move |s| s.games_of(&id, 100))
        .await;
    match listed {
        Ok(Ok(games)) => {
            let games: Vec<serde_json::Value> = games
                .iter()
                .map(|g| {
                    serde_json::json!({
                        "id": g.id,
                        "players": g.players,
                        "names": g.names,
                        "plies": g.plies,
                        "created_ms": g.created_ms,
                        "winner": g.result.as_ref().map(|r| r.winner.map(crate::messages::Side::from)),
                        "reason": g.result.as_ref().map(|r| r.reason.clone()),
                    })
                })
                .collect();
            Json(games).into_response()
        }
        _ => error(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server cannot read games now",
        ),
    }
}

/// `GET /online/games/{id}`: a game as stored, live or over: its players, moves, ending,
/// and its record as KIF and CSA (for the board's review, and to save).
async fn game_record(State(online): State<Arc<Online>>, Path(id): Path<String>) -> Response {
    if id.len() > 32 {
        return error(StatusCode::NOT_FOUND, "no such game");
    }
    let found = online.rooms.store().run(move |s| s.game(&id)).await;
    let game = match found {
        Ok(Ok(Some(game))) => game,
        Ok(Ok(None)) => return error(StatusCode::NOT_FOUND, "no such game"),
        Ok(Err(e)) => {
            log::error!("cannot read a game: {e}");
            return error(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server cannot read games now",
            );
        }
        Err(e) => return error(StatusCode::SERVICE_UNAVAILABLE, e.to_string()),
    };
    let ending = game
        .result
        .as_ref()
        .and_then(|r| gogo_protocol::Ending::from_reason(&r.reason, r.winner));
    let names = [0, 1].map(|i| game.seats[i].name.clone());
    let record = &game.game;
    let kif = gogo_rules::kif::write_kif(
        record.start(),
        record.moves(),
        &gogo_rules::kif::KifInfo {
            sente: names[0].clone(),
            gote: names[1].clone(),
            ending: ending.as_ref().map(|e| e.kif_word().to_string()),
            summary: ending.as_ref().map(|e| e.kif_summary(record.moves().len())),
            comments: Vec::new(),
        },
    );
    let csa = gogo_rules::csa::write_csa(
        record.start(),
        record.moves(),
        &names[0],
        &names[1],
        ending.as_ref().map(gogo_protocol::Ending::csa_word),
    );
    Json(serde_json::json!({
        "id": game.id,
        "names": names,
        "players": [game.seats[0].player.clone(), game.seats[1].player.clone()],
        "start": record.start().to_sfen(),
        "sfen": record.position().to_sfen(),
        "moves": record.moves().iter().map(ToString::to_string).collect::<Vec<_>>(),
        "result": ending.as_ref().map(|e| e.result()),
        "reason": game.result.as_ref().map(|r| r.reason.clone()),
        "created_ms": game.created_ms,
        "kif": kif,
        "csa": csa,
    }))
    .into_response()
}

/// `POST /online/rooms`: a new room; the host's seat secret (for the host alone) and the
/// game's id, which is also the invitation.
async fn create_room(
    State(online): State<Arc<Online>>,
    peer: Option<axum::Extension<guard::PeerAddress>>,
    headers: HeaderMap,
    body: Option<Json<RoomSettings>>,
) -> Response {
    if let Some(answer) = online.over_limit(&online.new_rooms, peer.map(|p| p.0), &headers) {
        return answer;
    }
    if online.rooms.len() >= online.limits.max_rooms {
        return error(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server has as many rooms open as it can take: try again later",
        );
    }
    let player = match bearer(&online, &headers).await {
        Ok(p) => p,
        Err(answer) => return answer,
    };
    let Some(Json(settings)) = body else {
        return error(StatusCode::BAD_REQUEST, "send the room's settings as JSON");
    };
    match online.rooms.create(player, settings).await {
        Ok((id, seat, side)) => Json(serde_json::json!({
            "id": id, "seat": seat.expose(), "side": crate::messages::Side::from(side),
        }))
        .into_response(),
        Err(e) => error(StatusCode::BAD_REQUEST, e),
    }
}

/// `POST /online/rooms/{id}/join`: the open seat of room `id`.
async fn join_room(
    State(online): State<Arc<Online>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let player = match bearer(&online, &headers).await {
        Ok(p) => p,
        Err(answer) => return answer,
    };
    match online.rooms.join(&id, player).await {
        Ok((side, seat)) => Json(serde_json::json!({
            "id": id, "seat": seat.expose(), "side": crate::messages::Side::from(side),
        }))
        .into_response(),
        Err(e) => error(StatusCode::CONFLICT, e),
    }
}

/// `GET /online/lobby`: the rooms waiting and how many games are being played.
async fn lobby(State(online): State<Arc<Online>>) -> Response {
    Json(online.rooms.lobby()).into_response()
}

/// `GET /online/lobby/ws`: the lobby as it changes (at most twice a second), for as long
/// as the page stays.
async fn lobby_socket(
    upgrade: WebSocketUpgrade,
    State(online): State<Arc<Online>>,
    peer: Option<axum::Extension<guard::PeerAddress>>,
    headers: HeaderMap,
) -> Response {
    if let Some(answer) = online.over_limit(&online.sockets, peer.map(|p| p.0), &headers) {
        return answer;
    }
    upgrade
        .max_message_size(1024)
        .read_buffer_size(4096)
        .on_upgrade(move |mut socket| async move {
            let mut changes = online.rooms.watch_lobby();
            let idle = online.limits.idle;
            let mut last_heard = Instant::now();
            let mut pings = tokio::time::interval(Duration::from_secs(2).min(idle / 4));
            loop {
                let text = match serde_json::to_string(&online.rooms.lobby()) {
                    Ok(text) => text,
                    Err(_) => return,
                };
                let sent = socket.send(Message::Text(text.into()));
                if !matches!(tokio::time::timeout(Duration::from_secs(5), sent).await, Ok(Ok(()))) {
                    return;
                }
                // Changes that come together are sent together.
                tokio::time::sleep(Duration::from_millis(500)).await;
                loop {
                    tokio::select! {
                        changed = changes.changed() => {
                            if changed.is_err() {
                                return;
                            }
                            break;
                        }
                        message = socket.recv() => match message {
                            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                            Some(Ok(_)) => last_heard = Instant::now(),
                        },
                        _ = pings.tick() => {
                            if last_heard.elapsed() > idle {
                                return;
                            }
                            let ping = socket.send(Message::Ping(Vec::new().into()));
                            if !matches!(tokio::time::timeout(Duration::from_secs(5), ping).await, Ok(Ok(()))) {
                                return;
                            }
                        }
                    }
                }
            }
        })
}

#[derive(Deserialize)]
struct RoomQuery {
    game: String,
    seat: Option<String>,
    epoch: Option<u64>,
    after: Option<u64>,
}

/// `GET /online/ws`: a page's socket to a room, as a seat's holder or a spectator.
async fn room_socket(
    upgrade: WebSocketUpgrade,
    State(online): State<Arc<Online>>,
    peer: Option<axum::Extension<guard::PeerAddress>>,
    headers: HeaderMap,
    Query(query): Query<RoomQuery>,
) -> Response {
    if let Some(answer) = online.over_limit(&online.sockets, peer.map(|p| p.0), &headers) {
        return answer;
    }
    let Some(inputs) = online.rooms.find(&query.game) else {
        return error(StatusCode::NOT_FOUND, "no such live game");
    };
    let seat = match query.seat.as_deref().filter(|s| !s.is_empty()) {
        None => None,
        Some(text) => match Secret::parse(text) {
            Some(secret) => Some(secret.hash()),
            None => return error(StatusCode::FORBIDDEN, "that is not a seat of this game"),
        },
    };
    let after = query.epoch.zip(query.after);
    upgrade
        .max_message_size(MAX_BODY_BYTES)
        .max_frame_size(MAX_BODY_BYTES)
        // The messages are small; a large read buffer is zeroed again and again for them.
        .read_buffer_size(4096)
        .on_upgrade(move |socket| async move {
            let conn = online.conns.fetch_add(1, Ordering::SeqCst);
            room_pump(socket, &online, inputs, conn, seat, after).await;
        })
}

/// Sends one update within five seconds; false if the page is gone or too slow.
async fn send(socket: &mut WebSocket, update: &RoomUpdate) -> bool {
    let Ok(text) = serde_json::to_string(update) else {
        return true;
    };
    matches!(
        tokio::time::timeout(
            Duration::from_secs(5),
            socket.send(Message::Text(text.into()))
        )
        .await,
        Ok(Ok(()))
    )
}

/// A page's socket, pumped to and from its room: requests in (parsed, limited in number),
/// updates out, pings to measure the lag and find silent pages.
async fn room_pump(
    mut socket: WebSocket,
    online: &Online,
    inputs: mpsc::Sender<RoomInput>,
    conn: u64,
    seat: Option<gogo_store::SecretHash>,
    after: Option<(u64, u64)>,
) {
    let (updates_tx, mut updates) = mpsc::channel(room::PAGE_UPDATES);
    let (reply, answer) = oneshot::channel();
    let attach = RoomInput::Attach {
        conn,
        max_spectators: online.limits.max_spectators,
        seat,
        after,
        updates: updates_tx,
        reply,
    };
    if inputs.send(attach).await.is_err() {
        return;
    }
    match answer.await {
        Ok(Ok(())) => {}
        Ok(Err(message)) => {
            let _ = send(&mut socket, &RoomUpdate::Refused { message }).await;
            let _ = socket.send(Message::Close(None)).await;
            return;
        }
        Err(_) => return,
    }
    let budget = if seat.is_some() {
        PLAYER_MESSAGES
    } else {
        SPECTATOR_MESSAGES
    };
    let (mut window, mut used) = (Instant::now(), 0u32);
    let mut lag = Duration::ZERO;
    let mut pinged: Option<Instant> = None;
    let idle = online.limits.idle;
    let mut pings = tokio::time::interval(Duration::from_secs(2).min(idle / 4));
    let mut last_heard = Instant::now();
    loop {
        tokio::select! {
            message = socket.recv() => {
                last_heard = Instant::now();
                let text = match message {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Pong(_))) => {
                        if let Some(at) = pinged.take() {
                            lag = at.elapsed() / 2;
                        }
                        continue;
                    }
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => continue,
                };
                if window.elapsed() > MESSAGE_WINDOW {
                    (window, used) = (Instant::now(), 0);
                }
                used += 1;
                if used > budget {
                    if used == budget + 1 {
                        let message = "too many messages: wait a little".to_string();
                        if !send(&mut socket, &RoomUpdate::Refused { message }).await {
                            break;
                        }
                    }
                    continue;
                }
                let request = match serde_json::from_str::<RoomRequest>(&text) {
                    Ok(r) => r,
                    Err(e) => {
                        let message = crate::messages::brief(&format!("bad request: {e}"));
                        if !send(&mut socket, &RoomUpdate::Refused { message }).await {
                            break;
                        }
                        continue;
                    }
                };
                if inputs.send(RoomInput::Request { conn, request, lag }).await.is_err() {
                    break;
                }
            },
            update = updates.recv() => match update {
                Some(update) => {
                    if !send(&mut socket, &update).await {
                        break;
                    }
                }
                None => break,
            },
            _ = pings.tick() => {
                if last_heard.elapsed() > idle {
                    break;
                }
                pinged = Some(Instant::now());
                let ping = socket.send(Message::Ping(Vec::new().into()));
                if !matches!(tokio::time::timeout(Duration::from_secs(5), ping).await, Ok(Ok(()))) {
                    break;
                }
            }
        }
    }
    let _ = inputs.try_send(RoomInput::Detach { conn });
}
