//! A higher strength level beats a lower one, in a short match through the real arena.

mod common;

use common::{assert_no_faults, gogo, run_arena};

#[test]
fn a_higher_level_beats_a_lower_one() {
    let gogo = gogo();
    let openings = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/openings.txt");
    // Each level's own node limit applies (the arena's is far above them).
    let stdout = run_arena(&[
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
    ]);
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
    assert_no_faults(&stdout, &["level7", "level2"]);
}
