//! One page's game: the rules crate judges every move and the end of the game, the clock runs
//! here, and the engine ([`crate::engine`]) plays, analyses and solves mates when asked.
//! [`Session::handle`] takes the page's requests, [`Session::engine_event`] the engine's, and
//! [`Session::tick`] the passing time; each returns the updates to send.

use crate::engine::{EngineCommand, EngineEvent, EngineHandle};
use crate::messages::*;
use gogo_protocol::{BestMove, Checkmate, ClientError, GoCommand, GuiCommand, Info, InfoScore};
use gogo_rules::kif::{japanese, japanese_line, read_kif, write_kif, KifInfo};
use gogo_rules::{csa, Color, Game, Move, Outcome, PieceKind, Position, RuleSet, Square};
use std::time::{Duration, Instant};

/// The scale of win chances shown from centipawns: `1 / (1 + e^(-cp / WIN_SCALE))`. Fitted
/// to the results of games that gogo's built-in network (gen4) played against itself
/// (`gogo-train --calibrate`; the README's Evaluation section): 100 cp is 58 %.
pub const WIN_SCALE: f64 = 323.0;
/// The highest strength level a game may ask of the engine.
pub const MAX_LEVEL: u8 = 10;
/// The most analysis lines the page shows.
pub const MAX_MULTIPV: u32 = 8;
/// Extra time an engine may take beyond its clock before it loses on time.
const ENGINE_GRACE: Duration = Duration::from_millis(1000);
/// Mate searches from the page run this long at most.
const MATE_MILLIS: u64 = 10_000;

/// How a game ended, beyond the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Ending {
    Rules(Outcome),
    Time(Color),
    Resignation(Color),
    IllegalMove(Color, String),
    EngineFailure(Color, String),
}

impl Ending {
    fn winner(&self) -> Option<Color> {
        match self {
            Ending::Rules(o) => o.winner(),
            Ending::Time(c)
            | Ending::Resignation(c)
            | Ending::IllegalMove(c, _)
            | Ending::EngineFailure(c, _) => Some(!*c),
        }
    }

    fn reason(&self) -> String {
        match self {
            Ending::Rules(o) => match o {
                Outcome::Win {
                    reason: gogo_rules::WinReason::Repetition,
                    ..
                } => "fourfold repetition (Sente loses under the standard rules)".into(),
                Outcome::Win {
                    reason: gogo_rules::WinReason::PerpetualCheck,
                    ..
                } => "perpetual check (the checking side loses)".into(),
                o => o.reason().into(),
            },
            Ending::Time(_) => "time".into(),
            Ending::Resignation(_) => "resignation".into(),
            Ending::IllegalMove(_, m) => format!("illegal move {m} by the engine"),
            Ending::EngineFailure(_, m) => m.clone(),
        }
    }

    fn kif_word(&self) -> &'static str {
        match self {
            Ending::Rules(Outcome::Win {
                reason: gogo_rules::WinReason::Checkmate | gogo_rules::WinReason::NoLegalMoves,
                ..
            }) => "詰み",
            Ending::Rules(Outcome::Draw {
                reason: gogo_rules::DrawReason::PlyLimit,
            }) => "持将棋",
            Ending::Rules(_) => "千日手",
            Ending::Time(_) => "切れ負け",
            Ending::Resignation(_) => "投了",
            Ending::IllegalMove(..) => "反則負け",
            Ending::EngineFailure(..) => "中断",
        }
    }
}

/// The clocks of both sides.
#[derive(Clone, Debug)]
struct Clock {
    setting: ClockSetting,
    main: [Duration; 2],
    /// The side whose clock runs, and since when.
    running: Option<(Color, Instant)>,
}

impl Clock {
    fn new(setting: ClockSetting) -> Clock {
        let main = match setting {
            ClockSetting::Byoyomi { main_ms, .. } | ClockSetting::Fischer { main_ms, .. } => {
                Duration::from_millis(main_ms)
            }
            ClockSetting::None { .. } => Duration::ZERO,
        };
        Clock {
            setting,
            main: [main; 2],
            running: None,
        }
    }

    fn byoyomi(&self) -> Duration {
        match self.setting {
            ClockSetting::Byoyomi { byoyomi_ms, .. } => Duration::from_millis(byoyomi_ms),
            _ => Duration::ZERO,
        }
    }

    fn timed(&self) -> bool {
        !matches!(self.setting, ClockSetting::None { .. })
    }

