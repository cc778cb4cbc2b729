//! Plays one game between two engines, keeping the clocks and judging every move with the
//! rules crate.

use gogo_protocol::{BestMove, ClientError, EngineClient, GoCommand, GuiCommand, Info, InfoScore};
use gogo_rules::{Color, Game, Move, Outcome, Position, RuleSet};
use std::fmt;
use std::time::{Duration, Instant};

/// A time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Main time (possibly zero) then a fixed byoyomi per move.
    Byoyomi {
        /// Main time, spent first.
        main: Duration,
        /// Time per move once the main time is gone (lost if not used).
        byoyomi: Duration,
    },
    /// Main time plus an increment after each move.
    Fischer {
        /// Time at the start.
        main: Duration,
        /// Time added after each move.
        increment: Duration,
    },
    /// A fixed time per move.
    MoveTime(Duration),
    /// A fixed node count per move (no clock).
    Nodes(u64),
    /// A fixed depth per move (no clock).
    Depth(u32),
}

/// Time-control text that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseTimeControlError {
    /// Not `kind=value`.
    NotKindValue(String),
    /// A kind other than byoyomi, fischer, movetime, nodes and depth.
    UnknownKind(String),
    /// A value that is not a whole number (of milliseconds, nodes or plies).
    BadNumber(String),
}

impl fmt::Display for ParseTimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseTimeControlError::NotKindValue(text) => {
                write!(f, "tc: '{text}' is not kind=value")
            }
            ParseTimeControlError::UnknownKind(kind) => write!(
                f,
                "tc: unknown kind '{kind}' (byoyomi, fischer, movetime, nodes, depth)"
            ),
            ParseTimeControlError::BadNumber(value) => {
                write!(f, "tc: '{value}' is not a whole number")
            }
        }
    }
}

impl std::error::Error for ParseTimeControlError {}

impl std::str::FromStr for TimeControl {
    type Err = ParseTimeControlError;

    /// `byoyomi=200`, `byoyomi=10000+200` (main+byoyomi, ms), `fischer=1000+10`,
    /// `movetime=100`, `nodes=20000`, `depth=6`.
    fn from_str(text: &str) -> Result<TimeControl, ParseTimeControlError> {
        let (kind, value) = text
            .split_once('=')
            .ok_or_else(|| ParseTimeControlError::NotKindValue(text.to_string()))?;
        fn number<T: std::str::FromStr>(v: &str) -> Result<T, ParseTimeControlError> {
            v.parse()
                .map_err(|_| ParseTimeControlError::BadNumber(v.to_string()))
        }
        let ms = |v: &str| number(v).map(Duration::from_millis);
        // `a+b`, or `b` alone with `a` as given.
        let pair = |v: &str, alone_is_second: bool| match v.split_once('+') {
            Some((a, b)) => Ok((ms(a)?, ms(b)?)),
            None if alone_is_second => Ok((Duration::ZERO, ms(v)?)),
            None => Ok((ms(v)?, Duration::ZERO)),
        };
        Ok(match kind {
            "byoyomi" => {
                let (main, byoyomi) = pair(value, true)?;
                TimeControl::Byoyomi { main, byoyomi }
            }
            "fischer" => {
                let (main, increment) = pair(value, false)?;
                TimeControl::Fischer { main, increment }
            }
            "movetime" => TimeControl::MoveTime(ms(value)?),
            "nodes" => TimeControl::Nodes(number(value)?),
            "depth" => TimeControl::Depth(number(value)?),
            _ => return Err(ParseTimeControlError::UnknownKind(kind.to_string())),
        })
    }
}

/// How a game ended, as the arena records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules (mate, no moves, repetition, perpetual check, ply limit).
    Rules(Outcome),
    /// The side to move resigned.
    Resign(Color),
    /// The side to move played an illegal move (its text).
    IllegalMove(Color, String),
    /// The side to move sent a line that should have been its move but cannot be read.
    Malformed(Color, String),
    /// The side to move ran out of time.
    TimeForfeit(Color),
    /// The side to move's engine crashed.
    Crash(Color),
    /// Both engines agreed on a decisive score for long enough.
    Adjudicated(Color),
}

impl Termination {
    /// The winner, if any.
    pub fn winner(&self) -> Option<Color> {
        match self {
            Termination::Rules(o) => o.winner(),
            Termination::Resign(c)
            | Termination::IllegalMove(c, _)
            | Termination::Malformed(c, _)
            | Termination::TimeForfeit(c)
            | Termination::Crash(c) => Some(!*c),
            Termination::Adjudicated(w) => Some(*w),
        }
    }

