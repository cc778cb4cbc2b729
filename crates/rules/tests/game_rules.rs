//! Every game-end rule, each shown with a real move sequence.

mod common;

use common::Rng;
use gogo_rules::{Color, DrawReason, Game, GameError, Outcome, Position, RuleSet, WinReason};

fn game(rules: RuleSet, sfen: &str) -> Game {
    Game::from_position(rules, Position::from_sfen(sfen).unwrap())
}

/// Plays `moves`; the game must not end before the last one.
fn play_all(game: &mut Game, moves: &str) {
    let moves: Vec<&str> = moves.split_whitespace().collect();
    for (i, mv) in moves.iter().enumerate() {
        assert_eq!(game.outcome(), None, "ended before move {} ({mv})", i + 1);
        game.play_usi(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
}

#[test]
fn checkmate() {
    // The gold drop on 5b is protected by the gold on 4c; the silver covers 4a.
    let mut g = game(RuleSet::standard(), "k4/2S2/1G3/5/4K b G 1");
    play_all(&mut g, "G*5b");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::Sente,
            reason: WinReason::Checkmate
        })
    );
    assert_eq!(
        g.play_usi("5a4a"),
        Err(GameError::Over(g.outcome().unwrap()))
    );
}

#[test]
fn no_legal_moves_loses() {
    // After 4d4c Gote's lone king is not in check but every square it could go to is covered.
    let mut g = game(RuleSet::standard(), "k4/2S2/5/1G3/4K b - 1");
    play_all(&mut g, "4d4c");
    assert!(!g.position().in_check());
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::Sente,
            reason: WinReason::NoLegalMoves
        })
    );
}

/// Both rooks shuffle: the start position occurs for the fourth time after 12 plies.
const ROOK_SHUFFLE: &str = "1e1d 5a5b 1d1e 5b5a 1e1d 5a5b 1d1e 5b5a 1e1d 5a5b 1d1e";

#[test]
fn fourfold_repetition_standard_sente_loses() {
    let mut g = Game::new(RuleSet::standard());
    play_all(&mut g, ROOK_SHUFFLE);
    assert_eq!(g.repetitions(), 3); // the position after 1e1d, for the third time
    play_all(&mut g, "5b5a");
    assert_eq!(g.repetitions(), 4);
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::Gote,
            reason: WinReason::Repetition
        })
    );
}

#[test]
fn fourfold_repetition_kawu_is_a_draw() {
    let mut g = Game::new(RuleSet::kawu());
    assert_eq!(g.position().to_sfen(), "rbsgk/p4/5/4P/KGSBR b - 1");
    play_all(
        &mut g,
        "5e5d 1a1b 5d5e 1b1a 5e5d 1a1b 5d5e 1b1a 5e5d 1a1b 5d5e",
    );
    play_all(&mut g, "1b1a");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::Repetition
        })
    );
}

#[test]
fn same_board_different_hands_is_not_a_repetition() {
    // Sente and Gote trade gold drops and captures, so hands differ between the visits.
    let g = Game::new(RuleSet::standard());
    let p = g.position();
    let mut other = Position::from_sfen("rbsgk/4p/5/P4/KGSBR b - 1").unwrap();
    assert_eq!(p.key(), other.key());
    other = Position::from_sfen("rbsgk/4p/5/P4/KGSBR w - 1").unwrap();
    assert_ne!(p.key(), other.key());
    assert_eq!(p.hand_key() ^ p.board_key(), p.key());
    let a = Position::from_sfen("k4/5/5/5/4K b G 1").unwrap();
    let b = Position::from_sfen("k4/5/5/5/4K b g 1").unwrap();
    assert_eq!(a.board_key(), b.board_key());
    assert_ne!(a.key(), b.key());
}

