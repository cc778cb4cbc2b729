//! The store on a thread of its own: SQLite's calls block (each commit waits for the disk),
//! so the server's tasks hand them to this thread and await the answer, and the runtime's
//! workers never wait on the disk.

use gogo_store::{Store, StoreError};
use std::path::Path;
use tokio::sync::oneshot;

type Job = Box<dyn FnOnce(&mut Store) + Send>;

/// A handle on the store's thread; cloned by every task that reads or writes.
#[derive(Clone)]
pub struct StoreHandle {
    jobs: std::sync::mpsc::Sender<Job>,
}

/// The store's thread has ended (it panicked): nothing more can be kept.
#[derive(Debug)]
pub struct StoreGone;

impl std::fmt::Display for StoreGone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the database's thread has stopped")
    }
}

impl StoreHandle {
    /// Opens the database at `path` (`None`: in memory) on a new thread.
    pub fn open(path: Option<&Path>) -> Result<StoreHandle, StoreError> {
        let store = match path {
            Some(path) => Store::open(path)?,
            None => Store::in_memory()?,
        };
        let (jobs, queue) = std::sync::mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("gogo-store".into())
            .spawn(move || {
                let mut store = store;
                for job in queue {
                    job(&mut store);
                }
            })
            .map_err(|e| StoreError::File(Default::default(), format!("no thread: {e}")))?;
        Ok(StoreHandle { jobs })
    }

    /// Runs `work` on the store's thread and gives back what it returns.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Store) -> T + Send + 'static,
    ) -> Result<T, StoreGone> {
        let (tx, rx) = oneshot::channel();
        let job: Job = Box::new(move |store| {
            let _ = tx.send(work(store));
        });
        self.jobs.send(job).map_err(|_| StoreGone)?;
        rx.await.map_err(|_| StoreGone)
    }
}
