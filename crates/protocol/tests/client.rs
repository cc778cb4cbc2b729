//! The client against small engines written in shell: every answer, and every way of not
//! answering, arrives typed and within its deadline.

use gogo_protocol::{
    BestMove, Checkmate, ClientError, EngineClient, EngineMessage, EngineSpec, GoCommand,
    GuiCommand, Info, InfoScore, OptionKind,
};
use std::time::{Duration, Instant};

/// An engine that runs `on_go` (shell) for each `go`.
fn shell_engine(on_go: &str) -> EngineSpec {
    let script = format!(
        r#"while read -r line; do
  case "$line" in
    usi) echo "id name shell"; echo "option name Style type combo default calm var calm var wild"; echo usiok;;
    isready) echo readyok;;
    go*) {on_go};;
    quit) exit 0;;
  esac
done"#
    );
    EngineSpec {
        name: "shell".into(),
        program: "sh".into(),
        args: vec!["-c".into(), script],
        options: vec![("Style".into(), "wild".into())],
        go_depth: None,
        time_control: None,
    }
}

fn go(client: &mut EngineClient) {
    client
        .send(&GuiCommand::position(
            &gogo_rules::Position::startpos(),
            &[],
        ))
        .unwrap();
    client.send(&GuiCommand::Go(GoCommand::default())).unwrap();
}

fn soon() -> Instant {
    Instant::now() + Duration::from_secs(5)
}

#[test]
fn handshake_options_infos_and_bestmove() {
    let spec = shell_engine(
        r#"echo "info depth 1 score cp 5 pv 5d5c"; echo "info string thinking"; echo "info depth 2 score mate 3"; echo "bestmove 5d5c ponder 1b1c""#,
    );
    let mut client = EngineClient::start(&spec, Duration::from_secs(5)).unwrap();
    assert_eq!(client.id_name(), Some("shell"));
    assert!(client.offers("Style"));
    assert!(matches!(
        client.offered_options()[0].1,
        OptionKind::Combo { .. }
    ));
    go(&mut client);
    let mut infos: Vec<Info> = Vec::new();
    let answer = client
        .wait_bestmove(soon(), &mut |i| infos.push(i.clone()))
        .unwrap();
    assert_eq!(answer.best, BestMove::Move("5d5c".parse().unwrap()));
    assert_eq!(answer.ponder, Some("1b1c".parse().unwrap()));
    // Every info line, in order, not only the last scored one.
    assert_eq!(infos.len(), 3);
    assert_eq!(infos[0].score, Some(InfoScore::Centipawns(5)));
    assert_eq!(infos[1].string.as_deref(), Some("thinking"));
    assert_eq!(infos[2].score, Some(InfoScore::Mate(3)));
    client.shutdown();
}

