//! The engine's options, declared once. Each entry of [`OPTIONS`] has the name a GUI sees,
//! the other names it accepts, its type with default and range, what it means, and the
//! function that sets it: the `usi` answer ([`usi_options`]), `setoption`
//! ([`Options::set`]), the defaults ([`Options::default`]) and the README's table (compared by
//! a test, [`readme_table`]) all come from this table.

use crate::book_file::INTERNAL_BOOK;
use crate::usi_option::{flag, number, text};
pub use crate::usi_option::{OptionType, OptionValue, UsiOption};
use gogo_protocol::{EngineMessage, OptionKind};
use gogo_rules::{RuleSet, MAX_GAME_MOVES};
use gogo_search::nnue::Network;
use gogo_search::skill;
use std::sync::Arc;

/// `EvalFile`'s value for the network built into the binary.
pub const INTERNAL_NETWORK: &str = "<internal>";
/// The largest hash table, MiB.
pub const MAX_HASH_MB: i64 = 1 << 20;
/// The most search threads.
pub const MAX_THREADS: i64 = 256;

/// The values the options set.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// `USI_Hash`, MiB.
    pub hash_mb: usize,
    /// `Threads`.
    pub threads: usize,
    /// `MultiPV`.
    pub multipv: usize,
    /// `USI_Ponder`.
    pub ponder: bool,
    /// `USI_ShowWDL`: `info` lines carry `wdl W D L`.
    pub show_wdl: bool,
    /// `Rules`.
    pub rules: RuleSet,
    /// `MaxPlies` (0: the rule set's own limit).
    pub max_plies: u32,
    /// `MoveOverhead`, ms.
    pub move_overhead_ms: u64,
    /// `UseNNUE`: the network, or the hand-made evaluation.
    pub use_nnue: bool,
    /// `EvalFile` as given ([`INTERNAL_NETWORK`] for the built-in network) ...
    pub eval_file: String,
    /// ... and the network it holds.
    pub network: Arc<Network>,
    /// `MateHash`, MiB.
    pub mate_hash_mb: usize,
    /// `MateProbe`: the mate solver looks first at every move on the clock.
    pub mate_probe: bool,
    /// `Level`: 0 full strength, 1 to 10 weaker.
    pub level: u8,
    /// `Clear Hash` was pressed and the engine has not yet emptied the table.
    pub clear_hash: bool,
    /// `USI_OwnBook`: play from the book.
    pub own_book: bool,
    /// `BookFile` as given ([`INTERNAL_BOOK`] for the built-in book) ...
    pub book_file: String,
    /// ... and the book it holds; `None` for the built-in one until its first use (reading
    /// it is not for every start).
    pub book: Option<Arc<gogo_book::Book>>,
    /// `BookMaxPly`: the book is left after this many plies of the game.
    pub book_max_ply: u32,
    /// `BookMargin`: book moves this far (centipawns, learned evals) below the best are played
    /// too, by weight.
    pub book_margin: i32,
}

