//! SPSA tuning as Fishtest and OpenBench run it: each iteration perturbs every parameter by
//! ±c_k (one random sign each), plays a game pair between the two perturbed engines, and
//! steps each parameter by `a_k / c_k² · c_k · result · sign`. The trajectory is written as
//! CSV as it goes (and an SVG of the parameters over the iterations), and a run resumes from
//! its CSV.

use crate::referee::{play_game, Ending, GameSettings};
use crate::{new_game, start_engine, ArenaError};
use gogo_protocol::{EngineClient, EngineSpec};
use gogo_rules::{Color, Rng};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

/// One parameter being tuned.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// Its USI option's name.
    pub name: String,
    /// The current value (real: the engine gets it rounded).
    pub value: f64,
    /// The least value.
    pub min: f64,
    /// The most value.
    pub max: f64,
    /// The perturbation at the end of the run (Fishtest's `c_end`).
    pub c_end: f64,
}

/// Why a tuning could not start or go on.
#[derive(Debug)]
pub enum SpsaError {
    /// A line of the tunables CSV (from 1) and what is wrong with it.
    Tunables {
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        problem: String,
    },
    /// The trajectory file to resume from does not fit the tunables.
    Trajectory(String),
    /// The trajectory file could not be read or written.
    Io(std::io::Error),
    /// The trajectory or its plot is not a file this tool may read or write over.
    File(gogo_files::FileError),
    /// An engine failed.
    Arena(ArenaError),
}

impl std::fmt::Display for SpsaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SpsaError::Tunables { line, problem } => write!(f, "tunables line {line}: {problem}"),
            SpsaError::Trajectory(problem) => write!(f, "trajectory: {problem}"),
            SpsaError::Io(e) => write!(f, "{e}"),
            SpsaError::File(e) => write!(f, "{e}"),
            SpsaError::Arena(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SpsaError {}

/// Reads `gogo tunables` CSV: `name,default,min,max,step` (a header line first).
pub fn read_params(csv: &str) -> Result<Vec<Param>, SpsaError> {
    let mut params = Vec::new();
    for (n, line) in csv.lines().enumerate().skip(1) {
        if line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        let bad = |problem: String| SpsaError::Tunables {
            line: n + 1,
            problem,
        };
        let number = |i: usize| -> Result<f64, SpsaError> {
            f.get(i)
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| bad(format!("field {} is not a number", i + 1)))
        };
        let (value, min, max, c_end) = (number(1)?, number(2)?, number(3)?, number(4)?);
        if !(min <= value && value <= max && c_end > 0.0) {
            return Err(bad("default outside min..max".into()));
        }
        params.push(Param {
            name: f[0].to_string(),
            value,
            min,
            max,
            c_end,
        });
    }
    Ok(params)
}

/// Fishtest's `r_end`. It is set for runs of tens of thousands of game pairs: at it a decisive
/// pair moves a parameter by 0.004 of its step at the end, so a run of a few thousand pairs
/// (all two cores do in an hour or two) moves nothing by a step; such a run takes a larger one.
pub const FISHTEST_R_END: f64 = 0.002;

/// SPSA's gains, as Fishtest sets them from the run's length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gains {
    /// Iterations in the run.
    pub iterations: usize,
    /// The learning rate at the end (Fishtest's `r_end`).
    pub r_end: f64,
    /// Stability constant, a tenth of the iterations.
    pub big_a: f64,
    /// Exponents of a_k and c_k.
    pub alpha: f64,
    /// See [`Gains::alpha`].
    pub gamma: f64,
}

impl Gains {
    /// Fishtest's defaults for a run of `iterations`.
    pub fn new(iterations: usize) -> Gains {
        Gains {
            iterations,
            r_end: FISHTEST_R_END,
            big_a: iterations as f64 / 10.0,
            alpha: 0.602,
            gamma: 0.101,
        }
    }

    /// The perturbation of `param` at iteration `k` (from 1).
    pub fn c(&self, param: &Param, k: usize) -> f64 {
        param.c_end * (self.iterations as f64).powf(self.gamma) / (k as f64).powf(self.gamma)
    }

