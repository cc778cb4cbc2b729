//! Strength levels on the built binary: every level plays legal moves, quickly, from
//! positions of every kind; analysis stays at full strength.

mod common;

use common::{secs, Gogo};
use gogo_rules::{Position, Rng};

#[test]
fn every_level_plays_legal_moves() {
    let mut rng = Rng::new(19);
    let mut positions = vec![Position::startpos()];
    for plies in [6, 14, 30] {
        let moves = rng.random_game(&Position::startpos(), plies);
        positions.push(moves.iter().fold(Position::startpos(), |p, &m| p.played(m)));
    }
    positions.retain(|p| !p.legal_moves().is_empty());
    let mut e = Gogo::start();
    e.handshake();
    for level in 1..=10 {
        e.send(&format!("setoption name Level value {level}"));
        for pos in &positions {
            e.send(&format!("position sfen {}", pos.to_sfen()));
            e.send("go btime 2000 wtime 2000 byoyomi 200");
            e.bestmove_in(pos, secs(10));
        }
    }
    // Analysis at a level is still full strength: one line unless asked, no node cap.
    e.send("setoption name Level value 1");
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(std::time::Duration::from_millis(300));
    e.send("stop");
    let (_, lines) = e.bestmove_in(&Position::startpos(), secs(5));
    let deepest = lines
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .filter_map(|l| l.split(' ').next()?.parse::<u32>().ok())
        .max()
        .unwrap_or(0);
    assert!(deepest > 3, "{lines:?}");
    assert!(lines.iter().all(|l| !l.contains("multipv 2")), "{lines:?}");
    e.send("setoption name Level value 11");
    e.expect(
        "info string error: Level must be a whole number from 0 to 10",
        secs(5),
    );
}
