//! A board that outlives its page: each board (a game, its engine, its review, its puzzle)
//! is owned by one task, and a page's WebSocket is only a pump that attaches to it. A
//! reload or a dropped connection attaches the page again to the same board, clock and all,
//! by the board's key, which the page keeps for its tab; the board waits for it as long as
//! a page may be silent ([`crate::Limits::idle_timeout`]), then ends and its engine with it.
//! Boards waiting for their page give their places to new pages when the server is full.

use crate::keeper::Keeper;
use crate::messages::{Request, Update};
use crate::session::Session;
use gogo_store::{Secret, SecretHash};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// Requests and attachments waiting for a board's task.
const BOARD_INPUTS: usize = 64;
/// Batches of updates waiting for a page's pump: a page further behind is dropped (it
/// reattaches and gets the whole state).
pub(crate) const PAGE_UPDATES: usize = 256;

/// What a page's pump tells a board.
pub(crate) enum BoardInput {
    /// Page `page` is here: its updates go to `updates` (a page attached before is let go).
    Attach {
        /// The pump's number.
        page: u64,
        /// Where its updates go.
        updates: mpsc::Sender<Vec<Update>>,
    },
    /// A request of page `page`, as it came.
    Request {
        /// The pump's number.
        page: u64,
        /// The request's text.
        text: String,
    },
    /// Page `page` went away.
    Detach {
        /// The pump's number.
        page: u64,
    },
}

struct Entry {
    inputs: mpsc::Sender<BoardInput>,
    /// Which board this is (a key is never reused; this makes sure).
    serial: u64,
    /// Since when the board has had no page (`None`: a page is attached).
    alone_since: Option<Instant>,
}

/// The boards being served, by the hash of their key.
#[derive(Default)]
pub(crate) struct Boards {
    entries: Mutex<HashMap<SecretHash, Entry>>,
    serials: std::sync::atomic::AtomicU64,
}

impl Boards {
    /// The inputs of the board whose key is `key`, if it is served.
    pub(crate) fn find(&self, key: &str) -> Option<(SecretHash, mpsc::Sender<BoardInput>)> {
        let hash = Secret::parse(key)?.hash();
        let entries = self.entries.lock().expect("boards lock");
        entries.get(&hash).map(|e| (hash, e.inputs.clone()))
    }

    /// Lets the board that has waited longest for its page go, to make room; whether one
    /// did. Its task ends once no pump holds its inputs.
    pub(crate) fn evict_oldest_alone(&self) -> bool {
        let mut entries = self.entries.lock().expect("boards lock");
        let oldest = entries
            .iter()
            .filter_map(|(k, e)| e.alone_since.map(|since| (since, *k)))
            .min();
        match oldest {
            Some((_, key)) => {
                entries.remove(&key);
                log::info!("a board that waited for its page gave its place to a new page");
                true
            }
            None => false,
        }
    }

    fn set_alone(&self, key: &SecretHash, alone_since: Option<Instant>) {
        if let Some(entry) = self.entries.lock().expect("boards lock").get_mut(key) {
            entry.alone_since = alone_since;
        }
    }

    fn remove(&self, key: &SecretHash, serial: u64) {
        let mut entries = self.entries.lock().expect("boards lock");
        if entries.get(key).is_some_and(|e| e.serial == serial) {
            entries.remove(key);
        }
    }
}

/// A new board for `session`, served by its own task until it has been alone for
/// `wait_alone`; its key (for the page) and its inputs. `engine_events` are its engine's,
/// `place` is held for as long as it lives.
pub(crate) fn open<P: Send + 'static>(
    boards: &Arc<Boards>,
    session: Session,
    engine_events: mpsc::Receiver<crate::engine::EngineEvent>,
    wait_alone: Duration,
    place: P,
    key: Secret,
    keeper: Option<Keeper>,
) -> (Secret, mpsc::Sender<BoardInput>) {
    let hash = key.hash();
    let (inputs_tx, inputs) = mpsc::channel(BOARD_INPUTS);
    let serial = boards
        .serials
        .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    boards.entries.lock().expect("boards lock").insert(
        hash,
        Entry {
            inputs: inputs_tx.clone(),
            serial,
            alone_since: Some(Instant::now()),
        },
    );
    let boards = Arc::clone(boards);
    // The task holds no sender of its own inputs: it ends when the registry and every pump
    // have let it go.
    tokio::spawn(async move {
        let _place = place;
        run(
            session,
            engine_events,
            inputs,
            &boards,
            hash,
            wait_alone,
            keeper,
        )
        .await;
        boards.remove(&hash, serial);
    });
    (key, inputs_tx)
}

