//! gogo in XBoard, end to end. These tests need Debian's `uci2wb`, and the second one
//! `xboard` and `xvfb-run`, so they are `#[ignore]`d in `cargo test`; `scripts/xboard-e2e.sh`
//! installs what is missing and runs them (`cargo test -p gogo-arena --test xboard --
//! --ignored`).
//!
//! 1. `games_through_uci2wb`: this file plays XBoard's part of the XBoard protocol (CECP) to two
//!    `uci2wb -s gogo` adapters, with the very command sequence XBoard 4.9 sends in a "Two
//!    Machines" game (taken from its debug log), and checks every move that comes back with
//!    the rules crate, until the game ends by the rules.
//! 2. `xboard_plays_engine_against_engine`: XBoard itself, headless under Xvfb, plays gogo
//!    against gogo; every move of the saved game (XBoard's SAN) is checked with the rules crate
//!    and the result against the rules' verdict.

use gogo_protocol::LineProcess;
use gogo_rules::{Color, Game, Move, Outcome, Position, RuleSet};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// XBoard's description of minishogi: the piece-to-character table that gives it holdings for
/// pawn, silver, gold, bishop and rook (the one GNU Minishogi and Fairy-Stockfish announce),
/// and the start position in XBoard's FEN (White = Sente, moves first).
const PIECE_TABLE: &str = "P.BR.S...G.+.++.+Kp.br.s...g.+.++.+k";
const START_FEN: &str = "rbsgk/4p/5/P4/KGSBR[-] w 0 1";

fn gogo() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_gogo-arena").replace("gogo-arena", "gogo"))
}

/// A Debian games program: `$VAR` if set, else `/usr/games/NAME` (Debian puts it there, off
/// the usual PATH), else whatever NAME the PATH finds.
fn program(var: &str, name: &str) -> String {
    std::env::var(var).unwrap_or_else(|_| {
        let debian = format!("/usr/games/{name}");
        if std::path::Path::new(&debian).exists() {
            debian
        } else {
            name.into()
        }
    })
}

fn uci2wb() -> String {
    program("UCI2WB", "uci2wb")
}

/// An XBoard square (file a-e from Sente's left, rank 1-5 from Sente's side) in USI.
fn square_to_usi(file: u8, rank: u8) -> Option<String> {
    if !(b'a'..=b'e').contains(&file) || !(b'1'..=b'5').contains(&rank) {
        return None;
    }
    Some(format!(
        "{}{}",
        (b'5' - (file - b'a')) as char,
        (b'a' + (b'5' - rank)) as char
    ))
}

/// A USI square in XBoard's coordinates.
fn square_to_xboard(usi: &[u8]) -> String {
    format!(
        "{}{}",
        (b'a' + (b'5' - usi[0])) as char,
        (b'5' - (usi[1] - b'a')) as char
    )
}

/// An XBoard coordinate move (`c1b2`, `c1b2=`, `b4b5+`, `G@d5`) as USI.
fn move_to_usi(text: &str) -> Option<String> {
    let b = text.as_bytes();
    if b.len() >= 4 && b[1] == b'@' {
        return Some(format!("{}*{}", b[0] as char, square_to_usi(b[2], b[3])?));
    }
    if b.len() < 4 {
        return None;
    }
    let promote = match &text[4..] {
        "" | "=" => "",
        "+" => "+",
        _ => return None,
    };
    Some(format!(
        "{}{}{promote}",
        square_to_usi(b[0], b[1])?,
        square_to_usi(b[2], b[3])?
    ))
}

/// A USI move in XBoard's coordinates, as XBoard sends it in `usermove`.
fn move_to_xboard(usi: &str) -> String {
    let b = usi.as_bytes();
    if b[1] == b'*' {
        return format!("{}@{}", b[0] as char, square_to_xboard(&b[2..4]));
    }
    let promote = if usi.ends_with('+') { "+" } else { "" };
    format!(
        "{}{}{promote}",
        square_to_xboard(&b[0..2]),
        square_to_xboard(&b[2..4])
    )
}

/// One `uci2wb -s gogo` process, spoken to as XBoard speaks to an engine.
struct Cecp {
    name: &'static str,
    process: LineProcess,
    log: Vec<String>,
}

