//! What a GUI sends to an engine: [`GuiCommand`], with the `go` parameters in [`GoCommand`].

use crate::error::{err, ParseMessageError};
use gogo_rules::{Move, Position};
use std::fmt;
use std::str::FromStr;

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionSetup {
    /// `startpos`: the standard start position.
    Startpos,
    /// `sfen <board> <side> <hand> [<move number>]`, kept as text: the rules crate reads it
    /// and says what is wrong with it.
    Sfen(String),
}

impl PositionSetup {
    /// `startpos` for the standard start position, else its SFEN.
    pub fn of(position: &Position) -> PositionSetup {
        if *position == Position::startpos() {
            PositionSetup::Startpos
        } else {
            PositionSetup::Sfen(position.to_sfen())
        }
    }

    /// The position, checked by the rules crate.
    pub fn position(&self) -> Result<Position, gogo_rules::SfenError> {
        match self {
            PositionSetup::Startpos => Ok(Position::startpos()),
            PositionSetup::Sfen(text) => Position::from_sfen(text),
        }
    }
}

/// How long `go mate` may search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MateLimit {
    /// `go mate <ms>`.
    Millis(u64),
    /// `go mate infinite` (or `go mate` alone): until the answer or `stop`.
    Infinite,
}

/// The limits and modes of a `go` command. Times are in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoCommand {
    /// `btime`: Sente's remaining main time.
    pub btime: Option<u64>,
    /// `wtime`: Gote's remaining main time.
    pub wtime: Option<u64>,
    /// `binc`: Sente's increment per move (Fischer clocks).
    pub binc: Option<u64>,
    /// `winc`: Gote's increment per move.
    pub winc: Option<u64>,
    /// `byoyomi`: the time per move once the main time is spent.
    pub byoyomi: Option<u64>,
    /// `movestogo`: moves until the next time control (UCI's word; UCI2WB sends it for
    /// XBoard's classical controls).
    pub movestogo: Option<u64>,
    /// `movetime`: exactly this long for this move.
    pub movetime: Option<u64>,
    /// `depth`: search this many plies.
    pub depth: Option<u32>,
    /// `nodes`: search this many nodes.
    pub nodes: Option<u64>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
    /// `ponder`: think on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// `mate <ms|infinite>`: a mate search (tsume) instead of a game search.
    pub mate: Option<MateLimit>,
    /// `perft <depth>` (Fairy-Stockfish's extension): count the legal move tree.
    pub perft: Option<u32>,
}

/// How the GUI says a game ended, from the engine's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// `gameover win`.
    Win,
    /// `gameover lose`.
    Lose,
    /// `gameover draw`.
    Draw,
}

/// A command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GuiCommand {
    /// `usi`: identify yourself and list your options.
    Usi,
    /// `isready`: answer `readyok` once ready (tables allocated).
    IsReady,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// Option name (may contain spaces).
        name: String,
        /// Value, if given (buttons have none).
        value: Option<String>,
    },
    /// `usinewgame`: what is learnt about one game should not carry over.
    UsiNewGame,
    /// `position (startpos | sfen ...) [moves ...]`.
    Position {
        /// The start.
        setup: PositionSetup,
        /// Moves played from it, read as text only: whether they are legal depends on the
        /// position, which the engine checks.
        moves: Vec<Move>,
    },
    /// `go ...`: search the position.
    Go(GoCommand),
    /// `stop`: answer now.
    Stop,
    /// `ponderhit`: the opponent played the ponder move; the clock runs.
    PonderHit,
    /// `gameover win|lose|draw`.
    GameOver(GameResult),
    /// `quit`.
    Quit,
    /// `d`: show the position (a debugging extension).
    Display,
}

impl GuiCommand {
    /// The `position` command for `start` followed by `moves`.
    pub fn position(start: &Position, moves: &[Move]) -> GuiCommand {
        GuiCommand::Position {
            setup: PositionSetup::of(start),
            moves: moves.to_vec(),
        }
    }
}

fn parse_number<T: FromStr>(
    words: &mut std::slice::Iter<'_, &str>,
    name: &str,
) -> Result<T, ParseMessageError> {
    match words.next() {
        Some(w) => w.parse().or_else(|_| {
            err(format!(
                "go {name}: '{w}' is not a non-negative whole number"
            ))
        }),
        None => err(format!("go {name}: missing value")),
    }
}

impl FromStr for GoCommand {
    type Err = ParseMessageError;