    /// The step factor `a_k / c_k²` of `param` at iteration `k`.
    pub fn r(&self, param: &Param, k: usize) -> f64 {
        let a_end = self.r_end * param.c_end * param.c_end;
        let a = a_end * (self.big_a + self.iterations as f64).powf(self.alpha);
        let a_k = a / (self.big_a + k as f64).powf(self.alpha);
        a_k / self.c(param, k).powi(2)
    }
}

/// One iteration's perturbation: the values for the "plus" and "minus" engines and the
/// signs.
#[derive(Clone, Debug)]
pub struct Perturbation {
    /// The iteration, from 1.
    pub k: usize,
    /// The values (rounded) the plus engine plays with.
    pub plus: Vec<i64>,
    /// The values (rounded) the minus engine plays with.
    pub minus: Vec<i64>,
    /// The signs, +1 or -1.
    pub signs: Vec<f64>,
}

/// The tuner's state.
#[derive(Clone, Debug)]
pub struct Spsa {
    /// The parameters.
    pub params: Vec<Param>,
    /// The gains.
    pub gains: Gains,
    /// Iterations started so far.
    pub started: usize,
}

impl Spsa {
    /// Iteration `started + 1`'s perturbation.
    pub fn perturb(&mut self, rng: &mut Rng) -> Perturbation {
        self.started += 1;
        let k = self.started;
        let signs: Vec<f64> = self
            .params
            .iter()
            .map(|_| if rng.below(2) == 0 { -1.0 } else { 1.0 })
            .collect();
        let value = |p: &Param, s: f64| {
            (p.value + s * self.gains.c(p, k))
                .clamp(p.min, p.max)
                .round() as i64
        };
        Perturbation {
            k,
            plus: self
                .params
                .iter()
                .zip(&signs)
                .map(|(p, &s)| value(p, s))
                .collect(),
            minus: self
                .params
                .iter()
                .zip(&signs)
                .map(|(p, &s)| value(p, -s))
                .collect(),
            signs,
        }
    }

    /// Steps the parameters by the plus engine's `result` over its pair (wins minus
    /// losses, -2 to 2).
    pub fn update(&mut self, p: &Perturbation, result: f64) {
        for (param, &sign) in self.params.iter_mut().zip(&p.signs) {
            let c = self.gains.c(param, p.k);
            let step = self.gains.r(param, p.k) * c * result * sign;
            param.value = (param.value + step).clamp(param.min, param.max);
        }
    }
}

/// The trajectory file: a header, then one line per finished iteration.
fn csv_header(params: &[Param]) -> String {
    let names: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
    format!("iteration,result,{}\n", names.join(","))
}

/// The values of the last line of a trajectory, and its iteration, to resume from.
pub fn resume_from(csv: &str, params: &mut [Param]) -> Result<usize, SpsaError> {
    let bad = |problem: String| Err(SpsaError::Trajectory(problem));
    let mut lines = csv.lines();
    let header = lines.next().unwrap_or("");
    if format!("{header}\n") != csv_header(params) {
        return bad("its parameters differ from the tunables".into());
    }
    let Some(last) = lines.rev().find(|l| !l.trim().is_empty()) else {
        return Ok(0);
    };
    let f: Vec<&str> = last.split(',').collect();
    if f.len() != params.len() + 2 {
        return bad(format!("a line of {} fields: '{last}'", f.len()));
    }
    let Ok(k) = f[0].parse() else {
        return bad(format!("a line without an iteration: '{last}'"));
    };
    for (param, v) in params.iter_mut().zip(&f[2..]) {
        let Ok(value) = v.parse() else {
            return bad(format!("'{v}' is not a value"));
        };
        param.value = value;
    }
    Ok(k)
}

/// The mark a plot of [`plot`] carries, by which a run knows a plot beside its trajectory is
/// its own to redraw.
pub const PLOT_MARK: &str = "<!-- the trajectory of a gogo-arena tune run -->";

/// The most a trajectory or its plot may be (a line of a few hundred bytes an iteration, so
/// about a million iterations).
pub const TRAJECTORY_FILE: gogo_files::Limit =
    gogo_files::Limit::new(256 << 20, "an SPSA trajectory or its plot");

