//! Puzzles for visitors online, from the shipped set, as on the local board: the page asks
//! for a puzzle near its rating, sends each move with its ply and hears whether it is right,
//! with the opponent's reply; a try that ends moves the rating the page keeps (Glicko-2, the
//! puzzle crate's), as the local board's page keeps its own. A try is its puzzle's id and
//! ply, so the server keeps nothing per visitor and no engine is needed.
//!
//! `GET /online/puzzles/next?near=R[&theme=T][&seen=ID,ID...]`, `GET /online/puzzles/{id}`,
//! `POST /online/puzzles/{id}/move` (`{"ply", "usi", "rating"?, "helped"?}`, or
//! `"give_up": true` for the solution) and
//! `GET /online/puzzles/{id}/hint?ply=N` (the piece, then the square).

use super::{error, Online};
use crate::messages::PlayerRating;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use gogo_puzzle::glicko::Rating;
use gogo_puzzle::{set, Puzzle, Theme, Verdict};
use gogo_rules::Move;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;

/// The most puzzle ids a page may name as already met.
pub const MAX_SEEN: usize = 200;

/// A puzzle as the page is given it (not its solution).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PuzzleView {
    /// Its id.
    pub id: String,
    /// Its position (SFEN); the side to move is the player's.
    pub sfen: String,
    /// Its rating.
    pub rating: u16,
    /// Its themes, by their file words (`mate-in-3`, ...).
    pub themes: Vec<String>,
    /// The player's moves in its solution.
    pub moves: usize,
    /// The legal moves of its position, USI.
    pub legal: Vec<String>,
}

impl PuzzleView {
    fn of(puzzle: &Puzzle) -> PuzzleView {
        PuzzleView {
            id: puzzle.id().to_string(),
            sfen: puzzle.position().to_sfen(),
            rating: puzzle.rating(),
            themes: puzzle.themes().iter().map(ToString::to_string).collect(),
            moves: puzzle.solution().len().div_ceil(2),
            legal: legal(puzzle, 0),
        }
    }
}

fn legal(puzzle: &Puzzle, ply: usize) -> Vec<String> {
    puzzle
        .position_at(ply)
        .legal_moves()
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// A move of a try: the player's move for ply `ply` of the solution (0, 2, 4, ...).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleMove {
    /// The ply it is for.
    pub ply: usize,
    /// The move, USI (none when the player gives up).
    #[serde(default)]
    pub usi: String,
    /// The player gives up and asks for the solution: the try is failed.
    #[serde(default)]
    pub give_up: bool,
    /// The player's rating before the try, if the try is rated (its first, without help).
    #[serde(default)]
    pub rating: Option<PlayerRating>,
    /// Whether a hint was used in this try (a solve with one does not raise the rating).
    #[serde(default)]
    pub helped: bool,
}

/// What a move of a try comes to.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PuzzleAnswer {
    /// `right` (the reply follows), `solved` or `wrong` (the move is not played).
    pub verdict: &'static str,
    /// The opponent's reply, after a right move that does not end the puzzle.
    pub reply: Option<String>,
    /// The next ply the player moves at, after the reply.
    pub ply: usize,
    /// The position now (after the move and the reply, or as it was after a wrong move).
    pub sfen: String,
    /// Its legal moves (none once the try is over).
    pub legal: Vec<String>,
    /// When the try is over: the rest of the solution from the move that was judged.
    pub solution: Option<Vec<String>>,
    /// When the try is over and was rated: the player's rating after it.
    pub rating: Option<PlayerRating>,
}

