//! The sockets of online play: the lobby as it changes, and a page's socket to its room (a
//! thin pump: requests in, parsed and limited in number; updates out; pings for the lag).

use super::*;

/// `GET /online/lobby/ws`: the lobby as it changes (at most twice a second), for as long
/// as the page stays.
pub(super) async fn lobby_socket(
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
pub(super) struct RoomQuery {
    game: String,
    seat: Option<String>,
    epoch: Option<u64>,
    after: Option<u64>,
}

/// `GET /online/ws`: a page's socket to a room, as a seat's holder or a spectator.
pub(super) async fn room_socket(
    upgrade: WebSocketUpgrade,
    State(online): State<Arc<Online>>,
    peer: Option<axum::Extension<guard::PeerAddress>>,
    headers: HeaderMap,
    Query(query): Query<RoomQuery>,
) -> Response {
    if let Some(answer) = online.over_limit(&online.sockets, peer.map(|p| p.0), &headers) {
        return answer;
    }
    let Some(inputs) = online.rooms.reach(&query.game).await else {
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
pub(super) async fn send(socket: &mut WebSocket, update: &RoomUpdate) -> bool {
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
pub(super) async fn room_pump(
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
        who: seat.map_or(room::Who::Spectator, room::Who::Seat),
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