    /// The longest `color` may take for this move.
    fn allowed(&self, color: Color) -> Duration {
        match self.setting {
            ClockSetting::None { engine_ms } => Duration::from_millis(engine_ms),
            _ => self.main[color.index()] + self.byoyomi(),
        }
    }

    fn start(&mut self, color: Color) {
        self.running = Some((color, Instant::now()));
    }

    /// Stops the running clock; `false` if its side has run out of time.
    fn stop(&mut self, grace: Duration) -> bool {
        let Some((color, since)) = self.running.take() else {
            return true;
        };
        if !self.timed() {
            return true;
        }
        let spent = since.elapsed();
        let i = color.index();
        if spent > self.main[i] + self.byoyomi() + grace {
            self.main[i] = Duration::ZERO;
            return false;
        }
        self.main[i] = self.main[i].saturating_sub(spent);
        if let ClockSetting::Fischer { increment_ms, .. } = self.setting {
            self.main[i] += Duration::from_millis(increment_ms);
        }
        true
    }

    /// The side whose time has run out while its clock runs, if any.
    fn flagged(&self, grace: Duration) -> Option<Color> {
        let (color, since) = self.running?;
        (self.timed() && since.elapsed() > self.main[color.index()] + self.byoyomi() + grace)
            .then_some(color)
    }

    fn view(&self) -> Option<ClockView> {
        if !self.timed() {
            return None;
        }
        let mut main_ms = [
            self.main[0].as_millis() as u64,
            self.main[1].as_millis() as u64,
        ];
        if let Some((c, since)) = self.running {
            let i = c.index();
            main_ms[i] = main_ms[i].saturating_sub(since.elapsed().as_millis() as u64);
        }
        Some(ClockView {
            main_ms,
            byoyomi_ms: self.byoyomi().as_millis() as u64,
            running: self.running.map(|(c, _)| c.index()),
        })
    }

