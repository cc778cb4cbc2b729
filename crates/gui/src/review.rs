//! The review of a game: every position searched for a fixed time, each move's loss of the
//! mover's winning chance against the engine's best move, and the marks lishogi gives
//! (inaccuracy, mistake, blunder). The session runs the searches ([`Review::next_position`],
//! [`Review::record`]); this module only keeps and judges what they said.

use crate::chances::SenteEval;
use crate::messages::{Notation, SenteScore};
use gogo_rules::kif::japanese;
use gogo_rules::western::western;
use gogo_rules::{Color, Game, Move, Outcome};
use serde::Serialize;

/// The shortest time per position a review may ask for, ms.
pub const MIN_REVIEW_MILLIS: u64 = 50;
/// The longest time per position a review may ask for, ms.
pub const MAX_REVIEW_MILLIS: u64 = 10_000;
/// A move that loses at least this much of the mover's winning chance (0 to 1) is an
/// inaccuracy; lishogi and lichess use the same steps (0.1, 0.2, 0.3 on their -1 to 1 scale).
pub const INACCURACY: f64 = 0.05;
/// ... a mistake.
pub const MISTAKE: f64 = 0.10;
/// ... a blunder.
pub const BLUNDER: f64 = 0.15;

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    /// Lost [`INACCURACY`] or more.
    Inaccuracy,
    /// Lost [`MISTAKE`] or more.
    Mistake,
    /// Lost [`BLUNDER`] or more.
    Blunder,
}

impl Mark {
    /// The mark for a loss of winning chance, if it earns one.
    pub fn for_loss(loss: f64) -> Option<Mark> {
        if loss >= BLUNDER {
            Some(Mark::Blunder)
        } else if loss >= MISTAKE {
            Some(Mark::Mistake)
        } else if loss >= INACCURACY {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    /// The word, in English.
    pub fn word(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }

    /// The word Japanese commentaries use.
    pub fn japanese(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "疑問手",
            Mark::Mistake => "悪手",
            Mark::Blunder => "大悪手",
        }
    }
}

/// What the search said of one position, or what the rules say of a finished one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PositionEval {
    /// The score for Sente (none when the rules decided the position).
    pub score: Option<SenteScore>,
    /// Sente's winning chance, 0 to 1.
    pub sente_win: f64,
    /// The engine's best move, if it searched.
    pub best: Option<Move>,
}

impl PositionEval {
    /// From a search's score (with its winning chance) and best move.
    pub fn searched(eval: SenteEval, best: Option<Move>) -> PositionEval {
        PositionEval {
            score: Some(eval.score),
            sente_win: eval.sente_win,
            best,
        }
    }

    fn chance_of(&self, color: Color) -> f64 {
        match color {
            Color::Sente => self.sente_win,
            Color::Gote => 1.0 - self.sente_win,
        }
    }
}

/// One reviewed move.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReviewedMove {
    /// 1-based ply.
    pub ply: usize,
    /// The move, USI.
    pub usi: String,
    /// The score after the move, for Sente.
    pub score: Option<SenteScore>,
    /// Sente's winning chance after the move.
    pub sente_win: f64,
    /// How much of the mover's winning chance the move gave away against the best move.
    pub loss: f64,
    /// The mark, if the loss earns one.
    pub mark: Option<Mark>,
    /// The engine's move in the position before, when it differs from the move played.
    pub best: Option<String>,
    /// That move in Japanese notation, with the mover's mark.
    pub best_japanese: Option<String>,
    /// That move in Western notation.
    pub best_western: Option<String>,
}

/// One side's review in figures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct SideSummary {
    /// Moves reviewed.
    pub moves: usize,
    /// Average loss of winning chance per move, 0 to 1.
    pub average_loss: f64,
    /// Inaccuracies.
    pub inaccuracies: usize,
    /// Mistakes.
    pub mistakes: usize,
    /// Blunders.
    pub blunders: usize,
}

/// What the page shows of a review.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReviewView {
    /// Positions searched so far.
    pub done: usize,
    /// Positions to search.
    pub total: usize,
    /// Time per position, ms.
    pub millis: u64,
    /// The moves reviewed so far (those whose positions before and after are known).
    pub moves: Vec<ReviewedMove>,
    /// Per side (Sente first), once every position is searched.
    pub summary: Option<[SideSummary; 2]>,
}

/// A review in progress or done.
#[derive(Clone, Debug)]
pub struct Review {
    millis: u64,
    /// One per position of the game, the start first.
    evals: Vec<Option<PositionEval>>,
}

