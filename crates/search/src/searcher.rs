//! [`Searcher`]: the one owner of what a search needs, as Stockfish's thread pool is: the
//! transposition table, each thread's [`ThreadData`], the Lazy SMP helper threads and the
//! thread the engine's jobs run on, all kept for the Searcher's life. The engine, data
//! generation, the bench and the tests search through it.

use crate::control::SearchControl;
use crate::job::SearchJob;
use crate::pool::{Done, HelperPool, JobThread};
use crate::report::{SearchInfo, SearchResult};
use crate::thread_data::ThreadData;
use crate::tt::{TableSizeError, TranspositionTable};
use std::sync::{Arc, Mutex};

/// What a search uses, shared with the jobs that run on the Searcher's thread.
#[derive(Clone)]
pub struct SearchContext {
    tt: Arc<TranspositionTable>,
    threads: Arc<Mutex<Vec<ThreadData>>>,
    helpers: Arc<HelperPool>,
}

impl SearchContext {
    /// Searches `job` on the calling thread (the main thread) and the helpers, until its
    /// limits or `control` end it; `report` receives the main thread's `info` lines.
    pub fn search(
        &self,
        job: &SearchJob,
        control: &SearchControl,
        report: &dyn Fn(SearchInfo),
    ) -> SearchResult {
        let mut threads = self.threads.lock().unwrap_or_else(|e| e.into_inner());
        // A strength level limits the search and then chooses among its lines.
        let mut level = crate::skill::LevelSearch::of(job);
        let limited = level.as_mut().map(|l| l.limit(job));
        let mut result = crate::thread::search(
            limited.as_ref().unwrap_or(job),
            &self.tt,
            control,
            &mut threads,
            &self.helpers,
            report,
        );
        if let Some(level) = level.as_mut() {
            level.choose(&mut result);
        }
        result
    }

    /// The transposition table.
    pub fn table(&self) -> &TranspositionTable {
        &self.tt
    }

    /// Helper threads started so far (a search starts none once there are enough).
    pub fn helper_threads(&self) -> usize {
        self.helpers.len()
    }
}

/// The owner of the search's table, thread data and threads.
pub struct Searcher {
    context: SearchContext,
    /// The thread the engine's jobs run on, started at the first job.
    jobs: Option<JobThread>,
}

impl Searcher {
    /// A searcher with a table of `hash_mb` MiB and the data of one thread.
    pub fn new(hash_mb: usize) -> Result<Searcher, TableSizeError> {
        Ok(Searcher {
            context: SearchContext {
                tt: Arc::new(TranspositionTable::new(hash_mb)?),
                threads: Arc::new(Mutex::new(vec![ThreadData::new(0)])),
                helpers: Arc::default(),
            },
            jobs: None,
        })
    }

    /// What searches use: [`SearchContext::search`] searches on the calling thread.
    pub fn context(&self) -> &SearchContext {
        &self.context
    }

    /// Runs `job` on the Searcher's own thread (started at the first job, with a stack
    /// deep enough for the search and the mate solver), after the jobs queued before it.
    pub fn run(
        &mut self,
        job: impl FnOnce(&SearchContext) + Send + 'static,
    ) -> std::io::Result<Done> {
        if self.jobs.is_none() {
            self.jobs = Some(JobThread::new("search")?);
        }
        let context = self.context.clone();
        let thread = self.jobs.as_ref().expect("started above");
        match thread.run(move || job(&context)) {
            Some(done) => Ok(done),
            None => {
                self.jobs = None;
                Err(std::io::Error::other("the search thread is gone"))
            }
        }
    }

    /// A table of `hash_mb` MiB instead (only between searches); the old one is kept when
    /// that size cannot be had.
    ///
    /// The two are never held at once: the size is checked against the memory available
    /// once the old table is let go of, and only then is the old one dropped and the new one
    /// made (should that still fail, a table of the old size is made again).
    pub fn resize_table(&mut self, hash_mb: usize) -> Result<(), TableSizeError> {
        let old = &self.context.tt;
        TranspositionTable::shape(hash_mb).buckets(old.size_bytes())?;
        let old_mb = old.size_bytes() >> 20;
        self.context.tt = Arc::new(TranspositionTable::new(0)?);
        match TranspositionTable::new(hash_mb) {
            Ok(table) => {
                self.context.tt = Arc::new(table);
                Ok(())
            }
            Err(e) => {
                self.context.tt = Arc::new(TranspositionTable::new(old_mb)?);
                Err(e)
            }
        }
    }

    /// One search of `pos` alone (no game before it, so no repetition with what came
    /// before), to `limits` with `options`, not stopped from outside: what the offline tools
    /// (puzzles, the book builder) ask of a position.
    pub fn search_position(
        &self,
        pos: &gogo_rules::Position,
        limits: crate::SearchLimits,
        options: crate::SearchOptions,
    ) -> SearchResult {
        let job = SearchJob {
            root: pos.clone(),
            history: crate::GameHistory::from_positions(std::slice::from_ref(pos)),
            limits,
            options,
        };
        self.context
            .search(&job, &SearchControl::new(false), &|_| {})
    }

    /// A new game: the table and every thread's histories are emptied.
    pub fn new_game(&self) {
        self.context.tt.clear();
        for td in self
            .context
            .threads
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter_mut()
        {
            td.clear();
        }
    }
}
