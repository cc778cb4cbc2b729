//! `gogo`: a minishogi engine speaking USI on stdin/stdout, with command-line tools.

use clap::{Parser, Subcommand};
use gogo_mate::{MateLimits, MateResult, Solver};
use gogo_rules::{parse_usi_position, usi_line, Position};
use gogo_search::nnue::{self, Network};
use gogo_search::Evaluation;
use gogo_usi::datagen::{self, DatagenConfig, DatagenTotals};
use gogo_usi::{engine, perft_depth, print_perft};
use std::path::PathBuf;
use std::sync::Arc;

use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "gogo",
    version,
    about = "A minishogi (5x5 shogi) engine speaking USI"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Search a fixed list of positions and print the node count and speed.
    Bench(BenchArgs),
    /// Self-play games at a fixed node count, written as NNUE training data.
    Datagen(DatagenArgs),
    /// Solve a mate problem (tsume): print the mating line, nomate or timeout.
    Mate(MateArgs),
    /// Print an evaluation's score scale K (a score s wins with chance 1 / (1 + e^(-s / K))),
    /// from its provenance: fitted to game results by `gogo-train --calibrate`.
    ScoreScale(ScoreScaleArgs),
    /// Count the leaves of the legal move tree, per root move.
    Perft(PerftArgs),
    /// Find puzzles in games (or self-play), rate them by gogo's levels, check a set.
    #[command(subcommand)]
    Puzzles(PuzzlesCommand),
    /// Build, merge and show opening books (YaneuraOu's text format).
    #[command(subcommand)]
    Book(BookCommand),
    /// Print the search's tunable parameters as CSV (name, default, min, max, step), for
    /// `gogo-arena tune`; a build with `--features tune` takes them as USI options.
    Tunables,
}

/// `gogo bench`.
#[derive(clap::Args)]
struct BenchArgs {
    /// Depth in plies.
    #[arg(long, default_value_t = 9)]
    depth: i32,
    /// Search threads (the node count is a deterministic signature only with one).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Hash table size in MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// The evaluation: `classical`, `nnue` (the built-in network) or a network file;
    /// the engine's default when not given.
    #[arg(long)]
    eval: Option<String>,
    /// Print the bench positions (one SFEN a line) instead.
    #[arg(long)]
    list: bool,
}

/// `gogo book ...`.
#[derive(Subcommand)]
enum BookCommand {
    /// Build a book from games (counts and results) and from analysis that grows the tree
    /// from the start position, best lines first; goes on from --out if it exists.
    Build {
        /// Game files (the arena's .jsonl, .kif, .csa), counted first.
        #[arg(long, num_args = 1..)]
        games: Vec<PathBuf>,
        /// Plies deep.
        #[arg(long, default_value_t = 12)]
        max_ply: usize,
        /// Positions to search in this run (0: games only).
        #[arg(long, default_value_t = 1000)]
        positions: usize,
        /// Nodes of each search.
        #[arg(long, default_value_t = 200_000)]
        nodes: u64,
        /// Lines of each search.
        #[arg(long, default_value_t = 4)]
        width: usize,
        /// Follow only moves within this many centipawns of the best.
        #[arg(long, default_value_t = 80)]
        margin: i32,
        /// This shard of the tree, I/N (the start position's moves shared out).
        #[arg(long, default_value = "1/1")]
        shard: String,
        /// The book (read first to go on, then written).
        #[arg(long, default_value = "book.db")]
        out: PathBuf,
    },
    /// Put books (shards) together.
    Merge {
        /// The books (one at least).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The book written.
        #[arg(long)]
        out: PathBuf,
    },
    /// Add games' results to a book's moves, so that the engine weighs each line's results
    /// against its eval (games followed while they stay in the book).
    Learn {
        /// Game files (the arena's .jsonl, .kif, .csa) with results.
        games: Vec<PathBuf>,
        /// The book learnt into (`<internal>`: the built-in one).
        #[arg(long, default_value = "<internal>")]
        book: String,
        /// The book written.
        #[arg(long)]
        out: PathBuf,
    },
    /// An opening set for matches from a book: lines to its positions N plies deep.
    Openings {
        /// Plies from the start.
        #[arg(long, default_value_t = 6)]
        plies: usize,
        /// Keep positions whose eval is within this many centipawns of level.
        #[arg(long, default_value_t = 80)]
        max_cp: i32,
        /// At most this many, chosen by --seed.
        #[arg(long, default_value_t = 100)]
        count: usize,
        /// The choice's seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The book (`<internal>`: the built-in one).
        #[arg(long, default_value = "<internal>")]
        book: String,
    },
    /// A position's moves in a book.
    Show {
        /// The position (SFEN, or startpos).
        #[arg(default_value = "startpos")]
        sfen: String,
        /// The book (`<internal>`: the built-in one).
        #[arg(long, default_value = "<internal>")]
        book: String,
    },
}