/// Every option, in the order the `usi` answer lists them.
pub const OPTIONS: &[UsiOption] = &[
    UsiOption {
        name: "USI_Hash",
        aliases: &["Hash"],
        kind: OptionType::Spin { default: 16, min: 1, max: MAX_HASH_MB },
        meaning: "hash table MiB (allocated at `isready`; above 64 MiB it takes memory only as the search fills it; a size beyond the memory the system has available is refused with the figure and the old table kept)",
        listed: true,
        set: |o, v| {
            o.hash_mb = number(v) as usize;
            Ok(())
        },
    },
    UsiOption {
        name: "USI_Ponder",
        aliases: &[],
        kind: OptionType::Check(false),
        meaning: "pondering allowed",
        listed: true,
        set: |o, v| {
            o.ponder = flag(v);
            Ok(())
        },
    },
    UsiOption {
        name: "USI_ShowWDL",
        // The name Stockfish and Lc0 give it over UCI (XBoard through UCI2WB).
        aliases: &["UCI_ShowWDL"],
        kind: OptionType::Check(false),
        meaning: "`info` lines carry `wdl W D L`, the side to move's chances per mille from the evaluation's calibrated score scale (draws left out, as they nearly are in minishogi; also `UCI_ShowWDL`)",
        listed: true,
        set: |o, v| {
            o.show_wdl = flag(v);
            Ok(())
        },
    },
    UsiOption {
        name: "Threads",
        aliases: &[],
        kind: OptionType::Spin { default: 1, min: 1, max: MAX_THREADS },
        meaning: "Lazy SMP search threads",
        listed: true,
        set: |o, v| {
            o.threads = number(v) as usize;
            Ok(())
        },
    },
    UsiOption {
        name: "MultiPV",
        aliases: &[],
        kind: OptionType::Spin { default: 1, min: 1, max: 64 },
        meaning: "principal variations reported",
        listed: true,
        set: |o, v| {
            o.multipv = number(v) as usize;
            Ok(())
        },
    },
    UsiOption {
        name: "Rules",
        aliases: &[],
        kind: OptionType::Combo { default: "standard", vars: &["standard", "kawu"] },
        meaning: "`standard` or `kawu` (repetition meaning, 300-ply limit)",
        listed: true,
        set: |o, v| {
            o.rules = text(v).parse().map_err(|e| format!("{e}"))?;
            Ok(())
        },
    },
    UsiOption {
        name: "MaxPlies",
        aliases: &[],
        kind: OptionType::Spin { default: 0, min: 0, max: MAX_GAME_MOVES as i64 },
        meaning: "draw after this many plies (0: the rule set's own limit); at most 10,000, the most moves any game may hold",
        listed: true,
        set: |o, v| {
            o.max_plies = number(v) as u32;
            Ok(())
        },
    },
    UsiOption {
        name: "MoveOverhead",
        aliases: &["Move Overhead"],
        kind: OptionType::Spin { default: 10, min: 0, max: 10_000 },
        meaning: "milliseconds kept in reserve per move on a clock (go movetime is spent whole)",
        listed: true,
        set: |o, v| {
            o.move_overhead_ms = number(v) as u64;
            Ok(())
        },
    },
    UsiOption {
        name: "MateHash",
        aliases: &[],
        kind: OptionType::Spin { default: 16, min: 1, max: MAX_HASH_MB },
        meaning: "the mate solver's table, MiB",
        listed: true,
        set: |o, v| {
            o.mate_hash_mb = number(v) as usize;
            Ok(())
        },
    },
    UsiOption {
        name: "MateProbe",
        aliases: &[],
        kind: OptionType::Check(true),
        meaning: "before each move on the clock, the mate solver looks up to 5000 nodes deep, and a twentieth of the move's time at most; a forced mate by checks is played at once",
        listed: true,
        set: |o, v| {
            o.mate_probe = flag(v);
            Ok(())
        },
    },
    UsiOption {
        name: "Level",
        aliases: &[],
        kind: OptionType::Spin { default: 0, min: 0, max: skill::MAX_LEVEL as i64 },
        meaning: "0 full strength; 1 (weakest) to 10 play weaker, as in [Levels](docs/levels.md); analysis (`go infinite`) stays at full strength",
        listed: true,
        set: |o, v| {
            o.level = number(v) as u8;
            Ok(())
        },
    },
    UsiOption {
        name: "UseNNUE",
        aliases: &[],
        kind: OptionType::Check(true),
        meaning: "evaluate with the network; false for the hand-made evaluation",
        listed: true,
        set: |o, v| {
            o.use_nnue = flag(v);
            Ok(())
        },
    },
    UsiOption {
        name: "EvalFile",
        aliases: &[],
        kind: OptionType::Filename(INTERNAL_NETWORK),
        meaning: "the network file; `<internal>` is the one built into the binary. Only a regular file of exactly the network's size is opened (checked from its metadata first, so a device or a pipe is refused at once) and read through a bounded reader; a file of the wrong size, magic, version or shape, or a damaged one, is refused with the reason and the old network kept",
        listed: true,
        set: |o, v| o.load_network(text(v)),
    },
    UsiOption {
        name: "USI_OwnBook",
        aliases: &["OwnBook"],
        kind: OptionType::Check(false),
        meaning: "play from the opening book (`BookFile`) while the game is in it: a book move is answered at once, with an `info string` naming it; analysis (`go infinite`) and pondering never use it; a level leaves it sooner (level L after L/10 of `BookMaxPly`)",
        listed: true,
        set: |o, v| {
            o.own_book = flag(v);
            Ok(())
        },
    },
    UsiOption {
        name: "BookFile",
        aliases: &[],
        kind: OptionType::Filename(INTERNAL_BOOK),
        meaning: "the book, in YaneuraOu's text format (`#YANEURAOU-DB2016 1.00`) with 5x5 SFEN; `<internal>` is the one built into the binary. A file that is not a book is refused with the reason and the old book kept; a move not legal in its position is dropped. A regular file of at most 256 MiB, read a line at a time and held within four times its size ([limits](docs/reliability.md#the-tools-files-hardening-iii))",
        listed: true,
        set: |o, v| o.load_book(text(v)),
    },
    UsiOption {
        name: "BookMaxPly",
        aliases: &[],
        kind: OptionType::Spin { default: 16, min: 0, max: 200 },
        meaning: "the book is used for the game's first this many plies",
        listed: true,
        set: |o, v| {
            o.book_max_ply = number(v) as u32;
            Ok(())
        },
    },
    UsiOption {
        name: "BookMargin",
        aliases: &[],
        kind: OptionType::Spin { default: 30, min: 0, max: 1000 },
        meaning: "book moves whose eval, corrected by their games' results, is up to this many centipawns below the best are played too, chosen by how often games played them (variety)",
        listed: true,
        set: |o, v| {
            o.book_margin = number(v) as i32;
            Ok(())
        },
    },
    UsiOption {
        name: "Clear Hash",
        aliases: &[],
        kind: OptionType::Button,
        meaning: "empties the table",
        listed: true,
        set: |o, _| {
            o.clear_hash = true;
            Ok(())
        },
    },
    UsiOption {
        name: "USI_Variant",
        aliases: &["UCI_Variant"],
        kind: OptionType::Combo { default: "minishogi", vars: &["minishogi", "5x5+5_shogi"] },
        meaning: "sent by Lishogi-Bot (`USI_Variant`) and by XBoard through UCI2WB (`UCI_Variant`): only minishogi is played",
        listed: false,
        set: |_, _| Ok(()),
    },
];

