//! The tools' subcommands (`gogo datagen`, `gogo puzzles`, `gogo book`, `gogo repetitions`):
//! their arguments and
//! thin calls into `gogo-tools`, which does the work.

use crate::{parse_evaluation, position_from, usage_error};
use clap::Subcommand;
use gogo_tools::datagen::{self, DatagenConfig, DatagenTotals};
use std::path::PathBuf;
use std::process::ExitCode;

/// `gogo book ...`.
#[derive(Subcommand)]
pub(crate) enum BookCommand {
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
pub(crate) enum PuzzlesCommand {
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
    /// Rate every puzzle of a file again by gogo's levels as they are now, and write the set
    /// with its new ratings to --out.
    Rate {
        /// The puzzle file.
        file: PathBuf,
        /// Where to write the set rated again (not the file itself).
        #[arg(long)]
        out: PathBuf,
        /// Tries of each level.
        #[arg(long, default_value_t = 3)]
        tries: u64,
        /// Threads, one search each.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
}

/// `gogo repetitions`.
#[derive(clap::Args)]
pub(crate) struct RepetitionsArgs {
    /// Game files (the arena's .jsonl, .kif, .csa).
    #[arg(required = true)]
    games: Vec<PathBuf>,
    /// The rule set the games were played under.
    #[arg(long, default_value = "standard")]
    rules: String,
    /// Nodes of each search (every move a line, with the game's history).
    #[arg(long, default_value_t = 100_000)]
    nodes: u64,
    /// An avoiding move this close to the move played (centipawns) counts as at hand.
    #[arg(long, default_value_t = 50)]
    margin: i32,
}

/// `gogo datagen`.
#[derive(clap::Args)]
pub(crate) struct DatagenArgs {
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
    /// Start the openings from these positions (one SFEN a line, one picked at random for
    /// each opening) rather than from the rule sets' start positions.
    #[arg(long)]
    starts: Option<std::path::PathBuf>,
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

pub(crate) fn book_command(command: BookCommand) -> ExitCode {
    use gogo_tools::book_builder::{build, learn_into, merge, openings, show, BuildConfig};
    use gogo_usi::book_file::load_book;
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
            let mut progress = |t: &gogo_tools::book_builder::BuildTotals| {
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

pub(crate) fn puzzles_command(command: PuzzlesCommand) -> ExitCode {
    use gogo_tools::puzzles::run::{
        run_check, run_generate, run_rate, CheckRun, GenerateRun, RateRun,
    };
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
                config: gogo_tools::puzzles::PuzzleConfig {
                    screen_nodes,
                    verify_nodes,
                    tries,
                    ..Default::default()
                },
            };
            let progress = |t: &gogo_tools::puzzles::run::GenerateTotals| {
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
        PuzzlesCommand::Rate {
            file,
            out,
            tries,
            threads,
        } => {
            let run = RateRun {
                file,
                out,
                tries,
                threads,
            };
            let progress = |done: usize, all: usize| eprint!("\r{done}/{all} rated   ");
            match run_rate(&run, &progress) {
                Ok(report) => {
                    eprintln!();
                    println!("before\tafter\tpuzzles");
                    for (before, after, n) in &report.moves {
                        println!("{before}\t{after}\t{n}");
                    }
                    println!(
                        "{} rated, {} changed, in {:.0} s",
                        report.rated,
                        report.changed(),
                        report.elapsed.as_secs_f64()
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => usage_error("puzzles rate", e),
            }
        }
    }
}

/// `gogo datagen`: self-play games written as training data.
pub(crate) fn datagen_command(args: DatagenArgs) -> ExitCode {
    let (evaluation, score_scale) = match parse_evaluation(&args.eval) {
        Ok(e) => e,
        Err(e) => return usage_error("datagen", e),
    };
    if args.min_random_plies > args.max_random_plies {
        return usage_error("datagen", "--min-random-plies is above --max-random-plies");
    }
    let starts = match &args.starts {
        None => Vec::new(),
        Some(path) => match datagen::read_starts(path) {
            Ok(starts) => starts,
            Err(e) => return usage_error("datagen", format!("--starts {}: {e}", path.display())),
        },
    };
    let games = args.games;
    let config = DatagenConfig {
        games,
        nodes: args.nodes,
        soft_nodes: (args.soft_nodes > 0).then_some(args.soft_nodes),
        threads: args.threads,
        seed: args.seed,
        starts,
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

/// `gogo repetitions`: one line a step into a repeat by the side that lost by repetition
/// (game, ply, SFEN before, move, occurrence, its score, the best avoiding move and its
/// score), then the counts.
pub(crate) fn repetitions_command(args: RepetitionsArgs) -> ExitCode {
    use gogo_tools::repetition::audit;
    let rules: gogo_rules::RuleSet = match args.rules.parse() {
        Ok(r) => r,
        Err(e) => return usage_error("repetitions", e),
    };
    let mut games = Vec::new();
    for path in &args.games {
        match gogo_tools::games::read_games(path) {
            Ok(g) => games.extend(g),
            Err(e) => return usage_error("repetitions", e),
        }
    }
    let searcher = match gogo_search::Searcher::new(16) {
        Ok(s) => s,
        Err(e) => return usage_error("repetitions", e),
    };
    let (mut lost, mut drawn, mut steps, mut at_hand) = ([0usize; 2], 0usize, 0usize, 0usize);
    println!("game\tply\tsfen\tplayed\toccurrence\tscore\tavoiding\tits score");
    for game in &games {
        let found = audit(game, rules, &searcher, args.nodes);
        drawn += usize::from(matches!(
            found.outcome,
            Some(gogo_rules::Outcome::Draw {
                reason: gogo_rules::DrawReason::Repetition
            })
        ));
        if let Some(loser) = found.loser {
            lost[loser as usize] += 1;
        }
        for step in &found.steps {
            steps += 1;
            at_hand += usize::from(step.cost_of_avoiding().is_some_and(|c| c <= args.margin));
            let (avoid, avoid_score) = step
                .avoiding
                .map_or(("-".to_string(), "-".to_string()), |(m, s)| {
                    (m.to_string(), s.to_string())
                });
            println!(
                "{}\t{}\t{}\t{}\t{}\t{}\t{avoid}\t{avoid_score}",
                step.game,
                step.ply + 1,
                step.before.to_sfen(),
                step.played,
                step.occurrence,
                step.played_score,
            );
        }
    }
    println!(
        "{} games; lost by fourfold repetition: Sente {}, Gote {}; drawn by it: {drawn}; steps into a third occurrence or later (the loser's, both sides' in a draw): {steps}, with a move that avoids it within {} cp: {at_hand}",
        games.len(),
        lost[gogo_rules::Color::Sente as usize],
        lost[gogo_rules::Color::Gote as usize],
        args.margin
    );
    ExitCode::SUCCESS
}