impl Cecp {
    fn start(name: &'static str) -> Cecp {
        let process = LineProcess::spawn(uci2wb(), [PathBuf::from("-s"), gogo()])
            .expect("uci2wb runs (scripts/xboard-e2e.sh installs it)");
        Cecp {
            name,
            process,
            log: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        self.log.push(format!("> {line}"));
        self.process.send_line(line).unwrap();
    }

    /// Lines until one satisfies `done`, which is returned.
    fn until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            match self.process.recv_line(deadline) {
                Ok(line) => {
                    self.log.push(format!("< {line}"));
                    if done(&line) {
                        return line;
                    }
                }
                Err(_) => panic!(
                    "{}: nothing expected within {timeout:?}; transcript:\n{}",
                    self.name,
                    self.log.join("\n")
                ),
            }
        }
    }

    /// XBoard's start-up: `xboard`, `protover 2`, the features up to `done=1`, then the
    /// new-game sequence of a Two Machines game.
    fn handshake(&mut self, level: &str) {
        self.send("xboard");
        self.send("protover 2");
        let mut variants = String::new();
        loop {
            let line = self.until(Duration::from_secs(10), |l| l.starts_with("feature"));
            if let Some(v) = line.split("variants=\"").nth(1) {
                variants = v.split('"').next().unwrap_or("").to_string();
            }
            if line.contains("done=1") {
                break;
            }
        }
        assert!(
            variants.split(',').any(|v| v == "5x5+5_shogi"),
            "{}: variants {variants:?}",
            self.name
        );
        for line in [
            "memory 16",
            "cores 1",
            "new",
            "variant 5x5+5_shogi",
            level,
            "post",
            "hard",
            "ping 1",
        ] {
            self.send(line);
        }
        self.until(Duration::from_secs(10), |l| l == "pong 1");
        self.send("force");
        self.send(&format!("setboard {START_FEN}"));
        self.send("computer");
    }

    /// Waits for the engine's `move`, skipping thinking output and hints.
    fn next_move(&mut self, timeout: Duration) -> String {
        let line = self.until(timeout, |l| {
            l.starts_with("move ") || l.starts_with("resign") || l.contains("Illegal")
        });
        line.strip_prefix("move ")
            .unwrap_or_else(|| panic!("{}: {line}\n{}", self.name, self.log.join("\n")))
            .trim()
            .to_string()
    }

    fn quit(mut self) {
        self.send("quit");
        if self.process.wait_exit(Duration::from_secs(5)).is_none() {
            self.process.kill();
        }
    }
}

fn result_text(outcome: &Outcome) -> &'static str {
    match outcome.winner() {
        Some(Color::Sente) => "1-0",
        Some(Color::Gote) => "0-1",
        None => "1/2-1/2",
    }
}

/// One game as XBoard runs it between two engines: the first plays White (Sente).
fn play_through_uci2wb(level: &str, max_plies: usize) -> (Game, usize) {
    let mut engines = [Cecp::start("first"), Cecp::start("second")];
    for e in engines.iter_mut() {
        e.handshake(level);
    }
    let mut game = Game::new(RuleSet::standard());
    let mut promotions_and_drops = 0;
    engines[0].send("white");
    engines[0].send("time 1000");
    engines[0].send("otim 1000");
    engines[0].send("go");
    let mut mover = 0;
    while game.outcome().is_none() && game.moves().len() < max_plies {
        let text = engines[mover].next_move(Duration::from_secs(30));
        let usi = move_to_usi(&text).unwrap_or_else(|| {
            panic!("ply {}: '{text}' is not an XBoard move", game.moves().len())
        });
        let legal = game.position().parse_move(&usi);
        let mv: Move = legal.unwrap_or_else(|e| {
            panic!(
                "ply {}: '{text}' ({usi}) in {}: {e}\n{}",
                game.moves().len(),
                game.position().to_sfen(),
                engines[mover].log.join("\n")
            )
        });
        if mv.is_drop() || mv.is_promotion() {
            promotions_and_drops += 1;
        }
        game.play(mv).unwrap();
        if game.outcome().is_some() {
            break;
        }
        // XBoard relays the move to the other engine, then asks it to move.
        let other = 1 - mover;
        engines[other].send("time 1000");
        engines[other].send("otim 1000");
        engines[other].send(&format!("usermove {}", move_to_xboard(&usi)));
        if game.moves().len() == 1 {
            engines[other].send("black");
            engines[other].send("go");
        }
        mover = other;
    }
    let result = game.outcome().map_or("*", |o| result_text(&o));
    for mut e in engines {
        e.send(&format!("result {result} {{game over}}"));
        e.quit();
    }
    (game, promotions_and_drops)
}

