//! `gogo-train`: trains gogo's NNUE from `gogo datagen` files and writes the network the
//! engine loads, with a text file beside it saying how it was made.
//!
//!   gogo-train --data gen1.bin --out nets/gen1.nnue --epochs 30 --seed 1

use clap::Parser;
use gogo_search::nnue::data;
use gogo_train::{mean_loss, runs, Dataset, Model, Schedule, Trainer};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser, Debug)]
#[command(name = "gogo-train", version, about = "Trains gogo's NNUE on the CPU")]
struct Cli {
    /// Data files written by `gogo datagen`, or directories of them (any number); `FILE:K`
    /// reads FILE's scores at scale K instead of its header's (K from `--calibrate`, say).
    /// A file named as a run (`EVAL-sSEED-nNODES-gGAMES-REV.bin`) must agree with its header.
    #[arg(long, required_unless_present = "run_name", num_args = 1..)]
    data: Vec<String>,
    /// The network to write; a text file `<out>.txt` beside it records how it was made.
    #[arg(long, required_unless_present_any = ["calibrate", "run_name"])]
    out: Option<PathBuf>,
    /// Passes over the training data.
    #[arg(long, default_value_t = 30)]
    epochs: usize,
    /// Positions per batch.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Learning rate (divided by 10 for the last `--decay-fraction` of the epochs).
    #[arg(long, default_value_t = 1e-3)]
    lr: f32,
    /// The fraction of the epochs at the end trained with a tenth of the learning rate.
    #[arg(long, default_value_t = 0.3)]
    decay_fraction: f64,
    /// Weight of the search score in the target; the game result has the rest.
    #[arg(long, default_value_t = 0.75)]
    lambda: f64,
    /// Seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Fraction of the positions held out for the validation loss.
    #[arg(long, default_value_t = 0.05)]
    validation: f64,
    /// Start from this network's weights instead of random ones (training goes on from
    /// it: a lower `--lr` and fewer epochs are usual).
    #[arg(long)]
    init: Option<PathBuf>,
    /// Threads (0: all cores).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Instead of training: fit what the data's scores mean as a winning chance (the scale
    /// K of 1 / (1 + e^(-score / K)) against the game results) and print it.
    #[arg(long)]
    calibrate: bool,
    /// Instead of training: read NAME as a run's file name and print its fields as
    /// `EVAL SEED NODES GAMES REV STARTS` (for scripts/data.sh), or say why it is not one.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["data", "out", "calibrate"])]
    run_name: Option<String>,
}

/// The data files (see [`gogo_train::runs::data_sources`]), each said on stderr as read.
fn read_data(arguments: &[String]) -> Result<Vec<runs::DataFile>, String> {
    let mut files = Vec::new();
    for source in runs::data_sources(arguments)? {
        let file = runs::read_source(&source)?;
        eprintln!("{}", file.summary);
        files.push(file);
    }
    Ok(files)
}

/// `--calibrate`: the score scale that fits the games' results, and what it means.
fn calibrate(files: Vec<(u32, Vec<data::Record>)>) {
    let records: Vec<_> = files.into_iter().flat_map(|(_, r)| r).collect();
    let c = gogo_train::calibration::calibrate(&records);
    println!(
        "Score scale: {:.0} (mean squared error {:.4} over {} positions)",
        c.scale, c.error, c.positions
    );
    for cp in [50.0, 100.0, 200.0, 400.0, 800.0] {
        println!(
            "score cp {cp:.0}: winning chance {:.1} %",
            100.0 * c.chance(cp)
        );
    }
}

/// The first words of a network's notes (`NET.txt`).
const NOTES_START: &str = "gogo NNUE network";

