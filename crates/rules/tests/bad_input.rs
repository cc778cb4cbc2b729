//! Malformed and impossible SFENs and moves, each with its exact error.

use gogo_rules::{
    parse_usi_position, Color, Move, MoveError, ParseMoveError, ParseSfenError, PieceKind,
    Position, PositionError, SfenError, SfenField,
};

fn parse_err(field: SfenField, reason: &str) -> SfenError {
    SfenError::Parse(ParseSfenError {
        field,
        reason: reason.to_string(),
    })
}

#[test]
fn malformed_sfens() {
    use SfenField::*;
    let cases: &[(&str, SfenError)] = &[
        ("", parse_err(Board, "missing")),
        ("rbsgk/4p/5/P4/KGSBR", parse_err(Side, "missing")),
        ("rbsgk/4p/5/P4/KGSBR b", parse_err(Hand, "missing")),
        (
            "rbsgk/4p/5/P4 b - 1",
            parse_err(Board, "'rbsgk/4p/5/P4' has 4 ranks, expected 5"),
        ),
        (
            "rbsgk/4p/5/P4/KGSBR/5 b - 1",
            parse_err(Board, "'rbsgk/4p/5/P4/KGSBR/5' has 6 ranks, expected 5"),
        ),
        (
            "rbsgk/4p/6/P4/KGSBR b - 1",
            parse_err(Board, "rank c is wider than 5 squares"),
        ),
        (
            "rbsgkp/4p/5/P4/KGSBR b - 1",
            parse_err(Board, "rank a is wider than 5 squares"),
        ),
        (
            "rbsgk/4p/5/P4/KGSB b - 1",
            parse_err(Board, "rank e covers 4 squares, expected 5"),
        ),
        (
            "rbsgk/4p/5/P4/KGSBX b - 1",
            parse_err(Board, "rank e: 'X' is not a piece"),
        ),
        (
            "rbsgk/4p/5/P4/KGSBN b - 1",
            parse_err(Board, "rank e: 'N' is not a piece"),
        ),
        (
            "rbs+gk/4p/5/P4/KGSBR b - 1",
            parse_err(Board, "rank a: '+g' cannot be promoted"),
        ),
        (
            "rbsg+k/4p/5/P4/KGSBR b - 1",
            parse_err(Board, "rank a: '+k' cannot be promoted"),
        ),
        (
            "rbsgk/4p/5/P4/KGSB+ b - 1",
            parse_err(Board, "rank e ends with '+'"),
        ),
        (
            "rbsgk/4p/5/P4/KGSB++R b - 1",
            parse_err(Board, "rank e: '++'"),
        ),
        (
            "rbsgk/4p/05/P4/KGSBR b - 1",
            parse_err(Board, "rank c: unexpected '0'"),
        ),
        (
            "rbsgk/4p/5/P4/KGSBR x - 1",
            parse_err(Side, "'x', expected 'b' or 'w'"),
        ),
        (
            "rbsgk/4p/5/P4/KGSBR B - 1",
            parse_err(Side, "'B', expected 'b' or 'w'"),
        ),
        (
            "rbsgk/4p/5/P4/KGSBR b K 1",
            parse_err(Hand, "'K': 'K' cannot be held in hand"),
        ),
        (
            "rbsgk/4p/5/P4/KGSBR b N 1",
            parse_err(Hand, "'N': 'N' cannot be held in hand"),
        ),
        (
            "rbsgk/4p/5/P4/KGSBR b 0P 1",
            parse_err(Hand, "'0P': a count of 0"),
        ),
        (
            "rbsgk/4p/5/P4/KGSBR b P2 1",
            parse_err(Hand, "'P2' ends with a count"),
        ),
        (
            "rbsgk/4p/5/P4/KGSBR b PP 1",
            parse_err(Hand, "'PP': 'P' appears twice"),
        ),
        (
            "rbsgk/4p/5/P4/KGSBR b 100P 1",
            parse_err(Hand, "'100P': a count above 99"),
        ),
        (
            "rbsgk/4p/5/P4/KGSBR b - 0",
            parse_err(MoveNumber, "'0', expected a number from 1 to 1000000"),
        ),
        (
            "rbsgk/4p/5/P4/KGSBR b - x",
            parse_err(MoveNumber, "'x', expected a number from 1 to 1000000"),
        ),
        (
            // Accepted once, then wrapped (release) or panicked (debug) at the next move.
            "rbsgk/4p/5/P4/KGSBR b - 4294967295",
            parse_err(
                MoveNumber,
                "'4294967295', expected a number from 1 to 1000000",
            ),
        ),
        (
            "rbsgk/4p/5/P4/KGSBR b - 1000001",
            parse_err(MoveNumber, "'1000001', expected a number from 1 to 1000000"),
        ),
        (
            "rbsgk/4p/5/P4/KGSBR b - 1 1",
            parse_err(MoveNumber, "unexpected text '1' after the move number"),
        ),
    ];
    for (text, want) in cases {
        assert_eq!(&Position::from_sfen(text).unwrap_err(), want, "{text:?}");
    }
}