#[test]
fn coordinates_round_trip() {
    // Sente's first rank is XBoard's rank 1; file 5 is XBoard's file a.
    assert_eq!(move_to_usi("c1b2="), Some("3e4d".into()));
    assert_eq!(move_to_usi("e1e2"), Some("1e1d".into()));
    assert_eq!(move_to_usi("b4b5+"), Some("4b4a+".into()));
    assert_eq!(move_to_usi("G@d5"), Some("G*2a".into()));
    assert_eq!(move_to_usi("f1e2"), None);
    assert_eq!(move_to_usi("a1a2x"), None);
    for mv in Move::all() {
        let usi = mv.to_string();
        assert_eq!(move_to_usi(&move_to_xboard(&usi)), Some(usi));
    }
}

#[test]
#[ignore = "needs uci2wb: run scripts/xboard-e2e.sh"]
fn games_through_uci2wb() {
    // Two complete games at XBoard's classical control of 40 moves in 5 s (UCI2WB turns it
    // into `go btime .. wtime .. movestogo ..`), every move legal and the game ended by the
    // rules, not by a limit of ours.
    let mut special = 0;
    for _ in 0..2 {
        let (game, n) = play_through_uci2wb("level 40 0:05 0", 400);
        let outcome = game.outcome();
        assert!(
            outcome.is_some(),
            "no result after {} plies",
            game.moves().len()
        );
        assert!(game.moves().len() >= 10, "{:?}", game.moves());
        special += n;
    }
    // Drops and promotions happen in real games: they went through the conversion too.
    assert!(special > 0);
}

/// A SAN move as XBoard writes minishogi (`Sb2`, `Gdc3`, `+Rxd4`, `Bxb5+`, `G@d5#`), resolved
/// against the legal moves: exactly one must match.
fn resolve_san(pos: &Position, san: &str) -> Result<Move, String> {
    let text = san.trim_end_matches(['#', '!', '?']);
    let legal = pos.legal_moves();
    let matches: Vec<Move> = if let Some((piece, square)) = text.split_once('@') {
        let sq = square.as_bytes();
        let to = square_to_usi(sq[0], *sq.get(1).unwrap_or(&0)).ok_or(san.to_string())?;
        let usi = format!("{piece}*{to}");
        legal
            .iter()
            .copied()
            .filter(|m| m.to_string() == usi)
            .collect()
    } else {
        let (promoted_piece, rest) = match text.strip_prefix('+') {
            Some(r) => (true, r),
            None => (false, text),
        };
        let (promote, rest) = if let Some(r) = rest.strip_suffix('+') {
            (true, r)
        } else {
            (false, rest.strip_suffix('=').unwrap_or(rest))
        };
        let mut chars: Vec<u8> = rest.bytes().filter(|&c| c != b'x').collect();
        let letter = if chars.first().is_some_and(u8::is_ascii_uppercase) {
            chars.remove(0)
        } else {
            b'P'
        };
        if chars.len() < 2 {
            return Err(format!("{san}: no square"));
        }
        let to = square_to_usi(chars[chars.len() - 2], chars[chars.len() - 1])
            .ok_or(format!("{san}: bad square"))?;
        let hint = &chars[..chars.len() - 2];
        legal
            .iter()
            .copied()
            .filter(|m| {
                let s = m.to_string();
                let Some(from) = m.from() else { return false };
                let piece = pos.piece_at(from).expect("a board move starts on a piece");
                let base = piece.kind.unpromote().base_letter().to_ascii_uppercase() as u8;
                let from_xb = square_to_xboard(&s.as_bytes()[0..2]);
                s[2..4] == to
                    && base == letter
                    && piece.kind.is_promoted() == promoted_piece
                    && m.is_promotion() == promote
                    && hint.iter().all(|h| from_xb.as_bytes().contains(h))
            })
            .collect()
    };
    match matches.as_slice() {
        [one] => Ok(*one),
        [] => Err(format!("{san}: no legal move matches in {}", pos.to_sfen())),
        many => Err(format!("{san}: ambiguous {many:?}")),
    }
}

#[test]
fn san_as_xboard_writes_it() {
    let start = Position::startpos();
    assert_eq!(resolve_san(&start, "Sb2").unwrap().to_string(), "3e4d");
    assert!(resolve_san(&start, "Sb3").is_err());
    let pos = start.played("3e4d".parse().unwrap());
    assert_eq!(resolve_san(&pos, "Sb4").unwrap().to_string(), "3a4b");
    // A capture that may promote, and a drop.
    let pos = Position::from_sfen("rbsgk/5/3B1/P4/KG1R1 b S 1").unwrap();
    assert_eq!(resolve_san(&pos, "Bxb5+").unwrap().to_string(), "2c4a+");
    assert_eq!(resolve_san(&pos, "Bxb5").unwrap().to_string(), "2c4a");
    assert_eq!(resolve_san(&pos, "S@c3").unwrap().to_string(), "S*3c");
    assert!(resolve_san(&pos, "B@c3").is_err());
    // A promoted piece is written with a leading '+'.
    let pos = pos.played("2c4a+".parse().unwrap());
    let pos = pos.played("3a3b".parse().unwrap());
    assert_eq!(resolve_san(&pos, "+Bb4").unwrap().to_string(), "4a4b");
    assert!(resolve_san(&pos, "Bb4").is_err());
}

