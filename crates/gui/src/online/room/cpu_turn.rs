//! The CPU's turns for a player who left, when the room's rule has the CPU play for them.

use super::*;

impl Room {
    /// The side the CPU plays now, if any: its own in a game against it, or the side whose
    /// player left (the room's rule).
    pub(super) fn cpu_side(&self) -> Option<Color> {
        let referee = self.referee.as_ref().filter(|r| r.ending().is_none())?;
        let side = referee.game().position().side_to_move();
        if self.cpu_opponent() == Some(side) {
            return Some(side);
        }
        let LeaveRule::Cpu { .. } = self.settings.leave else {
            return None;
        };
        let gone = self.absent_since[side.index()].filter(|_| !self.present(side))?;
        (gone.elapsed() >= self.patience.absence_grace).then_some(side)
    }

    /// When the CPU should take the side to move's turn, if its player is gone (its own
    /// turns in a game against it are asked for after each change).
    pub(super) fn cpu_deadline(&self) -> Option<Instant> {
        let LeaveRule::Cpu { .. } = self.settings.leave else {
            return None;
        };
        let referee = self.referee.as_ref().filter(|r| r.ending().is_none())?;
        let side = referee.game().position().side_to_move();
        let since = self.absent_since[side.index()].filter(|_| !self.present(side))?;
        Some(since + self.patience.absence_grace)
    }

    /// In a game against the CPU, when its player will have been gone long enough for the
    /// game to end (a room nobody plays in is not kept open).
    pub(super) fn cpu_game_left_at(&self) -> Option<Instant> {
        let cpu = self.cpu_opponent()?;
        self.referee.as_ref().filter(|r| r.ending().is_none())?;
        let player = !cpu;
        let since = self.absent_since[player.index()].filter(|_| !self.present(player))?;
        Some(since + self.patience.host_gone)
    }

    /// The player left a game against the CPU: it ends, aborted if it had hardly begun,
    /// else lost by the one who left.
    pub(super) async fn leave_cpu_game(&mut self) {
        let (Some(cpu), Some(referee)) = (self.cpu_opponent(), &self.referee) else {
            return;
        };
        let player = !cpu;
        let mut next = referee.clone();
        let now = Instant::now();
        let events = match next.act(player, crate::referee::Action::Abort, Duration::ZERO, now) {
            Ok(events) => events,
            Err(_) => next.abandon(player, false),
        };
        log::info!("room {}: its player left the game against the CPU", self.id);
        let _ = self.commit(next, events).await;
    }

    /// Asks the pool for the absent side's move, once a turn.
    pub(super) fn ask_cpu(&mut self) {
        let (Some(side), Some(pool)) = (self.cpu_side(), &self.cpu) else {
            return;
        };
        let level = match (self.settings.cpu_opponent, self.settings.leave) {
            (Some(level), _) | (None, LeaveRule::Cpu { level }) => level,
            (None, LeaveRule::Claim) => return,
        };
        let referee = self.referee.as_ref().expect("a game is played");
        let ply = referee.game().moves().len();
        if self.cpu_wait.as_ref().is_some_and(|(p, _)| *p == ply)
            || self.cpu_retry.is_some_and(|at| Instant::now() < at)
        {
            return;
        }
        // A second at most, and a twentieth of what the clock allows.
        let think = referee
            .clock()
            .map_or(Duration::from_secs(1), |c| {
                c.allowed(side, Duration::from_secs(1)) / 20
            })
            .clamp(Duration::from_millis(100), Duration::from_secs(1));
        let (reply, answer) = oneshot::channel();
        let game = referee.game();
        pool.ask(crate::online::cpu::CpuAsk {
            start: game.start().clone(),
            moves: game.moves().to_vec(),
            rules: game.rules().name(),
            max_plies: game.rules().max_plies.unwrap_or(0),
            level,
            think,
            reply,
        });
        self.cpu_wait = Some((ply, answer));
    }

    /// The CPU's move for ply `ply`: played if its player is still gone and it is still
    /// that turn.
    pub(super) async fn cpu_move(&mut self, ply: usize, mv: Option<gogo_rules::Move>) {
        let Some(side) = self.cpu_side() else { return };
        let current = self.referee.as_ref().map(|r| r.game().moves().len());
        if current != Some(ply) {
            return;
        }
        let Some(mv) = mv else {
            log::warn!(
                "room {}: the CPU gave no move; it tries again in 5 s",
                self.id
            );
            self.cpu_retry = Some(Instant::now() + Duration::from_secs(5));
            return;
        };
        let request = RoomRequest::Move {
            ply,
            usi: mv.to_string(),
        };
        if let Err(e) = self.act(side, request, Duration::ZERO).await {
            log::warn!("room {}: the CPU's move was refused: {e}", self.id);
        }
    }
}