impl Default for Options {
    /// Every option at its default, set through the table.
    fn default() -> Options {
        let mut options = Options {
            hash_mb: 0,
            threads: 0,
            multipv: 0,
            ponder: false,
            show_wdl: false,
            rules: RuleSet::standard(),
            max_plies: 0,
            move_overhead_ms: 0,
            use_nnue: false,
            eval_file: String::new(),
            network: Network::embedded(),
            mate_hash_mb: 0,
            mate_probe: false,
            level: 0,
            clear_hash: false,
            own_book: false,
            book_file: String::new(),
            book: None,
            book_max_ply: 0,
            book_margin: 0,
        };
        for option in OPTIONS {
            let value = match option.kind {
                OptionType::Spin { default, .. } => OptionValue::Number(default),
                OptionType::Check(default) => OptionValue::Flag(default),
                OptionType::Combo { default, .. } | OptionType::Filename(default) => {
                    OptionValue::Text(default)
                }
                OptionType::Button => continue,
            };
            (option.set)(&mut options, value).expect("every default is valid");
        }
        options
    }
}

/// The `option` lines of the `usi` answer (and, in a tuning build, one spin option for each
/// of the search's tunable parameters).
pub fn usi_options() -> impl Iterator<Item = EngineMessage> {
    let tunables = gogo_search::params::TUNABLES
        .iter()
        .filter(|_| cfg!(feature = "tune"))
        .map(|t| EngineMessage::Option {
            name: t.name.into(),
            kind: OptionKind::Spin {
                default: t.default.into(),
                min: t.min.into(),
                max: t.max.into(),
            },
        });
    OPTIONS
        .iter()
        .filter(|o| o.listed)
        .map(UsiOption::message)
        .chain(tunables)
}

/// The README's table of options, as Markdown.
pub fn readme_table() -> String {
    let mut table = String::from("| option | default | meaning |\n|---|---|---|\n");
    for o in OPTIONS.iter().filter(|o| o.listed) {
        table.push_str(&format!(
            "| `{}` | {} | {} |\n",
            o.name,
            o.default_text(),
            o.meaning
        ));
    }
    table
}

/// A tunable search parameter by its option name (a tuning build only).
fn set_tunable(name: &str, value: Option<&str>) -> Result<(), String> {
    let tunable = gogo_search::params::TUNABLES
        .iter()
        .find(|t| cfg!(feature = "tune") && t.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("unknown option '{name}'"))?;
    let text = value.unwrap_or("");
    match text.parse::<i32>() {
        Ok(n) if tunable.set(n) => Ok(()),
        _ => Err(format!(
            "{} must be a whole number from {} to {}, not '{text}'",
            tunable.name, tunable.min, tunable.max
        )),
    }
}

