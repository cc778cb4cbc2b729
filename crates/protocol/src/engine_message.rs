//! What an engine sends to a GUI: [`EngineMessage`].

use crate::error::{err, ParseMessageError};
use crate::info::Info;
use gogo_rules::Move;
use std::fmt;
use std::str::FromStr;

/// The type of an engine option, with its default and limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `type check default <bool>`
    Check(bool),
    /// `type spin default <n> min <n> max <n>`
    Spin {
        /// The value until the GUI sets another.
        default: i64,
        /// The smallest value allowed.
        min: i64,
        /// The largest value allowed.
        max: i64,
    },
    /// `type combo default <v> var <v> ...`
    Combo {
        /// The value until the GUI sets another.
        default: String,
        /// The values allowed.
        vars: Vec<String>,
    },
    /// `type string default <text>`
    String(String),
    /// `type filename default <path>` (a file the engine reads, such as a network).
    Filename(String),
    /// `type button`
    Button,
}

impl OptionKind {
    /// The bytes of text it holds (values, defaults), to bound what an engine can make a
    /// client keep.
    pub fn text_len(&self) -> usize {
        match self {
            OptionKind::Check(_) | OptionKind::Spin { .. } | OptionKind::Button => 0,
            OptionKind::Combo { default, vars } => {
                default.len() + vars.iter().map(String::len).sum::<usize>()
            }
            OptionKind::String(text) | OptionKind::Filename(text) => text.len(),
        }
    }
}

/// The first word after `bestmove`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BestMove {
    /// A move to play.
    Move(Move),
    /// `resign`.
    Resign,
    /// `win`: the engine declares a win (entering-king rules; no minishogi rule allows it).
    Win,
}

/// The answer to `go mate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Checkmate {
    /// `checkmate <moves>`: the mating line, the attacker's moves all checks.
    Mate(Vec<Move>),
    /// `checkmate nomate`: the position has no mate by checks.
    NoMate,
    /// `checkmate timeout`: no answer within the time given.
    Timeout,
    /// `checkmate notimplemented`: the engine has no mate search.
    NotImplemented,
}

/// A message from the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineMessage {
    /// `id name <name>`
    IdName(String),
    /// `id author <author>`
    IdAuthor(String),
    /// `usiok`: the end of the answer to `usi`.
    UsiOk,
    /// `readyok`: the answer to `isready`.
    ReadyOk,
    /// `option name <name> type ...`
    Option {
        /// The name `setoption` uses.
        name: String,
        /// Type, default and limits.
        kind: OptionKind,
    },
    /// `info ...`
    Info(Info),
    /// `bestmove <move>|resign|win [ponder <move>]`: the answer to `go`.
    BestMove {
        /// The move, or a resignation.
        best: BestMove,
        /// The reply the engine expects, to ponder on.
        ponder: Option<Move>,
    },
    /// `checkmate ...`: the answer to `go mate`.
    Checkmate(Checkmate),
}

impl fmt::Display for OptionKind {
    /// The words after `type`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionKind::Check(d) => write!(f, "check default {d}"),
            OptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                for v in vars {
                    write!(f, " var {v}")?;
                }
                Ok(())
            }
            OptionKind::String(d) => write!(f, "string default {d}"),
            OptionKind::Filename(d) => write!(f, "filename default {d}"),
            OptionKind::Button => f.write_str("button"),
        }
    }
}

impl fmt::Display for EngineMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineMessage::IdName(n) => write!(f, "id name {n}"),
            EngineMessage::IdAuthor(a) => write!(f, "id author {a}"),
            EngineMessage::UsiOk => f.write_str("usiok"),
            EngineMessage::ReadyOk => f.write_str("readyok"),
            EngineMessage::Info(info) => info.fmt(f),
            EngineMessage::BestMove { best, ponder } => {
                match best {
                    BestMove::Move(mv) => write!(f, "bestmove {mv}")?,
                    BestMove::Resign => f.write_str("bestmove resign")?,
                    BestMove::Win => f.write_str("bestmove win")?,
                }
                if let (BestMove::Move(_), Some(p)) = (best, ponder) {
                    write!(f, " ponder {p}")?;
                }
                Ok(())
            }
            EngineMessage::Checkmate(answer) => {
                f.write_str("checkmate")?;
                match answer {
                    Checkmate::Mate(moves) => {
                        for mv in moves {
                            write!(f, " {mv}")?;
                        }
                        Ok(())
                    }
                    Checkmate::NoMate => f.write_str(" nomate"),
                    Checkmate::Timeout => f.write_str(" timeout"),
                    Checkmate::NotImplemented => f.write_str(" notimplemented"),
                }
            }
            EngineMessage::Option { name, kind } => write!(f, "option name {name} type {kind}"),
        }
    }
}

