//! The WebSocket protocol between the page and the server, as JSON: what the page asks
//! ([`Request`]) and what the server tells ([`Update`]). The page only shows and asks; the
//! server decides what is legal, when the game ends and what the engine does.

use serde::{Deserialize, Serialize};

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    /// The person at the page.
    Human,
    /// The engine.
    Engine,
}

/// A clock for both sides, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ClockSetting {
    /// Main time, then a byoyomi per move.
    Byoyomi {
        /// Main time.
        main_ms: u64,
        /// Time per move once the main time is spent.
        byoyomi_ms: u64,
    },
    /// Main time plus an increment per move.
    Fischer {
        /// Main time.
        main_ms: u64,
        /// Added after each move.
        increment_ms: u64,
    },
    /// No clock: the engine thinks this long per move.
    None {
        /// The engine's time per move.
        engine_ms: u64,
    },
}

/// A side of the board, as the page names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// Sente (moves first).
    Sente,
    /// Gote.
    Gote,
}

impl From<gogo_rules::Color> for Side {
    fn from(color: gogo_rules::Color) -> Side {
        match color {
            gogo_rules::Color::Sente => Side::Sente,
            gogo_rules::Color::Gote => Side::Gote,
        }
    }
}

impl From<Side> for gogo_rules::Color {
    fn from(side: Side) -> gogo_rules::Color {
        match side {
            Side::Sente => gogo_rules::Color::Sente,
            Side::Gote => gogo_rules::Color::Gote,
        }
    }
}

/// How a game ended other than by the rules, as the state tells the page (who resigned,
/// whose flag fell). The server judged it and keeps it: a page never sends one back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum KeptEnding {
    /// This side resigned.
    Resignation {
        /// Who resigned.
        loser: Side,
    },
    /// This side ran out of time.
    Time {
        /// Whose flag fell.
        loser: Side,
    },
    /// This side's engine played an illegal move, sent an unreadable answer, or failed.
    Forfeit {
        /// Whose engine.
        loser: Side,
        /// What happened, in words.
        why: String,
    },
}

fn on() -> bool {
    true
}

/// What the page asks.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    /// A new game.
    NewGame {
        /// `standard`, `kawu`, or an SFEN.
        start: String,
        /// `standard` or `kawu`.
        rules: String,
        /// Who plays Sente.
        sente: Player,
        /// Who plays Gote.
        gote: Player,
        /// The clock.
        clock: ClockSetting,
        /// The engine's strength level: 0 full strength, 1 (weakest) to 10 (the engine's
        /// `Level` option, where it has one).
        #[serde(default)]
        level: u8,
        /// The game is drawn after this many plies (0: the rule set's own limit, none under
        /// the standard rules, 300 under kawu's).
        #[serde(default)]
        max_plies: u32,
        /// Moves already played from the start, in USI: a game the page kept is played
        /// again up to where it was (when the server no longer has the page's board). How
        /// a game ended is the server's alone: a page's word for it is not taken.
        #[serde(default)]
        moves: Vec<String>,
        /// Below full strength, the engine's move comes after a short, varied pause, as
        /// a person's would (a move at once feels like a machine). On unless the page says.
        #[serde(default = "on")]
        thinking_pause: bool,
    },
    /// The person's move, in USI.
    Move {
        /// For example `2e3d`, `2b1a+`, `P*3c`.
        usi: String,
    },
    /// Take back the last move (and the engine's answer, against the engine).
    Takeback,
    /// The person resigns.
    Resign,
    /// Start or stop the analysis of the current position.
    Analyze {
        /// On or off.
        on: bool,
        /// Lines to show.
        multipv: u32,
    },
    /// Solve the current position as a mate problem (`go mate`).
    Mate,
    /// The full-strength engine's best move in the current position, as a hint.
    Hint,
    /// Analyse every move of the game at a fixed time per position, and mark the mistakes.
    Review {
        /// Time per position, ms ([`crate::review::MIN_REVIEW_MILLIS`] to
        /// [`crate::review::MAX_REVIEW_MILLIS`]).
        millis: u64,
    },
    /// Load a game or a position: SFEN, KIF or CSA text.
    Load {
        /// The text.
        text: String,
    },
    /// The game as KIF and CSA, for saving.
    Export {
        /// The notation of moves in the review's comments.
        #[serde(default)]
        notation: Notation,
    },
    /// Open a puzzle: `id`, or the next one near the player's rating.
    Puzzle {
        /// The puzzle to open (a retry, or the one a reload left); `None`: pick one.
        #[serde(default)]
        id: Option<String>,
        /// The player's rating (the page keeps it): the first result of this try moves it.
        /// `None`: practice, no rating change (a retry), unless `new_player`.
        #[serde(default)]
        rating: Option<PlayerRating>,
        /// A rated try of a player who has no rating yet: they start from Glicko-2's start
        /// ([`gogo_puzzle::glicko::START`]), which the update's `rating_before` tells the
        /// page, so that the start is written once, here.
        #[serde(default)]
        new_player: bool,
        /// Only puzzles of this theme (its file word, e.g. `mate-in-3`).
        #[serde(default)]
        theme: Option<String>,
        /// Puzzles already met, not to be picked again (the most recent first; cut to
        /// [`MAX_SEEN_PUZZLES`]).
        #[serde(default)]
        seen: Vec<String>,
        /// Pick near this rating instead of the player's (streaks climb with it).
        #[serde(default)]
        near: Option<f64>,
    },
    /// A hint for the puzzle's move: first the piece, then also the square.
    PuzzleHint,
    /// The opening explorer for a position (the one the page shows).
    Explore {
        /// The position, SFEN.
        sfen: String,
    },
    /// Show the rest of the puzzle's solution (the try counts as failed).
    PuzzleSolution,
}

