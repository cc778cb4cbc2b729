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
        (0..total)
            .filter(|g| (g / 2) % self.count.max(1) == self.index)
            .collect()
    }
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

/// Merges the JSON lines of the shards (`gogo-arena --jsonl`, one text a file). A game in
/// two files must be the same game; engine names must agree.
pub fn merge(texts: &[String]) -> Result<Merged, MergeError> {
    let mut names: Option<[String; 2]> = None;
    let mut games: BTreeMap<usize, MergedGame> = BTreeMap::new();
    for (f, text) in texts.iter().enumerate() {
        for (l, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let error = |what: String| MergeError {
                file: f + 1,
                line: l + 1,
                what,
            };
            let v: serde_json::Value =
                serde_json::from_str(line).map_err(|e| error(format!("not JSON: {e}")))?;
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
            let game = MergedGame {
                index,
                points,
                reason: field("reason")?,
            };
            if let Some(seen) = games.get(&index) {
                if *seen != game {
                    return Err(error(format!(
                        "game {} differs from an earlier copy",
                        index + 1
                    )));
                }
            }
            games.insert(index, game);
        }
    }
    let games: Vec<MergedGame> = games.into_values().collect();
    let (tally, pentanomial) = tally_pairs(games.iter().map(|g| (g.index, g.points)));
    Ok(Merged {
        names: names.unwrap_or_default(),
        games,
        tally,
        pentanomial,
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
        let conflicting = line(1, "A", "B", "0-1");
        assert!(merge(&[a.clone(), conflicting]).is_err());
        let other_engine = line(3, "A", "C", "1-0");
        assert!(merge(&[a, other_engine]).is_err());
        assert!(merge(&["{".to_string()]).is_err());
    }
}
