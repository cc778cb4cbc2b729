//! The game API for scripts and bots, in the shape of lishogi's Board and Bot APIs, with a
//! player's key as the bearer token: `GET /api/account/playing`, the game's stream as NDJSON
//! (`GET /api/board/game/stream/{id}`, and `/api/bot/...`: `gameFull`, then a `gameState`
//! line at each change, an empty line every few seconds to keep the connection), and
//! `POST .../game/{id}/move/{usi}`, `resign`, `abort`, `draw/yes`, `draw/no`.

use super::api::Bearer;
use super::protocol::{EventView, RoomView};
use super::*;
use crate::messages::Side;
use axum::body::{Body, Bytes};

/// How often the stream says it is still there (lishogi: empty lines).
const KEEP_ALIVE: Duration = Duration::from_secs(7);

/// `GET /api/account/playing`: the bearer's live games.
pub(super) async fn playing(State(online): State<Arc<Online>>, Bearer(player): Bearer) -> Response {
    let games: Vec<serde_json::Value> = online
        .rooms
        .playing(&player.id)
        .await
        .into_iter()
        .map(
            |(id, side)| serde_json::json!({"gameId": id, "fullId": id, "color": Side::from(side)}),
        )
        .collect();
    Json(serde_json::json!({ "nowPlaying": games })).into_response()
}

/// The game as the stream tells it, kept up to date from the room's updates.
struct Mirror {
    id: String,
    room: Option<RoomView>,
}

/// lishogi's speed of a clock, from the game's estimated length (main time and 40 moves'
/// increment or byoyomi, as lishogi estimates it).
pub(super) fn speed(clock: protocol::OnlineClock) -> &'static str {
    let estimate_s = match clock {
        protocol::OnlineClock::None => return "correspondence",
        protocol::OnlineClock::Fischer {
            main_ms,
            increment_ms,
        } => (main_ms + 40 * increment_ms) / 1000,
        protocol::OnlineClock::Byoyomi {
            main_ms,
            byoyomi_ms,
        } => (main_ms + 25 * byoyomi_ms) / 1000,
        protocol::OnlineClock::PerTurn { turn_ms } => 25 * turn_ms / 1000,
    };
    // lichess's bounds.
    match estimate_s {
        0..30 => "ultraBullet",
        30..180 => "bullet",
        180..480 => "blitz",
        480..1500 => "rapid",
        _ => "classical",
    }
}

/// lishogi's word for how a game ended, from our reason.
fn status(room: &RoomView) -> &'static str {
    let Some(reason) = room.reason.as_deref() else {
        return if room.status == "waiting" {
            "created"
        } else {
            "started"
        };
    };
    match reason {
        "resignation" => "resign",
        "checkmate" | "no legal moves" => "mate",
        "time forfeit" => "outoftime",
        "draw agreed" | "left the game: drawn" => "draw",
        "aborted" => "aborted",
        "no first move in time" => "noStart",
        "left the game" => "timeout",
        "ply limit" => "impasse27",
        r if r.starts_with("perpetual check") => "perpetualCheck",
        r if r.contains("repetition") => "repetition",
        _ => "unknownFinish",
    }
}

impl Mirror {
    fn state(&self) -> serde_json::Value {
        let room = self.room.as_ref().expect("a room seen");
        let (inc, byo) = match room.settings.clock {
            protocol::OnlineClock::Fischer { increment_ms, .. } => (increment_ms, 0),
            protocol::OnlineClock::Byoyomi { byoyomi_ms, .. } => (0, byoyomi_ms),
            protocol::OnlineClock::PerTurn { turn_ms } => (0, turn_ms),
            protocol::OnlineClock::None => (0, 0),
        };
        let winner = match room.result.as_deref() {
            Some("1-0") => Some("sente"),
            Some("0-1") => Some("gote"),
            _ => None,
        };
        let mut state = serde_json::json!({
            "type": "gameState",
            "moves": room.moves.join(" "),
            "btime": room.clocks_ms[0],
            "wtime": room.clocks_ms[1],
            "binc": inc,
            "winc": inc,
            "byo": byo,
            "status": status(room),
        });
        if let Some(winner) = winner {
            state["winner"] = winner.into();
        }
        state
    }