/// A run's trajectory and its plot (`.svg` beside it), checked before any game is played:
/// each is a regular file or nothing, none of the run's inputs; a trajectory already there is
/// read (bounded) to resume from, and a plot already there must be one this tool drew. So a
/// mistyped `--out` refuses to start instead of writing over a file it could not read.
#[derive(Debug)]
pub struct TrajectoryFiles {
    csv: gogo_files::Output,
    /// The trajectory's text, if a non-empty one is there.
    existing: Option<String>,
    plot: gogo_files::Output,
}

impl TrajectoryFiles {
    /// Checks the trajectory `out` and its plot for a run reading `inputs`.
    pub fn check(out: &Path, inputs: &[&Path]) -> Result<TrajectoryFiles, SpsaError> {
        let csv = gogo_files::Output::new(out, inputs).map_err(SpsaError::File)?;
        let existing = gogo_files::read_text_if_exists(out, TRAJECTORY_FILE)
            .map_err(SpsaError::File)?
            .filter(|text| !text.is_empty());
        let plot_path = out.with_extension("svg");
        if plot_path == out {
            return Err(SpsaError::Trajectory(format!(
                "{}: the plot goes beside the trajectory as .svg, so the trajectory may not be one",
                out.display()
            )));
        }
        let plot = gogo_files::Output::new(&plot_path, inputs).map_err(SpsaError::File)?;
        if plot.exists() {
            let text =
                gogo_files::read_text(&plot_path, TRAJECTORY_FILE).map_err(SpsaError::File)?;
            if !text.is_empty() && !text.contains(PLOT_MARK) {
                return Err(SpsaError::File(gogo_files::FileError::new(
                    &plot_path,
                    gogo_files::Problem::NotOurs(
                        "the trajectory's plot goes here, and this is not one this tool drew \
                         (move it away to go on)"
                            .into(),
                    ),
                )));
            }
        }
        Ok(TrajectoryFiles {
            csv,
            existing,
            plot,
        })
    }
}

/// A plot of each parameter over the iterations, scaled to its range, as SVG.
pub fn plot(csv: &str) -> String {
    let mut lines = csv.lines();
    let names: Vec<&str> = lines.next().unwrap_or("").split(',').skip(2).collect();
    let rows: Vec<Vec<f64>> = lines
        .map(|l| l.split(',').filter_map(|v| v.parse().ok()).collect())
        .filter(|r: &Vec<f64>| r.len() == names.len() + 2)
        .collect();
    let (w, h) = (800.0, 60.0 * names.len().max(1) as f64);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-size=\"11\">\n{PLOT_MARK}\n"
    );
    let last = rows.last().map_or(1.0, |r| r[0]).max(1.0);
    for (i, name) in names.iter().enumerate() {
        let values: Vec<f64> = rows.iter().map(|r| r[i + 2]).collect();
        let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let span = (hi - lo).max(1e-9);
        let top = 60.0 * i as f64;
        let points: Vec<String> = rows
            .iter()
            .zip(&values)
            .map(|(r, v)| {
                format!(
                    "{:.1},{:.1}",
                    r[0] / last * (w - 160.0),
                    top + 50.0 - (v - lo) / span * 40.0
                )
            })
            .collect();
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{}\">{name} {:.1}…{:.1}</text><polyline fill=\"none\" stroke=\"#36c\" points=\"{}\"/>",
            w - 155.0,
            top + 30.0,
            lo,
            hi,
            points.join(" ")
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// What a tuning run needs besides the parameters.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// The engine (a build that takes the parameters as options); it plays itself.
    pub engine: EngineSpec,
    /// The game settings.
    pub settings: GameSettings,
    /// Openings (USI position text), used in turn.
    pub openings: Vec<String>,
    /// Iterations in the run.
    pub iterations: usize,
    /// Pairs played at once.
    pub concurrency: usize,
    /// Seed of the signs.
    pub seed: u64,
    /// The learning rate at the end ([`Gains::r_end`]).
    pub r_end: f64,
    /// How long an engine may take to start.
    pub startup_timeout: Duration,
}

