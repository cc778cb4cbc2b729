//! Challenges and the player's event stream, in the shape of lishogi's API: a challenge is a
//! room that waits for one named player (not listed in the lobby), told on that player's
//! event stream; accepting takes its seat, declining closes it. `GET /api/stream/event` is
//! NDJSON: a `gameStart` for each game the player is in, then `challenge`, `gameStart` and
//! `challengeDeclined` as they come, and an empty line every few seconds.

use super::api::Bearer;
use super::bots;
use super::*;
use crate::messages::Side;
use axum::body::{Body, Bytes};
use axum::Form;
use std::collections::HashMap;

/// How often the stream says it is still there.
const KEEP_ALIVE: Duration = Duration::from_secs(7);

fn seconds(form: &HashMap<String, String>, key: &str) -> Result<u64, String> {
    match form.get(key) {
        None => Ok(0),
        Some(text) => text
            .trim()
            .parse::<u64>()
            .map(|s| s.saturating_mul(1000))
            .map_err(|_| format!("{key}: seconds, a whole number")),
    }
}

/// The room settings of a challenge's form (lishogi's fields: `rated`, `clock.limit`,
/// `clock.increment`, `clock.byoyomi` in seconds, `color`, `variant`).
pub(crate) fn settings_of(
    form: &HashMap<String, String>,
    opponent: String,
) -> Result<RoomSettings, String> {
    if form.get("variant").is_some_and(|v| v != "minishogi") {
        return Err("variant: this server plays minishogi".into());
    }
    let (limit, increment, byoyomi) = (
        seconds(form, "clock.limit")?,
        seconds(form, "clock.increment")?,
        seconds(form, "clock.byoyomi")?,
    );
    let clock = match (limit, increment, byoyomi) {
        (0, 0, 0) => protocol::OnlineClock::None,
        (0, 0, turn) => protocol::OnlineClock::PerTurn { turn_ms: turn },
        (main, inc, 0) => protocol::OnlineClock::Fischer {
            main_ms: main,
            increment_ms: inc,
        },
        (main, 0, byo) => protocol::OnlineClock::Byoyomi {
            main_ms: main,
            byoyomi_ms: byo,
        },
        _ => return Err("clock: an increment or a byoyomi, not both".into()),
    };
    let color = match form.get("color").map(String::as_str) {
        None | Some("random") => protocol::ColorChoice::Random,
        Some("sente") => protocol::ColorChoice::Sente,
        Some("gote") => protocol::ColorChoice::Gote,
        Some(_) => return Err("color: sente, gote or random".into()),
    };
    Ok(RoomSettings {
        clock,
        color,
        rated: form.get("rated").is_some_and(|r| r == "true"),
        opponent: Some(opponent),
        ..RoomSettings::default()
    })
}

/// `POST /api/challenge/{player}`: the bearer challenges the player with this id.
pub(super) async fn challenge(
    State(online): State<Arc<Online>>,
    Bearer(challenger): Bearer,
    Path(target): Path<String>,
    form: Result<Form<HashMap<String, String>>, axum::extract::rejection::FormRejection>,
) -> Response {
    // No body: every setting its default, as lishogi takes it.
    let form = form.map(|f| f.0).unwrap_or_default();
    if target.len() > 32 || target == challenger.id {
        return error(StatusCode::BAD_REQUEST, "no such player to challenge");
    }
    let id = target.clone();
    let dest = match online.rooms.store().run(move |s| s.player(&id)).await {
        Ok(Ok(Some(player))) => player,
        Ok(Ok(None)) => return error(StatusCode::NOT_FOUND, "no such player"),
        _ => {
            return error(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server cannot read players now",
            )
        }
    };
    let settings = match settings_of(&form, dest.id.clone()) {
        Ok(s) => s,
        Err(e) => return error(StatusCode::BAD_REQUEST, e),
    };
    let rated = settings.rated;
    let clock = settings.clock;
    let (id, _seat, side) = match online.rooms.create(challenger.clone(), settings).await {
        Ok(made) => made,
        Err(e) => return error(StatusCode::BAD_REQUEST, e),
    };
    let who = |p: &PlayerRecord| who(&p.id, &p.name, p.rating.rating.round());
    let challenge = challenge_json(&id, who(&challenger), who(&dest), rated, clock, side);
    online.rooms.tell(
        &dest.id,
        serde_json::json!({"type": "challenge", "challenge": challenge}),
    );
    Json(serde_json::json!({ "challenge": challenge })).into_response()
}

/// A player as a challenge names them.
fn who(id: &str, name: &str, rating: f64) -> serde_json::Value {
    serde_json::json!({"id": id, "name": name, "rating": rating})
}