/// Judges `attempt` of `puzzle`; an error in words for a move that is not for a ply the
/// player moves at, not a move, or a rating out of range.
pub fn judge(puzzle: &Puzzle, attempt: &PuzzleMove) -> Result<PuzzleAnswer, String> {
    let length = puzzle.solution().len();
    if attempt.ply % 2 == 1 || attempt.ply >= length {
        return Err(format!(
            "ply {}: the player moves at plies 0, 2, ... below {length}",
            attempt.ply
        ));
    }
    let rating: Option<Rating> = attempt.rating.map(Rating::from);
    if rating.is_some_and(|r| !r.is_valid()) {
        return Err("a puzzle rating out of range".into());
    }
    let position = puzzle.position_at(attempt.ply);
    let mv: Option<Move> = match attempt.give_up {
        true => None,
        false => Some(
            position
                .parse_move(&attempt.usi)
                .map_err(|e| format!("{e}"))?,
        ),
    };
    let verdict = mv.map_or(Verdict::Wrong, |mv| puzzle.judge(attempt.ply, mv));
    let rest = || {
        puzzle.solution()[attempt.ply..]
            .iter()
            .map(ToString::to_string)
            .collect()
    };
    let rated = |solved: bool| {
        rating.map(|r| {
            PlayerRating::from(
                r.after_puzzle(f64::from(puzzle.rating()), solved && !attempt.helped),
            )
        })
    };
    Ok(match verdict {
        Verdict::Right => {
            let reply = puzzle.solution()[attempt.ply + 1];
            let ply = attempt.ply + 2;
            PuzzleAnswer {
                verdict: "right",
                reply: Some(reply.to_string()),
                ply,
                sfen: puzzle.position_at(ply).to_sfen(),
                legal: legal(puzzle, ply),
                solution: None,
                rating: None,
            }
        }
        Verdict::Solved => PuzzleAnswer {
            verdict: "solved",
            reply: None,
            ply: length,
            sfen: mv.map_or_else(|| position.to_sfen(), |mv| position.played(mv).to_sfen()),
            legal: Vec::new(),
            solution: Some(rest()),
            rating: rated(true),
        },
        Verdict::Wrong => PuzzleAnswer {
            verdict: "wrong",
            reply: None,
            ply: attempt.ply,
            sfen: position.to_sfen(),
            legal: Vec::new(),
            solution: Some(rest()),
            rating: rated(false),
        },
    })
}

fn find(id: &str) -> Option<&'static Puzzle> {
    set::shipped().iter().find(|p| p.id() == id)
}

/// Whether the client of a request may make one more puzzle request this minute.
fn limited(
    online: &Online,
    peer: Option<super::guard::PeerAddress>,
    headers: &HeaderMap,
) -> Option<Response> {
    online.over_limit(&online.puzzles, peer, headers)
}

/// `GET /online/puzzles/next`: a puzzle near `near` (default 1500), of `theme` if named,
/// none of `seen` (comma-separated ids).
pub(super) async fn next(
    State(online): State<Arc<Online>>,
    peer: Option<axum::Extension<super::guard::PeerAddress>>,
    headers: HeaderMap,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    if let Some(refused) = limited(&online, peer.map(|p| p.0), &headers) {
        return refused;
    }
    let near = match query.get("near").map(|n| n.parse::<f64>()) {
        None => gogo_puzzle::glicko::START.rating,
        Some(Ok(n)) if (0.0..=4000.0).contains(&n) => n,
        Some(_) => return error(StatusCode::BAD_REQUEST, "near: a rating from 0 to 4000"),
    };
    let theme: Option<Theme> = match query.get("theme").filter(|t| !t.is_empty()) {
        None => None,
        Some(t) => match t.parse() {
            Ok(t) => Some(t),
            Err(e) => return error(StatusCode::BAD_REQUEST, format!("{e}")),
        },
    };
    let seen: std::collections::HashSet<&str> = query
        .get("seen")
        .map(|s| s.split(',').take(MAX_SEEN).collect())
        .unwrap_or_default();
    let mut seed = [0u8; 8];
    let _ = getrandom::fill(&mut seed);
    match set::pick(
        set::shipped(),
        near,
        theme,
        &|id| seen.contains(id),
        u64::from_le_bytes(seed),
    ) {
        Some(puzzle) => Json(PuzzleView::of(puzzle)).into_response(),
        None => error(
            StatusCode::NOT_FOUND,
            "no puzzle left of this theme: choose another, or any",
        ),
    }
}

/// `GET /online/puzzles/{id}`: a puzzle again (a reload).
pub(super) async fn puzzle(
    State(online): State<Arc<Online>>,
    peer: Option<axum::Extension<super::guard::PeerAddress>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    if let Some(refused) = limited(&online, peer.map(|p| p.0), &headers) {
        return refused;
    }
    match find(&id) {
        Some(puzzle) => Json(PuzzleView::of(puzzle)).into_response(),
        None => error(StatusCode::NOT_FOUND, "no such puzzle"),
    }
}

/// `POST /online/puzzles/{id}/move`: a move of a try, judged.
pub(super) async fn play(
    State(online): State<Arc<Online>>,
    peer: Option<axum::Extension<super::guard::PeerAddress>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: axum::body::Bytes,
) -> Response {
    if let Some(refused) = limited(&online, peer.map(|p| p.0), &headers) {
        return refused;
    }
    if let Some(refusal) = online.limits.origins.refusal(&headers) {
        return error(StatusCode::FORBIDDEN, refusal);
    }
    let Some(puzzle) = find(&id) else {
        return error(StatusCode::NOT_FOUND, "no such puzzle");
    };
    let attempt: PuzzleMove = match serde_json::from_slice(&body) {
        Ok(a) => a,
        Err(e) => return error(StatusCode::BAD_REQUEST, format!("a move of a puzzle: {e}")),
    };
    match judge(puzzle, &attempt) {
        Ok(answer) => Json(answer).into_response(),
        Err(e) => error(StatusCode::BAD_REQUEST, e),
    }
}