    /// Reads the words after `go`.
    fn from_str(text: &str) -> Result<GoCommand, ParseMessageError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let mut it = words.iter();
        let mut go = GoCommand::default();
        while let Some(&word) = it.next() {
            match word {
                "btime" => go.btime = Some(parse_number(&mut it, word)?),
                "wtime" => go.wtime = Some(parse_number(&mut it, word)?),
                "binc" => go.binc = Some(parse_number(&mut it, word)?),
                "winc" => go.winc = Some(parse_number(&mut it, word)?),
                "byoyomi" => go.byoyomi = Some(parse_number(&mut it, word)?),
                "movestogo" => go.movestogo = Some(parse_number(&mut it, word)?),
                "movetime" => go.movetime = Some(parse_number(&mut it, word)?),
                "depth" => go.depth = Some(parse_number(&mut it, word)?),
                "nodes" => go.nodes = Some(parse_number(&mut it, word)?),
                "perft" => go.perft = Some(parse_number(&mut it, word)?),
                "infinite" => go.infinite = true,
                "ponder" => go.ponder = true,
                "mate" => {
                    go.mate = Some(match it.clone().next() {
                        Some(&"infinite") => {
                            it.next();
                            MateLimit::Infinite
                        }
                        Some(w) if w.parse::<u64>().is_ok() => {
                            MateLimit::Millis(parse_number(&mut it, word)?)
                        }
                        _ => MateLimit::Infinite,
                    })
                }
                other => return err(format!("go: unknown word '{other}'")),
            }
        }
        Ok(go)
    }
}

impl fmt::Display for GoCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        if self.ponder {
            f.write_str(" ponder")?;
        }
        for (name, value) in [
            ("btime", self.btime),
            ("wtime", self.wtime),
            ("binc", self.binc),
            ("winc", self.winc),
            ("byoyomi", self.byoyomi),
            ("movestogo", self.movestogo),
            ("movetime", self.movetime),
            ("depth", self.depth.map(u64::from)),
            ("nodes", self.nodes),
            ("perft", self.perft.map(u64::from)),
        ] {
            if let Some(v) = value {
                write!(f, " {name} {v}")?;
            }
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        match self.mate {
            Some(MateLimit::Millis(ms)) => write!(f, " mate {ms}")?,
            Some(MateLimit::Infinite) => f.write_str(" mate infinite")?,
            None => {}
        }
        Ok(())
    }
}

fn parse_set_option(rest: &str) -> Result<GuiCommand, ParseMessageError> {
    let Some(after_name) = rest.strip_prefix("name") else {
        return err("setoption: expected 'name'");
    };
    let after_name = after_name.trim();
    let (name, value) = match after_name.find(" value") {
        Some(i) if after_name[i + 6..].is_empty() || after_name[i + 6..].starts_with(' ') => (
            after_name[..i].trim(),
            Some(after_name[i + 6..].trim().to_string()),
        ),
        _ => (after_name, None),
    };
    if name.is_empty() {
        return err("setoption: the option name is missing");
    }
    Ok(GuiCommand::SetOption {
        name: name.to_string(),
        value,
    })
}

fn parse_position(rest: &str) -> Result<GuiCommand, ParseMessageError> {
    let (setup_text, moves_text) = match rest.find(" moves") {
        Some(i) => (&rest[..i], &rest[i + 6..]),
        None => match rest.strip_suffix("moves") {
            Some(s) if rest == "moves" || s.ends_with(' ') => (s, ""),
            _ => (rest, ""),
        },
    };
    let setup_text = setup_text.trim();
    let setup = if setup_text == "startpos" {
        PositionSetup::Startpos
    } else if let Some(sfen) = setup_text.strip_prefix("sfen ") {
        PositionSetup::Sfen(sfen.split_whitespace().collect::<Vec<_>>().join(" "))
    } else {
        return err(format!(
            "position: expected 'startpos' or 'sfen ...', got '{setup_text}'"
        ));
    };
    let mut moves = Vec::new();
    for (i, word) in moves_text.split_whitespace().enumerate() {
        moves.push(
            word.parse()
                .map_err(|e| ParseMessageError(format!("position: move {}: {e}", i + 1)))?,
        );
    }
    Ok(GuiCommand::Position { setup, moves })
}

impl FromStr for GuiCommand {
    type Err = ParseMessageError;

