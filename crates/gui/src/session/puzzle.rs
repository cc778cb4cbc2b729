//! Puzzles on the board: a puzzle of the shipped set opened as a position, the player's
//! moves judged against its solution, the opponent's replies played after a short pause,
//! hints, the solution on request, and the player's Glicko-2 rating moved by the first
//! result of a rated try.

use super::*;
use gogo_puzzle::glicko::Rating;
use gogo_puzzle::{set, Puzzle, Theme, Verdict};
use std::time::Instant;

/// The pause before the opponent's reply, so that the player sees the move land.
const REPLY_PAUSE: Duration = Duration::from_millis(450);

/// What the server keeps of every puzzle opened on it, by id, for the person its token
/// lets in (the local board has one), whatever page or reload asks: whether a hint was
/// used, and whether the first try is over. A page that reopens a puzzle (as it does on a
/// reload) gets its hints back and, once the first result is in, practice only: the rating
/// moves once, by the first result. Bounded by the shipped set's size.
#[derive(Debug, Default)]
pub struct PuzzleLedger {
    tries: std::sync::Mutex<std::collections::HashMap<String, Kept>>,
}

/// One puzzle's entry in the [`PuzzleLedger`].
#[derive(Clone, Copy, Debug, Default)]
struct Kept {
    /// A hint was asked for in the first try.
    helped: bool,
    /// The first try is over.
    over: bool,
}

impl PuzzleLedger {
    fn get(&self, id: &str) -> Option<Kept> {
        self.tries
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .copied()
    }

    fn update(&self, id: &str, change: impl FnOnce(&mut Kept)) {
        let mut tries = self.tries.lock().unwrap_or_else(|e| e.into_inner());
        change(tries.entry(id.to_string()).or_default());
    }
}

/// A puzzle being tried.
pub(super) struct PuzzleTry {
    puzzle: &'static Puzzle,
    /// The player's rating when the try began; `None` when it is not rated.
    rating: Option<Rating>,
    /// The rating after the try, once it is over.
    new_rating: Option<Rating>,
    state: PuzzleState,
    /// Plies of the solution played.
    ply: usize,
    mistake: Option<String>,
    /// Hints asked for this move: 0, 1 (the piece), 2 (and the square).
    hints: u8,
    /// Whether any hint was asked in this try (a solve with help does not raise the rating).
    helped: bool,
    /// When the opponent's reply is due.
    reply_at: Option<Instant>,
}

impl PuzzleTry {
    /// The side the player moves.
    fn player(&self) -> gogo_rules::Color {
        self.puzzle.position().side_to_move()
    }

    fn finished(&self) -> bool {
        matches!(self.state, PuzzleState::Solved | PuzzleState::Failed)
    }
}

impl Session {
    /// Whether a puzzle is being solved (not yet over): the engine's help is refused.
    pub(super) fn puzzle_in_play(&self) -> bool {
        self.puzzle.as_ref().is_some_and(|p| !p.finished())
    }

    /// Whether `side` may move on the board now: in a puzzle, only the player, and only
    /// while the try is on and no reply is coming.
    pub(super) fn puzzle_allows_move(&self, side: gogo_rules::Color) -> bool {
        self.puzzle
            .as_ref()
            .is_none_or(|p| p.state == PuzzleState::Playing && side == p.player())
    }

