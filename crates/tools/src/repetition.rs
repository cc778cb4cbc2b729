//! `gogo repetitions`: in games lost by fourfold repetition, the moves by which the loser
//! stepped into a position's third occurrence or later (in games drawn by it, either side's), each searched again with the game's
//! history beside the best move that avoids the repeat. Under the standard rules Sente loses a
//! fourfold repetition, so these are the places where Sente drifted into a lost cycle; an
//! avoiding move within a small margin of the one played is a search that did not see (or
//! did not weigh) the cycle.

use crate::games::SourceGame;
use gogo_rules::{Color, DrawReason, Game, Move, Outcome, Position, RuleSet, WinReason};
use gogo_search::{GameHistory, SearchControl, SearchJob, SearchLimits, SearchOptions, Searcher};

/// One step into a repeated position by the side that went on to lose by repetition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepeatStep {
    /// The game's name.
    pub game: String,
    /// The ply of the move, from 0 at the game's start.
    pub ply: usize,
    /// The position before the move.
    pub before: Position,
    /// The move played.
    pub played: Move,
    /// Which occurrence of its position the move made (3 or more).
    pub occurrence: usize,
    /// The search's score of the move played, for the mover (with the game's history).
    pub played_score: i32,
    /// The best move whose position had occurred at most once before, and its score.
    pub avoiding: Option<(Move, i32)>,
}

impl RepeatStep {
    /// How much worse the best avoiding move scored than the move played, centipawns
    /// (negative: it scored better); `None` when every move repeats.
    pub fn cost_of_avoiding(&self) -> Option<i32> {
        self.avoiding.map(|(_, s)| self.played_score - s)
    }
}

/// What [`audit`] found in one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameAudit {
    /// How the game ended, as the rules judge its moves (`None`: unfinished).
    pub outcome: Option<Outcome>,
    /// The side that lost by fourfold repetition, if the game ended so.
    pub loser: Option<Color>,
    /// Its steps into a third occurrence or later (both sides' in a draw by repetition).
    pub steps: Vec<RepeatStep>,
}

/// How many of `positions` are `target` (the same board, hands and side to move).
fn occurrences(positions: &[Position], target: &Position) -> usize {
    positions
        .iter()
        .filter(|p| gogo_rules::game::same_position(p, target))
        .count()
}

/// Replays `game` under `rules`; if it ended by fourfold repetition, searches again, `nodes`
/// nodes each with the game's history and every move as a line, each position where the
/// loser's move (either side's in a draw) made a third occurrence or later.
pub fn audit(game: &SourceGame, rules: RuleSet, searcher: &Searcher, nodes: u64) -> GameAudit {
    let mut replay = Game::from_position(rules, game.start.clone());
    for &mv in &game.moves {
        if replay.play(mv).is_err() {
            break;
        }
    }
    let outcome = replay.outcome();
    let loser = match outcome {
        Some(Outcome::Win {
            winner,
            reason: WinReason::Repetition,
        }) => Some(!winner),
        _ => None,
    };
    // Whose steps into repeats are searched: the loser's, or both sides' in a draw by
    // repetition (under kawu: a side that was ahead there let a win go).
    let drawn = matches!(
        outcome,
        Some(Outcome::Draw {
            reason: DrawReason::Repetition
        })
    );
    if loser.is_none() && !drawn {
        return GameAudit {
            outcome,
            loser,
            steps: Vec::new(),
        };
    }
    let positions = replay.positions();
    let mut steps = Vec::new();
    for (ply, &played) in replay.moves().iter().enumerate() {
        let before = &positions[ply];
        let occurrence = occurrences(&positions[..=ply + 1], &positions[ply + 1]);
        if loser.is_some_and(|l| before.side_to_move() != l) || occurrence < 3 {
            continue;
        }
        let legal = before.legal_moves();
        let job = SearchJob {
            root: before.clone(),
            history: GameHistory::from_positions(&positions[..=ply]),
            limits: SearchLimits {
                nodes: Some(nodes),
                whole_first_iteration: true,
                ..Default::default()
            },
            options: SearchOptions {
                multipv: legal.len(),
                rules,
                ..Default::default()
            },
        };
        searcher.new_game();
        let lines = searcher
            .context()
            .search(&job, &SearchControl::new(false), &|_| {})
            .lines;
        let Some(&(_, played_score)) = lines.iter().find(|(mv, _)| *mv == played) else {
            continue;
        };
        // A move repeats if its position would be the third occurrence or later.
        let repeats = |mv: Move| occurrences(&positions[..=ply], &before.played(mv)) >= 2;
        let avoiding = lines.iter().copied().find(|&(mv, _)| !repeats(mv));
        steps.push(RepeatStep {
            game: game.name.clone(),
            ply,
            before: before.clone(),
            played,
            occurrence,
            played_score,
            avoiding,
        });
    }
    GameAudit {
        outcome,
        loser,
        steps,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Golds out and back from the start, four times: Sente's last move makes the start's
    /// fourth occurrence, so Sente loses under the standard rules.
    fn shuffled(times: usize) -> SourceGame {
        let mut moves = Vec::new();
        for _ in 0..times {
            for mv in ["4e4d", "2a2b", "4d4e", "2b2a"] {
                moves.push(mv.parse().unwrap());
            }
        }
        SourceGame {
            name: "shuffle".into(),
            start: Position::startpos(),
            moves,
            result: None,
        }
    }

    #[test]
    fn the_losers_steps_into_repeats_are_found_and_searched_with_the_history() {
        let searcher = Searcher::new(4).unwrap();
        let found = audit(&shuffled(3), RuleSet::standard(), &searcher, 20_000);
        assert_eq!(found.loser, Some(Color::Sente));
        // Sente's moves at plies 8 (4e4d, the third time) and 10 (4d4e) made third
        // occurrences; at 12 and 14 fourth ones.
        let plies: Vec<usize> = found.steps.iter().map(|s| s.ply).collect();
        assert_eq!(plies, [8, 10], "{:?}", found.steps);
        for step in &found.steps {
            assert_eq!(step.occurrence, 3);
            assert_eq!(step.before.side_to_move(), Color::Sente);
            // Leaving the cycle is possible from the start, and its move is a fresh one.
            let (avoid, _) = step.avoiding.unwrap();
            assert_ne!(avoid, step.played);
            assert!(step.cost_of_avoiding().is_some());
        }
        // Under kawu the same game is a draw: nobody lost, and both sides' steps into
        // repeats are looked at (Gote's 2a2b and 2b2a at plies 9 and 11 too).
        let drawn = audit(&shuffled(3), RuleSet::kawu(), &searcher, 20_000);
        assert_eq!(drawn.loser, None);
        assert_eq!(
            drawn.outcome.map(|o| o.reason()),
            Some("fourfold repetition")
        );
        let plies: Vec<usize> = drawn.steps.iter().map(|s| s.ply).collect();
        assert_eq!(plies, [7, 8, 9, 10, 11], "{:?}", drawn.steps);
        // A game not ended by repetition has nothing to audit.
        assert_eq!(
            audit(&shuffled(1), RuleSet::standard(), &searcher, 20_000).loser,
            None
        );
    }
}
