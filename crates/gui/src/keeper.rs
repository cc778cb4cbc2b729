//! The local board's games kept in the store: after each change the board's task writes
//! what changed (a new game, moves, a takeback, the ending) before the page is told, and a
//! board is found again by its key after the server restarts. The page claims nothing: the
//! ending it shows is the one the server judged and kept.

use crate::session::{KeptGame, KeptMark, Session};
use crate::writer::StoreHandle;
use gogo_store::{public_id, GameResult, NewGame, SeatRecord, SecretHash, StoredGame, StoredMove};

/// What is already written of the board's current game.
#[derive(Clone, Debug)]
struct Written {
    generation: u64,
    id: String,
    plies: usize,
    ended: bool,
}

/// Writes one board's games.
pub(crate) struct Keeper {
    store: StoreHandle,
    /// The hash of the board's key: its games' Sente seat, by which they are found again.
    seat: SecretHash,
    written: Option<Written>,
    /// The session's mark at the last write: an unchanged mark is nothing to write.
    mark: Option<KeptMark>,
}

impl Keeper {
    /// A keeper for a new board whose key hashes to `seat`.
    pub(crate) fn new(store: StoreHandle, seat: SecretHash) -> Keeper {
        Keeper {
            store,
            seat,
            written: None,
            mark: None,
        }
    }

    /// A keeper for a board taken up again from `stored`, now game `generation` of its
    /// session.
    pub(crate) fn resumed(
        store: StoreHandle,
        seat: SecretHash,
        generation: u64,
        stored: &StoredGame,
    ) -> Keeper {
        Keeper {
            store,
            seat,
            written: Some(Written {
                generation,
                id: stored.id.clone(),
                plies: stored.moves.len(),
                ended: stored.result.is_some(),
            }),
            mark: None,
        }
    }

    /// Writes what changed in `session` since the last call; when this returns `Ok`, it is
    /// on disk. The game is copied only when its mark says it changed (analysis lines,
    /// hints and reviews change nothing kept).
    pub(crate) async fn write_from(&mut self, session: &Session) -> Result<(), String> {
        let mark = session.kept_mark();
        if self.mark == Some(mark) {
            return Ok(());
        }
        self.write(session.kept()).await?;
        self.mark = Some(mark);
        Ok(())
    }

    /// Writes what changed since the last call; when this returns `Ok`, it is on disk.
    async fn write(&mut self, now: Option<KeptGame>) -> Result<(), String> {
        let Some(now) = now else {
            return Ok(());
        };
        let plies = now.game.moves().len();
        let ended = now.ending.is_some();
        // The same game goes on (or was taken back), unless it ended and came back to life
        // (a takeback after mate): that is a game of its own.
        let same = self.written.as_ref().filter(|w| {
            w.generation == now.generation && !(w.ended && (!ended || plies != w.plies))
        });
        if same.is_some_and(|w| w.plies == plies && w.ended == ended) {
            return Ok(());
        }
        let (id, from, fresh) = match same {
            Some(w) => (w.id.clone(), w.plies.min(plies), false),
            None => (public_id(8), 0, true),
        };
        let taken_back = same.is_some_and(|w| w.plies > plies);
        let generation = now.generation;
        let seat = self.seat;
        let job_id = id.clone();
        let written = self
            .store
            .run(move |store| -> Result<(), gogo_store::StoreError> {
                if fresh {
                    let settings = serde_json::to_string(&now.settings).map_err(|e| {
                        gogo_store::StoreError::Corrupt {
                            game: job_id.clone(),
                            why: e.to_string(),
                        }
                    })?;
                    store.create_game(&NewGame {
                        id: job_id.clone(),
                        created_ms: gogo_store::now_ms(),
                        rules: *now.game.rules(),
                        start: now.game.start().clone(),
                        settings,
                        seats: [
                            SeatRecord {
                                player: None,
                                name: short(&now.names[0]),
                                seat: Some(seat),
                            },
                            SeatRecord {
                                player: None,
                                name: short(&now.names[1]),
                                seat: None,
                            },
                        ],
                    })?;
                }
                if taken_back {
                    store.take_back(&job_id, plies)?;
                }
                let at_ms = gogo_store::now_ms();
                let clocks_ms = now.clocks.map(|d| d.as_millis() as u64);
                for (ply, mv) in now.game.moves().iter().enumerate().skip(from) {
                    let stored = StoredMove {
                        mv: *mv,
                        clocks_ms,
                        at_ms,
                    };
                    store.add_move(&job_id, ply, &stored)?;
                }
                if let Some(ending) = &now.ending {
                    let result = GameResult {
                        winner: ending.has_result().then(|| ending.winner()).flatten(),
                        reason: ending.reason().chars().take(150).collect(),
                        ended_ms: at_ms,
                    };
                    store.finish(&job_id, &result)?;
                }
                Ok(())
            })
            .await;
        match written {
            Ok(Ok(())) => {
                self.written = Some(Written {
                    generation,
                    id,
                    plies,
                    ended,
                });
                Ok(())
            }
            Ok(Err(e)) => Err(e.to_string()),
            Err(e) => Err(e.to_string()),
        }
    }
}

fn short(name: &str) -> String {
    name.chars().take(gogo_store::MAX_NAME_CHARS).collect()
}