/// `gogo puzzles ...`.
#[derive(Subcommand)]
enum PuzzlesCommand {
    /// Find puzzles in game files (the arena's .jsonl, .kif, .csa), or in self-play when none
    /// are given, and append them to --out.
    Generate {
        /// Game files.
        #[arg(long, num_args = 1..)]
        games: Vec<PathBuf>,
        /// Self-play games (levels 4 to 9 against each other) when no --games are given.
        #[arg(long, default_value_t = 100)]
        self_play: usize,
        /// Seed of the self-play.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The puzzle file (appended to).
        #[arg(long, default_value = "puzzles.tsv")]
        out: PathBuf,
        /// Threads, one search each.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Nodes of the quick look at every position.
        #[arg(long, default_value_t = 20_000)]
        screen_nodes: u64,
        /// Nodes of each verification search.
        #[arg(long, default_value_t = 200_000)]
        verify_nodes: u64,
        /// Tries of each level when rating.
        #[arg(long, default_value_t = 3)]
        tries: u64,
    },
    /// Check every puzzle of a file again with a deeper search; exit 1 if any fails.
    Check {
        /// The puzzle file.
        file: PathBuf,
        /// Nodes of each check search (several times the generator's).
        #[arg(long, default_value_t = 800_000)]
        nodes: u64,
        /// Check every k-th puzzle only (a sample).
        #[arg(long, default_value_t = 1)]
        every: usize,
        /// Threads, one search each.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Write the puzzles that pass to this file.
        #[arg(long)]
        passing: Option<PathBuf>,
    },
}

/// `gogo datagen`.
#[derive(clap::Args)]
struct DatagenArgs {
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Nodes searched per move at most (the hard limit).
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// No new iteration after this many nodes; a move then ends with its iteration (or at
    /// --nodes). 0: none, every move searches --nodes.
    #[arg(long, default_value_t = 0)]
    soft_nodes: u64,
    /// Games played at once (one search thread each).
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Fewest random plies of an opening.
    #[arg(long, default_value_t = 4)]
    min_random_plies: usize,
    /// Most random plies of an opening.
    #[arg(long, default_value_t = 9)]
    max_random_plies: usize,
    /// Openings scored beyond this (centipawns) are replaced.
    #[arg(long, default_value_t = 600)]
    opening_limit: i32,
    /// Score every opening with the full search, without the quick screen that throws most
    /// bad ones away for a tenth of the nodes (to measure what the screen saves).
    #[arg(long)]
    no_opening_screen: bool,
    /// Games longer than this many plies are drawn.
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
    /// Adjudicate a game once the score has been beyond this many centipawns for the same
    /// side for --adjudicate-plies plies in a row (0: never).
    #[arg(long, default_value_t = 0)]
    adjudicate_cp: i32,
    /// See --adjudicate-cp.
    #[arg(long, default_value_t = 4)]
    adjudicate_plies: usize,
    /// The evaluation that plays: `classical`, `nnue` (the built-in network) or a
    /// network file.
    #[arg(long, default_value = "nnue")]
    eval: String,
    /// Hash table per game, MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// The file to write.
    #[arg(long)]
    out: std::path::PathBuf,
}

