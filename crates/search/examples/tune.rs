//! Texel-style tuning of the evaluation weights.
//!
//! Reads positions labelled by how the game went and by a reference engine's search score,
//! moves each one to the end of its capture sequence (a quiet position the static evaluation
//! can judge), then changes one weight at a time while that lowers the mean squared error
//! between `sigmoid(eval / K)` and the label. Writes the result as `tuned_weights.rs`.
//!
//! Data file: one position a line, `POSITION<TAB>RESULT<TAB>SCORE`, where POSITION is an SFEN
//! or what follows USI's `position` (`sfen ... moves ...`), RESULT is the game's
//! result for Sente (1, 0.5 or 0) and SCORE the reference engine's score for Sente in
//! centipawns (its own scale; lines without a score use the result alone).
//!
//! ```text
//! cargo run --release -p gogo-search --example tune -- --data FILE --out FILE
//!     [--lambda 0.5] [--passes 30] [--threads 2]
//! ```
//! `--lambda` is the weight of the game result in the label (the rest is the reference score,
//! turned into an expected result with its own fitted scale).

use gogo_rules::sfen::parse_usi_position;
use gogo_rules::{Color, MoveList, Position};
use gogo_search::eval::evaluate_with;
use gogo_search::weights::{Weights, WEIGHTS};
use std::collections::HashSet;
use std::process::ExitCode;

