//! The USI engine: reads commands, keeps the position and the options, runs searches in the
//! background so that `stop` and `ponderhit` are answered at once.
//!
//! Every bad line (unknown command, bad option value, malformed or illegal `position`) is
//! answered with an `info string` and changes nothing.

use crate::mate_probe::{mate_info, mate_probe, MateStop};
use crate::options::{usi_options, Options};
use crate::output::LineWriter;
pub use crate::output::{info_line, Output};
use gogo_mate::{MateLimits, MateProgress, MateResult, Solver};
use gogo_protocol::{
    BestMove, BoundedLines, Checkmate, EngineMessage, GoCommand, GuiCommand, Info, InfoScore, Line,
    MateLimit, PositionSetup, MAX_LINE_BYTES,
};
use gogo_rules::{Move, MoveError, Position, Rng, SfenError};
use gogo_search::skill;
use gogo_search::{
    pool::Done, Evaluation, GameHistory, SearchContext, SearchControl, SearchInfo, SearchJob,
    SearchLimits, SearchOptions, Searcher, TimeManager,
};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

mod mate;
mod perft;

/// Engine name sent in `id name`.
pub const NAME: &str = concat!("gogo ", env!("CARGO_PKG_VERSION"));
/// Author sent in `id author`.
pub const AUTHOR: &str = "the gogo developers";

/// A game search, a mate search or a perft running in the background.
struct RunningSearch {
    /// Stops it, whatever the job (search, mate, perft).
    control: Arc<SearchControl>,
    /// Signalled when its job on the search thread has ended.
    done: Done,
    /// Set once `bestmove` (or `checkmate`) is out: the job is about to end.
    answered: Arc<AtomicBool>,
    /// The output's answer count when it started: once it has grown, the answer is out.
    answers_before: u64,
}

/// The engine as a GUI sees it: the state between commands (position, options, table) and
/// the search running in the background.
pub struct UsiEngine {
    out: Output,
    options: Options,
    /// The table, the threads' data and the threads searches run on.
    searcher: Searcher,
    tt_size_mb: usize,
    /// The start position and every position after it, the current last.
    positions: Vec<Position>,
    search: Option<RunningSearch>,
    /// The mate solver and the table size it was made with, made at the first `go mate`.
    mate: Option<(usize, Arc<Mutex<Solver>>)>,
    /// Chance for the strength levels: seeded from the clock, so that games differ.
    rng: Rng,
    /// Tests set this to make the next search panic after its first report.
    #[cfg(test)]
    inject_panic: Arc<AtomicBool>,
}

impl UsiEngine {
    /// An engine writing to `out`. The hash table is allocated now (small by default) and
    /// again at `isready` after a size change.
    pub fn new(out: Output) -> UsiEngine {
        let options = Options::default();
        let searcher = Searcher::new(options.hash_mb).expect("the default table fits");
        UsiEngine {
            out,
            tt_size_mb: options.hash_mb,
            options,
            searcher,
            positions: vec![Position::startpos()],
            search: None,
            mate: None,
            rng: Rng::new(clock_seed()),
            #[cfg(test)]
            inject_panic: Arc::default(),
        }
    }

    /// Handles one input line; returns `false` after `quit`.
    pub fn handle_line(&mut self, line: &str) -> bool {
        let line = line.trim();
        if line.is_empty() {
            return true;
        }
        log::debug!("<< {line}");
        match line.parse::<GuiCommand>() {
            Ok(cmd) => self.handle(cmd),
            Err(e) => {
                self.out.info_string(&format!("error: {e}"));
                true
            }
        }
    }