impl Review {
    /// A review of `game` at `millis` per position. A position the rules decided (the last
    /// one of a finished game) is judged at once.
    pub fn new(game: &Game, millis: u64) -> Review {
        let mut evals = vec![None; game.positions().len()];
        if let (Some(outcome), Some(last)) = (game.outcome(), evals.last_mut()) {
            let sente_win = match outcome {
                Outcome::Draw { .. } => 0.5,
                Outcome::Win {
                    winner: Color::Sente,
                    ..
                } => 1.0,
                Outcome::Win { .. } => 0.0,
            };
            *last = Some(PositionEval {
                score: None,
                sente_win,
                best: None,
            });
        }
        Review { millis, evals }
    }

    /// Time per position, ms.
    pub fn millis(&self) -> u64 {
        self.millis
    }

    /// The next position to search (its index in the game's positions), if any is left.
    pub fn next_position(&self) -> Option<usize> {
        self.evals.iter().position(Option::is_none)
    }

    /// Whether every position is judged.
    pub fn is_done(&self) -> bool {
        self.next_position().is_none()
    }

    /// Records what the search said of position `index`.
    pub fn record(&mut self, index: usize, eval: PositionEval) {
        if let Some(slot) = self.evals.get_mut(index) {
            *slot = Some(eval);
        }
    }

    /// The moves of `game` whose positions before and after are judged.
    pub fn moves(&self, game: &Game) -> Vec<ReviewedMove> {
        let positions = game.positions();
        let mut out = Vec::new();
        for (i, &mv) in game.moves().iter().enumerate() {
            let (Some(before), Some(after)) = (self.evals[i], self.evals[i + 1]) else {
                continue;
            };
            let pos = &positions[i];
            let mover = pos.side_to_move();
            let played_best = before.best == Some(mv);
            let loss = if played_best {
                0.0
            } else {
                (before.chance_of(mover) - after.chance_of(mover)).max(0.0)
            };
            let previous = i.checked_sub(1).map(|p| game.moves()[p].to());
            let best = before.best.filter(|_| !played_best);
            let mark_of = |c: Color| if c == Color::Sente { '▲' } else { '△' };
            out.push(ReviewedMove {
                ply: i + 1,
                usi: mv.to_string(),
                score: after.score,
                sente_win: after.sente_win,
                loss,
                mark: Mark::for_loss(loss),
                best: best.map(|b| b.to_string()),
                best_japanese: best
                    .map(|b| format!("{}{}", mark_of(mover), japanese(pos, b, previous))),
                best_western: best.map(|b| western(pos, b)),
            });
        }
        out
    }

    /// Per side, from the reviewed moves.
    pub fn summary(moves: &[ReviewedMove], game: &Game) -> [SideSummary; 2] {
        let mut sides = [SideSummary::default(); 2];
        let mut total_loss = [0.0; 2];
        for m in moves {
            let side = game.positions()[m.ply - 1].side_to_move().index();
            let s = &mut sides[side];
            s.moves += 1;
            total_loss[side] += m.loss;
            match m.mark {
                Some(Mark::Inaccuracy) => s.inaccuracies += 1,
                Some(Mark::Mistake) => s.mistakes += 1,
                Some(Mark::Blunder) => s.blunders += 1,
                None => {}
            }
        }
        for (s, total) in sides.iter_mut().zip(total_loss) {
            if s.moves > 0 {
                s.average_loss = total / s.moves as f64;
            }
        }
        sides
    }

    /// What the page shows.
    pub fn view(&self, game: &Game) -> ReviewView {
        let moves = self.moves(game);
        ReviewView {
            done: self.evals.iter().filter(|e| e.is_some()).count(),
            total: self.evals.len(),
            millis: self.millis,
            summary: self.is_done().then(|| Review::summary(&moves, game)),
            moves,
        }
    }

