//! # gogo-arena
//!
//! Engine-vs-engine minishogi matches over USI. Every move is judged by the gogo rules crate:
//! an illegal move, a malformed line, a time forfeit, a crash or a hang loses the game.
//! Openings are played twice with colours swapped; results are the same in content whatever
//! the concurrency.

#![warn(missing_docs)]

pub mod fuzz_checks;
pub mod record;
pub mod referee;
pub mod report;
pub mod shard;
pub mod spsa;
pub mod stats;

pub use gogo_protocol::EngineSpec;
use gogo_protocol::{EngineClient, GuiCommand};
use gogo_rules::{parse_usi_position, Color, Game, Position, RuleSet};
use referee::{play_game, Ending, GameRecord, GameSettings, PonderRecord};
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
    /// The share of the game pairs to play (the whole match by default).
    pub shard: shard::Shard,
    /// Games of the schedule already played (a shard going on where it stopped): skipped.
    pub done: std::collections::BTreeSet<usize>,
}

/// The opening (an index below `count`) of game pair `pair`: every opening once in each
/// cycle of `count` pairs, in an order shuffled afresh for each cycle from a fixed seed. So
/// the whole match uses the openings evenly, the same for any shard count, and the pairs of
/// one shard (`p % N == I`) meet a spread sample of the openings, not a fixed slice of them.
pub fn opening_of_pair(pair: usize, count: usize) -> usize {
    if count <= 1 {
        return 0;
    }
    let (cycle, at) = (pair / count, pair % count);
    let mut order: Vec<usize> = (0..count).collect();
    let mut rng = gogo_rules::Rng::new(0x6f70_656e_696e_6773 ^ cycle as u64);
    for i in (1..count).rev() {
        order.swap(i, rng.below(i + 1));
    }
    order[at]
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
    /// Which engine (0 or 1) played `color`.
    pub fn engine_of(&self, color: Color) -> usize {
        if color == Color::Sente {
            self.sente_engine
        } else {
            1 - self.sente_engine
        }
    }

    /// The result for engine 0: 1, 0.5 or 0.
    pub fn points_for_first(&self) -> f64 {
        match self.record.ending.winner() {
            None => 0.5,
            Some(c) if self.engine_of(c) == 0 => 1.0,
            Some(_) => 0.0,
        }
    }
}

/// What no engine should ever do, counted for one engine over a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Faults {
    /// Games lost on time.
    pub time_forfeits: usize,
    /// Games lost by an illegal move.
    pub illegal_moves: usize,
    /// Games lost by an unreadable `bestmove` line.
    pub malformed_lines: usize,
    /// Games lost because the process died.
    pub crashes: usize,
}

/// One engine's faults and pondering over a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EngineTotals {
    /// Its faults.
    pub faults: Faults,
    /// Its pondering, summed (the stop wait is the longest of any game).
    pub pondering: PonderRecord,
}

/// The faults and pondering of both engines over `games`, engine 0 first.
pub fn engine_totals(games: &[MatchGame]) -> [EngineTotals; 2] {
    let mut totals = [EngineTotals::default(); 2];
    for g in games {
        match &g.record.ending {
            Ending::Time(c) => totals[g.engine_of(*c)].faults.time_forfeits += 1,
            Ending::IllegalMove(c, _) => totals[g.engine_of(*c)].faults.illegal_moves += 1,
            Ending::Malformed(c, _) => totals[g.engine_of(*c)].faults.malformed_lines += 1,
            Ending::EngineFailure(c, _) => totals[g.engine_of(*c)].faults.crashes += 1,
            _ => {}
        }
        for color in Color::ALL {
            let p = g.record.ponder[color.index()];
            let t = &mut totals[g.engine_of(color)].pondering;
            t.hits += p.hits;
            t.misses += p.misses;
            t.max_stop_ms = t.max_stop_ms.max(p.max_stop_ms);
        }
    }
    totals
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
    /// The SPRT verdict, when one was asked for: the decision, the LLR it was made on (at
    /// the stop, or over every game when the match ran to its end) and the test.
    pub sprt: Option<(SprtDecision, f64, Sprt)>,
    /// How many games had finished when the SPRT stopped the match (games already under way
    /// finish after it and count in the totals, so the LLR of every game can differ).
    pub sprt_stopped_after: Option<usize>,
    /// Faults and pondering by engine, engine 0 first.
    pub totals: [EngineTotals; 2],
    /// The engines' names, engine 0 first.
    pub names: [String; 2],
}

/// The tally and pentanomial of finished games (any order).
pub fn summarize(games: &[MatchGame]) -> (Tally, Pentanomial) {
    tally_pairs(games.iter().map(|g| (g.index, g.points_for_first())))
}

/// The tally and pentanomial of games given as (schedule index, engine 0's points); pairs
/// are the games `2p` and `2p + 1`, counted once both are in.
pub fn tally_pairs(games: impl IntoIterator<Item = (usize, f64)>) -> (Tally, Pentanomial) {
    let mut tally = Tally::default();
    let mut by_pair: std::collections::BTreeMap<usize, Vec<f64>> = Default::default();
    for (index, p) in games {
        if p == 1.0 {
            tally.wins += 1;
        } else if p == 0.0 {
            tally.losses += 1;
        } else {
            tally.draws += 1;
        }
        by_pair.entry(index / 2).or_default().push(p);
    }
    let mut penta = Pentanomial::default();
    for points in by_pair.values().filter(|v| v.len() == 2) {
        penta.add(((points[0] + points[1]) * 2.0).round() as usize);
    }
    (tally, penta)
}

