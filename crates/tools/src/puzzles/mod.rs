//! `gogo puzzles`: finding puzzles in games ([`generate`]), rating them by which of gogo's
//! levels solve them ([`rate`]), and checking a set again with a deeper, independent run
//! ([`check`]). The format, the themes and the judge of a move live in `gogo-puzzle`, which
//! the board reads without the search.
//!
//! A position is a puzzle when the side to move has a win that only one move starts:
//! - a *mate*: the search sees a mate in N plies and no other first move mates within N;
//!   each later move of the player is again the only one that mates in time, except the
//!   last, where any mate is right (lishogi's rule);
//! - a *tactic*: the best move's winning chance beats every other's by [`MARGIN`] and leaves
//!   the position won ([`WON`]); the line goes on while the player's next move is again the
//!   only one that keeps the win;
//! - a *defence*: the only move that does not lose.

mod analyst;
pub mod run;

pub use crate::games::{read_games, SourceGame};
pub use analyst::Analyst;

use gogo_mate::brute;
use gogo_puzzle::{detect_themes, Puzzle, PuzzleKind as Kind, Theme, Verdict};
use gogo_rules::{Move, Position, Rng, Square};
use gogo_search::value::MATE;

/// The winning chance (0 to 1) by which the best move must beat every other (30 points on
/// lishogi's 0-100 scale).
pub const MARGIN: f64 = 0.30;
/// The chance at which a position counts as won.
pub const WON: f64 = 0.80;
/// A defence: the best move keeps at least this chance ...
pub const HOLDS: f64 = 0.30;
/// ... and every other leaves at most this.
pub const LOSES: f64 = 0.12;
/// The first line of a puzzle file the generator writes.
pub const FILE_HEADER: &str =
    "# gogo puzzles: id, SFEN, solution (USI), themes, rating, source. Made by `gogo puzzles generate`; see docs/puzzles.md.";
/// A one-move tactic: the second move's chance at most this (it does not win).
pub const ONE_MOVE_SECOND_AT_MOST: f64 = 0.55;
/// The longest mate kept, in plies.
pub const MAX_MATE_PLIES: usize = 11;
/// The most moves of the player in a tactic's line.
pub const MAX_PLAYER_MOVES: usize = 5;
/// The check's margin: a little below the generator's, so that a puzzle is refused only
/// when the deeper search really disagrees, not for a few points of noise.
pub const CHECK_MARGIN: f64 = 0.20;

/// The rating given to a puzzle that level `L` (1 to 10) is the weakest to solve reliably:
/// index `L - 1`. Level 1 is a careless beginner that misses mates; level 10 is gogo at
/// 600,000 nodes. The numbers are placed on lishogi's puzzle scale (most puzzles 1000-2200)
/// and are a choice to be refitted from players' results (docs/puzzles.md).
pub const LEVEL_RATINGS: [u16; 10] = [700, 900, 1100, 1250, 1400, 1550, 1700, 1900, 2100, 2300];
/// The rating of a puzzle no level up to 10 solves reliably.
pub const UNSOLVED_RATING: u16 = 2500;

/// How the generator and the checker search.
#[derive(Clone, Debug)]
pub struct PuzzleConfig {
    /// Nodes of the quick look at every position of a game.
    pub screen_nodes: u64,
    /// Nodes of the verification of a candidate, and of each move of its line.
    pub verify_nodes: u64,
    /// Tries per level when rating (a level solves a puzzle reliably if it solves every try).
    pub tries: u64,
    /// Plies of each game skipped at its start (the opening is no puzzle).
    pub skip_plies: usize,
}

impl Default for PuzzleConfig {
    fn default() -> PuzzleConfig {
        PuzzleConfig {
            screen_nodes: 20_000,
            verify_nodes: 200_000,
            tries: 3,
            skip_plies: 4,
        }
    }
}

/// Plies to the mate a score promises the side to move, if it is a mate for it.
fn mate_plies(score: i32) -> Option<usize> {
    (score >= gogo_search::value::MATE_IN_MAX_PLY).then(|| (MATE - score) as usize)
}

