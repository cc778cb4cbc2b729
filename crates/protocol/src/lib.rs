//! # gogo-protocol
//!
//! USI, the protocol between a shogi GUI and an engine, for 5x5 boards: every GUI command
//! ([`GuiCommand`]) and engine message ([`EngineMessage`], with [`Info`] for `info` lines)
//! as a type that reads with `FromStr` and writes with `Display` (writing then reading gives
//! the same value back), and the GUI's side of the conversation: [`EngineClient`] runs a USI
//! engine as a child process and speaks to it only in these types, with a deadline on every
//! wait. [`LineProcess`] is the plumbing under it (a child process whose output lines arrive
//! through a reader thread), which tests use to drive other line-based programs too.
//!
//! The engine (`gogo`), the match runner (`gogo-arena`) and the browser board build on this
//! crate; it depends on the rules crate only, for moves and positions.
//!
//! ```
//! use gogo_protocol::{EngineMessage, GuiCommand};
//! let cmd: GuiCommand = "position startpos moves 5d5c".parse().unwrap();
//! assert_eq!(cmd.to_string(), "position startpos moves 5d5c");
//! let msg: EngineMessage = "bestmove 2b1a+ ponder P*3c".parse().unwrap();
//! assert_eq!(msg.to_string(), "bestmove 2b1a+ ponder P*3c");
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod client;
pub mod clock;
pub mod ending;
pub mod engine_message;
pub mod error;
pub mod fuzz_checks;
pub mod gui_command;
pub mod info;
pub mod lines;
pub mod process;

pub use client::{BestMoveAnswer, ClientError, EngineClient, EngineSpec, ParseEngineSpecError};
pub use clock::{Clock, ParseTimeControlError, TimeControl};
pub use ending::Ending;
pub use engine_message::{BestMove, Checkmate, EngineMessage, OptionKind};
pub use error::ParseMessageError;
pub use gui_command::{GameResult, GoCommand, GuiCommand, MateLimit, PositionSetup};
pub use info::{Info, InfoScore, ScoreBound, Wdl};
pub use lines::{BoundedLines, Line};
pub use process::{
    LineProcess, RecvError, MAX_LINE_BYTES, MAX_QUEUED_LINES, MAX_QUEUED_WRITES, WRITE_TIMEOUT,
};