    /// The side whose engine failed (no answer in time, a crash, an unreadable answer): it
    /// may still be busy or babbling, so it is started afresh rather than asked again.
    pub fn failed_engine(&self) -> Option<Color> {
        match self {
            Termination::Malformed(c, _) | Termination::TimeForfeit(c) | Termination::Crash(c) => {
                Some(*c)
            }
            _ => None,
        }
    }

    /// A short reason, e.g. `checkmate`, `illegal move 5d5b`.
    pub fn reason(&self) -> String {
        match self {
            Termination::Rules(o) => o.reason().into(),
            Termination::Resign(_) => "resignation".into(),
            Termination::IllegalMove(_, m) => format!("illegal move {m}"),
            Termination::Malformed(_, l) => format!("malformed line '{l}'"),
            Termination::TimeForfeit(_) => "time forfeit".into(),
            Termination::Crash(_) => "engine crash".into(),
            Termination::Adjudicated(_) => "adjudication".into(),
        }
    }
}

/// Score adjudication: both engines report beyond `score` (centipawns, or any mate) in
/// agreement for `moves` consecutive moves each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// Threshold in centipawns.
    pub score: i32,
    /// Consecutive moves per engine.
    pub moves: u32,
}

/// Settings for every game of a match.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// Rules the referee applies.
    pub rules: RuleSet,
    /// The clock for both sides.
    pub time_control: TimeControl,
    /// Extra time allowed beyond the clock before a forfeit.
    pub tolerance: Duration,
    /// Score adjudication, off when `None`.
    pub adjudication: Option<Adjudication>,
    /// For fixed-depth and fixed-node games, how long an engine may take per move.
    pub max_think: Duration,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The start position (after the opening's moves are applied, the position the engines
    /// started to play from is `start` plus `opening_moves`).
    pub start: Position,
    /// Moves given by the opening.
    pub opening_moves: usize,
    /// Every move, opening moves first.
    pub moves: Vec<String>,
    /// Milliseconds each engine move took (opening moves not included).
    pub times_ms: Vec<u64>,
    /// How it ended.
    pub termination: Termination,
    /// Pondering of each side (Sente first), for engines that ponder.
    pub ponder: [PonderRecord; 2],
}

/// How pondering went for one side in a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PonderRecord {
    /// The opponent played the expected move: `ponderhit`.
    pub hits: u32,
    /// It did not: `stop`, then a normal search.
    pub misses: u32,
    /// The longest wait for `bestmove` after `stop` on a miss, in milliseconds.
    pub max_stop_ms: u64,
}

fn centipawns(score: InfoScore) -> i32 {
    match score {
        InfoScore::Centipawns(cp) => cp,
        InfoScore::Mate(n) if n >= 0 => 100_000,
        InfoScore::Mate(_) => -100_000,
    }
}

/// The `go` command (`go ponder` with `ponder`) for side `i`, and the longest it may think
/// (before the tolerance).
fn go_command(
    settings: &GameSettings,
    clocks: &[Duration; 2],
    byoyomi: Duration,
    increment: Duration,
    i: usize,
    ponder: bool,
) -> (GoCommand, Duration) {
    let ms = |d: Duration| Some(d.as_millis() as u64);
    let go = GoCommand {
        ponder,
        ..GoCommand::default()
    };
    match settings.time_control {
        TimeControl::Byoyomi { .. } => (
            GoCommand {
                btime: ms(clocks[0]),
                wtime: ms(clocks[1]),
                byoyomi: ms(byoyomi),
                ..go
            },
            clocks[i] + byoyomi,
        ),
        TimeControl::Fischer { .. } => (
            GoCommand {
                btime: ms(clocks[0]),
                wtime: ms(clocks[1]),
                binc: ms(increment),
                winc: ms(increment),
                ..go
            },
            clocks[i],
        ),
        TimeControl::MoveTime(t) => (
            GoCommand {
                movetime: ms(t),
                ..go
            },
            t,
        ),
        TimeControl::Nodes(n) => (
            GoCommand {
                nodes: Some(n),
                ..go
            },
            settings.max_think,
        ),
        TimeControl::Depth(d) => (
            GoCommand {
                depth: Some(d),
                ..go
            },
            settings.max_think,
        ),
    }
}

/// `go` with an engine's own depth cap (its spec's `depth=`) added, the lower one kept.
fn with_depth_cap(go: GoCommand, cap: Option<u32>) -> GoCommand {
    GoCommand {
        depth: match (go.depth, cap) {
            (Some(d), Some(c)) => Some(d.min(c)),
            (d, c) => d.or(c),
        },
        ..go
    }
}

