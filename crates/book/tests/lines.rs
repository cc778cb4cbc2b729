//! Issue 54: `Book::lines` visits each position once per depth, so that a book whose moves
//! cycle back to the start, or transpose, ends at any depth in time linear in the book.

use gogo_book::{Book, BookMove};
use gogo_rules::{Move, Position};

fn add(book: &mut Book, pos: &Position, usi: &str) -> Position {
    let mv: Move = usi.parse().unwrap();
    assert!(book.add(
        pos,
        BookMove {
            mv,
            ponder: None,
            eval: 10,
            depth: 5,
            count: 1,
            wdl: [0; 3],
        }
    ));
    pos.played(mv)
}

#[test]
fn a_cycling_book_ends_at_any_depth() {
    // Both rooks step aside and back: four positions, the fourth move back at the start.
    let start = Position::startpos();
    let mut book = Book::new();
    let mut pos = start.clone();
    for usi in ["1e1d", "5a5b", "1d1e", "5b5a"] {
        pos = add(&mut book, &pos, usi);
    }
    assert_eq!(pos.key(), start.key());
    assert_eq!(book.len(), 4);
    let began = std::time::Instant::now();
    let lines = book.lines(&start, 100_000);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0].0.len(), 100_000);
    assert_eq!(
        lines[0].0[..4],
        book_line(&["1e1d", "5a5b", "1d1e", "5b5a"])
    );
    // Seconds, not the stack overflow or the hours of walking every path.
    assert!(began.elapsed().as_secs() < 30);
    // Depth 4 is the start again; depth 2 the one position both rooks moved from.
    assert_eq!(
        book.lines(&start, 4)[0].0,
        book_line(&["1e1d", "5a5b", "1d1e", "5b5a"])
    );
    assert!(book
        .lines(&Position::from_sfen("4k/5/5/5/K4 b - 1").unwrap(), 1)
        .is_empty());
}

fn book_line(moves: &[&str]) -> Vec<Move> {
    moves.iter().map(|m| m.parse().unwrap()).collect()
}

#[test]
fn transpositions_are_met_once_per_depth() {
    // Two orders of the same two moves reach one position: it is listed once.
    let start = Position::startpos();
    let mut book = Book::new();
    let a = add(&mut book, &start, "1e1d");
    let b = add(&mut book, &start, "3e3d");
    let a2 = add(&mut book, &a, "5a5b");
    let b2 = add(&mut book, &b, "5a5b");
    let ab = add(&mut book, &a2, "3e3d");
    let ba = add(&mut book, &b2, "1e1d");
    assert_eq!(ab.key(), ba.key());
    add(&mut book, &ab, "5b5a");
    let lines = book.lines(&start, 3);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(book.lines(&start, 2).len(), 2);
}
