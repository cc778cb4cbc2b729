//! # gogo-gui
//!
//! A minishogi board in the browser, with gogo (or any USI engine) behind it: an HTTP server
//! on 127.0.0.1 that serves one page (HTML, CSS and JavaScript embedded in the binary) and
//! speaks to it over a WebSocket ([`messages`]). Each page gets its own board: a game
//! ([`session`]) and an engine process ([`engine`]), owned by a task that outlives the page's
//! socket, so that a reload comes back to the same game, clock and all. The rules crate
//! judges every move, so the page never decides what is legal.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod access;
mod board;
pub mod chances;
pub mod engine;
pub mod fuzz_checks;
mod keeper;
pub mod lag;
pub mod messages;
pub mod online;
pub mod referee;
pub mod review;
pub mod session;
pub mod writer;

use access::Access;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use engine::EngineHandle;
use gogo_protocol::EngineSpec;
use messages::Update;
use session::Session;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const INDEX: &str = include_str!("../static/index.html");
const STYLE: &str = include_str!("../static/style.css");
const SCRIPT: &str = include_str!("../static/app.js");
/// The page's ES modules, one per panel or concern, served as they are (no build step): the
/// name under `/js/` and the text.
const MODULES: [(&str, &str); 11] = [
    ("state.js", include_str!("../static/js/state.js")),
    ("connection.js", include_str!("../static/js/connection.js")),
    ("board.js", include_str!("../static/js/board.js")),
    ("moves.js", include_str!("../static/js/moves.js")),
    ("status.js", include_str!("../static/js/status.js")),
    ("record.js", include_str!("../static/js/record.js")),
    ("review.js", include_str!("../static/js/review.js")),
    ("analysis.js", include_str!("../static/js/analysis.js")),
    ("dialogs.js", include_str!("../static/js/dialogs.js")),
    ("puzzles.js", include_str!("../static/js/puzzles.js")),
    ("explorer.js", include_str!("../static/js/explorer.js")),
];
/// The characters the page draws, cut from Noto Serif JP (OFL; `scripts/make-piece-font.sh`),
/// so that the pieces read on machines without CJK fonts.
pub(crate) const PIECE_FONT: &[u8] = include_bytes!("../static/pieces.woff2");

/// Engine events waiting for a session (see [`EngineHandle::spawn`]).
const ENGINE_EVENTS: usize = 256;

/// How much one page may take of the machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Connections open at once (pages, their requests and their WebSockets' handshakes);
    /// one more is closed at once.
    pub max_connections: usize,
    /// A connection must have sent the whole head of its HTTP request within this, or it
    /// is closed (a client that dribbles its headers holds no place for long).
    pub header_timeout: Duration,
    /// Each write to a page must be taken within this (or the idle timeout, if shorter):
    /// a page that stops reading its socket loses its session instead of holding it.
    pub write_timeout: Duration,
    /// Games (each with its engine process) open at once; one more page is told the server
    /// is full.
    pub max_sessions: usize,
    /// A page that has sent nothing, not even the answer to a ping, for this long is gone;
    /// a board waits this long for its page to come back, then ends and its engine with it.
    pub idle_timeout: Duration,
    /// The largest message a page may send (a record to load is the largest there is).
    pub max_message_bytes: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_connections: 64,
            header_timeout: Duration::from_secs(10),
            write_timeout: Duration::from_secs(5),
            max_sessions: 4,
            idle_timeout: Duration::from_secs(120),
            max_message_bytes: 512 * 1024,
        }
    }
}

/// What the server needs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The engine each page plays with.
    pub engine: EngineSpec,
    /// Who may use the server.
    pub access: Access,
    /// How much a page may take.
    pub limits: Limits,
    /// Online play (rooms between two people), when the server offers it.
    pub online: Option<Arc<online::Online>>,
    /// Where the local board's games are kept (each move stored before the page is told,
    /// and a board found again after a restart); `None`: not kept.
    pub store: Option<writer::StoreHandle>,
}

impl Config {
    /// The engine `engine` behind a server listening on `bound`, with a fresh token and the
    /// default limits.
    pub fn new(engine: EngineSpec, bound: SocketAddr) -> Config {
        Config {
            engine,
            access: Access::for_address(bound),
            limits: Limits::default(),
            online: None,
            store: None,
        }
    }
}

