//! `gogo datagen`: self-play games at a fixed node count from randomised openings, written as
//! training data for the NNUE ([`gogo_search::nnue::data`]).
//!
//! Games run in parallel (rayon), one search thread each with its own table. Each game is
//! played under one of the two rule sets (alternately) and starts from that rule set's start
//! position, or from one of a file's positions picked at random (`--starts`: middlegames for
//! variety), plays a random number of random legal moves, and is kept only if a search then
//! scores it within the opening limit.
//! Every position where the side to move is not in check, the chosen move neither captures
//! nor promotes, and the score is not a mate or repetition verdict is recorded with the
//! search's score and, once the game is over, its result. A game ends by the rules, by a
//! forced mate found by the search (the result it announces), or at the ply limit (a draw).

use gogo_rules::{Game, Outcome, Position, Rng, RuleSet, MAX_GAME_MOVES};
use gogo_search::nnue::data::{self, GameResult, Record};
use gogo_search::value::MATE_IN_MAX_PLY;
use gogo_search::{
    Evaluation, GameHistory, SearchControl, SearchJob, SearchLimits, SearchOptions, Searcher,
};
use rayon::prelude::*;
use std::io::Write;
use std::path::PathBuf;
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

/// What to generate.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Games to play.
    pub games: usize,
    /// Nodes per move: the hard limit.
    pub nodes: u64,
    /// The soft limit: no new iteration after this many nodes (`None`: only the hard one).
    pub soft_nodes: Option<u64>,
    /// Games played at once.
    pub threads: usize,
    /// Seed: game `i` is the same game whatever the thread count.
    pub seed: u64,
    /// Positions an opening may start from, one picked at random for each try; empty: the
    /// rule set's start position.
    pub starts: Vec<Position>,
    /// The random plies of an opening: a number from this range.
    pub random_plies: std::ops::RangeInclusive<usize>,
    /// Openings scored beyond this many centipawns are replaced by another.
    pub opening_limit: i32,
    /// Screen openings with a quick search before the full one (see [`OPENING_SCREEN_FRACTION`]).
    pub opening_screen: bool,
    /// Games still going after this many plies are drawn.
    pub max_plies: usize,
    /// Adjudication of decided games: once the mover's score has been beyond this many
    /// centipawns (for the same side) for `adjudicate_plies` plies in a row, that side wins
    /// and the game stops; 0 for never.
    pub adjudicate_cp: i32,
    /// See [`DatagenConfig::adjudicate_cp`].
    pub adjudicate_plies: usize,
    /// The evaluation that plays and scores.
    pub evaluation: Evaluation,
    /// The scale of its scores (see the data format's header).
    pub score_scale: u32,
    /// Hash table per game, MiB.
    pub hash_mb: usize,
    /// The file to write (replaced).
    pub out: PathBuf,
}

/// Totals, for the progress line and the end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DatagenTotals {
    /// Games finished.
    pub games: usize,
    /// Positions written.
    pub positions: u64,
    /// Results from Sente's point of view: wins, draws, losses.
    pub sente_results: [usize; 3],
    /// Plies played in all.
    pub plies: u64,
    /// Random openings thrown away for a score beyond the opening limit.
    pub rejected_openings: usize,
    /// Searches made (openings' included), and the nodes they searched.
    pub searches: u64,
    /// See [`DatagenTotals::searches`].
    pub nodes: u64,
}

/// One finished game's records.
struct FinishedGame {
    records: Vec<Record>,
    sente_result: GameResult,
    plies: usize,
    rejected_openings: usize,
    searches: u64,
    nodes: u64,
}

/// A search's answer: the move (none without a legal move) and its score.
type Answer = (Option<gogo_rules::Move>, i32);

/// An opening kept for a game: the game so far, the search that scored it (the first move's
/// search too), and how many openings were thrown away before it.
struct Opening {
    game: Game,
    answer: Answer,
    rejected: usize,
}

