//! The game and its clock: moves played (the person's and the engine's, with the engine's
//! thinking pause), takeback, loading a record, and what follows each change.

use super::*;

impl Session {
    /// The engine as the records name it: with its level, when it plays at one.
    pub(super) fn engine_player_name(&self) -> String {
        match self.level {
            0 => self.engine_name.clone(),
            level => format!("{} (level {level})", self.engine_name),
        }
    }

    /// How much longer an engine move that took `elapsed` waits before it is played: below
    /// full strength (and with the pause on), a varied 0.5 to 1.8 s from the move's start,
    /// at most a twentieth of the engine's main time left on a clock; `None` for no wait.
    pub(super) fn thinking_pause_left(&mut self, elapsed: Duration) -> Option<Duration> {
        if self.level == 0 || !self.thinking_pause {
            return None;
        }
        let mut pause = THINKING_PAUSE_MIN
            + Duration::from_millis(self.rng.below(THINKING_PAUSE_SPREAD_MS as usize) as u64);
        if self.clock.timed() {
            let side = self.game.position().side_to_move();
            pause = pause.min(self.clock.main()[side.index()] / 20);
        }
        pause
            .checked_sub(elapsed)
            .filter(|left| *left > Duration::from_millis(50))
    }

    pub(super) fn position_command(&self) -> GuiCommand {
        GuiCommand::position(self.game.start(), self.game.moves())
    }

    /// Plays `mv` for the side to move, with the clock; then whatever follows.
    pub(super) fn play(&mut self, mv: Move, grace: Duration) -> Vec<Update> {
        let side = self.game.position().side_to_move();
        // Without a clock no one loses on time (the engine's own limit is its job's).
        if self.clock.stop(grace).is_err() && self.clock.timed() {
            self.end(Ending::Time(side));
            return vec![Update::State(Box::new(self.view()))];
        }
        match self.game.play(mv) {
            Ok(()) => {}
            // The game holds as many moves as any may: the move is refused, the game kept.
            Err(e @ GameError::TooManyMoves(_)) => return vec![Update::error(e.to_string())],
            Err(_) => {
                self.end(Ending::IllegalMove(side, mv.to_string()));
                return vec![Update::State(Box::new(self.view()))];
            }
        }
        self.scores.push(None);
        if let Some(outcome) = self.game.outcome() {
            self.end(Ending::Rules(outcome));
        }
        self.after_change()
    }

    pub(super) fn human_move(&mut self, usi: &str) -> Vec<Update> {
        if self.ending.is_some() {
            return vec![Update::error("the game is over")];
        }
        let side = self.game.position().side_to_move();
        if self.players[side.index()] != Player::Human {
            return vec![Update::error("it is the engine's turn")];
        }
        if !self.puzzle_allows_move(side) {
            return vec![Update::error("the puzzle is not waiting for your move")];
        }
        match self.game.position().parse_move(usi) {
            Ok(mv) if self.puzzle.is_some() => self.puzzle_move(mv),
            Ok(mv) => self.play(mv, Duration::from_millis(300)),
            Err(e) => vec![Update::error(format!("{usi}: {e}"))],
        }
    }

    pub(super) fn takeback(&mut self) -> Vec<Update> {
        if self.puzzle.is_some() {
            return vec![Update::error("a puzzle has no takeback: retry it")];
        }
        // A game lost by resignation or on time stays lost: a new game starts afresh.
        if let Some(e @ (Ending::Resignation(_) | Ending::Time(_))) = &self.ending {
            return vec![Update::error(format!(
                "the game ended by {}: start a new game",
                e.reason()
            ))];
        }
        if self.game.moves().is_empty() {
            return vec![Update::error("no move to take back")];
        }
        let mut keep = self.game.moves().len() - 1;
        let engine_to_move = |n: usize, game: &Game, players: &[Player; 2]| {
            players[game.positions()[n].side_to_move().index()] == Player::Engine
        };
        // Against the engine, back to the person's turn.
        if self.players.contains(&Player::Human) {
            while keep > 0 && engine_to_move(keep, &self.game, &self.players) {
                keep -= 1;
            }
        }
        let mut game = Game::from_position(*self.game.rules(), self.game.start().clone());
        for &mv in &self.game.moves()[..keep] {
            game.play(mv).expect("a move of the game");
        }
        let scores = self.scores[..=keep].to_vec();
        let main = self.clock.main();
        self.reset(game, self.players, self.clock.control());
        self.clock.set_main(main);
        self.scores = scores;
        self.after_change()
    }

