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
    csa, Color, Game, GameError, Move, PieceKind, Position, RuleSet, Square, TooManyMoves,
    MAX_GAME_MOVES,
};
use std::time::Duration;

/// The highest strength level a game may ask of the engine.
pub const MAX_LEVEL: u8 = 10;
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

/// What the page shows of the clock, when there is one.
fn clock_view(clock: &Clock) -> Option<ClockView> {
    clock.timed().then(|| ClockView {
        main_ms: clock.left_now().map(|d| d.as_millis() as u64),
        byoyomi_ms: clock.byoyomi().as_millis() as u64,
        running: clock.running().map(Color::index),
    })
}

/// One page's game.
pub struct Session {
    game: Game,
    players: [Player; 2],
    clock: Clock,
    ending: Option<Ending>,
    engine: EngineHandle,
    engine_name: String,
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
    /// Varies the pauses.
    rng: gogo_rules::Rng,
    /// The review's running search: its job, the position's index, the last score said.
    review_job: Option<(u64, usize, Option<SenteEval>)>,
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::Sente => "sente",
        Color::Gote => "gote",
    }
}

fn piece_letter(kind: PieceKind) -> String {
    let base = kind.base_letter().to_string();
    if kind.is_promoted() {
        format!("+{base}")
    } else {
        base
    }
}

/// An ending as the page keeps it; `None` for the rules' endings, which replaying the moves
/// finds again.
fn kept_ending(ending: &Ending) -> Option<KeptEnding> {
    Some(match ending {
        Ending::Rules(_) => return None,
        Ending::Resignation(c) => KeptEnding::Resignation { loser: (*c).into() },
        Ending::Time(c) => KeptEnding::Time { loser: (*c).into() },
        Ending::IllegalMove(c, _) | Ending::Malformed(c, _) | Ending::EngineFailure(c, _) => {
            KeptEnding::Forfeit {
                loser: (*c).into(),
                why: ending.reason(),
            }
        }
        // The board adjudicates nothing; were it to, the winner's opponent forfeits.
        Ending::Adjudicated(w) => KeptEnding::Forfeit {
            loser: (!*w).into(),
            why: ending.reason(),
        },
    })
}

/// The ending a kept game comes back with (a forfeit's words are kept as they were said,
/// cut short).
fn restored_ending(kept: KeptEnding) -> Ending {
    match kept {
        KeptEnding::Resignation { loser } => Ending::Resignation(loser.into()),
        KeptEnding::Time { loser } => Ending::Time(loser.into()),
        KeptEnding::Forfeit { loser, why } => {
            Ending::EngineFailure(loser.into(), crate::messages::brief(&why))
        }
    }
}