/// The most puzzle ids a page may list as already met.
pub const MAX_SEEN_PUZZLES: usize = 20_000;

/// A player's puzzle rating (Glicko-2), as the page keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerRating {
    /// The rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
}

impl From<PlayerRating> for gogo_puzzle::glicko::Rating {
    fn from(r: PlayerRating) -> Self {
        gogo_puzzle::glicko::Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

impl From<gogo_puzzle::glicko::Rating> for PlayerRating {
    fn from(r: gogo_puzzle::glicko::Rating) -> Self {
        PlayerRating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

/// Where a puzzle try stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PuzzleState {
    /// The player is to find the next move.
    Playing,
    /// The opponent's reply is coming.
    Replying,
    /// Solved.
    Solved,
    /// A wrong move, or the solution viewed.
    Failed,
}

/// A book move as the explorer shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExplorerMove {
    /// USI.
    pub usi: String,
    /// Japanese notation.
    pub japanese: String,
    /// Western notation.
    pub western: String,
    /// Its eval for the mover, centipawns.
    pub eval: i32,
    /// The depth of the search behind it.
    pub depth: i32,
    /// How often games played it.
    pub count: u64,
    /// The games' wins, draws and losses after it, from the mover's side.
    pub wdl: [u64; 3],
}

/// The opening explorer's answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExplorerView {
    /// The position asked about.
    pub sfen: String,
    /// The book's moves there, best first (empty: not in the book).
    pub moves: Vec<ExplorerMove>,
    /// Where the game on the board left the book: the ply of its first move the book does
    /// not have (`None` while it is still in the book, or when it started outside it).
    pub left_book_at: Option<usize>,
    /// The book's size in positions.
    pub book_positions: usize,
    /// The moves played here in the games loaded on this page (KIF, CSA), most played first.
    pub loaded_moves: Vec<LoadedMove>,
    /// How many games were loaded on this page.
    pub loaded_games: usize,
}

/// A move of the loaded games, as the explorer shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LoadedMove {
    /// USI.
    pub usi: String,
    /// Japanese notation.
    pub japanese: String,
    /// Western notation.
    pub western: String,
    /// In how many of the loaded games it was played here.
    pub count: u32,
}

/// A move of a puzzle's solution as the page shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolutionMove {
    /// USI.
    pub usi: String,
    /// Japanese notation.
    pub japanese: String,
    /// Western notation.
    pub western: String,
}

