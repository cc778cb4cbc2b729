//! Issue 54, through the real `gogo-train`: the network and its notes are checked before any
//! training, so a file there that is not a network (or a network's notes), a device, or one
//! of the inputs is refused at once with the reason, and left as it was.

use std::process::Command;

fn train(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gogo-train"))
        .args(args)
        .output()
        .expect("gogo-train runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_network_and_its_notes_never_go_over_what_they_are_not() {
    let dir = std::env::temp_dir().join(format!("gogo-train-outputs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("data.bin");
    std::fs::write(&data, b"not read: the outputs are checked first").unwrap();
    let d = data.to_str().unwrap();
    // A file of another kind where the network goes.
    let essay = dir.join("essay.nnue");
    std::fs::write(&essay, "my essay\n").unwrap();
    let (code, said) = train(&["--data", d, "--out", essay.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("not written over"), "{said}");
    assert_eq!(std::fs::read_to_string(&essay).unwrap(), "my essay\n");
    // Notes beside a new network that are not a network's notes.
    let net = dir.join("new.nnue");
    std::fs::write(dir.join("new.nnue.txt"), "a shopping list\n").unwrap();
    let (code, said) = train(&["--data", d, "--out", net.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("network's notes"), "{said}");
    assert!(!net.exists());
    // The data itself, and a device.
    let (code, said) = train(&["--data", d, "--out", d]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("input"), "{said}");
    let (code, said) = train(&["--data", d, "--out", "/dev/null"]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("device"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}
