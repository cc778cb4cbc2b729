//! One page's game: the rules crate judges every move and the end of the game, the clock runs
//! here, and the engine ([`crate::engine`]) plays, analyses and solves mates when asked.
//! [`Session::handle`] takes the page's requests, [`Session::engine_event`] the engine's, and
//! [`Session::tick`] the passing time; each returns the updates to send.

use crate::chances::SenteEval;
use crate::engine::{EngineCommand, EngineEvent, EngineHandle, JobOptions};
use crate::messages::*;
use crate::review::{PositionEval, Review, MAX_REVIEW_MILLIS, MIN_REVIEW_MILLIS};
use gogo_protocol::{
    BestMove, Checkmate, ClientError, Clock, Ending, GoCommand, GuiCommand, Info, TimeControl,
};
use gogo_rules::kif::{japanese, japanese_line, read_kif, write_kif, KifInfo};
use gogo_rules::western::{western, western_line};
use gogo_rules::{
    csa, usi_line, Color, Game, GameError, Move, PieceKind, Position, RuleSet, Square,
    TooManyMoves, MAX_GAME_MOVES,
};
use std::time::Duration;

mod explorer;
mod flow;
mod jobs;
mod kept;
mod puzzle;
mod view;

/// The shortest thinking pause below full strength, and how much longer it may be.
const THINKING_PAUSE_MIN: Duration = Duration::from_millis(500);
const THINKING_PAUSE_SPREAD_MS: u64 = 1300;
/// Plies played before the clocks run: each side's first move is free.
const UNTIMED_PLIES: usize = 2;
/// The most analysis lines the page shows.
pub const MAX_MULTIPV: u32 = 8;
/// Extra time an engine may take beyond its clock before it loses on time.
const ENGINE_GRACE: Duration = Duration::from_millis(1000);
/// Mate searches from the page run this long at most.
const MATE_MILLIS: u64 = 10_000;
/// A hint is the full-strength engine's move after this long.
pub const HINT_MILLIS: u64 = 1000;

/// A page's clock setting as the arena's time control: without a clock, the engine thinks a
/// fixed time a move (and a person as long as they like: the session charges no one).
fn time_control(setting: ClockSetting) -> TimeControl {
    let ms = Duration::from_millis;
    match setting {
        ClockSetting::Byoyomi {
            main_ms,
            byoyomi_ms,
        } => TimeControl::Byoyomi {
            main: ms(main_ms),
            byoyomi: ms(byoyomi_ms),
        },
        ClockSetting::Fischer {
            main_ms,
            increment_ms,
        } => TimeControl::Fischer {
            main: ms(main_ms),
            increment: ms(increment_ms),
        },
        ClockSetting::None { engine_ms } => TimeControl::MoveTime(ms(engine_ms)),
    }
}

/// One page's game.
pub struct Session {
    game: Game,
    players: [Player; 2],
    clock: Clock,
    ending: Option<Ending>,
    engine: EngineHandle,
    engine_name: String,
    /// The highest level the engine offers, once it is up (`None`: none, or not up yet).
    max_level: Option<u8>,
    /// The engine's strength level in this game (0: full strength).
    level: u8,
    /// The id of the engine job whose answer counts; others are stale.
    job: u64,
    /// The engine is thinking about its move.
    thinking: bool,
    analysis: Option<u32>,
    /// The lines shown: a full set of one depth.
    analysis_lines: Vec<AnalysisLine>,
    /// The lines of the depth coming in, until all have come.
    pending_lines: Vec<Option<AnalysisLine>>,
    /// Sente's score after each ply, as far as the engine said.
    scores: Vec<Option<f64>>,
    /// Whether the engine has started and said its name.
    engine_ready: bool,
    /// The job searching for a hint, if one is.
    hint_job: Option<u64>,
    /// The review of the game, if one was asked for since the game last changed.
    review: Option<Review>,
    /// Whether the engine's moves below full strength come after a thinking pause.
    thinking_pause: bool,
    /// An engine move held back for its pause: its job, the move, when to play it.
    paused_move: Option<(u64, Move, std::time::Instant)>,
    /// The players a loaded record names (Sente, Gote), shown instead of this game's.
    record_names: [Option<String>; 2],
    /// Varies the pauses.
    rng: gogo_rules::Rng,
    /// The review's running search: its job, the position's index, the last score said.
    review_job: Option<(u64, usize, Option<SenteEval>)>,
    /// The puzzle being tried, if the board is in a puzzle.
    puzzle: Option<puzzle::PuzzleTry>,
    /// The games loaded on this page, for the explorer.
    loaded: explorer::LoadedGames,
    /// The server's record of the puzzles opened, which outlives this page.
    ledger: std::sync::Arc<PuzzleLedger>,
    /// Counts the games begun on this board (a new game, a record loaded): the store keeps
    /// each as a game of its own.
    generation: u64,
}

pub use kept::{KeptGame, KeptMark, LocalSettings};
pub use puzzle::PuzzleLedger;

