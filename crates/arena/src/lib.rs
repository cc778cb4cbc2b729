//! # gogo-arena
//!
//! Engine-vs-engine minishogi matches over USI. Every move is judged by the gogo rules crate:
//! an illegal move, a malformed line, a time forfeit, a crash or a hang loses the game.
//! Openings are played twice with colours swapped; results are the same in content whatever
//! the concurrency.

#![warn(missing_docs)]

pub mod engine;
pub mod record;
pub mod referee;
pub mod stats;

use engine::{Engine, EngineSpec};
use gogo_rules::{parse_usi_position, Color, Game, Position, RuleSet};
use referee::{play_game, GameRecord, GameSettings};
use stats::{Pentanomial, Sprt, SprtDecision, Tally};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::time::Duration;

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines; statistics are from the first one's point of view.
    pub engines: [EngineSpec; 2],
    /// Per-game settings.
    pub settings: GameSettings,
    /// Openings as USI position text; `startpos` of the rule set when empty.
    pub openings: Vec<String>,
    /// Games to play (rounded up to whole pairs).
    pub games: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// Stop early when this test decides.
    pub sprt: Option<Sprt>,
    /// How long an engine may take to start or to answer `isready`.
    pub startup_timeout: Duration,
}

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// Index in the schedule (pair = index / 2).
    pub index: usize,
    /// Which engine (0 or 1) played Sente.
    pub sente_engine: usize,
    /// The opening text.
    pub opening: String,
    /// The game.
    pub record: GameRecord,
}

impl MatchGame {
    /// The result for engine 0: 1, 0.5 or 0.
    pub fn points_for_first(&self) -> f64 {
        match self.record.termination.winner() {
            None => 0.5,
            Some(c) => {
                let winner_engine = if c == Color::Sente {
                    self.sente_engine
                } else {
                    1 - self.sente_engine
                };
                if winner_engine == 0 {
                    1.0
                } else {
                    0.0
                }
            }
        }
    }
}

/// Totals of a match.
#[derive(Clone, Debug, Default)]
pub struct MatchSummary {
    /// All games, by schedule index.
    pub games: Vec<MatchGame>,
    /// Wins, losses, draws of engine 0.
    pub tally: Tally,
    /// Pair counts (complete pairs only).
    pub pentanomial: Pentanomial,
    /// The SPRT verdict, when one was asked for.
    pub sprt: Option<(SprtDecision, f64)>,
}

/// The tally and pentanomial of finished games (any order).
pub fn summarize(games: &[MatchGame]) -> (Tally, Pentanomial) {
    let mut tally = Tally::default();
    let mut by_pair: std::collections::BTreeMap<usize, Vec<f64>> = Default::default();
    for g in games {
        let p = g.points_for_first();
        if p == 1.0 {
            tally.wins += 1;
        } else if p == 0.0 {
            tally.losses += 1;
        } else {
            tally.draws += 1;
        }
        by_pair.entry(g.index / 2).or_default().push(p);
    }
    let mut penta = Pentanomial::default();
    for points in by_pair.values().filter(|v| v.len() == 2) {
        penta.add(((points[0] + points[1]) * 2.0).round() as usize);
    }
    (tally, penta)
}

/// Reads an openings file: one USI position per line (`startpos [moves ...]`,
/// `sfen ... [moves ...]` or a bare SFEN); `#` starts a comment. Every line is checked.
pub fn read_openings(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        parse_usi_position(line).map_err(|e| format!("openings line {}: {e}", n + 1))?;
        out.push(line.to_string());
    }
    Ok(out)
}

fn new_game(rules: RuleSet, opening: &str) -> Game {
    match Game::from_usi(rules, opening) {
        Ok(g) => g,
        Err(_) => Game::new(rules),
    }
}

/// Starts an engine and sends it the rule settings it understands.
fn start_engine(spec: &EngineSpec, rules: &RuleSet, timeout: Duration) -> Result<Engine, String> {
    let mut e = Engine::start(spec, timeout).map_err(|err| format!("{}: {err}", spec.name))?;
    let set_by_user = |name: &str| {
        spec.options
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(name))
    };
    if e.offered.iter().any(|o| o == "Rules") && !set_by_user("Rules") {
        let _ = e.send(&format!("setoption name Rules value {}", rules.name()));
    }
    if e.offered.iter().any(|o| o == "MaxPlies") && !set_by_user("MaxPlies") {
        let _ = e.send(&format!(
            "setoption name MaxPlies value {}",
            rules.max_plies.unwrap_or(0)
        ));
    }
    e.ready(timeout)
        .map_err(|err| format!("{}: {err}", spec.name))?;
    Ok(e)
}

