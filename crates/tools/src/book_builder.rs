//! `gogo book`: the book builder (from games, and from analysis that grows the tree where it
//! matters), merging, learning from results, and the book's openings and positions shown.
//! The format lives in `gogo-book`; the book the engine plays from, in `gogo-usi`.

use crate::games::{read_games, GameFileError, SourceGame};
use gogo_book::{write_book, Book, BookMove};
use gogo_rules::{Position, RuleSet};
use gogo_search::{Evaluation, SearchLimits, SearchOptions, Searcher};
use gogo_table::TableSizeError;
use gogo_usi::book_file::{load_book, read_book_file, BookFileError, INTERNAL_BOOK};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};
use std::path::{Path, PathBuf};

/// Why a `gogo book` command failed.
#[derive(Debug)]
pub enum BookToolError {
    /// A file could not be opened, read or written, or the output is not a book and is left
    /// as it is (the error names the file).
    File(gogo_files::FileError),
    /// A book to read does not read.
    BookFile(BookFileError),
    /// A file of games does not read.
    Games(GameFileError),
    /// `merge` was given no books.
    NoBooks,
    /// The search's table could not be had.
    Table(TableSizeError),
}

impl std::fmt::Display for BookToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BookToolError::File(e) => e.fmt(f),
            BookToolError::BookFile(e) => e.fmt(f),
            BookToolError::Games(e) => e.fmt(f),
            BookToolError::NoBooks => f.write_str("no books to merge"),
            BookToolError::Table(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for BookToolError {}

impl From<gogo_files::FileError> for BookToolError {
    fn from(e: gogo_files::FileError) -> BookToolError {
        BookToolError::File(e)
    }
}

impl From<BookFileError> for BookToolError {
    fn from(e: BookFileError) -> BookToolError {
        BookToolError::BookFile(e)
    }
}

impl From<GameFileError> for BookToolError {
    fn from(e: GameFileError) -> BookToolError {
        BookToolError::Games(e)
    }
}

/// The output `out` of a run reading `inputs`, with the book already there (empty when
/// there is none): a file there that is not a book is refused, never written over.
fn book_output(out: &Path, inputs: &[&Path]) -> Result<(gogo_files::Output, Book), BookToolError> {
    let output = gogo_files::Output::new(out, inputs)?;
    if !output.exists() {
        return Ok((output, Book::new()));
    }
    let refuse = |why: String| {
        BookToolError::File(gogo_files::FileError::new(
            out,
            gogo_files::Problem::NotOurs(why),
        ))
    };
    // Read as the engine reads a book file: a line at a time, within its bound.
    let book = read_book_file(out).map_err(|e| {
        refuse(match e {
            BookFileError::File(e) => e.problem_text(),
            BookFileError::Book { error, .. } => error.to_string(),
        })
    })?;
    Ok((output, book))
}

/// How `gogo book build` builds.
#[derive(Clone, Debug)]
pub struct BuildConfig {
    /// Games to count (their first `max_ply` plies).
    pub games: Vec<PathBuf>,
    /// The book goes this many plies deep.
    pub max_ply: usize,
    /// Positions to search (0: games only).
    pub positions: usize,
    /// Nodes of each search.
    pub nodes: u64,
    /// Lines of each search (MultiPV).
    pub width: usize,
    /// A move further than this below the best (centipawns) is kept with its eval but not
    /// followed: the line stops there.
    pub margin: i32,
    /// This shard of the tree (index from 0, count): the root's moves are shared out.
    pub shard: (usize, usize),
    /// The book written (and read first, to go on where a run stopped).
    pub out: PathBuf,
}

/// What a build did.
#[derive(Clone, Copy, Debug, Default)]
pub struct BuildTotals {
    /// Games counted.
    pub games: usize,
    /// Positions searched in this run.
    pub searched: usize,
    /// Positions in the book.
    pub positions: usize,
}

/// Counts the moves of `game` into `book`, with the result from each mover's side where the
/// game has one, while `counted(book, position, ply)` says to go on.
fn count_game(
    book: &mut Book,
    game: &SourceGame,
    counted: impl Fn(&Book, &Position, usize) -> bool,
) {
    let mut pos = game.start.clone();
    for (ply, &mv) in game.moves.iter().enumerate() {
        if !counted(book, &pos, ply) {
            break;
        }
        let mover = pos.side_to_move();
        let wdl = match game.result {
            Some(Some(winner)) if winner == mover => [1, 0, 0],
            Some(Some(_)) => [0, 0, 1],
            Some(None) => [0, 1, 0],
            None => [0; 3],
        };
        let added = book.add(
            &pos,
            BookMove {
                mv,
                ponder: None,
                eval: 0,
                depth: 0,
                count: 1,
                wdl,
            },
        );
        if !added {
            break;
        }
        pos = pos.played(mv);
    }
}

/// `gogo book learn`: the results of the games in `files` added to the moves of `book`'s
/// positions (each game followed while it stays in the book; a move the book lacks there is
/// added as a move from games), so that the engine's choice weighs each line's results
/// against its eval ([`BookMove::learned_eval`]). Games counted.
pub fn learn(book: &mut Book, files: &[PathBuf]) -> Result<usize, BookToolError> {
    let mut games = 0;
    for path in files {
        for game in read_games(path)? {
            if game.result.is_some() {
                count_game(book, &game, |book, pos, _| searched(book, pos));
                games += 1;
            }
        }
    }
    Ok(games)
}

/// The best `width` lines of `pos` at `nodes`: move, score, depth.
fn search_lines(
    searcher: &Searcher,
    pos: &Position,
    nodes: u64,
    width: usize,
) -> (Vec<(gogo_rules::Move, i32)>, i32) {
    let limits = SearchLimits {
        nodes: Some(nodes),
        ..Default::default()
    };
    let options = SearchOptions {
        multipv: width,
        evaluation: Evaluation::default(),
        rules: RuleSet::standard(),
        ..Default::default()
    };
    let result = searcher.search_position(pos, limits, options);
    (result.lines, result.depth)
}

/// Whether the book has searched `pos` (a move with a search depth).
fn searched(book: &Book, pos: &Position) -> bool {
    book.stored_moves(pos)
        .is_some_and(|moves| moves.iter().any(|m| m.depth > 0))
}

/// `gogo book build`: counts the games, then grows the tree from the start position best
/// lines first (a position's cost is its ply plus how far its line fell below the best, so
/// the main lines go deepest), backs the evals up by minimax and writes the book; a run
/// that stops goes on from the book it wrote (written every 50 positions).
pub fn build(
    config: &BuildConfig,
    progress: &mut dyn FnMut(&BuildTotals),
) -> Result<BuildTotals, BookToolError> {
    let inputs: Vec<&Path> = config.games.iter().map(PathBuf::as_path).collect();
    let (output, mut book) = book_output(&config.out, &inputs)?;
    let mut totals = BuildTotals::default();
    if !config.games.is_empty() && book.is_empty() {
        for path in &config.games {
            for game in read_games(path)? {
                count_game(&mut book, &game, |_, _, ply| ply < config.max_ply);
                totals.games += 1;
            }
        }
    }
    let searcher = Searcher::new(64).map_err(BookToolError::Table)?;
    let (shard, shards) = config.shard;
    let root = Position::startpos();
    // Lowest cost first; ties by the order pushed.
    let mut queue: BinaryHeap<Reverse<(i64, usize, usize)>> = BinaryHeap::new();
    let mut nodes: Vec<(Position, usize)> = vec![(root.clone(), 0)];
    let mut queued: HashSet<u64> = HashSet::from([root.key()]);
    queue.push(Reverse((0, 0, 0)));
    let write = |book: &Book| -> Result<(), BookToolError> {
        Ok(output.write(write_book(book).as_bytes())?)
    };
    while let Some(Reverse((cost, _, index))) = queue.pop() {
        let (pos, ply) = nodes[index].clone();
        if ply >= config.max_ply {
            continue;
        }
        if !searched(&book, &pos) {
            if totals.searched >= config.positions {
                continue;
            }
            let (lines, depth) = search_lines(&searcher, &pos, config.nodes, config.width);
            // A searched eval is deeper than a games-only one (depth 0), so it stands.
            for &(mv, score) in &lines {
                book.add(
                    &pos,
                    BookMove {
                        mv,
                        ponder: None,
                        eval: score,
                        depth: depth.max(1),
                        count: 0,
                        wdl: [0; 3],
                    },
                );
            }
            totals.searched += 1;
            totals.positions = book.len();
            progress(&totals);
            if totals.searched % 50 == 0 {
                write(&book)?;
            }
        }
        let moves: Vec<BookMove> = book.moves(&pos).into_iter().cloned().collect();
        let Some(best) = moves.iter().filter(|m| m.depth > 0).map(|m| m.eval).max() else {
            continue;
        };
        for (i, m) in moves.iter().enumerate() {
            // The root's moves are shared among the shards: each grows its own subtrees.
            if ply == 0 && i % shards.max(1) != shard {
                continue;
            }
            let behind = best.saturating_sub(m.eval);
            if m.depth > 0 && behind > config.margin {
                continue;
            }
            let child = pos.played(m.mv);
            if queued.insert(child.key()) {
                nodes.push((child, ply + 1));
                let child_cost = cost + 100 + i64::from(behind.max(0));
                queue.push(Reverse((child_cost, nodes.len(), nodes.len() - 1)));
            }
        }
    }
    book.back_up(2 * config.max_ply);
    totals.positions = book.len();
    write(&book)?;
    Ok(totals)
}

/// `gogo book merge`: the books put together (counts add up; the deeper search's eval
/// stands) and written to `out`, which must be none of them and, if it is there, a book.
/// No books is an error, not an empty book.
pub fn merge(files: &[PathBuf], out: &Path) -> Result<usize, BookToolError> {
    if files.is_empty() {
        return Err(BookToolError::NoBooks);
    }
    let inputs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let (output, _) = book_output(out, &inputs)?;
    let mut book = Book::new();
    for file in files {
        book.merge(&read_book_file(file)?);
    }
    book.back_up(64);
    output.write(write_book(&book).as_bytes())?;
    Ok(book.len())
}

/// `gogo book learn`: `book` (a file, or `<internal>`) with the results of the games in
/// `games` learnt into it ([`learn`]), written to `out`; games counted and positions.
pub fn learn_into(
    book: &str,
    games: &[PathBuf],
    out: &Path,
) -> Result<(usize, usize), BookToolError> {
    let mut inputs: Vec<&Path> = games.iter().map(PathBuf::as_path).collect();
    if book != INTERNAL_BOOK && !book.is_empty() {
        inputs.push(Path::new(book));
    }
    let (output, _) = book_output(out, &inputs)?;
    let mut learnt = (*load_book(book)?).clone();
    let counted = learn(&mut learnt, games)?;
    output.write(write_book(&learnt).as_bytes())?;
    Ok((counted, learnt.len()))
}

/// `gogo book openings`: an opening set for matches from the book: the lines to the book's
/// positions `plies` plies from the start whose eval is within `max_cp` of level, `count` of
/// them chosen by `seed` (all when fewer), one `startpos moves ...  # eval` a line in the
/// order the book gives, as the arena's `--openings` reads them.
pub fn openings(book: &Book, plies: usize, max_cp: i32, count: usize, seed: u64) -> String {
    let mut kept: Vec<(Vec<gogo_rules::Move>, i32)> = book
        .lines(&Position::startpos(), plies)
        .into_iter()
        .filter(|(_, eval)| eval.abs() <= max_cp)
        .collect();
    let qualified = kept.len();
    let mut rng = gogo_rules::Rng::new(seed);
    while kept.len() > count {
        kept.remove(rng.below(kept.len()));
    }
    let mut out = format!(
        "# {} openings from the book: {plies} plies from the start, within +/-{max_cp} cp by the \
         book's eval ({qualified} qualified, seed {seed}). The score is for the side to move.\n",
        kept.len()
    );
    for (line, eval) in kept {
        let moves: Vec<String> = line.iter().map(|m| m.to_string()).collect();
        out.push_str(&format!("startpos moves {}  # {eval:+}\n", moves.join(" ")));
    }
    out
}

/// `gogo book show`: the moves of `pos` in `book`, one a line, with each move's eval
/// corrected by its games' results on `scale` (what the engine chooses by).
pub fn show(book: &Book, pos: &Position, scale: f64) -> String {
    let moves = book.moves(pos);
    if moves.is_empty() {
        return "not in the book\n".into();
    }
    let mut out = String::from("move   eval  learned  depth  count  wins draws losses\n");
    for m in moves {
        out.push_str(&format!(
            "{:<6} {:>5} {:>8} {:>6} {:>6} {:>5} {:>5} {:>6}\n",
            m.mv.to_string(),
            m.eval,
            m.learned_eval(scale),
            m.depth,
            m.count,
            m.wdl[0],
            m.wdl[1],
            m.wdl[2]
        ));
    }
    out
}