    /// `Request::Puzzle`.
    pub(super) fn open_puzzle(
        &mut self,
        id: Option<String>,
        rating: Option<Rating>,
        theme: Option<String>,
        seen: Vec<String>,
        near: Option<f64>,
    ) -> Vec<Update> {
        if rating.is_some_and(|r| !r.is_valid()) {
            return vec![Update::error("a puzzle rating out of range")];
        }
        let theme: Option<Theme> = match theme.filter(|t| !t.is_empty()).map(|t| t.parse()) {
            None => None,
            Some(Ok(t)) => Some(t),
            Some(Err(e)) => return vec![Update::error(format!("{e}"))],
        };
        if near.is_some_and(|n| !(0.0..=4000.0).contains(&n)) {
            return vec![Update::error("a puzzle rating out of range")];
        }
        let puzzles = set::shipped();
        let puzzle = match id {
            Some(id) => match puzzles.iter().find(|p| p.id() == id) {
                Some(p) => p,
                None => return vec![Update::error(format!("no puzzle {}", brief(&id)))],
            },
            None => {
                let seen: std::collections::HashSet<&str> = seen
                    .iter()
                    .take(MAX_SEEN_PUZZLES)
                    .map(String::as_str)
                    .collect();
                let target = near
                    .or(rating.map(|r| r.rating))
                    .unwrap_or(gogo_puzzle::glicko::START.rating);
                let seed = self.rng.next_u64();
                match set::pick(puzzles, target, theme, &|id| seen.contains(id), seed) {
                    Some(p) => p,
                    None => {
                        return vec![Update::error(
                            "no puzzle left of this theme: choose another, or any",
                        )]
                    }
                }
            }
        };
        // What the server kept of this puzzle: a first try that is over makes this one
        // practice; hints used in it still count.
        let kept = self.ledger.get(puzzle.id());
        let rating = rating.filter(|_| !kept.is_some_and(|k| k.over));
        if rating.is_some() {
            self.ledger.update(puzzle.id(), |_| {});
        }
        let game = Game::from_position(RuleSet::standard(), puzzle.position().clone());
        // Both sides are the page's: the session plays the replies itself.
        self.reset(
            game,
            [Player::Human, Player::Human],
            time_control(ClockSetting::None { engine_ms: 1000 }),
        );
        self.level = 0;
        self.puzzle = Some(PuzzleTry {
            puzzle,
            rating,
            new_rating: None,
            state: PuzzleState::Playing,
            ply: 0,
            mistake: None,
            hints: 0,
            helped: rating.is_some() && kept.is_some_and(|k| k.helped),
            reply_at: None,
        });
        let mut updates = self.after_change();
        updates.push(self.puzzle_update());
        updates
    }

    /// The player's move in a puzzle.
    pub(super) fn puzzle_move(&mut self, mv: Move) -> Vec<Update> {
        let Some(try_) = self.puzzle.as_mut() else {
            return Vec::new();
        };
        match try_.puzzle.judge(try_.ply, mv) {
            Verdict::Wrong => {
                try_.mistake = Some(mv.to_string());
                self.finish_puzzle(false);
                vec![self.puzzle_update()]
            }
            verdict => {
                try_.ply += 1;
                try_.mistake = None;
                try_.hints = 0;
                if verdict == Verdict::Solved {
                    self.finish_puzzle(true);
                } else {
                    try_.state = PuzzleState::Replying;
                    try_.reply_at = Some(Instant::now() + REPLY_PAUSE);
                }
                let mut updates = self.play(mv, Duration::ZERO);
                updates.push(self.puzzle_update());
                updates
            }
        }
    }

    /// The try is over: the rating moves once, if it was rated.
    fn finish_puzzle(&mut self, solved: bool) {
        let Some(try_) = self.puzzle.as_mut() else {
            return;
        };
        if try_.finished() {
            return;
        }
        try_.state = if solved {
            PuzzleState::Solved
        } else {
            PuzzleState::Failed
        };
        try_.reply_at = None;
        if try_.rating.is_some() {
            self.ledger.update(try_.puzzle.id(), |k| k.over = true);
        }
        // A hint counts as help: a solve with one does not raise the rating.
        let counted_solve = solved && !try_.helped;
        try_.new_rating = try_
            .rating
            .map(|r| r.after_puzzle(f64::from(try_.puzzle.rating()), counted_solve));
    }

    /// The opponent's reply, when due.
    pub(super) fn puzzle_tick(&mut self) -> Vec<Update> {
        let Some(try_) = self.puzzle.as_mut() else {
            return Vec::new();
        };
        match try_.reply_at {
            Some(at) if Instant::now() >= at => {}
            _ => return Vec::new(),
        }
        try_.reply_at = None;
        try_.state = PuzzleState::Playing;
        let Some(&reply) = try_.puzzle.solution().get(try_.ply) else {
            return Vec::new();
        };
        try_.ply += 1;
        let mut updates = self.play(reply, Duration::ZERO);
        updates.push(self.puzzle_update());
        updates
    }