/// A game thread's searcher, kept from game to game.
struct Player {
    searcher: Searcher,
    /// Searches made and nodes searched, all games together.
    searches: u64,
    nodes: u64,
}

impl Player {
    /// A move's search, at the configured node limits.
    fn search(&mut self, game: &Game, config: &DatagenConfig) -> Answer {
        self.search_limited(game, config, config.nodes, config.soft_nodes)
    }

    /// A search at these node limits.
    fn search_limited(
        &mut self,
        game: &Game,
        config: &DatagenConfig,
        nodes: u64,
        soft_nodes: Option<u64>,
    ) -> Answer {
        let job = SearchJob {
            root: game.position().clone(),
            history: GameHistory::from_positions(game.positions()),
            limits: SearchLimits {
                nodes: Some(nodes),
                soft_nodes,
                ..Default::default()
            },
            options: SearchOptions {
                rules: *game.rules(),
                evaluation: config.evaluation.clone(),
                ..Default::default()
            },
        };
        let result = self
            .searcher
            .context()
            .search(&job, &SearchControl::new(false), &|_| {});
        self.searches += 1;
        self.nodes += result.nodes;
        (result.best, result.score)
    }
}

/// The quick screen of an opening searches this fraction of a move's nodes ...
const OPENING_SCREEN_FRACTION: u64 = 10;
/// ... and at least this many ...
const OPENING_SCREEN_MIN_NODES: u64 = 200;
/// ... and throws the opening away when it scores beyond this multiple of the opening limit.
const OPENING_SCREEN_MARGIN: i32 = 2;

/// An opening is kept whatever its score after this many were thrown away, so that a file of
/// starts that are all decided slows a run down rather than stalling it.
const MAX_REJECTED_OPENINGS: usize = 1000;

/// The most a file of start positions may be.
pub const STARTS_FILE: gogo_files::Limit = gogo_files::Limit::new(64 << 20, "a file of starts");

/// Why a file of start positions cannot be used.
#[derive(Debug)]
pub enum StartsError {
    /// The file cannot be read.
    File(gogo_files::FileError),
    /// A line is not an SFEN (1-based line number, the line, why).
    Sfen(usize, String, gogo_rules::SfenError),
    /// A line's position is over: no legal move.
    Over(usize, String),
    /// No position at all.
    Empty,
}

impl std::fmt::Display for StartsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartsError::File(e) => write!(f, "{e}"),
            StartsError::Sfen(line, text, e) => write!(f, "line {line}: {text:?}: {e}"),
            StartsError::Over(line, text) => {
                write!(
                    f,
                    "line {line}: {text:?}: the side to move has no legal move"
                )
            }
            StartsError::Empty => write!(f, "no position in the file"),
        }
    }
}

impl std::error::Error for StartsError {}

/// Reads start positions: one SFEN a line; blank lines and text after `#` are left out.
/// Each must leave the side to move a legal move.
pub fn parse_starts(text: &str) -> Result<Vec<Position>, StartsError> {
    let mut starts = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let sfen = line.split('#').next().unwrap_or("").trim();
        if sfen.is_empty() {
            continue;
        }
        let position = Position::from_sfen(sfen)
            .map_err(|e| StartsError::Sfen(number + 1, sfen.to_string(), e))?;
        if position.legal_moves().is_empty() {
            return Err(StartsError::Over(number + 1, sfen.to_string()));
        }
        starts.push(position);
    }
    if starts.is_empty() {
        return Err(StartsError::Empty);
    }
    Ok(starts)
}

/// Reads a file of start positions ([`parse_starts`]): a regular file of at most
/// [`STARTS_FILE`], through a bounded reader.
pub fn read_starts(path: &std::path::Path) -> Result<Vec<Position>, StartsError> {
    parse_starts(&gogo_files::read_text(path, STARTS_FILE).map_err(StartsError::File)?)
}

