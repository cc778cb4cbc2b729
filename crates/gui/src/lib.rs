//! # gogo-gui
//!
//! A minishogi board in the browser, with gogo (or any USI engine) behind it: an HTTP server
//! on 127.0.0.1 that serves one page (HTML, CSS and JavaScript embedded in the binary) and
//! speaks to it over a WebSocket ([`messages`]). Each page gets its own game ([`session`])
//! and its own engine process ([`engine`]); the rules crate judges every move, so the page
//! never decides what is legal.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod engine;
pub mod messages;
pub mod session;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use engine::EngineHandle;
use gogo_protocol::EngineSpec;
use messages::{Request, Update};
use session::Session;
use std::sync::Arc;
use std::time::Duration;

const INDEX: &str = include_str!("../static/index.html");
const STYLE: &str = include_str!("../static/style.css");
const SCRIPT: &str = include_str!("../static/app.js");

/// What the server needs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The engine each page plays with.
    pub engine: EngineSpec,
}

/// The server's routes: `/` (the page), `/style.css`, `/app.js`, `/ws` (the game).
pub fn app(config: Config) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { asset("text/html; charset=utf-8", INDEX) }),
        )
        .route("/style.css", get(|| async { asset("text/css", STYLE) }))
        .route(
            "/app.js",
            get(|| async { asset("text/javascript", SCRIPT) }),
        )
        .route("/ws", get(websocket))
        .with_state(Arc::new(config))
}

fn asset(kind: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

async fn websocket(upgrade: WebSocketUpgrade, State(config): State<Arc<Config>>) -> Response {
    upgrade.on_upgrade(move |socket| play(socket, config))
}

async fn send(socket: &mut WebSocket, updates: Vec<Update>) -> bool {
    for update in updates {
        let text = match serde_json::to_string(&update) {
            Ok(t) => t,
            Err(e) => {
                log::error!("cannot encode an update: {e}");
                continue;
            }
        };
        if socket.send(Message::Text(text.into())).await.is_err() {
            return false;
        }
    }
    true
}

/// One page's game, until the page goes away.
async fn play(mut socket: WebSocket, config: Arc<Config>) {
    let (events_tx, mut events) = tokio::sync::mpsc::unbounded_channel();
    let mut session = Session::new(EngineHandle::spawn(config.engine.clone(), events_tx));
    if !send(&mut socket, vec![Update::State(Box::new(session.view()))]).await {
        return;
    }
    let mut clock = tokio::time::interval(Duration::from_millis(100));
    loop {
        let updates = tokio::select! {
            message = socket.recv() => match message {
                Some(Ok(Message::Text(text))) => match serde_json::from_str::<Request>(&text) {
                    Ok(request) => session.handle(request),
                    Err(e) => vec![Update::Error { message: format!("bad request: {e}") }],
                },
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(_)) => Vec::new(),
            },
            Some(event) = events.recv() => session.engine_event(event),
            _ = clock.tick() => session.tick(),
        };
        if !send(&mut socket, updates).await {
            break;
        }
    }
}