/// Makes sure an engine is alive and responsive after a game, restarting it if not.
fn revive(
    slot: &mut Option<Engine>,
    spec: &EngineSpec,
    rules: &RuleSet,
    timeout: Duration,
) -> Result<(), String> {
    let healthy = match slot.as_mut() {
        Some(e) => !e.is_dead() && e.send("stop").is_ok() && e.ready(timeout).is_ok(),
        None => false,
    };
    if !healthy {
        if let Some(e) = slot.take() {
            log::warn!("restarting {}", spec.name);
            drop(e);
        }
        *slot = Some(start_engine(spec, rules, timeout)?);
    }
    Ok(())
}

/// Plays the match. `progress` is called after each game with the games so far.
pub fn run_match(
    config: &MatchConfig,
    progress: &mut dyn FnMut(&[MatchGame]),
) -> Result<MatchSummary, String> {
    let pairs = config.games.div_ceil(2).max(1);
    let total = pairs * 2;
    let openings = if config.openings.is_empty() {
        vec!["startpos".to_string()]
    } else {
        config.openings.clone()
    };
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = channel::<Result<MatchGame, String>>();
    let mut finished: Vec<MatchGame> = Vec::new();
    let mut error = None;
    let mut decision = None;
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.max(1) {
            let tx = tx.clone();
            let (next, stop, openings) = (&next, &stop, &openings);
            scope.spawn(move || {
                let rules = config.settings.rules;
                let mut slots: [Option<Engine>; 2] = [None, None];
                loop {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= total {
                        break;
                    }
                    for (k, slot) in slots.iter_mut().enumerate() {
                        if let Err(e) =
                            revive(slot, &config.engines[k], &rules, config.startup_timeout)
                        {
                            let _ = tx.send(Err(e));
                            return;
                        }
                    }
                    let opening = openings[(index / 2) % openings.len()].clone();
                    let sente_engine = index % 2;
                    let game = new_game(rules, &opening);
                    let [a, b] = &mut slots;
                    let (a, b) = (a.as_mut().expect("alive"), b.as_mut().expect("alive"));
                    let players = if sente_engine == 0 { [a, b] } else { [b, a] };
                    let record = play_game(players, game, &config.settings);
                    if tx
                        .send(Ok(MatchGame {
                            index,
                            sente_engine,
                            opening,
                            record,
                        }))
                        .is_err()
                    {
                        break;
                    }
                }
                for e in slots.into_iter().flatten() {
                    e.shutdown();
                }
            });
        }
        drop(tx);
        for message in rx {
            match message {
                Ok(game) => {
                    finished.push(game);
                    progress(&finished);
                    if let Some(sprt) = &config.sprt {
                        let (_, penta) = summarize(&finished);
                        let d = sprt.decide(&penta);
                        if d != SprtDecision::Continue && decision.is_none() {
                            decision = Some(d);
                            stop.store(true, Ordering::SeqCst);
                        }
                    }
                }
                Err(e) => {
                    error.get_or_insert(e);
                    stop.store(true, Ordering::SeqCst);
                }
            }
        }
    });
    if let Some(e) = error {
        return Err(e);
    }
    finished.sort_by_key(|g| g.index);
    let (tally, pentanomial) = summarize(&finished);
    let sprt = config.sprt.map(|s| {
        (
            decision.unwrap_or_else(|| s.decide(&pentanomial)),
            s.llr(&pentanomial),
        )
    });
    Ok(MatchSummary {
        games: finished,
        tally,
        pentanomial,
        sprt,
    })
}

/// The start position of a rule set, as opening text.
pub fn default_opening(rules: &RuleSet) -> String {
    if rules.start_position() == Position::startpos() {
        "startpos".into()
    } else {
        format!("sfen {}", rules.start_sfen)
    }
}