/// What the two best lines say of the position, if it is a puzzle.
fn classify(analyst: &Analyst, lines: &[(Move, i32)]) -> Option<Kind> {
    let [(_, best), (_, second), ..] = lines[..] else {
        return None;
    };
    if let Some(n) = mate_plies(best) {
        let rival = mate_plies(second).is_some_and(|m| m <= n);
        return (n <= MAX_MATE_PLIES && !rival).then_some(Kind::Mate(n));
    }
    let (best, second) = (analyst.chance(best), analyst.chance(second));
    if best >= WON && best - second >= MARGIN {
        Some(Kind::Tactic)
    } else if (HOLDS..WON).contains(&best) && second <= LOSES && best - second >= MARGIN {
        Some(Kind::Defence)
    } else {
        None
    }
}

/// Whether two lines say the first move is the only winning one: a tactic's test, also
/// for the moves after a tactic's first.
fn only_winning_move(analyst: &Analyst, lines: &[(Move, i32)], margin: f64) -> bool {
    let [(_, best), (_, second), ..] = lines[..] else {
        // A single legal move is no choice.
        return false;
    };
    let (best, second) = (analyst.chance(best), analyst.chance(second));
    best >= WON && best - second >= margin
}

/// The puzzle in `pos`, if there is one. `source` says where the position came from;
/// `captured_on` is the square where the move before took a piece, if it did: a one-move
/// tactic that only takes back there (a plain recapture, material restored) is no puzzle.
pub fn examine(
    analyst: &mut Analyst,
    pos: &Position,
    captured_on: Option<Square>,
    source: &str,
    config: &PuzzleConfig,
) -> Option<Puzzle> {
    if pos.legal_moves().len() < 2 {
        return None;
    }
    let screen = analyst.lines(pos, config.screen_nodes, 2);
    classify(analyst, &screen)?;
    // The verification starts from an empty table, so that it does not depend on the
    // positions examined before.
    analyst.new_position();
    let first = analyst.lines(pos, config.verify_nodes, 2);
    let mut kind = classify(analyst, &first)?;
    let solution = match kind {
        // A mate whose later moves have rivals is still a unique first move that wins: a
        // tactic, with its line as far as it stays unique.
        Kind::Mate(n) => mate_line(analyst, pos, n, config.verify_nodes).unwrap_or_else(|| {
            kind = Kind::Tactic;
            tactic_line(analyst, pos, first[0].0, config.verify_nodes)
        }),
        Kind::Tactic => tactic_line(analyst, pos, first[0].0, config.verify_nodes),
        Kind::Defence => vec![first[0].0],
    };
    let recapture = |mv: Move| captured_on == Some(mv.to());
    if solution.len() == 1 && !matches!(kind, Kind::Mate(_)) && recapture(solution[0]) {
        return None;
    }
    // A tactic of one move is kept only where the second move does not win either: with a
    // second move that still wins, a deeper search finds it winning by as much more often
    // than not (the check refused 519 of 851 such puzzles).
    if kind == Kind::Tactic && solution.len() == 1 {
        let second = first.get(1).map_or(0.0, |&(_, s)| analyst.chance(s));
        if second > ONE_MOVE_SECOND_AT_MOST {
            return None;
        }
    }
    let themes = detect_themes(pos, &solution, kind);
    let id = format!("{:012x}", pos.key() >> 16);
    // Checked by the rules like any puzzle (the line is the search's, so it passes), then
    // rated by the levels, which judge it as a player's moves are judged.
    let found = Puzzle::new(&id, pos.clone(), solution, themes, UNSOLVED_RATING, source).ok()?;
    let rating = rate(analyst, &found, config.tries);
    Some(found.with_rating(rating))
}

/// The mating line from `pos` in `plies`: the player's moves each the only one that mates
/// in time (any at the last), the defender's the longest resistance the search finds.
fn mate_line(analyst: &mut Analyst, pos: &Position, plies: usize, nodes: u64) -> Option<Vec<Move>> {
    let mut line = Vec::new();
    let mut p = pos.clone();
    let mut left = plies;
    loop {
        let lines = analyst.lines(&p, nodes, 2);
        let (mv, score) = *lines.first()?;
        let n = mate_plies(score).filter(|&n| n <= left)?;
        let rival = lines
            .get(1)
            .is_some_and(|&(_, s)| mate_plies(s).is_some_and(|m| m <= n));
        if n > 1 && rival {
            return None;
        }
        line.push(mv);
        p = p.played(mv);
        if p.legal_moves().is_empty() {
            return Some(line);
        }
        let (reply, _) = *analyst.lines(&p, nodes, 1).first()?;
        line.push(reply);
        p = p.played(reply);
        left = n.checked_sub(2)?;
    }
}

