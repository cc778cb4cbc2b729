//! The docs' Slurm recipe on a real one-node Slurm (`scripts/slurm-local.sh test`): a sharded
//! match as a job array, one task cancelled midway and resubmitted, merged, equal to the
//! whole match move for move. Needs root and Debian's slurm-wlm and munge (the script
//! installs them); skipped, saying so, where that cannot be.

mod common;

#[test]
fn the_slurm_recipe_runs_on_a_real_slurm() {
    let is_root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    let installable = std::path::Path::new("/usr/bin/apt-get").exists()
        || std::path::Path::new("/usr/sbin/slurmctld").exists();
    if !is_root || !installable {
        eprintln!("skipped: the Slurm recipe needs root and Debian's slurm-wlm and munge (scripts/slurm-local.sh)");
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/slurm-local.sh");
    let output = std::process::Command::new(script)
        .arg("test")
        .env("GOGO_ARENA", env!("CARGO_BIN_EXE_gogo-arena"))
        .env("GOGO_ENGINE", common::gogo())
        .output()
        .expect("scripts/slurm-local.sh runs");
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{said}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(said.contains("cancelled with"), "{said}");
    assert!(
        said.contains("equal the whole match move for move"),
        "{said}"
    );
}
