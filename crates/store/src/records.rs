//! What the store keeps, as the server hands it over and gets it back.

use crate::secret::SecretHash;
use gogo_rules::{Color, Game, Move, Position, RuleSet};

/// The longest display name kept, in characters.
pub const MAX_NAME_CHARS: usize = 40;
/// The largest settings text kept (the room's settings as its owner writes them), bytes.
pub const MAX_SETTINGS_BYTES: usize = 4096;
/// The longest reason kept for an ending, bytes.
pub const MAX_REASON_BYTES: usize = 200;

/// Who sits on one side of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRecord {
    /// The player's public id; `None` for the CPU or a seat nobody has taken yet.
    pub player: Option<String>,
    /// The name shown.
    pub name: String,
    /// The hash of the seat's secret; `None` where no person holds the seat.
    pub seat: Option<SecretHash>,
}

/// A game as it starts.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// Its public id.
    pub id: String,
    /// When it was made, ms since the Unix epoch.
    pub created_ms: u64,
    /// Its rules (with its move limit).
    pub rules: RuleSet,
    /// Its start.
    pub start: Position,
    /// The room's settings, as the server writes them (the store keeps them as they are).
    pub settings: String,
    /// Sente's seat, then Gote's.
    pub seats: [SeatRecord; 2],
}

/// One move as played, with both clocks after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredMove {
    /// The move.
    pub mv: Move,
    /// Sente's and Gote's time left after the move, ms (0 without a clock).
    pub clocks_ms: [u64; 2],
    /// When it was played, ms since the Unix epoch.
    pub at_ms: u64,
}

/// How a game ended: the winner (`None`: drawn, or no result) and why, in the server's word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The winner; `None` for a draw or a game that ended without a result (aborted).
    pub winner: Option<Color>,
    /// Why, as the server names it (`checkmate`, `resignation`, `aborted`, ...).
    pub reason: String,
    /// When, ms since the Unix epoch.
    pub ended_ms: u64,
}

/// A game as the store gives it back: its record, with its moves played again by the rules.
#[derive(Clone, Debug)]
pub struct StoredGame {
    /// Its public id.
    pub id: String,
    /// When it was made, ms since the Unix epoch.
    pub created_ms: u64,
    /// The room's settings, as they were stored.
    pub settings: String,
    /// Sente's seat, then Gote's.
    pub seats: [SeatRecord; 2],
    /// The moves with their clock readings.
    pub moves: Vec<StoredMove>,
    /// The game: the start, the rules and the moves, played again.
    pub game: Game,
    /// Its ending, once it has one.
    pub result: Option<GameResult>,
}

/// A game in a player's list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// Its public id.
    pub id: String,
    /// When it was made, ms since the Unix epoch.
    pub created_ms: u64,
    /// Sente's and Gote's names.
    pub names: [String; 2],
    /// Sente's and Gote's player ids, where a person sat.
    pub players: [Option<String>; 2],
    /// Plies played.
    pub plies: usize,
    /// Its ending, once it has one.
    pub result: Option<GameResult>,
}

/// A Glicko-2 rating as kept (the puzzle crate computes it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StoredRating {
    /// The rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
}

/// A player as kept.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerRecord {
    /// The public id.
    pub id: String,
    /// The name shown.
    pub name: String,
    /// The game rating.
    pub rating: StoredRating,
    /// Rated games played.
    pub games: u32,
    /// Whether the player is a program (lishogi's BOT title), as it declared.
    pub bot: bool,
}

/// Which side a stored colour word names.
pub(crate) fn color_word(color: Color) -> &'static str {
    match color {
        Color::Sente => "sente",
        Color::Gote => "gote",
    }
}
