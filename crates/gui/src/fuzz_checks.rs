//! Invariant checks driven by arbitrary bytes: the bodies of the fuzz targets `gui_request`,
//! `engine_messages`, `room_messages` and `bus_messages` in `fuzz/`, also run over their kept corpora by `cargo test`. The
//! engine's part is played here, in process: each search is answered at once with a legal
//! move of the position it was given, so that a run takes microseconds.

use crate::engine::{EngineCommand, EngineEvent, EngineHandle};
use crate::messages::{Request, Update};
use crate::session::Session;
use gogo_protocol::{BestMove, BestMoveAnswer, Checkmate, EngineMessage, GuiCommand};
use gogo_rules::Position;
use std::sync::mpsc::Receiver;
use std::time::Duration;

/// Every update is sent to the page as JSON: it must encode.
fn encodes(updates: &[Update]) {
    for update in updates {
        serde_json::to_string(update).expect("an update encodes");
    }
}

/// The position a `position` command sets, if it is one that holds.
fn position_of(command: &GuiCommand) -> Option<Position> {
    let GuiCommand::Position { setup, moves } = command else {
        return None;
    };
    let start = setup.position().ok()?;
    moves
        .iter()
        .try_fold(start, |pos, &mv| pos.is_legal(mv).then(|| pos.played(mv)))
}

/// The engine's part: answers each command the session sent, as an engine would, and
/// hands the answers to the session. Returns the id of the last job asked for.
/// At most 600 answers a call, so that a game between two engines ends the call.
fn answer(session: &mut Session, commands: &Receiver<EngineCommand>, last_job: &mut u64) {
    for _ in 0..600 {
        let Ok(command) = commands.try_recv() else {
            return;
        };
        let events = match command {
            EngineCommand::Search { id, position, .. } => {
                *last_job = id;
                let best = position_of(&position)
                    .and_then(|p| p.legal_moves().as_slice().first().copied())
                    .map_or(BestMove::Resign, BestMove::Move);
                vec![EngineEvent::BestMove {
                    id,
                    answer: BestMoveAnswer { best, ponder: None },
                    elapsed: Duration::from_millis(1),
                }]
            }
            EngineCommand::Analyze { id, .. } => {
                *last_job = id;
                Vec::new()
            }
            EngineCommand::Mate { id, .. } => {
                *last_job = id;
                vec![EngineEvent::Checkmate {
                    id,
                    answer: Checkmate::NoMate,
                }]
            }
            EngineCommand::Stop | EngineCommand::NewGame => Vec::new(),
        };
        for event in events {
            encodes(&session.engine_event(event));
        }
    }
}

/// Any text, a line a request, into a board session whose engine answers at once: no
/// request panics, and every update encodes. A game against the engine goes on to its end.
pub fn check_gui_request(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (engine, commands) = EngineHandle::scripted();
    let mut session = Session::new(engine);
    let mut job = 0;
    for line in text.lines().take(64) {
        let updates = match serde_json::from_str::<Request>(line) {
            Ok(request) => session.handle(request),
            Err(_) => continue,
        };
        encodes(&updates);
        answer(&mut session, &commands, &mut job);
        encodes(&session.tick());
    }
    encodes(&[Update::State(Box::new(session.view()))]);
}

/// Any engine output into a board session that is analysing and playing: every line that
/// reads as a message becomes the event it would be (an `info` of the running job, its
/// `bestmove`, a `checkmate`), and none panics the session.
pub fn check_engine_messages(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (engine, commands) = EngineHandle::scripted();
    let mut session = Session::new(engine);
    let mut job = 0;
    let start: Request = serde_json::from_str(
        r#"{"type": "new_game", "start": "standard", "rules": "standard", "sente": "engine",
            "gote": "human", "clock": {"kind": "none", "engine_ms": 50}}"#,
    )
    .expect("a new game request");
    encodes(&session.handle(start));
    encodes(&session.handle(Request::Analyze {
        on: true,
        multipv: 3,
    }));
    // Collect the job ids without answering: the lines below are the engine's answers.
    while let Ok(command) = commands.try_recv() {
        if let EngineCommand::Search { id, .. }
        | EngineCommand::Analyze { id, .. }
        | EngineCommand::Mate { id, .. } = command
        {
            job = id;
        }
    }
    for line in text.lines().take(256) {
        let event = match line.parse::<EngineMessage>() {
            Ok(EngineMessage::Info(info)) => EngineEvent::Info { id: job, info },
            Ok(EngineMessage::BestMove { best, ponder }) => EngineEvent::BestMove {
                id: job,
                answer: BestMoveAnswer { best, ponder },
                elapsed: Duration::from_millis(5),
            },
            Ok(EngineMessage::Checkmate(answer)) => EngineEvent::Checkmate { id: job, answer },
            _ => continue,
        };
        encodes(&session.engine_event(event));
        answer(&mut session, &commands, &mut job);
    }
}