    fn full(&self) -> serde_json::Value {
        let room = self.room.as_ref().expect("a room seen");
        let clock = match room.settings.clock {
            protocol::OnlineClock::None => serde_json::Value::Null,
            protocol::OnlineClock::Fischer {
                main_ms,
                increment_ms,
            } => {
                serde_json::json!({"initial": main_ms, "increment": increment_ms, "byoyomi": 0, "periods": 0})
            }
            protocol::OnlineClock::Byoyomi {
                main_ms,
                byoyomi_ms,
            } => {
                serde_json::json!({"initial": main_ms, "increment": 0, "byoyomi": byoyomi_ms, "periods": 1})
            }
            protocol::OnlineClock::PerTurn { turn_ms } => {
                serde_json::json!({"initial": 0, "increment": 0, "byoyomi": turn_ms, "periods": 1})
            }
        };
        let player = |i: usize| match &room.seats[i] {
            Some(s) => {
                serde_json::json!({"id": s.id, "name": s.name, "rating": s.rating, "provisional": s.provisional})
            }
            None => serde_json::Value::Null,
        };
        serde_json::json!({
            "type": "gameFull",
            "id": self.id,
            "variant": {"key": "minishogi", "name": "Minishogi"},
            "speed": speed(room.settings.clock),
            "perf": {"name": "Minishogi"},
            "rated": room.settings.rated,
            "clock": clock,
            "sente": player(0),
            "gote": player(1),
            "initialSfen": room.start,
            "state": self.state(),
        })
    }

    /// The line an update adds to the stream, if any.
    fn line(&mut self, update: RoomUpdate) -> Option<serde_json::Value> {
        match update {
            RoomUpdate::Room(view) => {
                let first = self.room.is_none();
                self.room = Some(*view);
                Some(if first { self.full() } else { self.state() })
            }
            RoomUpdate::Event { event, sfen, .. } => {
                let room = self.room.as_mut()?;
                match event {
                    EventView::Moved {
                        ply,
                        usi,
                        clocks_ms,
                    } => {
                        room.moves.truncate(ply);
                        room.moves.push(usi);
                        room.clocks_ms = clocks_ms;
                    }
                    EventView::TookBack { plies, clocks_ms } => {
                        room.moves.truncate(plies);
                        room.clocks_ms = clocks_ms;
                    }
                    EventView::Ended { result, reason } => {
                        room.status = "over".into();
                        room.result = Some(result);
                        room.reason = Some(reason);
                    }
                    // Offers: lishogi tells them in the state; a bot answers them by the
                    // draw endpoints.
                    _ => return None,
                }
                room.sfen = sfen;
                Some(self.state())
            }
            RoomUpdate::Chat { name, text, .. } => Some(serde_json::json!({
                "type": "chatLine", "room": "player", "username": name, "text": text})),
            RoomUpdate::Presence { .. }
            | RoomUpdate::Refused { .. }
            | RoomUpdate::RematchOffered { .. }
            | RoomUpdate::Rematch { .. } => None,
        }
    }
}