    pub(super) fn handle(&mut self, cmd: GuiCommand) -> bool {
        self.reap_finished_search();
        match cmd {
            GuiCommand::Usi => {
                self.out.send(&EngineMessage::IdName(NAME.into()));
                self.out.send(&EngineMessage::IdAuthor(AUTHOR.into()));
                for option in usi_options() {
                    self.out.send(&option);
                }
                self.out.send(&EngineMessage::UsiOk);
            }
            GuiCommand::IsReady => {
                if self.search.is_none() {
                    self.apply_hash_size();
                    // The mate table too, so that the first `go mate` does not wait for it.
                    if self.options.mate_probe || self.mate.is_some() {
                        self.mate_solver();
                    }
                }
                self.out.send(&EngineMessage::ReadyOk);
            }
            GuiCommand::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            GuiCommand::UsiNewGame => {
                self.stop_search();
                self.searcher.new_game();
                // The mate table too, as the search's table: a new game starts afresh, and
                // a cleared table is small again (see gogo_mate::table).
                if let Some((_, solver)) = &self.mate {
                    solver.lock().unwrap_or_else(|e| e.into_inner()).clear();
                }
                self.positions = vec![Position::startpos()];
            }
            GuiCommand::Position { setup, moves } => self.set_position(&setup, &moves),
            GuiCommand::Go(go) => self.go(go),
            GuiCommand::Stop => self.stop_search(),
            GuiCommand::PonderHit => match &self.search {
                Some(s) => s.control.ponderhit(),
                None => self.out.info_string("ponderhit ignored: not pondering"),
            },
            GuiCommand::GameOver(result) => {
                self.stop_search();
                log::info!("game over: {result:?}");
            }
            GuiCommand::Quit => {
                self.stop_search();
                return false;
            }
            GuiCommand::Display => self.display(),
        }
        true
    }

    pub(super) fn position(&self) -> &Position {
        self.positions.last().expect("at least the start position")
    }

    pub(super) fn display(&self) {
        let pos = self.position();
        for line in pos.pretty().lines() {
            self.out.info_string(line);
        }
        self.out.info_string(&format!("sfen: {}", pos.to_sfen()));
        self.out.info_string(&format!(
            "key: {:016x} (board {:016x}, hands {:016x})",
            pos.key(),
            pos.board_key(),
            pos.hand_key()
        ));
        let legal = pos.legal_moves();
        self.out.info_string(&format!(
            "legal moves ({}): {}",
            legal.len(),
            gogo_rules::usi_line(legal.as_slice())
        ));
    }

    pub(super) fn set_position(&mut self, setup: &PositionSetup, moves: &[Move]) {
        match positions_after(setup, moves) {
            Ok(positions) => self.positions = positions,
            Err(e) => self
                .out
                .info_string(&format!("error: position not changed: {e}")),
        }
    }

    pub(super) fn set_option(&mut self, name: &str, value: Option<&str>) {
        if let Err(e) = self.options.set(name, value) {
            self.out.info_string(&format!("error: {e}"));
        }
        if std::mem::take(&mut self.options.clear_hash) {
            self.searcher.context().table().clear();
        }
    }

    /// Allocates the table at the size asked for, keeping the old one if that fails.
    pub(super) fn apply_hash_size(&mut self) {
        if self.options.hash_mb == self.tt_size_mb {
            return;
        }
        match self.searcher.resize_table(self.options.hash_mb) {
            Ok(()) => self.tt_size_mb = self.options.hash_mb,
            Err(e) => {
                self.out.info_string(&format!(
                    "error: {e}; keeping the {} MiB table",
                    self.tt_size_mb
                ));
                self.options.hash_mb = self.tt_size_mb;
            }
        }
    }

    pub(super) fn limits_from(go: &GoCommand) -> SearchLimits {
        let ms = Duration::from_millis;
        let infinite = go.infinite
            || (go.btime.is_none()
                && go.wtime.is_none()
                && go.byoyomi.is_none()
                && go.movetime.is_none()
                && go.depth.is_none()
                && go.nodes.is_none());
        SearchLimits {
            time: [go.btime.map(ms), go.wtime.map(ms)],
            increment: [ms(go.binc.unwrap_or(0)), ms(go.winc.unwrap_or(0))],
            byoyomi: ms(go.byoyomi.unwrap_or(0)),
            moves_to_go: go.movestogo.map(|n| n.clamp(1, 1000) as u32),
            movetime: go.movetime.map(ms),
            depth: go.depth.map(|d| d.min(127) as i32),
            nodes: go.nodes,
            soft_nodes: None,
            whole_first_iteration: false,
            infinite,
            ponder: go.ponder,
        }
    }

