//! Plays one game between two engines, keeping the clocks and judging every move with the
//! rules crate.

use gogo_protocol::clock::deadline;
use gogo_protocol::{
    BestMove, BestMoveAnswer, ClientError, Clock, EngineClient, GoCommand, GuiCommand, Info,
    InfoScore,
};
pub use gogo_protocol::{Ending, TimeControl};
use gogo_rules::{Color, DrawReason, Game, GameError, Move, Outcome, Position, RuleSet};
use std::time::{Duration, Instant};

/// Score adjudication: both engines report beyond `score` (centipawns, or any mate) in
/// agreement for `moves` consecutive moves each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// Threshold in centipawns.
    pub score: i32,
    /// Consecutive moves per engine.
    pub moves: u32,
}

/// The adjudication's count: per side, how many consecutive moves its score has agreed on
/// a winner, and which (+1 Sente, -1 Gote, 0 none).
#[derive(Default)]
struct Adjudicator {
    run: [u32; 2],
    sign: [i32; 2],
}

impl Adjudicator {
    /// The mover `side` reported `score` (its last, if any): the winner both engines have
    /// agreed on for long enough, if the game is to be adjudicated now.
    fn observe(
        &mut self,
        rule: Adjudication,
        side: Color,
        score: Option<InfoScore>,
    ) -> Option<Color> {
        let i = side.index();
        match score.map(centipawns) {
            Some(cp) if cp.abs() >= rule.score => {
                // The mover's score, from Sente's point of view.
                let sente_view = if side == Color::Sente {
                    cp.signum()
                } else {
                    -cp.signum()
                };
                if self.sign[i] == sente_view {
                    self.run[i] += 1;
                } else {
                    self.sign[i] = sente_view;
                    self.run[i] = 1;
                }
            }
            _ => {
                self.run[i] = 0;
                self.sign[i] = 0;
            }
        }
        let agreed = self.run.iter().all(|&r| r >= rule.moves) && self.sign[0] == self.sign[1];
        agreed.then(|| {
            if self.sign[0] > 0 {
                Color::Sente
            } else {
                Color::Gote
            }
        })
    }
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
    pub ending: Ending,
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

/// Sends `stop` and waits for the `bestmove` that ends a ponder search.
fn stop_pondering(engine: &mut EngineClient, deadline: Instant) -> Result<(), ClientError> {
    engine.send(&GuiCommand::Stop)?;
    engine.wait_bestmove(deadline, &mut |_| {}).map(|_| ())
}

/// Before the mover's turn: if it pondered, a `ponderhit` is due when the opponent played
/// the `expected` move (returns true), or a miss, whose search must answer `stop` before a
/// fresh one starts (returns false, or the failure to answer in time).
fn settle_ponder(
    engine: &mut EngineClient,
    record: &mut PonderRecord,
    expected: Option<Move>,
    game: &Game,
    settings: &GameSettings,
) -> Result<bool, ClientError> {
    let Some(expected) = expected else {
        return Ok(false);
    };
    if game.moves().last() == Some(&expected) {
        record.hits += 1;
        return Ok(true);
    }
    record.misses += 1;
    let asked = Instant::now();
    let stopped = stop_pondering(engine, asked + STOP_GRACE + settings.tolerance);
    record.max_stop_ms = record.max_stop_ms.max(asked.elapsed().as_millis() as u64);
    stopped.map(|()| false)
}

/// After a move: the engine that made it ponders on the `reply` it expects, if it ponders,
/// the reply is legal and the game goes on. Returns the move it ponders on.
fn start_pondering(
    engine: &mut EngineClient,
    game: &Game,
    reply: Option<Move>,
    clock: &Clock,
) -> Option<Move> {
    let reply = reply.filter(|&m| game.position().is_legal(m))?;
    if !engine.ponders() || game.outcome().is_some() {
        return None;
    }
    let mut line = game.moves().to_vec();
    line.push(reply);
    // After the reply it is the pondering engine's turn again.
    let own_side = game.position().side_to_move().flip();
    let go = with_depth_cap(clock.go(own_side, true), engine.spec().go_depth);
    engine
        .send(&GuiCommand::position(game.start(), &line))
        .and_then(|_| engine.send(&GuiCommand::Go(go)))
        .ok()
        .map(|()| reply)
}

/// Asks the mover for its move by `deadline`: `ponderhit` after a hit, else the position
/// and `go`. Returns the answer and the last score it reported (for adjudication). An
/// engine late past its deadline is told to stop, and what it was doing is logged.
fn ask_move(
    engine: &mut EngineClient,
    hit: bool,
    game: &Game,
    go: GoCommand,
    deadline: Instant,
) -> (Result<BestMoveAnswer, ClientError>, Option<InfoScore>) {
    let started = Instant::now();
    let mut last_score = None;
    let mut keep_score = |info: &Info| last_score = info.score.or(last_score);
    let answer = if hit {
        engine.send(&GuiCommand::PonderHit)
    } else {
        engine
            .send(&GuiCommand::position(game.start(), game.moves()))
            .and_then(|_| engine.send(&GuiCommand::Go(go)))
    }
    .and_then(|_| engine.wait_bestmove(deadline, &mut keep_score));
    if answer.as_ref().err() == Some(&ClientError::Timeout) {
        // The watchdog: what the late engine was doing when its time ran out.
        log::warn!(
            "late: no bestmove from {} after {} ms at ply {}: {}",
            engine.spec().name,
            started.elapsed().as_millis(),
            game.moves().len(),
            engine.diagnosis()
        );
        let _ = engine.send(&GuiCommand::Stop);
    }
    (answer, last_score)
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
    let ending = play_moves(&mut engines, &mut progress, settings);
    // A search still pondering when the game ended is stopped, so the next game starts clean.
    for (engine, ponder) in engines.iter_mut().zip(&progress.pondering) {
        if ponder.is_some() {
            let _ = stop_pondering(
                engine,
                deadline(
                    Instant::now(),
                    STOP_GRACE.saturating_add(settings.tolerance),
                ),
            );
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
        ending,
        ponder,
    }
}

/// Plays moves until the game ends; returns how.
fn play_moves(
    engines: &mut [&mut EngineClient; 2],
    progress: &mut Progress,
    settings: &GameSettings,
) -> Ending {
    let Progress {
        game,
        times_ms,
        ponder,
        pondering,
    } = progress;
    // An engine with its own control plays at time odds.
    let control = |e: &EngineClient| e.spec().time_control.unwrap_or(settings.time_control);
    let mut clock = Clock::with_odds([control(engines[0]), control(engines[1])]);
    let mut adjudicator = Adjudicator::default();
    for engine in engines.iter_mut() {
        let _ = engine.send(&GuiCommand::UsiNewGame);
    }
    loop {
        if let Some(outcome) = game.outcome() {
            return Ending::Rules(outcome);
        }
        let side = game.position().side_to_move();
        let i = side.index();
        let allowed = clock.allowed(side, settings.max_think);
        let go = with_depth_cap(clock.go(side, false), engines[i].spec().go_depth);
        let hit = match settle_ponder(
            engines[i],
            &mut ponder[i],
            pondering[i].take(),
            game,
            settings,
        ) {
            Ok(hit) => hit,
            Err(failure) => return Ending::from_failure(&failure, side),
        };
        // The clock starts now; on a hit the ponder search goes on from where it was.
        let started = Instant::now();
        let deadline = deadline(started, allowed.saturating_add(settings.tolerance));
        let (answer, last_score) = ask_move(engines[i], hit, game, go, deadline);
        let elapsed = started.elapsed();
        let answer = match answer {
            Ok(a) => a,
            Err(failure) => return Ending::from_failure(&failure, side),
        };
        times_ms.push(elapsed.as_millis() as u64);
        // The clock (nodes and depth games have none).
        if clock.charge(side, elapsed, settings.tolerance).is_err() {
            return Ending::Time(side);
        }
        let mv = match answer.best {
            BestMove::Resign => return Ending::Resignation(side),
            // Declaring a win is no minishogi rule.
            BestMove::Win => return Ending::IllegalMove(side, "win".into()),
            BestMove::Move(mv) => mv,
        };
        match game.play(mv) {
            Ok(()) => {}
            // No game is longer than the rules crate's cap: a draw, as at a ply limit.
            Err(GameError::TooManyMoves(_)) => {
                return Ending::Rules(Outcome::Draw {
                    reason: DrawReason::PlyLimit,
                })
            }
            Err(_) => return Ending::IllegalMove(side, mv.to_string()),
        }
        pondering[i] = start_pondering(engines[i], game, answer.ponder, &clock);
        // Adjudication, when both engines have agreed long enough.
        if let Some(rule) = settings.adjudication {
            if let Some(winner) = adjudicator.observe(rule, side, last_score) {
                if game.outcome().is_none() {
                    return Ending::Adjudicated(winner);
                }
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
