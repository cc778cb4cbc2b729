//! `gogo mate --bench`: the problems of `tests/data/tsume.tsv`, solved one after another.

/// The data set's text (see its header for how it was made).
pub const PROBLEMS: &str = include_str!("../../../tests/data/tsume.tsv");

/// The bench problems: `(sfen, mate length in plies, or None for no mate)`.
pub fn problems() -> Vec<(String, Option<u32>)> {
    PROBLEMS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let mut fields = l.split('\t');
            let sfen = fields.next()?.to_string();
            let length = match fields.next()? {
                "nomate" => None,
                n => Some(n.parse().ok()?),
            };
            Some((sfen, length))
        })
        .collect()
}

/// One bench problem's answer.
#[derive(Clone, Debug)]
pub struct BenchProblem {
    /// The problem.
    pub sfen: String,
    /// What the solver found.
    pub result: crate::MateResult,
    /// Whether that is right: the mate of the expected length, checked move by move, or no
    /// mate where there is none.
    pub right: bool,
    /// Time taken.
    pub elapsed: std::time::Duration,
    /// Nodes searched, in all and for the line.
    pub nodes: u64,
    /// Nodes the shortest line's search took.
    pub line_nodes: u64,
}

/// The bench in figures.
#[derive(Clone, Copy, Debug)]
pub struct BenchSummary {
    /// Problems solved right.
    pub solved: usize,
    /// Problems in the set.
    pub problems: usize,
    /// Median and longest time per problem, and all of them together.
    pub median: std::time::Duration,
    /// See [`BenchSummary::median`].
    pub longest: std::time::Duration,
    /// See [`BenchSummary::median`].
    pub total: std::time::Duration,
    /// Nodes per second over the set.
    pub nps: u64,
}

/// Solves every bench problem with `solver` (cleared before each) within `limits`; `each`
/// hears of every problem as it is done.
pub fn run(
    solver: &mut crate::Solver,
    limits: &crate::MateLimits,
    each: &mut dyn FnMut(usize, &BenchProblem),
) -> Result<BenchSummary, gogo_rules::SfenError> {
    let problems = problems();
    let (mut solved, mut nodes) = (0, 0u64);
    let mut times = Vec::with_capacity(problems.len());
    for (i, (sfen, expected)) in problems.iter().enumerate() {
        let pos = gogo_rules::Position::from_sfen(sfen)?;
        solver.clear();
        let outcome = solver.solve(&pos, limits, &mut |_| {});
        let right = match (&outcome.result, expected) {
            (crate::MateResult::Mate(line), Some(n)) => {
                line.len() as u32 == *n && crate::brute::is_mating_line(&pos, line)
            }
            (crate::MateResult::NoMate, None) => true,
            _ => false,
        };
        solved += usize::from(right);
        nodes += outcome.nodes;
        times.push(outcome.elapsed);
        each(
            i,
            &BenchProblem {
                sfen: sfen.clone(),
                result: outcome.result,
                right,
                elapsed: outcome.elapsed,
                nodes: outcome.nodes,
                line_nodes: outcome.line_nodes,
            },
        );
    }
    let total: std::time::Duration = times.iter().sum();
    times.sort();
    Ok(BenchSummary {
        solved,
        problems: problems.len(),
        median: times.get(times.len() / 2).copied().unwrap_or_default(),
        longest: times.last().copied().unwrap_or_default(),
        total,
        nps: (nodes as f64 / total.as_secs_f64().max(1e-9)) as u64,
    })
}