/// One training position: already quiet, with its label as Sente's expected result.
struct Sample {
    pos: Position,
    target: f64,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Evaluation for Sente.
fn eval_sente(pos: &Position, w: &Weights) -> i32 {
    let e = evaluate_with(pos, w);
    if pos.side_to_move() == Color::Sente {
        e
    } else {
        -e
    }
}

/// Capture-and-promotion search from the side to move's view; returns the score and the
/// quiet position at the end of the principal variation.
fn quiesce(pos: &Position, mut alpha: i32, beta: i32, w: &Weights, depth: u32) -> (i32, Position) {
    let stand = evaluate_with(pos, w);
    let mut best = (stand, pos.clone());
    if stand >= beta || depth == 0 {
        return best;
    }
    alpha = alpha.max(stand);
    let mut moves = MoveList::new();
    pos.generate_noisy(&mut moves);
    for &mv in moves.iter() {
        let child = pos.played(mv);
        let (s, leaf) = quiesce(&child, -beta, -alpha, w, depth - 1);
        let s = -s;
        if s > best.0 {
            best = (s, leaf);
            if s > alpha {
                alpha = s;
                if s >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// Mean squared error of the weights over the samples, on `threads` threads.
fn error(samples: &[Sample], w: &Weights, k: f64, threads: usize) -> f64 {
    let chunk = samples.len().div_ceil(threads).max(1);
    let total: f64 = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|s| {
                            let d = s.target - sigmoid(eval_sente(&s.pos, w) as f64 / k);
                            d * d
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(0.0)).sum()
    });
    total / samples.len() as f64
}

/// The scale minimising `f(scale)` between `lo` and `hi` (golden-section search).
fn fit_scale(mut lo: f64, mut hi: f64, f: impl Fn(f64) -> f64) -> f64 {
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if f(a) < f(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

struct Args {
    data: String,
    out: String,
    lambda: f64,
    passes: usize,
    threads: usize,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        data: String::new(),
        out: String::new(),
        lambda: 0.5,
        passes: 30,
        threads: 2,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        let bad = |e: &dyn std::fmt::Display| format!("{flag} {value}: {e}");
        match flag.as_str() {
            "--data" => args.data = value,
            "--out" => args.out = value,
            "--lambda" => args.lambda = value.parse().map_err(|e| bad(&e))?,
            "--passes" => args.passes = value.parse().map_err(|e| bad(&e))?,
            "--threads" => args.threads = value.parse::<usize>().map_err(|e| bad(&e))?.max(1),
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    if args.data.is_empty() || args.out.is_empty() {
        return Err(
            "usage: tune --data FILE --out FILE [--lambda L] [--passes N] [--threads N]".into(),
        );
    }
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let text = match std::fs::read_to_string(&args.data) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{}: {e}", args.data);
            return ExitCode::FAILURE;
        }
    };

    // 1. Read the positions; skip those in check (no static evaluation judges them).
    //    A position met twice (two games through the same line) counts once.
    let mut raw: Vec<(Position, f64, Option<f64>)> = Vec::new();
    let mut seen = HashSet::new();
    for (n, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split('\t').collect();
        let parsed = (|| {
            let (mut pos, moves) = parse_usi_position(fields.first()?).ok()?;
            for mv in moves {
                pos.play(mv);
            }
            let result: f64 = fields.get(1)?.parse().ok()?;
            let score = fields.get(2).and_then(|s| s.parse::<f64>().ok());
            Some((pos, result, score))
        })();
        match parsed {
            Some(p) if !p.0.in_check() && seen.insert(p.0.key()) => raw.push(p),
            Some(_) => {}
            None => eprintln!(
                "{}:{}: skipped, not POSITION<TAB>RESULT[<TAB>SCORE]",
                args.data,
                n + 1
            ),
        }
    }

    // 2. Turn the reference scores into expected results with the scale that fits the games.
    let scored: Vec<(f64, f64)> = raw
        .iter()
        .filter_map(|(_, r, s)| s.map(|s| (s, *r)))
        .collect();
    let ref_scale = fit_scale(10.0, 2000.0, |k| {
        scored
            .iter()
            .map(|(s, r)| (r - sigmoid(s / k)).powi(2))
            .sum()
    });
    eprintln!(
        "{} positions, {} with a reference score (scale {ref_scale:.1})",
        raw.len(),
        scored.len()
    );

    // 3. Quiet positions: the end of each capture sequence under the starting weights.
    let all: Vec<Sample> = raw
        .iter()
        .map(|(pos, result, score)| {
            let target = match score {
                Some(s) => args.lambda * result + (1.0 - args.lambda) * sigmoid(s / ref_scale),
                None => *result,
            };
            let (_, leaf) = quiesce(pos, -100_000, 100_000, &WEIGHTS, 8);
            Sample { pos: leaf, target }
        })
        .collect();
    // Every tenth position is held out: its error shows whether the fit generalises.
    let (held_out, samples): (Vec<Sample>, Vec<Sample>) = {
        let mut n = 0;
        all.into_iter().partition(|_| {
            n += 1;
            n % 10 == 0
        })
    };

    // 4. The scale of our own evaluation, fitted once with the starting weights.
    let k = fit_scale(10.0, 3000.0, |k| error(&samples, &WEIGHTS, k, args.threads));
    let mut best = WEIGHTS.clone();
    let mut best_error = error(&samples, &best, k, args.threads);
    eprintln!(
        "K = {k:.1}, starting error {best_error:.6}, held out {:.6}",
        error(&held_out, &best, k, args.threads)
    );

    // 5. Local search: one weight at a time, a step up or down while the error falls; the
    //    step halves when a whole pass finds nothing.
    let count = best.clone().tunable_mut().len();
    let mut step = 8;
    for pass in 1..=args.passes {
        let mut improved = 0;
        for i in 0..count {
            for delta in [step, -step] {
                let mut trial = best.clone();
                *trial.tunable_mut()[i] += delta;
                let e = error(&samples, &trial, k, args.threads);
                if e < best_error {
                    best = trial;
                    best_error = e;
                    improved += 1;
                    break;
                }
            }
        }
        let check = error(&held_out, &best, k, args.threads);
        eprintln!(
            "pass {pass}: step {step}, {improved} weights changed, error {best_error:.6}, \
             held out {check:.6}"
        );
        if improved == 0 {
            if step == 1 {
                break;
            }
            step /= 2;
        }
        let header = format!(
            "Tuned by scripts/tune.sh: {} positions ({} held out), lambda {}, K {k:.1},\n\
             error {best_error:.6}, held out {check:.6} (pass {pass}). Regenerate, do not edit.",
            samples.len(),
            held_out.len(),
            args.lambda
        );
        if let Err(e) = std::fs::write(&args.out, best.to_rust(&header)) {
            eprintln!("{}: {e}", args.out);
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
