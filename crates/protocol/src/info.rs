//! `info` lines: what an engine tells about its search while it runs.

use crate::error::{err, ParseMessageError};
use gogo_rules::Move;
use std::fmt;
use std::str::FromStr;

/// A score in an `info` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InfoScore {
    /// `score cp <n>`
    Centipawns(i32),
    /// `score mate <n>` (negative: being mated)
    Mate(i32),
}

/// Which side of the true score an `info` score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// `lowerbound`
    Lower,
    /// `upperbound`
    Upper,
}

/// Win, draw and loss chances for the side to move, per mille (`wdl W D L`, as Stockfish
/// and Fairy-Stockfish print when asked with `UCI_ShowWDL`/`USI_ShowWDL`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    /// Wins per mille.
    pub win: u32,
    /// Draws per mille.
    pub draw: u32,
    /// Losses per mille.
    pub loss: u32,
}

impl Wdl {
    /// The chances a score means when `1 / (1 + e^(-cp / scale))` is the expected result of
    /// a centipawn score (the logistic fit of an evaluation's scores to game results) and
    /// draws are left out, as they nearly are in minishogi; a mate is won or lost.
    pub fn from_score(score: InfoScore, scale: f64) -> Wdl {
        let win = match score {
            InfoScore::Centipawns(cp) => {
                let chance = 1.0 / (1.0 + (-(cp as f64) / scale).exp());
                (chance * 1000.0).round().clamp(0.0, 1000.0) as u32
            }
            InfoScore::Mate(n) if n > 0 => 1000,
            InfoScore::Mate(_) => 0,
        };
        Wdl {
            win,
            draw: 0,
            loss: 1000 - win,
        }
    }

    /// The expected result for the side to move, 0 to 1 (a draw counts half), whatever the
    /// three numbers add up to; `None` when they add up to nothing.
    pub fn expected(self) -> Option<f64> {
        let total = u64::from(self.win) + u64::from(self.draw) + u64::from(self.loss);
        (total > 0).then(|| (self.win as f64 + self.draw as f64 / 2.0) / total as f64)
    }
}

/// The fields of an `info` line (all optional; `string` stands alone).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// `depth`
    pub depth: Option<u32>,
    /// `seldepth`
    pub seldepth: Option<u32>,
    /// `multipv`
    pub multipv: Option<u32>,
    /// `score`
    pub score: Option<InfoScore>,
    /// `lowerbound` / `upperbound`
    pub bound: Option<ScoreBound>,
    /// `wdl W D L`
    pub wdl: Option<Wdl>,
    /// `nodes`
    pub nodes: Option<u64>,
    /// `nps`
    pub nps: Option<u64>,
    /// `time` (ms)
    pub time: Option<u64>,
    /// `hashfull` (permille)
    pub hashfull: Option<u32>,
    /// `pv`
    pub pv: Vec<Move>,
    /// `string`: free text to the end of the line.
    pub string: Option<String>,
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        let numbers = [
            ("depth", self.depth.map(u64::from)),
            ("seldepth", self.seldepth.map(u64::from)),
            ("multipv", self.multipv.map(u64::from)),
        ];
        for (name, v) in numbers {
            if let Some(v) = v {
                write!(f, " {name} {v}")?;
            }
        }
        match self.score {
            Some(InfoScore::Centipawns(cp)) => write!(f, " score cp {cp}")?,
            Some(InfoScore::Mate(n)) => write!(f, " score mate {n}")?,
            None => {}
        }
        match self.bound {
            Some(ScoreBound::Lower) => f.write_str(" lowerbound")?,
            Some(ScoreBound::Upper) => f.write_str(" upperbound")?,
            None => {}
        }
        if let Some(Wdl { win, draw, loss }) = self.wdl {
            write!(f, " wdl {win} {draw} {loss}")?;
        }
        let numbers = [
            ("nodes", self.nodes),
            ("nps", self.nps),
            ("time", self.time),
            ("hashfull", self.hashfull.map(u64::from)),
        ];
        for (name, v) in numbers {
            if let Some(v) = v {
                write!(f, " {name} {v}")?;
            }
        }
        if !self.pv.is_empty() {
            f.write_str(" pv")?;
            for mv in &self.pv {
                write!(f, " {mv}")?;
            }
        }
        // `string` runs to the end of the line, so it comes last.
        if let Some(text) = &self.string {
            write!(f, " string {text}")?;
        }
        Ok(())
    }
}

impl FromStr for Info {
    type Err = ParseMessageError;

    /// Reads the words after `info`. Unknown fields are skipped with their value, as the
    /// protocol allows engines to send more than it names.
    fn from_str(text: &str) -> Result<Info, ParseMessageError> {
        let text = text.trim();
        if let Some(s) = text.strip_prefix("string") {
            if s.is_empty() || s.starts_with(' ') {
                return Ok(Info {
                    string: Some(s.trim_start().to_string()),
                    ..Info::default()
                });
            }
        }
        let words: Vec<&str> = text.split_whitespace().collect();
        let mut info = Info::default();
        let mut i = 0;
        fn num<T: FromStr>(words: &[&str], i: usize, name: &str) -> Result<T, ParseMessageError> {
            words
                .get(i + 1)
                .and_then(|w| w.parse().ok())
                .ok_or_else(|| ParseMessageError(format!("info {name}: bad or missing number")))
        }
        while i < words.len() {
            let w = words[i];
            match w {
                "depth" => info.depth = Some(num(&words, i, w)?),
                "seldepth" => info.seldepth = Some(num(&words, i, w)?),
                "multipv" => info.multipv = Some(num(&words, i, w)?),
                "nodes" => info.nodes = Some(num(&words, i, w)?),
                "nps" => info.nps = Some(num(&words, i, w)?),
                "time" => info.time = Some(num(&words, i, w)?),
                "hashfull" => info.hashfull = Some(num(&words, i, w)?),
                "score" => {
                    let kind = words.get(i + 1).copied();
                    let value: i32 = num(&words, i + 1, "score")?;
                    info.score = Some(match kind {
                        Some("cp") => InfoScore::Centipawns(value),
                        Some("mate") => InfoScore::Mate(value),
                        _ => return err("info score: expected cp or mate"),
                    });
                    i += 1;
                }
                "wdl" => {
                    info.wdl = Some(Wdl {
                        win: num(&words, i, "wdl")?,
                        draw: num(&words, i + 1, "wdl")?,
                        loss: num(&words, i + 2, "wdl")?,
                    });
                    i += 4;
                    continue;
                }
                "lowerbound" => {
                    info.bound = Some(ScoreBound::Lower);
                    i += 1;
                    continue;
                }
                "upperbound" => {
                    info.bound = Some(ScoreBound::Upper);
                    i += 1;
                    continue;
                }
                "pv" => {
                    for mv in &words[i + 1..] {
                        info.pv.push(
                            mv.parse()
                                .map_err(|e| ParseMessageError(format!("info pv: {e}")))?,
                        );
                    }
                    break;
                }
                "string" => {
                    // The rest of the line, exactly as sent (found by fuzzing: joining the
                    // words changed unusual white space).
                    let offset = w.as_ptr() as usize - text.as_ptr() as usize + w.len();
                    info.string = Some(text[offset..].trim_start().to_string());
                    break;
                }
                _ => {}
            }
            i += 2;
        }
        Ok(info)
    }
}
