//! How a game between engines (or people) ended, beyond the rules' own outcomes: one type
//! for the arena's referee and the browser board, with the words each record format uses.

use crate::ClientError;
use gogo_rules::{Color, DrawReason, Outcome, WinReason};

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// By the rules (mate, no moves, repetition, perpetual check, ply limit).
    Rules(Outcome),
    /// This side resigned.
    Resignation(Color),
    /// This side played an illegal move (its text).
    IllegalMove(Color, String),
    /// This side's engine sent a line that should have been its move but cannot be read.
    Malformed(Color, String),
    /// This side ran out of time.
    Time(Color),
    /// This side's engine crashed or could not be started (what happened).
    EngineFailure(Color, String),
    /// Both engines agreed that this side wins, for long enough.
    Adjudicated(Color),
    /// Both players agreed to a draw.
    DrawAgreed,
    /// A player called the game off before both sides had moved: no result.
    Aborted,
    /// The first move did not come in time: the game ends unplayed, with no result.
    NoStart,
    /// This side left the game, and the other claimed the win after the grace time.
    Abandoned(Color),
    /// This side left the game, and the other claimed a draw after the grace time.
    LeftDrawn(Color),
}

impl Ending {
    /// What an engine's failure to answer costs `side`: a timeout loses on time, an
    /// unreadable answer and a crash lose as such.
    pub fn from_failure(failure: &ClientError, side: Color) -> Ending {
        match failure {
            ClientError::Timeout => Ending::Time(side),
            ClientError::Malformed(line) => Ending::Malformed(side, line.clone()),
            ClientError::Crashed => Ending::EngineFailure(side, failure.to_string()),
            ClientError::Start(why) => Ending::EngineFailure(side, why.clone()),
        }
    }

    /// The winner, if any.
    pub fn winner(&self) -> Option<Color> {
        match self {
            Ending::Rules(o) => o.winner(),
            Ending::Resignation(c)
            | Ending::IllegalMove(c, _)
            | Ending::Malformed(c, _)
            | Ending::Time(c)
            | Ending::EngineFailure(c, _)
            | Ending::Abandoned(c) => Some(!*c),
            Ending::Adjudicated(w) => Some(*w),
            Ending::DrawAgreed | Ending::Aborted | Ending::NoStart | Ending::LeftDrawn(_) => None,
        }
    }

    /// The ending whose [`Ending::reason`] is `reason` and whose winner is `winner`, for an
    /// ending kept as those two (the online store): every ending that does not quote an
    /// engine's words. `None` for any other text.
    pub fn from_reason(reason: &str, winner: Option<Color>) -> Option<Ending> {
        let loser = winner.map(|w| !w).unwrap_or(Color::Sente);
        let win = |reason| winner.map(|winner| Ending::Rules(Outcome::Win { winner, reason }));
        let draw = |reason| Some(Ending::Rules(Outcome::Draw { reason }));
        [
            Some(Ending::Resignation(loser)),
            Some(Ending::Time(loser)),
            Some(Ending::Abandoned(loser)),
            Some(Ending::LeftDrawn(Color::Sente)),
            Some(Ending::DrawAgreed),
            Some(Ending::Aborted),
            Some(Ending::NoStart),
            win(WinReason::Checkmate),
            win(WinReason::NoLegalMoves),
            win(WinReason::Repetition),
            win(WinReason::PerpetualCheck),
            draw(DrawReason::Repetition),
            draw(DrawReason::MutualPerpetualCheck),
            draw(DrawReason::PlyLimit),
        ]
        .into_iter()
        .flatten()
        .find(|e| e.reason() == reason && e.winner() == winner)
    }

    /// Whether the game counts: an aborted or unplayed game has no result and rates no one.
    pub fn has_result(&self) -> bool {
        !matches!(self, Ending::Aborted | Ending::NoStart)
    }