impl Session {
    /// A session that plays with `engine`, starting with a game the person plays as Sente.
    pub fn new(engine: EngineHandle) -> Session {
        Session {
            game: Game::new(RuleSet::standard()),
            players: [Player::Human, Player::Engine],
            clock: Clock::new(time_control(ClockSetting::None { engine_ms: 1000 })),
            ending: None,
            engine,
            engine_name: "engine".into(),
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
            rng: gogo_rules::Rng::new(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64),
            ),
        }
    }

    /// What the page shows now.
    pub fn view(&self) -> GameView {
        let pos = self.game.position();
        let mut board = Vec::new();
        for sq in Square::all() {
            if let Some(p) = pos.piece_at(sq) {
                board.push(BoardPiece {
                    square: sq.to_string(),
                    color: color_name(p.color),
                    kind: piece_letter(p.kind),
                });
            }
        }
        let hands = Color::ALL.map(|c| {
            PieceKind::HAND_SFEN_ORDER
                .iter()
                .filter(|&&k| pos.hand(c).count(k) > 0)
                .map(|&k| (piece_letter(k), pos.hand(c).count(k)))
                .collect()
        });
        let mut moves = Vec::new();
        let mut previous = None;
        for (p, &mv) in self.game.positions().iter().zip(self.game.moves()) {
            let mark = if p.side_to_move() == Color::Sente {
                '▲'
            } else {
                '△'
            };
            moves.push(RecordMove {
                usi: mv.to_string(),
                japanese: format!("{mark}{}", japanese(p, mv, previous)),
                western: western(p, mv),
            });
            previous = Some(mv.to());
        }
        let human_to_move = self.players[pos.side_to_move().index()] == Player::Human;
        let legal = if self.ending.is_none() && human_to_move {
            pos.legal_moves().iter().map(|m| m.to_string()).collect()
        } else {
            Vec::new()
        };
        GameView {
            positions: self.game.positions().iter().map(|p| p.to_sfen()).collect(),
            moves,
            board,
            hands,
            turn: color_name(pos.side_to_move()),
            legal,
            last_move: self.game.moves().last().map(|m| m.to_string()),
            in_check: pos.in_check(),
            players: self.players,
            rules: self.game.rules().name(),
            clock: clock_view(&self.clock),
            result: self.ending.as_ref().map(|e| e.result().to_string()),
            reason: self.ending.as_ref().map(Ending::reason),
            ending: self.ending.as_ref().and_then(kept_ending),
            scores: self.scores.clone(),
            engine: self.engine_name.clone(),
            level: self.level,
            max_plies: self.game.rules().max_plies,
            thinking: self.thinking,
            engine_ready: self.engine_ready,
        }
    }

    fn error(message: impl AsRef<str>) -> Update {
        Update::error(message)
    }

    /// Handles a request from the page.
    pub fn handle(&mut self, request: Request) -> Vec<Update> {
        match request {
            Request::NewGame {
                start,
                rules,
                sente,
                gote,
                clock,
                level,
                max_plies,
                moves,
                ending,
                thinking_pause,
            } => {
                if level > MAX_LEVEL {
                    return vec![Session::error(format!(
                        "level {level}: from 0 (full strength) to {MAX_LEVEL}"
                    ))];
                }
                let rules: RuleSet = match rules.parse() {
                    Ok(r) => r,
                    Err(e) => return vec![Session::error(format!("{e}"))],
                };
                let start = match start.as_str() {
                    "standard" => Position::startpos(),
                    "kawu" => RuleSet::kawu().start_position(),
                    sfen => match Position::from_sfen(sfen.trim().trim_start_matches("sfen ")) {
                        Ok(p) => p,
                        Err(e) => return vec![Session::error(format!("bad SFEN: {e}"))],
                    },
                };
                if let Err(e) = validate_clock(clock) {
                    return vec![Session::error(e)];
                }
                if max_plies > MAX_PLIES_SETTING {
                    return vec![Session::error(format!(
                        "move limit {max_plies}: from 0 (none) to {MAX_PLIES_SETTING} plies"
                    ))];
                }
                let rules = match max_plies {
                    0 => rules,
                    n => rules.with_max_plies(Some(n)),
                };
                if moves.len() > MAX_GAME_MOVES {
                    return vec![Session::error(TooManyMoves.to_string())];
                }
                let mut game = Game::from_position(rules, start);
                // A kept game is played again as far as its moves are legal.
                let mut replay_error = None;
                for (n, usi) in moves.iter().enumerate() {
                    if let Err(e) = game.play_usi(usi) {
                        replay_error = Some(Session::error(format!(
                            "the kept game stops at move {}: {usi}: {e}",
                            n + 1
                        )));
                        break;
                    }
                }
                self.level = level;
                self.thinking_pause = thinking_pause;
                self.reset(game, [sente, gote], time_control(clock));
                // A kept game that ended otherwise than by the rules ends so again (only if
                // every move was played again: it is then the same game).
                if let (Some(ending), None, None) = (ending, &replay_error, &self.ending) {
                    self.end(restored_ending(ending));
                }
                self.engine.send(EngineCommand::NewGame);
                let mut updates = self.after_change();
                updates.extend(replay_error);
                updates
            }
            Request::Move { usi } => self.human_move(&usi),
            Request::Takeback => self.takeback(),
            Request::Resign => {
                if self.ending.is_some() {
                    return vec![Session::error("the game is over")];
                }
                let side = self.game.position().side_to_move();
                let human = if self.players[side.index()] == Player::Human {
                    side
                } else {
                    !side
                };
                if self.players[human.index()] != Player::Human {
                    return vec![Session::error("only a person can resign")];
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
                    return vec![Session::error(busy)];
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
            Request::Export { notation } => {
                let names = self.players.map(|p| match p {
                    Player::Human => "human".to_string(),
                    Player::Engine => self.engine_player_name(),
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

    /// The engine as the records name it: with its level, when it plays at one.
    fn engine_player_name(&self) -> String {
        match self.level {
            0 => self.engine_name.clone(),
            level => format!("{} (level {level})", self.engine_name),
        }
    }

    fn reset(&mut self, game: Game, players: [Player; 2], control: TimeControl) {
        self.job += 1;
        self.engine.send(EngineCommand::Stop);
        self.thinking = false;
        self.paused_move = None;
        self.hint_job = None;
        self.scores = vec![None; game.moves().len() + 1];
        self.game = game;
        self.players = players;
        self.clock = Clock::new(control);
        self.ending = self.game.outcome().map(Ending::Rules);
        self.analysis_lines.clear();
    }

    fn end(&mut self, ending: Ending) {
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

    /// How much longer an engine move that took `elapsed` waits before it is played: below
    /// full strength (and with the pause on), a varied 0.5 to 1.8 s from the move's start,
    /// at most a twentieth of the engine's main time left on a clock; `None` for no wait.
    fn thinking_pause_left(&mut self, elapsed: Duration) -> Option<Duration> {
        if self.level == 0 || !self.thinking_pause {
            return None;
        }
        let mut pause = THINKING_PAUSE_MIN
            + Duration::from_millis(self.rng.below(THINKING_PAUSE_SPREAD_MS as usize) as u64);
        if self.clock.timed() {
            let side = self.game.position().side_to_move();
            pause = pause.min(self.clock.main()[side.index()] / 20);
        }
        pause
            .checked_sub(elapsed)
            .filter(|left| *left > Duration::from_millis(50))
    }

    fn position_command(&self) -> GuiCommand {
        GuiCommand::position(self.game.start(), self.game.moves())
    }

    /// Plays `mv` for the side to move, with the clock; then whatever follows.
    fn play(&mut self, mv: Move, grace: Duration) -> Vec<Update> {
        let side = self.game.position().side_to_move();
        // Without a clock no one loses on time (the engine's own limit is its job's).
        if self.clock.stop(grace).is_err() && self.clock.timed() {
            self.end(Ending::Time(side));
            return vec![Update::State(Box::new(self.view()))];
        }
        match self.game.play(mv) {
            Ok(()) => {}
            // The game holds as many moves as any may: the move is refused, the game kept.
            Err(e @ GameError::TooManyMoves(_)) => return vec![Session::error(e.to_string())],
            Err(_) => {
                self.end(Ending::IllegalMove(side, mv.to_string()));
                return vec![Update::State(Box::new(self.view()))];
            }
        }
        self.scores.push(None);
        if let Some(outcome) = self.game.outcome() {
            self.end(Ending::Rules(outcome));
        }
        self.after_change()
    }

    fn human_move(&mut self, usi: &str) -> Vec<Update> {
        if self.ending.is_some() {
            return vec![Session::error("the game is over")];
        }
        let side = self.game.position().side_to_move();
        if self.players[side.index()] != Player::Human {
            return vec![Session::error("it is the engine's turn")];
        }
        match self.game.position().parse_move(usi) {
            Ok(mv) => self.play(mv, Duration::from_millis(300)),
            Err(e) => vec![Session::error(format!("{usi}: {e}"))],
        }
    }

    fn takeback(&mut self) -> Vec<Update> {
        // A game lost by resignation or on time stays lost: a new game starts afresh.
        if let Some(e @ (Ending::Resignation(_) | Ending::Time(_))) = &self.ending {
            return vec![Session::error(format!(
                "the game ended by {}: start a new game",
                e.reason()
            ))];
        }
        if self.game.moves().is_empty() {
            return vec![Session::error("no move to take back")];
        }
        let mut keep = self.game.moves().len() - 1;
        let engine_to_move = |n: usize, game: &Game, players: &[Player; 2]| {
            players[game.positions()[n].side_to_move().index()] == Player::Engine
        };
        // Against the engine, back to the person's turn.
        if self.players.contains(&Player::Human) {
            while keep > 0 && engine_to_move(keep, &self.game, &self.players) {
                keep -= 1;
            }
        }
        let mut game = Game::from_position(*self.game.rules(), self.game.start().clone());
        for &mv in &self.game.moves()[..keep] {
            game.play(mv).expect("a move of the game");
        }
        let scores = self.scores[..=keep].to_vec();
        let main = self.clock.main();
        self.reset(game, self.players, self.clock.control());
        self.clock.set_main(main);
        self.scores = scores;
        self.after_change()
    }

    fn load(&mut self, text: &str) -> Vec<Update> {
        let text = text.trim();
        if text.is_empty() {
            return vec![Session::error(
                "nothing to load: paste an SFEN, a KIF or a CSA record first",
            )];
        }
        let parsed = if text.contains("手合割")
            || text.contains("手数")
            || text.contains("後手の持駒")
        {
            read_kif(text).map_err(|e| e.to_string())
        } else if text.starts_with("V2") || text.starts_with("P1") || text.starts_with("N+") {
            csa::read_csa(text).map_err(|e| e.to_string())
        } else {
            let usi = text.strip_prefix("position ").unwrap_or(text);
            gogo_rules::parse_usi_position(usi).map_err(|e| format!("not SFEN, KIF or CSA: {e}"))
        };
        match parsed {
            Ok((start, moves)) => {
                let mut game = Game::from_position(*self.game.rules(), start);
                for mv in moves {
                    if game.play(mv).is_err() {
                        break;
                    }
                }
                self.reset(game, self.players, self.clock.control());
                self.after_change()
            }
            Err(e) => vec![Session::error(e)],
        }
    }

    /// After the game changed: the state, and the engine's next job. The analysis lines,
    /// the hint and the review were of the game before: they go.
    fn after_change(&mut self) -> Vec<Update> {
        self.analysis_lines.clear();
        self.pending_lines.clear();
        self.review = None;
        self.review_job = None;
        self.hint_job = None;
        // Each side's clock starts with its first move, as on lishogi: the first two plies
        // are not timed (a person finds the board before the time runs).
        if self.ending.is_none() && self.game.moves().len() >= UNTIMED_PLIES {
            let side = self.game.position().side_to_move();
            self.clock.start(side);
        }
        self.start_engine_work();
        vec![
            Update::Analysis { lines: Vec::new() },
            Update::State(Box::new(self.view())),
        ]
    }

    /// The options of a search at `level` with `multipv` lines, under this game's rules.
    fn job_options(&self, level: u8, multipv: u32) -> JobOptions {
        JobOptions {
            multipv,
            level,
            rules: self.game.rules().name(),
            max_plies: self.game.rules().max_plies.unwrap_or(0),
        }
    }

    /// Whether the engine is busy with a job the analysis must not interrupt.
    fn engine_busy(&self) -> bool {
        self.thinking || self.review_job.is_some() || self.hint_job.is_some()
    }

    /// Why a new engine job cannot start now, if it cannot.
    fn busy_message(&self) -> Option<&'static str> {
        if self.thinking {
            Some("the engine is thinking about its move")
        } else if self.review_job.is_some() {
            Some("the review is running")
        } else {
            None
        }
    }

    /// The `position` command of the game's position `index`.
    fn position_at(&self, index: usize) -> GuiCommand {
        GuiCommand::position(self.game.start(), &self.game.moves()[..index])
    }

    fn hint(&mut self) -> Vec<Update> {
        if let Some(busy) = self.busy_message() {
            return vec![Session::error(busy)];
        }
        if self.ending.is_some() {
            return vec![Session::error("the game is over")];
        }
        self.job += 1;
        self.hint_job = Some(self.job);
        self.engine.send(EngineCommand::Search {
            id: self.job,
            position: self.position_command(),
            go: GoCommand {
                movetime: Some(HINT_MILLIS),
                ..Default::default()
            },
            allowed: Duration::from_millis(HINT_MILLIS) + ENGINE_GRACE,
            options: self.job_options(0, 1),
        });
        Vec::new()
    }

    fn start_review(&mut self, millis: u64) -> Vec<Update> {
        if !(MIN_REVIEW_MILLIS..=MAX_REVIEW_MILLIS).contains(&millis) {
            return vec![Session::error(format!(
                "review time {millis} ms: from {MIN_REVIEW_MILLIS} to {MAX_REVIEW_MILLIS} ms a position"
            ))];
        }
        if self.thinking {
            return vec![Session::error("the engine is thinking about its move")];
        }
        if self.game.moves().is_empty() {
            return vec![Session::error("no moves to review")];
        }
        self.hint_job = None;
        self.review = Some(Review::new(&self.game, millis));
        self.review_step()
    }

    /// Searches the review's next position, or ends the review; returns its progress.
    fn review_step(&mut self) -> Vec<Update> {
        let Some(review) = &self.review else {
            return Vec::new();
        };
        let millis = review.millis();
        match review.next_position() {
            Some(index) => {
                self.job += 1;
                self.review_job = Some((self.job, index, None));
                self.engine.send(EngineCommand::Search {
                    id: self.job,
                    position: self.position_at(index),
                    go: GoCommand {
                        movetime: Some(millis),
                        ..Default::default()
                    },
                    allowed: Duration::from_millis(millis) + ENGINE_GRACE,
                    options: self.job_options(0, 1),
                });
            }
            None => {
                self.review_job = None;
                // The graph shows the review's scores, and the analysis (if on) goes on.
                let done = review.view(&self.game);
                self.scores[0] = self.scores[0].or(Some(0.5));
                for m in &done.moves {
                    self.scores[m.ply] = Some(m.sente_win);
                }
                self.start_engine_work();
            }
        }
        let mut updates = vec![Update::Review(Box::new(
            self.review.as_ref().expect("a review").view(&self.game),
        ))];
        if self.review_job.is_none() {
            updates.push(Update::State(Box::new(self.view())));
        }
        updates
    }

    /// The engine's move if it is to move, else the analysis if it is on.
    fn start_engine_work(&mut self) {
        self.job += 1;
        self.thinking = false;
        self.hint_job = None;
        if self.ending.is_none() {
            let side = self.game.position().side_to_move();
            if self.players[side.index()] == Player::Engine {
                self.thinking = true;
                self.engine.send(EngineCommand::Search {
                    id: self.job,
                    position: self.position_command(),
                    go: self.clock.go(side, false),
                    allowed: self.clock.allowed(side, Duration::ZERO) + ENGINE_GRACE,
                    options: self.job_options(self.level, 1),
                });
                return;
            }
        }
        // A position without moves has nothing to analyse.
        let movable = !self.game.position().legal_moves().is_empty();
        match self.analysis {
            Some(multipv) if movable => self.engine.send(EngineCommand::Analyze {
                id: self.job,
                position: self.position_command(),
                options: self.job_options(0, multipv),
            }),
            _ => self.engine.send(EngineCommand::Stop),
        }
    }

    /// Takes an analysis line; whether the lines shown changed. Lines are shown a full set
    /// of one depth at a time, so that MultiPV never mixes depths.
    fn take_line(&mut self, line: AnalysisLine) -> bool {
        let legal = self.game.position().legal_moves().len().max(1);
        let wanted = if self.thinking {
            1
        } else {
            self.analysis.unwrap_or(1) as usize
        }
        .min(legal);
        let i = line.multipv as usize - 1;
        if i >= wanted {
            return false;
        }
        if line.multipv == 1
            && self
                .pending_lines
                .iter()
                .flatten()
                .any(|l| l.depth != line.depth)
        {
            self.pending_lines.clear();
        }
        if self.pending_lines.len() < wanted {
            self.pending_lines.resize(wanted, None);
        }
        self.pending_lines[i] = Some(line);
        if self.pending_lines.iter().all(Option::is_some) {
            self.analysis_lines = self.pending_lines.iter().flatten().cloned().collect();
            return true;
        }
        false
    }

    /// The line an `info` shows, if it is one: it has a depth, and a MultiPV index the page
    /// shows (1 to [`MAX_MULTIPV`]; an engine may send 0 or four billion).
    fn analysis_line(&self, info: &Info) -> Option<AnalysisLine> {
        let pos = self.game.position();
        let eval = info
            .score
            .map(|s| SenteEval::from_info(s, info.wdl, pos.side_to_move()));
        let multipv = info.multipv.unwrap_or(1);
        if !(1..=MAX_MULTIPV).contains(&multipv) {
            return None;
        }
        Some(AnalysisLine {
            multipv,
            depth: info.depth?,
            score: eval.map(|e| e.score),
            sente_win: eval.map(|e| e.sente_win),
            nps: info.nps,
            nodes: info.nodes,
            pv: info.pv.iter().map(|m| m.to_string()).collect(),
            pv_japanese: japanese_line(pos, &info.pv),
            pv_western: western_line(pos, &info.pv),
        })
    }

    /// Handles what the engine did.
    pub fn engine_event(&mut self, event: EngineEvent) -> Vec<Update> {
        match event {
            EngineEvent::Ready { name } => {
                self.engine_name = name;
                self.engine_ready = true;
                vec![Update::State(Box::new(self.view()))]
            }
            EngineEvent::Info { id, info } if self.review_job.is_some_and(|j| j.0 == id) => {
                if let (Some(score), Some(job)) = (info.score, self.review_job.as_mut()) {
                    let side = self.game.positions()[job.1].side_to_move();
                    job.2 = Some(SenteEval::from_info(score, info.wdl, side));
                }
                Vec::new()
            }
            EngineEvent::BestMove { id, answer, .. }
                if self.review_job.is_some_and(|j| j.0 == id) =>
            {
                let Some((_, index, score)) = self.review_job.take() else {
                    return Vec::new();
                };
                let best = match answer.best {
                    BestMove::Move(mv) => Some(mv),
                    _ => None,
                };
                // An answer without a score (too short a time) counts as even.
                let eval = score.unwrap_or_else(SenteEval::even);
                if let Some(review) = self.review.as_mut() {
                    review.record(index, PositionEval::searched(eval, best));
                }
                self.review_step()
            }
            EngineEvent::BestMove { id, answer, .. } if self.hint_job == Some(id) => {
                self.hint_job = None;
                let pos = self.game.position();
                let updates = match answer.best {
                    BestMove::Move(mv) if pos.is_legal(mv) => vec![Update::Hint {
                        usi: mv.to_string(),
                        japanese: japanese(pos, mv, self.game.moves().last().map(|m| m.to())),
                        western: western(pos, mv),
                        sfen: pos.to_sfen(),
                    }],
                    _ => vec![Session::error("the engine has no move to suggest")],
                };
                // The analysis, if it was on, goes on.
                self.start_engine_work();
                updates
            }
            // Against a person, the engine's thoughts (and the reply it expects) stay hidden
            // unless the person asks for analysis.
            EngineEvent::Info { .. }
                if self.analysis.is_none() && self.players.contains(&Player::Human) =>
            {
                Vec::new()
            }
            EngineEvent::Info { id, info } if id == self.job => {
                let Some(line) = self.analysis_line(&info) else {
                    return Vec::new();
                };
                if line.multipv == 1 {
                    if let Some(chance) = line.sente_win {
                        let ply = self.game.moves().len();
                        self.scores[ply] = Some(chance);
                    }
                }
                if !self.take_line(line) {
                    return Vec::new();
                }
                vec![Update::Analysis {
                    lines: self.analysis_lines.clone(),
                }]
            }
            EngineEvent::BestMove {
                id,
                answer,
                elapsed,
            } if id == self.job && self.thinking => {
                self.thinking = false;
                let side = self.game.position().side_to_move();
                match answer.best {
                    BestMove::Resign => {
                        self.end(Ending::Resignation(side));
                        vec![Update::State(Box::new(self.view()))]
                    }
                    BestMove::Win => {
                        self.end(Ending::IllegalMove(side, "win".into()));
                        vec![Update::State(Box::new(self.view()))]
                    }
                    BestMove::Move(mv) => match self.thinking_pause_left(elapsed) {
                        None => self.play(mv, ENGINE_GRACE),
                        Some(pause) => {
                            // Still thinking, as far as the page can tell.
                            self.thinking = true;
                            self.paused_move = Some((id, mv, std::time::Instant::now() + pause));
                            Vec::new()
                        }
                    },
                }
            }
            EngineEvent::Checkmate { id, answer } if id == self.job => {
                let pos = self.game.position();
                let (text, japanese, western) = match answer {
                    Checkmate::Mate(line) => (
                        format!(
                            "mate in {} plies: {}",
                            line.len(),
                            line.iter()
                                .map(|m| m.to_string())
                                .collect::<Vec<_>>()
                                .join(" ")
                        ),
                        japanese_line(pos, &line),
                        western_line(pos, &line),
                    ),
                    Checkmate::NoMate => ("no mate".into(), String::new(), String::new()),
                    Checkmate::Timeout => {
                        ("no answer in time".into(), String::new(), String::new())
                    }
                    Checkmate::NotImplemented => (
                        "this engine has no mate search".into(),
                        String::new(),
                        String::new(),
                    ),
                };
                // The analysis, if it was on, goes on.
                self.start_engine_work();
                vec![Update::Mate {
                    text,
                    japanese,
                    western,
                }]
            }
            EngineEvent::Failed { id, error } => {
                let message = match &error {
                    ClientError::Start(why) => why.clone(),
                    other => format!("the engine failed: {other}"),
                };
                let mut updates = vec![Session::error(&message)];
                if self.review_job.is_some_and(|j| Some(j.0) == id) {
                    self.review_job = None;
                    self.review = None;
                }
                if self.hint_job == id {
                    self.hint_job = None;
                }
                if self.thinking && id == Some(self.job) {
                    let side = self.game.position().side_to_move();
                    self.thinking = false;
                    self.end(Ending::from_failure(&error, side));
                    updates.push(Update::State(Box::new(self.view())));
                }
                updates
            }
            _ => Vec::new(),
        }
    }

    /// The clock: a person whose time is up loses. Returns the updates, if any.
    pub fn tick(&mut self) -> Vec<Update> {
        if self.ending.is_some() {
            self.paused_move = None;
            return Vec::new();
        }
        if let Some((job, mv, at)) = self.paused_move {
            if job != self.job {
                self.paused_move = None;
            } else if std::time::Instant::now() >= at {
                self.paused_move = None;
                self.thinking = false;
                return self.play(mv, ENGINE_GRACE);
            }
        }
        match self
            .clock
            .flagged(Duration::from_millis(300))
            .filter(|_| self.clock.timed())
        {
            Some(color) if self.players[color.index()] == Player::Human => {
                self.end(Ending::Time(color));
                vec![Update::State(Box::new(self.view()))]
            }
            _ => Vec::new(),
        }
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
