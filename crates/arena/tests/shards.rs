//! A match spread over shards: four shards, merged, give the same games, counts and pairs
//! as the whole match played at once.

mod common;

use common::{gogo, run_arena, scratch};
use std::collections::BTreeMap;

/// Each game's index and moves, from JSON lines.
fn games(jsonl: &str) -> BTreeMap<u64, String> {
    jsonl
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        // The run's header is not a game.
        .filter(|v| v.get("header").is_none())
        .map(|v| (v["game"].as_u64().unwrap(), v["moves"].to_string()))
        .collect()
}

/// The lines of a summary that state the standing.
fn standing(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| {
            l.starts_with("Score of") || l.starts_with("Pentanomial") || l.starts_with("Endings")
        })
        .collect()
}

#[test]
fn four_shards_merged_are_the_whole_match() {
    let dir = scratch("gogo-shards");
    let openings = dir.join("openings.txt");
    let lines: Vec<&str> = include_str!("../../../scripts/openings.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(4)
        .collect();
    std::fs::write(&openings, lines.join("\n")).unwrap();
    // Fixed depth: every game is the same wherever it is played (usinewgame clears the
    // engine's table and histories).
    let gogo = gogo();
    let a = format!("name=A,cmd={gogo}");
    let b = format!("name=B,cmd={gogo},option.UseNNUE=false");
    let run = |shard: &str, out: &std::path::Path| {
        run_arena(&[
            "--engine",
            &a,
            "--engine",
            &b,
            "--tc",
            "depth=3",
            "--games",
            "8",
            "--openings",
            openings.to_str().unwrap(),
            "--shard",
            shard,
            "--jsonl",
            out.to_str().unwrap(),
        ])
    };
    let whole = run("1/1", &dir.join("whole.jsonl"));
    let mut shard_files = Vec::new();
    for i in 1..=4 {
        let path = dir.join(format!("shard{i}.jsonl"));
        run(&format!("{i}/4"), &path);
        let played = games(&std::fs::read_to_string(&path).unwrap());
        assert_eq!(played.len(), 2, "shard {i}: one pair");
        shard_files.push(path);
    }
    let merged = std::process::Command::new(env!("CARGO_BIN_EXE_gogo-arena"))
        .arg("merge")
        .args(&shard_files)
        .output()
        .unwrap();
    assert!(
        merged.status.success(),
        "{}",
        String::from_utf8_lossy(&merged.stderr)
    );
    let merged = String::from_utf8_lossy(&merged.stdout).into_owned();
    assert_eq!(standing(&merged), standing(&whole), "{merged}\n{whole}");
    assert_eq!(standing(&whole).len(), 3);
    let mut union = BTreeMap::new();
    for path in &shard_files {
        union.extend(games(&std::fs::read_to_string(path).unwrap()));
    }
    assert_eq!(
        union,
        games(&std::fs::read_to_string(dir.join("whole.jsonl")).unwrap())
    );

    // A shard stopped after its first game, its last line cut mid-write, run again with its
    // file: the game it had is kept (marked here to tell it from a replay), the rest played,
    // and the shards merge into the whole match again.
    let resumed = &shard_files[1];
    let text = std::fs::read_to_string(resumed).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // A replay could not write this move time.
    let marked = lines[1].replace("\"time_ms\":[", "\"time_ms\":[987654,");
    assert_ne!(marked, lines[1]);
    let cut = format!(
        "{}\n{}\n{}",
        lines[0],
        marked,
        &lines[2][..lines[2].len() / 2]
    );
    std::fs::write(resumed, &cut).unwrap();
    let again = run("2/4", resumed);
    assert!(again.contains("Score of"), "{again}");
    let after = std::fs::read_to_string(resumed).unwrap();
    assert_eq!(
        after.lines().nth(1),
        Some(marked.as_str()),
        "the kept game is the same line"
    );
    assert_eq!(games(&after).len(), 2);
    let merged = std::process::Command::new(env!("CARGO_BIN_EXE_gogo-arena"))
        .arg("merge")
        .args(&shard_files)
        .output()
        .unwrap();
    assert!(merged.status.success());
    assert_eq!(
        standing(&String::from_utf8_lossy(&merged.stdout)),
        standing(&whole)
    );
    // Another run's file is not written over.
    let other = std::process::Command::new(env!("CARGO_BIN_EXE_gogo-arena"))
        .args([
            "--engine", &a, "--engine", &b, "--tc", "depth=2", "--games", "8",
        ])
        .args(["--shard", "2/4", "--jsonl", resumed.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(other.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&other.stderr).contains("another run"));
    assert_eq!(std::fs::read_to_string(resumed).unwrap(), after);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_stopped_shard_keeps_the_games_it_played() {
    let dir = scratch("gogo-stopped");
    let out = dir.join("stopped.jsonl");
    let gogo = gogo();
    let a = format!("name=A,cmd={gogo}");
    let b = format!("name=B,cmd={gogo},option.UseNNUE=false");
    let mut arena = std::process::Command::new(env!("CARGO_BIN_EXE_gogo-arena"))
        .args(["--engine", &a, "--engine", &b, "--tc", "depth=2"])
        .args(["--games", "400", "--jsonl", out.to_str().unwrap()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait for three finished games, then stop the run as a scheduler would.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let written = loop {
        let text = std::fs::read_to_string(&out).unwrap_or_default();
        // The run's header, then three games.
        if text.lines().count() >= 4 || std::time::Instant::now() > deadline {
            break text;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    arena.kill().unwrap();
    arena.wait().unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with(&written), "lines were rewritten");
    let played = games(&text);
    assert!(played.len() >= 3, "{text}");
    assert!(played.len() < 400, "the run was not stopped");
    // Merged as it is, the stopped run is not whole: exit status 3, the missing games said.
    let refused = std::process::Command::new(env!("CARGO_BIN_EXE_gogo-arena"))
        .arg("merge")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(3), "{refused:?}");
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("games missing") && said.contains("--partial"),
        "{said}"
    );
    // With --partial it is a match `merge` can read, with every game it holds.
    let merged = std::process::Command::new(env!("CARGO_BIN_EXE_gogo-arena"))
        .args(["merge", "--partial"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(merged.status.success(), "{merged:?}");
    let merged = String::from_utf8_lossy(&merged.stdout).into_owned();
    let score = merged
        .lines()
        .find(|l| l.starts_with("Score of"))
        .unwrap_or_default();
    assert!(score.ends_with(&format!("] {}", played.len())), "{merged}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A sharded SPRT can stop: `merge --sprt` exits 10 when H1 is accepted and 11 when H0 is,
/// whatever is missing, so that a driver can cancel the array; undecided and incomplete is 3.
#[test]
fn a_merged_sprt_says_its_verdict_in_the_exit_status() {
    let dir = scratch("gogo-sprt-merge");
    let header = gogo_arena::shard::RunHeader::new("test".into(), 2000, "1/1".parse().unwrap());
    let file = |name: &str, pairs: usize, a_wins: bool| {
        let mut text = header.json_line() + "\n";
        for p in 0..pairs {
            for g in [2 * p + 1, 2 * p + 2] {
                let (s, w) = if g % 2 == 1 { ("A", "B") } else { ("B", "A") };
                // Every fourth pair split (one win each), the others won by one side.
                let winner_a = if p % 4 == 0 { g % 2 == 1 } else { a_wins };
                let sente_wins = (s == "A") == winner_a;
                let result = if sente_wins { "1-0" } else { "0-1" };
                text += &format!(
                    "{{\"game\":{g},\"sente\":\"{s}\",\"gote\":\"{w}\",\"result\":\"{result}\",\"reason\":\"checkmate\",\"moves\":[]}}\n"
                );
            }
        }
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let status = |path: &std::path::Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_gogo-arena"))
            .args(["merge", "--sprt", "elo0=0 elo1=10"])
            .arg(path)
            .output()
            .unwrap()
            .status
            .code()
    };
    assert_eq!(status(&file("h1.jsonl", 300, true)), Some(10));
    assert_eq!(status(&file("h0.jsonl", 300, false)), Some(11));
    assert_eq!(status(&file("open.jsonl", 2, true)), Some(3));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The run's size limit, through the real binary: one game more than a run may hold is
/// refused before any engine starts (a header of such a run could not be merged).
#[test]
fn a_run_past_the_games_limit_is_refused() {
    let limit = gogo_arena::shard::MAX_RUN_GAMES;
    let out = arena_without_engines()
        .args(["--tc", "depth=1", "--games", &(limit + 1).to_string()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains(&format!("at most {limit}")));
}

/// Issue 54, through the real binary: `merge` scores only the games of the run its header
/// names (a header for 2 games followed by 200 game lines, a game numbered 2^64-1, a second
/// header are refused with their line), reads only regular files (/dev/zero and a FIFO are
/// refused at once, not read for ever), and wants at least one file.
#[test]
fn merge_refuses_what_is_outside_its_run() {
    let dir = scratch("gogo-merge-bounds");
    let header = gogo_arena::shard::RunHeader::new("test".into(), 2, "1/1".parse().unwrap());
    let game = |g: u64| {
        let (s, w) = if g % 2 == 1 { ("A", "B") } else { ("B", "A") };
        format!(
            "{{\"game\":{g},\"sente\":\"{s}\",\"gote\":\"{w}\",\"result\":\"1-0\",\"reason\":\"checkmate\",\"moves\":[]}}\n"
        )
    };
    let file = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let merge = |paths: &[&std::path::Path]| {
        let started = std::time::Instant::now();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_gogo-arena"))
            .arg("merge")
            .args(paths)
            .output()
            .unwrap();
        assert!(started.elapsed() < std::time::Duration::from_secs(20));
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let head = header.json_line() + "\n";
    let whole = file("whole.jsonl", head.clone() + &game(1) + &game(2));
    assert!(merge(&[&whole]).0, "the run itself merges");
    let flood = file(
        "flood.jsonl",
        head.clone() + &(1..=200).map(game).collect::<String>(),
    );
    let (ok, said) = merge(&[&flood]);
    assert!(
        !ok && said.contains("line 4") && said.contains("outside"),
        "{said}"
    );
    let last = file("last.jsonl", head.clone() + &game(u64::MAX));
    let (ok, said) = merge(&[&last]);
    assert!(!ok && said.contains("line 2"), "{said}");
    let twice = file("twice.jsonl", head.clone() + &game(1) + &head + &game(2));
    let (ok, said) = merge(&[&twice]);
    assert!(
        !ok && said.contains("line 3") && said.contains("header"),
        "{said}"
    );
    let fifo = dir.join("pipe.jsonl");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let (ok, said) = merge(&[&whole, &fifo]);
    assert!(!ok && said.contains("FIFO"), "{said}");
    let (ok, said) = merge(&[std::path::Path::new("/dev/zero")]);
    assert!(!ok && said.contains("device"), "{said}");
    let (ok, said) = merge(&[]);
    assert!(!ok, "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 54, through the real binary: the match's record files are checked before any
/// engine starts: a KIF output that is not KIF, a device, or the openings file itself is
/// refused and left as it was.
#[test]
fn a_match_never_writes_its_records_over_what_they_are_not() {
    let dir = scratch("gogo-arena-outputs");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "startpos\n").unwrap();
    let essay = dir.join("essay.kif");
    std::fs::write(&essay, "my essay\n").unwrap();
    let arena = |record: &[&str]| {
        let out = arena_without_engines()
            .args(["--tc", "depth=1", "--games", "2", "--openings"])
            .arg(&openings)
            .args(record)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, said) = arena(&["--kif", essay.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("not a KIF file"), "{said}");
    assert_eq!(std::fs::read_to_string(&essay).unwrap(), "my essay\n");
    let (code, said) = arena(&["--kif", "/dev/null"]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("device"), "{said}");
    let (code, said) = arena(&["--jsonl", openings.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{said}");
    assert_eq!(std::fs::read_to_string(&openings).unwrap(), "startpos\n");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The arena binary with two engines that cannot start: for the checks made before any
/// engine runs.
fn arena_without_engines() -> std::process::Command {
    let mut arena = std::process::Command::new(env!("CARGO_BIN_EXE_gogo-arena"));
    arena.args([
        "--engine",
        "name=A,cmd=/nonexistent",
        "--engine",
        "name=B,cmd=/nonexistent",
    ]);
    arena
}

/// A run is identified by its engines' programs, read to checksum them: bounded and only a
/// regular file, so an engine named /dev/zero ends the run with an error (its engine cannot
/// start) rather than being read for ever.
#[test]
fn an_engine_program_that_is_not_a_file_is_not_read() {
    let dir = scratch("gogo-arena-program");
    let jsonl = dir.join("run.jsonl");
    let mut run = std::process::Command::new(env!("CARGO_BIN_EXE_gogo-arena"))
        .args(["--engine", "name=A,cmd=/dev/zero", "--engine"])
        .arg(format!(
            "name=B,cmd={}",
            env!("CARGO_BIN_EXE_usi-script-engine")
        ))
        .args(["--tc", "depth=1", "--games", "2", "--jsonl"])
        .arg(&jsonl)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let status = loop {
        if let Some(status) = run.try_wait().unwrap() {
            break Some(status);
        }
        if std::time::Instant::now() > deadline {
            let _ = run.kill();
            let _ = run.wait();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let status = status.expect("the run ends");
    let mut said = String::new();
    std::io::Read::read_to_string(&mut run.stderr.take().unwrap(), &mut said).unwrap();
    // Ended by the engine's failure to start, not by running out of memory.
    assert_eq!(status.code(), Some(1), "{status:?}: {said}");
    assert!(said.contains("A: cannot start '/dev/zero'"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}
