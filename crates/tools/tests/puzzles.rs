//! `gogo puzzles`: the generator finds known mates and tactics and refuses positions with two
//! winning moves; the checker catches a planted ambiguous puzzle; game files are read.

use gogo_puzzle::{Puzzle, Theme};
use gogo_rules::{Move, Position};
use gogo_tools::games::{GameFileError, GameLineProblem};
use gogo_tools::puzzles::run::{run_rate, RateRun};
use gogo_tools::puzzles::{
    check, examine, generate, rate, Analyst, CheckFailure, PuzzleConfig, SourceGame,
};

fn config() -> PuzzleConfig {
    PuzzleConfig {
        screen_nodes: 20_000,
        verify_nodes: 100_000,
        tries: 2,
        skip_plies: 0,
    }
}

fn analyst() -> Analyst {
    Analyst::with_default_evaluation().unwrap()
}

fn found(sfen: &str) -> Option<Puzzle> {
    let pos = Position::from_sfen(sfen).unwrap();
    examine(&mut analyst(), &pos, None, "test", &config())
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

/// A gold beside the king's corner and one in hand: G*4b is the only mate.
const MATE_IN_1: &str = "k4/5/2G2/5/4K b G 1";
/// A rook and a gold in hand beside the king: several drops mate.
const TWO_MATES: &str = "k4/5/1G3/5/4K b RG 1";
/// Gote's rook hangs to the bishop, and only to it. Gote's pawn in hand makes every other
/// move lose: without it the king's step scored near even at 100,000 nodes, on the edge of
/// what a one-move tactic allows for the second move, and a change of search values moved it
/// over.
const HANGING_ROOK: &str = "k4/5/2r2/5/B3K b p 1";
/// The same rook hangs to the bishop and to a gold.
const ROOK_TAKEN_TWO_WAYS: &str = "k4/5/2r2/2G2/B3K b p 1";

#[test]
fn the_only_mate_is_a_puzzle_with_its_themes() {
    let puzzle = found(MATE_IN_1).expect("a mate in one");
    assert_eq!(puzzle.solution(), [mv("G*4b")]);
    for theme in [Theme::MateIn1, Theme::DropMate, Theme::Tsume] {
        assert!(puzzle.themes().contains(&theme), "{:?}", puzzle.themes());
    }
    // It reads back from its line, and the check passes it.
    let again: Puzzle = puzzle.to_line().parse().unwrap();
    assert_eq!(again, puzzle);
    assert_eq!(check(&mut analyst(), &puzzle, 200_000), Ok(()));
    // Levels that see mates solve it: it is rated low.
    assert!(puzzle.rating() <= 1100, "{}", puzzle.rating());
}

#[test]
fn two_mates_or_two_ways_to_win_are_no_puzzle() {
    assert_eq!(found(TWO_MATES), None);
    assert_eq!(found(ROOK_TAKEN_TWO_WAYS), None);
}

#[test]
fn a_hanging_rook_is_a_tactic_that_wins_a_rook() {
    let puzzle = found(HANGING_ROOK).expect("a tactic");
    assert_eq!(puzzle.solution()[0], mv("5e3c"));
    assert!(
        puzzle
            .themes()
            .contains(&Theme::Material(gogo_rules::PieceKind::Rook)),
        "{:?}",
        puzzle.themes()
    );
    assert!(!puzzle.is_mate());
    assert_eq!(check(&mut analyst(), &puzzle, 200_000), Ok(()));
}

#[test]
fn the_checker_catches_planted_puzzles() {
    let mut analyst = analyst();
    // A mate in one with another mate beside it.
    let pos = Position::from_sfen(TWO_MATES).unwrap();
    let mate = pos
        .legal_moves()
        .iter()
        .copied()
        .find(|&m| pos.played(m).legal_moves().is_empty())
        .unwrap();
    let ambiguous = Puzzle::new(
        "planted",
        pos,
        vec![mate],
        vec![Theme::MateIn1],
        1000,
        "test",
    )
    .unwrap();
    assert!(matches!(
        check(&mut analyst, &ambiguous, 200_000),
        Err(CheckFailure::Ambiguous(_))
    ));
    // A tactic whose move is not the winning one.
    let pos = Position::from_sfen(HANGING_ROOK).unwrap();
    let wrong = Puzzle::new(
        "planted",
        pos,
        vec![mv("1e2d")],
        vec![Theme::Material(gogo_rules::PieceKind::Rook)],
        1000,
        "test",
    )
    .unwrap();
    assert_eq!(
        check(&mut analyst, &wrong, 200_000),
        Err(CheckFailure::Ambiguous("5e3c".into()))
    );
    // A mate whose themes give the wrong length.
    let mate_in_1 = found(MATE_IN_1).unwrap();
    let long = Puzzle::new(
        mate_in_1.id(),
        mate_in_1.position().clone(),
        mate_in_1.solution().to_vec(),
        vec![Theme::MateIn3],
        mate_in_1.rating(),
        mate_in_1.source(),
    )
    .unwrap();
    assert_eq!(
        check(&mut analyst, &long, 200_000),
        Err(CheckFailure::MateLength)
    );
}

/// A shipped tsume, mate in nine plies, that the check's search at 800,000 nodes stopped
/// finding with the cutoffCnt reduction (bench 2614908).
const LONG_TSUME: &str = "8e452143213e\t1p2k/1s1rp/3S1/1K3/2GBR b BG 21\t2c2b 1a2b R*2c 2b2c 2e1d 2c2b G*3b 2b1a B*2b\tmate-in-7-plus,drop-mate,tsume,long-line\t1550\tselfplay-s2026-g30:20";

#[test]
fn a_proven_tsume_stands_where_the_search_does_not_see_the_mate() {
    let puzzle: Puzzle = LONG_TSUME.parse().unwrap();
    let mut analyst = analyst();
    // At a thousand nodes the search finds no mate at all...
    let lines = analyst.lines(puzzle.position(), 1_000, 2);
    assert!(
        lines[0].1 < gogo_search::value::MATE_IN_MAX_PLY,
        "{lines:?}"
    );
    // ...and the exhaustive search's proof stands.
    assert_eq!(check(&mut analyst, &puzzle, 1_000), Ok(()));
    // The same mate as a mate puzzle without the tsume theme is not proven: the search decides.
    let unproven = Puzzle::new(
        puzzle.id(),
        puzzle.position().clone(),
        puzzle.solution().to_vec(),
        vec![Theme::mate_in(9), Theme::LongLine],
        puzzle.rating(),
        puzzle.source(),
    )
    .unwrap();
    assert_eq!(
        check(&mut analyst, &unproven, 1_000),
        Err(CheckFailure::MateLength)
    );
}

#[test]
fn a_tsume_with_a_second_mating_check_is_ambiguous_whatever_the_nodes() {
    // Two drops mate (TWO_MATES): the exhaustive search finds the second without a search.
    let pos = Position::from_sfen(TWO_MATES).unwrap();
    let mates: Vec<Move> = gogo_mate::brute::mating_checks(&pos, 1);
    assert!(mates.len() >= 2, "{mates:?}");
    let planted = Puzzle::new(
        "planted",
        pos,
        vec![mates[0]],
        vec![Theme::MateIn1, Theme::Tsume],
        1000,
        "test",
    )
    .unwrap();
    assert_eq!(
        check(&mut analyst(), &planted, 1),
        Err(CheckFailure::Ambiguous(mates[1].to_string()))
    );
}

#[test]
fn a_game_is_looked_through_and_each_position_once() {
    // The hanging rook arises when Gote's rook steps to 3c; Sente takes it, Gote's king
    // steps out of the bishop's check.
    let start = Position::from_sfen("k4/5/5/2r2/B3K w p 1").unwrap();
    let moves: Vec<Move> = ["3d3c", "5e3c", "5a4a"].iter().map(|t| mv(t)).collect();
    let game = SourceGame {
        name: "fixture".into(),
        start,
        moves,
        result: None,
    };
    let mut looked = std::collections::HashSet::new();
    let mut puzzles = Vec::new();
    let mut analyst = analyst();
    generate(
        &mut analyst,
        &game,
        &config(),
        &mut |key| looked.insert(key),
        &mut |p| puzzles.push(p),
    );
    assert_eq!(looked.len(), 3);
    assert!(
        puzzles
            .iter()
            .any(|p| p.source() == "fixture:1" && p.solution()[0] == mv("5e3c")),
        "{puzzles:?}"
    );
    // Seen positions are not looked at again.
    let mut again = Vec::new();
    generate(
        &mut analyst,
        &game,
        &config(),
        &mut |key| looked.insert(key),
        &mut |p| again.push(p),
    );
    assert!(again.is_empty());
}

#[test]
fn game_files_are_read_and_bad_ones_refused() {
    let dir = std::env::temp_dir().join(format!("gogo-puzzle-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let jsonl = dir.join("games.jsonl");
    std::fs::write(
        &jsonl,
        "{\"start\":\"rbsgk/4p/5/P4/KGSBR b - 1\",\"moves\":[\"2e3d\",\"4a3b\"]}\n\n",
    )
    .unwrap();
    let games = gogo_tools::puzzles::read_games(&jsonl).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].moves.len(), 2);
    assert_eq!(games[0].name, "games#1");
    std::fs::write(
        &jsonl,
        "{\"start\":\"rbsgk/4p/5/P4/KGSBR b - 1\",\"moves\":[\"2e2a\"]}\n",
    )
    .unwrap();
    let error = gogo_tools::puzzles::read_games(&jsonl).unwrap_err();
    assert!(
        matches!(
            &error,
            GameFileError::Line {
                line: 1,
                problem: GameLineProblem::Position(_),
                ..
            }
        ),
        "{error:?}"
    );
    assert!(
        error.to_string().contains("games.jsonl: line 1: "),
        "{error}"
    );
    let other = dir.join("games.txt");
    std::fs::write(&other, "x").unwrap();
    let error = gogo_tools::puzzles::read_games(&other).unwrap_err();
    assert!(matches!(error, GameFileError::NotAGameFile(_)), "{error:?}");
    assert!(error.to_string().contains("not a game file"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The shipped set, a sample: every puzzle of it reads (the puzzle crate's test), and a
/// spread sample passes the checker's deeper search here; `scripts/puzzles.sh check` checks
/// them all.
#[test]
fn a_sample_of_the_shipped_set_passes_the_check() {
    let set = gogo_puzzle::set::shipped();
    assert!(set.len() >= 2000, "{} puzzles", set.len());
    let mut analyst = analyst();
    let step = set.len() / 12;
    for puzzle in set.iter().step_by(step) {
        assert_eq!(
            check(&mut analyst, puzzle, 800_000),
            Ok(()),
            "{}",
            puzzle.to_line()
        );
    }
}

/// The shipped set's ratings come from gogo's levels as they are: a spread sample rated again
/// gets the rating it ships with. A change to the levels (or to the network they search with)
/// that moves a puzzle fails here until the set is rated again (`gogo puzzles rate`).
#[test]
fn the_shipped_set_is_rated_by_the_levels_as_they_are() {
    let set = gogo_puzzle::set::shipped();
    let mut analyst = analyst();
    let moved: Vec<String> = set
        .iter()
        .step_by(set.len() / 60)
        .filter_map(|puzzle| {
            let now = rate(&mut analyst, puzzle, 3);
            (now != puzzle.rating())
                .then(|| format!("{} {} -> {now}", puzzle.id(), puzzle.rating()))
        })
        .collect();
    assert!(moved.is_empty(), "rated otherwise now: {moved:?}");
}

/// `gogo puzzles rate` writes the set, in its order, with the levels' ratings, to a new file,
/// and never over the file it reads.
#[test]
fn a_set_is_rated_again_into_a_new_file() {
    let dir = std::env::temp_dir().join(format!("gogo-puzzle-rate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("set.tsv");
    let hanging = found(HANGING_ROOK).unwrap().with_rating(2500);
    let mate = found(MATE_IN_1).unwrap().with_rating(700);
    let text = format!("{}\n{}\n", hanging.to_line(), mate.to_line());
    std::fs::write(&file, &text).unwrap();
    let run = |out: &std::path::Path| {
        run_rate(
            &RateRun {
                file: file.clone(),
                out: out.to_path_buf(),
                tries: 2,
                threads: 1,
            },
            &|_, _| {},
        )
    };
    assert!(run(&file).is_err(), "rated over its own input");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    let out = dir.join("rated.tsv");
    let report = run(&out).unwrap();
    assert_eq!(report.rated, 2);
    let rated = gogo_puzzle::read_puzzles(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let mut analyst = analyst();
    let expected: Vec<(String, u16)> = [hanging, mate]
        .iter()
        .map(|p| (p.id().to_string(), rate(&mut analyst, p, 2)))
        .collect();
    let got: Vec<(String, u16)> = rated
        .iter()
        .map(|p| (p.id().to_string(), p.rating()))
        .collect();
    assert_eq!(got, expected);
    // Both were given ratings the levels do not give them: both moved.
    assert_eq!(report.changed(), 2, "{:?}", report.moves);
    std::fs::remove_dir_all(&dir).unwrap();
}
