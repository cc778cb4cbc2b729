//! The engine's jobs: its game move, the hint, the analysis lines, the mate search and
//! the review, each with an id so that a late answer of an old job is dropped.

use super::*;

impl Session {
    /// The options of a search at `level` with `multipv` lines, under this game's rules.
    pub(super) fn job_options(&self, level: u8, multipv: u32) -> JobOptions {
        JobOptions {
            multipv,
            level,
            rules: self.game.rules().name(),
            max_plies: self.game.rules().max_plies.unwrap_or(0),
        }
    }

    /// Whether the engine is busy with a job the analysis must not interrupt.
    pub(super) fn engine_busy(&self) -> bool {
        self.thinking || self.review_job.is_some() || self.hint_job.is_some()
    }

    /// Why a new engine job cannot start now, if it cannot.
    pub(super) fn busy_message(&self) -> Option<&'static str> {
        if self.thinking {
            Some("the engine is thinking about its move")
        } else if self.puzzle_in_play() {
            Some("the engine helps once the puzzle is over: solve it, or view the solution")
        } else if self.review_job.is_some() {
            Some("the review is running")
        } else {
            None
        }
    }

    /// The `position` command of the game's position `index`.
    pub(super) fn position_at(&self, index: usize) -> GuiCommand {
        GuiCommand::position(self.game.start(), &self.game.moves()[..index])
    }

    pub(super) fn hint(&mut self) -> Vec<Update> {
        if let Some(busy) = self.busy_message() {
            return vec![Update::error(busy)];
        }
        if self.ending.is_some() {
            return vec![Update::error("the game is over")];
        }
        self.job += 1;
        self.hint_job = Some(self.job);
        self.engine.send(EngineCommand::Search {
            id: self.job,
            position: self.position_command(),
            go: GoCommand {
                movetime: Some(HINT_MILLIS),
                ..Default::default()
            },
            allowed: Duration::from_millis(HINT_MILLIS) + ENGINE_GRACE,
            options: self.job_options(0, 1),
        });
        Vec::new()
    }

    pub(super) fn start_review(&mut self, millis: u64) -> Vec<Update> {
        if !(MIN_REVIEW_MILLIS..=MAX_REVIEW_MILLIS).contains(&millis) {
            return vec![Update::error(format!(
                "review time {millis} ms: from {MIN_REVIEW_MILLIS} to {MAX_REVIEW_MILLIS} ms a position"
            ))];
        }
        if self.thinking {
            return vec![Update::error("the engine is thinking about its move")];
        }
        if self.game.moves().is_empty() {
            return vec![Update::error("no moves to review")];
        }
        self.hint_job = None;
        self.review = Some(Review::new(&self.game, millis));
        self.review_step()
    }

    /// Searches the review's next position, or ends the review; returns its progress.
    pub(super) fn review_step(&mut self) -> Vec<Update> {
        let Some(review) = &self.review else {
            return Vec::new();
        };
        let millis = review.millis();
        match review.next_position() {
            Some(index) => {
                self.job += 1;
                self.review_job = Some((self.job, index, None));
                self.engine.send(EngineCommand::Search {
                    id: self.job,
                    position: self.position_at(index),
                    go: GoCommand {
                        movetime: Some(millis),
                        ..Default::default()
                    },
                    allowed: Duration::from_millis(millis) + ENGINE_GRACE,
                    options: self.job_options(0, 1),
                });
            }
            None => {
                self.review_job = None;
                // The graph shows the review's scores, and the analysis (if on) goes on.
                let done = review.view(&self.game);
                self.scores[0] = self.scores[0].or(Some(0.5));
                for m in &done.moves {
                    self.scores[m.ply] = Some(m.sente_win);
                }
                self.start_engine_work();
            }
        }
        let mut updates = vec![Update::Review(Box::new(
            self.review.as_ref().expect("a review").view(&self.game),
        ))];
        if self.review_job.is_none() {
            updates.push(Update::State(Box::new(self.view())));
        }
        updates
    }

    /// The engine's move if it is to move, else the analysis if it is on.
    pub(super) fn start_engine_work(&mut self) {
        self.job += 1;
        self.thinking = false;
        self.hint_job = None;
        if self.ending.is_none() {
            let side = self.game.position().side_to_move();
            if self.players[side.index()] == Player::Engine {
                self.thinking = true;
                self.engine.send(EngineCommand::Search {
                    id: self.job,
                    position: self.position_command(),
                    go: self.clock.go(side, false),
                    allowed: self.clock.allowed(side, Duration::ZERO) + ENGINE_GRACE,
                    options: self.job_options(self.level, 1),
                });
                return;
            }
        }
        // A position without moves has nothing to analyse; a puzzle is not analysed while
        // it is being solved.
        let movable = !self.game.position().legal_moves().is_empty() && !self.puzzle_in_play();
        match self.analysis {
            Some(multipv) if movable => self.engine.send(EngineCommand::Analyze {
                id: self.job,
                position: self.position_command(),
                options: self.job_options(0, multipv),
            }),
            _ => self.engine.send(EngineCommand::Stop),
        }
    }

    /// Takes an analysis line; whether the lines shown changed. Lines are shown a full set
    /// of one depth at a time, so that MultiPV never mixes depths.
    pub(super) fn take_line(&mut self, line: AnalysisLine) -> bool {
        let legal = self.game.position().legal_moves().len().max(1);
        let wanted = if self.thinking {
            1
        } else {
            self.analysis.unwrap_or(1) as usize
        }
        .min(legal);
        let i = line.multipv as usize - 1;
        if i >= wanted {
            return false;
        }
        if line.multipv == 1
            && self
                .pending_lines
                .iter()
                .flatten()
                .any(|l| l.depth != line.depth)
        {
            self.pending_lines.clear();
        }
        if self.pending_lines.len() < wanted {
            self.pending_lines.resize(wanted, None);
        }
        self.pending_lines[i] = Some(line);
        if self.pending_lines.iter().all(Option::is_some) {
            self.analysis_lines = self.pending_lines.iter().flatten().cloned().collect();
            return true;
        }
        false
    }

    /// The line an `info` shows, if it is one: it has a depth, and a MultiPV index the page
    /// shows (1 to [`MAX_MULTIPV`]; an engine may send 0 or four billion).
    pub(super) fn analysis_line(&self, info: &Info) -> Option<AnalysisLine> {
        let pos = self.game.position();
        let eval = info
            .score
            .map(|s| SenteEval::from_info(s, info.wdl, pos.side_to_move()));
        let multipv = info.multipv.unwrap_or(1);
        if !(1..=MAX_MULTIPV).contains(&multipv) {
            return None;
        }
        Some(AnalysisLine {
            multipv,
            depth: info.depth?,
            score: eval.map(|e| e.score),
            sente_win: eval.map(|e| e.sente_win),
            nps: info.nps,
            nodes: info.nodes,
            pv: info.pv.iter().map(|m| m.to_string()).collect(),
            pv_japanese: japanese_line(pos, &info.pv),
            pv_western: western_line(pos, &info.pv),
        })
    }

    /// Handles what the engine did.
    pub fn engine_event(&mut self, event: EngineEvent) -> Vec<Update> {
        match event {
            EngineEvent::Ready { name, max_level } => {
                self.engine_name = name;
                self.engine_ready = true;
                self.max_level = max_level;
                // A game asked for before the engine was up keeps only what it offers.
                self.level = self.level.min(max_level.unwrap_or(0));
                vec![Update::State(Box::new(self.view()))]
            }
            EngineEvent::Info { id, info } if self.review_job.is_some_and(|j| j.0 == id) => {
                if let (Some(score), Some(job)) = (info.score, self.review_job.as_mut()) {
                    let side = self.game.positions()[job.1].side_to_move();
                    job.2 = Some(SenteEval::from_info(score, info.wdl, side));
                }
                Vec::new()
            }
            EngineEvent::BestMove { id, answer, .. }
                if self.review_job.is_some_and(|j| j.0 == id) =>
            {
                let Some((_, index, score)) = self.review_job.take() else {
                    return Vec::new();
                };
                let best = match answer.best {
                    BestMove::Move(mv) => Some(mv),
                    _ => None,
                };
                // An answer without a score (too short a time) counts as even.
                let eval = score.unwrap_or_else(SenteEval::even);
                if let Some(review) = self.review.as_mut() {
                    review.record(index, PositionEval::searched(eval, best));
                }
                self.review_step()
            }
            EngineEvent::BestMove { id, answer, .. } if self.hint_job == Some(id) => {
                self.hint_job = None;
                let pos = self.game.position();
                let updates = match answer.best {
                    BestMove::Move(mv) if pos.is_legal(mv) => vec![Update::Hint {
                        usi: mv.to_string(),
                        japanese: japanese(pos, mv, self.game.moves().last().map(|m| m.to())),
                        western: western(pos, mv),
                        sfen: pos.to_sfen(),
                    }],
                    _ => vec![Update::error("the engine has no move to suggest")],
                };
                // The analysis, if it was on, goes on.
                self.start_engine_work();
                updates
            }
            // Against a person, the engine's thoughts (and the reply it expects) stay hidden
            // unless the person asks for analysis.
            EngineEvent::Info { .. }
                if self.analysis.is_none() && self.players.contains(&Player::Human) =>
            {
                Vec::new()
            }
            EngineEvent::Info { id, info } if id == self.job => {
                let Some(line) = self.analysis_line(&info) else {
                    return Vec::new();
                };
                if line.multipv == 1 {
                    if let Some(chance) = line.sente_win {
                        let ply = self.game.moves().len();
                        self.scores[ply] = Some(chance);
                    }
                }
                if !self.take_line(line) {
                    return Vec::new();
                }
                vec![Update::Analysis {
                    lines: self.analysis_lines.clone(),
                }]
            }
            EngineEvent::BestMove {
                id,
                answer,
                elapsed,
            } if id == self.job && self.thinking => {
                self.thinking = false;
                let side = self.game.position().side_to_move();
                match answer.best {
                    BestMove::Resign => {
                        self.end(Ending::Resignation(side));
                        vec![Update::State(Box::new(self.view()))]
                    }
                    BestMove::Win => {
                        self.end(Ending::IllegalMove(side, "win".into()));
                        vec![Update::State(Box::new(self.view()))]
                    }
                    BestMove::Move(mv) => match self.thinking_pause_left(elapsed) {
                        None => self.play(mv, ENGINE_GRACE),
                        Some(pause) => {
                            // Still thinking, as far as the page can tell.
                            self.thinking = true;
                            self.paused_move = Some((id, mv, std::time::Instant::now() + pause));
                            Vec::new()
                        }
                    },
                }
            }
            EngineEvent::Checkmate { id, answer } if id == self.job => {
                let pos = self.game.position();
                let (text, japanese, western) = match answer {
                    Checkmate::Mate(line) => (
                        format!("mate in {} plies: {}", line.len(), usi_line(&line)),
                        japanese_line(pos, &line),
                        western_line(pos, &line),
                    ),
                    Checkmate::NoMate => ("no mate".into(), String::new(), String::new()),
                    Checkmate::Timeout => {
                        ("no answer in time".into(), String::new(), String::new())
                    }
                    Checkmate::NotImplemented => (
                        "this engine has no mate search".into(),
                        String::new(),
                        String::new(),
                    ),
                };
                // The analysis, if it was on, goes on.
                self.start_engine_work();
                vec![Update::Mate {
                    text,
                    japanese,
                    western,
                }]
            }
            EngineEvent::Failed { id, error } => {
                let message = match &error {
                    ClientError::Start(why) => why.clone(),
                    other => format!("the engine failed: {other}"),
                };
                let mut updates = vec![Update::error(&message)];
                if self.review_job.is_some_and(|j| Some(j.0) == id) {
                    self.review_job = None;
                    self.review = None;
                }
                if self.hint_job == id {
                    self.hint_job = None;
                }
                if self.thinking && id == Some(self.job) {
                    let side = self.game.position().side_to_move();
                    self.thinking = false;
                    self.end(Ending::from_failure(&error, side));
                    updates.push(Update::State(Box::new(self.view())));
                }
                updates
            }
            _ => Vec::new(),
        }
    }
}