#[test]
fn impossible_positions() {
    let cases: &[(&str, PositionError)] = &[
        (
            "rbsg1/4p/5/P4/KGSBR b - 1",
            PositionError::MissingKing(Color::Gote),
        ),
        (
            "rbsgk/4p/5/P4/1GSBR b - 1",
            PositionError::MissingKing(Color::Sente),
        ),
        (
            "rbsgk/4p/5/P3k/KGSBR b - 1",
            PositionError::ExtraKing(Color::Gote),
        ),
        (
            "rbsgk/4p/5/P4/KGSBR b P 1",
            PositionError::TooManyPieces {
                kind: PieceKind::Pawn,
                count: 3,
            },
        ),
        (
            "rbsgk/4p/5/P+B3/KGSBR b - 1",
            PositionError::TooManyPieces {
                kind: PieceKind::Bishop,
                count: 3,
            },
        ),
        (
            "rbsgk/4p/5/P4/KGSBR b r 1",
            PositionError::TooManyPieces {
                kind: PieceKind::Rook,
                count: 3,
            },
        ),
        (
            "rbsgk/5/P4/P4/KGSBR b - 1",
            PositionError::TwoPawnsOnFile {
                color: Color::Sente,
                file: 5,
            },
        ),
        (
            "rbsgk/4p/4p/P4/KGSBR b - 1",
            PositionError::TwoPawnsOnFile {
                color: Color::Gote,
                file: 1,
            },
        ),
        (
            "Pbsgk/5/5/5/KGSBR b r 1",
            PositionError::PawnOnLastRank {
                color: Color::Sente,
                square: "5a".parse().unwrap(),
            },
        ),
        (
            "rbsgk/5/5/5/KGSBp b P 1",
            PositionError::PawnOnLastRank {
                color: Color::Gote,
                square: "1e".parse().unwrap(),
            },
        ),
        ("4k/4R/5/5/K4 b - 1", PositionError::OpponentInCheck),
        ("4k/5/5/r4/K4 w - 1", PositionError::OpponentInCheck),
    ];
    for (text, want) in cases {
        assert_eq!(
            Position::from_sfen(text).unwrap_err(),
            SfenError::Position(want.clone()),
            "{text:?}"
        );
    }
    // Promoted pawns do not count for the two-pawn rule, and may stand anywhere.
    assert!(Position::from_sfen("+Pbsgk/4g/P4/5/K1SBR b r 1").is_ok());
    // Explicit counts of 1 are accepted and printed canonically.
    let pos = Position::from_sfen("k4/5/5/5/4K b 1R1b2P 1").unwrap();
    assert_eq!(pos.to_sfen(), "k4/5/5/5/4K b R2Pb 1");
}

#[test]
fn bad_and_illegal_moves() {
    let pos = Position::startpos();
    let parse = |t: &str| {
        MoveError::Parse(ParseMoveError {
            text: t.to_string(),
        })
    };
    let illegal = |t: &str| MoveError::Illegal(t.parse::<Move>().unwrap());
    let cases: &[(&str, MoveError)] = &[
        ("", parse("")),
        ("5d", parse("5d")),
        ("5d5c5b", parse("5d5c5b")),
        ("9a9b", parse("9a9b")),
        ("5d5c=", parse("5d5c=")),
        ("N*3c", parse("N*3c")),
        ("5d5b", illegal("5d5b")),   // a pawn steps one square
        ("5d5c+", illegal("5d5c+")), // outside the promotion zone
        ("P*3c", illegal("P*3c")),   // nothing in hand
        ("1e1a", illegal("1e1a")),   // the rook is blocked by the pawn on 1b
        ("1b1c", illegal("1b1c")),   // Gote's pawn, and Sente is to move
    ];
    for (text, want) in cases {
        assert_eq!(&pos.parse_move(text).unwrap_err(), want, "{text:?}");
    }
    assert_eq!(pos.parse_move("4e3d"), Ok("4e3d".parse().unwrap()));

    // A pawn drop that mates is illegal (silver guards 4a, gold guards 4b and 5b) ...
    let pos = Position::from_sfen("k4/2S2/1G3/5/4K b P 1").unwrap();
    assert_eq!(pos.parse_move("P*5b"), Err(illegal("P*5b")));
    assert_eq!(pos.mating_pawn_drop(), Some("P*5b".parse().unwrap()));
    // ... but a pawn drop that checks without mating is fine (the king escapes to 4a).
    let pos = Position::from_sfen("k4/5/1G3/5/4K b P 1").unwrap();
    assert!(pos.parse_move("P*5b").is_ok());
    assert_eq!(pos.mating_pawn_drop(), None);
    // Pawn drops on the last rank and on a file with an own unpromoted pawn are illegal.
    let pos = Position::from_sfen("k4/5/5/P4/4K b P 1").unwrap();
    assert_eq!(pos.parse_move("P*3a"), Err(illegal("P*3a")));
    assert_eq!(pos.parse_move("P*5c"), Err(illegal("P*5c")));
    assert!(pos.parse_move("P*4c").is_ok());
    // A pawn reaching the far rank must promote; a silver may decline.
    let pos = Position::from_sfen("k4/2P2/5/S4/4K b - 1").unwrap();
    assert_eq!(pos.parse_move("3b3a"), Err(illegal("3b3a")));
    assert!(pos.parse_move("3b3a+").is_ok());
    let pos = Position::from_sfen("k4/2S2/5/5/4K b - 1").unwrap();
    assert!(pos.parse_move("3b3a").is_ok() && pos.parse_move("3b3a+").is_ok());
    // Leaving the zone may promote too; a gold never promotes.
    let pos = Position::from_sfen("k1S2/5/5/5/G3K b - 1").unwrap();
    assert!(pos.parse_move("3a2b+").is_ok() && pos.parse_move("3a2b").is_ok());
    assert_eq!(pos.parse_move("5e5d+"), Err(illegal("5e5d+")));
}

