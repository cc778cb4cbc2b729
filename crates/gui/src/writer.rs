//! The store on a thread of its own, shared by the local board's games and online play:
//! SQLite's calls block (each commit waits for the disk), so the server's tasks hand them to
//! this thread and await the answer, and the runtime's workers never wait on the disk.
//!
//! Group commit: the thread takes every job waiting (up to [`MAX_BATCH`]) into one
//! transaction, commits it with one sync, and only then answers each job. Under load a
//! thousand moves a second cost a few syncs, not a thousand; alone, a job is its own batch.
//! No answer is given before the commit, so nothing is acknowledged that is not on disk.

use gogo_store::{Store, StoreError};
use std::path::Path;
use tokio::sync::oneshot;

/// The most jobs in one commit.
pub const MAX_BATCH: usize = 512;

/// What a job gives back once it ran: the answer to deliver, told whether the batch it was
/// in was committed (or why not).
type Deliver = Box<dyn FnOnce(Result<(), String>) + Send>;
type Job = Box<dyn FnOnce(&mut Store) -> Deliver + Send>;

/// A handle on the store's thread; cloned by every task that reads or writes.
#[derive(Clone)]
pub struct StoreHandle {
    jobs: std::sync::mpsc::Sender<Job>,
}

impl std::fmt::Debug for StoreHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StoreHandle")
    }
}

/// The store could not do or keep a job: its thread has stopped, or the commit failed.
#[derive(Debug)]
pub struct StoreFailed(pub String);

impl std::fmt::Display for StoreFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the database: {}", self.0)
    }
}

impl StoreHandle {
    /// Opens the database at `path` (a SQLite file, or a `postgres://` URL; `None`: SQLite
    /// in memory) on a new thread.
    pub fn open(path: Option<&Path>) -> Result<StoreHandle, StoreError> {
        let path = path.map(Path::to_path_buf);
        let (jobs, queue) = std::sync::mpsc::channel::<Job>();
        let (opened, outcome) = std::sync::mpsc::channel();
        // Opened on its own thread too: PostgreSQL's client blocks on a runtime of its own,
        // which cannot start inside the server's.
        std::thread::Builder::new()
            .name("gogo-store".into())
            .spawn(move || {
                let store = match &path {
                    Some(path) => Store::open_location(path),
                    None => Store::in_memory(),
                };
                match store {
                    Ok(store) => {
                        let _ = opened.send(Ok(()));
                        write(store, queue);
                    }
                    Err(e) => {
                        let _ = opened.send(Err(e));
                    }
                }
            })
            .map_err(|e| StoreError::File(Default::default(), format!("no thread: {e}")))?;
        outcome.recv().map_err(|_| {
            StoreError::File(Default::default(), "the store's thread ended".into())
        })??;
        Ok(StoreHandle { jobs })
    }

    /// Runs `work` on the store's thread and gives back what it returns, once the batch it
    /// ran in is committed.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Store) -> T + Send + 'static,
    ) -> Result<T, StoreFailed> {
        let (tx, rx) = oneshot::channel();
        let job: Job = Box::new(move |store| {
            let answer = work(store);
            Box::new(move |committed: Result<(), String>| {
                let _ = tx.send(committed.map(|()| answer));
            })
        });
        self.jobs
            .send(job)
            .map_err(|_| StoreFailed("its thread has stopped".into()))?;
        match rx.await {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(why)) => Err(StoreFailed(why)),
            Err(_) => Err(StoreFailed("its thread has stopped".into())),
        }
    }
}

/// The thread: batches of jobs, each committed before its answers go.
fn write(mut store: Store, queue: std::sync::mpsc::Receiver<Job>) {
    while let Ok(first) = queue.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match queue.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        if let Err(e) = store.begin_batch() {
            log::error!("cannot start a batch: {e}");
            for job in batch {
                job(&mut store)(Err(e.to_string()));
            }
            continue;
        }
        let delivers: Vec<Deliver> = batch.into_iter().map(|job| job(&mut store)).collect();
        let committed = store.commit_batch().map_err(|e| {
            log::error!("cannot commit a batch: {e}");
            store.rollback_batch();
            e.to_string()
        });
        for deliver in delivers {
            deliver(committed.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn jobs_answer_after_their_batch_and_one_failing_leaves_the_others() {
        let store = StoreHandle::open(None).unwrap();
        let game = |id: &str| gogo_store::NewGame {
            id: id.into(),
            created_ms: 0,
            rules: gogo_rules::RuleSet::standard(),
            start: gogo_rules::Position::startpos(),
            settings: "{}".into(),
            seats: [0, 1].map(|_| gogo_store::SeatRecord {
                player: None,
                name: "x".into(),
                seat: None,
            }),
        };
        // Many at once, so that they share batches; one of the two "a" fails, alone.
        let mut waits = Vec::new();
        for id in ["a", "b", "a", "c"].repeat(20) {
            let (store, record) = (store.clone(), game(id));
            waits.push(tokio::spawn(async move {
                store.run(move |s| s.create_game(&record).is_ok()).await
            }));
        }
        let mut made = 0;
        for wait in waits {
            made += usize::from(wait.await.unwrap().unwrap());
        }
        assert_eq!(made, 3);
        let kept = store
            .run(|s| ["a", "b", "c"].map(|id| s.game(id).unwrap().is_some()))
            .await
            .unwrap();
        assert_eq!(kept, [true; 3]);
    }
}