/// The games of an XBoard PGN file: (result, SAN moves).
fn read_pgn(text: &str) -> Vec<(String, Vec<String>)> {
    let mut games = Vec::new();
    for chunk in text.split("[Event ").skip(1) {
        let result = chunk
            .lines()
            .find_map(|l| l.strip_prefix("[Result \""))
            .and_then(|r| r.split('"').next())
            .unwrap_or("*")
            .to_string();
        let body: String = chunk
            .lines()
            .skip(1) // the rest of the Event tag
            .filter(|l| !l.starts_with('['))
            .collect::<Vec<_>>()
            .join(" ");
        // Drop comments (the board diagram, scores) and move numbers.
        let mut plain = String::new();
        let mut depth = 0;
        for c in body.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ if depth == 0 => plain.push(c),
                _ => {}
            }
        }
        let moves = plain
            .split_whitespace()
            .filter(|w| !w.ends_with('.') && !["1-0", "0-1", "1/2-1/2", "*"].contains(w))
            .map(str::to_string)
            .collect();
        games.push((result, moves));
    }
    games
}

#[test]
fn pgn_as_xboard_saves_it() {
    let text = "[Event \"Computer Chess Game\"]\n[Result \"0-1\"]\n[FEN \"rbsgk/4p/5/P4/KGSBR[-] w 0 1\"]\n\n\
                {--------------\nr b s g k\nwhite to play\n--------------}\n\
                1. Sb2 {+0.27/14} Sb4 {+0.58/16 1.5} 2. Bc2\n{-1.04/17 0.6} G@d4 0-1\n\n\
                [Event \"Computer Chess Game\"]\n[Result \"1-0\"]\n\n1. Sb2 1-0\n";
    let games = read_pgn(text);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].0, "0-1");
    assert_eq!(games[0].1, ["Sb2", "Sb4", "Bc2", "G@d4"]);
    assert_eq!(games[1], ("1-0".to_string(), vec!["Sb2".to_string()]));
}

#[test]
#[ignore = "needs xboard, uci2wb and xvfb-run: run scripts/xboard-e2e.sh"]
fn xboard_plays_engine_against_engine() {
    let dir = std::env::temp_dir().join(format!("gogo-xboard-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fen = dir.join("minishogi.fen");
    std::fs::write(&fen, format!("{START_FEN}\n")).unwrap();
    let pgn = dir.join("games.pgn");
    let engine = format!("{} -s {}", uci2wb(), gogo().display());
    let xboard = program("XBOARD", "xboard");
    // A private HOME: no settings of the user's (~/.xboardrc) change what XBoard saves.
    let status = Command::new("xvfb-run")
        .env("HOME", &dir)
        .args(["-a", &xboard])
        .args(["-variant", "shogi", "-boardWidth", "5", "-boardHeight", "5"])
        .args(["-holdingsSize", "5", "-pieceToCharTable", PIECE_TABLE])
        .arg("-lpf")
        .arg(&fen)
        .args(["-fcp", &engine, "-scp", &engine])
        // An increment: a long game at sudden death is lost on time by whoever moves
        // slower at the end, whatever it does (XBoard and UCI2WB take time of their own).
        .args(["-matchGames", "2", "-tc", "0:10", "-inc", "0.3"])
        .args(["-popupExitMessage", "false", "-autoCallFlag", "true"])
        .args(["-oldSaveStyle", "false", "-saveSettingsOnExit", "false"])
        .arg("-sgf")
        .arg(&pgn)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("xvfb-run and xboard run (scripts/xboard-e2e.sh installs them)");
    assert!(status.success(), "{status}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games = read_pgn(&text);
    assert_eq!(games.len(), 2, "{text}");
    for (result, moves) in games {
        let mut game = Game::new(RuleSet::standard());
        for san in &moves {
            let mv = resolve_san(game.position(), san)
                .unwrap_or_else(|e| panic!("ply {}: {e}\n{text}", game.moves().len()));
            game.play(mv).unwrap();
        }
        let outcome = game
            .outcome()
            .unwrap_or_else(|| panic!("XBoard ended a game the rules have not: {moves:?}"));
        assert_eq!(result, result_text(&outcome), "{moves:?}");
    }
}
