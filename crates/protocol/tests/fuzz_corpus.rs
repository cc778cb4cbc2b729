//! The `usi_line` fuzz corpus replayed through the target's check (see fuzz/).

#[test]
fn usi_line_corpus() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/usi_line");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let data = std::fs::read(entry.unwrap().path()).unwrap();
        gogo_protocol::fuzz_checks::check_usi_line(&data);
        n += 1;
    }
    assert!(n >= 5, "{n}");
}
