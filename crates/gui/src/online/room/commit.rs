//! A room's changes stored before anyone is told, and the ratings after a rated game.

use super::*;

impl Room {
    /// Stores what `events` did to `next`; then `next` is the referee. On failure nothing
    /// changes (and nothing was told).
    pub(super) async fn commit(&mut self, next: Referee, events: Vec<Event>) -> Result<(), String> {
        if events.is_empty() {
            return Ok(());
        }
        let id = self.id.clone();
        let at_ms = gogo_store::now_ms();
        let moves = next.game().moves().to_vec();
        let clocks = next.clocks_after().to_vec();
        let kinds: Vec<EventKind> = events.iter().map(|e| e.kind.clone()).collect();
        let rated = self.settings.rated;
        let players = self.seats.clone().map(|s| s.map(|s| s.player.id));
        let written = self
            .store
            .run(
                move |store| -> Result<Option<[PlayerRecord; 2]>, StoreError> {
                    let mut ratings = None;
                    for kind in &kinds {
                        match kind {
                            EventKind::Moved { ply, .. } => {
                                let mv = StoredMove {
                                    mv: moves[*ply],
                                    clocks_ms: clocks[*ply + 1].map(|d| d.as_millis() as u64),
                                    at_ms,
                                };
                                store.add_move(&id, *ply, &mv)?;
                            }
                            EventKind::TookBack { plies, .. } => store.take_back(&id, *plies)?,
                            EventKind::Ended(ending) => {
                                let result = GameResult {
                                    winner: ending.has_result().then(|| ending.winner()).flatten(),
                                    reason: ending.reason(),
                                    ended_ms: at_ms,
                                };
                                store.finish(&id, &result)?;
                                if let (true, true, [Some(s), Some(g)]) =
                                    (rated, ending.has_result(), &players)
                                {
                                    ratings = rate(store, [s, g], ending.winner())?;
                                }
                            }
                            _ => {}
                        }
                    }
                    Ok(ratings)
                },
            )
            .await;
        match written {
            Ok(Ok(ratings)) => {
                if let Some(players) = ratings {
                    for (seat, player) in self.seats.iter_mut().zip(players) {
                        if let Some(seat) = seat {
                            seat.player = player;
                        }
                    }
                }
                self.referee = Some(next);
                self.broadcast_events(&events);
                Ok(())
            }
            Ok(Err(e)) => {
                log::error!("game {}: cannot store a change: {e}", self.id);
                Err("the server could not keep that: try again".into())
            }
            Err(e) => {
                log::error!("game {}: {e}", self.id);
                Err("the server could not keep that: try again".into())
            }
        }
    }
}

/// Rates both players of a finished rated game (`winner`: `None` for a draw); their
/// records as they now are.
fn rate(
    store: &mut gogo_store::Store,
    players: [&String; 2],
    winner: Option<Color>,
) -> Result<Option<[PlayerRecord; 2]>, StoreError> {
    let (Some(sente), Some(gote)) = (store.player(players[0])?, store.player(players[1])?) else {
        return Ok(None);
    };
    let score = |side: Color| match winner {
        None => 0.5,
        Some(w) if w == side => 1.0,
        Some(_) => 0.0,
    };
    let (rs, rg) = (rating_of(&sente), rating_of(&gote));
    let next = [
        rs.after_game(rg, score(Color::Sente)),
        rg.after_game(rs, score(Color::Gote)),
    ];
    store.set_rating(&sente.id, stored(next[0]))?;
    store.set_rating(&gote.id, stored(next[1]))?;
    Ok(Some([
        store.player(&sente.id)?.unwrap_or(sente),
        store.player(&gote.id)?.unwrap_or(gote),
    ]))
}
