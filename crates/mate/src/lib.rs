//! # gogo-mate
//!
//! A mate solver for minishogi problems (tsume): the side to move (the attacker) gives check
//! with every move, the defender answers with any legal move (interpositions by drops
//! included), a pawn drop that mates is not a legal move (the rules crate never generates
//! it), and a position repeated on the way is a failure of the attacker (perpetual check
//! does not mate).
//!
//! - [`Solver`]: depth-first proof-number search (df-pn) with a bounded proof table
//!   ([`table`]), df-pn+ initial numbers from the move counts, the 1+ε threshold trick, and
//!   repetitions handled so that no disproof that depends on the path is trusted on another
//!   path (the GHI problem). It proves or disproves; then [`line`] extracts the shortest mate
//!   with the defender resisting longest.
//! - [`brute`]: an exhaustive checks-only search, slow and plainly correct, which the tests and
//!   the data set use to confirm mate lengths.
//!
//! ```
//! use gogo_mate::{MateLimits, MateResult, Solver};
//! use gogo_rules::Position;
//! // Two golds and a silver around the king: a gold dropped beside it mates.
//! let pos = Position::from_sfen("k4/2S2/1G3/5/4K b G 1").unwrap();
//! let mut solver = Solver::new(16).unwrap();
//! let outcome = solver.solve(&pos, &MateLimits::default(), &mut |_| {});
//! let MateResult::Mate(line) = outcome.result else { panic!() };
//! assert_eq!(line.len(), 1);
//! assert!(gogo_mate::brute::is_mating_line(&pos, &line));
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod bench;
pub mod brute;
pub mod line;
pub mod solver;
pub mod table;

pub use solver::{MateLimits, MateOutcome, MateProgress, MateResult, Solver, StopSignal};
pub use table::TableSizeError;
