//! `gogo-arena tune` end to end with a scripted engine: the trajectory gets one line per
//! iteration, the plot is written (also while a run goes on), and a second run resumes where
//! the first stopped.

mod common;

use common::run_arena;

#[test]
fn a_tuning_run_writes_its_trajectory_and_resumes() {
    let dir = std::env::temp_dir().join(format!("gogo-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tunables = dir.join("tunables.csv");
    std::fs::write(
        &tunables,
        "name,default,min,max,step\nA,25,10,60,5\nB,90,40,160,10\n",
    )
    .unwrap();
    let out = dir.join("trajectory.csv");
    // Sente resigns at once: each pair is one win each, a result of 0, so nothing moves.
    let tune = |iterations: &str| tune_run(&tunables, &out, &["--iterations", iterations]);
    let first = tune("3");
    assert_eq!(first.lines().collect::<Vec<_>>(), ["A 25", "B 90"]);
    let csv = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "iteration,result,A,B");
    assert_eq!(lines.len(), 4, "{csv}");
    assert!(
        lines[1..].iter().all(|l| l.split(',').nth(1) == Some("0")),
        "{csv}"
    );
    assert!(std::fs::read_to_string(out.with_extension("svg"))
        .unwrap()
        .contains("<svg"));
    // Resumed: iterations 4 and 5 follow.
    tune("5");
    let csv = std::fs::read_to_string(&out).unwrap();
    let iterations: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(iterations, ["1", "2", "3", "4", "5"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A scratch directory for a run named `name`, with one tunable; its tunables file and
/// where the trajectory goes.
fn one_parameter_run(name: &str) -> (std::path::PathBuf, std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("gogo-tune-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tunables = dir.join("tunables.csv");
    std::fs::write(&tunables, "name,default,min,max,step\nA,25,10,60,5\n").unwrap();
    let out = dir.join("trajectory.csv");
    (dir, tunables, out)
}

/// The scripted engine that resigns as Sente at once: every pair splits, nothing moves.
fn resigning_engine() -> String {
    format!(
        "name=script,cmd={},arg=!resign",
        env!("CARGO_BIN_EXE_usi-script-engine")
    )
}

/// A run of the resigning engine on `tunables` into `out`, one pair at a time at 50 ms, with
/// `extra` arguments; its stdout (the final values).
fn tune_run(tunables: &std::path::Path, out: &std::path::Path, extra: &[&str]) -> String {
    let engine = resigning_engine();
    let mut args = vec![
        "tune",
        "--engine",
        &engine,
        "--tunables",
        tunables.to_str().unwrap(),
        "--tc",
        "movetime=50",
        "--concurrency",
        "1",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    run_arena(&args)
}

/// A learning rate that is not a number in (0, 1] is refused before anything is written;
/// one in range is taken.
#[test]
fn the_learning_rate_is_checked_before_the_run() {
    let (dir, tunables, out) = one_parameter_run("rate");
    let engine = resigning_engine();
    for rate in ["0", "-0.01", "1.5", "NaN", "inf", "fast"] {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_gogo-arena"))
            .args(["tune", "--engine", &engine, "--tunables"])
            .arg(&tunables)
            .args(["--iterations", "2", &format!("--r-end={rate}"), "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{rate}: {output:?}");
        assert!(
            String::from_utf8_lossy(&output.stderr).contains("--r-end"),
            "{rate}: {output:?}"
        );
        assert!(!out.exists(), "{rate}");
    }
    // A rate in range is taken: the run goes ahead.
    tune_run(&tunables, &out, &["--iterations", "2", "--r-end=0.01"]);
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 3);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_long_run_is_plotted_while_it_goes_on() {
    let (dir, tunables, out) = one_parameter_run("long");
    let svg = out.with_extension("svg");
    let engine = resigning_engine();
    // Far more iterations than can finish: long runs are stopped, not finished. The guard
    // stops this one however the test ends.
    struct KillOnDrop(std::process::Child);
    impl Drop for KillOnDrop {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let mut run = KillOnDrop(
        std::process::Command::new(env!("CARGO_BIN_EXE_gogo-arena"))
            .args(["tune", "--engine", &engine, "--tunables"])
            .arg(&tunables)
            .args(["--iterations", "100000000", "--tc", "movetime=50"])
            .args(["--concurrency", "1", "--out"])
            .arg(&out)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("gogo-arena runs"),
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while !svg.exists() && std::time::Instant::now() < deadline {
        assert!(run.0.try_wait().unwrap().is_none(), "the run stopped");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(run.0.try_wait().unwrap().is_none(), "the run stopped");
    drop(run);
    let plot = std::fs::read_to_string(&svg).expect("a plot while the run goes on");
    assert!(plot.contains("<svg") && plot.contains("A"), "{plot}");
    let rows = std::fs::read_to_string(&out).unwrap().lines().count() - 1;
    assert!(rows >= 10, "plotted after {rows} iterations");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `--out` that is not a trajectory this run may write over is refused before any game,
/// and left as it was: a file that is not text (a data file named by mistake), a FIFO
/// (which must not hold the tool), the tunables file itself, a trajectory of other
/// parameters, a trajectory named `.svg` (its plot's name), or one beside a plot the tool did
/// not draw.
#[test]
fn an_output_that_is_not_a_trajectory_is_refused_and_kept() {
    let (dir, tunables, _) = one_parameter_run("refused");
    let engine = resigning_engine();
    let refused = |out: &std::path::Path| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_gogo-arena"))
            .args(["tune", "--engine", &engine, "--tunables"])
            .arg(&tunables)
            .args(["--iterations", "2", "--tc", "movetime=50", "--out"])
            .arg(out)
            .output()
            .unwrap();
        assert_ne!(output.status.code(), Some(0), "{out:?}: {output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(stderr.contains("gogo-arena tune"), "{out:?}: {stderr}");
        stderr
    };
    // Not text: a data file is not written over.
    let data = dir.join("positions.bin");
    let bytes = [b'G', b'O', 0xff, 0xfe, 0, 1, 2, 3];
    std::fs::write(&data, bytes).unwrap();
    refused(&data);
    assert_eq!(std::fs::read(&data).unwrap(), bytes);
    assert!(!data.with_extension("svg").exists());
    // A FIFO is refused at once rather than read.
    let fifo = dir.join("fifo.csv");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        refused(&fifo);
    }
    // The run's own input.
    let before = std::fs::read(&tunables).unwrap();
    refused(&tunables);
    assert_eq!(std::fs::read(&tunables).unwrap(), before);
    // A trajectory of other parameters.
    let other = dir.join("other.csv");
    std::fs::write(&other, "iteration,result,Z\n1,0,3\n").unwrap();
    assert!(refused(&other).contains("parameters differ"));
    assert_eq!(
        std::fs::read_to_string(&other).unwrap(),
        "iteration,result,Z\n1,0,3\n"
    );
    // A trajectory named as its own plot.
    assert!(refused(&dir.join("trajectory.svg")).contains(".svg"));
    assert!(!dir.join("trajectory.svg").exists());
    // A new trajectory, but a picture of someone else's where its plot would go.
    let out = dir.join("fresh.csv");
    let picture = "<svg xmlns=\"http://www.w3.org/2000/svg\"><circle r=\"4\"/></svg>\n";
    std::fs::write(out.with_extension("svg"), picture).unwrap();
    assert!(refused(&out).contains("not one"));
    assert!(!out.exists());
    assert_eq!(
        std::fs::read_to_string(out.with_extension("svg")).unwrap(),
        picture
    );
    // Once that picture is gone, the same run goes ahead and draws its own plot, which a
    // later run may redraw.
    std::fs::remove_file(out.with_extension("svg")).unwrap();
    tune_run(&tunables, &out, &["--iterations", "1"]);
    tune_run(&tunables, &out, &["--iterations", "2"]);
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 3);
    let _ = std::fs::remove_dir_all(&dir);
}
