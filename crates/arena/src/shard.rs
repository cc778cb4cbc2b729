//! Matches spread over machines: a [`Shard`] plays only its share of the game pairs, the
//! same ones whatever machine runs it, and writes them as JSON lines; [`merge`] reads the
//! shards' lines back and gives the standing of the whole match. A job array on an existing
//! scheduler (GNU parallel over ssh, Slurm's `--array`) runs the shards.

use crate::stats::{Pentanomial, Tally};
use crate::tally_pairs;
use std::collections::BTreeMap;
use std::fmt;

/// Shard `index` (from 0) of `count`: the game pairs `p` with `p % count == index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which share, from 0.
    pub index: usize,
    /// Shares in all.
    pub count: usize,
}

impl Default for Shard {
    /// The whole match.
    fn default() -> Shard {
        Shard { index: 0, count: 1 }
    }
}

/// A shard's text that is not `I/N` with I from 1 to N; holds the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseShardError(pub String);

impl fmt::Display for ParseShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "shard '{}': I/N with I from 1 to N", self.0)
    }
}

impl std::error::Error for ParseShardError {}

impl std::str::FromStr for Shard {
    type Err = ParseShardError;

    /// `I/N`, I from 1 to N.
    fn from_str(text: &str) -> Result<Shard, ParseShardError> {
        let bad = || ParseShardError(text.to_string());
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (i, n): (usize, usize) = (i.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
        if i == 0 || i > n {
            return Err(bad());
        }
        Ok(Shard {
            index: i - 1,
            count: n,
        })
    }
}

impl Shard {
    /// The schedule indices of this shard's games in a match of `total` games (both games of
    /// each of its pairs, in order).
    pub fn games(&self, total: usize) -> Vec<usize> {
        (0..total).filter(|&g| self.holds(g)).collect()
    }

    /// Whether the game of schedule index `game` is this shard's.
    pub fn holds(&self, game: usize) -> bool {
        (game / 2) % self.count.max(1) == self.index
    }
}

/// The first line of a match's JSON lines: which run the games belong to. Shards of one run
/// carry the same `run` (a hash of everything that makes the match what it is: the engines,
/// their options and their binaries' checksums, the time control and the game settings, the
/// openings, the number of games) and differ only in `shard`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunHeader {
    /// The run's identity, hex.
    pub run: String,
    /// Games in the whole match.
    pub games: usize,
    /// Which shard this file is.
    pub shard: Shard,
    /// The settings hashed, in words, for a person reading the file.
    pub settings: String,
}

impl RunHeader {
    /// The header of a run whose settings read `settings` (what is hashed) with `games`
    /// games, for `shard`.
    pub fn new(settings: String, games: usize, shard: Shard) -> RunHeader {
        RunHeader {
            run: format!("{:016x}", fnv1a(settings.as_bytes())),
            games,
            shard,
            settings,
        }
    }

    /// The JSON line (without its newline).
    pub fn json_line(&self) -> String {
        serde_json::json!({"header": {
            "run": self.run,
            "games": self.games,
            "shard": format!("{}/{}", self.shard.index + 1, self.shard.count),
            "settings": self.settings,
        }})
        .to_string()
    }

    /// Reads a header line; `None` if the line is not one.
    pub fn from_json(v: &serde_json::Value) -> Option<Result<RunHeader, String>> {
        let h = v.get("header")?;
        Some((|| {
            let run = h["run"]
                .as_str()
                .ok_or("a header without \"run\"")?
                .to_string();
            let games = h["games"].as_u64().ok_or("a header without \"games\"")? as usize;
            let shard: Shard = h["shard"]
                .as_str()
                .ok_or("a header without \"shard\"")?
                .parse()
                .map_err(|e: ParseShardError| e.to_string())?;
            // A header from outside sizes what merge lists: within the runs the arena plays.
            if games > MAX_RUN_GAMES || shard.count > games.div_ceil(2).max(1) {
                return Err(format!(
                    "a header of {games} games in {} shards: at most {MAX_RUN_GAMES} games, and no more shards than pairs",
                    shard.count
                ));
            }
            let settings = h["settings"].as_str().unwrap_or_default().to_string();
            Ok(RunHeader {
                run,
                games,
                shard,
                settings,
            })
        })())
    }
}