/// The network `--out` and its notes beside it (`NET.txt`), checked as outputs of a run
/// reading the data and `--init`; `None` when nothing is to be trained.
fn training_outputs(
    cli: &Cli,
) -> Result<Option<(gogo_files::Output, gogo_files::Output)>, gogo_files::FileError> {
    let (Some(out), false) = (&cli.out, cli.calibrate) else {
        return Ok(None);
    };
    let mut inputs: Vec<&std::path::Path> = cli.data.iter().map(std::path::Path::new).collect();
    inputs.extend(cli.init.as_deref());
    let not_ours = |path: &std::path::Path, why: String| {
        gogo_files::FileError::new(path, gogo_files::Problem::NotOurs(why))
    };
    let net = gogo_files::Output::new(out, &inputs)?;
    if net.exists() {
        gogo_search::nnue::Network::load(out).map_err(|e| not_ours(out, e.to_string()))?;
    }
    let notes_path = PathBuf::from(format!("{}.txt", out.display()));
    let notes = gogo_files::Output::new(&notes_path, &inputs)?;
    if notes.exists() {
        let limit = gogo_files::Limit::new(1 << 20, "a network's notes");
        let text = gogo_files::read_text(&notes_path, limit)
            .map_err(|e| not_ours(&notes_path, e.problem_text()))?;
        if !text.starts_with(NOTES_START) {
            let why = format!("not a network's notes: it does not begin with '{NOTES_START}'");
            return Err(not_ours(&notes_path, why));
        }
    }
    Ok(Some((net, notes)))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(name) = &cli.run_name {
        let file_name = std::path::Path::new(name)
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        return match file_name.parse::<runs::RunName>() {
            Ok(run) => {
                println!("{}", run.fields());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("gogo-train: {e}");
                ExitCode::from(2)
            }
        };
    }
    if cli.threads > 0 {
        if let Err(e) = rayon::ThreadPoolBuilder::new()
            .num_threads(cli.threads)
            .build_global()
        {
            eprintln!("gogo-train: {e}");
            return ExitCode::from(2);
        }
    }
    // The network and its notes are checked before hours of training, not after: each a
    // regular file or nothing, none of the inputs, and a file there must be a network (or
    // its notes) to be written over.
    let outputs = match training_outputs(&cli) {
        Ok(outputs) => outputs,
        Err(e) => {
            eprintln!("gogo-train: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let init = match &cli.init {
        None => None,
        Some(path) => match gogo_search::nnue::Network::load(path) {
            Ok(net) => Some(net),
            Err(e) => {
                eprintln!("gogo-train: {}: {e}", path.display());
                return ExitCode::from(2);
            }
        },
    };
    let (files, summaries): (Vec<_>, Vec<_>) = match read_data(&cli.data) {
        Ok(files) => files
            .into_iter()
            .map(|f| ((f.scale, f.records), f.summary))
            .unzip(),
        Err(e) => {
            eprintln!("gogo-train: {e}");
            return ExitCode::from(2);
        }
    };
    if cli.calibrate {
        calibrate(files);
        return ExitCode::SUCCESS;
    }
    let dataset = Dataset::build(&files, cli.lambda, cli.seed, cli.validation);
    drop(files);
    eprintln!(
        "{} training and {} validation positions ({} repeats dropped), read in {:.1} s",
        dataset.train.len(),
        dataset.validation.len(),
        dataset.duplicates,
        start.elapsed().as_secs_f64()
    );
    if dataset.train.is_empty() {
        eprintln!("gogo-train: no training positions");
        return ExitCode::from(2);
    }
    let schedule = Schedule::new(cli.epochs, cli.lr, cli.decay_fraction);
    let mut trainer = match &init {
        Some(net) => Trainer::starting_from(Model::from_network(net), cli.seed, cli.batch),
        None => Trainer::new(cli.seed, cli.batch),
    };
    let mut train = dataset.train;
    let mut log = Vec::new();
    if init.is_some() {
        let line = format!(
            "epoch   0: the initial network, train loss {:.6}, validation loss {:.6}",
            mean_loss(trainer.model(), &train),
            mean_loss(trainer.model(), &dataset.validation)
        );
        eprintln!("{line}");
        log.push(line);
    }
    for epoch in 1..=schedule.epochs {
        let epoch_start = Instant::now();
        let lr = schedule.lr(epoch);
        let train_loss = trainer.epoch(&mut train, lr);
        let validation = mean_loss(trainer.model(), &dataset.validation);
        let line = format!(
            "epoch {epoch:>3}: lr {lr:.1e}, train loss {train_loss:.6}, validation loss {validation:.6}, {:.1} s",
            epoch_start.elapsed().as_secs_f64()
        );
        eprintln!("{line}");
        log.push(line);
    }
    let Some((net_out, notes_out)) = outputs else {
        unreachable!("clap requires --out when training");
    };
    let out = net_out.path().to_path_buf();
    let net = trainer.model().quantise();
    if let Err(e) = net_out.write(&net.to_bytes()) {
        eprintln!("gogo-train: {e}");
        return ExitCode::FAILURE;
    }
    let mut notes = format!(
        "{NOTES_START} {}\n\ntrained by: gogo-train {}\ndata: {}\n{}\nstarting from: {}\nepochs {}, batch {}, lr {} (x0.1 from epoch {}), lambda {}, seed {}, validation fraction {}\n{} training positions, {} validation positions, {} repeats dropped\ntime: {:.0} s\n\n",
        out.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned()),
        std::env::args().skip(1).collect::<Vec<_>>().join(" "),
        cli.data.join(" "),
        summaries
            .iter()
            .map(|line| format!("  {line}"))
            .collect::<Vec<_>>()
            .join("\n"),
        match (&cli.init, &init) {
            (Some(path), Some(net)) => format!("{} ({net:?})", path.display()),
            _ => format!("random weights (seed {})", cli.seed),
        },
        cli.epochs,
        cli.batch,
        cli.lr,
        schedule.decay_from + 1,
        cli.lambda,
        cli.seed,
        cli.validation,
        train.len(),
        dataset.validation.len(),
        dataset.duplicates,
        start.elapsed().as_secs_f64()
    );
    for line in &log {
        notes.push_str(line);
        notes.push('\n');
    }
    if let Err(e) = notes_out.write(notes.as_bytes()) {
        eprintln!("gogo-train: {e}");
        return ExitCode::FAILURE;
    }
    println!(
        "Network written: {} (validation loss {:.6})",
        out.display(),
        mean_loss(trainer.model(), &dataset.validation)
    );
    ExitCode::SUCCESS
}