/// The plus engine's wins minus losses over one pair.
fn play_pair(
    engines: &mut [EngineClient; 2],
    names: &[String],
    p: &Perturbation,
    config: &TuneConfig,
) -> Result<f64, ArenaError> {
    for (engine, values) in engines.iter_mut().zip([&p.plus, &p.minus]) {
        for (name, v) in names.iter().zip(values) {
            engine
                .set_option(name, &v.to_string())
                .map_err(|error| ArenaError::Engine {
                    name: config.engine.name.clone(),
                    error,
                })?;
        }
    }
    let opening = &config.openings[p.k % config.openings.len().max(1)];
    let mut result = 0.0;
    for plus_is_sente in [true, false] {
        let game = new_game(config.settings.rules, opening);
        let [plus, minus] = engines;
        let players = if plus_is_sente {
            [plus, minus]
        } else {
            [minus, plus]
        };
        let record = play_game(players, game, &config.settings);
        let plus_color = if plus_is_sente {
            Color::Sente
        } else {
            Color::Gote
        };
        result += match record.ending.winner() {
            Some(c) if c == plus_color => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        };
        if let Some(side) = record.ending.failed_engine() {
            let k = usize::from(side != plus_color);
            engines[k] = start_engine(
                &config.engine,
                &config.settings.rules,
                config.startup_timeout,
            )?;
        }
        if matches!(record.ending, Ending::EngineFailure(..)) {
            log::warn!("an engine failed during tuning: {}", record.ending.reason());
        }
    }
    Ok(result)
}

/// Runs (or resumes) the tuning into `files`; `progress` hears of each finished iteration.
/// Returns the final values.
pub fn tune(
    mut params: Vec<Param>,
    config: &TuneConfig,
    files: &TrajectoryFiles,
    progress: &mut (dyn FnMut(usize, &[Param]) + Send),
) -> Result<Vec<Param>, SpsaError> {
    // Resumed only from a trajectory of these very parameters; nothing is written before.
    let done = match &files.existing {
        Some(text) => resume_from(text, &mut params)?,
        None => 0,
    };
    let mut trajectory = files.csv.append().map_err(SpsaError::File)?;
    if files.existing.is_none() {
        trajectory
            .write_all(csv_header(&params).as_bytes())
            .map_err(SpsaError::Io)?;
    }
    let names: Vec<String> = params.iter().map(|p| p.name.clone()).collect();
    let state = Mutex::new((
        Spsa {
            params,
            gains: Gains {
                r_end: config.r_end,
                ..Gains::new(config.iterations)
            },
            started: done,
        },
        Rng::new(config.seed ^ done as u64),
    ));
    let out = Mutex::new(trajectory);
    let progress = Mutex::new(progress);
    let error = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.max(1) {
            scope.spawn(|| {
                let start = || {
                    start_engine(
                        &config.engine,
                        &config.settings.rules,
                        config.startup_timeout,
                    )
                };
                let mut engines = match (start(), start()) {
                    (Ok(a), Ok(b)) => [a, b],
                    (Err(e), _) | (_, Err(e)) => {
                        error.lock().unwrap().get_or_insert(SpsaError::Arena(e));
                        return;
                    }
                };
                loop {
                    let p = {
                        let mut s = state.lock().unwrap();
                        if s.0.started >= config.iterations || error.lock().unwrap().is_some() {
                            break;
                        }
                        let (spsa, rng) = &mut *s;
                        spsa.perturb(rng)
                    };
                    let result = match play_pair(&mut engines, &names, &p, config) {
                        Ok(r) => r,
                        Err(e) => {
                            error.lock().unwrap().get_or_insert(SpsaError::Arena(e));
                            break;
                        }
                    };
                    let mut s = state.lock().unwrap();
                    s.0.update(&p, result);
                    let values: Vec<String> =
                        s.0.params
                            .iter()
                            .map(|x| format!("{:.3}", x.value))
                            .collect();
                    let mut out = out.lock().unwrap();
                    let _ = writeln!(out, "{},{result},{}", p.k, values.join(","));
                    if p.k % PLOT_EVERY == 0 {
                        // Under the file's lock, so the plot never reads half a line.
                        write_plot(files);
                    }
                    drop(out);
                    (progress.lock().unwrap())(p.k, &s.0.params);
                }
                for e in engines {
                    e.shutdown();
                }
            });
        }
    });
    if let Some(e) = error.into_inner().unwrap() {
        return Err(e);
    }
    write_plot(files);
    Ok(state.into_inner().unwrap().0.params)
}

