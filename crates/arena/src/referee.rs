//! Plays one game between two engines, keeping the clocks and judging every move with the
//! rules crate.

use crate::engine::{Engine, EngineFailure};
use gogo_rules::{Color, Game, GameError, MoveError, Outcome, Position, RuleSet};
use gogo_usi::protocol::InfoScore;
use std::time::{Duration, Instant};

/// A time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Main time (possibly zero) then a fixed byoyomi per move.
    Byoyomi {
        /// Main time.
        main: Duration,
        /// Byoyomi.
        byoyomi: Duration,
    },
    /// Main time plus an increment after each move.
    Fischer {
        /// Main time.
        main: Duration,
        /// Increment.
        increment: Duration,
    },
    /// A fixed time per move.
    MoveTime(Duration),
    /// A fixed node count per move (no clock).
    Nodes(u64),
    /// A fixed depth per move (no clock).
    Depth(u32),
}

impl std::str::FromStr for TimeControl {
    type Err = String;

    /// `byoyomi=200`, `byoyomi=10000+200` (main+byoyomi, ms), `fischer=1000+10`,
    /// `movetime=100`, `nodes=20000`, `depth=6`.
    fn from_str(text: &str) -> Result<TimeControl, String> {
        let (kind, value) = text
            .split_once('=')
            .ok_or_else(|| format!("tc: '{text}' is not kind=value"))?;
        let ms = |v: &str| -> Result<Duration, String> {
            v.parse::<u64>()
                .map(Duration::from_millis)
                .map_err(|_| format!("tc: '{v}' is not milliseconds"))
        };
        let pair = |v: &str| -> Result<(Duration, Duration), String> {
            match v.split_once('+') {
                Some((a, b)) => Ok((ms(a)?, ms(b)?)),
                None => Ok((Duration::ZERO, ms(v)?)),
            }
        };
        Ok(match kind {
            "byoyomi" => {
                let (main, byoyomi) = pair(value)?;
                TimeControl::Byoyomi { main, byoyomi }
            }
            "fischer" => {
                let (main, increment) = match value.split_once('+') {
                    Some((a, b)) => (ms(a)?, ms(b)?),
                    None => (ms(value)?, Duration::ZERO),
                };
                TimeControl::Fischer { main, increment }
            }
            "movetime" => TimeControl::MoveTime(ms(value)?),
            "nodes" => TimeControl::Nodes(
                value
                    .parse()
                    .map_err(|_| format!("tc: bad node count '{value}'"))?,
            ),
            "depth" => TimeControl::Depth(
                value
                    .parse()
                    .map_err(|_| format!("tc: bad depth '{value}'"))?,
            ),
            _ => {
                return Err(format!(
                    "tc: unknown kind '{kind}' (byoyomi, fischer, movetime, nodes, depth)"
                ))
            }
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
    /// The side to move sent something that is not a move.
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

    /// A short reason, e.g. `checkmate`, `illegal move 5d5b`.
    pub fn reason(&self) -> String {
        match self {
            Termination::Rules(o) => {
                let text = o.to_string();
                text.split(" by ").nth(1).unwrap_or(&text).to_string()
            }
            Termination::Resign(_) => "resignation".into(),
            Termination::IllegalMove(_, m) => format!("illegal move {m}"),
            Termination::Malformed(_, l) => format!("malformed bestmove '{l}'"),
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
    /// The clock.
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

/// The position command for the game so far.
fn position_command(game: &Game) -> String {
    let start = game.start();
    let mut text = if *start == Position::startpos() {
        "position startpos".to_string()
    } else {
        format!("position sfen {}", start.to_sfen())
    };
    if !game.moves().is_empty() {
        text.push_str(" moves");
        for m in game.moves() {
            text.push(' ');
            text.push_str(&m.to_string());
        }
    }
    text
}

fn centipawns(score: InfoScore) -> i32 {
    match score {
        InfoScore::Centipawns(cp) => cp,
        InfoScore::Mate(n) if n >= 0 => 100_000,
        InfoScore::Mate(_) => -100_000,
    }
}

/// The `go` command for side `i` and the longest it may think (before the tolerance).
fn go_command(
    settings: &GameSettings,
    clocks: &[Duration; 2],
    byoyomi: Duration,
    increment: Duration,
    i: usize,
) -> (String, Duration) {
    let ms = |d: Duration| d.as_millis() as u64;
    match settings.time_control {
        TimeControl::Byoyomi { .. } => (
            format!(
                "go btime {} wtime {} byoyomi {}",
                ms(clocks[0]),
                ms(clocks[1]),
                ms(byoyomi)
            ),
            clocks[i] + byoyomi,
        ),
        TimeControl::Fischer { .. } => (
            format!(
                "go btime {} wtime {} binc {} winc {}",
                ms(clocks[0]),
                ms(clocks[1]),
                ms(increment),
                ms(increment)
            ),
            clocks[i],
        ),
        TimeControl::MoveTime(t) => (format!("go movetime {}", ms(t)), t),
        TimeControl::Nodes(n) => (format!("go nodes {n}"), settings.max_think),
        TimeControl::Depth(d) => (format!("go depth {d}"), settings.max_think),
    }
}

/// How long an engine may take to answer `stop` with `bestmove` before it counts as hung.
const STOP_GRACE: Duration = Duration::from_secs(1);

/// Plays a game: `engines[0]` is Sente, `engines[1]` Gote. A dead engine is restarted by
/// the caller afterwards. An engine given `USI_Ponder` true ponders on the move it expects
/// (`go ponder`), then gets `ponderhit` or `stop` as a GUI would send them.
pub fn play_game(engines: [&mut Engine; 2], game: Game, settings: &GameSettings) -> GameRecord {
    let [sente, gote] = engines;
    let mut engines = [sente, gote];
    let mut pondering: [Option<String>; 2] = [None, None];
    let record = play_moves(&mut engines, &mut pondering, game, settings);
    // A search still pondering when the game ended is stopped, so the next game starts clean.
    for (engine, ponder) in engines.iter_mut().zip(&pondering) {
        if ponder.is_some() && engine.send("stop").is_ok() {
            let _ = engine.wait_bestmove(Instant::now() + STOP_GRACE + settings.tolerance);
        }
    }
    record
}

fn play_moves(
    engines: &mut [&mut Engine; 2],
    pondering: &mut [Option<String>; 2],
    game: Game,
    settings: &GameSettings,
) -> GameRecord {
    let mut game = game;
    let mut ponder = [PonderRecord::default(); 2];
    let opening_moves = game.moves().len();
    let mut times_ms = Vec::new();
    let (mut clocks, increment, byoyomi) = match settings.time_control {
        TimeControl::Byoyomi { main, byoyomi } => ([main; 2], Duration::ZERO, byoyomi),
        TimeControl::Fischer { main, increment } => ([main; 2], increment, Duration::ZERO),
        _ => ([Duration::ZERO; 2], Duration::ZERO, Duration::ZERO),
    };
    let mut adjudication_run = [0u32; 2];
    let mut adjudication_sign = [0i32; 2];
    for engine in engines.iter_mut() {
        let _ = engine.send("usinewgame");
    }
    let finish_with = |game: &Game, times_ms, termination, ponder| GameRecord {
        start: game.start().clone(),
        opening_moves,
        moves: game.moves().iter().map(|m| m.to_string()).collect(),
        times_ms,
        termination,
        ponder,
    };
    macro_rules! finish {
        ($game:expr, $times:expr, $termination:expr $(,)?) => {
            finish_with($game, $times, $termination, ponder)
        };
    }
    loop {
        if let Some(outcome) = game.outcome() {
            return finish!(&game, times_ms, Termination::Rules(outcome));
        }
        let side = game.position().side_to_move();
        let i = side.index();
        let (go, allowed) = go_command(settings, &clocks, byoyomi, increment, i);
        let mut started = Instant::now();
        let answer = match pondering[i].take() {
            Some(expected)
                if game.moves().last().map(|m| m.to_string()).as_ref() == Some(&expected) =>
            {
                // The clock starts with ponderhit; the search goes on from where it was.
                ponder[i].hits += 1;
                started = Instant::now();
                let deadline = started + allowed + settings.tolerance;
                engines[i]
                    .send("ponderhit")
                    .and_then(|_| engines[i].wait_bestmove(deadline))
            }
            other => {
                if other.is_some() {
                    ponder[i].misses += 1;
                    let asked = Instant::now();
                    let stopped = engines[i].send("stop").and_then(|_| {
                        engines[i].wait_bestmove(asked + STOP_GRACE + settings.tolerance)
                    });
                    let waited = asked.elapsed().as_millis() as u64;
                    ponder[i].max_stop_ms = ponder[i].max_stop_ms.max(waited);
                    if let Err(failure) = stopped {
                        let termination = match failure {
                            EngineFailure::Timeout => Termination::TimeForfeit(side),
                            EngineFailure::Malformed(line) => Termination::Malformed(side, line),
                            _ => Termination::Crash(side),
                        };
                        return finish!(&game, times_ms, termination);
                    }
                    started = Instant::now();
                }
                let deadline = started + allowed + settings.tolerance;
                engines[i].think(&position_command(&game), &go, deadline)
            }
        };
        let elapsed = started.elapsed();
        let answer = match answer {
            Ok(a) => a,
            Err(EngineFailure::Timeout) => {
                let _ = engines[i].send("stop");
                return finish!(&game, times_ms, Termination::TimeForfeit(side));
            }
            Err(EngineFailure::Malformed(line)) => {
                return finish!(&game, times_ms, Termination::Malformed(side, line))
            }
            Err(EngineFailure::Crashed) | Err(EngineFailure::Io(_)) => {
                return finish!(&game, times_ms, Termination::Crash(side))
            }
        };
        times_ms.push(elapsed.as_millis() as u64);
        // The clock.
        match settings.time_control {
            TimeControl::Byoyomi { .. } => {
                if elapsed > clocks[i] + byoyomi + settings.tolerance {
                    return finish!(&game, times_ms, Termination::TimeForfeit(side));
                }
                clocks[i] = clocks[i].saturating_sub(elapsed);
            }
            TimeControl::Fischer { .. } => {
                if elapsed > clocks[i] + settings.tolerance {
                    return finish!(&game, times_ms, Termination::TimeForfeit(side));
                }
                clocks[i] = clocks[i].saturating_sub(elapsed) + increment;
            }
            TimeControl::MoveTime(t) => {
                if elapsed > t + settings.tolerance {
                    return finish!(&game, times_ms, Termination::TimeForfeit(side));
                }
            }
            TimeControl::Nodes(_) | TimeControl::Depth(_) => {}
        }
        if answer.bestmove == "resign" {
            return finish!(&game, times_ms, Termination::Resign(side));
        }
        match game.play_usi(&answer.bestmove) {
            Ok(_) => {}
            Err(GameError::Move(MoveError::Parse(_))) => {
                return finish!(
                    &game,
                    times_ms,
                    Termination::Malformed(side, answer.bestmove),
                )
            }
            Err(_) => {
                return finish!(
                    &game,
                    times_ms,
                    Termination::IllegalMove(side, answer.bestmove),
                )
            }
        }
        // Pondering on the reply the mover expects, if it ponders and the game goes on.
        if let Some(expected) = answer.ponder.as_deref() {
            let legal = game.position().parse_move(expected).is_ok();
            if engines[i].ponders() && legal && game.outcome().is_none() {
                let mut line = position_command(&game);
                line.push_str(if game.moves().is_empty() {
                    " moves "
                } else {
                    " "
                });
                line.push_str(expected);
                let (go, _) = go_command(settings, &clocks, byoyomi, increment, i);
                let go = go.replacen("go", "go ponder", 1);
                if engines[i]
                    .send(&line)
                    .and_then(|_| engines[i].send(&go))
                    .is_ok()
                {
                    pondering[i] = Some(expected.to_string());
                }
            }
        }
        // Adjudication: the mover's score, converted to Sente's point of view.
        if let Some(adj) = settings.adjudication {
            let score = answer.last_info.and_then(|info| info.score).map(centipawns);
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
                return finish!(&game, times_ms, Termination::Adjudicated(winner));
            }
        }
    }
}
