//! # gogo-rules
//!
//! Everything about minishogi (5x5 shogi) that is not search: the board and its bitboards,
//! compile-time attack tables, moves and their USI notation, legal move generation (pawn-drop
//! mate excluded), copy-make move playing with cached checkers and pins, Zobrist keys with
//! hand counts, SFEN reading and writing, game-end rules and perft.
//!
//! ```
//! use gogo_rules::{perft, Position};
//! let pos = Position::startpos();
//! assert_eq!(perft(&pos, 3), 2512);
//! let mv = pos.parse_move("3e3d").unwrap(); // the silver steps forward
//! assert_eq!(pos.played(mv).to_sfen(), "rbsgk/4p/5/P1S2/KG1BR w - 2");
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod attacks;
pub mod bitboard;
pub mod csa;
pub mod error;
pub mod fuzz_checks;
pub mod game;
pub mod hand;
pub mod kif;
pub mod movegen;
pub mod moves;
pub mod packed;
pub mod perft;
pub mod piece;
pub mod position;
pub mod repetition;
pub mod rng;
pub mod sfen;
pub mod square;
pub mod western;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use error::{
    MoveError, ParseSfenError, PositionError, RecordError, SfenError, SfenField, TooManyMoves,
    MAX_GAME_MOVES, MAX_RECORD_BYTES,
};
pub use game::{DrawReason, Game, GameError, Outcome, ParseRuleSetError, RuleSet, WinReason};
pub use hand::Hand;
pub use moves::{usi_line, Move, MoveKind, MoveList, ParseMoveError, MAX_MOVES};
pub use packed::PackedPosition;
pub use perft::{perft, perft_divide, perft_mating_pawn_drops, perft_until, MAX_PERFT_DEPTH};
pub use piece::{Color, Piece, PieceKind};
pub use position::{promotion_zone, Position, MAX_MOVE_NUMBER};
pub use repetition::RepetitionRule;
pub use rng::Rng;
pub use sfen::{parse_usi_position, SfenParts, KAWU_START, STANDARD_START};
pub use square::{ParseSquareError, Square};
pub use zobrist::{KeyHasher, KeyMap};
