//! Every way a game ends, with scripted engines, through the real `gogo-arena` binary.

mod common;

use common::{assert_no_faults, gogo, run_arena};
use std::process::Command;

struct Outcome {
    stdout: String,
    jsonl: String,
}

fn arena(sente_script: &str, gote_script: &str, opening: &str, extra: &[&str]) -> Outcome {
    let dir = std::env::temp_dir().join(format!(
        "gogo-arena-test-{}-{}",
        std::process::id(),
        rand_suffix()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, format!("{opening}\n")).unwrap();
    let jsonl = dir.join("games.jsonl");
    let kif = dir.join("games.kif");
    let script = env!("CARGO_BIN_EXE_usi-script-engine");
    let a = format!("name=A,cmd={script},arg={sente_script}");
    let b = format!("name=B,cmd={script},arg={gote_script}");
    // One game: A is Sente in game 1 (the pair's second game is not played with --games 1).
    let (openings, jsonl_path, kif_path) = (
        openings.display().to_string(),
        jsonl.display().to_string(),
        kif.display().to_string(),
    );
    let mut args = vec![
        "--engine",
        &a,
        "--engine",
        &b,
        "--games",
        "1",
        "--tolerance",
        "150",
        "--openings",
        &openings,
        "--jsonl",
        &jsonl_path,
        "--kif",
        &kif_path,
    ];
    args.extend_from_slice(extra);
    let stdout = run_arena(&args);
    let out = Outcome {
        stdout,
        jsonl: std::fs::read_to_string(&jsonl).unwrap(),
    };
    let kif_text = std::fs::read_to_string(&kif).unwrap();
    assert!(kif_text.contains("手合割：５五将棋"));
    let _ = std::fs::remove_dir_all(&dir);
    out
}

fn rand_suffix() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::SeqCst)
}

/// The first game's result, winner and reason from the JSON lines.
fn first_game(o: &Outcome) -> (String, String, String) {
    let line = o
        .jsonl
        .lines()
        .find(|l| !l.starts_with("{\"header\""))
        .expect("a game");
    let field = |key: &str| -> String {
        let start = line.find(&format!("\"{key}\":")).unwrap() + key.len() + 3;
        let rest = &line[start..];
        if let Some(stripped) = rest.strip_prefix('"') {
            stripped[..stripped.find('"').unwrap()].to_string()
        } else {
            rest[..rest.find([',', '}']).unwrap()].to_string()
        }
    };
    (field("result"), field("winner"), field("reason"))
}

/// The first game ends with `result`, for a reason that starts with `reason` (the
/// repetition rules add who loses under them).
fn check(sente: &str, gote: &str, opening: &str, extra: &[&str], result: &str, reason: &str) {
    let o = arena(sente, gote, opening, extra);
    let (r, _, why) = first_game(&o);
    assert!(
        r == result && why.starts_with(reason),
        "{result} by {reason}?\n{}\n{}",
        o.jsonl,
        o.stdout
    );
}

#[test]
fn mate() {
    check(
        "G*5b",
        "",
        "sfen k4/2S2/1G3/5/4K b G 1",
        &["--tc", "movetime=100"],
        "1-0",
        "checkmate",
    );
}

#[test]
fn no_legal_moves() {
    check(
        "4d4c",
        "",
        "sfen k4/2S2/5/1G3/4K b - 1",
        &["--tc", "movetime=100"],
        "1-0",
        "no legal moves",
    );
}

#[test]
fn fourfold_repetition_standard_gote_wins() {
    check(
        "1e1d 1d1e 1e1d 1d1e 1e1d 1d1e 1e1d",
        "5a5b 5b5a 5a5b 5b5a 5a5b 5b5a",
        "startpos",
        &["--tc", "movetime=100"],
        "0-1",
        "fourfold repetition",
    );
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    check(
        "3c3a 3a3b 3b3a 3a3b 3b3a 3a3b 3b3a",
        "1a1b 1b1a 1a1b 1b1a 1a1b 1b1a",
        "sfen 4k/5/2R2/5/K4 b - 1",
        &["--tc", "movetime=100"],
        "0-1",
        "perpetual check",
    );
    check(
        "5e5d 5d5e 5e5d 5d5e 5e5d 5d5e",
        "3c3e 3e3d 3d3e 3e3d 3d3e 3e3d 3d3e",
        "sfen 4k/5/2r2/5/K4 w - 1",
        &["--tc", "movetime=100"],
        "1-0",
        "perpetual check",
    );
}

