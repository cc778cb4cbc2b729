//! The search's threads, started once and kept: a [`JobThread`] runs jobs one at a time (the
//! engine's searches, mate searches and perft), and a [`HelperPool`] holds the Lazy SMP
//! helpers, which borrow the search's data for the length of one search
//! ([`HelperPool::scoped`]).
//!
//! Starting a thread for every `go` cost about 0.1 ms (creating it, and a cold stack and
//! allocator arena the first time each is touched): as long as solving a median mate problem
//! takes. Jobs that panic end their own run, not the thread.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Mutex;
use std::thread::JoinHandle;

/// The stack of a search thread: searches and the mate solver recurse.
pub const STACK_BYTES: usize = 64 << 20;

type Job = Box<dyn FnOnce() + Send>;

/// A thread running jobs in the order given.
pub struct JobThread {
    jobs: Option<Sender<(Job, Sender<()>)>>,
    thread: Option<JoinHandle<()>>,
}

/// A job's end: [`Done::wait`] returns once the job has run (or panicked).
pub struct Done(Receiver<()>);

impl Done {
    /// Waits for the job to end.
    pub fn wait(self) {
        // The job's sender is dropped when it ends, however it ends.
        let _ = self.0.recv();
    }
}

impl JobThread {
    /// Starts the thread.
    pub fn new(name: &str) -> std::io::Result<JobThread> {
        let (jobs, queue) = channel::<(Job, Sender<()>)>();
        let thread = std::thread::Builder::new()
            .name(name.into())
            .stack_size(STACK_BYTES)
            .spawn(move || {
                for (job, done) in queue {
                    let _ = catch_unwind(AssertUnwindSafe(job));
                    drop(done);
                }
            })?;
        Ok(JobThread {
            jobs: Some(jobs),
            thread: Some(thread),
        })
    }

    /// Queues `job`; `None` if the thread is gone.
    pub fn run(&self, job: impl FnOnce() + Send + 'static) -> Option<Done> {
        let (done, finished) = channel();
        self.jobs.as_ref()?.send((Box::new(job), done)).ok()?;
        Some(Done(finished))
    }
}

