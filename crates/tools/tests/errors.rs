//! The tools' failures are typed: each says which file and why, and is matched on, not
//! read as words.

use gogo_book::{BookError, LineProblem};
use gogo_puzzle::ParsePuzzleError;
use gogo_tools::book_builder::{merge, BookToolError};
use gogo_tools::puzzles::run::{run_check, CheckRun, PuzzleToolError};
use gogo_usi::book_file::BookFileError;

/// An empty folder of this test run's own.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("gogo-{name}-errors-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn merge_says_what_failed() {
    let dir = scratch("book");
    let out = dir.join("out.db");
    assert!(matches!(merge(&[], &out), Err(BookToolError::NoBooks)));
    let broken = dir.join("broken.db");
    std::fs::write(
        &broken,
        format!(
            "{}\nsfen rbsgk/4p/5/P4/KGSBR b - 1\n2e3d none x 0 1\n",
            gogo_book::HEADER
        ),
    )
    .unwrap();
    let error = merge(std::slice::from_ref(&broken), &out).unwrap_err();
    assert!(
        matches!(
            &error,
            BookToolError::BookFile(BookFileError::Book {
                error: BookError::Line {
                    line: 3,
                    problem: LineProblem::NotANumber(_)
                },
                ..
            })
        ),
        "{error:?}"
    );
    assert!(
        error.to_string().contains("broken.db: book line 3"),
        "{error}"
    );
    let missing = dir.join("missing.db");
    assert!(matches!(
        merge(&[missing], &out),
        Err(BookToolError::BookFile(BookFileError::File(_)))
    ));
    assert!(!out.exists(), "nothing is written when a book fails");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn puzzles_check_says_what_failed() {
    let dir = scratch("puzzle");
    let file = dir.join("p.tsv");
    std::fs::write(&file, "# puzzles\nnot a puzzle\n").unwrap();
    let run = |file: &std::path::Path, threads: usize| CheckRun {
        file: file.to_path_buf(),
        nodes: 1_000,
        every: 1,
        threads,
        passing: None,
    };
    let error = run_check(&run(&file, 1), &|_, _| {}).unwrap_err();
    assert!(
        matches!(
            &error,
            PuzzleToolError::Puzzles {
                line: 2,
                error: ParsePuzzleError::Fields(1),
                ..
            }
        ),
        "{error:?}"
    );
    assert!(
        error.to_string().contains("p.tsv line 2: 1 fields"),
        "{error}"
    );
    let error = run_check(&run(&dir.join("none.tsv"), 1), &|_, _| {}).unwrap_err();
    assert!(matches!(error, PuzzleToolError::File(_)), "{error:?}");
    std::fs::write(&file, "").unwrap();
    let error = run_check(&run(&file, 100_000), &|_, _| {}).unwrap_err();
    assert!(matches!(error, PuzzleToolError::Threads(_)), "{error:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