    /// The result: `1-0`, `0-1` or `1/2-1/2` (`*` for a game with none).
    pub fn result(&self) -> &'static str {
        if !self.has_result() {
            return "*";
        }
        match self.winner() {
            Some(Color::Sente) => "1-0",
            Some(Color::Gote) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The side whose engine failed (no answer in time, a crash, an unreadable answer): it
    /// may still be busy or babbling, so it is started afresh rather than asked again.
    pub fn failed_engine(&self) -> Option<Color> {
        match self {
            Ending::Malformed(c, _) | Ending::Time(c) | Ending::EngineFailure(c, _) => Some(*c),
            _ => None,
        }
    }

    /// Why, in words: `checkmate`, `fourfold repetition (...)`, `illegal move 5d5b`, ...
    pub fn reason(&self) -> String {
        match self {
            Ending::Rules(o @ Outcome::Win { reason, .. }) => match reason {
                WinReason::Repetition => {
                    format!("{} (Sente loses under the standard rules)", o.reason())
                }
                WinReason::PerpetualCheck => format!("{} (the checking side loses)", o.reason()),
                _ => o.reason().into(),
            },
            Ending::Rules(o) => o.reason().into(),
            Ending::Resignation(_) => "resignation".into(),
            Ending::IllegalMove(_, m) => format!("illegal move {m}"),
            Ending::Malformed(_, l) => format!("malformed line '{l}'"),
            Ending::Time(_) => "time forfeit".into(),
            Ending::EngineFailure(_, why) => why.clone(),
            Ending::Adjudicated(_) => "adjudication".into(),
            Ending::DrawAgreed => "draw agreed".into(),
            Ending::Aborted => "aborted".into(),
            Ending::NoStart => "no first move in time".into(),
            Ending::Abandoned(_) => "left the game".into(),
            Ending::LeftDrawn(_) => "left the game: drawn".into(),
        }
    }

    /// The end in the records' words, KIF then CSA: `詰み` `%TSUMI`, `持将棋` `%HIKIWAKE`,
    /// `千日手` `%SENNICHITE`, `投了` `%TORYO`, `切れ負け` `%TIME_UP`, `反則負け`
    /// `%ILLEGAL_MOVE`, `中断` `%CHUDAN`. One table, so that the two formats always agree.
    fn record_words(&self) -> (&'static str, &'static str) {
        match self {
            Ending::Rules(Outcome::Win {
                reason: WinReason::Checkmate | WinReason::NoLegalMoves,
                ..
            }) => ("詰み", "%TSUMI"),
            Ending::Rules(Outcome::Draw {
                reason: DrawReason::PlyLimit,
            }) => ("持将棋", "%HIKIWAKE"),
            Ending::Rules(_) => ("千日手", "%SENNICHITE"),
            Ending::Resignation(_) => ("投了", "%TORYO"),
            Ending::Time(_) => ("切れ負け", "%TIME_UP"),
            Ending::IllegalMove(..) | Ending::Malformed(..) => ("反則負け", "%ILLEGAL_MOVE"),
            Ending::EngineFailure(..)
            | Ending::Adjudicated(_)
            | Ending::Aborted
            | Ending::NoStart => ("中断", "%CHUDAN"),
            Ending::DrawAgreed | Ending::LeftDrawn(_) => ("引き分け", "%HIKIWAKE"),
            // The absent side's grace time ran out, as a flag falls.
            Ending::Abandoned(_) => ("切れ負け", "%TIME_UP"),
        }
    }

    /// The KIF word for the end (`投了`, `詰み`, ...).
    pub fn kif_word(&self) -> &'static str {
        self.record_words().0
    }

    /// The CSA special move for the end (`%TORYO`, `%TSUMI`, ...).
    pub fn csa_word(&self) -> &'static str {
        self.record_words().1
    }

    /// The KIF summary line: `まで23手で先手の勝ち（checkmate）`.
    pub fn kif_summary(&self, plies: usize) -> String {
        if !self.has_result() {
            return format!("まで{plies}手で中断（{}）", self.reason());
        }
        match self.winner() {
            Some(c) => format!(
                "まで{plies}手で{}の勝ち（{}）",
                if c == Color::Sente {
                    "先手"
                } else {
                    "後手"
                },
                self.reason()
            ),
            None => format!("まで{plies}手で引き分け（{}）", self.reason()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winners_words_and_failures() {
        let mate = Ending::Rules(Outcome::Win {
            winner: Color::Gote,
            reason: WinReason::Checkmate,
        });
        assert_eq!(
            (mate.result(), mate.kif_word(), mate.csa_word()),
            ("0-1", "詰み", "%TSUMI")
        );
        let repetition = Ending::Rules(Outcome::Win {
            winner: Color::Gote,
            reason: WinReason::Repetition,
        });
        assert!(repetition.reason().contains("Sente loses"));
        assert_eq!(repetition.csa_word(), "%SENNICHITE");
        let time = Ending::from_failure(&ClientError::Timeout, Color::Sente);
        assert_eq!(
            (time.result(), time.reason().as_str()),
            ("0-1", "time forfeit")
        );
        assert_eq!(time.failed_engine(), Some(Color::Sente));
        let crash = Ending::from_failure(&ClientError::Crashed, Color::Gote);
        assert_eq!((crash.result(), crash.kif_word()), ("1-0", "中断"));
        assert_eq!(Ending::Resignation(Color::Gote).failed_engine(), None);
        assert_eq!(Ending::Adjudicated(Color::Sente).result(), "1-0");
        assert_eq!(
            Ending::Resignation(Color::Sente).kif_summary(12),
            "まで12手で後手の勝ち（resignation）"
        );
    }

    #[test]
    fn an_ending_comes_back_from_its_reason_and_winner() {
        let endings = [
            Ending::Resignation(Color::Gote),
            Ending::Time(Color::Sente),
            Ending::DrawAgreed,
            Ending::Aborted,
            Ending::NoStart,
            Ending::Abandoned(Color::Gote),
            Ending::Rules(Outcome::Win {
                winner: Color::Gote,
                reason: WinReason::Repetition,
            }),
            Ending::Rules(Outcome::Draw {
                reason: DrawReason::PlyLimit,
            }),
        ];
        for ending in endings {
            let back = Ending::from_reason(&ending.reason(), ending.winner());
            assert_eq!(back.as_ref(), Some(&ending));
        }
        assert_eq!(Ending::from_reason("nonsense", None), None);
        assert_eq!(Ending::from_reason("resignation", None), None);
    }

    #[test]
    fn the_online_endings_have_their_results_and_words() {
        let draw = Ending::DrawAgreed;
        assert_eq!((draw.result(), draw.csa_word()), ("1/2-1/2", "%HIKIWAKE"));
        for unplayed in [Ending::Aborted, Ending::NoStart] {
            assert!(!unplayed.has_result());
            assert_eq!((unplayed.result(), unplayed.csa_word()), ("*", "%CHUDAN"));
            assert!(unplayed.kif_summary(1).starts_with("まで1手で中断"));
        }
        let left = Ending::Abandoned(Color::Sente);
        assert_eq!(
            (left.result(), left.reason().as_str()),
            ("0-1", "left the game")
        );
        assert!(left.has_result());
    }
}
