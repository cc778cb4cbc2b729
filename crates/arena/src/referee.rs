//! Plays one game between two engines, keeping the clocks and judging every move with the
//! rules crate.

use gogo_protocol::{
    BestMove, ClientError, Clock, EngineClient, GoCommand, GuiCommand, Info, InfoScore,
};
pub use gogo_protocol::{Ending, TimeControl};
use gogo_rules::{Color, Game, Move, Position, RuleSet};
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
    let mut clock = Clock::new(settings.time_control);
    let mut adjudication_run = [0u32; 2];
    let mut adjudication_sign = [0i32; 2];
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
        let go = with_depth_cap(clock.go(false), engines[i].spec().go_depth);
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
                return Ending::from_failure(&failure, side);
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
                return Ending::from_failure(&failure, side);
            }
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
        if game.play(mv).is_err() {
            return Ending::IllegalMove(side, mv.to_string());
        }
        // Pondering on the reply the mover expects, if it ponders and the game goes on.
        let reply = answer.ponder.filter(|&m| game.position().is_legal(m));
        if let Some(reply) = reply.filter(|_| engines[i].ponders() && game.outcome().is_none()) {
            let mut line = game.moves().to_vec();
            line.push(reply);
            let go = with_depth_cap(clock.go(true), engines[i].spec().go_depth);
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
                return Ending::Adjudicated(winner);
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