/// `gogo mate`.
#[derive(clap::Args)]
struct MateArgs {
    /// The position: an SFEN, or `startpos`.
    #[arg(long, default_value = "startpos")]
    sfen: String,
    /// Moves played from it first.
    #[arg(long, num_args = 0..)]
    moves: Vec<String>,
    /// Milliseconds to spend at most (per problem with --bench).
    #[arg(long)]
    time: Option<u64>,
    /// Nodes to spend at most (per problem with --bench); the engine's mate probe before a
    /// game move is `--nodes 5000` with a twentieth of the move's time.
    #[arg(long)]
    nodes: Option<u64>,
    /// Proof table size in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Solve the fixed problem set instead (tests/data/tsume.tsv).
    #[arg(long)]
    bench: bool,
}

/// `gogo scorescale`.
#[derive(clap::Args)]
struct ScoreScaleArgs {
    /// `classical`, `nnue` (the built-in network) or a network file (its nominal scale).
    #[arg(long, default_value = "nnue")]
    eval: String,
}

/// `gogo perft`.
#[derive(clap::Args)]
struct PerftArgs {
    /// Depth in plies.
    depth: u32,
    /// Start position: an SFEN, or `startpos`.
    #[arg(long, default_value = "startpos")]
    sfen: String,
    /// Moves played from the start position first.
    #[arg(long, num_args = 0.., allow_hyphen_values = false)]
    moves: Vec<String>,
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    match Cli::parse().command {
        None => {
            engine::run();
            ExitCode::SUCCESS
        }
        Some(Command::Bench(args)) => bench_command(args),
        Some(Command::Datagen(args)) => datagen_command(args),
        Some(Command::Mate(args)) => mate_command(args),
        Some(Command::ScoreScale(args)) => score_scale_command(args),
        Some(Command::Perft(args)) => perft_command(args),
        Some(Command::Puzzles(command)) => puzzles_command(command),
        Some(Command::Book(command)) => book_command(command),
        Some(Command::Tunables) => {
            println!("name,default,min,max,step");
            for t in gogo_search::params::TUNABLES {
                println!("{},{},{},{},{}", t.name, t.default, t.min, t.max, t.step);
            }
            ExitCode::SUCCESS
        }
    }
}

