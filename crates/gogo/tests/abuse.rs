//! Protocol abuse: commands in any order, odd bytes, absurd options. After each, the engine
//! still answers `isready` and plays a legal move.

mod common;

use common::{ms, secs, Gogo};
use gogo_rules::Position;

/// The engine is still healthy: `readyok`, then a legal move from the start position.
fn still_plays(e: &mut Gogo) {
    e.ready();
    e.send("position startpos");
    e.send("go depth 3");
    e.bestmove_in(&Position::startpos(), secs(10));
}

#[test]
fn commands_in_any_order() {
    let mut e = Gogo::start();
    // go before usi, isready or position: searches the start position.
    e.send("go depth 2");
    e.bestmove_in(&Position::startpos(), secs(10));
    e.handshake();
    // stop and ponderhit with nothing running.
    e.send("stop");
    e.send("ponderhit");
    e.expect("info string", secs(5));
    still_plays(&mut e);

    // position and setoption during a search: the search goes on with what it had.
    e.send("position startpos");
    e.send("go infinite");
    e.send("position startpos moves 5d5c");
    e.send("setoption name USI_Hash value 32");
    e.send("setoption name Threads value 2");
    e.send("setoption name Clear Hash");
    e.send("isready");
    e.expect("readyok", secs(5));
    e.send("stop");
    e.bestmove_in(&Position::startpos(), secs(5));
    // The new position and options apply to the next search.
    assert_eq!(e.current_sfen(), "rbsgk/4p/P4/5/KGSBR w - 2");
    still_plays(&mut e);

    // Two go in a row: the first search answers, then the second.
    e.send("position startpos");
    e.send("go infinite");
    e.send("go depth 2");
    e.bestmove_in(&Position::startpos(), secs(5));
    e.bestmove_in(&Position::startpos(), secs(10));
    still_plays(&mut e);

    // usinewgame and gameover during a search stop it cleanly.
    e.send("go infinite");
    e.send("gameover draw");
    e.bestmove_in(&Position::startpos(), secs(5));
    e.send("go infinite");
    e.send("usinewgame");
    e.bestmove_in(&Position::startpos(), secs(5));
    still_plays(&mut e);
}

#[test]
fn quit_during_a_search() {
    let mut e = Gogo::start();
    e.handshake();
    e.send("setoption name Threads value 3");
    e.send("go infinite");
    std::thread::sleep(ms(100));
    assert!(e.quit().success());
}

#[test]
fn odd_bytes_and_lines() {
    let mut e = Gogo::start();
    e.handshake();
    e.send_bytes(b"\n\n   \n\t\n");
    e.send_bytes(b"isready\r\n");
    e.expect("readyok", secs(5));
    e.send_bytes(b"position startpos moves 5d5c\r\n");
    assert_eq!(e.current_sfen(), "rbsgk/4p/P4/5/KGSBR w - 2");
    e.send_bytes(b"\xff\xfe garbage \x80\n");
    e.expect("info string error", secs(5));
    e.send_bytes(b"posi\xc3\x28tion startpos\n");
    e.expect("info string error", secs(5));
    let long = format!("position startpos moves {}", "5d5c 5c5d ".repeat(100_000));
    e.send(&long);
    e.expect("info string error", secs(10));
    let long = "x".repeat(2_000_000);
    e.send(&long);
    e.expect("info string error", secs(10));
    // Still the position from before the bad lines.
    assert_eq!(e.current_sfen(), "rbsgk/4p/P4/5/KGSBR w - 2");
    still_plays(&mut e);
}

#[test]
fn absurd_options() {
    let mut e = Gogo::start();
    e.handshake();
    // More memory than the machine has: refused at isready, the old table kept.
    e.send("setoption name USI_Hash value 1048576");
    e.send("isready");
    let lines = e.expect("readyok", secs(30));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error: 1048576 MiB for the hash table")),
        "{lines:?}"
    );
    still_plays(&mut e);
    // Far more threads than cores.
    e.send("setoption name Threads value 256");
    e.send("position startpos");
    e.send("go movetime 300");
    e.bestmove_in(&Position::startpos(), secs(10));
    e.send("go infinite");
    std::thread::sleep(ms(100));
    e.send("stop");
    e.bestmove_in(&Position::startpos(), secs(5));
    still_plays(&mut e);
}

