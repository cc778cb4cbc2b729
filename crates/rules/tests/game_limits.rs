//! One cap for every road into a game: USI text, SFEN and moves, KIF, CSA and moves played
//! one by one all stop at [`MAX_GAME_MOVES`] with the same error, and a game that long is
//! judged in linear time.

use gogo_rules::csa::{read_csa, write_csa};
use gogo_rules::game::same_position;
use gogo_rules::kif::{read_kif, write_kif, KifInfo};
use gogo_rules::{
    parse_usi_position, Game, GameError, Move, Outcome, Position, RecordError, Rng, RuleSet,
    SfenError, TooManyMoves, WinReason, MAX_GAME_MOVES,
};

/// A legal game of exactly `MAX_GAME_MOVES` moves that the rules have not ended, and a legal
/// move after it.
fn longest_game() -> (Game, Move) {
    let game = Rng::new(33).unending_game(RuleSet::standard(), MAX_GAME_MOVES);
    assert_eq!(game.moves().len(), MAX_GAME_MOVES);
    assert_eq!(game.outcome(), None);
    let next = game.position().legal_moves().as_slice()[0];
    (game, next)
}

fn usi_text(moves: &[Move]) -> String {
    let words: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    format!("startpos moves {}", words.join(" "))
}

#[test]
fn every_road_stops_at_the_same_cap() {
    let (game, next) = longest_game();
    let moves = game.moves().to_vec();
    let mut one_more = moves.clone();
    one_more.push(next);
    let expected = TooManyMoves.to_string();

    // Moves played one by one.
    let mut played = game.clone();
    let refused = played.play(next).unwrap_err();
    assert_eq!(refused, GameError::TooManyMoves(TooManyMoves));
    assert_eq!(refused.to_string(), expected);
    assert_eq!(played.moves().len(), MAX_GAME_MOVES, "nothing changed");

    // USI text, through the parser and through `Game`.
    let (_, parsed) = parse_usi_position(&usi_text(&moves)).unwrap();
    assert_eq!(parsed.len(), MAX_GAME_MOVES);
    let refused = parse_usi_position(&usi_text(&one_more)).unwrap_err();
    assert_eq!(refused, SfenError::TooManyMoves(TooManyMoves));
    assert_eq!(refused.to_string(), expected);
    let rules = RuleSet::standard();
    assert_eq!(
        Game::from_usi(rules, &usi_text(&moves)).unwrap().moves(),
        &moves[..]
    );
    assert_eq!(
        Game::from_usi(rules, &usi_text(&one_more)).unwrap_err(),
        SfenError::TooManyMoves(TooManyMoves)
    );
    // The cap is counted before any move is read: junk past it is refused the same way.
    let junk = format!("startpos moves {}", "xx ".repeat(MAX_GAME_MOVES + 1));
    assert_eq!(
        parse_usi_position(&junk).unwrap_err(),
        SfenError::TooManyMoves(TooManyMoves)
    );

    // KIF and CSA: the longest game reads back, one move more is refused.
    let start = game.start().clone();
    let info = KifInfo::default();
    assert_eq!(
        read_kif(&write_kif(&start, &moves, &info)).unwrap().1,
        moves
    );
    let kif = write_kif(&start, &one_more, &info);
    let refused = read_kif(&kif).unwrap_err();
    assert_eq!(refused, RecordError::TooManyMoves(TooManyMoves));
    assert!(refused.to_string().ends_with(&expected), "{refused}");
    assert_eq!(
        read_csa(&write_csa(&start, &moves, "a", "b", None))
            .unwrap()
            .1,
        moves
    );
    let refused = read_csa(&write_csa(&start, &one_more, "a", "b", None)).unwrap_err();
    assert_eq!(refused, RecordError::TooManyMoves(TooManyMoves));
}

/// The move that takes a board move back, when it is legal in `pos`.
fn reverse(pos: &Position, mv: Move) -> Option<Move> {
    let from = mv.from()?;
    if mv.is_promotion() {
        return None;
    }
    pos.parse_move(&format!("{}{}", mv.to(), from))
        .ok()
        .filter(|&m| pos.is_legal(m) && !m.is_promotion())
}

/// Two quiet board moves and their reverses, a cycle back to `pos`.
fn shuffle(pos: &Position) -> Option<[Move; 4]> {
    let quiet = |p: &Position| -> Vec<Move> {
        p.legal_moves()
            .iter()
            .copied()
            .filter(|&m| m.from().is_some() && !p.is_capture(m) && !m.is_promotion())
            .collect()
    };
    for a in quiet(pos) {
        let p1 = pos.played(a);
        for b in quiet(&p1) {
            let p2 = p1.played(b);
            let Some(ra) = reverse(&p2, a) else { continue };
            let p3 = p2.played(ra);
            let Some(rb) = reverse(&p3, b) else { continue };
            if same_position(&p3.played(rb), pos) {
                return Some([a, b, ra, rb]);
            }
        }
    }
    None
}

/// The occurrence index counts as a scan of the whole game would, and still finds the
/// fourth occurrence at the end of a long game.
#[test]
fn repetitions_are_counted_exactly_in_a_long_game() {
    let long = Rng::new(34).unending_game(RuleSet::standard(), MAX_GAME_MOVES - 100);
    let mut replay = Game::from_position(RuleSet::standard(), long.start().clone());
    for (ply, &mv) in long.moves().iter().enumerate() {
        replay.play(mv).unwrap();
        if ply % 97 == 0 {
            gogo_rules::fuzz_checks::check_repetition_count(&replay);
        }
    }
    // Shuffle from the end of the long game until the rules end it.
    let mut plies = 0;
    while replay.outcome().is_none() {
        let cycle = shuffle(replay.position()).expect("a quiet shuffle");
        for mv in cycle {
            replay.play(mv).unwrap();
            plies += 1;
            if replay.outcome().is_some() {
                break;
            }
        }
        assert!(plies <= 12, "no fourth occurrence after {plies} plies");
    }
    assert_eq!(replay.repetitions(), 4);
    assert!(
        matches!(
            replay.outcome(),
            Some(Outcome::Win {
                reason: WinReason::Repetition | WinReason::PerpetualCheck,
                ..
            }) | Some(Outcome::Draw { .. })
        ),
        "{:?}",
        replay.outcome()
    );
}
