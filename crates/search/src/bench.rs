//! `gogo bench`: a fixed list of positions searched to a fixed depth. At one thread the node
//! count is deterministic: a signature of the search that changes only when the search does.

use crate::control::SearchControl;
use crate::evaluator::Evaluation;
use crate::game_history::GameHistory;
use crate::job::{SearchJob, SearchOptions};
use crate::searcher::Searcher;
use crate::time::SearchLimits;
use crate::tt::TableSizeError;
use gogo_rules::{Position, SfenError};
use std::time::{Duration, Instant};

/// The bench positions: both start positions, middle games from random play (checks, hands,
/// promoted pieces) and endgames with full hands.
pub const POSITIONS: &[&str] = &[
    "rbsgk/4p/5/P4/KGSBR b - 1",
    "rbsgk/p4/5/4P/KGSBR b - 1",
    "3k1/G4/4g/PK1b1/5 w 2S1B1R1r1p 1",
    "B1sk1/5/2GG1/1K3/5 w 1s1B2r2P 1",
    "2s2/3gk/5/G3b/K1SB1 b 2r1P1p 1",
    "r1s1k/2b1g/1P1r1/PG3/K1SB1 b - 1",
    "2gb1/5/1S1k1/5/SK1PP b 1G1b1R1r 1",
    "3kb/P4/3g1/K4/G1S2 b 1S1B1R1r1p 1",
    "5/5/SG1s1/Rb1k1/GK3 b 1B1r2P 1",
    "1bsk1/5/5/r4/2KB1 b 1G1g1s1R2p 1",
    "1rsgk/B1P2/p4/2S1b/KG2R b - 1",
    "2g2/5/2g1k/S4/1K3 b 1s2b1R1r2p 1",
    "g2k+r/ppb2/5/1S1G1/K1S2 b 1B1r 1",
    "+S1bg1/4k/2G2/4R/K1S2 w 1B1R2p 1",
    "GGp2/2+B1s/4s/1K1k1/P4 b 1B2R 1",
    "sg1k1/1G3/R1Ps1/5/K2+p1 b 2b1r 1",
    "1+BG+P1/1+B3/1S3/KPG2/2Sk+r b 1R 1",
    "2s2/2bkg/P1R2/2K1R/1+s1B1 b 1g1p 1",
    "3ps/3kp/G4/KB3/4g w 1s1b1R1r 1",
    "2s1k/K1bg1/5/1RS2/G2RP w 1B1P 1",
    "3k1/r2p1/1s1g1/1P3/1K2b b 1g1s1B1r 1",
    "b1G2/g2k1/1S2P/P4/1K1R1 w 1S1B1R 1",
    "2+R1g/2k2/1p3/5/2GK1 w 1S1s1B1b1R1p 1",
    "1BG2/2+S2/RG3/P4/2K1k w 1S1b1R1P 1",
    "3k1/3b1/5/1PG2/K1S2 w 1G1S1B1R1r1p 1",
    "2sk1/5/1Kb1R/pG1P1/+r1S2 b 1g1B 1",
    "2p2/rsb1k/5/G2SG/K4 w 1b1r1P 1",
    "K2g1/1R3/1s+b2/3rk/1B3 w 1G1S2P 1",
    "5/3k1/5/4B/1K3 w 2G2S1B2r2p 1",
    "2+B1k/2R2/S4/3S1/GKG2 b 1B1R2P 1",
    "2kg1/4r/K1p2/G1b2/S1+b2 b 1s1r1p 1",
    "2b1k/5/2S1R/G4/1K1S1 w 1G1B1r2P 1",
    "2p1k/2+R2/5/4+r/1KG2 w 1G2S1B1b1P 1",
    "5/p1s2/4k/G2+b1/1KS2 w 1g1b1R1r1P 1",
    "rbsgk/4p/5/5/KGSBR b P 1",
    "2k2/5/5/5/2K2 b RBGSPrbgsp 1",
    "4k/5/5/5/K4 w RBGS2Prbgs 1",
];

/// The totals of a bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
}

/// Why a bench could not run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BenchError {
    /// The hash table size cannot be had.
    Table(TableSizeError),
    /// A bench position does not read (a bug in [`POSITIONS`]).
    Position {
        /// The position's text.
        sfen: &'static str,
        /// What is wrong with it.
        error: SfenError,
    },
}

impl std::fmt::Display for BenchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BenchError::Table(e) => e.fmt(f),
            BenchError::Position { sfen, error } => write!(f, "bench position {sfen}: {error}"),
        }
    }
}

impl std::error::Error for BenchError {}

/// How to bench.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// Depth in plies.
    pub depth: i32,
    /// Search threads.
    pub threads: usize,
    /// Table size, MiB.
    pub hash_mb: usize,
    /// The evaluation.
    pub evaluation: Evaluation,
}

/// Searches every bench position to the configured depth with a fresh table each; `each` is
/// told each position's node count. Deterministic at one thread.
pub fn run(
    config: &BenchConfig,
    each: &mut dyn FnMut(usize, &str, u64),
) -> Result<BenchResult, BenchError> {
    let BenchConfig {
        depth,
        threads,
        hash_mb,
        ref evaluation,
    } = *config;
    let searcher = Searcher::new(hash_mb).map_err(BenchError::Table)?;
    let start = Instant::now();
    let mut nodes = 0;
    for (i, sfen) in POSITIONS.iter().enumerate() {
        let pos =
            Position::from_sfen(sfen).map_err(|error| BenchError::Position { sfen, error })?;
        // Each position from a fresh table and fresh histories.
        searcher.new_game();
        let job = SearchJob {
            root: pos.clone(),
            history: GameHistory::from_positions(std::slice::from_ref(&pos)),
            limits: SearchLimits {
                depth: Some(depth),
                ..Default::default()
            },
            options: SearchOptions {
                threads: threads.max(1),
                evaluation: evaluation.clone(),
                ..Default::default()
            },
        };
        let result = searcher
            .context()
            .search(&job, &SearchControl::new(false), &|_| {});
        each(i, sfen, result.nodes);
        nodes += result.nodes;
    }
    Ok(BenchResult {
        nodes,
        elapsed: start.elapsed(),
    })
}