/// Why a match could not be played.
#[derive(Debug)]
pub enum ArenaError {
    /// A line of the openings that is not a position.
    Opening {
        /// Its line number, from 1.
        line: usize,
        /// What is wrong with it.
        error: gogo_rules::SfenError,
    },
    /// An engine that could not be started or made ready.
    Engine {
        /// Its name.
        name: String,
        /// What happened.
        error: gogo_protocol::ClientError,
    },
}

impl std::fmt::Display for ArenaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArenaError::Opening { line, error } => write!(f, "openings line {line}: {error}"),
            ArenaError::Engine { name, error } => write!(f, "{name}: {error}"),
        }
    }
}

impl std::error::Error for ArenaError {}

/// Reads an openings file: one USI position per line (`startpos [moves ...]`,
/// `sfen ... [moves ...]` or a bare SFEN); `#` starts a comment. Every line is checked.
pub fn read_openings(text: &str) -> Result<Vec<String>, ArenaError> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        parse_usi_position(line).map_err(|error| ArenaError::Opening { line: n + 1, error })?;
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

/// Starts an engine and sends it the rule settings it understands, unless its spec sets
/// them.
fn start_engine(
    spec: &EngineSpec,
    rules: &RuleSet,
    timeout: Duration,
) -> Result<EngineClient, ArenaError> {
    let fail = |error| ArenaError::Engine {
        name: spec.name.clone(),
        error,
    };
    let mut e = EngineClient::start(spec, timeout).map_err(fail)?;
    if e.offers("Rules") && spec.option("Rules").is_none() {
        e.set_option("Rules", rules.name()).map_err(fail)?;
    }
    if e.offers("MaxPlies") && spec.option("MaxPlies").is_none() {
        let limit = rules.max_plies.unwrap_or(0).to_string();
        e.set_option("MaxPlies", &limit).map_err(fail)?;
    }
    e.ready(timeout).map_err(fail)?;
    Ok(e)
}

/// Makes sure an engine is alive and responsive after a game, restarting it if not.
fn revive(
    slot: &mut Option<EngineClient>,
    spec: &EngineSpec,
    rules: &RuleSet,
    timeout: Duration,
) -> Result<(), ArenaError> {
    let healthy = match slot.as_mut() {
        Some(e) => e.is_alive() && e.send(&GuiCommand::Stop).is_ok() && e.ready(timeout).is_ok(),
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
) -> Result<MatchSummary, ArenaError> {
    let pairs = config.games.div_ceil(2).max(1);
    let schedule: Vec<usize> = config
        .shard
        .games(pairs * 2)
        .into_iter()
        .filter(|g| !config.done.contains(g))
        .collect();
    let openings = if config.openings.is_empty() {
        vec!["startpos".to_string()]
    } else {
        config.openings.clone()
    };
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = channel::<Result<MatchGame, ArenaError>>();
    let mut finished: Vec<MatchGame> = Vec::new();
    let mut error = None;
    let mut decision = None;
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.max(1) {
            let tx = tx.clone();
            let (next, stop, openings, schedule) = (&next, &stop, &openings, &schedule);
            scope.spawn(move || {
                let rules = config.settings.rules;
                let mut slots: [Option<EngineClient>; 2] = [None, None];
                loop {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let k = next.fetch_add(1, Ordering::SeqCst);
                    let Some(&index) = schedule.get(k) else {
                        break;
                    };
                    for (k, slot) in slots.iter_mut().enumerate() {
                        if let Err(e) =
                            revive(slot, &config.engines[k], &rules, config.startup_timeout)
                        {
                            let _ = tx.send(Err(e));
                            return;
                        }
                    }
                    let opening = openings[opening_of_pair(index / 2, openings.len())].clone();
                    let sente_engine = index % 2;
                    let game = new_game(rules, &opening);
                    let [a, b] = &mut slots;
                    let (a, b) = (a.as_mut().expect("alive"), b.as_mut().expect("alive"));
                    let players = if sente_engine == 0 { [a, b] } else { [b, a] };
                    let record = play_game(players, game, &config.settings);
                    if let Some(side) = record.ending.failed_engine() {
                        // Ended (killed and reaped) now; started again for the next game.
                        let k = if side == Color::Sente {
                            sente_engine
                        } else {
                            1 - sente_engine
                        };
                        slots[k] = None;
                    }
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
                            decision = Some((d, sprt.llr(&penta), finished.len()));
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
    let sprt = config.sprt.map(|s| match decision {
        Some((d, llr, _)) => (d, llr, s),
        None => (s.decide(&pentanomial), s.llr(&pentanomial), s),
    });
    let totals = engine_totals(&finished);
    Ok(MatchSummary {
        games: finished,
        tally,
        pentanomial,
        sprt,
        sprt_stopped_after: decision.map(|(_, _, games)| games),
        totals,
        names: config.engines.clone().map(|e| e.name),
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

#[cfg(test)]
mod tests {
    #[test]
    fn openings_are_spread_over_shards_and_used_evenly() {
        let count = 40;
        // Each cycle of pairs uses every opening once.
        for cycle in 0..3 {
            let mut seen: Vec<usize> = (0..count)
                .map(|at| super::opening_of_pair(cycle * count + at, count))
                .collect();
            seen.sort_unstable();
            assert_eq!(seen, (0..count).collect::<Vec<_>>());
        }
        // A shard of 16 over 400 pairs meets openings from the whole set, not one residue.
        let shard: std::collections::BTreeSet<usize> = (0..400)
            .filter(|p| p % 16 == 3)
            .map(|p| super::opening_of_pair(p, count))
            .collect();
        assert!(shard.len() >= 15, "{shard:?}");
        let residues: std::collections::BTreeSet<usize> = shard.iter().map(|o| o % 16).collect();
        assert!(residues.len() > 8, "{residues:?}");
        assert_eq!(super::opening_of_pair(5, 1), 0);
    }
}
