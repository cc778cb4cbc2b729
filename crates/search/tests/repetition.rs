//! Repetition in the search as strong engines handle it: a repetition inside the searched
//! line is scored at once, but a position whose earlier occurrences all came before the root
//! decides the game only when the game's own count reaches the fourth occurrence.

use gogo_rules::{Game, Move, Position, RuleSet};
use gogo_search::value::{DRAW, MATE_IN_MAX_PLY, MAX_EVAL, REPETITION_WIN};
use gogo_search::{
    GameHistory, SearchControl, SearchInfo, SearchJob, SearchLimits, SearchOptions, SearchResult,
    Searcher,
};

/// Searches the game's current position with the game as its history, every root move
/// reported (MultiPV over all of them).
fn search(game: &Game, depth: i32) -> SearchResult {
    let root = game.position().clone();
    let job = SearchJob {
        root: root.clone(),
        history: GameHistory::from_positions(game.positions()),
        limits: SearchLimits {
            depth: Some(depth),
            ..Default::default()
        },
        options: SearchOptions {
            rules: *game.rules(),
            multipv: root.legal_moves().len(),
            ..Default::default()
        },
    };
    let searcher = Searcher::new(16).unwrap();
    searcher
        .context()
        .search(&job, &SearchControl::new(false), &|_: SearchInfo| {})
}

fn score_of(result: &SearchResult, pos: &Position, usi: &str) -> i32 {
    let mv: Move = pos.parse_move(usi).unwrap();
    result
        .lines
        .iter()
        .find(|(m, _)| *m == mv)
        .unwrap_or_else(|| panic!("{usi} not among {:?}", result.lines))
        .1
}

/// The position of hardening issue 33: Gote, in check, can take the rook and return to the
/// position after ply 20, which has occurred once; Sente then mates at once (4a2c).
const TAKES_BACK_TO_A_SECOND_OCCURRENCE: &str = "startpos moves 2e3d 4a1d 1e1d 5a4a 3d2c 1b1c \
     1d1c 1a2b 2c4a+ 2a1b 1c2c 1b2c P*2d 2c3c R*1d 3c4d 3e4d R*1c 1d1c 2b1c R*1a R*1b 1a1b+ \
     1c1b R*1d R*1c 1d1c";

#[test]
fn a_second_occurrence_from_before_the_root_is_not_a_win() {
    let with_history = Game::from_usi(RuleSet::standard(), TAKES_BACK_TO_A_SECOND_OCCURRENCE)
        .expect("a legal game");
    let pos = with_history.position().clone();
    assert!(pos.in_check());
    let bare = Game::from_position(RuleSet::standard(), pos.clone());
    for game in [&with_history, &bare] {
        let result = search(game, 8);
        // Gote is mated whatever it does: 1b2a is the longest defence (mate in 2 plies).
        assert!(
            result.score <= -MATE_IN_MAX_PLY,
            "score {} with {} earlier positions",
            result.score,
            game.positions().len() - 1
        );
        assert_eq!(result.best, Some(pos.parse_move("1b2a").unwrap()));
        // Taking the rook is no repetition win: Sente mates after it.
        assert!(score_of(&result, &pos, "1b1c") <= -MATE_IN_MAX_PLY);
    }
}

/// From the standard or kawu start, golds shuffle (Sente 4e4d, Gote 2a2b and back) until
/// Gote is to move with 2b2a leading to the start position's `occurrence`-th occurrence.
fn shuffled(rules: RuleSet, occurrence: usize) -> Game {
    let mut game = Game::new(rules);
    let cycle = ["4e4d", "2a2b", "4d4e", "2b2a"];
    for mv in cycle.iter().cycle().take(4 * (occurrence - 1) - 1) {
        game.play_usi(mv).unwrap();
    }
    assert_eq!(game.outcome(), None);
    game
}

#[test]
fn the_fourth_occurrence_gets_the_rules_verdict() {
    // Standard: the fourth occurrence loses for Sente, so Gote repeats and wins.
    let game = shuffled(RuleSet::standard(), 4);
    let result = search(&game, 6);
    let pos = game.position();
    let repeat = score_of(&result, pos, "2b2a");
    assert!(
        (REPETITION_WIN - 10..=REPETITION_WIN).contains(&repeat),
        "{repeat}"
    );
    assert_eq!(result.best, Some(pos.parse_move("2b2a").unwrap()));
    // Kawu: the fourth occurrence is a draw.
    let game = shuffled(RuleSet::kawu(), 4);
    let result = search(&game, 6);
    assert_eq!(score_of(&result, game.position(), "2b2a"), DRAW);
}

#[test]
fn a_third_occurrence_is_searched_on() {
    for rules in [RuleSet::standard(), RuleSet::kawu()] {
        let game = shuffled(rules, 3);
        let result = search(&game, 6);
        let pos = game.position();
        let repeat = score_of(&result, pos, "2b2a");
        // An ordinary evaluation: neither the repetition win nor an exact draw by rule
        // (the search goes on past it, where the position can repeat inside the line).
        assert!(repeat.abs() < MAX_EVAL, "{}: {repeat}", rules.name());
        assert!(result.score.abs() < MAX_EVAL, "{}", result.score);
    }
}