/// Lines of an online page and its API, each read as every message and body online play
/// takes: room settings (checked into rules or refused), a name (kept or refused), a seat
/// secret, a puzzle move (judged), a line of chat, and a room request, played by the referee for the side the line's number gives,
/// a second later each. Whatever is refused changes nothing; every event is numbered one
/// more than the last; a move sent again is played once.
pub fn check_room_messages(data: &[u8]) {
    use crate::online::protocol::{RoomRequest, RoomSettings};
    use crate::referee::{Referee, Setup};
    use gogo_rules::{Color, Game, RuleSet};
    let text = String::from_utf8_lossy(data);
    let start = std::time::Instant::now();
    let setup = Setup {
        clock: crate::online::protocol::OnlineClock::Fischer {
            main_ms: 60_000,
            increment_ms: 1_000,
        }
        .control(),
        first_move_limit: Some(Duration::from_secs(30)),
    };
    let mut referee = Referee::new(Game::new(RuleSet::standard()), &setup, None, 1, start);
    for (n, line) in text.lines().take(400).enumerate() {
        if let Ok(settings) = serde_json::from_str::<RoomSettings>(line) {
            if let Ok(rules) = settings.checked_rules() {
                assert!(rules.max_plies.unwrap_or(0) as usize <= gogo_rules::MAX_GAME_MOVES);
                assert!(settings.clock.control().is_none_or(|c| c.is_clock()));
            }
        }
        if let Ok(name) = crate::online::check_name(line) {
            assert!(!name.is_empty() && name.chars().count() <= crate::online::MAX_NAME_CHARS);
            assert!(!name.chars().any(char::is_control));
        }
        // A challenge's form (`key=value&...`, as axum has decoded it).
        let form: std::collections::HashMap<String, String> = line
            .split('&')
            .filter_map(|pair| pair.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        if let Ok(settings) = crate::online::challenges::settings_of(&form, "p".into()) {
            // Made settings are checked like any room's (refused or rules, never a panic).
            let _ = settings.checked_rules();
            assert_eq!(settings.opponent.as_deref(), Some("p"));
            let both = ["clock.increment", "clock.byoyomi"].iter().all(|k| {
                form.get(*k)
                    .and_then(|v| v.trim().parse::<u64>().ok())
                    .is_some_and(|v| v > 0)
            });
            assert!(!both, "an increment and a byoyomi were both taken");
        }
        if let Some(secret) = gogo_store::Secret::parse(line) {
            assert_eq!(secret.expose(), line);
        }
        // A visitor's puzzle move, judged against one of the shipped puzzles.
        if let Ok(attempt) = serde_json::from_str::<crate::online::puzzles::PuzzleMove>(line) {
            let puzzles = gogo_puzzle::set::shipped();
            let puzzle = &puzzles[n % puzzles.len()];
            if let Ok(answer) = crate::online::puzzles::judge(puzzle, &attempt) {
                match answer.verdict {
                    "right" => {
                        assert_eq!(answer.ply, attempt.ply + 2);
                        assert!(answer.reply.is_some() && !answer.legal.is_empty());
                        assert!(answer.rating.is_none());
                    }
                    "wrong" => {
                        assert_eq!(answer.sfen, puzzle.position_at(attempt.ply).to_sfen());
                        assert_eq!(answer.rating.is_some(), attempt.rating.is_some());
                    }
                    "solved" => assert_eq!(answer.ply, puzzle.solution().len()),
                    other => panic!("a verdict {other}"),
                }
            }
        }
        let Ok(request) = serde_json::from_str::<RoomRequest>(line) else {
            continue;
        };
        if let RoomRequest::Chat { text } = &request {
            if let Ok(kept) = crate::online::protocol::check_chat(text) {
                assert!(!kept.is_empty() && kept.trim() == kept);
                assert!(kept.chars().count() <= crate::online::protocol::MAX_CHAT_CHARS);
                assert!(!kept.chars().any(char::is_control));
            }
        }
        let Some(action) = request.action() else {
            continue;
        };
        let side = if n % 2 == 0 {
            Color::Sente
        } else {
            Color::Gote
        };
        let now = start + Duration::from_secs(n as u64);
        let before = (
            referee.game().moves().to_vec(),
            referee.last_event(),
            referee.ending().cloned(),
        );
        let mut next = referee.clone();
        match next.act(side, action, Duration::from_millis(50), now) {
            Ok(events) => {
                for (i, event) in events.iter().enumerate() {
                    assert_eq!(event.number, before.1 .1 + 1 + i as u64);
                }
                if events.is_empty() {
                    assert_eq!(next.game().moves(), &before.0[..]);
                }
                if before.2.is_some() {
                    assert!(events.is_empty(), "an ended game changed");
                }
                referee = next;
            }
            Err(_) => {
                let after = (
                    next.game().moves().to_vec(),
                    next.last_event(),
                    next.ending().cloned(),
                );
                // A refusal after the clock ran out may still end the game on time;
                // otherwise nothing changed.
                if after.2 == before.2 {
                    assert_eq!(after, before);
                }
            }
        }
    }
}

/// Lines as notifications on the bus between server processes (issue 57): each is taken
/// by the assembler as it comes (whole messages, parts of long ones, or junk). A message
/// it puts together encodes again, splits into parts that each fit a notification, and
/// comes back the same from them; a seat's hash in hex comes back as it was written.
pub fn check_bus_messages(data: &[u8]) {
    use crate::online::cluster::wire::{hex, parts, unhex, Assembler, Wire};
    let text = String::from_utf8_lossy(data);
    let mut assembler = Assembler::default();
    for (n, line) in text.lines().take(400).enumerate() {
        if let Some(hash) = unhex(line) {
            assert_eq!(hex(&hash), line.to_ascii_lowercase());
        }
        let Some(wire) = assembler.take(line) else {
            continue;
        };
        let encoded = serde_json::to_string(&wire).expect("a message encodes");
        let pieces = parts("gogo_fuzz", n as u64, &encoded);
        assert!(pieces
            .iter()
            .all(|p| p.len() <= gogo_store::cluster::MAX_NOTIFICATION));
        let mut again = Assembler::default();
        let whole: Vec<Wire> = pieces.iter().filter_map(|p| again.take(p)).collect();
        assert_eq!(whole.len(), 1, "{encoded}");
        assert_eq!(serde_json::to_string(&whole[0]).unwrap(), encoded);
    }
}