#[test]
fn fourfold_repetition_kawu_is_a_draw() {
    check(
        "5e5d 5d5e 5e5d 5d5e 5e5d 5d5e",
        "1a1b 1b1a 1a1b 1b1a 1a1b 1b1a",
        "sfen rbsgk/p4/5/4P/KGSBR b - 1",
        &["--tc", "movetime=100", "--rules", "kawu"],
        "1/2-1/2",
        "fourfold repetition",
    );
}

#[test]
fn ply_limit() {
    check(
        "1e1d 1d1c 1c1d",
        "5a5b 5b5c 1b1c",
        "startpos",
        &["--tc", "movetime=100", "--max-plies", "6"],
        "1/2-1/2",
        "ply limit",
    );
}

#[test]
fn illegal_move_loses() {
    check(
        "5d5b",
        "",
        "startpos",
        &["--tc", "movetime=100"],
        "0-1",
        "illegal move 5d5b",
    );
}

#[test]
fn malformed_bestmove_loses() {
    check(
        "5d5c",
        "!garbage",
        "startpos",
        &["--tc", "movetime=100"],
        "1-0",
        "malformed line 'bestmove banana'",
    );
}

#[test]
fn resignation() {
    check(
        "5d5c !resign",
        "1b1c",
        "startpos",
        &["--tc", "movetime=100"],
        "0-1",
        "resignation",
    );
}

#[test]
fn time_forfeit() {
    check(
        "!sleep=600:5d5c",
        "",
        "startpos",
        &["--tc", "movetime=100"],
        "0-1",
        "time forfeit",
    );
    // Byoyomi: 100 ms per move plus 150 ms tolerance; 500 ms is too slow.
    check(
        "5d5c !sleep=500:1e1d",
        "1b1c 5a5b",
        "startpos",
        &["--tc", "byoyomi=100"],
        "0-1",
        "time forfeit",
    );
    // Fischer: 300 ms + 0 runs out over two slow moves.
    check(
        "!sleep=200:5d5c !sleep=300:1e1d",
        "1b1c 5a5b",
        "startpos",
        &["--tc", "fischer=300+0"],
        "0-1",
        "time forfeit",
    );
}

#[test]
fn crash_loses() {
    check(
        "5d5c",
        "!crash",
        "startpos",
        &["--tc", "movetime=100"],
        "1-0",
        "the engine process ended",
    );
}

#[test]
fn an_engine_that_never_answers_loses_on_time() {
    check(
        "!hang",
        "",
        "startpos",
        &["--tc", "movetime=100"],
        "0-1",
        "time forfeit",
    );
}