    /// `Request::PuzzleHint`.
    pub(super) fn puzzle_hint(&mut self) -> Vec<Update> {
        match self.puzzle.as_mut() {
            Some(try_) if try_.state == PuzzleState::Playing => {
                try_.hints = (try_.hints + 1).min(2);
                try_.helped = true;
                if try_.rating.is_some() {
                    self.ledger.update(try_.puzzle.id(), |k| k.helped = true);
                }
                vec![self.puzzle_update()]
            }
            Some(_) => vec![Update::error("the puzzle is not waiting for your move")],
            None => vec![Update::error("no puzzle is open")],
        }
    }

    /// `Request::PuzzleSolution`: the rest of the line is played; the try is failed.
    pub(super) fn puzzle_solution(&mut self) -> Vec<Update> {
        let Some(try_) = self.puzzle.as_ref() else {
            return vec![Update::error("no puzzle is open")];
        };
        if try_.ply >= try_.puzzle.solution().len() {
            return vec![self.puzzle_update()];
        }
        let rest: Vec<Move> = try_.puzzle.solution()[try_.ply..].to_vec();
        self.finish_puzzle(false);
        let mut game = Game::from_position(*self.game.rules(), self.game.start().clone());
        for &mv in self.game.moves().iter().chain(&rest) {
            if game.play(mv).is_err() {
                break;
            }
        }
        self.reset(game, self.players, self.clock.control());
        if let Some(try_) = self.puzzle.as_mut() {
            try_.ply = try_.puzzle.solution().len();
            try_.mistake = None;
        }
        let mut updates = self.after_change();
        updates.push(self.puzzle_update());
        updates
    }

    /// What the page shows of the puzzle.
    pub(super) fn puzzle_update(&self) -> Update {
        let Some(try_) = self.puzzle.as_ref() else {
            return Update::error("no puzzle is open");
        };
        let puzzle = try_.puzzle;
        let hint = (try_.hints > 0)
            .then(|| puzzle.solution().get(try_.ply))
            .flatten()
            .map(|mv| {
                let piece = match (mv.from(), mv.drop_kind()) {
                    (Some(from), _) => from.to_string(),
                    (None, Some(kind)) => format!("{}*", kind.base_letter()),
                    (None, None) => String::new(),
                };
                (piece, (try_.hints > 1).then(|| mv.to().to_string()))
            });
        // After a wrong move the solution waits until it is asked for.
        let shown = try_.state == PuzzleState::Solved
            || (try_.state == PuzzleState::Failed && try_.mistake.is_none());
        let solution = if shown {
            let mut pos = puzzle.position().clone();
            let mut previous = None;
            puzzle
                .solution()
                .iter()
                .map(|&mv| {
                    let text = SolutionMove {
                        usi: mv.to_string(),
                        japanese: japanese(&pos, mv, previous),
                        western: western(&pos, mv),
                    };
                    pos = pos.played(mv);
                    previous = Some(mv.to());
                    text
                })
                .collect()
        } else {
            Vec::new()
        };
        Update::Puzzle(Box::new(PuzzleView {
            id: puzzle.id().to_string(),
            rating: puzzle.rating(),
            themes: puzzle.themes().iter().map(|t| t.title()).collect(),
            theme_words: puzzle.themes().iter().map(Theme::to_string).collect(),
            player: match try_.player() {
                gogo_rules::Color::Sente => "sente",
                gogo_rules::Color::Gote => "gote",
            },
            state: try_.state,
            found: try_.ply.div_ceil(2),
            moves: puzzle.solution().len().div_ceil(2),
            mistake: try_.mistake.clone(),
            hint,
            solution,
            sfen: puzzle.position().to_sfen(),
            rated: try_.rating.is_some(),
            new_rating: try_.new_rating.map(PlayerRating::from),
            rating_before: try_.rating.map(PlayerRating::from),
            set_size: set::shipped().len(),
            theme_choices: Theme::CHOICES
                .iter()
                .map(|t| (t.to_string(), t.title()))
                .collect(),
        }))
    }
}