/// A tactic's line: `first`, then while the player's next move is again the only one that
/// keeps the win, the best reply and that move.
fn tactic_line(analyst: &mut Analyst, pos: &Position, first: Move, nodes: u64) -> Vec<Move> {
    let mut line = vec![first];
    let mut p = pos.played(first);
    while line.len() < 2 * MAX_PLAYER_MOVES - 1 && !p.legal_moves().is_empty() {
        let Some(&(reply, _)) = analyst.lines(&p, nodes, 1).first() else {
            break;
        };
        let next = p.played(reply);
        let lines = analyst.lines(&next, nodes, 2);
        if !only_winning_move(analyst, &lines, MARGIN) {
            break;
        }
        line.extend([reply, lines[0].0]);
        p = next.played(lines[0].0);
    }
    line
}

/// The rating of `puzzle`: that of the weakest level that solves it in every one of `tries`
/// tries (each level's chance seeded differently), [`UNSOLVED_RATING`] if none does.
pub fn rate(analyst: &mut Analyst, puzzle: &Puzzle, tries: u64) -> u16 {
    for level in 1..=10u8 {
        let solves = (0..tries).all(|t| level_solves(analyst, puzzle, level, t));
        if solves {
            return LEVEL_RATINGS[usize::from(level) - 1];
        }
    }
    UNSOLVED_RATING
}

/// Whether `level` plays the whole solution in try `seed`. Each try starts from empty
/// tables, as a game would: what the verification's deep searches stored (mate scores) is
/// not the level's to see.
pub fn level_solves(analyst: &mut Analyst, puzzle: &Puzzle, level: u8, seed: u64) -> bool {
    analyst.new_position();
    (0..puzzle.solution().len()).step_by(2).all(|ply| {
        let pos = puzzle.position_at(ply);
        let seed = seed * 1_000 + ply as u64;
        analyst
            .level_move(&pos, level, seed)
            .is_some_and(|mv| puzzle.judge(ply, mv) != Verdict::Wrong)
    })
}

/// Why a puzzle failed the check.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum CheckFailure {
    /// Another first move wins as well (its USI text).
    Ambiguous(String),
    /// At this ply the deeper search prefers another move, or the line no longer wins.
    Refuted(usize),
    /// The mate is longer or shorter than the themes say, or the line does not mate.
    MateLength,
}

impl std::fmt::Display for CheckFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CheckFailure::Ambiguous(mv) => write!(f, "ambiguous: {mv} wins as well"),
            CheckFailure::Refuted(ply) => write!(f, "refuted at ply {}", ply + 1),
            CheckFailure::MateLength => write!(f, "wrong mate length"),
        }
    }
}