fn parse_move(text: &str, context: &str) -> Result<Move, ParseMessageError> {
    text.parse()
        .map_err(|e| ParseMessageError(format!("{context}: {e}")))
}

fn parse_best_move(rest: &str) -> Result<EngineMessage, ParseMessageError> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let best = match words.first() {
        Some(&"resign") => BestMove::Resign,
        Some(&"win") => BestMove::Win,
        Some(w) => BestMove::Move(parse_move(w, "bestmove")?),
        None => return err("bestmove: missing move"),
    };
    let ponder = match &words[1..] {
        ["ponder", p] if matches!(best, BestMove::Move(_)) => {
            Some(parse_move(p, "bestmove ponder")?)
        }
        [] => None,
        other => return err(format!("bestmove: unexpected '{}'", other.join(" "))),
    };
    Ok(EngineMessage::BestMove { best, ponder })
}

fn parse_checkmate(rest: &str) -> Result<EngineMessage, ParseMessageError> {
    Ok(EngineMessage::Checkmate(match rest {
        "nomate" => Checkmate::NoMate,
        "timeout" => Checkmate::Timeout,
        "notimplemented" => Checkmate::NotImplemented,
        "" => return err("checkmate: missing moves or nomate, timeout, notimplemented"),
        moves => Checkmate::Mate(
            moves
                .split_whitespace()
                .map(|m| parse_move(m, "checkmate"))
                .collect::<Result<_, _>>()?,
        ),
    }))
}

fn parse_option(rest: &str) -> Result<EngineMessage, ParseMessageError> {
    let Some(rest) = rest.strip_prefix("name ") else {
        return err("option: expected 'name'");
    };
    let Some((name, spec)) = rest.split_once(" type ") else {
        return err("option: expected 'type'");
    };
    let words: Vec<&str> = spec.split_whitespace().collect();
    let field = |key: &str| -> Option<&str> {
        words
            .iter()
            .position(|w| *w == key)
            .and_then(|i| words.get(i + 1).copied())
    };
    let number = |key: &str| -> Result<i64, ParseMessageError> {
        field(key)
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| ParseMessageError(format!("option {name}: bad {key}")))
    };
    let text_default = || {
        spec.split_once("default")
            .map_or("", |(_, d)| d.trim())
            .to_string()
    };
    let kind = match words.first() {
        Some(&"check") => OptionKind::Check(match field("default") {
            Some("true") => true,
            Some("false") => false,
            _ => {
                return err(format!(
                    "option {name}: check without true or false default"
                ))
            }
        }),
        Some(&"spin") => OptionKind::Spin {
            default: number("default")?,
            min: number("min")?,
            max: number("max")?,
        },
        Some(&"combo") => OptionKind::Combo {
            // Found by fuzzing: a combo without a default must not read as one whose
            // default is empty (it would print as something else).
            default: field("default")
                .filter(|d| *d != "var")
                .ok_or_else(|| {
                    ParseMessageError(format!("option {name}: combo without a default"))
                })?
                .to_string(),
            vars: {
                // Each `var` takes the next word as its value, even `var`.
                let mut vars = Vec::new();
                let mut i = 0;
                while i + 1 < words.len() {
                    if words[i] == "var" {
                        vars.push(words[i + 1].to_string());
                        i += 2;
                    } else {
                        i += 1;
                    }
                }
                vars
            },
        },
        Some(&"string") => OptionKind::String(text_default()),
        Some(&"filename") => OptionKind::Filename(text_default()),
        Some(&"button") => OptionKind::Button,
        _ => return err(format!("option {name}: unknown type")),
    };
    Ok(EngineMessage::Option {
        name: name.to_string(),
        kind,
    })
}

