//! The `gogo puzzles generate` and `gogo puzzles check` runs: work shared over threads (one
//! [`Analyst`] each), a progress line on stderr, the figures at the end.

use super::{
    check, generate, rate, read_games, self_play_game, Analyst, CheckFailure, PuzzleConfig,
};
use crate::games::GameFileError;
use gogo_puzzle::{read_puzzles, ParsePuzzleError, Puzzle};
use gogo_table::{TableSizeError, ThreadCountError};
use std::collections::HashSet;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The most a puzzle file may be (the shipped set is a quarter of a MiB).
pub const PUZZLE_FILE: gogo_files::Limit = gogo_files::Limit::new(64 << 20, "a puzzle file");

/// Why a `gogo puzzles` run failed.
#[derive(Debug)]
pub enum PuzzleToolError {
    /// A file could not be opened, read or written, or the output is not a puzzle file and
    /// is left as it is (the error names the file).
    File(gogo_files::FileError),
    /// A line of a puzzle file does not read.
    Puzzles {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// Why.
        error: ParsePuzzleError,
    },
    /// A file of games does not read.
    Games(GameFileError),
    /// More threads than the machine holds.
    Threads(ThreadCountError),
    /// A search's or the mate solver's table could not be had.
    Table(TableSizeError),
    /// Writing the puzzles found failed.
    Write(std::io::Error),
}

impl fmt::Display for PuzzleToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PuzzleToolError::File(e) => e.fmt(f),
            PuzzleToolError::Puzzles { path, line, error } => {
                write!(f, "{} line {line}: {error}", path.display())
            }
            PuzzleToolError::Games(e) => e.fmt(f),
            PuzzleToolError::Threads(e) => e.fmt(f),
            PuzzleToolError::Table(e) => e.fmt(f),
            PuzzleToolError::Write(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PuzzleToolError {}

impl From<gogo_files::FileError> for PuzzleToolError {
    fn from(e: gogo_files::FileError) -> PuzzleToolError {
        PuzzleToolError::File(e)
    }
}

impl From<std::io::Error> for PuzzleToolError {
    fn from(e: std::io::Error) -> PuzzleToolError {
        PuzzleToolError::Write(e)
    }
}

/// The puzzles of `path`, a regular file of at most [`PUZZLE_FILE`].
fn read_puzzle_file(path: &Path) -> Result<Vec<Puzzle>, PuzzleToolError> {
    let text = gogo_files::read_text(path, PUZZLE_FILE)?;
    read_puzzles(&text).map_err(|(line, error)| PuzzleToolError::Puzzles {
        path: path.to_path_buf(),
        line,
        error,
    })
}

/// Runs `work(analyst, i)` for every `i` below `count`, handed out in order to `threads`
/// threads (at most the machine's cores, [`super::analyst::ANALYST_MB`] MiB each; no more
/// than there is work for), each with an [`Analyst`] of its own.
fn for_each_on_threads(
    threads: usize,
    count: usize,
    work: &(dyn Fn(&mut Analyst, usize) + Sync),
) -> Result<(), PuzzleToolError> {
    gogo_table::check_threads(threads, super::analyst::ANALYST_MB)
        .map_err(PuzzleToolError::Threads)?;
    let next = AtomicUsize::new(0);
    let error: Mutex<Option<TableSizeError>> = Mutex::default();
    std::thread::scope(|scope| {
        for _ in 0..threads.min(count).max(1) {
            scope.spawn(|| {
                let mut analyst = match Analyst::with_default_evaluation() {
                    Ok(a) => a,
                    Err(e) => {
                        *error.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                        return;
                    }
                };
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    work(&mut analyst, i);
                }
            });
        }
    });
    match error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(e) => Err(PuzzleToolError::Table(e)),
        None => Ok(()),
    }
}

/// What `gogo puzzles generate` was asked.
#[derive(Clone, Debug)]
pub struct GenerateRun {
    /// Game files; none: self-play.
    pub games: Vec<PathBuf>,
    /// Self-play games to play when no files are given.
    pub self_play: usize,
    /// Seed of the self-play.
    pub seed: u64,
    /// The puzzle file written (appended to, so that runs add up; a puzzle already in it is
    /// not written again).
    pub out: PathBuf,
    /// Threads (one search each).
    pub threads: usize,
    /// How to search.
    pub config: PuzzleConfig,
}

