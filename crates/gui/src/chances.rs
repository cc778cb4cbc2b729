//! Sente's winning chance from what the engine said: its own `wdl` where it reports one
//! (`USI_ShowWDL`, asked for wherever the engine offers it, as chess GUIs ask for
//! `UCI_ShowWDL`), else the score on one documented default scale. The evaluation bar, the
//! analysis lines and the review all take their chances from here.

use crate::messages::SenteScore;
use gogo_protocol::{InfoScore, Wdl};
use gogo_rules::Color;

/// The scale for an engine that reports no `wdl`: `1 / (1 + e^(-cp / scale))` is the
/// chance of a centipawn score. It is gogo's built-in network's calibration (gen7, fitted
/// to its games' results by `gogo-train --calibrate`: 100 cp is 57.5 %); gogo itself reports
/// its chances, from the scale of whichever evaluation it runs.
pub const DEFAULT_WIN_SCALE: f64 = 330.0;

/// A score and the winning chance it stands for, both from Sente's side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SenteEval {
    /// The score for Sente.
    pub score: SenteScore,
    /// Sente's winning chance (a draw counts half), 0 to 1.
    pub sente_win: f64,
}

impl SenteEval {
    /// From an `info` score (and `wdl`, if the engine sent one) for the side to move `side`.
    pub fn from_info(score: InfoScore, wdl: Option<Wdl>, side: Color) -> SenteEval {
        let for_side = wdl
            .and_then(Wdl::expected)
            .unwrap_or_else(|| default_chance(score));
        let score = sente_score(score, side);
        let sente_win = match side {
            Color::Sente => for_side,
            Color::Gote => 1.0 - for_side,
        };
        SenteEval { score, sente_win }
    }

    /// An even position, for a search that gave no score.
    pub fn even() -> SenteEval {
        SenteEval {
            score: SenteScore::Cp { value: 0 },
            sente_win: 0.5,
        }
    }
}

/// The chance of a score for the side to move on [`DEFAULT_WIN_SCALE`].
pub fn default_chance(score: InfoScore) -> f64 {
    Wdl::from_score(score, DEFAULT_WIN_SCALE)
        .expected()
        .unwrap_or(0.5)
}

/// A score from the side to move's point of view, turned to Sente's.
pub fn sente_score(score: InfoScore, side: Color) -> SenteScore {
    let flip = if side == Color::Sente { 1 } else { -1 };
    match score {
        // An engine may send any i32: i32::MIN does not flip.
        InfoScore::Centipawns(cp) => SenteScore::Cp {
            value: cp.saturating_mul(flip),
        },
        InfoScore::Mate(n) => SenteScore::Mate {
            plies: n.saturating_mul(flip),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chances_come_from_the_engine_or_the_default_scale() {
        let cp = InfoScore::Centipawns;
        // Without wdl: the default scale, to the per mille (100 cp is 57.5 %).
        let e = SenteEval::from_info(cp(100), None, Color::Sente);
        assert!((e.sente_win - 0.575).abs() < 1e-9, "{}", e.sente_win);
        let e = SenteEval::from_info(cp(100), None, Color::Gote);
        assert!((e.sente_win - 0.425).abs() < 1e-9);
        assert_eq!(e.score, SenteScore::Cp { value: -100 });
        assert_eq!(
            SenteEval::from_info(cp(0), None, Color::Sente).sente_win,
            0.5
        );
        let mate = SenteEval::from_info(InfoScore::Mate(3), None, Color::Gote);
        assert_eq!(
            (mate.sente_win, mate.score),
            (0.0, SenteScore::Mate { plies: -3 })
        );
        // With wdl (Fairy-Stockfish's line `score cp 107 wdl 293 703 4`): the engine's own,
        // draws counted half, whatever the score's scale.
        let wdl = Wdl {
            win: 293,
            draw: 703,
            loss: 4,
        };
        let e = SenteEval::from_info(cp(107), Some(wdl), Color::Sente);
        assert!((e.sente_win - 0.6445).abs() < 1e-9);
        let e = SenteEval::from_info(cp(107), Some(wdl), Color::Gote);
        assert!((e.sente_win - 0.3555).abs() < 1e-9);
        // Nonsense wdl (all zero) falls back to the score.
        let zero = Wdl {
            win: 0,
            draw: 0,
            loss: 0,
        };
        assert_eq!(
            SenteEval::from_info(cp(100), Some(zero), Color::Sente),
            SenteEval::from_info(cp(100), None, Color::Sente)
        );
        assert_eq!(
            sente_score(cp(i32::MIN), Color::Gote),
            SenteScore::Cp { value: i32::MAX }
        );
    }

    /// The default scale is a copy of the built-in network's (the board does not link the
    /// search outside its tests); this keeps the copy from going stale when the network
    /// changes, read by the search's own reader of the network's provenance.
    #[test]
    fn the_default_scale_is_the_built_in_networks() {
        assert_eq!(DEFAULT_WIN_SCALE, gogo_search::nnue::embedded_score_scale());
    }
}
