//! A higher strength level beats a lower one, in a short match through the real arena.

use std::process::Command;

#[test]
fn a_higher_level_beats_a_lower_one() {
    let gogo = env!("CARGO_BIN_EXE_gogo-arena").replace("gogo-arena", "gogo");
    assert!(
        std::path::Path::new(&gogo).exists(),
        "{gogo} not built: run `cargo test --workspace`"
    );
    let openings = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/openings.txt");
    // Each level's own node limit applies (the arena's is far above them).
    let output = Command::new(env!("CARGO_BIN_EXE_gogo-arena"))
        .args([
            "--engine",
            &format!("name=level7,cmd={gogo},option.Level=7"),
            "--engine",
            &format!("name=level2,cmd={gogo},option.Level=2"),
            "--games",
            "16",
            "--tc",
            "nodes=1000000",
            "--openings",
            openings,
            "--concurrency",
            "2",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // "Score of level7 vs level2: W - L - D [ratio] N"
    let line = stdout
        .lines()
        .find(|l| l.starts_with("Score of level7 vs level2:"))
        .unwrap_or_else(|| panic!("{stdout}"));
    let numbers: Vec<f64> = line["Score of level7 vs level2:".len()..]
        .split(|c: char| !c.is_ascii_digit() && c != '.')
        .filter_map(|w| w.parse().ok())
        .collect();
    let (wins, losses, draws) = (numbers[0], numbers[1], numbers[2]);
    let score = (wins + draws / 2.0) / (wins + losses + draws);
    assert!(score >= 0.75, "{line}");
    for name in ["level7", "level2"] {
        let clean = format!(
            "Faults of {name}: 0 time forfeits, 0 illegal moves, 0 malformed lines, 0 crashes"
        );
        assert!(stdout.contains(&clean), "{stdout}");
    }
}