/// The server's state: its configuration and how many sessions are open.
struct Server {
    config: Config,
    sessions: AtomicUsize,
    /// The puzzles opened on this server (hints used, first tries over), kept across pages
    /// and reloads.
    puzzles: Arc<session::PuzzleLedger>,
    /// The boards being served, each by its own task.
    boards: Arc<board::Boards>,
    /// Numbers the pages' pumps.
    pages: std::sync::atomic::AtomicU64,
}

/// One open session's place, given back when the session ends.
struct SessionSlot(Arc<Server>);

impl Drop for SessionSlot {
    fn drop(&mut self) {
        self.0.sessions.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Server {
    fn take_slot(self: &Arc<Server>) -> Option<SessionSlot> {
        let max = self.config.limits.max_sessions;
        self.sessions
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < max).then_some(n + 1)
            })
            .ok()
            .map(|_| SessionSlot(Arc::clone(self)))
    }
}

/// The server's routes: `/` (the page), `/style.css`, `/app.js` (its entry module) and `/js/*.js`
/// (its other modules), `/pieces.woff2`, `/ws` (the game), each
/// behind [`access::guard`].
pub fn app(config: Config) -> Router {
    let access = Arc::new(config.access.clone());
    let online = config.online.clone();
    let server = Arc::new(Server {
        config,
        sessions: AtomicUsize::new(0),
        puzzles: Default::default(),
        boards: Default::default(),
        pages: Default::default(),
    });
    let board = Router::new()
        .route(
            "/",
            get(|| async { asset("text/html; charset=utf-8", INDEX) }),
        )
        .route("/style.css", get(|| async { asset("text/css", STYLE) }))
        .route(
            "/app.js",
            get(|| async { asset("text/javascript", SCRIPT) }),
        )
        .route("/js/{module}", get(module))
        .route(
            "/pieces.woff2",
            get(|| async { asset("font/woff2", PIECE_FONT) }),
        )
        .route("/ws", get(websocket))
        .with_state(server)
        .layer(axum::middleware::from_fn_with_state(access, access::guard));
    // Online play answers other devices: its seats and keys are its guard, not the token.
    match online {
        Some(online) => board.merge(online::routes(online)),
        None => board,
    }
}

/// One of the page's modules, or 404.
async fn module(axum::extract::Path(name): axum::extract::Path<String>) -> Response {
    match MODULES.iter().find(|(n, _)| *n == name) {
        Some((_, text)) => asset("text/javascript", *text),
        None => axum::http::StatusCode::NOT_FOUND.into_response(),
    }
}

