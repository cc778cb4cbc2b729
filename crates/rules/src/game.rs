//! Game rules in one place: a [`Game`] (start position, moves, positions) judged by a
//! [`RuleSet`], reporting an [`Outcome`].

use crate::error::{MoveError, SfenError, TooManyMoves, MAX_GAME_MOVES};
use crate::moves::Move;
use crate::piece::Color;
use crate::position::Position;
use crate::repetition::RepetitionRule;
use crate::sfen::{parse_usi_position, KAWU_START, STANDARD_START};
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

/// A rule set: what repetition means, an optional ply limit and the usual start position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuleSet {
    /// Repetition rule.
    pub repetition: RepetitionRule,
    /// The game is drawn when this many plies have been played (counted from move number 1
    /// of the SFEN); `None` for no limit.
    pub max_plies: Option<u32>,
    /// The rule set's start position.
    pub start_sfen: &'static str,
}

impl RuleSet {
    /// `standard`: fourth occurrence loses for Sente (perpetual check loses for the checker),
    /// no ply limit, standard start position.
    pub const fn standard() -> RuleSet {
        RuleSet {
            repetition: RepetitionRule::SenteLoses,
            max_plies: None,
            start_sfen: STANDARD_START,
        }
    }

    /// `kawu`: fourth occurrence is a draw, 300 plies is a draw, pawn in front of the rook.
    pub const fn kawu() -> RuleSet {
        RuleSet {
            repetition: RepetitionRule::Draw,
            max_plies: Some(300),
            start_sfen: KAWU_START,
        }
    }

    /// The same rules with another ply limit (`None` or `Some(0)` for none).
    pub const fn with_max_plies(mut self, max_plies: Option<u32>) -> RuleSet {
        self.max_plies = match max_plies {
            Some(0) => None,
            other => other,
        };
        self
    }

    /// The name of the preset these rules derive from.
    pub fn name(&self) -> &'static str {
        match self.repetition {
            RepetitionRule::SenteLoses => "standard",
            RepetitionRule::Draw => "kawu",
        }
    }

    /// The rule set's start position.
    pub fn start_position(&self) -> Position {
        Position::from_sfen(self.start_sfen).expect("preset start positions are valid")
    }
}

impl Default for RuleSet {
    fn default() -> Self {
        RuleSet::standard()
    }
}

/// A rule-set name that is neither `standard` nor `kawu`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseRuleSetError {
    /// The name that was given.
    pub name: String,
}

impl fmt::Display for ParseRuleSetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown rule set '{}' (standard or kawu)", self.name)
    }
}

impl std::error::Error for ParseRuleSetError {}

impl FromStr for RuleSet {
    type Err = ParseRuleSetError;

    /// Reads a preset name, `standard` or `kawu`, in any case.
    fn from_str(text: &str) -> Result<RuleSet, ParseRuleSetError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "standard" => Ok(RuleSet::standard()),
            "kawu" => Ok(RuleSet::kawu()),
            _ => Err(ParseRuleSetError {
                name: text.trim().to_string(),
            }),
        }
    }
}

/// Why a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// The loser is in check and has no legal move.
    Checkmate,
    /// The loser is not in check but has no legal move.
    NoLegalMoves,
    /// Fourth occurrence of a position under `standard`: Sente loses.
    Repetition,
    /// Fourth occurrence while the loser gave check with every move.
    PerpetualCheck,
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// Fourth occurrence of a position under `kawu`.
    Repetition,
    /// Fourth occurrence while both sides gave check with every move.
    MutualPerpetualCheck,
    /// The ply limit was reached.
    PlyLimit,
}

impl WinReason {
    /// The reason in words, e.g. `checkmate`.
    pub const fn as_str(self) -> &'static str {
        match self {
            WinReason::Checkmate => "checkmate",
            WinReason::NoLegalMoves => "no legal moves",
            WinReason::Repetition => "fourfold repetition",
            WinReason::PerpetualCheck => "perpetual check",
        }
    }
}

impl DrawReason {
    /// The reason in words, e.g. `ply limit`.
    pub const fn as_str(self) -> &'static str {
        match self {
            DrawReason::Repetition => "fourfold repetition",
            DrawReason::MutualPerpetualCheck => "mutual perpetual check",
            DrawReason::PlyLimit => "ply limit",
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One side won.
    Win {
        /// The winner.
        winner: Color,
        /// How the game was won.
        reason: WinReason,
    },
    /// Nobody won.
    Draw {
        /// What made it a draw.
        reason: DrawReason,
    },
}

impl Outcome {
    /// The winner, if any.
    pub fn winner(&self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(*winner),
            Outcome::Draw { .. } => None,
        }
    }
}

impl Outcome {
    /// Why the game ended, in words (`checkmate`, `ply limit`, ...), without the winner.
    pub const fn reason(&self) -> &'static str {
        match self {
            Outcome::Win { reason, .. } => reason.as_str(),
            Outcome::Draw { reason } => reason.as_str(),
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { winner, .. } => write!(f, "{winner} wins by {}", self.reason()),
            Outcome::Draw { .. } => write!(f, "draw by {}", self.reason()),
        }
    }
}

