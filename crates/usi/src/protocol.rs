//! Typed USI messages: [`GuiCommand`] for what the GUI sends, [`EngineMessage`] for what the
//! engine sends. Each reads with `FromStr` and writes with `Display`, and writing then
//! reading gives the same message back.

use gogo_rules::Move;
use std::fmt;
use std::str::FromStr;

/// A line the engine could not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMessageError(pub String);

impl fmt::Display for ParseMessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseMessageError {}

fn err<T>(text: impl Into<String>) -> Result<T, ParseMessageError> {
    Err(ParseMessageError(text.into()))
}

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionSetup {
    /// `startpos`: the standard start position.
    Startpos,
    /// `sfen <board> <side> <hand> [<move number>]`, kept as text for the rules crate.
    Sfen(String),
}

/// The limits and modes of a `go` command. Times are in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoCommand {
    /// `btime`: Sente's remaining time.
    pub btime: Option<u64>,
    /// `wtime`: Gote's remaining time.
    pub wtime: Option<u64>,
    /// `binc`: Sente's increment.
    pub binc: Option<u64>,
    /// `winc`: Gote's increment.
    pub winc: Option<u64>,
    /// `byoyomi`.
    pub byoyomi: Option<u64>,
    /// `movestogo`: moves until the next time control (UCI's word; UCI2WB sends it for
    /// XBoard's classical controls).
    pub movestogo: Option<u64>,
    /// `movetime`.
    pub movetime: Option<u64>,
    /// `depth`.
    pub depth: Option<u32>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `infinite`.
    pub infinite: bool,
    /// `ponder`.
    pub ponder: bool,
    /// `mate <ms|infinite>`: a mate search (`Some(None)` for infinite).
    pub mate: Option<Option<u64>>,
    /// `perft <depth>` (Fairy-Stockfish's extension).
    pub perft: Option<u32>,
}

/// How the GUI says a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// The engine won.
    Win,
    /// The engine lost.
    Lose,
    /// Draw.
    Draw,
}

/// A command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GuiCommand {
    /// `usi`
    Usi,
    /// `isready`
    IsReady,
    /// `setoption name <name> [value <value>]`
    SetOption {
        /// Option name (may contain spaces).
        name: String,
        /// Value, if given.
        value: Option<String>,
    },
    /// `usinewgame`
    UsiNewGame,
    /// `position (startpos | sfen ...) [moves ...]`
    Position {
        /// Start.
        setup: PositionSetup,
        /// Moves as text (checked by the rules crate, which knows the position).
        moves: Vec<String>,
    },
    /// `go ...`
    Go(GoCommand),
    /// `stop`
    Stop,
    /// `ponderhit`
    PonderHit,
    /// `gameover win|lose|draw`
    GameOver(GameResult),
    /// `quit`
    Quit,
    /// `d`: show the position (a debugging extension).
    Display,
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
                            None
                        }
                        Some(w) if w.parse::<u64>().is_ok() => Some(parse_number(&mut it, word)?),
                        _ => None,
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
            Some(Some(ms)) => write!(f, " mate {ms}")?,
            Some(None) => f.write_str(" mate infinite")?,
            None => {}
        }
        Ok(())
    }
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
            "setoption" => {
                let Some(after_name) = rest.strip_prefix("name") else {
                    return err("setoption: expected 'name'");
                };
                let after_name = after_name.trim();
                let (name, value) = match after_name.find(" value") {
                    Some(i)
                        if after_name[i + 6..].is_empty()
                            || after_name[i + 6..].starts_with(' ') =>
                    {
                        (
                            after_name[..i].trim(),
                            Some(after_name[i + 6..].trim().to_string()),
                        )
                    }
                    _ => (after_name, None),
                };
                if name.is_empty() {
                    return err("setoption: the option name is missing");
                }
                GuiCommand::SetOption {
                    name: name.to_string(),
                    value,
                }
            }
            "position" => {
                let (setup_text, moves) = match rest.find(" moves") {
                    Some(i) => (
                        &rest[..i],
                        rest[i + 6..].split_whitespace().map(String::from).collect(),
                    ),
                    None => match rest.strip_suffix("moves") {
                        Some(s) if rest == "moves" || s.ends_with(' ') => (s, Vec::new()),
                        _ => (rest, Vec::new()),
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
                GuiCommand::Position { setup, moves }
            }
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
                    write!(f, " moves {}", moves.join(" "))?;
                }
                Ok(())
            }
            GuiCommand::Go(go) => go.fmt(f),
        }
    }
}

