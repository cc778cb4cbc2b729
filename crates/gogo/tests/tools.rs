//! Issue 54 (hardening III) through the real `gogo` binary: the tools never write over what
//! they could not read, never take one of their inputs for their output, read only regular
//! files within a limit (a device or a FIFO is refused at once), keep thread counts to the
//! machine, and `book openings` ends at any depth.

mod common;

use common::{gogo, scratch};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn refused(out: &Output, says: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "exit 0; stderr: {stderr}");
    assert_ne!(out.status.code(), Some(101), "a panic: {stderr}");
    assert!(stderr.contains(says), "'{says}' not in: {stderr}");
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success());
}

const SECONDS: Duration = Duration::from_secs(30);
const BOOK: &str = "#YANEURAOU-DB2016 1.00\nsfen rbsgk/4p/5/P4/KGSBR b - 1\n1e1d none 50 20 1\n";

/// Games for the book builder: one arena line.
fn games_file(dir: &Path) -> PathBuf {
    let games = dir.join("g.jsonl");
    std::fs::write(
        &games,
        r#"{"game":1,"start":"rbsgk/4p/5/P4/KGSBR b - 1","moves":["1e1d","5a5b"],"result":"1-0"}"#,
    )
    .unwrap();
    games
}

#[test]
fn book_build_never_replaces_what_it_cannot_read() {
    let dir = scratch("build");
    let games = games_file(&dir);
    let g = games.to_str().unwrap();
    let build = |out: &Path| {
        gogo(
            &[
                "book",
                "build",
                "--games",
                g,
                "--positions",
                "0",
                "--out",
                out.to_str().unwrap(),
            ],
            SECONDS,
        )
    };
    // A book that is not UTF-8: refused, kept byte for byte.
    let junk = dir.join("junk.db");
    let bytes = b"#YANEURAOU-DB2016 1.00\n\xff\xfe\n".to_vec();
    std::fs::write(&junk, &bytes).unwrap();
    refused(&build(&junk), "not written over");
    assert_eq!(std::fs::read(&junk).unwrap(), bytes);
    // A file of another kind: refused, kept.
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "my notes\n").unwrap();
    refused(&build(&notes), "not written over");
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");
    // A FIFO, a directory, a link to a device: refused, and still what they were.
    let fifo = dir.join("pipe");
    mkfifo(&fifo);
    refused(&build(&fifo), "FIFO");
    refused(&build(&dir), "a directory");
    let null = dir.join("null.db");
    std::os::unix::fs::symlink("/dev/null", &null).unwrap();
    refused(&build(&null), "character device");
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    // A file named as the old temporary was is left alone; a new book is made and then
    // gone on from.
    let out = dir.join("book.db");
    let beside = dir.join("book.tmp");
    std::fs::write(&beside, "keep").unwrap();
    let made = build(&out);
    assert!(made.status.success(), "{made:?}");
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .starts_with("#YANEURAOU"));
    assert_eq!(std::fs::read_to_string(&beside).unwrap(), "keep");
    assert!(build(&out).status.success());
    // Its games cannot be its output.
    refused(&build(&games), "also an input");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn book_merge_and_learn_want_inputs_and_read_only_files() {
    let dir = scratch("merge");
    let book = dir.join("a.db");
    std::fs::write(&book, BOOK).unwrap();
    let out = dir.join("out.db");
    let o = out.to_str().unwrap();
    // No books: an error, and no empty book left.
    refused(&gogo(&["book", "merge", "--out", o], SECONDS), "required");
    assert!(!out.exists());
    // The output may not be an input.
    let b = book.to_str().unwrap();
    refused(
        &gogo(&["book", "merge", b, "--out", b], SECONDS),
        "also an input",
    );
    assert_eq!(std::fs::read_to_string(&book).unwrap(), BOOK);
    // /dev/zero behind a link, and a FIFO: refused at once.
    let zero = dir.join("zero.db");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let fifo = dir.join("pipe.db");
    mkfifo(&fifo);
    for bad in [&zero, &fifo] {
        let began = Instant::now();
        let merged = gogo(
            &["book", "merge", bad.to_str().unwrap(), "--out", o],
            SECONDS,
        );
        refused(&merged, "not a regular file");
        assert!(began.elapsed() < Duration::from_secs(10));
    }
    let games = dir.join("zero.jsonl");
    std::os::unix::fs::symlink("/dev/zero", &games).unwrap();
    refused(
        &gogo(
            &[
                "book",
                "learn",
                games.to_str().unwrap(),
                "--book",
                b,
                "--out",
                o,
            ],
            SECONDS,
        ),
        "character device",
    );
    assert!(!out.exists());
    // The merge itself still works.
    let merged = gogo(&["book", "merge", b, "--out", o], SECONDS);
    assert!(merged.status.success(), "{merged:?}");
    assert!(std::fs::read_to_string(&out).unwrap().contains("1e1d"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn book_openings_ends_at_any_depth() {
    // The built-in book 40 plies deep: every path was walked before (did not end in 30 s).
    let deep = gogo(&["book", "openings", "--plies", "40"], SECONDS);
    assert!(deep.status.success(), "{deep:?}");
    // A book that cycles back to the start, 100,000 plies deep: it overflowed the stack.
    let dir = scratch("openings");
    let cycle = dir.join("cycle.db");
    std::fs::write(
        &cycle,
        "#YANEURAOU-DB2016 1.00\n\
         sfen rbsgk/4p/5/P4/KGSBR b - 1\n1e1d none 0 5 1\n\
         sfen rbsgk/4p/5/P3R/KGSB1 w - 2\n5a5b none 0 5 1\n\
         sfen 1bsgk/r3p/5/P3R/KGSB1 b - 3\n1d1e none 0 5 1\n\
         sfen 1bsgk/r3p/5/P4/KGSBR w - 4\n5b5a none 0 5 1\n",
    )
    .unwrap();
    let c = cycle.to_str().unwrap();
    let cycled = gogo(
        &[
            "book", "openings", "--book", c, "--plies", "100000", "--max-cp", "100",
        ],
        SECONDS,
    );
    assert!(cycled.status.success(), "{cycled:?}");
    let text = String::from_utf8_lossy(&cycled.stdout);
    let line = text.lines().find(|l| l.starts_with("startpos")).unwrap();
    assert_eq!(
        line.split_whitespace().count(),
        2 + 100_000 + 2,
        "{}",
        &line[..80]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A puzzle file of the shipped set's first `n` puzzles.
fn puzzle_file(dir: &Path, n: usize) -> PathBuf {
    let set = include_str!("../../puzzle/data/puzzles.tsv");
    let text: String = set.lines().take(n + 1).map(|l| format!("{l}\n")).collect();
    let path = dir.join("p.tsv");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn puzzle_tools_keep_their_files_and_threads_to_the_machine() {
    let dir = scratch("puzzles");
    let file = puzzle_file(&dir, 3);
    let f = file.to_str().unwrap();
    let before = std::fs::read_to_string(&file).unwrap();
    // Its own input as --passing: refused before any search, the file whole.
    refused(
        &gogo(
            &["puzzles", "check", f, "--nodes", "1000", "--passing", f],
            SECONDS,
        ),
        "also an input",
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
    // More threads than the machine: a clear error, not a panic.
    refused(
        &gogo(
            &[
                "puzzles",
                "check",
                f,
                "--nodes",
                "1000",
                "--threads",
                "100000",
            ],
            SECONDS,
        ),
        "this machine's cores",
    );
    // /dev/zero and a FIFO are refused at once.
    let fifo = dir.join("pipe.tsv");
    mkfifo(&fifo);
    for bad in [Path::new("/dev/zero"), &fifo] {
        refused(
            &gogo(&["puzzles", "check", bad.to_str().unwrap()], SECONDS),
            "not a regular file",
        );
    }
    // generate --out on a file that does not read: refused, kept byte for byte.
    let junk = dir.join("junk.tsv");
    let bytes = b"\xff\xfe not puzzles\n".to_vec();
    std::fs::write(&junk, &bytes).unwrap();
    let games = games_file(&dir);
    refused(
        &gogo(
            &[
                "puzzles",
                "generate",
                "--games",
                games.to_str().unwrap(),
                "--out",
                junk.to_str().unwrap(),
            ],
            SECONDS,
        ),
        "not written over",
    );
    assert_eq!(std::fs::read(&junk).unwrap(), bytes);
    // A check that passes writes its passing set elsewhere.
    let passing = dir.join("passing.tsv");
    let checked = gogo(
        &[
            "puzzles",
            "check",
            f,
            "--nodes",
            "20000",
            "--passing",
            passing.to_str().unwrap(),
        ],
        Duration::from_secs(120),
    );
    assert_ne!(checked.status.code(), Some(2), "{checked:?}");
    assert!(std::fs::read_to_string(&passing)
        .unwrap()
        .starts_with("# gogo puzzles"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn datagen_keeps_to_the_machine_and_to_data_files() {
    let dir = scratch("datagen");
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "keep me\n").unwrap();
    let n = notes.to_str().unwrap();
    refused(
        &gogo(
            &["datagen", "--games", "1", "--nodes", "100", "--out", n],
            SECONDS,
        ),
        "not written over",
    );
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "keep me\n");
    let out = dir.join("d.bin");
    refused(
        &gogo(
            &[
                "datagen",
                "--threads",
                "100000",
                "--out",
                out.to_str().unwrap(),
            ],
            SECONDS,
        ),
        "this machine's cores",
    );
    assert!(!out.exists());
    // A file of starts that does not read is refused with its line, and nothing is written;
    // a directory is not a file of starts.
    let starts = dir.join("starts.txt");
    std::fs::write(
        &starts,
        "rbsgk/4p/5/P4/KGSBR b - 1\nrbsgk/4p/5/P4/KGSBR x - 1\n",
    )
    .unwrap();
    // A file past the limit on starts (64 MiB; sparse here) is refused before it is read.
    let huge = dir.join("huge.txt");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len((64 << 20) + 1)
        .unwrap();
    for (path, says) in [
        (&starts, "line 2"),
        (&dir, "not a regular file"),
        (&huge, "a file of starts"),
    ] {
        let args = ["datagen", "--games", "1", "--nodes", "100", "--starts"];
        let out_arg = ["--out", out.to_str().unwrap()];
        let mut all: Vec<&str> = args.to_vec();
        all.push(path.to_str().unwrap());
        all.extend(out_arg);
        refused(&gogo(&all, SECONDS), says);
        assert!(!out.exists());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