/// Checks `puzzle` again: tsume by the exhaustive checks-only search (the mate's length, and
/// no second mating check at the first move) and every puzzle by a search at `nodes` with two
/// lines at each of the player's moves.
pub fn check(analyst: &mut Analyst, puzzle: &Puzzle, nodes: u64) -> Result<(), CheckFailure> {
    let solution = &puzzle.solution();
    analyst.new_position();
    // A tsume's length is proved by the exhaustive search below (or the check fails there): a
    // search that does not find the mate within its nodes says nothing against it (it can still
    // find a rival or a shorter mate).
    let tsume = puzzle.is_mate() && puzzle.themes().contains(&Theme::Tsume);
    if puzzle.is_mate() {
        let plies = solution.len();
        if !puzzle.themes().contains(&Theme::mate_in(plies)) {
            return Err(CheckFailure::MateLength);
        }
        if tsume {
            let exact = brute::mate_length(puzzle.position(), plies as u32);
            if exact != Some(plies as u32) || !brute::is_mating_line(puzzle.position(), solution) {
                return Err(CheckFailure::MateLength);
            }
            let rival = brute::mating_checks(puzzle.position(), plies as u32)
                .into_iter()
                .find(|&m| m != solution[0]);
            if let Some(rival) = rival {
                return Err(CheckFailure::Ambiguous(rival.to_string()));
            }
        }
    }
    for ply in (0..solution.len()).step_by(2) {
        let pos = puzzle.position_at(ply);
        let lines = analyst.lines(&pos, nodes, 2);
        let Some(&(best, best_score)) = lines.first() else {
            return Err(CheckFailure::Refuted(ply));
        };
        let last = ply + 1 == solution.len();
        if puzzle.is_mate() {
            let left = solution.len() - ply;
            let Some(n) = mate_plies(best_score).filter(|&n| n <= left) else {
                if tsume {
                    continue;
                }
                return Err(if ply == 0 {
                    CheckFailure::MateLength
                } else {
                    CheckFailure::Refuted(ply)
                });
            };
            if ply == 0 && n < left {
                return Err(CheckFailure::MateLength);
            }
            if let Some(&(rival, score)) = lines.get(1) {
                // Any mate is right at the last move, but not a second mate at the first.
                if (ply == 0 || !last) && mate_plies(score).is_some_and(|m| m <= n) {
                    return Err(CheckFailure::Ambiguous(rival.to_string()));
                }
            }
            if !last && best != solution[ply] {
                return Err(CheckFailure::Ambiguous(best.to_string()));
            }
        } else {
            if best != solution[ply] {
                return Err(if ply == 0 {
                    CheckFailure::Ambiguous(best.to_string())
                } else {
                    CheckFailure::Refuted(ply)
                });
            }
            let holds = if puzzle.themes().contains(&Theme::Defence) {
                let [(_, b), (_, s), ..] = lines[..] else {
                    return Err(CheckFailure::Refuted(ply));
                };
                analyst.chance(b) - analyst.chance(s) >= CHECK_MARGIN
            } else {
                only_winning_move(analyst, &lines, CHECK_MARGIN)
            };
            if !holds {
                let rival = lines.get(1).map_or(String::new(), |l| l.0.to_string());
                return Err(if ply == 0 {
                    CheckFailure::Ambiguous(rival)
                } else {
                    CheckFailure::Refuted(ply)
                });
            }
        }
    }
    Ok(())
}

/// Finds the puzzles of `game`, looking at a position only if `first_look` says it is new
/// (by key), and calling `found` with each.
pub fn generate(
    analyst: &mut Analyst,
    game: &SourceGame,
    config: &PuzzleConfig,
    first_look: &mut dyn FnMut(u64) -> bool,
    found: &mut dyn FnMut(Puzzle),
) {
    let mut pos = game.start.clone();
    let mut captured_on = None;
    for (ply, &mv) in game.moves.iter().enumerate() {
        if ply >= config.skip_plies && first_look(pos.key()) {
            let source = format!("{}:{}", game.name, ply);
            if let Some(puzzle) = examine(analyst, &pos, captured_on, &source, config) {
                found(puzzle);
            }
        }
        if !pos.is_legal(mv) {
            break;
        }
        captured_on = pos.captured_piece(mv).map(|_| mv.to());
        pos = pos.played(mv);
    }
}

/// A self-play game longer than this is cut (the rest is repetition).
const MAX_SELF_PLAY_PLIES: usize = 200;

/// A game of gogo against itself named `name`, each side at a level from 4 to 9 (their
/// mistakes make the tactics), from the start position with two random plies first; seeded.
pub fn self_play_game(analyst: &mut Analyst, seed: u64, name: String) -> SourceGame {
    let mut rng = Rng::new(seed);
    let start = Position::startpos();
    let mut moves = rng.random_game(&start, 2);
    let mut game = gogo_rules::Game::new(gogo_rules::RuleSet::standard());
    for &mv in &moves {
        let _ = game.play(mv);
    }
    let levels = [4 + rng.below(6) as u8, 4 + rng.below(6) as u8];
    while game.outcome().is_none() && moves.len() < MAX_SELF_PLAY_PLIES {
        let side = game.position().side_to_move().index();
        let level_seed = rng.next_u64();
        let Some(mv) = analyst.level_move(game.position(), levels[side], level_seed) else {
            break;
        };
        if game.play(mv).is_err() {
            break;
        }
        moves.push(mv);
    }
    SourceGame {
        name,
        start,
        moves,
        result: game.outcome().map(|o| o.winner()),
    }
}
