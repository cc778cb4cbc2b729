//! The client against small engines written in shell: every answer, and every way of not
//! answering, arrives typed and within its deadline.

use gogo_protocol::{
    BestMove, Checkmate, ClientError, EngineClient, EngineSpec, GoCommand, GuiCommand, Info,
    InfoScore, OptionKind,
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
    };
    let started = Instant::now();
    assert_eq!(
        EngineClient::start(&spec, Duration::from_millis(300)).err(),
        Some(ClientError::Timeout)
    );
    assert!(started.elapsed() < Duration::from_secs(3));
}