fn asset(kind: &'static str, body: impl IntoResponse) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

/// What a page's WebSocket address may say besides its token.
#[derive(serde::Deserialize)]
struct SocketQuery {
    /// The key of the board the page had (after a reload or a dropped connection).
    board: Option<String>,
}

async fn websocket(
    upgrade: WebSocketUpgrade,
    State(server): State<Arc<Server>>,
    axum::extract::Query(query): axum::extract::Query<SocketQuery>,
) -> Response {
    let max = server.config.limits.max_message_bytes;
    upgrade
        .max_message_size(max)
        .max_frame_size(max)
        .on_upgrade(move |socket| async move {
            let known = query.board.as_deref().and_then(|k| server.boards.find(k));
            if let (Some((_, inputs)), Some(key)) = (known, &query.board) {
                return pump(socket, &server, key.clone(), true, inputs).await;
            }
            // Not served: kept in the store, if the server restarted under the page.
            let stored = stored_board(&server, query.board.as_deref()).await;
            let resumed = stored.is_some();
            match open_board(&server, stored).await {
                Some((key, inputs)) => pump(socket, &server, key, resumed, inputs).await,
                None => refuse_full(socket, &server.config.limits).await,
            }
        })
}

/// The newest game the store keeps for the board whose key is `key`, with the key.
async fn stored_board(
    server: &Server,
    key: Option<&str>,
) -> Option<(gogo_store::Secret, gogo_store::StoredGame)> {
    let key = gogo_store::Secret::parse(key?)?;
    let store = server.config.store.as_ref()?;
    let hash = key.hash();
    match store.run(move |s| s.latest_game_of_seat(hash)).await {
        Ok(Ok(Some(game))) => Some((key, game)),
        Ok(Ok(None)) => None,
        Ok(Err(e)) => {
            log::warn!("a board's stored game cannot be read: {e}");
            None
        }
        Err(e) => {
            log::warn!("{e}");
            None
        }
    }
}

/// Sends `updates` in order, each within `deadline`; false when the page is gone or does
/// not take them in time.
async fn send(socket: &mut WebSocket, updates: Vec<Update>, deadline: Duration) -> bool {
    for update in updates {
        let text = match serde_json::to_string(&update) {
            Ok(t) => t,
            Err(e) => {
                log::error!("cannot encode an update: {e}");
                continue;
            }
        };
        if !send_within(socket, Message::Text(text.into()), deadline).await {
            return false;
        }
    }
    true
}

/// One write to a page, within `deadline`: false when it failed or the page did not take it.
async fn send_within(socket: &mut WebSocket, message: Message, deadline: Duration) -> bool {
    match tokio::time::timeout(deadline, socket.send(message)).await {
        Ok(Ok(())) => true,
        Ok(Err(_)) => false,
        Err(_) => {
            log::info!("a page took no update for {deadline:?}: its session ends");
            false
        }
    }
}

/// Tells a page that every session is taken, and closes.
async fn refuse_full(mut socket: WebSocket, limits: &Limits) {
    let message = format!(
        "the server is full: {} games are open (gogo-gui --max-sessions); close another \
         tab of this board and reload",
        limits.max_sessions
    );
    let deadline = limits.write_timeout.min(limits.idle_timeout);
    let _ = send(&mut socket, vec![Update::error(message)], deadline).await;
    let _ = send_within(&mut socket, Message::Close(None), deadline).await;
}

/// A board for a new page: a new session with its engine, served by its own task; `None`
/// when every place is taken, even after letting the longest-waiting board without a page
/// go.
async fn open_board(
    server: &Arc<Server>,
    stored: Option<(gogo_store::Secret, gogo_store::StoredGame)>,
) -> Option<(String, tokio::sync::mpsc::Sender<board::BoardInput>)> {
    let mut slot = server.take_slot();
    // Full: the board that has waited longest for its page gives its place, once its task
    // has ended (at once, unless it is busy with a request). Pages that come together race
    // for the places so given: one that lost its place to another page asks the next board
    // waiting alone for one (found by the soak: of 8 pages opened at once, 3 were refused
    // while 3 boards still waited alone).
    let patience = Instant::now();
    let mut last_eviction: Option<Instant> = None;
    while slot.is_none() && patience.elapsed() < Duration::from_secs(2) {
        let due = last_eviction.is_none_or(|at| at.elapsed() >= Duration::from_millis(200));
        if due {
            if server.boards.evict_oldest_alone() {
                last_eviction = Some(Instant::now());
            } else if last_eviction.is_none() {
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        slot = server.take_slot();
    }
    let slot = slot?;
    let config = &server.config;
    let (events_tx, events) = tokio::sync::mpsc::channel(ENGINE_EVENTS);
    let mut session = Session::with_ledger(
        EngineHandle::spawn(config.engine.clone(), events_tx),
        Arc::clone(&server.puzzles),
    );
    // A board the server had before it restarted comes back with its key and its game.
    let (key, keeper) = match (stored, &config.store) {
        (Some((key, game)), Some(store)) => match session.restore(&game) {
            Ok(()) => {
                let generation = session.kept().map_or(0, |k| k.generation);
                let keeper = keeper::Keeper::resumed(store.clone(), key.hash(), generation, &game);
                (key, Some(keeper))
            }
            Err(e) => {
                log::warn!("a stored game of the board cannot be set up again: {e}");
                let key = gogo_store::Secret::generate();
                (
                    key.clone(),
                    Some(keeper::Keeper::new(store.clone(), key.hash())),
                )
            }
        },
        (_, store) => {
            let key = gogo_store::Secret::generate();
            let keeper = store
                .as_ref()
                .map(|s| keeper::Keeper::new(s.clone(), key.hash()));
            (key, keeper)
        }
    };
    let (key, inputs) = board::open(
        &server.boards,
        session,
        events,
        config.limits.idle_timeout,
        slot,
        key,
        keeper,
    );
    Some((key.expose().to_string(), inputs))
}

/// A page's WebSocket, pumped to and from its board until the page goes away or falls
/// silent, or the board lets it go; the board stays for the page to come back.
async fn pump(
    mut socket: WebSocket,
    server: &Server,
    key: String,
    resumed: bool,
    board: tokio::sync::mpsc::Sender<board::BoardInput>,
) {
    let config = &server.config;
    let idle = config.limits.idle_timeout;
    let deadline = config.limits.write_timeout.min(idle);
    let page = server.pages.fetch_add(1, Ordering::SeqCst);
    // The key first: the page keeps it for its tab, to come back to this board.
    if !send(&mut socket, vec![Update::Board { key, resumed }], deadline).await {
        return;
    }
    let (updates_tx, mut updates) = tokio::sync::mpsc::channel(board::PAGE_UPDATES);
    let attach = board::BoardInput::Attach {
        page,
        updates: updates_tx,
    };
    if board.send(attach).await.is_err() {
        return;
    }
    let mut pings = tokio::time::interval((idle / 4).max(Duration::from_millis(10)));
    let mut last_heard = Instant::now();
    loop {
        tokio::select! {
            message = socket.recv() => {
                last_heard = Instant::now();
                match message {
                    Some(Ok(Message::Text(text))) => {
                        // While the board is busy, its updates are still passed on: a page
                        // that sends many requests reads their answers meanwhile.
                        let permit = loop {
                            tokio::select! {
                                permit = board.reserve() => break permit.ok(),
                                batch = updates.recv() => {
                                    let sent = match batch {
                                        Some(batch) => send(&mut socket, batch, deadline).await,
                                        None => false,
                                    };
                                    if !sent {
                                        break None;
                                    }
                                }
                            }
                        };
                        let Some(permit) = permit else { break };
                        permit.send(board::BoardInput::Request { page, text: text.to_string() });
                    }
                    Some(Ok(Message::Close(_))) | None => break,
                    Some(Err(e)) => {
                        log::info!("a page's connection failed: {e}");
                        break;
                    }
                    Some(Ok(_)) => {}
                }
            },
            batch = updates.recv() => match batch {
                Some(batch) => {
                    if !send(&mut socket, batch, deadline).await {
                        break;
                    }
                }
                // The board ended, or let this page go for another.
                None => break,
            },
            _ = pings.tick() => {
                if last_heard.elapsed() > idle {
                    log::info!("a page was silent for {idle:?}: it is let go");
                    break;
                }
                if !send_within(&mut socket, Message::Ping(Vec::new().into()), deadline).await {
                    break;
                }
            }
        }
    }
    let _ = board.try_send(board::BoardInput::Detach { page });
}

/// Serves [`app`] on `listener` until it fails: HTTP/1.1 with WebSocket upgrades, each
/// request's head within [`Limits::header_timeout`], at most [`Limits::max_connections`]
/// connections at once (one more is closed at once).
pub async fn serve(listener: tokio::net::TcpListener, config: Config) -> std::io::Result<()> {
    use tower_service::Service;
    let limits = config.limits;
    let router = app(config);
    let places = Arc::new(tokio::sync::Semaphore::new(limits.max_connections.max(1)));
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors and the like: wait for some to be given back.
                log::warn!("cannot accept a connection: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let Ok(place) = Arc::clone(&places).try_acquire_owned() else {
            log::warn!(
                "{} connections are open: one more is closed",
                limits.max_connections
            );
            drop(stream);
            continue;
        };
        // Moves and updates are small messages that must go at once: no Nagle delay.
        if let Err(e) = stream.set_nodelay(true) {
            log::debug!("cannot turn Nagle off on a connection: {e}");
        }
        let router = router.clone();
        tokio::spawn(async move {
            let _place = place;
            // Online play limits each client by its address.
            let service = hyper::service::service_fn(move |mut request: hyper::Request<_>| {
                request
                    .extensions_mut()
                    .insert(online::guard::PeerAddress(peer));
                router.clone().call(request)
            });
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(limits.header_timeout)
                .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                .with_upgrades();
            if let Err(e) = connection.await {
                log::debug!("a connection ended: {e}");
            }
        });
    }
}