/// The puzzle being solved.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PuzzleView {
    /// Its id.
    pub id: String,
    /// Its rating.
    pub rating: u16,
    /// Its themes, as words for a player.
    pub themes: Vec<String>,
    /// Its themes, as the file writes them.
    pub theme_words: Vec<String>,
    /// The side the player moves: `sente` or `gote`.
    pub player: &'static str,
    /// Where the try stands.
    pub state: PuzzleState,
    /// The player's moves found so far, and how many there are.
    pub found: usize,
    /// See [`PuzzleView::found`].
    pub moves: usize,
    /// The wrong move played, USI.
    pub mistake: Option<String>,
    /// The hint: the square of the piece to move (USI, e.g. `3e`) or the piece to drop
    /// (`P*`), then also the square it goes to.
    pub hint: Option<(String, Option<String>)>,
    /// The whole solution, once the try is over.
    pub solution: Vec<SolutionMove>,
    /// The puzzle's start (SFEN).
    pub sfen: String,
    /// Whether this try moves the rating.
    pub rated: bool,
    /// The player's rating after this try, once it is over and was rated.
    pub new_rating: Option<PlayerRating>,
    /// The player's rating when this try began, when it is rated (a new player's is the
    /// start rating).
    pub rating_before: Option<PlayerRating>,
    /// Puzzles in the set.
    pub set_size: usize,
    /// What the theme choice offers: (file word, words for a player).
    pub theme_choices: Vec<(String, String)>,
}

/// How moves are written for a person: the page's setting, for the record, hints, review
/// notes and the comments of a saved record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Notation {
    /// `▲２四銀` (KIF's).
    #[default]
    Japanese,
    /// `S-24`, as lishogi writes it.
    Western,
    /// `3e2d`.
    Usi,
}

/// A score as the engine reported it, from Sente's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum SenteScore {
    /// Centipawns.
    Cp {
        /// The value.
        value: i32,
    },
    /// Mate in this many plies (negative: Sente is mated).
    Mate {
        /// The value.
        plies: i32,
    },
}

/// One analysis line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnalysisLine {
    /// 1-based MultiPV index.
    pub multipv: u32,
    /// Depth.
    pub depth: u32,
    /// Score for Sente.
    pub score: Option<SenteScore>,
    /// Sente's winning chance from the score, 0 to 1.
    pub sente_win: Option<f64>,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// Nodes.
    pub nodes: Option<u64>,
    /// The PV in USI.
    pub pv: Vec<String>,
    /// The PV in Japanese notation.
    pub pv_japanese: String,
    /// The PV in Western notation (lishogi's).
    pub pv_western: String,
}

/// A square's content for the page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardPiece {
    /// USI square, e.g. `3c`.
    pub square: String,
    /// `sente` or `gote`.
    pub color: &'static str,
    /// SFEN letter with `+` for promoted pieces, uppercase (`P`, `+B`).
    pub kind: String,
}

/// A clock's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ClockView {
    /// Main time left, ms, by colour (Sente first).
    pub main_ms: [u64; 2],
    /// Byoyomi per move, ms (0 for Fischer).
    pub byoyomi_ms: u64,
    /// Which side's clock runs (0 Sente, 1 Gote), if any.
    pub running: Option<usize>,
}

/// One move of the record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RecordMove {
    /// USI.
    pub usi: String,
    /// Japanese notation with the mover's mark.
    pub japanese: String,
    /// Western notation (lishogi's), e.g. `P-53`.
    pub western: String,
}

/// What the page shows of the game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameView {
    /// SFEN of every position, the start first.
    pub positions: Vec<String>,
    /// The moves.
    pub moves: Vec<RecordMove>,
    /// The current position's pieces.
    pub board: Vec<BoardPiece>,
    /// Hands: per colour (Sente first), `[letter, count]` pairs.
    pub hands: [Vec<(String, u8)>; 2],
    /// `sente` or `gote`.
    pub turn: &'static str,
    /// The legal moves of the current position, in USI (empty when the game is over or the
    /// engine is to move).
    pub legal: Vec<String>,
    /// The last move, USI.
    pub last_move: Option<String>,
    /// Whether the side to move is in check.
    pub in_check: bool,
    /// Who plays each side.
    pub players: [Player; 2],
    /// The rule set's name.
    pub rules: &'static str,
    /// The clock, if any.
    pub clock: Option<ClockView>,
    /// The result, when the game is over: `1-0`, `0-1`, `1/2-1/2`.
    pub result: Option<String>,
    /// Why it ended, in words.
    pub reason: Option<String>,
    /// How it ended when not by the rules (see [`KeptEnding`]).
    pub ending: Option<KeptEnding>,
    /// Sente's score after each ply, as far as the engine said (for the graph).
    pub scores: Vec<Option<f64>>,
    /// The engine's name.
    pub engine: String,
    /// The engine's strength level in this game (0: full strength).
    pub level: u8,
    /// The highest level the engine offers (its `Level` option; 0 when it has none).
    pub max_level: u8,
    /// The ply limit of this game, if any.
    pub max_plies: Option<u32>,
    /// Whether the engine is thinking about its move.
    pub thinking: bool,
    /// Whether the engine has started (its name is known).
    pub engine_ready: bool,
    /// The players a loaded record names (Sente, Gote), if it names them.
    pub names: [Option<String>; 2],
}