/// The most games one run may have (`gogo-arena --games`), so that a header read from a file
/// cannot make `merge` list billions of missing games.
pub const MAX_RUN_GAMES: usize = 1_000_000;

/// How a game's reason begins when an engine's process ended during it.
const ENGINE_PROCESS_ENDED: &str = "the engine process ended";

/// The games an earlier run of this very shard left in its JSON lines `text` (index, line),
/// for a run that goes on where it stopped: its torn last line dropped, and a game whose
/// engine's process ended played again (a cancelled or preempted job kills the engines
/// first, and the arena records the game as a forfeit before it dies too). Empty text keeps
/// nothing; the text of another run or shard is refused, since writing over it would lose it.
pub fn kept_games(text: &str, header: &RunHeader) -> Result<Vec<(usize, String)>, String> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let mut lines = text.lines();
    let first: serde_json::Value =
        serde_json::from_str(lines.next().unwrap_or_default()).map_err(|_| {
            "holds something else than this run's games: move it away first".to_string()
        })?;
    match RunHeader::from_json(&first) {
        Some(Ok(h)) if h.run == header.run && h.shard == header.shard => {}
        _ => {
            return Err(format!(
                "holds games of another run (or another shard): move it away first; this run is {}",
                header.run
            ))
        }
    }
    let mut kept = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for line in lines {
        // A line cut off mid-write is not a game.
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if v["reason"]
            .as_str()
            .is_some_and(|r| r.starts_with(ENGINE_PROCESS_ENDED))
        {
            continue;
        }
        if let Some(g) = v["game"].as_u64().filter(|&g| g >= 1) {
            if seen.insert(g) {
                kept.push((g as usize - 1, line.to_string()));
            }
        }
    }
    Ok(kept)
}

/// FNV-1a, 64 bits: a stable hash for the run's identity (std's hasher may change between
/// Rust versions, and shards may be built apart).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A game as the JSON lines give it back.
#[derive(Clone, Debug, PartialEq)]
pub struct MergedGame {
    /// Its index in the whole match's schedule.
    pub index: usize,
    /// Engine 0's points: 1, 0.5 or 0.
    pub points: f64,
    /// Why it ended.
    pub reason: String,
    /// Its moves (USI): two copies of a game are the same game only if they agree.
    pub moves: Vec<String>,
}

/// Whether the merged files make the whole run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Completeness {
    /// The run and its size, where the files have headers (files of older builds do not).
    pub run: Option<(String, usize, usize)>,
    /// Shards (from 1) no file holds.
    pub missing_shards: Vec<usize>,
    /// Games (from 1) of the run that no file holds, the missing shards' included.
    pub missing_games: Vec<usize>,
    /// Half-written last lines skipped: file and line (from 1).
    pub torn_lines: Vec<(usize, usize)>,
    /// Games found twice with different moves (the first copy kept), from 1.
    pub differing_copies: Vec<usize>,
}

impl Completeness {
    /// Whether every game of the run is there (known only with headers).
    pub fn is_complete(&self) -> bool {
        self.run.is_some() && self.missing_games.is_empty()
    }
}

/// The whole match, merged.
#[derive(Clone, Debug)]
pub struct Merged {
    /// The engines, engine 0 (Sente in the first game of each pair) first.
    pub names: [String; 2],
    /// Every game, by schedule index.
    pub games: Vec<MergedGame>,
    /// Engine 0's wins, losses and draws.
    pub tally: Tally,
    /// Pairs by engine 0's points.
    pub pentanomial: Pentanomial,
    /// What is missing, if anything.
    pub completeness: Completeness,
}

/// A JSON line that cannot be merged.
#[derive(Clone, Debug, PartialEq)]
pub struct MergeError {
    /// Which file (its position among those given, from 1) and line (from 1).
    pub file: usize,
    /// See [`MergeError::file`].
    pub line: usize,
    /// What is wrong.
    pub what: String,
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "file {}, line {}: {}", self.file, self.line, self.what)
    }
}