#[test]
fn perpetual_check_by_sente_loses() {
    // The rook checks from 3a and 3b in turn; the king steps between 1a and 1b.
    let mut g = game(RuleSet::standard(), "4k/5/2R2/5/K4 b - 1");
    // The position after 3c3a occurs at plies 1, 5, 9 and 13.
    play_all(
        &mut g,
        "3c3a 1a1b 3a3b 1b1a 3b3a 1a1b 3a3b 1b1a 3b3a 1a1b 3a3b 1b1a",
    );
    play_all(&mut g, "3b3a");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::Gote,
            reason: WinReason::PerpetualCheck
        })
    );
}

#[test]
fn perpetual_check_by_gote_loses() {
    // Without the check rule this fourfold repetition would lose for Sente.
    let mut g = game(RuleSet::standard(), "4k/5/2r2/5/K4 w - 1");
    play_all(
        &mut g,
        "3c3e 5e5d 3e3d 5d5e 3d3e 5e5d 3e3d 5d5e 3d3e 5e5d 3e3d 5d5e",
    );
    play_all(&mut g, "3d3e");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::Sente,
            reason: WinReason::PerpetualCheck
        })
    );
}

#[test]
fn checks_that_stop_do_not_make_a_perpetual() {
    // Sente checks, then plays one quiet move inside the cycle: an ordinary repetition.
    let mut g = game(RuleSet::standard(), "4k/5/2R2/5/K4 b - 1");
    // Sente alternates a check (3c3a) and a quiet move (3a3c): the start recurs at plies
    // 4, 8 and 12.
    play_all(
        &mut g,
        "3c3a 1a1b 3a3c 1b1a 3c3a 1a1b 3a3c 1b1a 3c3a 1a1b 3a3c",
    );
    play_all(&mut g, "1b1a");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::Gote,
            reason: WinReason::Repetition
        })
    );
}

#[test]
fn ply_limit_draws() {
    let rules = RuleSet::standard().with_max_plies(Some(6));
    let mut g = Game::new(rules);
    play_all(&mut g, "1e1d 5a5b 1d1c 5b5c 1c1d");
    play_all(&mut g, "1b1c");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::PlyLimit
        })
    );
    // No limit: the same moves leave the game running.
    let mut g = Game::new(RuleSet::standard());
    play_all(&mut g, "1e1d 5a5b 1d1c 5b5c 1c1d 1b1c");
    assert_eq!(g.outcome(), None);
}

#[test]
fn kawu_draws_at_300_plies() {
    // Random games from the kawu start until one lasts 300 plies with no other ending.
    let mut rng = Rng::new(300);
    for _attempt in 0..200 {
        let mut g = Game::new(RuleSet::kawu());
        while g.outcome().is_none() && g.moves().len() < 300 {
            let moves = g.position().legal_moves();
            let mv = moves.as_slice()[rng.below(moves.len())];
            if g.moves().len() == 299 {
                // The last ply must not end the game in another way.
                let mut trial = g.clone();
                trial.play(mv).unwrap();
                if matches!(trial.outcome(), Some(Outcome::Win { .. }))
                    || trial.outcome()
                        == Some(Outcome::Draw {
                            reason: DrawReason::Repetition,
                        })
                {
                    break;
                }
            }
            g.play(mv).unwrap();
        }
        if g.moves().len() == 300 {
            assert_eq!(
                g.outcome(),
                Some(Outcome::Draw {
                    reason: DrawReason::PlyLimit
                })
            );
            return;
        }
    }
    panic!("no random game reached 300 plies");
}

#[test]
fn games_from_usi_text() {
    let g = Game::from_usi(RuleSet::standard(), "startpos moves 1e1d 5a5b").unwrap();
    assert_eq!(g.moves().len(), 2);
    assert_eq!(g.position().move_number(), 3);
    assert!(Game::from_usi(RuleSet::standard(), "startpos moves 1e1d 1e1d").is_err());
    // Moves after the game ended are refused.
    assert!(Game::from_usi(
        RuleSet::standard(),
        "sfen k4/2S2/1G3/5/4K b G 1 moves G*5b 5a4a"
    )
    .is_err());
    assert_eq!("kawu".parse::<RuleSet>(), Ok(RuleSet::kawu()));
    assert!("chess".parse::<RuleSet>().is_err());
}