    fn go(&self, side: Color) -> GoCommand {
        let ms = |d: Duration| Some(d.as_millis() as u64);
        match self.setting {
            ClockSetting::None { engine_ms } => GoCommand {
                movetime: Some(engine_ms),
                ..Default::default()
            },
            ClockSetting::Byoyomi { byoyomi_ms, .. } => GoCommand {
                btime: ms(self.main[0]),
                wtime: ms(self.main[1]),
                byoyomi: Some(byoyomi_ms),
                ..Default::default()
            },
            ClockSetting::Fischer { increment_ms, .. } => {
                let _ = side;
                GoCommand {
                    btime: ms(self.main[0]),
                    wtime: ms(self.main[1]),
                    binc: Some(increment_ms),
                    winc: Some(increment_ms),
                    ..Default::default()
                }
            }
        }
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
    /// The engine's strength level in this game (0: full strength).
    level: u8,
    /// The id of the engine job whose answer counts; others are stale.
    job: u64,
    /// The engine is thinking about its move.
    thinking: bool,
    analysis: Option<u32>,
    analysis_lines: Vec<AnalysisLine>,
    /// Sente's score after each ply, as far as the engine said.
    scores: Vec<Option<f64>>,
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

/// A score from the side to move's point of view, turned to Sente's.
fn sente_score(score: InfoScore, side: Color) -> SenteScore {
    let flip = if side == Color::Sente { 1 } else { -1 };
    match score {
        // An engine may send any i32: i32::MIN does not flip.
        InfoScore::Centipawns(cp) => SenteScore::Cp {
            value: cp.saturating_mul(flip),
        },
        InfoScore::Mate(n) => SenteScore::Mate {
            plies: n.saturating_mul(flip),
        },
    }
}

/// Sente's winning chance from a score.
fn win_chance(score: SenteScore) -> f64 {
    match score {
        SenteScore::Cp { value } => 1.0 / (1.0 + (-(value as f64) / WIN_SCALE).exp()),
        SenteScore::Mate { plies } if plies > 0 => 1.0,
        SenteScore::Mate { .. } => 0.0,
    }
}

impl Session {
    /// A session that plays with `engine`, starting with a game the person plays as Sente.
    pub fn new(engine: EngineHandle) -> Session {
        Session {
            game: Game::new(RuleSet::standard()),
            players: [Player::Human, Player::Engine],
            clock: Clock::new(ClockSetting::None { engine_ms: 1000 }),
            ending: None,
            engine,
            engine_name: "engine".into(),
            level: 0,
            job: 0,
            thinking: false,
            analysis: None,
            analysis_lines: Vec::new(),
            scores: vec![None],
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
            clock: self.clock.view(),
            result: self.ending.as_ref().map(|e| {
                match e.winner() {
                    Some(Color::Sente) => "1-0",
                    Some(Color::Gote) => "0-1",
                    None => "1/2-1/2",
                }
                .to_string()
            }),
            reason: self.ending.as_ref().map(Ending::reason),
            scores: self.scores.clone(),
            engine: self.engine_name.clone(),
            level: self.level,
        }
    }

    fn error(message: impl Into<String>) -> Update {
        Update::Error {
            message: message.into(),
        }
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
                self.level = level;
                self.reset(Game::from_position(rules, start), [sente, gote], clock);
                self.engine.send(EngineCommand::NewGame);
                self.after_change()
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
                // While the engine thinks about its move its own lines are shown; the
                // analysis starts when it is the person's turn again.
                if !self.thinking {
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
                if self.thinking {
                    return vec![Session::error("the engine is thinking about its move")];
                }
                self.job += 1;
                self.engine.send(EngineCommand::Mate {
                    id: self.job,
                    position: self.position_command(),
                    millis: MATE_MILLIS,
                });
                Vec::new()
            }
            Request::Load { text } => self.load(&text),
            Request::Export => {
                let names = self.players.map(|p| match p {
                    Player::Human => "human".to_string(),
                    Player::Engine => self.engine_player_name(),
                });
                let info = KifInfo {
                    sente: names[0].clone(),
                    gote: names[1].clone(),
                    ending: self.ending.as_ref().map(|e| e.kif_word().to_string()),
                    summary: None,
                };
                let ending = self.ending.as_ref().map(|e| match e {
                    Ending::Resignation(_) => "%TORYO",
                    Ending::Time(_) => "%TIME_UP",
                    Ending::IllegalMove(..) => "%ILLEGAL_MOVE",
                    Ending::Rules(Outcome::Win { .. }) => "%TSUMI",
                    Ending::Rules(_) => "%SENNICHITE",
                    Ending::EngineFailure(..) => "%CHUDAN",
                });
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

    fn reset(&mut self, game: Game, players: [Player; 2], clock: ClockSetting) {
        self.job += 1;
        self.engine.send(EngineCommand::Stop);
        self.thinking = false;
        self.scores = vec![None; game.moves().len() + 1];
        self.game = game;
        self.players = players;
        self.clock = Clock::new(clock);
        self.ending = self.game.outcome().map(Ending::Rules);
        self.analysis_lines.clear();
    }

    fn end(&mut self, ending: Ending) {
        self.clock.running = None;
        if self.thinking {
            self.job += 1;
            self.engine.send(EngineCommand::Stop);
            self.thinking = false;
        }
        self.ending = Some(ending);
    }

    fn position_command(&self) -> GuiCommand {
        GuiCommand::position(self.game.start(), self.game.moves())
    }

    /// Plays `mv` for the side to move, with the clock; then whatever follows.
    fn play(&mut self, mv: Move, grace: Duration) -> Vec<Update> {
        let side = self.game.position().side_to_move();
        if !self.clock.stop(grace) {
            self.end(Ending::Time(side));
            return vec![Update::State(Box::new(self.view()))];
        }
        if self.game.play(mv).is_err() {
            self.end(Ending::IllegalMove(side, mv.to_string()));
            return vec![Update::State(Box::new(self.view()))];
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
        let clock = self.clock.clone();
        self.reset(game, self.players, clock.setting);
        self.clock.main = clock.main;
        self.scores = scores;
        self.after_change()
    }

    fn load(&mut self, text: &str) -> Vec<Update> {
        let text = text.trim();
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
                let setting = self.clock.setting;
                self.reset(game, self.players, setting);
                let mut updates = self.after_change();
                updates.insert(0, Update::Analysis { lines: Vec::new() });
                updates
            }
            Err(e) => vec![Session::error(e)],
        }
    }

    /// After the game changed: the state, and the engine's next job.
    fn after_change(&mut self) -> Vec<Update> {
        self.analysis_lines.clear();
        if self.ending.is_none() {
            let side = self.game.position().side_to_move();
            self.clock.start(side);
        }
        self.start_engine_work();
        vec![Update::State(Box::new(self.view()))]
    }

    /// The engine's move if it is to move, else the analysis if it is on.
    fn start_engine_work(&mut self) {
        self.job += 1;
        self.thinking = false;
        if self.ending.is_none() {
            let side = self.game.position().side_to_move();
            if self.players[side.index()] == Player::Engine {
                self.thinking = true;
                self.engine.send(EngineCommand::Search {
                    id: self.job,
                    position: self.position_command(),
                    go: self.clock.go(side),
                    allowed: self.clock.allowed(side) + ENGINE_GRACE,
                    level: self.level,
                });
                return;
            }
        }
        match self.analysis {
            Some(multipv) => self.engine.send(EngineCommand::Analyze {
                id: self.job,
                position: self.position_command(),
                multipv,
            }),
            None => self.engine.send(EngineCommand::Stop),
        }
    }

    /// The line an `info` shows, if it is one: it has a depth, and a MultiPV index the page
    /// shows (1 to [`MAX_MULTIPV`]; an engine may send 0 or four billion).
    fn analysis_line(&self, info: &Info) -> Option<AnalysisLine> {
        let pos = self.game.position();
        let score = info.score.map(|s| sente_score(s, pos.side_to_move()));
        let multipv = info.multipv.unwrap_or(1);
        if !(1..=MAX_MULTIPV).contains(&multipv) {
            return None;
        }
        Some(AnalysisLine {
            multipv,
            depth: info.depth?,
            score,
            sente_win: score.map(win_chance),
            nps: info.nps,
            nodes: info.nodes,
            pv: info.pv.iter().map(|m| m.to_string()).collect(),
            pv_japanese: japanese_line(pos, &info.pv),
        })
    }

    /// Handles what the engine did.
    pub fn engine_event(&mut self, event: EngineEvent) -> Vec<Update> {
        match event {
            EngineEvent::Ready { name } => {
                self.engine_name = name;
                vec![Update::State(Box::new(self.view()))]
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
                let i = line.multipv as usize - 1;
                if self.analysis_lines.len() <= i {
                    self.analysis_lines.resize(i + 1, line.clone());
                }
                self.analysis_lines[i] = line;
                vec![Update::Analysis {
                    lines: self.analysis_lines.clone(),
                }]
            }
            EngineEvent::BestMove {
                id,
                answer,
                elapsed: _,
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
                    BestMove::Move(mv) => self.play(mv, ENGINE_GRACE),
                }
            }
            EngineEvent::Checkmate { id, answer } if id == self.job => {
                let pos = self.game.position();
                let (text, japanese) = match answer {
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
                    ),
                    Checkmate::NoMate => ("no mate".into(), String::new()),
                    Checkmate::Timeout => ("no answer in time".into(), String::new()),
                    Checkmate::NotImplemented => {
                        ("this engine has no mate search".into(), String::new())
                    }
                };
                // The analysis, if it was on, goes on.
                self.start_engine_work();
                vec![Update::Mate { text, japanese }]
            }
            EngineEvent::Failed { id, error } => {
                let message = match &error {
                    ClientError::Start(why) => why.clone(),
                    other => format!("the engine failed: {other}"),
                };
                let mut updates = vec![Session::error(&message)];
                if self.thinking && id == Some(self.job) {
                    let side = self.game.position().side_to_move();
                    self.thinking = false;
                    self.end(match error {
                        ClientError::Timeout => Ending::Time(side),
                        _ => Ending::EngineFailure(side, message),
                    });
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
            return Vec::new();
        }
        match self.clock.flagged(Duration::from_millis(300)) {
            Some(color) if self.players[color.index()] == Player::Human => {
                self.end(Ending::Time(color));
                vec![Update::State(Box::new(self.view()))]
            }
            _ => Vec::new(),
        }
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winning_chances_follow_the_fitted_scale() {
        let chance = |value| win_chance(SenteScore::Cp { value });
        assert_eq!(chance(0), 0.5);
        // The calibration: 100 cp is 57.7 % for gen4's scores (gogo-train --calibrate).
        assert!((chance(100) - 0.577).abs() < 0.002, "{}", chance(100));
        assert!((chance(-300) + chance(300) - 1.0).abs() < 1e-12);
        assert!(chance(400) > chance(200) && chance(200) > chance(100));
        assert_eq!(win_chance(SenteScore::Mate { plies: 3 }), 1.0);
        assert_eq!(win_chance(SenteScore::Mate { plies: -2 }), 0.0);
    }
}