/// The type of an engine option, with its default and limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `type check default <bool>`
    Check(bool),
    /// `type spin default <n> min <n> max <n>`
    Spin {
        /// Default.
        default: i64,
        /// Minimum.
        min: i64,
        /// Maximum.
        max: i64,
    },
    /// `type combo default <v> var <v> ...`
    Combo {
        /// Default.
        default: String,
        /// Allowed values.
        vars: Vec<String>,
    },
    /// `type string default <text>`
    String(String),
    /// `type button`
    Button,
}

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

/// A message from the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineMessage {
    /// `id name <name>`
    IdName(String),
    /// `id author <author>`
    IdAuthor(String),
    /// `usiok`
    UsiOk,
    /// `readyok`
    ReadyOk,
    /// `option name <name> type ...`
    Option {
        /// Name.
        name: String,
        /// Type, default and limits.
        kind: OptionKind,
    },
    /// `info ...`
    Info(Info),
    /// `bestmove <move> [ponder <move>]`, or `bestmove resign` when `best` is `None`.
    BestMove {
        /// The move, `None` for `resign`.
        best: Option<Move>,
        /// The expected reply.
        ponder: Option<Move>,
    },
    /// `checkmate notimplemented` (the answer to `go mate` without a mate solver).
    CheckmateNotImplemented,
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

impl fmt::Display for EngineMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineMessage::IdName(n) => write!(f, "id name {n}"),
            EngineMessage::IdAuthor(a) => write!(f, "id author {a}"),
            EngineMessage::UsiOk => f.write_str("usiok"),
            EngineMessage::ReadyOk => f.write_str("readyok"),
            EngineMessage::CheckmateNotImplemented => f.write_str("checkmate notimplemented"),
            EngineMessage::Info(info) => info.fmt(f),
            EngineMessage::BestMove { best, ponder } => {
                match best {
                    Some(mv) => write!(f, "bestmove {mv}")?,
                    None => f.write_str("bestmove resign")?,
                }
                if let (Some(_), Some(p)) = (best, ponder) {
                    write!(f, " ponder {p}")?;
                }
                Ok(())
            }
            EngineMessage::Option { name, kind } => {
                write!(f, "option name {name} type ")?;
                match kind {
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
                    OptionKind::Button => f.write_str("button"),
                }
            }
        }
    }
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
            "checkmate" if rest == "notimplemented" => EngineMessage::CheckmateNotImplemented,
            "info" => EngineMessage::Info(rest.parse()?),
            "bestmove" => {
                let words: Vec<&str> = rest.split_whitespace().collect();
                let best = match words.first() {
                    Some(&"resign") | Some(&"win") => None,
                    Some(w) => Some(
                        w.parse()
                            .map_err(|e| ParseMessageError(format!("bestmove: {e}")))?,
                    ),
                    None => return err("bestmove: missing move"),
                };
                let ponder = match words.get(1..) {
                    Some(["ponder", p]) => Some(
                        p.parse()
                            .map_err(|e| ParseMessageError(format!("bestmove ponder: {e}")))?,
                    ),
                    Some([]) | None => None,
                    Some(other) => {
                        return err(format!("bestmove: unexpected '{}'", other.join(" ")))
                    }
                };
                EngineMessage::BestMove { best, ponder }
            }
            "option" => {
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
                        // Found by fuzzing: a combo without a default must not read as one
                        // whose default is empty (it would print as something else).
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
                    Some(&"string") => OptionKind::String(
                        spec.split_once("default")
                            .map_or("", |(_, d)| d.trim())
                            .to_string(),
                    ),
                    Some(&"button") => OptionKind::Button,
                    _ => return err(format!("option {name}: unknown type")),
                };
                EngineMessage::Option {
                    name: name.to_string(),
                    kind,
                }
            }
            other => return err(format!("unknown engine message '{other}'")),
        })
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
        ] {
            assert!(bad.parse::<GuiCommand>().is_err(), "{bad:?}");
        }
    }

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
            "option name Clear Hash type button",
            "info depth 5 seldepth 9 multipv 1 score cp 34 nodes 1000 nps 50000 time 20 hashfull 3 pv 5d5c 1b1c",
            "info depth 7 score mate -3 upperbound nodes 5 pv P*3c",
            "info depth 7 score cp 12 lowerbound",
            "info string hello there",
            "bestmove 2b1a+ ponder P*3c",
            "bestmove 5d5c",
            "bestmove resign",
            "checkmate notimplemented",
        ];
        for line in lines {
            let msg: EngineMessage = line.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(msg.to_string(), line);
        }
        assert!("bestmove 9z9z".parse::<EngineMessage>().is_err());
        assert!("bestmove".parse::<EngineMessage>().is_err());
        assert!("info depth x".parse::<EngineMessage>().is_err());
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
