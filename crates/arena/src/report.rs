//! What the arena prints: a line after each game, and the match's summary.

use crate::shard::Merged;
use crate::stats::{Pentanomial, Sprt, SprtDecision, Tally};
use crate::{summarize, MatchGame, MatchSummary};
use std::fmt;

/// The line after each game: which game, how it ended, the score and Elo so far, and in an
/// SPRT the LLR over the complete pairs with its bounds, so a run stopped by hand says where
/// it stood.
pub fn progress_line(games: &[MatchGame], total: usize, sprt: Option<&Sprt>) -> String {
    let (t, penta) = summarize(games);
    let (elo, err) = t.elo();
    let Some(last) = games.last() else {
        return String::new();
    };
    let llr = match sprt {
        Some(sprt) => {
            let (lower, upper) = sprt.bounds();
            format!(", llr {:.2} ({lower:.2}, {upper:.2})", sprt.llr(&penta))
        }
        None => String::new(),
    };
    format!(
        "game {:>4}/{total}: {} ({}), score {}-{}-{} ({:.1}%), elo {:+.1} +/- {:.1}{llr}",
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

/// Score, Elo with LOS, and the pentanomial, from the first engine's side.
fn standing(
    f: &mut fmt::Formatter<'_>,
    [first, second]: &[String; 2],
    t: Tally,
    penta: &Pentanomial,
) -> fmt::Result {
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
    let p = penta.0;
    writeln!(
        f,
        "Pentanomial (pairs by {first}'s points 0, 0.5, 1, 1.5, 2): [{}, {}, {}, {}, {}]",
        p[0], p[1], p[2], p[3], p[4]
    )
}

/// The games' endings by their first word (`checkmate`, `fourfold`, `time`, ...).
fn endings<'a>(f: &mut fmt::Formatter<'_>, reasons: impl Iterator<Item = &'a str>) -> fmt::Result {
    let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
    for reason in reasons {
        *counts
            .entry(reason.split(' ').next().unwrap_or(""))
            .or_default() += 1;
    }
    let counts: Vec<String> = counts.iter().map(|(r, n)| format!("{r} {n}")).collect();
    writeln!(f, "Endings: {}", counts.join(", "))
}

/// Each engine's move times over the games, engine 0 first: the arena's own measure, from
/// `go` sent to `bestmove` read, so time odds and overheads show in the records.
fn move_times(games: &[MatchGame]) -> [Vec<u64>; 2] {
    let mut times = [Vec::new(), Vec::new()];
    for game in games {
        let record = &game.record;
        // The first engine move is made by the side to move after the opening's moves.
        let mut mover = record.start.side_to_move();
        if record.opening_moves % 2 == 1 {
            mover = !mover;
        }
        for &ms in &record.times_ms {
            times[game.engine_of(mover)].push(ms);
            mover = !mover;
        }
    }
    times
}

/// `Time a move of NAME: median M ms, max X ms (N moves)`, for each engine that moved.
fn time_lines(f: &mut fmt::Formatter<'_>, names: &[String; 2], games: &[MatchGame]) -> fmt::Result {
    for (name, mut times) in names.iter().zip(move_times(games)) {
        if times.is_empty() {
            continue;
        }
        times.sort_unstable();
        writeln!(
            f,
            "Time a move of {name}: median {} ms, max {} ms ({} moves)",
            times[times.len() / 2],
            times[times.len() - 1],
            times.len()
        )?;
    }
    Ok(())
}

/// The SPRT's verdict with its LLR and bounds.
fn sprt_line(
    f: &mut fmt::Formatter<'_>,
    decision: SprtDecision,
    llr: f64,
    sprt: Sprt,
) -> fmt::Result {
    let (lo, hi) = sprt.bounds();
    let verdict = match decision {
        SprtDecision::AcceptH1 => "H1 accepted",
        SprtDecision::AcceptH0 => "H0 accepted",
        SprtDecision::Continue => "undecided",
    };
    writeln!(f, "SPRT: llr {llr:.2} ({lo:.2}, {hi:.2}): {verdict}")
}

/// A merged match and, if asked, its SPRT.
pub struct MergedReport<'a>(pub &'a Merged, pub Option<Sprt>);

impl fmt::Display for MergedReport<'_> {
    /// Score, Elo and LOS, pentanomial, endings, and the SPRT's verdict.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let MergedReport(m, sprt) = self;
        standing(f, &m.names, m.tally, &m.pentanomial)?;
        endings(f, m.games.iter().map(|g| g.reason.as_str()))?;
        if let Some(s) = sprt {
            sprt_line(f, s.decide(&m.pentanomial), s.llr(&m.pentanomial), *s)?;
        }
        Ok(())
    }
}