#[test]
fn results_do_not_depend_on_concurrency() {
    // gogo at a fixed depth is deterministic: usinewgame clears its table and histories.
    let gogo = env!("CARGO_BIN_EXE_gogo-arena").replace("gogo-arena", "gogo");
    let dir = std::env::temp_dir().join(format!("gogo-arena-conc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let openings = dir.join("o.txt");
    std::fs::write(
        &openings,
        "startpos\nsfen k4/2S2/1G3/5/4K b G 1\nstartpos moves 5d5c\n",
    )
    .unwrap();
    let mut outputs = Vec::new();
    for concurrency in ["1", "3"] {
        let jsonl = dir.join(format!("g{concurrency}.jsonl"));
        let status = Command::new(env!("CARGO_BIN_EXE_gogo-arena"))
            .args(["--engine", &format!("name=A,cmd={gogo}")])
            .args(["--engine", &format!("name=B,cmd={gogo}")])
            .args([
                "--games",
                "6",
                "--tc",
                "depth=2",
                "--max-plies",
                "40",
                "--concurrency",
                concurrency,
            ])
            .arg("--openings")
            .arg(&openings)
            .arg("--jsonl")
            .arg(&jsonl)
            .output()
            .unwrap();
        assert!(status.status.success());
        let text = std::fs::read_to_string(&jsonl).unwrap();
        // Drop the timings, which vary; the run's header is the same whatever the
        // concurrency (it is not part of the run).
        let stable: Vec<String> = text
            .lines()
            .map(|l| match l.find(",\"time_ms\"") {
                Some(at) => l[..at].to_string(),
                None => l.to_string(),
            })
            .collect();
        // Likewise the summary's move times.
        let summary: String = String::from_utf8_lossy(&status.stdout)
            .lines()
            .filter(|l| !l.starts_with("Time a move of "))
            .map(|l| format!("{l}\n"))
            .collect();
        outputs.push((stable, summary));
    }
    assert_eq!(outputs[0].0.len(), 7);
    assert!(outputs[0].0[0].starts_with("{\"header\""));
    assert_eq!(outputs[0], outputs[1]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_short_real_match_between_two_gogo_engines() {
    let gogo = gogo();
    let stdout = run_arena(&[
        "--engine",
        &format!("name=gogo1,cmd={gogo}"),
        "--engine",
        &format!("name=gogo2,cmd={gogo}"),
        "--games",
        "2",
        "--tc",
        "depth=3",
        "--max-plies",
        "60",
        "--concurrency",
        "2",
    ]);
    assert!(stdout.contains("Score of gogo1 vs gogo2:"), "{stdout}");
    assert_no_faults(&stdout, &["gogo1", "gogo2"]);
    assert!(stdout.contains("Endings: "), "{stdout}");
}

#[test]
fn an_engine_given_usi_ponder_ponders_and_answers_stop() {
    // gogo with USI_Ponder ponders on its expected reply; the arena sends ponderhit when the
    // opponent plays it and stop when not, and counts both.
    let gogo = env!("CARGO_BIN_EXE_gogo-arena").replace("gogo-arena", "gogo");
    let output = Command::new(env!("CARGO_BIN_EXE_gogo-arena"))
        .args([
            "--engine",
            &format!("name=ponderer,cmd={gogo},option.USI_Ponder=true"),
            "--engine",
            &format!("name=plain,cmd={gogo}"),
        ])
        .args(["--games", "2", "--tc", "byoyomi=40", "--max-plies", "40"])
        .args(["--tolerance", "300"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    let line = stdout
        .lines()
        .find(|l| l.starts_with("Pondering of ponderer: "))
        .unwrap_or_else(|| panic!("{stdout}"));
    let numbers: Vec<u64> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    let (hits, misses, stop_ms) = (numbers[0], numbers[1], numbers[2]);
    // Every game gives the ponderer a few replies to guess.
    assert!(hits + misses >= 4, "{line}");
    assert!(stop_ms < 1000, "{line}");
    assert!(!stdout.contains("Pondering of plain"), "{stdout}");
    for name in ["ponderer", "plain"] {
        let clean = format!(
            "Faults of {name}: 0 time forfeits, 0 illegal moves, 0 malformed lines, 0 crashes"
        );
        assert!(stdout.contains(&clean), "{stdout}");
    }
}

/// Script-engine processes whose arguments hold `marker`, still running or unreaped.
fn processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if cmdline.contains("usi-script-engine") && cmdline.contains(marker) {
            found.push(format!(
                "{}: {cmdline}",
                entry.file_name().to_string_lossy()
            ));
        }
    }
    found
}

/// Engines that misbehave by volume lose within the move's deadline, and leave no process
/// behind: one that floods `info` lines (the deadline was only checked when no line came),
/// one that prints an endless line, one that stops reading its input, and one that ends in
/// the middle of its `bestmove` line.
#[test]
fn engines_that_misbehave_by_volume_lose_in_time() {
    for (word, reason) in [
        ("!flood", "time forfeit"),
        (
            "!endless",
            "malformed line 'a line longer than 1048576 bytes'",
        ),
        ("!deaf", "time forfeit"),
        ("!midline", "malformed line 'bestmove 5d'"),
    ] {
        let marker = format!("marker-{}-{}", std::process::id(), rand_suffix());
        let started = std::time::Instant::now();
        let o = arena(
            &format!("{word} {marker}"),
            "",
            "startpos",
            &["--tc", "movetime=200"],
        );
        let (result, _, why) = first_game(&o);
        assert_eq!((result.as_str(), why.as_str()), ("0-1", reason), "{word}");
        // 200 ms a move and 150 ms of tolerance, plus the engines' start and end (and room
        // for a loaded machine: an unchecked deadline took 30 s or for ever).
        assert!(
            started.elapsed() < std::time::Duration::from_secs(15),
            "{word}: {:?}",
            started.elapsed()
        );
        assert_eq!(processes_with(&marker), Vec::<String>::new(), "{word}");
    }
}

/// `info` lines with `multipv 0`, a huge `multipv` and extreme scores are only lines: the
/// game goes on and the move after them counts.
#[test]
fn odd_info_lines_do_not_end_the_game() {
    check(
        "!badinfo:G*5b",
        "",
        "sfen k4/2S2/1G3/5/4K b G 1",
        &["--tc", "movetime=100"],
        "1-0",
        "checkmate",
    );
}