impl FromStr for EngineMessage {
    type Err = ParseMessageError;

    fn from_str(line: &str) -> Result<EngineMessage, ParseMessageError> {
        let line = line.trim();
        let (head, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        Ok(match head {
            "usiok" => EngineMessage::UsiOk,
            "readyok" => EngineMessage::ReadyOk,
            "id" => match rest.split_once(' ') {
                Some(("name", n)) => EngineMessage::IdName(n.trim().to_string()),
                Some(("author", a)) => EngineMessage::IdAuthor(a.trim().to_string()),
                _ => return err(format!("id: '{rest}'")),
            },
            "checkmate" => parse_checkmate(rest)?,
            "info" => EngineMessage::Info(rest.parse()?),
            "bestmove" => parse_best_move(rest)?,
            "option" => parse_option(rest)?,
            other => return err(format!("unknown engine message '{other}'")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::info::{InfoScore, Wdl};

    #[test]
    fn engine_messages_round_trip() {
        let lines = [
            "id name gogo",
            "id author the gogo developers",
            "usiok",
            "readyok",
            "option name USI_Hash type spin default 16 min 1 max 65536",
            "option name USI_Ponder type check default false",
            "option name Rules type combo default standard var standard var kawu",
            "option name Book type string default none",
            "option name EvalFile type filename default <internal>",
            "option name Clear Hash type button",
            "info depth 5 seldepth 9 multipv 1 score cp 34 nodes 1000 nps 50000 time 20 hashfull 3 pv 5d5c 1b1c",
            "info depth 7 score mate -3 upperbound nodes 5 pv P*3c",
            "info depth 7 score cp 12 lowerbound",
            "info depth 8 seldepth 12 multipv 1 score cp 107 wdl 293 703 4 nodes 5000 pv 5d5c",
            "info depth 9 score mate 3 wdl 1000 0 0",
            "info string hello there",
            "bestmove 2b1a+ ponder P*3c",
            "bestmove 5d5c",
            "bestmove resign",
            "bestmove win",
            "checkmate G*4b 5a4a S*5b",
            "checkmate nomate",
            "checkmate timeout",
            "checkmate notimplemented",
        ];
        for line in lines {
            let msg: EngineMessage = line.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(msg.to_string(), line);
        }
        for bad in [
            "bestmove 9z9z",
            "bestmove",
            "bestmove 5d5c ponder",
            "bestmove 5d5c ponder banana",
            "bestmove resign ponder 5d5c",
            "checkmate",
            "checkmate 5d5c banana",
            "info depth x",
            "info depth 3 wdl 500 500",
            "info wdl a b c",
        ] {
            assert!(bad.parse::<EngineMessage>().is_err(), "{bad}");
        }
        // Fairy-Stockfish's line with `USI_ShowWDL`: the chances for the side to move.
        let EngineMessage::Info(info) =
            "info depth 8 seldepth 10 multipv 1 score cp 107 wdl 293 703 4 nodes 1 pv 5d5c"
                .parse()
                .unwrap()
        else {
            panic!("not info")
        };
        let wdl = info.wdl.unwrap();
        assert_eq!((wdl.win, wdl.draw, wdl.loss), (293, 703, 4));
        assert!((wdl.expected().unwrap() - 0.6445).abs() < 1e-9);
        assert_eq!(
            Wdl {
                win: 0,
                draw: 0,
                loss: 0
            }
            .expected(),
            None
        );
        assert_eq!(
            Wdl::from_score(InfoScore::Centipawns(0), 323.0),
            Wdl {
                win: 500,
                draw: 0,
                loss: 500
            }
        );
        assert_eq!(Wdl::from_score(InfoScore::Centipawns(100), 323.0).win, 577);
        assert_eq!(
            Wdl::from_score(InfoScore::Centipawns(i32::MIN), 323.0).win,
            0
        );
        assert_eq!(Wdl::from_score(InfoScore::Mate(-2), 323.0).loss, 1000);
        // Unknown info fields are skipped.
        let info: EngineMessage = "info depth 3 currmove 5d5c score cp 5".parse().unwrap();
        assert_eq!(
            info,
            EngineMessage::Info(Info {
                depth: Some(3),
                score: Some(InfoScore::Centipawns(5)),
                ..Default::default()
            })
        );
    }
}