impl Drop for JobThread {
    fn drop(&mut self) {
        // Closing the queue ends the thread once its jobs are done.
        self.jobs.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The Lazy SMP helper threads: as many as the largest search asked for, kept between
/// searches, so that a search starts no thread.
#[derive(Default)]
pub struct HelperPool {
    threads: Mutex<Vec<JobThread>>,
}

/// Waits for every job it holds when dropped, however the holder leaves (return or unwind).
struct WaitAll(Vec<Done>);

impl Drop for WaitAll {
    fn drop(&mut self) {
        for done in self.0.drain(..) {
            done.wait();
        }
    }
}

impl HelperPool {
    /// Threads started so far.
    pub fn len(&self) -> usize {
        self.threads.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Whether no thread has been started.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Runs each of `helpers` on a thread of the pool (started if there are not yet enough)
    /// and `main` on the calling thread, and returns once all have finished: `main`'s
    /// result, and each helper's (`None` for one that panicked or found no thread). The
    /// helpers may borrow from the caller, as with [`std::thread::scope`].
    pub fn scoped<'a, T: Send + 'a, R>(
        &self,
        helpers: Vec<Box<dyn FnOnce() -> T + Send + 'a>>,
        main: impl FnOnce() -> R,
    ) -> (R, Vec<Option<T>>) {
        let count = helpers.len();
        let mut threads = self.threads.lock().unwrap_or_else(|e| e.into_inner());
        while threads.len() < count {
            match JobThread::new(&format!("helper {}", threads.len() + 1)) {
                Ok(t) => threads.push(t),
                Err(e) => {
                    log::warn!("cannot start a search helper thread: {e}");
                    break;
                }
            }
        }
        let (results, received) = channel::<(usize, T)>();
        let mut dones = Vec::with_capacity(count);
        for (i, (helper, thread)) in helpers.into_iter().zip(threads.iter()).enumerate() {
            let results = results.clone();
            let job: Box<dyn FnOnce() + Send + 'a> = Box::new(move || {
                let _ = results.send((i, helper()));
            });
            // SAFETY: `job` may borrow data that lives for 'a only. It is queued on a thread
            // of this pool, which `self` keeps alive, and its `Done` goes into `wait_all`,
            // which waits, before this function returns or unwinds past it, until the job
            // has run (or panicked, or been dropped unrun): the job's `done` sender is
            // dropped only after it. So no borrow is used after 'a ends.
            #[allow(unsafe_code)]
            let job: Box<dyn FnOnce() + Send + 'static> = unsafe { std::mem::transmute(job) };
            dones.extend(thread.run(job));
        }
        drop(results);
        let wait_all = WaitAll(dones);
        let answer = main();
        drop(wait_all);
        let mut out: Vec<Option<T>> = (0..count).map(|_| None).collect();
        for (i, t) in received.try_iter() {
            out[i] = Some(t);
        }
        (answer, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    #[test]
    fn jobs_run_in_order_on_one_thread_and_a_panic_ends_only_its_job() {
        let thread = JobThread::new("test").unwrap();
        let log = Arc::new(std::sync::Mutex::new(Vec::new()));
        let ids = Arc::new(std::sync::Mutex::new(Vec::new()));
        let mut dones = Vec::new();
        for i in 0..5 {
            let log = Arc::clone(&log);
            let ids = Arc::clone(&ids);
            dones.push(
                thread
                    .run(move || {
                        ids.lock().unwrap().push(std::thread::current().id());
                        if i == 2 {
                            panic!("job 2 fails");
                        }
                        log.lock().unwrap().push(i);
                    })
                    .unwrap(),
            );
        }
        for done in dones {
            done.wait();
        }
        assert_eq!(*log.lock().unwrap(), vec![0, 1, 3, 4]);
        let ids = ids.lock().unwrap();
        assert_eq!(ids.len(), 5);
        assert!(ids.iter().all(|&id| id == ids[0]));
        assert_ne!(ids[0], std::thread::current().id());
        // Dropping the thread waits for what is queued.
        let count = Arc::new(AtomicUsize::new(0));
        let thread = JobThread::new("test").unwrap();
        for _ in 0..3 {
            let count = Arc::clone(&count);
            thread.run(move || {
                std::thread::sleep(std::time::Duration::from_millis(5));
                count.fetch_add(1, Ordering::SeqCst);
            });
        }
        drop(thread);
        assert_eq!(count.load(Ordering::SeqCst), 3);
    }

    #[test]
    fn helpers_borrow_run_on_kept_threads_and_a_panic_is_a_missing_result() {
        let pool = HelperPool::default();
        let data = vec![1, 2, 3];
        let seen = std::sync::Mutex::new(Vec::new());
        for round in 0..3 {
            let helpers: Vec<Box<dyn FnOnce() -> (usize, std::thread::ThreadId) + Send + '_>> = (0
                ..2)
                .map(|i| {
                    let data = &data;
                    Box::new(move || (data[i] * 10, std::thread::current().id())) as Box<_>
                })
                .collect();
            let (main, done) = pool.scoped(helpers, || data.iter().sum::<usize>());
            assert_eq!(main, 6);
            let values: Vec<usize> = done.iter().map(|d| d.unwrap().0).collect();
            assert_eq!(values, [10, 20], "round {round}");
            seen.lock()
                .unwrap()
                .extend(done.iter().map(|d| d.unwrap().1));
        }
        // Two threads, started once, for three rounds.
        assert_eq!(pool.len(), 2);
        let mut ids = seen.into_inner().unwrap();
        ids.sort_by_key(|id| format!("{id:?}"));
        ids.dedup();
        assert_eq!(ids.len(), 2);
        let failing: Vec<Box<dyn FnOnce() -> u8 + Send>> =
            vec![Box::new(|| 1), Box::new(|| panic!("a helper fails"))];
        let ((), done) = pool.scoped(failing, || ());
        assert_eq!(done, [Some(1), None]);
    }
}