    /// Answers from the book if it may and has a move here: `USI_OwnBook`, a game search
    /// (not analysis, not pondering), within `BookMaxPly` (less at a level). Whether it did.
    fn book_move(&mut self, limits: &SearchLimits) -> bool {
        if !self.options.own_book || limits.infinite || limits.ponder {
            return false;
        }
        let max_ply = match self.options.level {
            0 => self.options.book_max_ply,
            level => self.options.book_max_ply * u32::from(level) / 10,
        };
        let pos = self.position().clone();
        // The SFEN's move number counts from 1 at the game's start.
        let ply = pos.move_number().saturating_sub(1);
        if ply >= max_ply {
            return false;
        }
        let book = self.options.book();
        let margin = self.options.book_margin;
        let scale = self.options.score_scale();
        let Some(chosen) = book.choose(&pos, margin, scale, &mut self.rng) else {
            return false;
        };
        self.out.info_string(&format!(
            "book move {} (eval {}, depth {}, played {} times)",
            chosen.mv, chosen.eval, chosen.depth, chosen.count
        ));
        self.out.send(&EngineMessage::BestMove {
            best: BestMove::Move(chosen.mv),
            ponder: chosen.ponder.filter(|&p| pos.played(chosen.mv).is_legal(p)),
        });
        true
    }

    pub(super) fn go(&mut self, go: GoCommand) {
        if self.search.is_some() {
            // A GUI sends `stop` first; if it did not, the running search answers now and
            // the new one starts, so that every `go` gets its `bestmove`.
            self.out
                .info_string("go during a search: stopping the running search first");
            self.stop_search();
        }
        if let Some(depth) = go.perft {
            self.go_perft(depth);
            return;
        }
        if let Some(limit) = go.mate {
            self.go_mate(limit);
            return;
        }
        self.apply_hash_size();
        let limits = UsiEngine::limits_from(&go);
        if self.book_move(&limits) {
            return;
        }
        // The strength level is the search's (analysis, `go infinite`, stays at full
        // strength); here it only says whether the mate solver looks first.
        let level = skill::settings(self.options.level).filter(|_| !limits.infinite);
        let options = SearchOptions {
            threads: self.options.threads,
            multipv: self.options.multipv,
            level: self.options.level,
            level_seed: self.rng.next_u64(),
            move_overhead: Duration::from_millis(self.options.move_overhead_ms),
            // MaxPlies 0 keeps the rule set's own limit (300 under kawu, none under standard).
            rules: if self.options.max_plies > 0 {
                self.options
                    .rules
                    .with_max_plies(Some(self.options.max_plies))
            } else {
                self.options.rules
            },
            evaluation: if self.options.use_nnue {
                Evaluation::Nnue(self.options.network.clone())
            } else {
                Evaluation::Classical
            },
        };
        let control = Arc::new(SearchControl::new(go.ponder));
        let job = SearchJob {
            root: self.position().clone(),
            history: GameHistory::from_positions(&self.positions),
            limits,
            options,
        };
        let out = self.out.clone();
        let wdl_scale = self.options.wdl_scale();
        let thread_control = Arc::clone(&control);
        // A game move on the clock first asks the mate solver, briefly: a forced mate by
        // checks is then played at once, whatever the search would have seen.
        let probe = (self.options.mate_probe
            && level.is_none_or(|l| l.mate_probe)
            && !job.limits.ponder
            && !job.limits.infinite
            && job.limits.depth.is_none()
            && job.limits.nodes.is_none())
        .then(|| self.mate_solver())
        .flatten();
        // The probe's share of the move's time, and 5000 nodes at most.
        let probe_time = TimeManager::new(
            &job.limits,
            job.root.side_to_move(),
            job.options.move_overhead,
        )
        .mate_probe_time();
        // The first move of the last line reported: the answer if the search fails.
        let best_so_far: Arc<Mutex<Option<Move>>> = Arc::default();
        let last_best = Arc::clone(&best_so_far);
        let fallback_out = self.out.clone();
        let on_panic = move || {
            let best = *best_so_far.lock().unwrap_or_else(|e| e.into_inner());
            fallback_out.send(&EngineMessage::BestMove {
                best: best.map_or(BestMove::Resign, BestMove::Move),
                ponder: None,
            });
        };
        #[cfg(test)]
        let inject_panic = Arc::clone(&self.inject_panic);
        self.spawn_search("search", control, on_panic, move |searcher| {
            if let Some(solver) = probe {
                let mut solver = solver.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(line) = mate_probe(&mut solver, &job.root, probe_time) {
                    let plies = line.len() as i32;
                    out.send(&EngineMessage::Info(Info {
                        depth: Some(plies as u32),
                        score: Some(InfoScore::Mate(plies)),
                        pv: line.clone(),
                        ..Info::default()
                    }));
                    out.send(&EngineMessage::BestMove {
                        best: BestMove::Move(line[0]),
                        ponder: line.get(1).copied(),
                    });
                    return;
                }
            }
            let report = |info: SearchInfo| {
                if let (1, Some(&mv)) = (info.multipv, info.pv.first()) {
                    *last_best.lock().unwrap_or_else(|e| e.into_inner()) = Some(mv);
                }
                out.send(&EngineMessage::Info(info_line(&info, wdl_scale)));
                #[cfg(test)]
                if inject_panic.swap(false, Ordering::SeqCst) {
                    panic!("a panic injected by a test");
                }
            };
            let result = searcher.search(&job, &thread_control, &report);
            out.send(&EngineMessage::BestMove {
                best: result.best.map_or(BestMove::Resign, BestMove::Move),
                ponder: result.ponder,
            });
        });
    }