/// The page attached to a board.
struct Attached {
    page: u64,
    updates: mpsc::Sender<Vec<Update>>,
}

/// The board's task: requests, the engine's events and the clock, one at a time.
async fn run(
    mut session: Session,
    mut engine_events: mpsc::Receiver<crate::engine::EngineEvent>,
    mut inputs: mpsc::Receiver<BoardInput>,
    boards: &Boards,
    key: SecretHash,
    wait_alone: Duration,
    mut keeper: Option<Keeper>,
) {
    let mut attached: Option<Attached> = None;
    let mut alone_since = Some(Instant::now());
    let mut clock = tokio::time::interval(Duration::from_millis(100));
    loop {
        let updates = tokio::select! {
            input = inputs.recv() => match input {
                // Every pump and the registry let go: no page can come back.
                None => break,
                Some(BoardInput::Attach { page, updates }) => {
                    // The whole state: the page may have missed anything.
                    let _ = updates.try_send(vec![Update::State(Box::new(session.view()))]);
                    attached = Some(Attached { page, updates });
                    alone_since = None;
                    boards.set_alone(&key, None);
                    Vec::new()
                }
                Some(BoardInput::Detach { page }) => {
                    if attached.as_ref().is_some_and(|a| a.page == page) {
                        attached = None;
                        alone_since = Some(Instant::now());
                        boards.set_alone(&key, alone_since);
                    }
                    Vec::new()
                }
                Some(BoardInput::Request { page, text }) => {
                    // A page let go (another took the board) asks nothing of it.
                    if attached.as_ref().is_none_or(|a| a.page != page) {
                        continue;
                    }
                    match handle_off_the_runtime(session, text).await {
                        Some((back, updates)) => {
                            session = back;
                            updates
                        }
                        None => break,
                    }
                }
            },
            Some(event) = engine_events.recv() => session.engine_event(event),
            _ = clock.tick() => {
                if alone_since.is_some_and(|since| since.elapsed() > wait_alone) {
                    log::info!("a board waited {wait_alone:?} for its page: it ends");
                    break;
                }
                session.tick()
            }
        };
        if updates.is_empty() {
            continue;
        }
        // Stored before the page is told.
        let mut updates = updates;
        if let Some(keeper) = &mut keeper {
            if let Err(e) = keeper.write_from(&session).await {
                log::error!("a board's game could not be stored: {e}");
                updates.push(Update::error(
                    "the server could not keep this game in its database: what follows may be lost",
                ));
            }
        }
        if let Some(page) = &attached {
            if page.updates.try_send(updates).is_err() {
                // Gone, or too far behind: it gets the whole state when it comes back.
                attached = None;
                alone_since = Some(Instant::now());
                boards.set_alone(&key, alone_since);
            }
        }
    }
}

/// Reads and carries out one request of a page on the runtime's blocking threads: loading
/// or replaying the longest game, or starting a review, must not hold up the worker threads
/// that serve every other page. `None` if the work panicked (the board is then lost).
async fn handle_off_the_runtime(
    mut session: Session,
    text: String,
) -> Option<(Session, Vec<Update>)> {
    let work = tokio::task::spawn_blocking(move || {
        let updates = match serde_json::from_str::<Request>(&text) {
            Ok(request) => session.handle(request),
            Err(e) => vec![Update::error(format!("bad request: {e}"))],
        };
        (session, updates)
    });
    match work.await {
        Ok(done) => Some(done),
        Err(e) => {
            log::error!("a page's request failed: {e}");
            None
        }
    }
}