    fn from_str(line: &str) -> Result<GuiCommand, ParseMessageError> {
        let line = line.trim();
        let (head, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        Ok(match head {
            "usi" => GuiCommand::Usi,
            "isready" => GuiCommand::IsReady,
            "usinewgame" => GuiCommand::UsiNewGame,
            "stop" => GuiCommand::Stop,
            "ponderhit" => GuiCommand::PonderHit,
            "quit" => GuiCommand::Quit,
            "d" => GuiCommand::Display,
            "gameover" => GuiCommand::GameOver(match rest {
                "win" => GameResult::Win,
                "lose" => GameResult::Lose,
                "draw" => GameResult::Draw,
                other => return err(format!("gameover: '{other}' (expected win, lose or draw)")),
            }),
            "setoption" => parse_set_option(rest)?,
            "position" => parse_position(rest)?,
            "go" => GuiCommand::Go(rest.parse()?),
            "" => return err("empty line"),
            other => return err(format!("unknown command '{other}'")),
        })
    }
}

impl fmt::Display for GuiCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GuiCommand::Usi => f.write_str("usi"),
            GuiCommand::IsReady => f.write_str("isready"),
            GuiCommand::UsiNewGame => f.write_str("usinewgame"),
            GuiCommand::Stop => f.write_str("stop"),
            GuiCommand::PonderHit => f.write_str("ponderhit"),
            GuiCommand::Quit => f.write_str("quit"),
            GuiCommand::Display => f.write_str("d"),
            GuiCommand::GameOver(r) => write!(
                f,
                "gameover {}",
                match r {
                    GameResult::Win => "win",
                    GameResult::Lose => "lose",
                    GameResult::Draw => "draw",
                }
            ),
            GuiCommand::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                if let Some(v) = value {
                    write!(f, " value {v}")?;
                }
                Ok(())
            }
            GuiCommand::Position { setup, moves } => {
                match setup {
                    PositionSetup::Startpos => f.write_str("position startpos")?,
                    PositionSetup::Sfen(s) => write!(f, "position sfen {s}")?,
                }
                if !moves.is_empty() {
                    f.write_str(" moves")?;
                    for mv in moves {
                        write!(f, " {mv}")?;
                    }
                }
                Ok(())
            }
            GuiCommand::Go(go) => go.fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gui_commands_round_trip() {
        let lines = [
            "usi",
            "isready",
            "usinewgame",
            "setoption name USI_Hash value 64",
            "setoption name Clear Hash",
            "position startpos",
            "position startpos moves 5d5c 1b1c",
            "position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5d5c",
            "go ponder btime 1000 wtime 2000 byoyomi 200",
            "go btime 1000 wtime 2000 binc 10 winc 10",
            "go btime 300000 wtime 300000 movestogo 40",
            "go movetime 500",
            "go depth 5",
            "go nodes 10000",
            "go infinite",
            "go mate 1000",
            "go mate infinite",
            "go perft 3",
            "stop",
            "ponderhit",
            "gameover win",
            "gameover draw",
            "quit",
            "d",
        ];
        for line in lines {
            let cmd: GuiCommand = line.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(cmd.to_string(), line);
            assert_eq!(cmd.to_string().parse::<GuiCommand>().unwrap(), cmd);
        }
    }

    #[test]
    fn gui_command_details() {
        assert_eq!(
            "setoption name Move Overhead value 50"
                .parse::<GuiCommand>()
                .unwrap(),
            GuiCommand::SetOption {
                name: "Move Overhead".into(),
                value: Some("50".into())
            }
        );
        assert_eq!(
            "position sfen  rbsgk/4p/5/P4/KGSBR   b - 1"
                .parse::<GuiCommand>()
                .unwrap(),
            GuiCommand::Position {
                setup: PositionSetup::Sfen("rbsgk/4p/5/P4/KGSBR b - 1".into()),
                moves: vec![]
            }
        );
        let go: GuiCommand = "go btime 0 wtime 0 byoyomi 200".parse().unwrap();
        assert_eq!(
            go,
            GuiCommand::Go(GoCommand {
                btime: Some(0),
                wtime: Some(0),
                byoyomi: Some(200),
                ..Default::default()
            })
        );
        assert_eq!(
            "go mate".parse::<GuiCommand>().unwrap(),
            GuiCommand::Go(GoCommand {
                mate: Some(MateLimit::Infinite),
                ..Default::default()
            })
        );
        let start = Position::startpos();
        let moves = ["5d5c".parse().unwrap()];
        assert_eq!(
            GuiCommand::position(&start, &moves).to_string(),
            "position startpos moves 5d5c"
        );
        let other = Position::from_sfen(gogo_rules::KAWU_START).unwrap();
        assert_eq!(
            GuiCommand::position(&other, &[]).to_string(),
            "position sfen rbsgk/p4/5/4P/KGSBR b - 1"
        );
        for bad in [
            "",
            "banana",
            "go depth",
            "go depth x",
            "go btime -5",
            "go fast",
            "gameover maybe",
            "setoption",
            "setoption name",
            "position",
            "position sfen",
            "position chess",
            "position startpos moves 5d5c 9z9z",
        ] {
            assert!(bad.parse::<GuiCommand>().is_err(), "{bad:?}");
        }
    }
}
