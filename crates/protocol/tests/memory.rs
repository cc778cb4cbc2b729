//! What an engine can make the client hold: its options before `usiok` are bounded in count
//! and bytes, its unread output in bytes (a few MiB, not a thousand lines of a MiB), and the
//! memory comes back once the engine is gone. One test in this binary, so that no other
//! test's memory moves the figures.

use gogo_protocol::process::MAX_QUEUED_BYTES;
use gogo_protocol::{ClientError, EngineClient, EngineSpec};
use std::time::{Duration, Instant};

const MIB: i64 = 1 << 20;

/// This process's resident memory, bytes (Linux).
fn rss() -> i64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let kb: i64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap();
    kb * 1024
}

fn engine(script: &str) -> EngineSpec {
    EngineSpec {
        name: "flood".into(),
        args: vec!["-c".into(), script.into()],
        ..EngineSpec::new("sh")
    }
}

/// `count` lines of `prefix`, the line's number, `middle` and a million x's, printed by awk
/// at once.
fn flood(prefix: &str, middle: &str, count: usize) -> String {
    format!(
        r#"awk 'BEGIN {{ s = "x"; while (length(s) < 1000000) s = s s; s = substr(s, 1, 1000000); for (i = 0; i < {count}; i++) print "{prefix}" i "{middle}" s }}'"#
    )
}

#[test]
fn an_engine_cannot_make_the_client_hold_much() {
    // Warm up what the first engine allocates once (threads, buffers).
    let quiet = engine(
        r#"while read -r l; do case "$l" in usi) echo usiok;; isready) echo readyok;; quit) exit 0;; esac; done"#,
    );
    drop(EngineClient::start(&quiet, Duration::from_secs(10)).unwrap());
    let before = rss();

    // 300 options of a MiB before usiok (the issue's 368 MB): refused at once.
    let options = engine(&format!(
        r#"read -r l; {}; echo usiok; while read -r l; do case "$l" in isready) echo readyok;; quit) exit 0;; esac; done"#,
        flood("option name o", " type string default ", 300)
    ));
    let started = Instant::now();
    let refused = EngineClient::start(&options, Duration::from_secs(30));
    let why = match refused {
        Err(ClientError::Start(why)) => why,
        Err(other) => panic!("refused for another reason: {other}"),
        Ok(_) => panic!("an engine offering 300 MiB of options was kept"),
    };
    assert!(why.contains("more options than a client keeps"), "{why}");
    assert!(started.elapsed() < Duration::from_secs(10));
    let after_options = rss();

    // An engine that, once ready, prints 1,100 lines of a MiB that no one reads (the
    // issue's 1 GB): the client holds a few MiB of them.
    let chatty = engine(&format!(
        r#"while read -r l; do case "$l" in usi) echo usiok;; isready) echo readyok; {} ;; quit) exit 0;; esac; done"#,
        flood("info string ", " ", 1100)
    ));
    let client = EngineClient::start(&chatty, Duration::from_secs(10)).unwrap();
    std::thread::sleep(Duration::from_secs(3));
    let holding = rss();
    drop(client);
    std::thread::sleep(Duration::from_millis(300));
    let after = rss();

    let growth = |x: i64| (x - before) / MIB;
    eprintln!(
        "RSS before {} MiB; after the options {:+} MiB; holding the flood {:+} MiB; after {:+} MiB",
        before / MIB,
        growth(after_options),
        growth(holding),
        growth(after)
    );
    assert!(growth(after_options) < 8, "{} MiB", growth(after_options));
    let bound = (MAX_QUEUED_BYTES as i64 + 4 * MIB) / MIB;
    assert!(growth(holding) <= bound, "{} MiB held", growth(holding));
    assert!(growth(after) < 8, "{} MiB stayed", growth(after));
}
