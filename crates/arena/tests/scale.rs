//! The docs' recipes for runs at scale, run for real on this machine: the Slurm array on a
//! one-node Slurm (`scripts/slurm-local.sh test`: a task cancelled midway and resubmitted)
//! and GNU parallel over ssh (`scripts/parallel-local.sh test`: sshd on 127.0.0.1, rsync for
//! `--return`); each merge equals the whole match move for move. They need root and Debian's
//! packages (the scripts install them: CI does); elsewhere they are skipped, saying so.

mod common;

/// Whether the scripts can install and run what they need here.
fn can_run(what: &str) -> bool {
    let is_root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    let apt = std::path::Path::new("/usr/bin/apt-get").exists();
    if !is_root || !apt {
        eprintln!("skipped: {what} needs root and Debian's packages (apt-get)");
    }
    is_root && apt
}

/// Runs `scripts/NAME test` with this build's binaries; its stdout.
fn run_script(name: &str) -> String {
    let script = format!("{}/../../scripts/{name}", env!("CARGO_MANIFEST_DIR"));
    let output = std::process::Command::new(script)
        .arg("test")
        .env("GOGO_ARENA", env!("CARGO_BIN_EXE_gogo-arena"))
        .env("GOGO_ENGINE", common::gogo())
        .output()
        .expect("the script runs");
    let said = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{said}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    said
}

#[test]
fn the_slurm_recipe_runs_on_a_real_slurm() {
    if !can_run("the Slurm recipe (slurm-wlm, munge)") {
        return;
    }
    let said = run_script("slurm-local.sh");
    assert!(said.contains("cancelled with"), "{said}");
    assert!(
        said.contains("equal the whole match move for move"),
        "{said}"
    );
}

#[test]
fn the_parallel_recipe_runs_over_ssh() {
    if !can_run("the GNU parallel recipe (openssh-server, rsync, parallel)") {
        return;
    }
    let said = run_script("parallel-local.sh");
    assert!(
        said.contains("over ssh: 16 games, the merged shards equal the whole match"),
        "{said}"
    );
}