    /// Runs `work` on the search thread as the running search, with the controls that stop
    /// it; the job marks itself answered when `work` is done. If `work` panics (a bug), the
    /// panic is reported as an `info string` and `on_panic` gives the answer the GUI waits
    /// for, so that the engine goes on serving.
    pub(super) fn spawn_search(
        &mut self,
        name: &str,
        control: Arc<SearchControl>,
        on_panic: impl FnOnce() + Send + 'static,
        work: impl FnOnce(&SearchContext) + Send + 'static,
    ) {
        let answered = Arc::new(AtomicBool::new(false));
        let job_answered = Arc::clone(&answered);
        let answers_before = self.out.answers();
        let out = self.out.clone();
        let job_name = name.to_string();
        let queued = self.searcher.run(move |searcher| {
            if let Err(panic) = catch_unwind(AssertUnwindSafe(|| work(searcher))) {
                out.info_string(&format!(
                    "error: the {job_name} failed: {}",
                    panic_message(panic.as_ref())
                ));
                on_panic();
            }
            job_answered.store(true, Ordering::SeqCst);
        });
        match queued {
            Ok(done) => {
                self.search = Some(RunningSearch {
                    control,
                    done,
                    answered,
                    answers_before,
                })
            }
            Err(e) => self
                .out
                .info_string(&format!("error: cannot run the {name}: {e}")),
        }
    }

    /// Forgets a search that has already answered.
    ///
    /// Its `bestmove` out is enough (its job ends a moment later): a GUI that sends `isready`
    /// as soon as it reads `bestmove` then gets the table it asked for, not a readyok that
    /// skipped it because the job had not yet marked itself done.
    pub(super) fn reap_finished_search(&mut self) {
        let answers = self.out.answers();
        if self
            .search
            .as_ref()
            .is_some_and(|s| s.answered.load(Ordering::SeqCst) || answers > s.answers_before)
        {
            if let Some(s) = self.search.take() {
                s.done.wait();
            }
        }
    }

    /// Stops a running search and waits for its `bestmove`.
    pub(super) fn stop_search(&mut self) {
        if let Some(s) = self.search.take() {
            s.control.stop();
            s.control.ponderhit(); // a pondering search waits for either; stop wins
            s.done.wait();
        }
    }
}

impl Drop for UsiEngine {
    fn drop(&mut self) {
        self.stop_search();
    }
}

/// A seed that differs from run to run: the time and the process id.
fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ u64::from(std::process::id()).rotate_left(32)
}

/// What a panic said, if it said it in text.
fn panic_message(panic: &(dyn std::any::Any + Send)) -> &str {
    panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic")
}