/// `GET /api/board/game/stream/{id}` (and `/api/bot/...`): the bearer's game as NDJSON.
pub(super) async fn game_stream(
    State(online): State<Arc<Online>>,
    Bearer(player): Bearer,
    Path(id): Path<String>,
) -> Response {
    let Some(inputs) = online.rooms.reach(&id).await else {
        return error(StatusCode::NOT_FOUND, "no such live game");
    };
    let conn = online.conns.fetch_add(1, Ordering::SeqCst);
    let (updates_tx, mut updates) = mpsc::channel(room::PAGE_UPDATES);
    let attach = |reply| RoomInput::Attach {
        conn,
        max_spectators: online.limits.max_spectators,
        who: room::Who::Player(player.id),
        after: None,
        updates: updates_tx,
        reply,
    };
    if let Err((status, why)) = ask_room(&online, &id, StatusCode::FORBIDDEN, attach).await {
        return error(status, why);
    }
    let (lines, body) = mpsc::channel::<Result<Bytes, std::convert::Infallible>>(64);
    tokio::spawn(async move {
        let mut mirror = Mirror { id, room: None };
        let mut keep_alive = tokio::time::interval(KEEP_ALIVE);
        loop {
            let text = tokio::select! {
                update = updates.recv() => match update {
                    Some(update) => match mirror.line(update) {
                        Some(line) => format!("{line}\n"),
                        None => continue,
                    },
                    None => break,
                },
                _ = keep_alive.tick() => "\n".to_string(),
            };
            // The client went away: the body was dropped.
            if lines.send(Ok(Bytes::from(text))).await.is_err() {
                break;
            }
        }
        let _ = inputs.try_send(RoomInput::Detach { conn });
    });
    let stream = futures_util::stream::unfold(body, |mut body| async move {
        body.recv().await.map(|item| (item, body))
    });
    (
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(stream),
    )
        .into_response()
}

/// Carries out the bearer's `request` in game `id`: `{"ok": true}`, or the error.
async fn act(online: &Online, player: PlayerRecord, id: &str, request: RoomRequest) -> Response {
    let act = |reply| RoomInput::Act {
        player: player.id,
        request,
        reply,
    };
    match ask_room(online, id, StatusCode::BAD_REQUEST, act).await {
        Ok(()) => Json(serde_json::json!({"ok": true})).into_response(),
        Err((status, why)) => error(status, why),
    }
}

/// `POST .../game/{id}/move/{usi}`.
pub(super) async fn play_move(
    State(online): State<Arc<Online>>,
    Bearer(player): Bearer,
    Path((id, usi)): Path<(String, String)>,
) -> Response {
    if usi.len() > 8 {
        return error(StatusCode::BAD_REQUEST, "not a move");
    }
    act(&online, player, &id, RoomRequest::Move { ply: 0, usi }).await
}

/// `POST .../game/{id}/resign`.
pub(super) async fn resign(
    State(online): State<Arc<Online>>,
    Bearer(player): Bearer,
    Path(id): Path<String>,
) -> Response {
    act(&online, player, &id, RoomRequest::Resign).await
}

/// `POST .../game/{id}/chat` (form fields `room` and `text`, as lishogi takes them): a line
/// to the game's chat, which its players and spectators see.
pub(super) async fn chat(
    State(online): State<Arc<Online>>,
    Bearer(player): Bearer,
    Path(id): Path<String>,
    form: Result<
        axum::extract::Form<std::collections::HashMap<String, String>>,
        axum::extract::rejection::FormRejection,
    >,
) -> Response {
    let Some(text) = form.ok().and_then(|f| f.0.get("text").cloned()) else {
        return error(StatusCode::BAD_REQUEST, "text: the line of chat");
    };
    act(&online, player, &id, RoomRequest::Chat { text }).await
}

/// `POST .../game/{id}/abort`.
pub(super) async fn abort(
    State(online): State<Arc<Online>>,
    Bearer(player): Bearer,
    Path(id): Path<String>,
) -> Response {
    act(&online, player, &id, RoomRequest::Abort).await
}

/// `POST .../game/{id}/draw/{yes|no}`: offer or accept a draw, or decline one.
pub(super) async fn draw(
    State(online): State<Arc<Online>>,
    Bearer(player): Bearer,
    Path((id, answer)): Path<(String, String)>,
) -> Response {
    let request = match answer.as_str() {
        "yes" | "true" => RoomRequest::OfferDraw,
        "no" | "false" => RoomRequest::DeclineDraw,
        _ => return error(StatusCode::BAD_REQUEST, "draw/yes or draw/no"),
    };
    act(&online, player, &id, request).await
}
