//! `go perft`: the move-generation count, run as a job that `stop` ends.

use super::*;

impl UsiEngine {
    /// `go perft`: counts on the search thread, so that `stop` (which prints what it has
    /// counted) and `quit` are heard.
    pub(super) fn go_perft(&mut self, depth: u32) {
        let depth = match crate::perft_depth(depth) {
            Ok(d) => d,
            Err(e) => {
                self.out.info_string(&format!("error: {e}"));
                return;
            }
        };
        let root = self.position().clone();
        let out = self.out.clone();
        let control = Arc::new(SearchControl::new(false));
        let job_control = Arc::clone(&control);
        self.spawn_search(
            "perft",
            control,
            || {},
            move |_| {
                let mut lines = LineWriter {
                    out,
                    pending: Vec::new(),
                };
                let _ = crate::print_perft(&mut lines, &root, depth, job_control.stop_flag());
            },
        );
    }
}
