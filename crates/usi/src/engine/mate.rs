//! `go mate`: the df-pn solver on the engine's position, and the solver the engine keeps.

use super::*;

impl UsiEngine {
    /// `go mate`: the df-pn solver on the current position, answered with `checkmate` and
    /// the mating line, `nomate`, or `timeout` (also after `stop` without an answer).
    pub(super) fn go_mate(&mut self, limit: MateLimit) {
        let Some(solver) = self.mate_solver() else {
            self.out.send(&EngineMessage::Checkmate(Checkmate::Timeout));
            return;
        };
        let control = Arc::new(SearchControl::new(false));
        let limits = MateLimits {
            time: match limit {
                MateLimit::Millis(ms) => Some(Duration::from_millis(ms)),
                MateLimit::Infinite => None,
            },
            stop: Some(Arc::new(MateStop(Arc::clone(&control)))),
            nodes: None,
        };
        let root = self.position().clone();
        let out = self.out.clone();
        let fallback_out = self.out.clone();
        let on_panic = move || fallback_out.send(&EngineMessage::Checkmate(Checkmate::Timeout));
        self.spawn_search("mate", control, on_panic, move |_| {
            let mut solver = solver.lock().unwrap_or_else(|e| e.into_inner());
            let mut progress = |p: &MateProgress| {
                out.send(&EngineMessage::Info(mate_info(
                    p.nodes,
                    p.elapsed,
                    p.fill_permille,
                )))
            };
            let outcome = solver.solve(&root, &limits, &mut progress);
            out.send(&EngineMessage::Info(mate_info(
                outcome.nodes,
                outcome.elapsed,
                0,
            )));
            out.send(&EngineMessage::Checkmate(match outcome.result {
                MateResult::Mate(line) => Checkmate::Mate(line),
                MateResult::NoMate => Checkmate::NoMate,
                MateResult::Unknown => Checkmate::Timeout,
            }));
        });
    }

    /// The mate solver, (re)allocated at the `MateHash` size; `None` (with an error line)
    /// when that size cannot be had.
    pub(super) fn mate_solver(&mut self) -> Option<Arc<Mutex<Solver>>> {
        let wanted = self.options.mate_hash_mb;
        if let Some((size, solver)) = &self.mate {
            if *size == wanted {
                return Some(Arc::clone(solver));
            }
        }
        match Solver::new(wanted) {
            Ok(solver) => {
                let solver = Arc::new(Mutex::new(solver));
                self.mate = Some((wanted, Arc::clone(&solver)));
                Some(solver)
            }
            Err(e) => {
                self.out.info_string(&format!("error: {e}"));
                self.mate.as_ref().map(|(_, s)| Arc::clone(s))
            }
        }
    }
}