fn book_command(command: BookCommand) -> ExitCode {
    use gogo_usi::opening_book::{
        build, learn_into, load_book, merge, openings, show, BuildConfig,
    };
    match command {
        BookCommand::Build {
            games,
            max_ply,
            positions,
            nodes,
            width,
            margin,
            shard,
            out,
        } => {
            let shard = match shard.split_once('/').and_then(|(i, n)| {
                let (i, n): (usize, usize) = (i.parse().ok()?, n.parse().ok()?);
                (1..=n).contains(&i).then_some((i - 1, n))
            }) {
                Some(s) => s,
                None => {
                    return usage_error(
                        "book build",
                        format!("shard '{shard}': I/N with I from 1 to N"),
                    )
                }
            };
            let config = BuildConfig {
                games,
                max_ply,
                positions,
                nodes,
                width: width.max(1),
                margin,
                shard,
                out,
            };
            let start = std::time::Instant::now();
            let mut progress = |t: &gogo_usi::opening_book::BuildTotals| {
                eprint!(
                    "\r{}/{} positions searched, {} in the book, {} s   ",
                    t.searched,
                    positions,
                    t.positions,
                    start.elapsed().as_secs()
                );
            };
            match build(&config, &mut progress) {
                Ok(t) => {
                    eprintln!();
                    println!(
                        "{} games counted, {} positions searched, {} positions in {} ({:.0} s)",
                        t.games,
                        t.searched,
                        t.positions,
                        config.out.display(),
                        start.elapsed().as_secs_f64()
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => usage_error("book build", e),
            }
        }
        BookCommand::Merge { files, out } => match merge(&files, &out) {
            Ok(n) => {
                println!("{n} positions in {}", out.display());
                ExitCode::SUCCESS
            }
            Err(e) => usage_error("book merge", e),
        },
        BookCommand::Learn { games, book, out } => match learn_into(&book, &games, &out) {
            Ok((games, positions)) => {
                println!(
                    "{games} games learnt from; {positions} positions in {}",
                    out.display()
                );
                ExitCode::SUCCESS
            }
            Err(e) => usage_error("book learn", e),
        },
        BookCommand::Openings {
            plies,
            max_cp,
            count,
            seed,
            book,
        } => match load_book(&book) {
            Ok(b) => {
                print!("{}", openings(&b, plies, max_cp, count, seed));
                ExitCode::SUCCESS
            }
            Err(e) => usage_error("book openings", e),
        },
        BookCommand::Show { sfen, book } => {
            let pos = match position_from(&sfen, &[]) {
                Ok(p) => p,
                Err(e) => return usage_error("book show", e),
            };
            let read = std::time::Instant::now();
            match load_book(&book) {
                Ok(b) => {
                    let read = read.elapsed();
                    let lookup = std::time::Instant::now();
                    let text = show(&b, &pos, gogo_search::nnue::embedded_score_scale());
                    let lookup = lookup.elapsed();
                    print!("{text}");
                    eprintln!(
                        "{} positions read in {:.1} ms; looked up and listed in {} µs",
                        b.len(),
                        read.as_secs_f64() * 1e3,
                        lookup.as_micros()
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => usage_error("book show", e),
            }
        }
    }
}

fn puzzles_command(command: PuzzlesCommand) -> ExitCode {
    use gogo_usi::puzzles::run::{run_check, run_generate, CheckRun, GenerateRun};
    match command {
        PuzzlesCommand::Generate {
            games,
            self_play,
            seed,
            out,
            threads,
            screen_nodes,
            verify_nodes,
            tries,
        } => {
            let run = GenerateRun {
                games,
                self_play,
                seed,
                out,
                threads,
                config: gogo_usi::puzzles::PuzzleConfig {
                    screen_nodes,
                    verify_nodes,
                    tries,
                    ..Default::default()
                },
            };
            let progress = |t: &gogo_usi::puzzles::run::GenerateTotals| {
                eprint!(
                    "\r{} games, {} puzzles, {:.0} puzzles/hour, {} s   ",
                    t.games,
                    t.puzzles,
                    t.per_hour(),
                    t.elapsed.as_secs()
                );
            };
            match run_generate(&run, &progress) {
                Ok(t) => {
                    eprintln!();
                    println!(
                        "{} games, {} puzzles in {:.0} s: {:.0} puzzles/hour on {} threads, {} nodes",
                        t.games,
                        t.puzzles,
                        t.elapsed.as_secs_f64(),
                        t.per_hour(),
                        threads,
                        t.nodes
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => usage_error("puzzles generate", e),
            }
        }
        PuzzlesCommand::Check {
            file,
            nodes,
            every,
            threads,
            passing,
        } => {
            let run = CheckRun {
                file,
                nodes,
                every,
                threads,
                passing,
            };
            let progress = |done: usize, all: usize| eprint!("\r{done}/{all} checked   ");
            match run_check(&run, &progress) {
                Ok(report) => {
                    eprintln!();
                    for (id, failure) in &report.failures {
                        println!("{id}: {failure}");
                    }
                    println!(
                        "{} checked, {} failed, in {:.0} s",
                        report.checked,
                        report.failures.len(),
                        report.elapsed.as_secs_f64()
                    );
                    if report.failures.is_empty() {
                        ExitCode::SUCCESS
                    } else {
                        ExitCode::FAILURE
                    }
                }
                Err(e) => usage_error("puzzles check", e),
            }
        }
    }
}

/// Reports a bad argument of `gogo COMMAND` and gives its exit code.
fn usage_error(command: &str, error: impl std::fmt::Display) -> ExitCode {
    eprintln!("gogo {command}: {error}");
    ExitCode::from(2)
}

/// The position `sfen` (or `startpos`) with `moves` played.
fn position_from(sfen: &str, moves: &[String]) -> Result<Position, gogo_rules::SfenError> {
    let mut text = sfen.to_string();
    if !moves.is_empty() {
        text = format!("{text} moves {}", moves.join(" "));
    }
    parse_usi_position(&text).map(|(start, moves)| moves.iter().fold(start, |p, &m| p.played(m)))
}

/// `gogo bench`: the node signature and speed, or `--list` the positions.
fn bench_command(args: BenchArgs) -> ExitCode {
    if args.list {
        for sfen in gogo_search::bench::POSITIONS {
            println!("{sfen}");
        }
        return ExitCode::SUCCESS;
    }
    let evaluation = match args.eval.as_deref().map(parse_evaluation).transpose() {
        Ok(e) => e.map_or_else(Evaluation::default, |(e, _)| e),
        Err(e) => return usage_error("bench", e),
    };
    let config = gogo_search::bench::BenchConfig {
        depth: args.depth,
        threads: args.threads,
        hash_mb: args.hash,
        evaluation,
    };
    let result = gogo_search::bench::run(&config, &mut |i, sfen, nodes| {
        eprintln!("position {:>2} {sfen}: {nodes}", i + 1);
    });
    match result {
        Ok(r) => {
            let nps = (r.nodes as f64 / r.elapsed.as_secs_f64().max(1e-9)) as u64;
            println!("Nodes searched: {}", r.nodes);
            println!("Nodes/second: {nps}");
            ExitCode::SUCCESS
        }
        Err(e) => usage_error("bench", e),
    }
}

/// `gogo datagen`: self-play games written as training data.
fn datagen_command(args: DatagenArgs) -> ExitCode {
    let (evaluation, score_scale) = match parse_evaluation(&args.eval) {
        Ok(e) => e,
        Err(e) => return usage_error("datagen", e),
    };
    if args.min_random_plies > args.max_random_plies {
        return usage_error("datagen", "--min-random-plies is above --max-random-plies");
    }
    let games = args.games;
    let config = DatagenConfig {
        games,
        nodes: args.nodes,
        soft_nodes: (args.soft_nodes > 0).then_some(args.soft_nodes),
        threads: args.threads,
        seed: args.seed,
        random_plies: args.min_random_plies..=args.max_random_plies,
        opening_limit: args.opening_limit,
        opening_screen: !args.no_opening_screen,
        max_plies: args.max_plies,
        adjudicate_cp: args.adjudicate_cp,
        adjudicate_plies: args.adjudicate_plies,
        evaluation,
        score_scale,
        hash_mb: args.hash,
        out: args.out,
    };
    let mut report = |t: &DatagenTotals, elapsed: std::time::Duration| {
        let secs = elapsed.as_secs_f64().max(1e-9);
        let [w, d, l] = t.sente_results;
        eprintln!(
            "games {}/{games}, positions {} ({:.0}/s), plies/game {:.1}, Sente +{w} ={d} -{l}, openings thrown away {}, nodes/search {:.0} ({} in all), {:.0} s",
            t.games,
            t.positions,
            t.positions as f64 / secs,
            t.plies as f64 / t.games.max(1) as f64,
            t.rejected_openings,
            t.nodes as f64 / t.searches.max(1) as f64,
            t.nodes,
            secs
        );
    };
    match datagen::run(&config, &mut report) {
        Ok(t) => {
            println!("Positions written: {}", t.positions);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("gogo datagen: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `gogo score-scale`.
fn score_scale_command(args: ScoreScaleArgs) -> ExitCode {
    match parse_evaluation(&args.eval) {
        Ok((_, scale)) => {
            println!("{scale}");
            ExitCode::SUCCESS
        }
        Err(e) => usage_error("score-scale", e),
    }
}

/// `gogo perft`.
fn perft_command(args: PerftArgs) -> ExitCode {
    let pos = match position_from(&args.sfen, &args.moves) {
        Ok(p) => p,
        Err(e) => return usage_error("perft", e),
    };
    let depth = match perft_depth(args.depth) {
        Ok(d) => d,
        Err(e) => return usage_error("perft", e),
    };
    let never = std::sync::atomic::AtomicBool::new(false);
    match print_perft(&mut std::io::stdout().lock(), &pos, depth, &never) {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::FAILURE,
    }
}

/// An evaluation named on the command line (`classical`, `nnue` for the built-in network, or
/// a network file) and the scale of its scores: the fitted one from the provenance of the
/// hand-made evaluation and of the built-in network, the nominal one for another network
/// (fit it with `gogo-train --calibrate`).
fn parse_evaluation(text: &str) -> Result<(Evaluation, u32), String> {
    match text {
        "classical" => Ok((
            Evaluation::Classical,
            gogo_search::eval::classical_score_scale().round() as u32,
        )),
        "nnue" => Ok((
            Evaluation::Nnue(Network::embedded()),
            nnue::embedded_score_scale().round() as u32,
        )),
        path => Network::load(std::path::Path::new(path))
            .map(|net| (Evaluation::Nnue(Arc::new(net)), nnue::SCALE as u32))
            .map_err(|e| format!("{path}: {e}")),
    }
}

/// `gogo mate`: one problem, or the bench set.
fn mate_command(args: MateArgs) -> ExitCode {
    let mut solver = match Solver::new(args.hash) {
        Ok(s) => s,
        Err(e) => return usage_error("mate", e),
    };
    let limits = MateLimits {
        time: args.time.map(std::time::Duration::from_millis),
        nodes: args.nodes,
        ..Default::default()
    };
    if args.bench {
        let report = |i: usize, p: &gogo_mate::bench::BenchProblem| {
            eprintln!(
                "problem {:>3} {}: {} in {:.3} ms, {} nodes ({} for the line){}",
                i + 1,
                p.sfen,
                describe(&p.result),
                p.elapsed.as_secs_f64() * 1e3,
                p.nodes,
                p.line_nodes,
                if p.right { "" } else { " (WRONG)" }
            )
        };
        return match gogo_mate::bench::run(&mut solver, &limits, &mut { report }) {
            Ok(b) => {
                println!(
                    "Median time: {:.2} ms, longest: {:.1} ms, total: {:.0} ms",
                    b.median.as_secs_f64() * 1e3,
                    b.longest.as_secs_f64() * 1e3,
                    b.total.as_secs_f64() * 1e3
                );
                println!("Positions solved: {}/{}", b.solved, b.problems);
                println!("Nodes/second: {}", b.nps);
                if b.solved == b.problems {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::FAILURE
                }
            }
            Err(e) => {
                eprintln!("gogo mate: a bench problem does not read: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let pos = match position_from(&args.sfen, &args.moves) {
        Ok(p) => p,
        Err(e) => return usage_error("mate", e),
    };
    let outcome = solver.solve(&pos, &limits, &mut |p| {
        eprintln!(
            "{} nodes, {:.1} s, table {}‰",
            p.nodes,
            p.elapsed.as_secs_f64(),
            p.fill_permille
        )
    });
    println!("{}", describe(&outcome.result));
    eprintln!(
        "{} nodes in {:.3} ms{}",
        outcome.nodes,
        outcome.elapsed.as_secs_f64() * 1e3,
        match &outcome.result {
            MateResult::Mate(_) if outcome.shortest => ", the shortest mate",
            MateResult::Mate(_) => ", the mate the proof found",
            MateResult::NoMate if outcome.perpetual => ", perpetual check at most",
            _ => "",
        }
    );
    ExitCode::SUCCESS
}

/// `mate N: moves`, `nomate` or `timeout`.
fn describe(result: &MateResult) -> String {
    match result {
        MateResult::Mate(line) => format!("mate {}: {}", line.len(), usi_line(line)),
        MateResult::NoMate => "nomate".into(),
        MateResult::Unknown => "timeout".into(),
    }
}