/// Iterations between refreshes of the plot: long runs are stopped, not finished, and their
/// trajectory should be plotted all the same.
const PLOT_EVERY: usize = 10;

/// Plots the trajectory into the SVG beside it, whole or not at all (written aside and
/// renamed, since a viewer may read it while the run goes on). Best effort: a plot that
/// cannot be written does not stop the tuning.
fn write_plot(files: &TrajectoryFiles) {
    if let Ok(csv) = gogo_files::read_text(files.csv.path(), TRAJECTORY_FILE) {
        let _ = files.plot.write(plot(&csv).as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(name: &str, value: f64) -> Param {
        Param {
            name: name.into(),
            value,
            min: 0.0,
            max: 200.0,
            c_end: 10.0,
        }
    }

    /// On a noiseless objective (the pair is won by whichever side is nearer 150), SPSA walks
    /// the parameter from 60 towards 150 and stays in range.
    #[test]
    fn spsa_climbs_a_simple_objective() {
        let mut spsa = Spsa {
            params: vec![param("X", 60.0)],
            gains: Gains::new(2000),
            started: 0,
        };
        let mut rng = Rng::new(1);
        for _ in 0..2000 {
            let p = spsa.perturb(&mut rng);
            let (plus, minus) = (p.plus[0] as f64, p.minus[0] as f64);
            let result = ((150.0 - minus).abs() - (150.0 - plus).abs()).signum() * 2.0;
            spsa.update(&p, result);
        }
        let x = spsa.params[0].value;
        assert!((130.0..=170.0).contains(&x), "{x}");
    }

    /// A run's `r_end` scales every step by the same factor, and at the end a decisive pair
    /// moves a parameter by `2 * r_end` of its step (so Fishtest's 0.004 of a step).
    #[test]
    fn the_end_learning_rate_scales_each_step() {
        let moved = |r_end: f64, k: usize| {
            let mut spsa = Spsa {
                params: vec![param("X", 100.0)],
                gains: Gains {
                    r_end,
                    ..Gains::new(1000)
                },
                started: k - 1,
            };
            let p = spsa.perturb(&mut Rng::new(5));
            spsa.update(&p, 2.0);
            (spsa.params[0].value - 100.0).abs()
        };
        let at_end = moved(FISHTEST_R_END, 1000);
        assert!(
            (at_end - 2.0 * FISHTEST_R_END * 10.0).abs() < 1e-9,
            "{at_end}"
        );
        for k in [1, 300, 1000] {
            let ratio = moved(0.01, k) / moved(FISHTEST_R_END, k);
            assert!((ratio - 5.0).abs() < 1e-9, "k {k}: {ratio}");
        }
    }

    #[test]
    fn tunables_read_and_a_trajectory_resumes() {
        let csv = "name,default,min,max,step\nA,25,10,60,5\nB,90,40,160,10\n";
        let mut params = read_params(csv).unwrap();
        assert_eq!(params.len(), 2);
        assert_eq!(
            params[1],
            Param {
                name: "B".into(),
                value: 90.0,
                min: 40.0,
                max: 160.0,
                c_end: 10.0
            }
        );
        let trajectory = csv_header(&params) + "1,2,25.5,89\n2,-2,26.25,88.5\n";
        assert_eq!(resume_from(&trajectory, &mut params).ok(), Some(2));
        assert_eq!((params[0].value, params[1].value), (26.25, 88.5));
        assert!(plot(&trajectory).contains("<polyline"));
        assert!(matches!(
            read_params("name\nA,5,10,60,5\n"),
            Err(SpsaError::Tunables { line: 2, .. })
        ));
        assert!(matches!(
            resume_from("iteration,result,Z\n", &mut params),
            Err(SpsaError::Trajectory(_))
        ));
        let short = csv_header(&params) + "7\n";
        assert!(resume_from(&short, &mut params).is_err());
    }
}