/// What the server tells the page.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Update {
    /// The page's board: its key, which the page keeps for its tab and gives back when it
    /// reconnects, to find its game as the server kept it (clock and all).
    Board {
        /// The board's key: a secret of this page's.
        key: String,
        /// Whether this is the board the page had (`false`: a new board, since the server
        /// no longer had the page's).
        resumed: bool,
    },
    /// The game as it now stands.
    State(Box<GameView>),
    /// The engine's analysis lines.
    Analysis {
        /// The lines, MultiPV order.
        lines: Vec<AnalysisLine>,
    },
    /// The answer to a mate search.
    Mate {
        /// `mate N: ...`, `no mate`, or `no answer in time`.
        text: String,
        /// The line in Japanese, if mate.
        japanese: String,
        /// The line in Western notation, if mate.
        western: String,
    },
    /// The game as KIF and CSA text.
    Export {
        /// KIF.
        kif: String,
        /// CSA.
        csa: String,
        /// The current position's SFEN.
        sfen: String,
    },
    /// The engine's hint for the current position.
    Hint {
        /// The move, USI.
        usi: String,
        /// The move in Japanese notation.
        japanese: String,
        /// The move in Western notation.
        western: String,
        /// The position the hint is for (SFEN), so that a late answer is not drawn on
        /// another position.
        sfen: String,
    },
    /// The review of the game, as far as it has got.
    Review(Box<crate::review::ReviewView>),
    /// The puzzle being solved.
    Puzzle(Box<PuzzleView>),
    /// The opening explorer: the book's moves for a position.
    Explorer(Box<ExplorerView>),
    /// Something went wrong; the game is kept.
    Error {
        /// What, in words.
        message: String,
    },
}

impl Update {
    /// An error update, in words no longer than [`MAX_ERROR_CHARS`] (see [`brief`]).
    pub fn error(message: impl AsRef<str>) -> Update {
        Update::Error {
            message: brief(message.as_ref()),
        }
    }
}

/// The longest error message sent to a page, in characters.
pub const MAX_ERROR_CHARS: usize = 200;

/// `text` if it is short; else its start and its end around an ellipsis, at most
/// [`MAX_ERROR_CHARS`] characters in all: an error that quotes its input (a 500 KB record
/// line, say) sends back a short prefix of it, and keeps the end that says what was wrong.
pub fn brief(text: &str) -> String {
    let count = text.chars().count();
    if count <= MAX_ERROR_CHARS {
        return text.to_string();
    }
    const GAP: &str = " … ";
    let tail = MAX_ERROR_CHARS / 3;
    let head = MAX_ERROR_CHARS - tail - GAP.chars().count();
    let start: String = text.chars().take(head).collect();
    let end: String = text.chars().skip(count - tail).collect();
    format!("{start}{GAP}{end}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_brief() {
        assert_eq!(brief("illegal move"), "illegal move");
        let long = format!("record line 3: '{}' is not a move", "x".repeat(500_000));
        let short = brief(&long);
        assert_eq!(short.chars().count(), MAX_ERROR_CHARS);
        assert!(short.starts_with("record line 3: 'xxx"), "{short}");
        assert!(short.ends_with("' is not a move"), "{short}");
        let wide = "歩".repeat(1000);
        assert_eq!(brief(&wide).chars().count(), MAX_ERROR_CHARS);
    }
}