/// The start position and every position after it, each move checked for legality.
fn positions_after(setup: &PositionSetup, moves: &[Move]) -> Result<Vec<Position>, SfenError> {
    let mut positions = Vec::with_capacity(moves.len() + 1);
    positions.push(setup.position()?);
    for (i, &mv) in moves.iter().enumerate() {
        let pos = positions.last().expect("the start");
        if !pos.is_legal(mv) {
            return Err(SfenError::Move {
                index: i + 1,
                error: MoveError::Illegal(mv),
            });
        }
        let next = pos.played(mv);
        positions.push(next);
    }
    Ok(positions)
}

/// The line `gogo` greets a terminal with, as Stockfish does (GUIs ignore it): what it is,
/// and what to type.
pub fn banner() -> String {
    format!("{NAME}, a minishogi (5x5 shogi) engine speaking USI. Try: usi, d, go depth 10, quit")
}

/// Greets a person at a terminal with [`banner`] (a GUI or a bot's client, reading through
/// a pipe, gets protocol only: Lishogi-Bot logs any line before `usi`'s answer as an
/// unexpected response), then reads stdin line by line until `quit` or end of input. Lines
/// are at most [`MAX_LINE_BYTES`] (a longer one is refused whole); bytes that are not UTF-8
/// are replaced, so such a line is reported as unknown rather than ending the loop. A
/// command whose handling panics (a bug) is reported, and the engine goes on.
pub fn run() {
    use std::io::IsTerminal;
    let out = Output::new(Box::new(std::io::stdout()));
    if std::io::stdin().is_terminal() {
        out.line(&banner());
    }
    let mut engine = UsiEngine::new(out.clone());
    for line in BoundedLines::new(std::io::stdin().lock(), MAX_LINE_BYTES) {
        let line = match line {
            Line::Text(text) => text,
            Line::TooLong => {
                out.info_string(&format!(
                    "error: a line longer than {MAX_LINE_BYTES} bytes was ignored"
                ));
                continue;
            }
        };
        match catch_unwind(AssertUnwindSafe(|| engine.handle_line(&line))) {
            Ok(true) => {}
            Ok(false) => break,
            Err(panic) => out.info_string(&format!(
                "error: '{line}' failed: {}",
                panic_message(panic.as_ref())
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An [`Output`] whose bytes a test can read.
    fn captured() -> (Output, Arc<Mutex<Vec<u8>>>) {
        let shared = crate::fuzz_checks::Captured::default();
        let bytes = Arc::clone(&shared.0);
        (Output::new(Box::new(shared)), bytes)
    }

    fn lines(bytes: &Mutex<Vec<u8>>) -> Vec<String> {
        String::from_utf8_lossy(&bytes.lock().unwrap())
            .lines()
            .map(String::from)
            .collect()
    }

    /// A search that panics still answers with the best move it had reported (or resign),
    /// says why, and the engine goes on serving: the next search answers as usual.
    #[test]
    fn a_search_that_panics_still_answers_bestmove() {
        let (out, bytes) = captured();
        let mut engine = UsiEngine::new(out);
        engine.handle_line("setoption name MateProbe value false");
        engine.inject_panic.store(true, Ordering::SeqCst);
        engine.handle_line("go depth 6");
        engine.search.take().expect("a search").done.wait();
        let seen = lines(&bytes);
        let failed = seen
            .iter()
            .position(|l| l.starts_with("info string error: the search failed"))
            .unwrap_or_else(|| panic!("{seen:?}"));
        let info = seen
            .iter()
            .find(|l| l.starts_with("info depth"))
            .expect("a report before the panic");
        let reported = info
            .split(" pv ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        assert_eq!(seen[failed + 1], format!("bestmove {reported}"), "{seen:?}");
        assert_eq!(seen.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
        bytes.lock().unwrap().clear();
        engine.handle_line("go depth 3");
        engine.search.take().expect("a search").done.wait();
        let seen = lines(&bytes);
        let last = seen.last().unwrap();
        let mv = last
            .strip_prefix("bestmove ")
            .unwrap_or_else(|| panic!("{seen:?}"));
        assert!(Position::startpos()
            .parse_move(mv.split(' ').next().unwrap())
            .is_ok());
    }
}