/// Hardening II, item 5: a `USI_Hash` beyond the memory the system has available is
/// refused with the figure (the old table kept and working), and a large valid size takes
/// memory only as the search fills the table: nothing is written up front.
#[test]
fn the_table_size_cannot_take_the_machine_down() {
    const MIB: u64 = 1 << 20;
    let available_mb = gogo_search::tt::available_memory().expect("Linux") as u64 / MIB;
    let mut e = Gogo::start();
    e.handshake();
    still_plays(&mut e);
    let before = e.rss_bytes();
    // More than the machine has at all (memory and swap): more than it could ever have
    // available, however other tests' memory comes and goes meanwhile.
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap();
    let kib = |field: &str| -> u64 {
        meminfo
            .lines()
            .find_map(|l| l.strip_prefix(field))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    let machine_mb = (kib("MemTotal:") + kib("SwapTotal:")) / 1024;
    e.send(&format!(
        "setoption name USI_Hash value {}",
        machine_mb + 1024
    ));
    e.send("isready");
    let lines = e.expect("readyok", secs(30));
    let refusal = lines
        .iter()
        .find(|l| l.starts_with("info string error:"))
        .unwrap_or_else(|| panic!("not refused: {lines:?}"));
    assert!(
        refusal.contains("MiB of memory the system has available")
            && refusal.contains("keeping the 16 MiB table"),
        "{refusal}"
    );
    still_plays(&mut e);
    // `isready` at once after `bestmove` (as a GUI may send it): the size is checked then,
    // every time, not skipped because the search's job had not yet marked itself done.
    for _ in 0..20 {
        e.send("go depth 1");
        e.bestmove_in(&Position::startpos(), secs(10));
        e.send(&format!(
            "setoption name USI_Hash value {}",
            machine_mb + 1024
        ));
        e.send("isready");
        let lines = e.expect("readyok", secs(30));
        assert!(
            lines.iter().any(|l| l.starts_with("info string error:")),
            "not checked at isready: {lines:?}"
        );
    }
    // A large size that the machine has: the process does not grow by it.
    let large_mb = (available_mb / 4).clamp(4 * gogo_search::tt::PREFAULT_MAX_MB as u64, 4096);
    e.send(&format!("setoption name USI_Hash value {large_mb}"));
    e.send("usinewgame");
    e.send("isready");
    let lines = e.expect("readyok", secs(30));
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    let grown = e.rss_bytes().saturating_sub(before) / MIB;
    assert!(
        grown < large_mb / 4 && grown < 64,
        "{grown} MiB more after a {large_mb} MiB table"
    );
    // It is a working table of that size: a search fills part of it.
    e.send("position startpos");
    e.send("go depth 8");
    e.bestmove_in(&Position::startpos(), secs(60));
    let used = e.rss_bytes().saturating_sub(before) / MIB;
    assert!(used < large_mb, "{used} MiB");
    still_plays(&mut e);
}

/// `go perft` with a depth past the cap is refused (4294967295 allocated a move list per
/// ply and aborted the process); a deep one runs as a job that `stop` ends with what it has
/// counted, and that `quit` interrupts (it ran on the input thread and held both off).
#[test]
fn perft_is_capped_and_can_be_stopped() {
    let mut e = Gogo::start();
    e.handshake();
    e.send("go perft 4294967295");
    let lines = e.expect("info string error", secs(5));
    assert!(
        lines.last().unwrap().contains("beyond the limit, 32"),
        "{lines:?}"
    );
    e.send("go perft 3");
    let lines = e.expect("Nodes searched", secs(10));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 2512");
    // Depth 12 takes days; stop ends it at once, with a partial count.
    e.send("go perft 12");
    std::thread::sleep(ms(300));
    e.ready();
    let asked = std::time::Instant::now();
    e.send("stop");
    let lines = e.expect("Nodes searched", secs(5));
    assert!(asked.elapsed() < secs(2), "{:?}", asked.elapsed());
    assert!(
        lines.iter().any(|l| l.starts_with("perft stopped")),
        "{lines:?}"
    );
    let last = lines.last().unwrap();
    let counted: u64 = last
        .trim_start_matches("Nodes searched: ")
        .trim_end_matches(" (stopped)")
        .parse()
        .unwrap();
    assert!(last.ends_with("(stopped)") && counted > 0, "{last}");
    still_plays(&mut e);
    e.send("go perft 12");
    std::thread::sleep(ms(200));
    let asked = std::time::Instant::now();
    assert!(e.quit().success());
    assert!(asked.elapsed() < secs(3), "{:?}", asked.elapsed());
}

/// `EvalFile` on what is not a network file of the right size is refused at once: a device
/// that never ends (it read until memory ran out), a pipe with no writer (opening it
/// blocked the engine), a directory.
#[test]
fn eval_file_refuses_devices_and_pipes() {
    let dir = std::env::temp_dir().join(format!("gogo-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("fifo");
    let _ = std::fs::remove_file(&fifo);
    let has_fifo = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    let mut e = Gogo::start();
    e.handshake();
    let mut paths = vec!["/dev/zero".to_string(), dir.display().to_string()];
    if has_fifo {
        paths.push(fifo.display().to_string());
    }
    for path in paths {
        e.send(&format!("setoption name EvalFile value {path}"));
        let lines = e.expect("info string error", secs(5));
        assert!(
            lines
                .last()
                .unwrap()
                .contains("not a regular file; keeping <internal>"),
            "{lines:?}"
        );
    }
    still_plays(&mut e);
    let _ = std::fs::remove_dir_all(&dir);
}