impl fmt::Display for MatchSummary {
    /// The summary: score, Elo and LOS, pentanomial, endings, each engine's time a move,
    /// faults and pondering, and the SPRT verdict.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        standing(f, &self.names, self.tally, &self.pentanomial)?;
        let reasons: Vec<String> = self
            .games
            .iter()
            .map(|g| g.record.ending.reason())
            .collect();
        endings(f, reasons.iter().map(String::as_str))?;
        time_lines(f, &self.names, &self.games)?;
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
            match self.sprt_stopped_after {
                Some(stop) if stop < self.games.len() => {
                    sprt_line(f, decision, llr, sprt)?;
                    writeln!(
                        f,
                        "(decided after {stop} games; {} finished, llr {:.2} over them all)",
                        self.games.len(),
                        sprt.llr(&self.pentanomial)
                    )?;
                }
                _ => sprt_line(f, decision, llr, sprt)?,
            }
        }
        Ok(())
    }
}

/// Numbers (games, shards) as a person reads a list of them: the first 20, then how many
/// more.
pub fn some_numbers(numbers: &[usize]) -> String {
    let shown: Vec<String> = numbers.iter().take(20).map(usize::to_string).collect();
    let more = if numbers.len() > 20 {
        format!(" and {} more", numbers.len() - 20)
    } else {
        String::new()
    };
    format!("{}{more}", shown.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::GameRecord;
    use gogo_protocol::ending::Ending;
    use gogo_rules::{Color, Position};

    /// Six games, Sente winning each (three pairs of one point each).
    fn games() -> Vec<MatchGame> {
        (0..6)
            .map(|index| MatchGame {
                index,
                sente_engine: index % 2,
                opening: "startpos".into(),
                record: GameRecord {
                    start: Position::startpos(),
                    opening_moves: 0,
                    moves: Vec::new(),
                    times_ms: Vec::new(),
                    ending: Ending::Resignation(Color::Gote),
                    ponder: Default::default(),
                },
            })
            .collect()
    }

    /// Move times go to the engine that moved: the side to move after the opening's moves
    /// makes the first, and engine 1 plays Sente in the odd games.
    #[test]
    fn move_times_are_counted_for_the_engine_that_moved() {
        let mut games = games();
        for game in &mut games {
            // One opening move, then Gote, Sente, Gote: engine 0 is fast, engine 1 slow.
            game.record.opening_moves = 1;
            let gote_ms = if game.engine_of(Color::Gote) == 0 {
                10
            } else {
                800
            };
            let sente_ms = 810 - gote_ms;
            game.record.times_ms = vec![gote_ms, sente_ms, gote_ms + 1];
        }
        let [fast, slow] = move_times(&games);
        assert_eq!(fast.len(), 9);
        assert_eq!(slow.len(), 9);
        assert!(fast.iter().all(|&ms| ms <= 11), "{fast:?}");
        assert!(slow.iter().all(|&ms| ms >= 800), "{slow:?}");
        let summary = MatchSummary {
            names: ["a".into(), "b".into()],
            games,
            ..Default::default()
        };
        let text = summary.to_string();
        assert!(
            text.contains("Time a move of a: median 10 ms, max 11 ms (9 moves)"),
            "{text}"
        );
        assert!(
            text.contains("Time a move of b: median 800 ms, max 801 ms (9 moves)"),
            "{text}"
        );
    }

    /// The verdict is printed with the LLR it was made on; games that finished after the
    /// stop are said apart, with the LLR over them all.
    #[test]
    fn an_sprt_stopped_early_says_when_and_what_came_after() {
        let sprt: Sprt = "elo0=0 elo1=10".parse().unwrap();
        let (tally, pentanomial) = summarize(&games());
        let mut summary = MatchSummary {
            games: games(),
            tally,
            pentanomial,
            sprt: Some((SprtDecision::AcceptH0, -2.97, sprt)),
            sprt_stopped_after: Some(4),
            ..Default::default()
        };
        let text = summary.to_string();
        assert!(
            text.contains("SPRT: llr -2.97 (-2.94, 2.94): H0 accepted"),
            "{text}"
        );
        assert!(
            text.contains("(decided after 4 games; 6 finished, llr 0.00 over them all)"),
            "{text}"
        );
        summary.sprt_stopped_after = Some(6);
        assert!(!summary.to_string().contains("decided after"));
    }

    /// In an SPRT every progress line carries the LLR so far; without one it does not.
    #[test]
    fn progress_lines_show_the_llr_in_an_sprt() {
        let sprt: Sprt = "elo0=0 elo1=10".parse().unwrap();
        let mut games = games();
        // Engine 0 wins both games of the first pair, so the LLR is above zero.
        games[1].record.ending = Ending::Resignation(Color::Sente);
        let (_, penta) = summarize(&games);
        let llr = sprt.llr(&penta);
        assert!(llr > 0.0, "{llr}");
        let line = progress_line(&games, 8, Some(&sprt));
        assert!(
            line.ends_with(&format!(", llr {llr:.2} (-2.94, 2.94)")),
            "{line}"
        );
        let plain = progress_line(&games, 8, None);
        assert!(!plain.contains("llr"), "{plain}");
        assert!(line.starts_with(&plain), "{line} / {plain}");
    }

    #[test]
    fn long_lists_of_numbers_are_cut_at_twenty() {
        assert_eq!(some_numbers(&[3, 5]), "3, 5");
        let many: Vec<usize> = (1..=23).collect();
        let said = some_numbers(&many);
        assert!(
            said.starts_with("1, 2, 3,") && said.ends_with("19, 20 and 3 more"),
            "{said}"
        );
    }
}
