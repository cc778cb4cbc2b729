//! Online play: two people, each on their own device, in a room on this server. The server
//! is the authority of every game (the referee judges each request, the store keeps each
//! change before anyone is told), a seat is a secret held by one person, and anyone with a
//! game's id watches.
//!
//! HTTP, in the shape of lishogi's API (a player's key is the bearer token):
//! `POST /api/token` (`{"name"}`: a new player and their key), `GET /api/account`,
//! `GET /api/games/user/{id}`, `GET /api/user/{id}` (a player's page); `POST /online/rooms` (the settings: a room and the host's
//! seat), `POST /online/rooms/{id}/join` (the open seat), `GET /online/lobby`, and the
//! room's WebSocket, `GET /online/ws?game=ID[&seat=SECRET][&epoch=E&after=N]`.

mod api;
mod bots;
pub(crate) mod challenges;
pub mod cluster;
pub mod cpu;
pub mod guard;
pub mod protocol;
pub mod puzzles;
pub mod room;
pub mod rooms;
mod sockets;

pub use api::check_name;

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
    /// Puzzle requests (a puzzle, a move, a hint) one address may make a minute.
    pub puzzle_requests_per_minute: u32,
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
            puzzle_requests_per_minute: 600,
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
    puzzles: guard::AddressLimiter,
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
            puzzles: guard::AddressLimiter::new(limits.puzzle_requests_per_minute, minute),
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
        .route("/api/token", post(api::new_player))
        .route("/api/account", get(api::account))
        .route("/api/games/user/{id}", get(api::games_of))
        .route("/api/user/{id}", get(api::user))
        .route("/api/bot/account/upgrade", post(api::upgrade_to_bot))
        .route("/online/rooms", post(api::create_room))
        .route("/online/rooms/{id}/join", post(api::join_room))
        .route("/online/lobby", get(api::lobby))
        .route("/online/puzzles/next", get(puzzles::next))
        .route("/online/puzzles/{id}", get(puzzles::puzzle))
        .route("/online/puzzles/{id}/move", post(puzzles::play))
        .route("/online/puzzles/{id}/hint", get(puzzles::hint))
        .route("/api/account/playing", get(bots::playing))
        .route("/api/stream/event", get(challenges::events))
        .route("/api/challenge/{id}", post(challenges::challenge))
        .route("/api/challenge/{id}/accept", post(challenges::accept))
        .route("/api/challenge/{id}/decline", post(challenges::decline))
        .route("/api/board/game/stream/{id}", get(bots::game_stream))
        .route("/api/board/game/{id}/move/{usi}", post(bots::play_move))
        .route("/api/board/game/{id}/resign", post(bots::resign))
        .route("/api/board/game/{id}/abort", post(bots::abort))
        .route("/api/board/game/{id}/chat", post(bots::chat))
        .route("/api/board/game/{id}/draw/{answer}", post(bots::draw))
        .route("/api/bot/game/stream/{id}", get(bots::game_stream))
        .route("/api/bot/game/{id}/move/{usi}", post(bots::play_move))
        .route("/api/bot/game/{id}/resign", post(bots::resign))
        .route("/api/bot/game/{id}/abort", post(bots::abort))
        .route("/api/bot/game/{id}/chat", post(bots::chat))
        .route("/api/bot/game/{id}/draw/{answer}", post(bots::draw))
        .route("/online/lobby/ws", get(sockets::lobby_socket))
        .route("/online/games/{id}", get(api::game_record))
        .route("/online/ws", get(sockets::room_socket))
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

/// Sends room `id` the input `make` builds around a reply and waits for the room's answer;
/// else the status and words to answer with (no such live room: 404; the room's refusal:
/// `refused`).
async fn ask_room<T>(
    online: &Online,
    id: &str,
    refused: StatusCode,
    make: impl FnOnce(oneshot::Sender<Result<T, String>>) -> RoomInput,
) -> Result<T, (StatusCode, String)> {
    let gone = || (StatusCode::NOT_FOUND, "no such live game".to_string());
    let inputs = online.rooms.reach(id).await.ok_or_else(gone)?;
    let (reply, answer) = oneshot::channel();
    inputs.send(make(reply)).await.map_err(|_| gone())?;
    match answer.await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(why)) => Err((refused, why)),
        Err(_) => Err(gone()),
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
