//! The layers hold: every dependency between the workspace's crates, as `cargo metadata`
//! reads the manifests, is listed in the table of `docs/architecture.md` and points to a
//! crate above the one that has it; and every one the table lists is there. Run with the
//! arena's tests (`cargo test -p gogo-arena --test layers`).

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

/// The table of docs/architecture.md: each crate's package name, in the table's order, with
/// the workspace crates it may depend on.
fn documented(architecture: &str) -> Vec<(String, BTreeSet<String>)> {
    let mut rows = Vec::new();
    for line in architecture.lines().filter(|l| l.starts_with("| `crates/")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // | `crates/x` (`gogo-x`) | binary | depends on | what |
        let name = cells[1]
            .split("(`")
            .nth(1)
            .and_then(|rest| rest.split('`').next())
            .unwrap_or_else(|| panic!("no package name in: {line}"))
            .to_string();
        let depends: BTreeSet<String> = cells[3]
            .split(',')
            .map(|d| d.split('(').next().unwrap_or("").trim())
            .filter(|d| !d.is_empty() && *d != "nothing")
            .map(|d| format!("gogo-{d}"))
            .collect();
        rows.push((name, depends));
    }
    rows
}

/// Each workspace crate's dependencies on other workspace crates (normal and build ones:
/// what the crate links), from `cargo metadata`.
fn actual(workspace: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(workspace)
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: Value = serde_json::from_slice(&output.stdout).expect("metadata is JSON");
    let members: BTreeSet<String> = metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect();
    metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let deps = p["dependencies"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d["kind"].is_null() || d["kind"] == "build")
                .map(|d| d["name"].as_str().unwrap().to_string())
                .filter(|d| members.contains(d))
                .collect();
            (p["name"].as_str().unwrap().to_string(), deps)
        })
        .collect()
}

/// What is wrong with `actual` against the table, in words; empty when nothing is.
fn violations(
    table: &[(String, BTreeSet<String>)],
    actual: &BTreeMap<String, BTreeSet<String>>,
) -> Vec<String> {
    let mut wrong = Vec::new();
    let position = |name: &str| table.iter().position(|(n, _)| n == name);
    for (name, deps) in actual {
        let Some(row) = position(name) else {
            wrong.push(format!("{name} is not in the table"));
            continue;
        };
        let allowed = &table[row].1;
        for dep in deps {
            if !allowed.contains(dep) {
                wrong.push(format!(
                    "{name} depends on {dep}, which the table does not list"
                ));
            }
            if position(dep).is_some_and(|d| d >= row) {
                wrong.push(format!("{name} depends on {dep}, which is not above it"));
            }
        }
        for dep in allowed.difference(deps) {
            wrong.push(format!(
                "the table says {name} depends on {dep}; it does not"
            ));
        }
    }
    for (name, _) in table {
        if !actual.contains_key(name) {
            wrong.push(format!(
                "the table lists {name}, which is not in the workspace"
            ));
        }
    }
    wrong
}

#[test]
fn every_dependency_is_in_the_architecture_table_and_points_down() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let architecture = std::fs::read_to_string(workspace.join("docs/architecture.md")).unwrap();
    let table = documented(&architecture);
    assert!(table.len() >= 9, "{table:?}");
    let wrong = violations(&table, &actual(&workspace));
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The check itself: an arrow up, an arrow the table does not list and a stale row are each
/// caught.
#[test]
fn an_arrow_up_is_caught() {
    let set = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<BTreeSet<_>>();
    let table = vec![
        ("gogo-rules".to_string(), set(&[])),
        ("gogo-search".to_string(), set(&["gogo-rules"])),
        ("gogo-mate".to_string(), set(&["gogo-rules"])),
    ];
    let mut actual = BTreeMap::from([
        ("gogo-rules".to_string(), set(&[])),
        ("gogo-search".to_string(), set(&["gogo-rules"])),
        ("gogo-mate".to_string(), set(&["gogo-rules"])),
    ]);
    assert!(violations(&table, &actual).is_empty());
    actual.insert("gogo-mate".into(), set(&["gogo-rules", "gogo-search"]));
    assert_eq!(
        violations(&table, &actual),
        ["gogo-mate depends on gogo-search, which the table does not list"]
    );
    actual.insert("gogo-rules".into(), set(&["gogo-mate"]));
    let wrong = violations(&table, &actual);
    assert!(wrong.contains(&"gogo-rules depends on gogo-mate, which is not above it".to_string()));
    actual.insert("gogo-rules".into(), set(&[]));
    actual.insert("gogo-mate".into(), set(&[]));
    assert_eq!(
        violations(&table, &actual),
        ["the table says gogo-mate depends on gogo-rules; it does not"]
    );
}