#[test]
fn usi_position_text() {
    let (start, moves) = parse_usi_position("startpos moves 5d5c 1b1c").unwrap();
    assert_eq!(start, Position::startpos());
    assert_eq!(moves.len(), 2);
    let (start, moves) = parse_usi_position("sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5d5c").unwrap();
    assert_eq!(start, Position::startpos());
    assert_eq!(moves, vec!["5d5c".parse::<Move>().unwrap()]);
    assert_eq!(
        parse_usi_position("startpos moves 5d5c 5d5c").unwrap_err(),
        SfenError::Move {
            index: 2,
            error: MoveError::Illegal("5d5c".parse().unwrap())
        }
    );
    assert_eq!(
        parse_usi_position("startpos moves 5d5c xx").unwrap_err(),
        SfenError::Move {
            index: 2,
            error: MoveError::Parse(ParseMoveError { text: "xx".into() })
        }
    );
    assert!(matches!(
        parse_usi_position("sfen"),
        Err(SfenError::Parse(_))
    ));
    assert!(matches!(
        parse_usi_position("banana"),
        Err(SfenError::Parse(_))
    ));
    assert_eq!(parse_usi_position("startpos moves").unwrap().1, vec![]);
}

#[test]
fn the_largest_move_number_plays_on() {
    let pos = Position::from_sfen("rbsgk/4p/5/P4/KGSBR b - 1000000").unwrap();
    let mv = pos.legal_moves().as_slice()[0];
    assert_eq!(pos.played(mv).move_number(), 1_000_001);
}

/// Records that once panicked the reader (a king in hand, a multi-byte character where an
/// ASCII field was sliced, a drop of a piece that cannot be in hand) are errors.
#[test]
fn records_that_panicked_are_errors() {
    use gogo_rules::{csa::read_csa, kif::read_kif, RecordError};
    for text in ["後手の持駒：玉", "先手の持駒：龍二", "後手の持駒：と"] {
        assert!(
            matches!(read_kif(text), Err(RecordError::Syntax { line: 1, .. })),
            "{text}: {:?}",
            read_kif(text)
        );
    }
    for text in ["V2\nP+0あ", "P+00あ", "P-00OU", "P+00FU00"] {
        assert!(
            matches!(read_csa(text), Err(RecordError::Syntax { .. })),
            "{text:?}: {:?}",
            read_csa(text)
        );
    }
    let start = "P1-HI-KA-GI-KI-OU\nP2 *  *  *  * -FU\nP3 *  *  *  *  * \nP4+FU *  *  *  * \nP5+OU+KI+GI+KA+HI\n+\n";
    for line in ["+0033OU", "+3544あいう", "+35あ44GI"] {
        let text = format!("{start}{line}\n");
        assert!(
            matches!(read_csa(&text), Err(RecordError::Syntax { line: 7, .. })),
            "{line}: {:?}",
            read_csa(&text)
        );
    }
}

/// A record longer than any game is refused before it is read.
#[test]
fn records_have_a_length_limit() {
    use gogo_rules::{csa::read_csa, kif::read_kif, RecordError, MAX_RECORD_BYTES};
    let long = format!("手合割：５五将棋\n{}", "*".repeat(MAX_RECORD_BYTES));
    assert_eq!(read_kif(&long), Err(RecordError::TooLong));
    let long = format!("V2.2\n'{}", "x".repeat(MAX_RECORD_BYTES));
    assert_eq!(read_csa(&long), Err(RecordError::TooLong));
    // Within the byte limit, too many moves: 5d5c 1b1c shuffles would repeat, so the move
    // lines fail on legality first unless the count is checked before.
    let many: String = (1..=20_000).map(|n| format!("{n} ４四銀\n")).collect();
    assert_eq!(
        read_kif(&many),
        Err(RecordError::TooManyMoves(gogo_rules::TooManyMoves))
    );
}