/// An ending as the state tells it; `None` for the rules' endings, which the result and
/// reason say.
fn kept_ending(ending: &Ending) -> Option<KeptEnding> {
    Some(match ending {
        Ending::Rules(_)
        | Ending::DrawAgreed
        | Ending::Aborted
        | Ending::NoStart
        | Ending::LeftDrawn(_) => return None,
        Ending::Resignation(c) => KeptEnding::Resignation { loser: (*c).into() },
        Ending::Time(c) => KeptEnding::Time { loser: (*c).into() },
        Ending::IllegalMove(c, _)
        | Ending::Malformed(c, _)
        | Ending::EngineFailure(c, _)
        | Ending::Abandoned(c) => KeptEnding::Forfeit {
            loser: (*c).into(),
            why: ending.reason(),
        },
        // The board adjudicates nothing; were it to, the winner's opponent forfeits.
        Ending::Adjudicated(w) => KeptEnding::Forfeit {
            loser: (!*w).into(),
            why: ending.reason(),
        },
    })
}

impl Session {
    /// A session that plays with `engine`, starting with a game the person plays as Sente,
    /// with a puzzle ledger of its own.
    pub fn new(engine: EngineHandle) -> Session {
        Session::with_ledger(engine, Default::default())
    }

    /// [`Session::new`], keeping the puzzles opened in `ledger` (the server's, shared by
    /// every page and reload).
    pub fn with_ledger(engine: EngineHandle, ledger: std::sync::Arc<PuzzleLedger>) -> Session {
        Session {
            ledger,
            generation: 0,
            game: Game::new(RuleSet::standard()),
            players: [Player::Human, Player::Engine],
            clock: Clock::new(time_control(ClockSetting::None { engine_ms: 1000 })),
            ending: None,
            engine,
            engine_name: "engine".into(),
            max_level: None,
            level: 0,
            job: 0,
            thinking: false,
            analysis: None,
            analysis_lines: Vec::new(),
            pending_lines: Vec::new(),
            scores: vec![None],
            engine_ready: false,
            hint_job: None,
            review: None,
            review_job: None,
            thinking_pause: true,
            paused_move: None,
            record_names: [None, None],
            puzzle: None,
            loaded: explorer::LoadedGames::default(),
            rng: gogo_rules::Rng::new(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64),
            ),
        }
    }

    /// Handles a request from the page.
    pub fn handle(&mut self, request: Request) -> Vec<Update> {
        match request {
            // The engine stays silent while a puzzle is being solved.
            Request::Review { .. } | Request::Analyze { on: true, .. } if self.puzzle_in_play() => {
                vec![Update::error(
                    "the engine helps once the puzzle is over: solve it, or view the solution",
                )]
            }
            Request::NewGame {
                start,
                rules,
                sente,
                gote,
                clock,
                level,
                max_plies,
                moves,
                thinking_pause,
            } => {
                // The engine says which levels it has (its `Level` option); until it is up,
                // any level is taken and cut to them when it is.
                match self.max_level {
                    Some(max) if level > max => {
                        return vec![Update::error(format!(
                            "level {level}: this engine offers 0 (full strength) to {max}"
                        ))];
                    }
                    None if level > 0 && self.engine_ready => {
                        return vec![Update::error(format!(
                            "level {level}: this engine has no strength levels (no Level option)"
                        ))];
                    }
                    _ => {}
                }
                let rules: RuleSet = match rules.parse() {
                    Ok(r) => r,
                    Err(e) => return vec![Update::error(format!("{e}"))],
                };
                let start = match start.as_str() {
                    "standard" => Position::startpos(),
                    "kawu" => RuleSet::kawu().start_position(),
                    sfen => match Position::from_sfen(sfen.trim().trim_start_matches("sfen ")) {
                        Ok(p) => p,
                        Err(e) => return vec![Update::error(format!("bad SFEN: {e}"))],
                    },
                };
                if let Err(e) = validate_clock(clock) {
                    return vec![Update::error(e)];
                }
                if max_plies > MAX_PLIES_SETTING {
                    return vec![Update::error(format!(
                        "move limit {max_plies}: from 0 (none) to {MAX_PLIES_SETTING} plies"
                    ))];
                }
                let rules = match max_plies {
                    0 => rules,
                    n => rules.with_max_plies(Some(n)),
                };
                if moves.len() > MAX_GAME_MOVES {
                    return vec![Update::error(TooManyMoves.to_string())];
                }
                let mut game = Game::from_position(rules, start);
                // A kept game is played again as far as its moves are legal.
                let mut replay_error = None;
                for (n, usi) in moves.iter().enumerate() {
                    if let Err(e) = game.play_usi(usi) {
                        replay_error = Some(Update::error(format!(
                            "the kept game stops at move {}: {usi}: {e}",
                            n + 1
                        )));
                        break;
                    }
                }
                self.puzzle = None;
                self.generation += 1;
                self.level = level;
                self.thinking_pause = thinking_pause;
                self.reset(game, [sente, gote], time_control(clock));
                self.engine.send(EngineCommand::NewGame);
                let mut updates = self.after_change();
                updates.extend(replay_error);
                updates
            }
            Request::Move { usi } => self.human_move(&usi),
            Request::Takeback => self.takeback(),
            Request::Resign => {
                if self.puzzle.is_some() {
                    return vec![Update::error("a puzzle is not resigned: view the solution")];
                }
                if self.ending.is_some() {
                    return vec![Update::error("the game is over")];
                }
                let side = self.game.position().side_to_move();
                let human = if self.players[side.index()] == Player::Human {
                    side
                } else {
                    !side
                };
                if self.players[human.index()] != Player::Human {
                    return vec![Update::error("only a person can resign")];
                }
                self.end(Ending::Resignation(human));
                vec![Update::State(Box::new(self.view()))]
            }
            Request::Analyze { on, multipv } => {
                self.analysis = on.then_some(multipv.clamp(1, MAX_MULTIPV));
                self.analysis_lines.clear();
                self.pending_lines.clear();
                // While the engine thinks about its move (or reviews, or looks for a hint)
                // its own lines are shown; the analysis starts when it is done.
                if !self.engine_busy() {
                    if on {
                        self.start_engine_work();
                    } else {
                        self.job += 1;
                        self.engine.send(EngineCommand::Stop);
                    }
                }
                vec![Update::Analysis { lines: Vec::new() }]
            }
            Request::Mate => {
                if let Some(busy) = self.busy_message() {
                    return vec![Update::error(busy)];
                }
                self.job += 1;
                self.hint_job = None;
                self.engine.send(EngineCommand::Mate {
                    id: self.job,
                    position: self.position_command(),
                    millis: MATE_MILLIS,
                });
                Vec::new()
            }
            Request::Hint => self.hint(),
            Request::Review { millis } => self.start_review(millis),
            Request::Load { text } => self.load(&text),
            Request::Puzzle {
                id,
                rating,
                new_player,
                theme,
                seen,
                near,
            } => {
                let rating = rating
                    .map(gogo_puzzle::glicko::Rating::from)
                    .or(new_player.then_some(gogo_puzzle::glicko::START));
                self.open_puzzle(id, rating, theme, seen, near)
            }
            Request::PuzzleHint => self.puzzle_hint(),
            Request::Explore { sfen } => self.explore(&sfen),
            Request::PuzzleSolution => self.puzzle_solution(),
            Request::Export { notation } => {
                // A loaded record keeps its own players' names.
                let names = [0, 1].map(|i| match (&self.record_names[i], self.players[i]) {
                    (Some(name), _) => name.clone(),
                    (None, Player::Human) => "human".to_string(),
                    (None, Player::Engine) => self.engine_player_name(),
                });
                let info = KifInfo {
                    sente: names[0].clone(),
                    gote: names[1].clone(),
                    ending: self.ending.as_ref().map(|e| e.kif_word().to_string()),
                    summary: None,
                    comments: self
                        .review
                        .as_ref()
                        .map(|r| r.kif_comments(&self.game, notation))
                        .unwrap_or_default(),
                };
                let ending = self.ending.as_ref().map(Ending::csa_word);
                vec![Update::Export {
                    kif: write_kif(self.game.start(), self.game.moves(), &info),
                    csa: csa::write_csa(
                        self.game.start(),
                        self.game.moves(),
                        &names[0],
                        &names[1],
                        ending,
                    ),
                    sfen: self.game.position().to_sfen(),
                }]
            }
        }
    }

    pub(super) fn reset(&mut self, game: Game, players: [Player; 2], control: TimeControl) {
        self.job += 1;
        self.engine.send(EngineCommand::Stop);
        self.thinking = false;
        self.paused_move = None;
        self.record_names = [None, None];
        self.hint_job = None;
        self.scores = vec![None; game.moves().len() + 1];
        self.game = game;
        self.players = players;
        self.clock = Clock::new(control);
        self.ending = self.game.outcome().map(Ending::Rules);
        self.analysis_lines.clear();
    }

    pub(super) fn end(&mut self, ending: Ending) {
        let _ = self.clock.stop(Duration::MAX);
        if self.thinking {
            self.job += 1;
            self.engine.send(EngineCommand::Stop);
            self.thinking = false;
        }
        self.ending = Some(ending);
        self.analysis_lines.clear();
        self.pending_lines.clear();
    }
}

/// The longest move limit a game may set, in plies.
pub const MAX_PLIES_SETTING: u32 = MAX_GAME_MOVES as u32;

fn validate_clock(clock: ClockSetting) -> Result<(), String> {
    let day = 24 * 3600 * 1000;
    match clock {
        ClockSetting::Byoyomi {
            main_ms,
            byoyomi_ms,
        } if main_ms > day || byoyomi_ms > day || main_ms + byoyomi_ms == 0 => {
            Err("clock: main time and byoyomi within a day, not both zero".into())
        }
        ClockSetting::Fischer {
            main_ms,
            increment_ms,
        } if main_ms > day || increment_ms > day || main_ms == 0 => {
            Err("clock: main time from 1 ms to a day".into())
        }
        ClockSetting::None { engine_ms } if engine_ms == 0 || engine_ms > day => {
            Err("engine time per move from 1 ms to a day".into())
        }
        _ => Ok(()),
    }
}
