//! `gogo-arena`: plays USI engines against each other with the gogo rules crate as referee.

use clap::{Parser, Subcommand};
use gogo_arena::referee::{Adjudication, GameSettings, TimeControl};
use gogo_arena::shard::{fnv1a, kept_games, merge, RunHeader, Shard};
use gogo_arena::stats::Sprt;
use gogo_arena::EngineSpec;
use gogo_arena::{default_opening, read_openings, record, report, run_match, MatchConfig};
use gogo_rules::RuleSet;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Parser)]
#[command(
    name = "gogo-arena",
    version,
    about = "Minishogi engine matches over USI, refereed by the gogo rules",
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// An engine: `name=N,cmd=PROGRAM[,arg=A]...[,depth=D][,tc=TC][,option.NAME=VALUE]...`.
    /// Give exactly two. `depth` caps every search; `tc` gives this engine its own time
    /// control (time odds: `tc=movetime=400` against `--tc movetime=100`).
    #[arg(long = "engine", required = true, num_args = 1)]
    engines: Vec<EngineSpec>,
    /// Time control: byoyomi=MS, byoyomi=MAIN+MS, fischer=MAIN+INC, movetime=MS, nodes=N, depth=N.
    #[arg(long, default_value = "byoyomi=200")]
    tc: TimeControl,
    /// Games to play (whole pairs: each opening with both colours).
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Openings file (one USI position per line); the rule set's start position if absent.
    #[arg(long)]
    openings: Option<std::path::PathBuf>,
    /// Rule set: standard or kawu.
    #[arg(long, default_value = "standard")]
    rules: RuleSet,
    /// Ply limit (0: the rule set's own).
    #[arg(long, default_value_t = 0)]
    max_plies: u32,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Milliseconds allowed beyond the clock before a time forfeit.
    #[arg(long, default_value_t = 100)]
    tolerance: u64,
    /// Adjudicate when both engines report at least this score (centipawns) ...
    #[arg(long)]
    adjudicate_score: Option<i32>,
    /// ... for this many consecutive moves each.
    #[arg(long, default_value_t = 6)]
    adjudicate_moves: u32,
    /// SPRT, e.g. "elo0=0 elo1=10 alpha=0.05 beta=0.05": stop when decided.
    #[arg(long)]
    sprt: Option<Sprt>,
    /// Write every game to this KIF file.
    #[arg(long)]
    kif: Option<std::path::PathBuf>,
    /// Write one JSON object per game to this file, each as its game ends (a stopped run
    /// keeps what it played), and the whole match in game order at the end.
    #[arg(long)]
    jsonl: Option<std::path::PathBuf>,
    /// Seconds an engine may take to start or per fixed-depth/nodes move.
    #[arg(long, default_value_t = 30)]
    timeout: u64,
    /// Play only shard I of N of the game pairs (I from 1 to N), the same ones on any
    /// machine; `gogo-arena merge` puts the shards' --jsonl files together.
    #[arg(long, default_value = "1/1")]
    shard: Shard,
}

// Built once from the command line: the size of its variants does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// The whole match from the --jsonl files of its shards: W/L/D, Elo, pentanomial,
    /// endings and, with --sprt, the verdict.
    Merge {
        /// The shards' JSON-lines files.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// SPRT, e.g. "elo0=0 elo1=10".
        #[arg(long)]
        sprt: Option<Sprt>,
        /// Accept a run with missing shards or games (and say what is missing); without it
        /// the exit status is 3 for an incomplete run. With --sprt, a decided test exits 10
        /// (H1) or 11 (H0) whatever is missing, so that a driver can stop the array.
        #[arg(long)]
        partial: bool,
    },
    /// SPSA tuning of an engine's parameters against itself (Fishtest's method): writes
    /// the trajectory as CSV (and an SVG beside it) and resumes from it.
    Tune {
        /// The engine (built to take the parameters as options: gogo with --features tune).
        #[arg(long)]
        engine: EngineSpec,
        /// The parameters: `gogo tunables` CSV (name, default, min, max, step).
        #[arg(long)]
        tunables: std::path::PathBuf,
        /// Iterations (a game pair each).
        #[arg(long, default_value_t = 1000)]
        iterations: usize,
        /// Time control of the games.
        #[arg(long, default_value = "movetime=20")]
        tc: TimeControl,
        /// Openings file; the standard start if absent.
        #[arg(long)]
        openings: Option<std::path::PathBuf>,
        /// Pairs played at once.
        #[arg(long, default_value_t = 2)]
        concurrency: usize,
        /// The trajectory (CSV); an existing one is resumed.
        #[arg(long)]
        out: std::path::PathBuf,
        /// Seed of the perturbations.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The learning rate at the end (Fishtest's r_end, made for tens of thousands of
        /// pairs; a run of a few thousand needs a larger one to move a parameter by a step).
        #[arg(long, default_value_t = gogo_arena::spsa::FISHTEST_R_END, value_parser = positive_rate)]
        r_end: f64,
    },
}

