//! Time odds: an engine with its own `tc=` in its spec plays under that control, the other
//! under the match's.

mod common;

use common::{gogo, run_arena};

/// The median of the move times each engine took, by engine name, from JSON lines.
fn median_times(jsonl: &str) -> std::collections::BTreeMap<String, u64> {
    let mut times: std::collections::BTreeMap<String, Vec<u64>> = Default::default();
    for line in jsonl.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v.get("header").is_some() {
            continue;
        }
        let sente_first = v["start"].as_str().unwrap().split(' ').nth(1) == Some("b");
        let opening = v["opening_moves"].as_u64().unwrap() as usize;
        for (t, ms) in v["time_ms"].as_array().unwrap().iter().enumerate() {
            let sente_moves = (opening + t).is_multiple_of(2) == sente_first;
            let mover = v[if sente_moves { "sente" } else { "gote" }]
                .as_str()
                .unwrap();
            times
                .entry(mover.to_string())
                .or_default()
                .push(ms.as_u64().unwrap());
        }
    }
    times
        .into_iter()
        .map(|(name, mut t)| {
            t.sort_unstable();
            (name, t[t.len() / 2])
        })
        .collect()
}

#[test]
fn an_engine_with_its_own_control_gets_four_times_the_time() {
    let dir = std::env::temp_dir().join(format!("gogo-odds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("odds.jsonl");
    let gogo = gogo();
    let fast = format!("name=fast,cmd={gogo}");
    let slow = format!("name=slow,cmd={gogo},tc=movetime=240");
    let summary = run_arena(&[
        "--engine",
        &fast,
        "--engine",
        &slow,
        "--tc",
        "movetime=60",
        "--games",
        "2",
        "--max-plies",
        "30",
        "--jsonl",
        out.to_str().unwrap(),
    ]);
    common::assert_no_faults(&summary, &["fast", "slow"]);
    let medians = median_times(&std::fs::read_to_string(&out).unwrap());
    // A fixed time a move is spent whole: each median sits at its own control.
    assert!((40..=150).contains(&medians["fast"]), "{medians:?}");
    assert!((200..=400).contains(&medians["slow"]), "{medians:?}");
    // The summary says the same medians as the records.
    for name in ["fast", "slow"] {
        let said = format!("Time a move of {name}: median {} ms", medians[name]);
        assert!(summary.contains(&said), "{said} not in:\n{summary}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