    pub(super) fn load(&mut self, text: &str) -> Vec<Update> {
        let text = text.trim();
        if text.is_empty() {
            return vec![Update::error(
                "nothing to load: paste an SFEN, a KIF or a CSA record first",
            )];
        }
        let parsed = if text.contains("手合割")
            || text.contains("手数")
            || text.contains("後手の持駒")
        {
            read_kif(text).map_err(|e| e.to_string())
        } else if text.starts_with("V2") || text.starts_with("P1") || text.starts_with("N+") {
            csa::read_csa(text).map_err(|e| e.to_string())
        } else {
            let usi = text.strip_prefix("position ").unwrap_or(text);
            gogo_rules::parse_usi_position(usi).map_err(|e| format!("not SFEN, KIF or CSA: {e}"))
        };
        match parsed {
            Ok((start, moves)) => {
                self.puzzle = None;
                self.generation += 1;
                self.loaded.add(&start, &moves);
                let mut game = Game::from_position(*self.game.rules(), start);
                for mv in moves {
                    if game.play(mv).is_err() {
                        break;
                    }
                }
                self.reset(game, self.players, self.clock.control());
                self.record_names = record_names(text);
                self.after_change()
            }
            Err(e) => vec![Update::error(e)],
        }
    }

    /// After the game changed: the state, and the engine's next job. The analysis lines,
    /// the hint and the review were of the game before: they go.
    pub(super) fn after_change(&mut self) -> Vec<Update> {
        self.analysis_lines.clear();
        self.pending_lines.clear();
        self.review = None;
        self.review_job = None;
        self.hint_job = None;
        // Each side's clock starts with its first move, as on lishogi: the first two plies
        // are not timed (a person finds the board before the time runs).
        if self.ending.is_none() && self.game.moves().len() >= UNTIMED_PLIES {
            let side = self.game.position().side_to_move();
            self.clock.start(side);
        }
        self.start_engine_work();
        vec![
            Update::Analysis { lines: Vec::new() },
            Update::State(Box::new(self.view())),
        ]
    }

    /// The clock: a person whose time is up loses. Returns the updates, if any.
    pub fn tick(&mut self) -> Vec<Update> {
        if self.puzzle.is_some() {
            return self.puzzle_tick();
        }
        if self.ending.is_some() {
            self.paused_move = None;
            return Vec::new();
        }
        if let Some((job, mv, at)) = self.paused_move {
            if job != self.job {
                self.paused_move = None;
            } else if std::time::Instant::now() >= at {
                self.paused_move = None;
                self.thinking = false;
                return self.play(mv, ENGINE_GRACE);
            }
        }
        match self
            .clock
            .flagged(Duration::from_millis(300))
            .filter(|_| self.clock.timed())
        {
            Some(color) if self.players[color.index()] == Player::Human => {
                self.end(Ending::Time(color));
                vec![Update::State(Box::new(self.view()))]
            }
            _ => Vec::new(),
        }
    }
}

/// The players a KIF (`先手：`, `後手：`, or `下手：`, `上手：`) or CSA (`N+`, `N-`) record
/// names, each cut short; `None` where it names none.
fn record_names(text: &str) -> [Option<String>; 2] {
    let mut names = [None, None];
    for line in text.lines().map(str::trim) {
        let found = [
            ("先手：", 0),
            ("下手：", 0),
            ("後手：", 1),
            ("上手：", 1),
            ("N+", 0),
            ("N-", 1),
        ]
        .iter()
        .find_map(|(prefix, side)| line.strip_prefix(prefix).map(|name| (name, *side)));
        if let Some((name, side)) = found {
            let name: String = name.trim().chars().take(40).collect();
            if !name.is_empty() && names[side].is_none() {
                names[side] = Some(name);
            }
        }
    }
    names
}

#[cfg(test)]
mod tests {
    #[test]
    fn records_name_their_players() {
        let kif = "手合割：５五将棋\n先手：羽生\n後手：gogo 0.1.0\n";
        assert_eq!(
            super::record_names(kif),
            [Some("羽生".to_string()), Some("gogo 0.1.0".to_string())]
        );
        assert_eq!(
            super::record_names("V2.2\nN+alice\nN-bob\nP1"),
            [Some("alice".to_string()), Some("bob".to_string())]
        );
        assert_eq!(super::record_names("startpos moves 5d5c"), [None, None]);
        let long = format!("N+{}", "x".repeat(500));
        assert_eq!(super::record_names(&long)[0].as_ref().unwrap().len(), 40);
    }
}
