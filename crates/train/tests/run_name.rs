//! `gogo-train --run-name`: the one reader of run names that scripts/data.sh calls.

use std::process::Command;

fn run_name(name: &str) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gogo-train"))
        .args(["--run-name", name])
        .output()
        .expect("gogo-train runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_run_name_prints_its_fields() {
    let (ok, out, _) = run_name("../shared/data/gen4-s5101-n5000-g40000-7898c05.bin");
    assert!(ok);
    assert_eq!(out, "gen4 5101 5000 40000 7898c05 -\n");
}

#[test]
fn a_name_that_is_not_a_run_fails_saying_why_and_prints_nothing() {
    let (ok, out, err) = run_name("gen4-s5101-n5000-7898c05.bin");
    assert!(!ok);
    assert_eq!(out, "");
    assert!(err.contains("has not five or six parts"), "{err}");
    let (ok, _, err) = run_name("gen4-s5101-n5000-g40000-XYZ1234.bin");
    assert!(!ok);
    assert!(err.contains("revision"), "{err}");
}