/// A challenge as lishogi's event stream tells it (`side`: the challenger's).
fn challenge_json(
    id: &str,
    challenger: serde_json::Value,
    dest: serde_json::Value,
    rated: bool,
    clock: protocol::OnlineClock,
    side: gogo_rules::Color,
) -> serde_json::Value {
    serde_json::json!({
        "id": id,
        "status": "created",
        "challenger": challenger,
        "destUser": dest,
        "variant": {"key": "minishogi", "name": "Minishogi"},
        "rated": rated,
        "speed": bots::speed(clock),
        "perf": {"name": "Minishogi"},
        "timeControl": time_control(clock),
        "color": Side::from(side),
    })
}

/// A clock as lishogi's challenges tell it: seconds.
fn time_control(clock: protocol::OnlineClock) -> serde_json::Value {
    let s = |ms: u64| ms / 1000;
    match clock {
        protocol::OnlineClock::None => serde_json::json!({"type": "unlimited"}),
        protocol::OnlineClock::Fischer {
            main_ms,
            increment_ms,
        } => serde_json::json!({
            "type": "clock", "limit": s(main_ms), "increment": s(increment_ms), "byoyomi": 0}),
        protocol::OnlineClock::Byoyomi {
            main_ms,
            byoyomi_ms,
        } => serde_json::json!({
            "type": "clock", "limit": s(main_ms), "increment": 0, "byoyomi": s(byoyomi_ms)}),
        protocol::OnlineClock::PerTurn { turn_ms } => serde_json::json!({
            "type": "clock", "limit": 0, "increment": 0, "byoyomi": s(turn_ms)}),
    }
}

/// `POST /api/challenge/{id}/accept`: the challenged player takes the seat.
pub(super) async fn accept(
    State(online): State<Arc<Online>>,
    Bearer(player): Bearer,
    Path(id): Path<String>,
) -> Response {
    match online.rooms.join(&id, player).await {
        Ok(_) => Json(serde_json::json!({"ok": true})).into_response(),
        Err(e) => error(StatusCode::BAD_REQUEST, e),
    }
}

/// `POST /api/challenge/{id}/decline`: the challenged player declines.
pub(super) async fn decline(
    State(online): State<Arc<Online>>,
    Bearer(player): Bearer,
    Path(id): Path<String>,
) -> Response {
    let decline = |reply| RoomInput::Decline {
        player: player.id,
        reply,
    };
    match ask_room(&online, &id, StatusCode::BAD_REQUEST, decline).await {
        Ok(()) => Json(serde_json::json!({"ok": true})).into_response(),
        Err((status, why)) => error(status, why),
    }
}

/// `GET /api/stream/event`: the bearer's events, as NDJSON.
pub(super) async fn events(State(online): State<Arc<Online>>, Bearer(player): Bearer) -> Response {
    // Listening before the games are listed: a game that starts meanwhile is told twice
    // at worst, never missed.
    let mut heard = online.rooms.listen();
    // What is already waiting, as lishogi's stream starts: the games being played, then
    // the challenges not yet answered (a bot that connects after a challenge was made
    // still hears of it).
    let mut first: Vec<serde_json::Value> = online
        .rooms
        .playing(&player.id)
        .await
        .into_iter()
        .map(|(id, _)| serde_json::json!({"type": "gameStart", "game": {"id": id, "gameId": id}}))
        .collect();
    let me = who(&player.id, &player.name, player.rating.rating.round());
    for (id, listing) in online.rooms.challenges_for(&player.id).await {
        let Some(side) = [gogo_rules::Color::Sente, gogo_rules::Color::Gote]
            .into_iter()
            .find(|c| listing.players[c.index()].is_some())
        else {
            continue;
        };
        let host = listing.players[side.index()].clone().unwrap_or_default();
        let challenger = who(&host, &listing.host, f64::from(listing.rating));
        let settings = &listing.settings;
        let challenge = challenge_json(
            &id,
            challenger,
            me.clone(),
            settings.rated,
            settings.clock,
            side,
        );
        first.push(serde_json::json!({"type": "challenge", "challenge": challenge}));
    }
    let (lines, body) = mpsc::channel::<Result<Bytes, std::convert::Infallible>>(64);
    tokio::spawn(async move {
        for event in first {
            if lines
                .send(Ok(Bytes::from(format!("{event}\n"))))
                .await
                .is_err()
            {
                return;
            }
        }
        let mut keep_alive = tokio::time::interval(KEEP_ALIVE);
        loop {
            let text = tokio::select! {
                event = heard.recv() => match event {
                    Ok((to, event)) if to == player.id => format!("{event}\n"),
                    Ok(_) => continue,
                    // Too far behind: what was missed is lost to this stream, as on lishogi.
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(_) => return,
                },
                _ = keep_alive.tick() => "\n".to_string(),
            };
            if lines.send(Ok(Bytes::from(text))).await.is_err() {
                return;
            }
        }
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