impl Options {
    /// The score scale `wdl` is reported on (`USI_ShowWDL`): the evaluation's own, fitted
    /// to its games' results (`gogo-train --calibrate`); `None` when it is off. A network
    /// from a file is taken to be calibrated as the built-in one.
    pub fn wdl_scale(&self) -> Option<f64> {
        self.show_wdl.then(|| self.score_scale())
    }

    /// The evaluation's score scale, fitted to its games' results (`gogo-train
    /// --calibrate`): a score of one scale is a win chance of 1/(1+e^-1). A network from a
    /// file is taken to be calibrated as the built-in one.
    pub fn score_scale(&self) -> f64 {
        if self.use_nnue {
            gogo_search::nnue::embedded_score_scale()
        } else {
            gogo_search::eval::classical_score_scale()
        }
    }

    /// `setoption name NAME [value VALUE]`: the option set, or why not (nothing changed).
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let Some(option) = OPTIONS.iter().find(|o| o.is_named(name)) else {
            return set_tunable(name, value);
        };
        let parsed = option.parse(value.unwrap_or("")).map_err(|e| {
            if option.listed {
                e
            } else {
                format!(
                    "{name}: gogo plays only minishogi, not '{}'",
                    value.unwrap_or("")
                )
            }
        })?;
        (option.set)(self, parsed)
    }

    /// Takes the book `BookFile` names (`<internal>` or empty: the built-in one, read at its
    /// first use); a file that cannot be read leaves the current book in place.
    fn load_book(&mut self, name: &str) -> Result<(), String> {
        if name.is_empty() || name == INTERNAL_BOOK {
            self.book = None;
            self.book_file = INTERNAL_BOOK.into();
            return Ok(());
        }
        let book = crate::book_file::load_book(name)
            .map_err(|e| format!("BookFile {e}; keeping {}", self.book_file))?;
        self.book = Some(book);
        self.book_file = name.to_string();
        Ok(())
    }

    /// The book to play from (the built-in one read now if it is the one).
    pub fn book(&mut self) -> Arc<gogo_book::Book> {
        self.book.get_or_insert_with(gogo_book::internal).clone()
    }

    /// Loads the network `EvalFile` names (`<internal>` or empty for the built-in one); a file
    /// that cannot be used leaves the current network in place.
    fn load_network(&mut self, path: &str) -> Result<(), String> {
        let network = if path.is_empty() || path == INTERNAL_NETWORK {
            Network::embedded()
        } else {
            Network::load(std::path::Path::new(path))
                .map(Arc::new)
                .map_err(|e| format!("EvalFile {path}: {e}; keeping {}", self.eval_file))?
        };
        self.network = network;
        self.eval_file = if path.is_empty() {
            INTERNAL_NETWORK.into()
        } else {
            path.to_string()
        };
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_readme_shows_the_table() {
        let readme = include_str!("../../../README.md");
        let table = readme_table();
        assert!(
            readme.contains(&table),
            "README.md's option table differs from the engine's; it should read:\n{table}"
        );
    }

    #[test]
    fn defaults_names_and_values() {
        let mut o = Options::default();
        assert_eq!((o.hash_mb, o.threads, o.multipv, o.level), (16, 1, 1, 0));
        assert!(o.use_nnue && o.mate_probe && !o.ponder);
        assert_eq!(o.eval_file, INTERNAL_NETWORK);
        assert!(o.set("hash", Some("64")).is_ok());
        assert!(o.set("move overhead", Some("30")).is_ok());
        assert!(o.set("usennue", Some("0")).is_ok());
        assert_eq!((o.hash_mb, o.move_overhead_ms, o.use_nnue), (64, 30, false));
        let before = o.clone();
        for (name, value) in [
            ("Threads", "0"),
            ("Threads", "two"),
            ("MateProbe", "maybe"),
            ("Rules", "chess"),
            ("Nonsense", "1"),
            ("UCI_Variant", "chess"),
            ("EvalFile", "/nonexistent/net.bin"),
        ] {
            assert!(o.set(name, Some(value)).is_err(), "{name} {value}");
        }
        assert_eq!(o, before, "a refused value changes nothing");
        assert!(o.set("UCI_Variant", Some("5x5+5_shogi")).is_ok());
        assert!(o.set("Clear Hash", None).is_ok() && o.clear_hash);
    }
}