    /// KIF comments for each move of `game` (empty where there is nothing to say): the score
    /// after the move, and the mark with the better move in `notation`.
    pub fn kif_comments(&self, game: &Game, notation: Notation) -> Vec<String> {
        let mut comments = vec![String::new(); game.moves().len()];
        for m in self.moves(game) {
            let score = match m.score {
                Some(SenteScore::Cp { value }) => format!("評価値 {value:+}"),
                Some(SenteScore::Mate { plies }) if plies > 0 => format!("先手 詰み {plies}手"),
                Some(SenteScore::Mate { plies }) => format!("後手 詰み {}手", -plies),
                None => "終局".to_string(),
            };
            let mut text = format!(
                "gogo {} ms: {score} (先手勝率 {:.0}%)",
                self.millis,
                m.sente_win * 100.0
            );
            if let Some(mark) = m.mark {
                text.push_str(&format!(
                    "\n{} ({}, -{:.0}%)",
                    mark.japanese(),
                    mark.word(),
                    m.loss * 100.0
                ));
                let best = match notation {
                    Notation::Japanese => m.best_japanese.clone(),
                    Notation::Western => m.best_western.clone(),
                    Notation::Usi => m.best.clone(),
                };
                if let Some(best) = best {
                    text.push_str(&format!(" 最善 {best}"));
                }
            }
            comments[m.ply - 1] = text;
        }
        comments
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gogo_rules::RuleSet;

    /// A search's score for Sente (Sente to move), with its chance on the default scale.
    fn cp(value: i32) -> SenteEval {
        SenteEval::from_info(
            gogo_protocol::InfoScore::Centipawns(value),
            None,
            Color::Sente,
        )
    }

    #[test]
    fn marks_follow_the_thresholds() {
        assert_eq!(Mark::for_loss(0.0), None);
        assert_eq!(Mark::for_loss(0.049), None);
        assert_eq!(Mark::for_loss(0.05), Some(Mark::Inaccuracy));
        assert_eq!(Mark::for_loss(0.12), Some(Mark::Mistake));
        assert_eq!(Mark::for_loss(0.15), Some(Mark::Blunder));
        assert_eq!(Mark::for_loss(0.9), Some(Mark::Blunder));
    }

    #[test]
    fn a_move_that_gives_away_the_game_is_a_blunder_with_the_better_move() {
        let mut game = Game::new(RuleSet::standard());
        game.play_usi("4e4d").unwrap();
        game.play_usi("2a2b").unwrap();
        let mut review = Review::new(&game, 200);
        let best = game.positions()[0].parse_move("3e3d").unwrap();
        let gote_best = game.positions()[1].parse_move("2a2b").unwrap();
        assert_eq!(review.next_position(), Some(0));
        review.record(0, PositionEval::searched(cp(0), Some(best)));
        // Sente's move dropped it from even to -600: a blunder.
        review.record(1, PositionEval::searched(cp(-600), Some(gote_best)));
        assert!(!review.is_done());
        review.record(2, PositionEval::searched(cp(-650), None));
        assert!(review.is_done());
        let moves = review.moves(&game);
        assert_eq!(moves.len(), 2);
        assert_eq!(moves[0].mark, Some(Mark::Blunder));
        assert!((moves[0].loss - (0.5 - cp(-600).sente_win)).abs() < 1e-9);
        assert_eq!(moves[0].best.as_deref(), Some("3e3d"));
        assert!(moves[0].best_japanese.as_deref().unwrap().starts_with('▲'));
        // Gote played the engine's move: no loss, whatever the scores say.
        assert_eq!(
            (moves[1].loss, moves[1].mark, moves[1].best.clone()),
            (0.0, None, None)
        );
        let [sente, gote] = Review::summary(&moves, &game);
        assert_eq!(
            (sente.moves, sente.blunders, gote.moves, gote.blunders),
            (1, 1, 1, 0)
        );
        let comments = review.kif_comments(&game, Notation::Japanese);
        assert!(
            comments[0].contains("大悪手") && comments[0].contains("最善 ▲"),
            "{comments:?}"
        );
        // The better move (3e3d, the silver) in the other notations.
        assert_eq!(moves[0].best_western.as_deref(), Some("S-34"));
        let western = review.kif_comments(&game, Notation::Western);
        assert!(western[0].ends_with("最善 S-34"), "{western:?}");
        let usi = review.kif_comments(&game, Notation::Usi);
        assert!(usi[0].ends_with("最善 3e3d"), "{usi:?}");
        assert!(comments[1].contains("評価値 -650") && !comments[1].contains("悪手"));
    }

    #[test]
    fn a_finished_game_is_judged_by_the_rules_at_its_end() {
        // Gote's king on 5a is mated by the gold dropped on 4b, guarded by the gold on 4c:
        // the last position needs no search.
        let start = gogo_rules::Position::from_sfen("k4/5/1G3/5/4K b G 1").unwrap();
        let mut game = Game::from_position(RuleSet::standard(), start);
        game.play_usi("G*4b").unwrap();
        assert!(game.outcome().is_some());
        let review = Review::new(&game, 100);
        assert_eq!(review.next_position(), Some(0));
        assert_eq!(review.evals.last().unwrap().unwrap().sente_win, 1.0);
    }
}