/// A learning rate: a finite number above 0 and at most 1 (beyond that one pair's step
/// outgrows the perturbation).
fn positive_rate(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(r) if r.is_finite() && r > 0.0 && r <= 1.0 => Ok(r),
        Ok(_) => Err(format!("{text}: a learning rate is above 0 and at most 1")),
        Err(e) => Err(format!("{text}: {e}")),
    }
}

/// `gogo-arena tune`.
#[allow(clippy::too_many_arguments)]
fn tune_command(
    engine: &EngineSpec,
    tunables: &std::path::Path,
    iterations: usize,
    tc: TimeControl,
    openings: Option<&std::path::Path>,
    concurrency: usize,
    out: &std::path::Path,
    seed: u64,
    r_end: f64,
) -> ExitCode {
    let params = match gogo_files::read_text(tunables, TUNABLES_FILE)
        .map_err(|e| gogo_arena::spsa::SpsaError::Io(std::io::Error::other(e.problem_text())))
        .and_then(|t| gogo_arena::spsa::read_params(&t))
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("gogo-arena tune: {}: {e}", tunables.display());
            return ExitCode::from(2);
        }
    };
    let rules = RuleSet::standard();
    let openings_path = openings;
    let openings = match openings {
        Some(path) => match gogo_files::read_text(path, OPENINGS_FILE)
            .map_err(|e| e.problem_text())
            .and_then(|t| read_openings(&t).map_err(|e| e.to_string()))
        {
            Ok(o) if !o.is_empty() => o,
            _ => {
                eprintln!("gogo-arena tune: {}: no openings", path.display());
                return ExitCode::from(2);
            }
        },
        None => vec![default_opening(&rules)],
    };
    let inputs: Vec<&std::path::Path> = std::iter::once(tunables).chain(openings_path).collect();
    let files = match gogo_arena::spsa::TrajectoryFiles::check(out, &inputs) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("gogo-arena tune: {e}");
            return ExitCode::from(2);
        }
    };
    let config = gogo_arena::spsa::TuneConfig {
        engine: engine.clone(),
        settings: GameSettings {
            rules,
            time_control: tc,
            tolerance: Duration::from_millis(100),
            adjudication: None,
            max_think: Duration::from_secs(30),
        },
        openings,
        iterations,
        concurrency,
        seed,
        r_end,
        startup_timeout: Duration::from_secs(30),
    };
    let mut progress = |k: usize, params: &[gogo_arena::spsa::Param]| {
        let values: Vec<String> = params
            .iter()
            .map(|p| format!("{} {:.1}", p.name, p.value))
            .collect();
        eprintln!("iteration {k}/{iterations}: {}", values.join(", "));
    };
    match gogo_arena::spsa::tune(params, &config, &files, &mut progress) {
        Ok(params) => {
            for p in params {
                println!("{} {:.0}", p.name, p.value);
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("gogo-arena tune: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The most a match's JSON lines may be (a million games of a few hundred bytes).
const MATCH_RECORDS: gogo_files::Limit = gogo_files::Limit::new(1 << 30, "a match's JSON lines");
/// The most an engine's program may be, read to identify a run by its checksum.
const ENGINE_PROGRAM: gogo_files::Limit = gogo_files::Limit::new(1 << 30, "an engine's program");
/// The most an openings file may be.
const OPENINGS_FILE: gogo_files::Limit = gogo_files::Limit::new(64 << 20, "an openings file");
/// The most a tunables file may be.
const TUNABLES_FILE: gogo_files::Limit = gogo_files::Limit::new(1 << 20, "a tunables file");

/// The exit status of a merge whose run is not whole (without `--partial`).
const INCOMPLETE: u8 = 3;
/// The exit statuses of a merge whose `--sprt` has decided, whole run or not, so that a
/// driver can cancel the rest of a job array: H1 accepted, H0 accepted.
const SPRT_H1: u8 = 10;
/// See [`SPRT_H1`].
const SPRT_H0: u8 = 11;

/// What identifies a run, in words: the engines (name, program, its checksum, arguments,
/// options, depth cap, own clock), the time control, the game settings, the openings (their
/// text hashed) and the number of games. The shard, the concurrency and the SPRT are not
/// part of it (shards of one run differ in the first; the others do not change the games).
fn run_settings(config: &MatchConfig, cli: &Cli) -> String {
    let engines: Vec<String> = config
        .engines
        .iter()
        .map(|e| {
            // Bounded, and only a regular file: a program named /dev/zero must not hold the
            // run before its engine even fails to start.
            let read = |path: &std::path::Path| gogo_files::read(path, ENGINE_PROGRAM).ok();
            let binary = read(std::path::Path::new(&e.program))
                .or_else(|| which(&e.program).and_then(|p| read(&p)))
                .map_or("unread".to_string(), |b| format!("{:016x}", fnv1a(&b)));
            format!("{e} (binary {binary})")
        })
        .collect();
    let openings = fnv1a(config.openings.join("\n").as_bytes());
    format!(
        "engines: {}; tc {}; rules {:?}; tolerance {:?}; adjudication {:?}; openings {} ({:016x}); games {}",
        engines.join(" vs "),
        config.settings.time_control,
        config.settings.rules,
        config.settings.tolerance,
        config.settings.adjudication,
        config.openings.len(),
        openings,
        cli.games.div_ceil(2) * 2
    )
}

/// The KIF output `path` of a run reading `inputs`: a file already there is written over
/// only if it is KIF (empty, or its first line is KIF's header), never otherwise.
fn kif_output(
    path: &std::path::Path,
    inputs: &[&std::path::Path],
) -> Result<gogo_files::Output, gogo_files::FileError> {
    let out = gogo_files::Output::new(path, inputs)?;
    if out.exists() {
        let not_ours =
            |why: String| gogo_files::FileError::new(path, gogo_files::Problem::NotOurs(why));
        let text =
            gogo_files::read_text(path, MATCH_RECORDS).map_err(|e| not_ours(e.problem_text()))?;
        if !text.is_empty() && !text.starts_with("#KIF") {
            return Err(not_ours(
                "not a KIF file: it does not begin with #KIF".into(),
            ));
        }
    }
    Ok(out)
}

/// The games an earlier run of this very shard left in `path` ([`kept_games`]); none if the
/// file is missing.
fn kept_games_in(
    path: &std::path::Path,
    header: &RunHeader,
) -> Result<Vec<(usize, String)>, String> {
    match gogo_files::read_text_if_exists(path, MATCH_RECORDS) {
        Ok(Some(text)) => kept_games(&text, header),
        Ok(None) => Ok(Vec::new()),
        Err(e) => Err(e.problem_text()),
    }
}

/// A program name found on the PATH, as the shell would.
fn which(program: &str) -> Option<std::path::PathBuf> {
    if program.contains('/') {
        return None;
    }
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|dir| std::path::Path::new(dir).join(program))
        .find(|p| p.is_file())
}

/// `gogo-arena merge`: the standing, what is missing on stderr, and exit 3 for a run that is
/// not whole unless `partial`.
fn merge_command(files: &[std::path::PathBuf], sprt: Option<Sprt>, partial: bool) -> ExitCode {
    let mut texts = Vec::new();
    for path in files {
        match gogo_files::read_text(path, MATCH_RECORDS) {
            Ok(t) => texts.push(t),
            Err(e) => {
                eprintln!("gogo-arena merge: {e}");
                return ExitCode::from(2);
            }
        }
    }
    match merge(&texts) {
        Ok(m) => {
            print!("{}", report::MergedReport(&m, sprt));
            match sprt.map(|s| s.decide(&m.pentanomial)) {
                Some(gogo_arena::stats::SprtDecision::AcceptH1) => return ExitCode::from(SPRT_H1),
                Some(gogo_arena::stats::SprtDecision::AcceptH0) => return ExitCode::from(SPRT_H0),
                _ => {}
            }
            let c = &m.completeness;
            let ranges = report::some_numbers;
            for &(file, line) in &c.torn_lines {
                eprintln!(
                    "gogo-arena merge: warning: {}: line {line} is cut off (skipped)",
                    files[file - 1].display()
                );
            }
            if !c.differing_copies.is_empty() {
                eprintln!("gogo-arena merge: warning: games found twice with other moves (the first copy kept): {}", ranges(&c.differing_copies));
            }
            match &c.run {
                None => {
                    eprintln!("gogo-arena merge: the files have no run header (an older build): whether the run is whole is not known");
                    return if partial {
                        ExitCode::SUCCESS
                    } else {
                        ExitCode::from(INCOMPLETE)
                    };
                }
                Some((run, games, shards)) => {
                    if !c.missing_shards.is_empty() {
                        eprintln!(
                            "gogo-arena merge: run {run}: shards missing: {} of {shards}",
                            ranges(&c.missing_shards)
                        );
                    }
                    if !c.missing_games.is_empty() {
                        eprintln!(
                            "gogo-arena merge: run {run}: {} of {games} games missing: {}",
                            c.missing_games.len(),
                            ranges(&c.missing_games)
                        );
                    }
                }
            }
            if c.is_complete() || partial {
                ExitCode::SUCCESS
            } else {
                eprintln!("gogo-arena merge: the run is not whole (--partial to accept it)");
                ExitCode::from(INCOMPLETE)
            }
        }
        Err(e) => {
            eprintln!("gogo-arena merge: {e}");
            ExitCode::from(2)
        }
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    match &cli.command {
        Some(Command::Merge {
            files,
            sprt,
            partial,
        }) => return merge_command(files, *sprt, *partial),
        Some(Command::Tune {
            engine,
            tunables,
            iterations,
            tc,
            openings,
            concurrency,
            out,
            seed,
            r_end,
        }) => {
            return tune_command(
                engine,
                tunables,
                *iterations,
                *tc,
                openings.as_deref(),
                *concurrency,
                out,
                *seed,
                *r_end,
            )
        }
        None => {}
    }
    let [first, second] = match <[EngineSpec; 2]>::try_from(cli.engines.clone()) {
        Ok(pair) => pair,
        Err(_) => {
            eprintln!("gogo-arena: give exactly two --engine");
            return ExitCode::from(2);
        }
    };
    let rules = if cli.max_plies > 0 {
        cli.rules.with_max_plies(Some(cli.max_plies))
    } else {
        cli.rules
    };
    let openings = match &cli.openings {
        Some(path) => match gogo_files::read_text(path, OPENINGS_FILE)
            .map_err(|e| e.problem_text())
            .and_then(|t| read_openings(&t).map_err(|e| e.to_string()))
        {
            Ok(o) if !o.is_empty() => o,
            Ok(_) => {
                eprintln!("gogo-arena: {} holds no openings", path.display());
                return ExitCode::from(2);
            }
            Err(e) => {
                eprintln!("gogo-arena: {}: {e}", path.display());
                return ExitCode::from(2);
            }
        },
        None => vec![default_opening(&rules)],
    };
    let cli_sprt = cli.sprt;
    let config = MatchConfig {
        engines: [first.clone(), second.clone()],
        settings: GameSettings {
            rules,
            time_control: cli.tc,
            tolerance: Duration::from_millis(cli.tolerance),
            adjudication: cli.adjudicate_score.map(|score| Adjudication {
                score,
                moves: cli.adjudicate_moves,
            }),
            max_think: Duration::from_secs(cli.timeout),
        },
        openings,
        games: cli.games,
        concurrency: cli.concurrency,
        sprt: cli.sprt,
        startup_timeout: Duration::from_secs(cli.timeout),
        shard: cli.shard,
        done: Default::default(),
    };
    let mut config = config;
    if cli.games > gogo_arena::shard::MAX_RUN_GAMES {
        eprintln!(
            "gogo-arena: --games {}: at most {}",
            cli.games,
            gogo_arena::shard::MAX_RUN_GAMES
        );
        return ExitCode::from(2);
    }
    let total = cli.games.div_ceil(2) * 2;
    // The run's identity: everything that makes its games comparable, hashed into the
    // header of its JSON lines (`merge` refuses shards of another run).
    let header = RunHeader::new(run_settings(&config, &cli), total, cli.shard);
    // A shard run again with its file goes on where it stopped: the games the file holds
    // (of this very run) are kept and not played again.
    let kept: Vec<(usize, String)> = match &cli.jsonl {
        Some(path) => match kept_games_in(path, &header) {
            Ok(kept) => kept,
            Err(e) => {
                eprintln!("gogo-arena: {}: {e}", path.display());
                return ExitCode::from(2);
            }
        },
        None => Vec::new(),
    };
    if !kept.is_empty() {
        eprintln!(
            "gogo-arena: going on with {} games kept from the earlier run of this shard (`gogo-arena merge` gives the whole standing)",
            kept.len()
        );
    }
    config.done = kept.iter().map(|(g, _)| *g).collect();
    let config = config;
    // The record files, checked before any engine starts: a regular file or nothing, none
    // of the inputs, and a KIF file already there must be one (the JSON lines were read as
    // this run's above).
    let inputs: Vec<&std::path::Path> = cli.openings.iter().map(|p| p.as_path()).collect();
    let jsonl_out = match cli
        .jsonl
        .as_deref()
        .map(|p| gogo_files::Output::new(p, &inputs))
    {
        Some(Err(e)) => {
            eprintln!("gogo-arena: {e}");
            return ExitCode::from(2);
        }
        out => out.and_then(Result::ok),
    };
    let kif_out = match cli.kif.as_deref().map(|p| kif_output(p, &inputs)) {
        Some(Err(e)) => {
            eprintln!("gogo-arena: {e}");
            return ExitCode::from(2);
        }
        out => out.and_then(Result::ok),
    };
    let names = |g: &gogo_arena::MatchGame| {
        let sente = &config.engines[g.sente_engine].name;
        let gote = &config.engines[1 - g.sente_engine].name;
        (sente.clone(), gote.clone())
    };
    let json_line = |g: &gogo_arena::MatchGame| {
        let (s, w) = names(g);
        record::json_line(g.index, &g.opening, &g.record, &s, &w) + "\n"
    };
    // Each game is appended as it ends, so a run that is stopped (a shard's job preempted,
    // an SPRT killed) keeps what it played; `merge` reads such a file as it is.
    let mut live_jsonl = match &jsonl_out {
        Some(out) => {
            let mut text = header.json_line() + "\n";
            for (_, line) in &kept {
                text.push_str(line.trim_end_matches('\n'));
                text.push('\n');
            }
            // Written whole, then the file just made (checked again) added to as games end.
            let live = out.write(text.as_bytes()).and_then(|()| {
                gogo_files::Output::new(out.path(), &inputs).and_then(|made| made.append())
            });
            match live {
                Ok(file) => Some(file),
                Err(e) => {
                    eprintln!("gogo-arena: {e}");
                    return ExitCode::from(2);
                }
            }
        }
        None => None,
    };
    let mut progress = |games: &[gogo_arena::MatchGame]| {
        eprintln!("{}", report::progress_line(games, total, cli_sprt.as_ref()));
        if let (Some(file), Some(game)) = (live_jsonl.as_mut(), games.last()) {
            use std::io::Write;
            if let Err(e) = file.write_all(json_line(game).as_bytes()) {
                eprintln!("gogo-arena: writing the games as they end: {e}");
            }
        }
    };
    let summary = match run_match(&config, &mut progress) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("gogo-arena: {e}");
            return ExitCode::FAILURE;
        }
    };
    drop(live_jsonl);
    if let Some(out) = &kif_out {
        let text: String = summary
            .games
            .iter()
            .map(|g| {
                let (s, w) = names(g);
                record::kif(&g.record, &s, &w) + "\n"
            })
            .collect();
        if let Err(e) = out.write(text.as_bytes()) {
            eprintln!("gogo-arena: {e}");
        }
    }
    if let Some(out) = &jsonl_out {
        // The whole shard again, the kept games with the new, now in game order.
        let mut lines: Vec<(usize, String)> = kept.clone();
        lines.extend(summary.games.iter().map(|g| (g.index, json_line(g))));
        lines.sort_by_key(|(g, _)| *g);
        let text: String = std::iter::once(header.json_line() + "\n")
            .chain(
                lines
                    .into_iter()
                    .map(|(_, l)| if l.ends_with('\n') { l } else { l + "\n" }),
            )
            .collect();
        // Checked again: the file is the one this run made and added to.
        let rewritten =
            gogo_files::Output::new(out.path(), &inputs).and_then(|out| out.write(text.as_bytes()));
        if let Err(e) = rewritten {
            eprintln!("gogo-arena: {e}");
        }
    }
    print!("{summary}");
    ExitCode::SUCCESS
}