/// `GET /online/puzzles/{id}/hint?ply=N`: the piece to move (its square, or `P*` for a
/// drop) and where it goes; the page shows the piece first.
pub(super) async fn hint(
    State(online): State<Arc<Online>>,
    peer: Option<axum::Extension<super::guard::PeerAddress>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    if let Some(refused) = limited(&online, peer.map(|p| p.0), &headers) {
        return refused;
    }
    let Some(puzzle) = find(&id) else {
        return error(StatusCode::NOT_FOUND, "no such puzzle");
    };
    let ply = query.get("ply").and_then(|p| p.parse::<usize>().ok());
    let Some(mv) = ply
        .filter(|p| p % 2 == 0)
        .and_then(|p| puzzle.solution().get(p))
    else {
        return error(StatusCode::BAD_REQUEST, "ply: a ply the player moves at");
    };
    let piece = match (mv.from(), mv.drop_kind()) {
        (Some(from), _) => from.to_string(),
        (None, Some(kind)) => format!("{}*", kind.base_letter()),
        (None, None) => String::new(),
    };
    Json(serde_json::json!({"piece": piece, "square": mv.to().to_string()})).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attempt(ply: usize, usi: String, rating: Option<PlayerRating>) -> PuzzleMove {
        PuzzleMove {
            ply,
            usi,
            give_up: false,
            rating,
            helped: false,
        }
    }

    const START: PlayerRating = PlayerRating {
        rating: 1500.0,
        deviation: 200.0,
        volatility: 0.06,
    };

    /// Every shipped puzzle is solved by its own line, move by move, each reply the
    /// solution's; the rating rises on the solve.
    #[test]
    fn every_shipped_puzzle_is_solved_by_its_line() {
        for puzzle in set::shipped() {
            let solution = puzzle.solution();
            let mut ply = 0;
            loop {
                let answer = judge(
                    puzzle,
                    &attempt(ply, solution[ply].to_string(), Some(START)),
                )
                .unwrap_or_else(|e| panic!("{}: {e}", puzzle.id()));
                if ply + 1 == solution.len() {
                    assert_eq!(answer.verdict, "solved", "{}", puzzle.id());
                    assert!(answer.rating.unwrap().rating > START.rating);
                    break;
                }
                assert_eq!(answer.verdict, "right");
                assert_eq!(answer.reply, Some(solution[ply + 1].to_string()));
                assert_eq!(answer.sfen, puzzle.position_at(ply + 2).to_sfen());
                assert!(answer.rating.is_none());
                ply = answer.ply;
            }
        }
    }

    /// A wrong move is not played, shows the solution and costs rating; giving up is a
    /// failure too; a solve with a hint does not raise the rating; a ply the player does
    /// not move at, an illegal move and a rating out of range are refused.
    #[test]
    fn wrong_moves_giving_up_hints_and_bad_requests() {
        let puzzle = set::shipped()
            .iter()
            .find(|p| p.solution().len() == 1)
            .expect("a one-move puzzle");
        let right = puzzle.solution()[0];
        let wrong = puzzle
            .position()
            .legal_moves()
            .iter()
            .copied()
            .find(|&m| puzzle.judge(0, m) == Verdict::Wrong)
            .expect("a wrong move");
        let answer = judge(puzzle, &attempt(0, wrong.to_string(), Some(START))).unwrap();
        assert_eq!(answer.verdict, "wrong");
        assert_eq!(answer.sfen, puzzle.position().to_sfen());
        assert_eq!(answer.solution, Some(vec![right.to_string()]));
        assert!(answer.rating.unwrap().rating < START.rating);
        let gave_up = PuzzleMove {
            give_up: true,
            ..attempt(0, String::new(), Some(START))
        };
        assert_eq!(judge(puzzle, &gave_up).unwrap().verdict, "wrong");
        let helped = PuzzleMove {
            helped: true,
            ..attempt(0, right.to_string(), Some(START))
        };
        let answer = judge(puzzle, &helped).unwrap();
        assert_eq!(answer.verdict, "solved");
        assert!(answer.rating.unwrap().rating <= START.rating);
        assert!(judge(puzzle, &attempt(1, right.to_string(), None)).is_err());
        assert!(judge(puzzle, &attempt(2, right.to_string(), None)).is_err());
        assert!(judge(puzzle, &attempt(0, "5a5e".into(), None)).is_err());
        let silly = PlayerRating {
            rating: 9000.0,
            ..START
        };
        assert!(judge(puzzle, &attempt(0, right.to_string(), Some(silly))).is_err());
    }
}
