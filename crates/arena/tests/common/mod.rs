//! What the arena's tests share.
#![allow(dead_code)]

/// The gogo binary of this build, beside gogo-arena (`cargo test --workspace` builds it).
pub fn gogo() -> String {
    let gogo = env!("CARGO_BIN_EXE_gogo-arena").replace("gogo-arena", "gogo");
    assert!(
        std::path::Path::new(&gogo).exists(),
        "{gogo} not built: run `cargo test --workspace`"
    );
    gogo
}

/// Runs gogo-arena with `args`; its stdout, after checking that it succeeded.
pub fn run_arena(args: &[&str]) -> String {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_gogo-arena"))
        .args(args)
        .output()
        .expect("gogo-arena runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Asserts that the summary reports no fault for any of `names`.
pub fn assert_no_faults(stdout: &str, names: &[&str]) {
    for name in names {
        let clean = format!(
            "Faults of {name}: 0 time forfeits, 0 illegal moves, 0 malformed lines, 0 crashes"
        );
        assert!(stdout.contains(&clean), "{stdout}");
    }
}

/// A new empty folder for one test, named for it and this process.
pub fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