/// How long an engine may take to answer `stop` with `bestmove` before it counts as hung.
const STOP_GRACE: Duration = Duration::from_secs(1);

/// What a failure to answer costs the side to move.
fn failure_termination(failure: ClientError, side: Color) -> Termination {
    match failure {
        ClientError::Timeout => Termination::TimeForfeit(side),
        ClientError::Malformed(line) => Termination::Malformed(side, line),
        ClientError::Crashed | ClientError::Start(_) => Termination::Crash(side),
    }
}

/// Sends `stop` and waits for the `bestmove` that ends a ponder search.
fn stop_pondering(engine: &mut EngineClient, deadline: Instant) -> Result<(), ClientError> {
    engine.send(&GuiCommand::Stop)?;
    engine.wait_bestmove(deadline, &mut |_| {}).map(|_| ())
}

/// A game in progress: what the record keeps, and the move each engine ponders on.
struct Progress {
    game: Game,
    times_ms: Vec<u64>,
    ponder: [PonderRecord; 2],
    pondering: [Option<Move>; 2],
}

/// Plays a game: `engines[0]` is Sente, `engines[1]` Gote. A dead engine is restarted by
/// the caller afterwards. An engine given `USI_Ponder` true ponders on the move it expects
/// (`go ponder`), then gets `ponderhit` or `stop` as a GUI would send them.
pub fn play_game(
    engines: [&mut EngineClient; 2],
    game: Game,
    settings: &GameSettings,
) -> GameRecord {
    let [sente, gote] = engines;
    let mut engines = [sente, gote];
    let opening_moves = game.moves().len();
    let mut progress = Progress {
        game,
        times_ms: Vec::new(),
        ponder: [PonderRecord::default(); 2],
        pondering: [None, None],
    };
    let termination = play_moves(&mut engines, &mut progress, settings);
    // A search still pondering when the game ended is stopped, so the next game starts clean.
    for (engine, ponder) in engines.iter_mut().zip(&progress.pondering) {
        if ponder.is_some() {
            let _ = stop_pondering(engine, Instant::now() + STOP_GRACE + settings.tolerance);
        }
    }
    let Progress {
        game,
        times_ms,
        ponder,
        ..
    } = progress;
    GameRecord {
        start: game.start().clone(),
        opening_moves,
        moves: game.moves().iter().map(|m| m.to_string()).collect(),
        times_ms,
        termination,
        ponder,
    }
}

