//! The HTTP API of online play, in the shape of lishogi's: players and their keys, rooms made
//! and joined, the lobby, a player's games and a game's record.

use super::*;

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
pub(super) struct NewPlayer {
    name: String,
}

/// `POST /api/token`: a new player; their key is shown this once.
pub(super) async fn new_player(
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
        bot: false,
    };
    let (hash, record) = (key.hash(), player.clone());
    let created = online
        .rooms
        .store()
        .run(move |store| store.create_player(&record, hash, gogo_store::now_ms()))
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
/// The player whose key a request bears (`Authorization: Bearer KEY`), as an extractor: a
/// request without a known key is answered 401 before the handler runs.
pub(super) struct Bearer(pub(super) PlayerRecord);

impl axum::extract::FromRequestParts<Arc<Online>> for Bearer {
    type Rejection = Response;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        online: &Arc<Online>,
    ) -> Result<Bearer, Response> {
        let key = parts
            .headers
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
            Ok(Ok(Some(player))) => Ok(Bearer(player)),
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
}

pub(super) fn player_json(player: &PlayerRecord) -> serde_json::Value {
    let r = player.rating;
    let provisional = r.deviation > gogo_puzzle::glicko::PROVISIONAL_DEVIATION;
    serde_json::json!({
        "id": player.id,
        "name": player.name,
        "rating": r.rating.round(),
        "provisional": provisional,
        "games": player.games,
        // lishogi's names for the same, which its clients read.
        "username": player.name,
        "title": player.bot.then_some("BOT"),
        "perfs": {"minishogi": {
            "games": player.games,
            "rating": r.rating.round(),
            "rd": r.deviation.round(),
            "prov": provisional,
        }},
    })
}

/// `POST /api/bot/account/upgrade`: the bearer declares itself a program (lishogi's BOT
/// title, which Lishogi-Bot asks for before it plays); only a player with no rated game.
pub(super) async fn upgrade_to_bot(
    State(online): State<Arc<Online>>,
    Bearer(player): Bearer,
) -> Response {
    let id = player.id.clone();
    match online.rooms.store().run(move |s| s.make_bot(&id)).await {
        Ok(Ok(true)) => Json(serde_json::json!({"ok": true})).into_response(),
        Ok(Ok(false)) => error(
            StatusCode::BAD_REQUEST,
            "a player who has played rated games cannot become a bot",
        ),
        _ => error(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server cannot change players now",
        ),
    }
}

/// `GET /api/user/{id}`: a player's public page: name, rating, rated games.
pub(super) async fn user(State(online): State<Arc<Online>>, Path(id): Path<String>) -> Response {
    if id.len() > 32 {
        return error(StatusCode::NOT_FOUND, "no such player");
    }
    match online.rooms.store().run(move |s| s.player(&id)).await {
        Ok(Ok(Some(player))) => Json(player_json(&player)).into_response(),
        Ok(Ok(None)) => error(StatusCode::NOT_FOUND, "no such player"),
        _ => error(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server cannot read players now",
        ),
    }
}

/// `GET /api/account`: the bearer's player.
pub(super) async fn account(Bearer(player): Bearer) -> Response {
    Json(player_json(&player)).into_response()
}

/// `GET /api/games/user/{id}`: a player's games, newest first.
pub(super) async fn games_of(
    State(online): State<Arc<Online>>,
    Path(id): Path<String>,
) -> Response {
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
pub(super) async fn game_record(
    State(online): State<Arc<Online>>,
    Path(id): Path<String>,
) -> Response {
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
        // Every position, the start first: the page steps through them in review.
        "positions": record.positions().iter().map(|p| p.to_sfen()).collect::<Vec<_>>(),
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
pub(super) async fn create_room(
    State(online): State<Arc<Online>>,
    Bearer(player): Bearer,
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
pub(super) async fn join_room(
    State(online): State<Arc<Online>>,
    Bearer(player): Bearer,
    Path(id): Path<String>,
) -> Response {
    match online.rooms.join(&id, player).await {
        Ok((side, seat)) => Json(serde_json::json!({
            "id": id, "seat": seat.expose(), "side": crate::messages::Side::from(side),
        }))
        .into_response(),
        Err(e) => error(StatusCode::CONFLICT, e),
    }
}

/// `GET /online/lobby`: the rooms waiting and how many games are being played.
pub(super) async fn lobby(State(online): State<Arc<Online>>) -> Response {
    Json(online.rooms.lobby()).into_response()
}