/// A random opening for game `index`, scored within the limit by a search.
fn opening(index: usize, config: &DatagenConfig, rng: &mut Rng, player: &mut Player) -> Opening {
    let rules = if index.is_multiple_of(2) {
        RuleSet::standard()
    } else {
        RuleSet::kawu()
    };
    let mut rejected = 0;
    loop {
        let mut game = if config.starts.is_empty() {
            Game::new(rules)
        } else {
            let start = &config.starts[rng.below(config.starts.len())];
            Game::from_position(rules, start.clone())
        };
        let span = config.random_plies.end() - config.random_plies.start() + 1;
        let plies = config.random_plies.start() + rng.below(span);
        for _ in 0..plies {
            let moves = game.position().legal_moves();
            if moves.is_empty() || game.outcome().is_some() {
                break;
            }
            let mv = moves.as_slice()[rng.below(moves.len())];
            game.play(mv).expect("a legal move");
        }
        if game.outcome().is_some() {
            continue;
        }
        // A quick look first: most openings thrown away have dropped a piece, which a search
        // of a tenth of a move's nodes (the soft limit's, if any) sees as well; only the
        // others pay for the full search. Past the cap on openings thrown away, the next
        // is kept, so it is not screened.
        let give_up = rejected >= MAX_REJECTED_OPENINGS;
        if config.opening_screen && !give_up {
            let move_nodes = config.soft_nodes.unwrap_or(config.nodes);
            let quick_nodes = (move_nodes / OPENING_SCREEN_FRACTION).max(OPENING_SCREEN_MIN_NODES);
            let (_, quick) = player.search_limited(&game, config, quick_nodes, None);
            if quick.abs() > OPENING_SCREEN_MARGIN * config.opening_limit {
                rejected += 1;
                continue;
            }
        }
        let answer = player.search(&game, config);
        if answer.1.abs() <= config.opening_limit || give_up {
            return Opening {
                game,
                answer,
                rejected,
            };
        }
        rejected += 1;
    }
}

fn result_for(outcome: Option<Outcome>, side: gogo_rules::Color) -> GameResult {
    match outcome.and_then(|o| o.winner()) {
        None => GameResult::Draw,
        Some(w) if w == side => GameResult::Win,
        Some(_) => GameResult::Loss,
    }
}