/// Why a move could not be added to a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The game has already ended.
    Over(Outcome),
    /// The move is not legal (or not a move).
    Move(MoveError),
    /// The game already holds [`MAX_GAME_MOVES`] moves.
    TooManyMoves(TooManyMoves),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Over(o) => write!(f, "the game is over ({o})"),
            GameError::Move(e) => e.fmt(f),
            GameError::TooManyMoves(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for GameError {}

/// Whether two positions are "the same" for repetition: board, hands and side to move.
pub fn same_position(a: &Position, b: &Position) -> bool {
    a.key() == b.key()
        && a.side_to_move() == b.side_to_move()
        && a.board() == b.board()
        && a.hand(Color::Sente) == b.hand(Color::Sente)
        && a.hand(Color::Gote) == b.hand(Color::Gote)
}

/// A game: start position, moves played and every position reached, judged by a rule set.
#[derive(Clone, Debug)]
pub struct Game {
    rules: RuleSet,
    positions: Vec<Position>,
    moves: Vec<Move>,
    outcome: Option<Outcome>,
    /// The indices in `positions` of each key's positions, so that judging a repetition
    /// looks at the few earlier occurrences instead of the whole game (a game of
    /// [`MAX_GAME_MOVES`] replays in linear time).
    occurrences: HashMap<u64, Vec<usize>>,
}

impl Game {
    /// A game from the rule set's start position.
    pub fn new(rules: RuleSet) -> Game {
        Game::from_position(rules, rules.start_position())
    }

    /// A game from any legal position.
    pub fn from_position(rules: RuleSet, start: Position) -> Game {
        let mut game = Game {
            rules,
            occurrences: HashMap::from([(start.key(), vec![0])]),
            positions: vec![start],
            moves: Vec::new(),
            outcome: None,
        };
        game.outcome = game.judge();
        game
    }

    /// A game from USI position text (`startpos`, `sfen ...`, optionally `moves ...`). Moves
    /// after the game has ended are refused.
    pub fn from_usi(rules: RuleSet, text: &str) -> Result<Game, SfenError> {
        let (start, moves) = parse_usi_position(text)?;
        let mut game = Game::from_position(rules, start);
        for (i, mv) in moves.into_iter().enumerate() {
            game.play(mv).map_err(|e| SfenError::Move {
                index: i + 1,
                error: match e {
                    GameError::Move(e) => e,
                    GameError::Over(_) => MoveError::Illegal(mv),
                    GameError::TooManyMoves(e) => return SfenError::TooManyMoves(e),
                },
            })?;
        }
        Ok(game)
    }

    /// The rules.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game has a position")
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// Every position, the start first and the current last.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Plays a move given as USI text.
    pub fn play_usi(&mut self, text: &str) -> Result<Move, GameError> {
        if let Some(o) = self.outcome {
            return Err(GameError::Over(o));
        }
        let mv = self.position().parse_move(text).map_err(GameError::Move)?;
        self.play(mv)?;
        Ok(mv)
    }

    /// Plays a move, then judges the new position. A game holds at most
    /// [`MAX_GAME_MOVES`] moves.
    pub fn play(&mut self, mv: Move) -> Result<(), GameError> {
        if let Some(o) = self.outcome {
            return Err(GameError::Over(o));
        }
        if !self.position().is_legal(mv) {
            return Err(GameError::Move(MoveError::Illegal(mv)));
        }
        if self.moves.len() >= MAX_GAME_MOVES {
            return Err(GameError::TooManyMoves(TooManyMoves));
        }
        let next = self.position().played(mv);
        self.occurrences
            .entry(next.key())
            .or_default()
            .push(self.positions.len());
        self.positions.push(next);
        self.moves.push(mv);
        self.outcome = self.judge();
        Ok(())
    }

    /// How many times the current position has occurred, this time included.
    pub fn repetitions(&self) -> usize {
        self.occurrences_of_current().count()
    }

    /// The indices of the current position's occurrences (the same board, hands and side to
    /// move), latest (the current one) first.
    fn occurrences_of_current(&self) -> impl Iterator<Item = usize> + '_ {
        let current = self.position();
        self.occurrences
            .get(&current.key())
            .into_iter()
            .flatten()
            .rev()
            .copied()
            .filter(move |&i| same_position(&self.positions[i], current))
    }

    fn judge(&self) -> Option<Outcome> {
        let pos = self.position();
        let us = pos.side_to_move();
        // 1. No legal move: the side to move loses.
        if !pos.has_legal_move() {
            let reason = if pos.in_check() {
                WinReason::Checkmate
            } else {
                WinReason::NoLegalMoves
            };
            return Some(Outcome::Win {
                winner: !us,
                reason,
            });
        }
        // 2. Fourth occurrence of the position.
        if let Some(outcome) = self.judge_repetition() {
            return Some(outcome);
        }
        // 3. Ply limit.
        if let Some(limit) = self.rules.max_plies {
            if pos.move_number() > limit {
                return Some(Outcome::Draw {
                    reason: DrawReason::PlyLimit,
                });
            }
        }
        None
    }

    fn judge_repetition(&self) -> Option<Outcome> {
        let current = self.position();
        // The cycle runs from the first of the four occurrences to now.
        let first = self
            .occurrences_of_current()
            .nth(RepetitionRule::DECIDING_OCCURRENCE - 1)?;
        let in_check: Vec<bool> = self.positions[first..]
            .iter()
            .map(|p| p.in_check())
            .collect();
        Some(
            self.rules
                .repetition
                .verdict(current.side_to_move(), &in_check),
        )
    }
}