/// What a generation did.
#[derive(Clone, Debug, Default)]
pub struct GenerateTotals {
    /// Games looked through.
    pub games: usize,
    /// Puzzles written.
    pub puzzles: usize,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
}

impl GenerateTotals {
    /// Puzzles an hour.
    pub fn per_hour(&self) -> f64 {
        self.puzzles as f64 * 3600.0 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Either a game read from a file or the index of a self-play game to play.
enum Work {
    Read(Vec<super::SourceGame>),
    SelfPlay(usize),
}

/// Runs `gogo puzzles generate`; `progress` hears of each game done.
pub fn run_generate(
    run: &GenerateRun,
    progress: &(dyn Fn(&GenerateTotals) + Sync),
) -> Result<GenerateTotals, PuzzleToolError> {
    let work = if run.games.is_empty() {
        Work::SelfPlay(run.self_play)
    } else {
        let mut games = Vec::new();
        for path in &run.games {
            games.extend(read_games(path).map_err(PuzzleToolError::Games)?);
        }
        Work::Read(games)
    };
    let total = match &work {
        Work::Read(games) => games.len(),
        Work::SelfPlay(n) => *n,
    };
    // Added to as puzzles are found, so the file there must be a puzzle file (it is read
    // first: one that does not read is refused, never written after).
    let inputs: Vec<&Path> = run.games.iter().map(PathBuf::as_path).collect();
    let output = gogo_files::Output::new(&run.out, &inputs)?;
    let existing = if output.exists() {
        read_puzzle_file(&run.out).map_err(|why| {
            gogo_files::FileError::new(&run.out, gogo_files::Problem::NotOurs(why.to_string()))
        })?
    } else {
        Vec::new()
    };
    let ends_a_line = !output.exists()
        || gogo_files::read(&run.out, PUZZLE_FILE)?
            .last()
            .is_none_or(|&b| b == b'\n');
    let mut out = output.append()?;
    if !ends_a_line {
        writeln!(out)?;
    }
    if existing.is_empty() {
        writeln!(out, "{}", super::FILE_HEADER)?;
    }
    let written: Mutex<(std::fs::File, HashSet<String>)> =
        Mutex::new((out, existing.iter().map(|p| p.id().to_string()).collect()));
    let looked_at: Mutex<HashSet<u64>> = Mutex::default();
    let totals = Mutex::new(GenerateTotals::default());
    let start = Instant::now();
    for_each_on_threads(run.threads, total, &|analyst, i| {
        let game = match &work {
            Work::Read(games) => games[i].clone(),
            Work::SelfPlay(_) => {
                let seed = run.seed.wrapping_mul(1_000_003).wrapping_add(i as u64);
                let name = format!("selfplay-s{}-g{}", run.seed, i + 1);
                self_play_game(analyst, seed, name)
            }
        };
        let before = analyst.nodes;
        let mut found = |puzzle: Puzzle| {
            let mut w = written.lock().unwrap_or_else(|e| e.into_inner());
            if w.1.insert(puzzle.id().to_string()) && writeln!(w.0, "{}", puzzle.to_line()).is_ok()
            {
                totals.lock().unwrap_or_else(|e| e.into_inner()).puzzles += 1;
            }
        };
        let mut first_look = |key| {
            looked_at
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(key)
        };
        generate(analyst, &game, &run.config, &mut first_look, &mut found);
        let mut t = totals.lock().unwrap_or_else(|e| e.into_inner());
        t.games += 1;
        t.nodes += analyst.nodes - before;
        t.elapsed = start.elapsed();
        progress(&t);
    })?;
    let mut totals = totals.into_inner().unwrap_or_else(|e| e.into_inner());
    totals.elapsed = start.elapsed();
    Ok(totals)
}

/// What `gogo puzzles check` was asked.
#[derive(Clone, Debug)]
pub struct CheckRun {
    /// The puzzle file.
    pub file: PathBuf,
    /// Nodes of each check search.
    pub nodes: u64,
    /// Check only every k-th puzzle from the first (a sample for CI); 1: all.
    pub every: usize,
    /// Threads.
    pub threads: usize,
    /// Where to write the puzzles that pass (in the file's order), if anywhere.
    pub passing: Option<PathBuf>,
}

/// What a check found.
#[derive(Clone, Debug, Default)]
pub struct CheckReport {
    /// Puzzles checked.
    pub checked: usize,
    /// Those that failed, by id, with why.
    pub failures: Vec<(String, CheckFailure)>,
    /// Time taken.
    pub elapsed: Duration,
}

/// Runs `gogo puzzles check`; `progress` hears of each puzzle checked.
pub fn run_check(
    run: &CheckRun,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<CheckReport, PuzzleToolError> {
    // The output is checked before hours of searching: never the input itself.
    let passing = run
        .passing
        .as_deref()
        .map(|path| gogo_files::Output::new(path, &[&run.file]))
        .transpose()?;
    let puzzles = read_puzzle_file(&run.file)?;
    let chosen: Vec<&Puzzle> = puzzles.iter().step_by(run.every.max(1)).collect();
    let report = Mutex::new(CheckReport::default());
    let start = Instant::now();
    for_each_on_threads(run.threads, chosen.len(), &|analyst, i| {
        let puzzle = chosen[i];
        let verdict = check(analyst, puzzle, run.nodes);
        let mut r = report.lock().unwrap_or_else(|e| e.into_inner());
        r.checked += 1;
        if let Err(failure) = verdict {
            r.failures.push((puzzle.id().to_string(), failure));
        }
        progress(r.checked, chosen.len());
    })?;
    let mut report = report.into_inner().unwrap_or_else(|e| e.into_inner());
    report.failures.sort();
    report.elapsed = start.elapsed();
    if let Some(output) = &passing {
        let failed: HashSet<&str> = report.failures.iter().map(|(id, _)| id.as_str()).collect();
        let mut text = format!("{}\n", super::FILE_HEADER);
        for puzzle in chosen.iter().filter(|p| !failed.contains(p.id())) {
            text.push_str(&puzzle.to_line());
            text.push('\n');
        }
        output.write(text.as_bytes())?;
    }
    Ok(report)
}

/// What `gogo puzzles rate` was asked.
#[derive(Clone, Debug)]
pub struct RateRun {
    /// The puzzle file.
    pub file: PathBuf,
    /// Where to write the set with its new ratings (in the file's order); never the file
    /// itself, which stays as it was until the new one is looked at and put in its place.
    pub out: PathBuf,
    /// Tries of each level.
    pub tries: u64,
    /// Threads.
    pub threads: usize,
}

/// What a rating run did.
#[derive(Clone, Debug, Default)]
pub struct RateReport {
    /// Puzzles rated.
    pub rated: usize,
    /// How many went from one rating to another: (before, after, puzzles), the unchanged
    /// among them, by rating.
    pub moves: Vec<(u16, u16, usize)>,
    /// Time taken.
    pub elapsed: Duration,
}

impl RateReport {
    /// Puzzles whose rating changed.
    pub fn changed(&self) -> usize {
        self.moves
            .iter()
            .filter(|(before, after, _)| before != after)
            .map(|&(_, _, n)| n)
            .sum()
    }
}

/// Runs `gogo puzzles rate`: every puzzle of the file rated again by gogo's levels as they
/// are now (after a recalibration of the levels the ratings may move), written to `out`;
/// `progress` hears of each puzzle rated.
pub fn run_rate(
    run: &RateRun,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<RateReport, PuzzleToolError> {
    let output = gogo_files::Output::new(&run.out, &[&run.file])?;
    let puzzles = read_puzzle_file(&run.file)?;
    let ratings: Vec<std::sync::atomic::AtomicU16> = puzzles
        .iter()
        .map(|p| std::sync::atomic::AtomicU16::new(p.rating()))
        .collect();
    let done = AtomicUsize::new(0);
    let start = Instant::now();
    for_each_on_threads(run.threads, puzzles.len(), &|analyst, i| {
        ratings[i].store(rate(analyst, &puzzles[i], run.tries), Ordering::Relaxed);
        progress(done.fetch_add(1, Ordering::Relaxed) + 1, puzzles.len());
    })?;
    let mut moves: std::collections::BTreeMap<(u16, u16), usize> = Default::default();
    let mut text = format!("{}\n", super::FILE_HEADER);
    for (puzzle, rating) in puzzles.iter().zip(&ratings) {
        let rating = rating.load(Ordering::Relaxed);
        *moves.entry((puzzle.rating(), rating)).or_default() += 1;
        text.push_str(&puzzle.clone().with_rating(rating).to_line());
        text.push('\n');
    }
    output.write(text.as_bytes())?;
    Ok(RateReport {
        rated: puzzles.len(),
        moves: moves.into_iter().map(|((b, a), n)| (b, a, n)).collect(),
        elapsed: start.elapsed(),
    })
}