impl std::error::Error for MergeError {}

/// Merges the JSON lines of the shards (`gogo-arena --jsonl`, one text a file): refuses
/// files of different runs (their headers differ) or engines; keeps one copy of a game found
/// twice (a rerun shard: the same moves, or the first copy if they differ, as a shard rerun
/// under `movetime` plays other moves); skips a file's half-written last line (a node that
/// died mid-write); and says which shards and games are missing.
pub fn merge(texts: &[String]) -> Result<Merged, MergeError> {
    let mut names: Option<[String; 2]> = None;
    let mut games: BTreeMap<usize, MergedGame> = BTreeMap::new();
    let mut completeness = Completeness::default();
    let mut header: Option<RunHeader> = None;
    let mut shards_seen = std::collections::BTreeSet::new();
    let mut headerless = 0;
    for (f, text) in texts.iter().enumerate() {
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .collect();
        let mut has_header = false;
        // This file's shard, once its header is read: its games must be of it.
        let mut file_shard: Option<Shard> = None;
        for (n, &(l, line)) in lines.iter().enumerate() {
            let error = |what: String| MergeError {
                file: f + 1,
                line: l + 1,
                what,
            };
            let v: serde_json::Value = match serde_json::from_str(line) {
                Ok(v) => v,
                // The last line of a file that does not end its line: cut off mid-write.
                Err(_) if n + 1 == lines.len() && !text.ends_with('\n') => {
                    completeness.torn_lines.push((f + 1, l + 1));
                    continue;
                }
                Err(e) => return Err(error(format!("not JSON: {e}"))),
            };
            if let Some(h) = RunHeader::from_json(&v) {
                let h = h.map_err(error)?;
                if has_header {
                    return Err(error("a second run header in one file".into()));
                }
                if n > 0 {
                    return Err(error(
                        "a run header after games: it must be the first line".into(),
                    ));
                }
                file_shard = Some(h.shard);
                if let Some(first) = &header {
                    if first.run != h.run
                        || first.games != h.games
                        || first.shard.count != h.shard.count
                    {
                        return Err(error(format!(
                            "a shard of another run ({}, {} games in {} shards; the first file's is {}, {} games in {} shards): {}",
                            h.run, h.games, h.shard.count, first.run, first.games, first.shard.count, h.settings
                        )));
                    }
                }
                shards_seen.insert(h.shard.index);
                header.get_or_insert(h);
                has_header = true;
                continue;
            }
            let field = |key: &str| {
                v[key]
                    .as_str()
                    .map(str::to_string)
                    .ok_or_else(|| error(format!("no \"{key}\"")))
            };
            let index = v["game"]
                .as_u64()
                .filter(|&g| g >= 1)
                .ok_or_else(|| error("no \"game\" number".into()))?
                as usize
                - 1;
            if let (Some(shard), Some(h)) = (file_shard, &header) {
                if index >= h.games {
                    return Err(error(format!(
                        "game {} is outside the run's {} games",
                        index + 1,
                        h.games
                    )));
                }
                if !shard.holds(index) {
                    return Err(error(format!(
                        "game {} is not of shard {}/{}, which this file's header names",
                        index + 1,
                        shard.index + 1,
                        shard.count
                    )));
                }
            }
            let (sente, gote) = (field("sente")?, field("gote")?);
            // Engine 0 is Sente in the first game of each pair.
            let pair_names = if index.is_multiple_of(2) {
                [sente.clone(), gote.clone()]
            } else {
                [gote.clone(), sente.clone()]
            };
            match &names {
                None => names = Some(pair_names),
                Some(n) if *n == pair_names => {}
                Some(n) => {
                    return Err(error(format!(
                        "engines {} and {}, not {} and {}",
                        pair_names[0], pair_names[1], n[0], n[1]
                    )))
                }
            }
            let first_is_sente = index.is_multiple_of(2);
            let points = match field("result")?.as_str() {
                "1-0" if first_is_sente => 1.0,
                "0-1" if !first_is_sente => 1.0,
                "1-0" | "0-1" => 0.0,
                "1/2-1/2" => 0.5,
                other => return Err(error(format!("result '{other}'"))),
            };
            let moves = v["moves"]
                .as_array()
                .map(|m| {
                    m.iter()
                        .filter_map(|x| x.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default();
            let game = MergedGame {
                index,
                points,
                reason: field("reason")?,
                moves,
            };
            match games.get(&index) {
                Some(seen) if *seen == game => {}
                Some(_) => completeness.differing_copies.push(index + 1),
                None => {
                    games.insert(index, game);
                }
            }
        }
        if !has_header {
            headerless += 1;
        }
    }
    if let Some(h) = &header {
        if headerless > 0 {
            return Err(MergeError {
                file: 0,
                line: 0,
                what: format!(
                    "{headerless} file(s) without a run header beside files of run {}",
                    h.run
                ),
            });
        }
        completeness.run = Some((h.run.clone(), h.games, h.shard.count));
        completeness.missing_shards = (0..h.shard.count)
            .filter(|i| !shards_seen.contains(i))
            .map(|i| i + 1)
            .collect();
        completeness.missing_games = (0..h.games)
            .filter(|g| !games.contains_key(g))
            .map(|g| g + 1)
            .collect();
    }
    completeness.differing_copies.sort_unstable();
    completeness.differing_copies.dedup();
    let games: Vec<MergedGame> = games.into_values().collect();
    let (tally, pentanomial) = tally_pairs(games.iter().map(|g| (g.index, g.points)));
    Ok(Merged {
        names: names.unwrap_or_default(),
        games,
        tally,
        pentanomial,
        completeness,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_pairs_and_read_their_names() {
        let shard: Shard = "2/3".parse().unwrap();
        assert_eq!(shard, Shard { index: 1, count: 3 });
        assert_eq!(shard.games(12), vec![2, 3, 8, 9]);
        let all: Vec<usize> = (1..=3)
            .flat_map(|i| format!("{i}/3").parse::<Shard>().unwrap().games(12))
            .collect();
        let mut sorted = all.clone();
        sorted.sort();
        assert_eq!(sorted, (0..12).collect::<Vec<_>>());
        for bad in ["0/3", "4/3", "1", "a/b", "1/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn merging_counts_pairs_and_refuses_conflicts() {
        let line = |g: usize, s: &str, w: &str, r: &str| {
            format!(
                r#"{{"game":{g},"sente":"{s}","gote":"{w}","result":"{r}","reason":"checkmate"}}"#
            )
        };
        let a = [line(1, "A", "B", "1-0"), line(2, "B", "A", "1-0")].join("\n");
        let b = line(3, "A", "B", "1/2-1/2") + "\n" + &line(4, "B", "A", "0-1");
        let m = merge(&[a.clone(), b]).unwrap();
        assert_eq!(m.names, ["A".to_string(), "B".to_string()]);
        assert_eq!((m.tally.wins, m.tally.losses, m.tally.draws), (2, 1, 1));
        // Pair 1: 1 + 0 = 1 point; pair 2: 0.5 + 1 = 1.5 points.
        assert_eq!(m.pentanomial.0, [0, 0, 1, 1, 0]);
        // A second copy that differs (a shard rerun under movetime): the first is kept.
        let conflicting = line(1, "A", "B", "0-1");
        let m = merge(&[a.clone(), conflicting]).unwrap();
        assert_eq!(m.completeness.differing_copies, [1]);
        assert_eq!((m.tally.wins, m.tally.losses), (1, 1));
        let other_engine = line(3, "A", "C", "1-0");
        assert!(merge(&[a.clone(), other_engine]).is_err());
        // A bad line inside a file is an error; a torn last line is skipped and said.
        assert!(merge(&["{\n".to_string()]).is_err());
        let torn = format!("{a}\n{{\"game\":3,\"sen");
        let m = merge(&[torn]).unwrap();
        assert_eq!(m.completeness.torn_lines, [(1, 3)]);
        assert_eq!(m.games.len(), 2);
    }

    #[test]
    fn headers_say_whether_the_run_is_whole_and_refuse_other_runs() {
        let game = |g: usize| {
            let (s, w) = if g % 2 == 1 { ("A", "B") } else { ("B", "A") };
            format!(
                r#"{{"game":{g},"sente":"{s}","gote":"{w}","result":"1-0","reason":"checkmate","moves":["2e3d"]}}"#
            )
        };
        let header = |settings: &str, shard: &str| {
            RunHeader::new(settings.into(), 8, shard.parse().unwrap()).json_line()
        };
        // 8 games in 2 shards: shard 1 has pairs 0 and 2 (games 1, 2, 5, 6).
        let one = [header("tc=40", "1/2"), game(1), game(2), game(5), game(6)].join("\n") + "\n";
        let two = [header("tc=40", "2/2"), game(3), game(4), game(7)].join("\n") + "\n";
        let m = merge(std::slice::from_ref(&one)).unwrap();
        assert_eq!(m.completeness.missing_shards, [2]);
        assert_eq!(m.completeness.missing_games, [3, 4, 7, 8]);
        assert!(!m.completeness.is_complete());
        let m = merge(&[one.clone(), two.clone()]).unwrap();
        assert_eq!(m.completeness.missing_shards, Vec::<usize>::new());
        assert_eq!(m.completeness.missing_games, [8]);
        let whole = two.clone() + &game(8) + "\n";
        assert!(merge(&[one.clone(), whole.clone()])
            .unwrap()
            .completeness
            .is_complete());
        // The same shard twice with the same moves: duplicates, not more games.
        let m = merge(&[one.clone(), one.clone(), whole]).unwrap();
        assert_eq!(m.games.len(), 8);
        assert!(m.completeness.differing_copies.is_empty());
        // Another run's shard (another time control) is refused, and so is a file without a
        // header beside files with one.
        let other = [header("tc=100", "2/2"), game(3)].join("\n") + "\n";
        let error = merge(&[one.clone(), other]).unwrap_err();
        assert!(error.what.contains("another run"), "{error}");
        assert!(merge(&[one, game(3) + "\n"]).is_err());
        // A header past the limits is refused, not sized from.
        let huge = r#"{"header":{"games":8,"run":"x","settings":"","shard":"1/2222222222001"}}"#;
        assert!(merge(&[huge.to_string() + "\n"]).is_err());
        let many = format!(
            r#"{{"header":{{"games":{},"run":"x","settings":"","shard":"1/1"}}}}"#,
            MAX_RUN_GAMES + 1
        );
        assert!(merge(&[many + "\n"]).is_err());
        // Issue 54: games outside the header's run, or a second header, are refused with
        // their line: a header for 8 games does not score a ninth, nor game 2^64-1, and
        // one file cannot speak for two shards.
        let ninth = [header("tc=40", "1/1"), game(9)].join("\n") + "\n";
        let error = merge(&[ninth]).unwrap_err();
        assert!(error.what.contains("outside the run's 8 games"), "{error}");
        assert_eq!(error.line, 2);
        let last = header("tc=40", "1/1")
            + "\n"
            + &game(1).replace("\"game\":1", "\"game\":18446744073709551615")
            + "\n";
        assert!(merge(&[last]).is_err());
        let two_headers = [
            header("tc=40", "1/2"),
            game(1),
            header("tc=40", "2/2"),
            game(3),
        ]
        .join("\n")
            + "\n";
        let error = merge(&[two_headers]).unwrap_err();
        assert!(error.what.contains("second run header"), "{error}");
        assert_eq!(error.line, 3);
        let other_shard = [header("tc=40", "1/2"), game(3)].join("\n") + "\n";
        assert!(merge(&[other_shard])
            .unwrap_err()
            .what
            .contains("not of shard 1/2"));
        // An empty file (an engine that never started) is a missing shard, not a success.
        let empty = merge(&[String::new()]).unwrap();
        assert!(!empty.completeness.is_complete());
    }
}