#[test]
fn resign_and_checkmate_answers() {
    let mut client = EngineClient::start(
        &shell_engine(r#"echo "bestmove resign""#),
        Duration::from_secs(5),
    )
    .unwrap();
    go(&mut client);
    let answer = client.wait_bestmove(soon(), &mut |_| {}).unwrap();
    assert_eq!(answer.best, BestMove::Resign);
    let mut client = EngineClient::start(
        &shell_engine(r#"echo "info nodes 10"; echo "checkmate G*4b 5a4a S*5b""#),
        Duration::from_secs(5),
    )
    .unwrap();
    go(&mut client);
    let mut nodes = None;
    let answer = client
        .wait_checkmate(soon(), &mut |i| nodes = i.nodes)
        .unwrap();
    assert_eq!(nodes, Some(10));
    assert_eq!(
        answer,
        Checkmate::Mate(vec![
            "G*4b".parse().unwrap(),
            "5a4a".parse().unwrap(),
            "S*5b".parse().unwrap()
        ])
    );
}

#[test]
fn malformed_hung_and_dead_engines() {
    let mut client = EngineClient::start(
        &shell_engine(r#"echo "bestmove banana""#),
        Duration::from_secs(5),
    )
    .unwrap();
    go(&mut client);
    assert_eq!(
        client.wait_bestmove(soon(), &mut |_| {}),
        Err(ClientError::Malformed("bestmove banana".into()))
    );

    let mut client =
        EngineClient::start(&shell_engine("sleep 30"), Duration::from_secs(5)).unwrap();
    go(&mut client);
    let asked = Instant::now();
    assert_eq!(
        client.wait_bestmove(asked + Duration::from_millis(200), &mut |_| {}),
        Err(ClientError::Timeout)
    );
    assert!(asked.elapsed() < Duration::from_secs(2));

    let mut client = EngineClient::start(&shell_engine("exit 3"), Duration::from_secs(5)).unwrap();
    go(&mut client);
    assert_eq!(
        client.wait_bestmove(soon(), &mut |_| {}),
        Err(ClientError::Crashed)
    );
    // The output closes a moment before the process can be reaped.
    let deadline = Instant::now() + Duration::from_secs(2);
    while client.is_alive() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(!client.is_alive());
}

#[test]
fn an_engine_that_never_finishes_the_handshake_times_out() {
    let spec = EngineSpec {
        name: "mute".into(),
        program: "sh".into(),
        args: vec!["-c".into(), "sleep 30".into()],
        options: vec![],
        go_depth: None,
        time_control: None,
    };
    let started = Instant::now();
    assert_eq!(
        EngineClient::start(&spec, Duration::from_millis(300)).err(),
        Some(ClientError::Timeout)
    );
    assert!(started.elapsed() < Duration::from_secs(3));
}

/// This process's resident memory, KiB.
fn resident_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// Whether process `pid` is gone: not running and reaped (no zombie left).
fn gone(pid: u32) -> bool {
    !std::path::Path::new(&format!("/proc/{pid}")).exists()
}

/// An engine that floods `info` lines is timed out at the deadline (it used to be checked
/// only when no line was waiting), and the lines held for the caller stay bounded.
#[test]
fn a_flooding_engine_runs_out_of_time() {
    let mut client = EngineClient::start(
        &shell_engine(r#"exec yes "info depth 1 score cp 0 pv 5d5c""#),
        Duration::from_secs(5),
    )
    .unwrap();
    let pid = client.pid();
    go(&mut client);
    // The flood has begun (on a loaded machine, starting `yes` may take a while).
    let first = client.next_message(Instant::now() + Duration::from_secs(10));
    assert!(matches!(first, Ok(Ok(EngineMessage::Info(_)))), "{first:?}");
    // A second of flooding with nobody reading: the lines read ahead stay bounded (an
    // unbounded queue held gigabytes by then).
    let before = resident_kib();
    std::thread::sleep(Duration::from_secs(1));
    let grown = resident_kib().saturating_sub(before);
    assert!(grown < 64 * 1024, "grew by {grown} KiB");
    let asked = Instant::now();
    let mut infos = 0u64;
    assert_eq!(
        client.wait_bestmove(asked + Duration::from_millis(300), &mut |_| infos += 1),
        Err(ClientError::Timeout)
    );
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "{:?}",
        asked.elapsed()
    );
    assert!(infos > 100, "{infos}");
    // The watchdog's view: the last lines, and the engine's one thread, running or about to.
    let diagnosis = client.diagnosis();
    assert!(
        diagnosis.contains("ms ago: info depth 1 score cp 0 pv 5d5c"),
        "{diagnosis}"
    );
    assert!(
        diagnosis.contains(&format!("thread {pid} 'yes': state")),
        "{diagnosis}"
    );
    drop(client);
    assert!(gone(pid));
}

/// A shell command writing 1,000 zeros (no newline) with the shell's own printf, so that
/// the test engines start no second program (one that failed to start on a loaded machine
/// would end the engine, and `Crashed` would be right).
const THOUSAND_ZEROS: &str =
    r#"s=0000000000; s=$s$s$s$s$s$s$s$s$s$s; s=$s$s$s$s$s$s$s$s$s$s; printf %s "$s""#;

/// A line that never ends is cut at `MAX_LINE_BYTES` and reported as malformed at once.
#[test]
fn an_endless_line_is_malformed() {
    let endless = format!("while :; do {THOUSAND_ZEROS}; done");
    let mut client = EngineClient::start(&shell_engine(&endless), Duration::from_secs(5)).unwrap();
    let pid = client.pid();
    go(&mut client);
    let asked = Instant::now();
    assert_eq!(
        client.wait_bestmove(asked + Duration::from_secs(10), &mut |_| {}),
        Err(ClientError::Malformed(format!(
            "a line longer than {} bytes",
            gogo_protocol::MAX_LINE_BYTES
        )))
    );
    assert!(asked.elapsed() < Duration::from_secs(5));
    drop(client);
    assert!(gone(pid));
}

/// Issue 56: an engine that overflows a line and ends. The writer thread finds its input
/// closed while the overflow may still wait in the reader's queue, and which of the two the
/// client noticed first used to decide the error (`Crashed` from a send, or `Malformed`
/// from the wait). The overflow is the cause, every time, for every later call too.
#[test]
fn an_overflow_is_the_cause_whichever_thread_sees_the_end_first() {
    // A line of 1.1 MB, then the end.
    let overflow =
        format!("i=0; while [ $i -lt 1100 ]; do {THOUSAND_ZEROS}; i=$((i+1)); done; exit 0");
    let mut client = EngineClient::start(&shell_engine(&overflow), Duration::from_secs(5)).unwrap();
    go(&mut client);
    let deadline = Instant::now() + Duration::from_secs(10);
    while client.is_alive() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(!client.is_alive());
    // The first write after the end is queued; by the next, the writer has found the pipe
    // broken, and the overflow is still unread.
    let _ = client.send(&GuiCommand::Stop);
    std::thread::sleep(Duration::from_millis(200));
    let malformed = ClientError::Malformed(format!(
        "a line longer than {} bytes",
        gogo_protocol::MAX_LINE_BYTES
    ));
    let started = Instant::now();
    assert_eq!(client.send(&GuiCommand::IsReady), Err(malformed.clone()));
    assert!(started.elapsed() < Duration::from_secs(1));
    assert_eq!(client.send(&GuiCommand::IsReady), Err(malformed.clone()));
    assert_eq!(client.wait_bestmove(soon(), &mut |_| {}), Err(malformed));
}

/// The look at the output that a closed input starts is bounded: an engine that closed its
/// input and floods its output (no line too long) is crashed after at most 4 MiB of lines
/// or half a second, not read for ever.
#[test]
fn an_engine_that_closed_its_input_and_floods_is_crashed_in_time() {
    let mut client = EngineClient::start(
        &shell_engine(r#"exec yes "info depth 1 score cp 0 pv 5d5c" < /dev/null"#),
        Duration::from_secs(5),
    )
    .unwrap();
    go(&mut client);
    let first = client.next_message(Instant::now() + Duration::from_secs(10));
    assert!(matches!(first, Ok(Ok(EngineMessage::Info(_)))), "{first:?}");
    let _ = client.send(&GuiCommand::Stop);
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    assert_eq!(client.send(&GuiCommand::IsReady), Err(ClientError::Crashed));
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        client.wait_bestmove(soon(), &mut |_| {}),
        Err(ClientError::Crashed)
    );
}

/// An engine that stops reading its input: writes queue up to a bound, then fail with a
/// timeout after `WRITE_TIMEOUT` instead of blocking the caller forever.
#[test]
fn an_engine_that_stops_reading_gets_a_write_timeout() {
    let mut client =
        EngineClient::start(&shell_engine("exec sleep 60"), Duration::from_secs(5)).unwrap();
    let pid = client.pid();
    go(&mut client);
    let moves = "5d5c 5c5d ".repeat(2_000);
    let command = GuiCommand::SetOption {
        name: "x".into(),
        value: Some(moves),
    };
    let started = Instant::now();
    let mut sent = 0;
    let result = loop {
        match client.send(&command) {
            Ok(()) => sent += 1,
            Err(e) => break e,
        }
        assert!(sent < 100_000, "writes never blocked");
    };
    assert_eq!(result, ClientError::Timeout);
    let waited = started.elapsed();
    assert!(
        waited >= gogo_protocol::WRITE_TIMEOUT && waited < gogo_protocol::WRITE_TIMEOUT * 3,
        "{waited:?}"
    );
    // The pipe's buffer and the writer's queue: a bounded number of lines.
    assert!(sent <= gogo_protocol::MAX_QUEUED_WRITES + 10, "{sent}");
    drop(client);
    assert!(gone(pid));
}

/// An engine that exits in the middle of its `bestmove` line: the half line is malformed,
/// and then the engine is gone.
#[test]
fn an_engine_that_exits_mid_line() {
    let mut client = EngineClient::start(
        &shell_engine(r#"printf "bestmove 5d"; exit 0"#),
        Duration::from_secs(5),
    )
    .unwrap();
    go(&mut client);
    assert_eq!(
        client.wait_bestmove(soon(), &mut |_| {}),
        Err(ClientError::Malformed("bestmove 5d".into()))
    );
    assert_eq!(
        client.wait_bestmove(soon(), &mut |_| {}),
        Err(ClientError::Crashed)
    );
}
