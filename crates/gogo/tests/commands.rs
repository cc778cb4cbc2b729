//! The tools' commands print what they printed before the engine and the tools became crates
//! of their own (issue 56). The files in `tests/data/before/` were written by the `gogo`
//! binary of 4831a18 (the last build with the tools inside `gogo-usi`), with the commands
//! below; each test runs the same command on this build and compares byte for byte (the
//! seconds a run took are the only words left out). What depends on the built-in network
//! moves with it: at gen7's switch (2026-12-05) the datagen files were written again by that
//! build, and the puzzle check runs at its default nodes, where the three puzzles pass with
//! either network (at 20,000 nodes gen7 finds a second win in one of them).

mod common;

use common::scratch;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

fn before(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/before")
        .join(name)
}

fn read_before(name: &str) -> Vec<u8> {
    std::fs::read(before(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// `gogo ARGS`, which must succeed within a minute.
fn gogo(args: &[&str]) -> Output {
    let out = common::gogo(args, Duration::from_secs(60));
    assert!(
        out.status.success(),
        "gogo {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `gogo datagen --games 2 --nodes 300 --threads 1 --seed 7 --out F`: the same summary on
/// stdout and the same records in F.
#[test]
fn datagen_writes_the_same_games() {
    let dir = scratch("datagen");
    let data = dir.join("d.bin");
    let out = gogo(&[
        "datagen",
        "--games",
        "2",
        "--nodes",
        "300",
        "--threads",
        "1",
        "--seed",
        "7",
        "--out",
        data.to_str().unwrap(),
    ]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&read_before("datagen-seed7.out"))
    );
    assert!(std::fs::read(&data).unwrap() == read_before("datagen-seed7.bin"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `gogo puzzles check puzzles.tsv` (three puzzles of the shipped set, at the check's
/// default nodes): the same report, and the same `--passing` file (all three, under the
/// set's header).
#[test]
fn puzzles_check_reports_the_same() {
    let dir = scratch("puzzles");
    let passing = dir.join("passing.tsv");
    let out = gogo(&[
        "puzzles",
        "check",
        before("puzzles.tsv").to_str().unwrap(),
        "--passing",
        passing.to_str().unwrap(),
    ]);
    let without_seconds = |text: &[u8]| {
        let text = String::from_utf8_lossy(text).into_owned();
        match text.rfind(" in ") {
            Some(at) => text[..at].to_string(),
            None => text,
        }
    };
    assert_eq!(
        without_seconds(&out.stdout),
        without_seconds(&read_before("puzzles-check.out"))
    );
    assert_eq!(
        std::fs::read_to_string(&passing).unwrap(),
        String::from_utf8_lossy(&read_before("puzzles-passing.tsv"))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `gogo book show` (the built-in book at the start): the same table.
#[test]
fn book_show_prints_the_same_table() {
    let out = gogo(&["book", "show"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&read_before("book-show-startpos.out"))
    );
}
