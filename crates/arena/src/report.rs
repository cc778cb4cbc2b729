//! What the arena prints: a line after each game, and the match's summary.

use crate::stats::SprtDecision;
use crate::{summarize, MatchGame, MatchSummary};
use std::fmt;

/// The line after each game: which game, how it ended, the score and Elo so far.
pub fn progress_line(games: &[MatchGame], total: usize) -> String {
    let (t, _) = summarize(games);
    let (elo, err) = t.elo();
    let Some(last) = games.last() else {
        return String::new();
    };
    format!(
        "game {:>4}/{total}: {} ({}), score {}-{}-{} ({:.1}%), elo {:+.1} +/- {:.1}",
        last.index + 1,
        last.record.ending.result(),
        last.record.ending.reason(),
        t.wins,
        t.losses,
        t.draws,
        100.0 * t.score(),
        elo,
        err
    )
}

impl fmt::Display for MatchSummary {
    /// The summary: score, Elo and LOS, pentanomial, endings, each engine's faults and
    /// pondering, and the SPRT verdict.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [first, second] = &self.names;
        let t = self.tally;
        let (elo, err) = t.elo();
        writeln!(
            f,
            "Score of {first} vs {second}: {} - {} - {} [{:.3}] {}",
            t.wins,
            t.losses,
            t.draws,
            t.score(),
            t.games()
        )?;
        writeln!(
            f,
            "Elo difference: {elo:+.1} +/- {err:.1}, LOS: {:.1} %",
            100.0 * t.los()
        )?;
        let p = self.pentanomial.0;
        writeln!(
            f,
            "Pentanomial (pairs by {first}'s points 0, 0.5, 1, 1.5, 2): [{}, {}, {}, {}, {}]",
            p[0], p[1], p[2], p[3], p[4]
        )?;
        // Endings by their first word (`checkmate`, `fourfold`, `time`, ...).
        let mut reasons: std::collections::BTreeMap<String, usize> = Default::default();
        for g in &self.games {
            let reason = g.record.ending.reason();
            let word = reason.split(' ').next().unwrap_or("").to_string();
            *reasons.entry(word).or_default() += 1;
        }
        let reasons: Vec<String> = reasons.iter().map(|(r, n)| format!("{r} {n}")).collect();
        writeln!(f, "Endings: {}", reasons.join(", "))?;
        // Faults by engine (what no engine should ever do), and pondering for those that
        // ponder: how often the guess was right, the longest wait for `bestmove` after `stop`.
        for (name, totals) in self.names.iter().zip(&self.totals) {
            let x = totals.faults;
            writeln!(
                f,
                "Faults of {name}: {} time forfeits, {} illegal moves, {} malformed lines, {} crashes",
                x.time_forfeits, x.illegal_moves, x.malformed_lines, x.crashes
            )?;
            let p = totals.pondering;
            if p.hits + p.misses > 0 {
                writeln!(
                    f,
                    "Pondering of {name}: {} ponderhits, {} misses (stop answered within {} ms)",
                    p.hits, p.misses, p.max_stop_ms
                )?;
            }
        }
        if let Some((decision, llr, sprt)) = self.sprt {
            let (lo, hi) = sprt.bounds();
            let verdict = match decision {
                SprtDecision::AcceptH1 => "H1 accepted",
                SprtDecision::AcceptH0 => "H0 accepted",
                SprtDecision::Continue => "undecided",
            };
            writeln!(f, "SPRT: llr {llr:.2} ({lo:.2}, {hi:.2}): {verdict}")?;
        }
        Ok(())
    }
}