/// Plays game `index` to its end.
fn play_game(index: usize, config: &DatagenConfig, player: &mut Player) -> FinishedGame {
    let mut rng = Rng::new(config.seed ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    player.searcher.new_game();
    let (searches_before, nodes_before) = (player.searches, player.nodes);
    let Opening {
        mut game,
        answer,
        rejected,
    } = opening(index, config, &mut rng, player);
    // The search that scored the opening is the first move's: no need to repeat it.
    let mut first_answer = Some(answer);
    // Positions kept so far, with their side to move; results are known at the end.
    let mut kept: Vec<(Position, i16, gogo_rules::Color, usize)> = Vec::new();
    let mut announced: Option<Outcome> = None;
    // Plies in a row whose score says the same side is winning by adjudicate_cp or more.
    let mut decided: (usize, Option<gogo_rules::Color>) = (0, None);
    while game.outcome().is_none() && game.moves().len() < config.max_plies.min(MAX_GAME_MOVES) {
        let pos = game.position().clone();
        let answer = first_answer
            .take()
            .unwrap_or_else(|| player.search(&game, config));
        let (Some(best), score) = answer else {
            break;
        };
        if score.abs() >= MATE_IN_MAX_PLY {
            // A forced mate: the game's result is known.
            let side = pos.side_to_move();
            announced = Some(Outcome::Win {
                winner: if score > 0 { side } else { !side },
                reason: gogo_rules::WinReason::Checkmate,
            });
            break;
        }
        if config.adjudicate_cp > 0 {
            let leader = (score.abs() >= config.adjudicate_cp).then(|| {
                let side = pos.side_to_move();
                if score > 0 {
                    side
                } else {
                    !side
                }
            });
            decided = match (leader, decided) {
                (Some(l), (n, Some(d))) if l == d => (n + 1, Some(l)),
                (Some(l), _) => (1, Some(l)),
                (None, _) => (0, None),
            };
            if let (n, Some(winner)) = decided {
                if n >= config.adjudicate_plies.max(1) {
                    announced = Some(Outcome::Win {
                        winner,
                        reason: gogo_rules::WinReason::Checkmate,
                    });
                    break;
                }
            }
        }
        let quiet = !pos.in_check() && !pos.is_capture(best) && !best.is_promotion();
        if quiet && score.abs() < 10_000 {
            let ply = game.moves().len();
            kept.push((pos.clone(), score as i16, pos.side_to_move(), ply));
        }
        game.play(best).expect("the search plays legal moves");
    }
    let outcome = game.outcome().or(announced);
    let records = kept
        .into_iter()
        .map(|(position, score, side, ply)| Record {
            position,
            score,
            result: result_for(outcome, side),
            ply: ply.min(255) as u8,
        })
        .collect();
    FinishedGame {
        records,
        sente_result: result_for(outcome, gogo_rules::Color::Sente),
        plies: game.moves().len(),
        rejected_openings: rejected,
        searches: player.searches - searches_before,
        nodes: player.nodes - nodes_before,
    }
}

/// Why data generation failed.
#[derive(Debug)]
pub enum DatagenError {
    /// The output file could not be written.
    Write(std::path::PathBuf, std::io::Error),
    /// A game's records could not be written.
    Records(std::path::PathBuf, data::DataError),
    /// The game threads could not be started.
    Threads(rayon::ThreadPoolBuildError),
    /// More threads than the machine has cores or memory for.
    ThreadCount(gogo_table::ThreadCountError),
    /// The output cannot be written: not a regular file, or a file that is not data.
    File(gogo_files::FileError),
    /// The hash table size cannot be had.
    Table(gogo_search::tt::TableSizeError),
}

impl std::fmt::Display for DatagenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DatagenError::Write(path, e) => write!(f, "{}: {e}", path.display()),
            DatagenError::Records(path, e) => write!(f, "{}: {e}", path.display()),
            DatagenError::Threads(e) => write!(f, "cannot start the game threads: {e}"),
            DatagenError::ThreadCount(e) => write!(f, "--threads {e}"),
            DatagenError::File(e) => write!(f, "{e}"),
            DatagenError::Table(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for DatagenError {}

/// Generates the data. `progress` is called now and then (and once at the end) with the
/// totals so far and the time since the start.
pub fn run(
    config: &DatagenConfig,
    progress: &mut dyn FnMut(&DatagenTotals, Duration),
) -> Result<DatagenTotals, DatagenError> {
    // Each game thread makes a table of this size: one now says whether it can be had.
    drop(Searcher::new(config.hash_mb).map_err(DatagenError::Table)?);
    // A game thread takes its table and a few MiB of its own.
    gogo_table::check_threads(config.threads, config.hash_mb + 8)
        .map_err(DatagenError::ThreadCount)?;
    let write_error = |e| DatagenError::Write(config.out.clone(), e);
    let output = data_output(&config.out).map_err(DatagenError::File)?;
    // Written beside the output and renamed over it when the run ends: a run that fails
    // or is stopped leaves the old file as it was.
    let mut out = output.create().map_err(DatagenError::File)?;
    out.write_all(&data::header(
        config.score_scale,
        config.seed,
        u32::try_from(config.nodes).unwrap_or(u32::MAX),
    ))
    .map_err(write_error)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads.max(1))
        .build()
        .map_err(DatagenError::Threads)?;
    let (tx, rx) = channel::<FinishedGame>();
    let start = Instant::now();
    let mut totals = DatagenTotals::default();
    let mut failed_write = None;
    std::thread::scope(|scope| {
        scope.spawn(|| {
            pool.install(|| {
                (0..config.games).into_par_iter().for_each_init(
                    || Player {
                        searcher: Searcher::new(config.hash_mb)
                            .expect("the table size was checked at the start"),
                        searches: 0,
                        nodes: 0,
                    },
                    |player, index| {
                        let _ = tx.send(play_game(index, config, player));
                    },
                );
            });
            drop(tx);
        });
        let mut last_report = Instant::now();
        for game in rx {
            if failed_write.is_none() {
                if let Err(e) = data::write_records(&mut out, &game.records) {
                    failed_write = Some(e);
                }
            }
            totals.games += 1;
            totals.positions += game.records.len() as u64;
            totals.plies += game.plies as u64;
            totals.rejected_openings += game.rejected_openings;
            totals.searches += game.searches;
            totals.nodes += game.nodes;
            totals.sente_results[2 - game.sente_result as usize] += 1;
            if last_report.elapsed() >= Duration::from_secs(2) {
                progress(&totals, start.elapsed());
                last_report = Instant::now();
            }
        }
    });
    out.flush().map_err(write_error)?;
    if let Some(e) = failed_write {
        return Err(DatagenError::Records(config.out.clone(), e));
    }
    out.commit().map_err(DatagenError::File)?;
    progress(&totals, start.elapsed());
    Ok(totals)
}

/// The output of a data run: a file already there must be training data (its header
/// reads), or it is not written over.
fn data_output(path: &std::path::Path) -> Result<gogo_files::Output, gogo_files::FileError> {
    use std::io::Read;
    let output = gogo_files::Output::new(path, &[])?;
    if output.exists() {
        let limit = gogo_files::Limit::new(u64::MAX, "a data file");
        let mut header = [0; data::HEADER_BYTES];
        let read = gogo_files::open(path, limit)
            .and_then(|mut f| {
                f.read_exact(&mut header)
                    .map_err(|e| gogo_files::FileError::io(path, e))
            })
            .map_err(|e| e.problem_text())
            .and_then(|()| {
                data::read_header(&header)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            });
        if let Err(why) = read {
            return Err(gogo_files::FileError::new(
                path,
                gogo_files::Problem::NotOurs(why),
            ));
        }
    }
    Ok(output)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_few_games_make_readable_deterministic_data() {
        let dir = std::env::temp_dir().join(format!("gogo-datagen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let config = |threads: usize, name: &str| DatagenConfig {
            games: 4,
            nodes: 300,
            soft_nodes: None,
            threads,
            seed: 9,
            starts: Vec::new(),
            random_plies: 2..=4,
            opening_limit: 2000,
            opening_screen: true,
            max_plies: 120,
            adjudicate_cp: 0,
            adjudicate_plies: 4,
            evaluation: Evaluation::Classical,
            score_scale: 800,
            hash_mb: 1,
            out: dir.join(name),
        };
        let one = config(1, "one.bin");
        let totals = run(&one, &mut |_, _| {}).unwrap();
        assert_eq!(totals.games, 4);
        assert!(totals.positions > 20, "{totals:?}");
        let (header, records) =
            data::read_all(&mut std::fs::File::open(&one.out).unwrap()).unwrap();
        let scale = header.score_scale;
        assert_eq!(
            (header.seed, u64::from(header.nodes)),
            (one.seed, one.nodes)
        );
        assert_eq!(scale, 800);
        assert_eq!(records.len() as u64, totals.positions);
        for r in &records {
            assert!(!r.position.in_check());
            assert!(r.score.abs() < 10_000);
        }
        // The same games with two threads, perhaps in another order.
        let two = config(2, "two.bin");
        run(&two, &mut |_, _| {}).unwrap();
        let (_, again) = data::read_all(&mut std::fs::File::open(&two.out).unwrap()).unwrap();
        let key = |r: &Record| r.encode();
        let mut a: Vec<_> = records.iter().map(key).collect();
        let mut b: Vec<_> = again.iter().map(key).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b);
        // Adjudicated, the games stop once decided: fewer plies, and every position kept
        // was also kept without adjudication (the games are the same up to there).
        let judged = DatagenConfig {
            adjudicate_cp: 400,
            adjudicate_plies: 2,
            ..config(1, "judged.bin")
        };
        let short = run(&judged, &mut |_, _| {}).unwrap();
        assert!(short.plies < totals.plies, "{short:?} against {totals:?}");
        let (_, cut) = data::read_all(&mut std::fs::File::open(&judged.out).unwrap()).unwrap();
        let positions: std::collections::HashSet<String> =
            records.iter().map(|r| r.position.to_sfen()).collect();
        assert!(cut
            .iter()
            .all(|r| positions.contains(&r.position.to_sfen())));
        // A tight opening limit throws openings away, and counts them.
        let tight = DatagenConfig {
            opening_limit: 40,
            ..config(1, "tight.bin")
        };
        let picky = run(&tight, &mut |_, _| {}).unwrap();
        assert_eq!(picky.games, 4);
        // Every opening was scored by a search, kept or not, and each searched its nodes (a
        // screen of an opening its fewest).
        assert!(
            picky.searches > (picky.games + picky.rejected_openings) as u64,
            "{picky:?}"
        );
        assert!(
            picky.nodes >= OPENING_SCREEN_MIN_NODES * picky.searches,
            "{picky:?}"
        );
        assert!(
            picky.rejected_openings > totals.rejected_openings,
            "{picky:?} against {totals:?}"
        );
        // From a file's start, with no random plies, every game's first position is that
        // start (here the start position with Gote to move, which no game from the rule
        // sets' starts has at its first ply).
        let middlegame = "rbsgk/4p/5/P4/KGSBR w - 2";
        let from_file = DatagenConfig {
            starts: parse_starts(&format!("# a start\n\n{middlegame} # from a puzzle\n")).unwrap(),
            random_plies: 0..=0,
            opening_limit: 30_000,
            ..config(1, "starts.bin")
        };
        run(&from_file, &mut |_, _| {}).unwrap();
        let (_, started) =
            data::read_all(&mut std::fs::File::open(&from_file.out).unwrap()).unwrap();
        // A record keeps no move number: board, side and hands are compared.
        let without_number = |sfen: &str| sfen.rsplit_once(' ').unwrap().0.to_string();
        let first: Vec<String> = started
            .iter()
            .filter(|r| r.ply == 0)
            .map(|r| without_number(&r.position.to_sfen()))
            .collect();
        assert!(!first.is_empty());
        assert!(
            first.iter().all(|s| *s == without_number(middlegame)),
            "{first:?}"
        );
        // Where no opening is within the limit (every score beyond -1 cp, which the quick
        // screen throws away too), each game keeps one after the cap and the run ends.
        let none_balanced = DatagenConfig {
            games: 2,
            opening_limit: -1,
            ..config(1, "capped.bin")
        };
        let capped = run(&none_balanced, &mut |_, _| {}).unwrap();
        assert_eq!(capped.games, 2);
        assert_eq!(capped.rejected_openings, 2 * MAX_REJECTED_OPENINGS);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_of_starts_is_read_or_refused_with_its_line() {
        let starts =
            parse_starts("rbsgk/4p/5/P4/KGSBR b - 1\n  # none\n\n4k/5/5/5/K4 w - 1 # bare\n")
                .unwrap();
        assert_eq!(starts.len(), 2);
        let refused = |text: &str| parse_starts(text).unwrap_err().to_string();
        assert!(refused("").contains("no position"));
        assert!(refused("# only a comment\n").contains("no position"));
        assert!(refused("rbsgk/4p/5/P4/KGSBR b - 1\nnot an sfen\n")
            .starts_with("line 2: \"not an sfen\""));
        // Sente is mated: a start with no legal move is refused.
        let mated = refused("4k/5/1s3/1g3/K4 b - 1\n");
        assert!(mated.contains("no legal move"), "{mated}");
    }
}