/// Plays moves until the game ends; returns how.
fn play_moves(
    engines: &mut [&mut EngineClient; 2],
    progress: &mut Progress,
    settings: &GameSettings,
) -> Termination {
    let Progress {
        game,
        times_ms,
        ponder,
        pondering,
    } = progress;
    let (mut clocks, increment, byoyomi) = match settings.time_control {
        TimeControl::Byoyomi { main, byoyomi } => ([main; 2], Duration::ZERO, byoyomi),
        TimeControl::Fischer { main, increment } => ([main; 2], increment, Duration::ZERO),
        _ => ([Duration::ZERO; 2], Duration::ZERO, Duration::ZERO),
    };
    let mut adjudication_run = [0u32; 2];
    let mut adjudication_sign = [0i32; 2];
    for engine in engines.iter_mut() {
        let _ = engine.send(&GuiCommand::UsiNewGame);
    }
    loop {
        if let Some(outcome) = game.outcome() {
            return Termination::Rules(outcome);
        }
        let side = game.position().side_to_move();
        let i = side.index();
        let (go, allowed) = go_command(settings, &clocks, byoyomi, increment, i, false);
        let go = with_depth_cap(go, engines[i].spec().go_depth);
        let expected = pondering[i].take();
        let hit = expected.is_some() && game.moves().last() == expected.as_ref();
        if expected.is_some() && !hit {
            // A miss: the ponder search must answer `stop` before a fresh search starts.
            ponder[i].misses += 1;
            let asked = Instant::now();
            let stopped = stop_pondering(engines[i], asked + STOP_GRACE + settings.tolerance);
            let waited = asked.elapsed().as_millis() as u64;
            ponder[i].max_stop_ms = ponder[i].max_stop_ms.max(waited);
            if let Err(failure) = stopped {
                return failure_termination(failure, side);
            }
        }
        // The clock starts now; on a hit the ponder search goes on from where it was.
        let started = Instant::now();
        let deadline = started + allowed + settings.tolerance;
        // Every info line passes by; adjudication needs the last one with a score.
        let mut last_score = None;
        let mut keep_score = |info: &Info| last_score = info.score.or(last_score);
        let answer = if hit {
            ponder[i].hits += 1;
            engines[i]
                .send(&GuiCommand::PonderHit)
                .and_then(|_| engines[i].wait_bestmove(deadline, &mut keep_score))
        } else {
            engines[i]
                .send(&GuiCommand::position(game.start(), game.moves()))
                .and_then(|_| engines[i].send(&GuiCommand::Go(go)))
                .and_then(|_| engines[i].wait_bestmove(deadline, &mut keep_score))
        };
        let elapsed = started.elapsed();
        let answer = match answer {
            Ok(a) => a,
            Err(failure) => {
                if failure == ClientError::Timeout {
                    // The watchdog: what the late engine was doing when its time ran out.
                    log::warn!(
                        "late: no bestmove from {} after {} ms at ply {}: {}",
                        engines[i].spec().name,
                        started.elapsed().as_millis(),
                        game.moves().len(),
                        engines[i].diagnosis()
                    );
                    let _ = engines[i].send(&GuiCommand::Stop);
                }
                return failure_termination(failure, side);
            }
        };
        times_ms.push(elapsed.as_millis() as u64);
        // The clock.
        match settings.time_control {
            TimeControl::Byoyomi { .. } => {
                if elapsed > clocks[i] + byoyomi + settings.tolerance {
                    return Termination::TimeForfeit(side);
                }
                clocks[i] = clocks[i].saturating_sub(elapsed);
            }
            TimeControl::Fischer { .. } => {
                if elapsed > clocks[i] + settings.tolerance {
                    return Termination::TimeForfeit(side);
                }
                clocks[i] = clocks[i].saturating_sub(elapsed) + increment;
            }
            TimeControl::MoveTime(t) => {
                if elapsed > t + settings.tolerance {
                    return Termination::TimeForfeit(side);
                }
            }
            TimeControl::Nodes(_) | TimeControl::Depth(_) => {}
        }
        let mv = match answer.best {
            BestMove::Resign => return Termination::Resign(side),
            // Declaring a win is no minishogi rule.
            BestMove::Win => return Termination::IllegalMove(side, "win".into()),
            BestMove::Move(mv) => mv,
        };
        if game.play(mv).is_err() {
            return Termination::IllegalMove(side, mv.to_string());
        }
        // Pondering on the reply the mover expects, if it ponders and the game goes on.
        let reply = answer.ponder.filter(|&m| game.position().is_legal(m));
        if let Some(reply) = reply.filter(|_| engines[i].ponders() && game.outcome().is_none()) {
            let mut line = game.moves().to_vec();
            line.push(reply);
            let (go, _) = go_command(settings, &clocks, byoyomi, increment, i, true);
            let go = with_depth_cap(go, engines[i].spec().go_depth);
            if engines[i]
                .send(&GuiCommand::position(game.start(), &line))
                .and_then(|_| engines[i].send(&GuiCommand::Go(go)))
                .is_ok()
            {
                pondering[i] = Some(reply);
            }
        }
        // Adjudication: the mover's score, converted to Sente's point of view.
        if let Some(adj) = settings.adjudication {
            let score = last_score.map(centipawns);
            match score {
                Some(cp) if cp.abs() >= adj.score => {
                    let sente_view = if side == Color::Sente {
                        cp.signum()
                    } else {
                        -cp.signum()
                    };
                    if adjudication_sign[i] == sente_view {
                        adjudication_run[i] += 1;
                    } else {
                        adjudication_sign[i] = sente_view;
                        adjudication_run[i] = 1;
                    }
                }
                _ => {
                    adjudication_run[i] = 0;
                    adjudication_sign[i] = 0;
                }
            }
            if adjudication_run[0] >= adj.moves
                && adjudication_run[1] >= adj.moves
                && adjudication_sign[0] == adjudication_sign[1]
                && game.outcome().is_none()
            {
                let winner = if adjudication_sign[0] > 0 {
                    Color::Sente
                } else {
                    Color::Gote
                };
                return Termination::Adjudicated(winner);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_engines_depth_cap_joins_the_time_control() {
        let movetime = GoCommand {
            movetime: Some(100),
            ..GoCommand::default()
        };
        let capped = with_depth_cap(movetime.clone(), Some(5));
        assert_eq!((capped.movetime, capped.depth), (Some(100), Some(5)));
        assert_eq!(with_depth_cap(movetime.clone(), None), movetime);
        let deep = GoCommand {
            depth: Some(9),
            ..GoCommand::default()
        };
        assert_eq!(with_depth_cap(deep.clone(), Some(5)).depth, Some(5));
        assert_eq!(with_depth_cap(deep, Some(12)).depth, Some(9));
    }
}
