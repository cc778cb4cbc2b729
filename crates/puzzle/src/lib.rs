//! # gogo-puzzle
//!
//! Minishogi puzzles as data, for the board and the generator alike, without the search:
//!
//! - [`Puzzle`]: a position, the solution's moves, detected [`Theme`]s, a rating and where it
//!   came from; one tab-separated line each ([`read_puzzles`], [`Puzzle::to_line`]), the text
//!   parsed first and then checked against the rules (every solution move legal).
//! - [`Puzzle::judge`]: whether a player's move is the solution's, with lishogi's rule that
//!   any mate is right at the last move of a mate puzzle.
//! - [`glicko`]: Glicko-2 ratings, as lishogi and lichess rate players and puzzles.
//! - [`set`]: the set built into the board, and the pick of the next puzzle near a rating.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod fuzz_checks;
pub mod glicko;
mod puzzle;
pub mod set;
mod theme;

pub use puzzle::{read_puzzles, ParsePuzzleError, Puzzle, Verdict, MAX_SOLUTION_PLIES};
pub use theme::{detect_themes, ParseThemeError, PuzzleKind, Theme, LONG_LINE_MOVES};
