//! The thread the engine's searches run on, one job at a time, kept for the engine's life.
//!
//! Starting a thread for every `go` cost about 0.1 ms (creating it, and a cold stack and
//! allocator arena the first time each is touched): as long as solving a median mate problem
//! takes. Jobs that panic end their own run, not the thread.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::thread::JoinHandle;

/// The stack of the search thread: searches and the mate solver recurse.
const STACK_BYTES: usize = 64 << 20;

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
}
