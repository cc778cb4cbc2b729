//! gogo's workshop beside the engine: self-play training data (`gogo datagen`), puzzles
//! (`gogo puzzles`: generate, rate by the levels, check) and opening books (`gogo book`:
//! build, merge, learn, openings, show), with the game files they read. The `gogo` binary's
//! subcommands call them; the engine (`gogo-usi`) does not link them.

#![warn(missing_docs)]

pub mod book_builder;
pub mod datagen;
pub mod fuzz_checks;
pub mod games;
pub mod puzzles;
pub mod repetition;
