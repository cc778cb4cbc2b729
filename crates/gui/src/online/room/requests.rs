//! What a room's seats ask: the referee's actions, cancelling a room, claims, joining and
//! rematches.

use super::*;
use crate::referee::Action;

impl Room {
    /// The challenged player `player` declines: the room closes unplayed and the challenger's
    /// event streams hear it.
    pub(super) async fn decline(&mut self, player: &str) -> Result<(), String> {
        if self.settings.opponent.as_deref() != Some(player) || self.referee.is_some() {
            return Err("no challenge of yours waits here".into());
        }
        let host = self
            .side_where(|_| true)
            .ok_or("no challenge of yours waits here")?;
        self.cancel(host).await?;
        if let Some(rooms) = self.rooms.as_ref().and_then(std::sync::Weak::upgrade) {
            if let Some(seat) = &self.seats[host.index()] {
                let declined =
                    serde_json::json!({"type": "challengeDeclined", "challenge": {"id": self.id}});
                rooms.tell(&seat.player.id, declined);
            }
        }
        Ok(())
    }

    /// A request of the player `player` through the API: a move is for the next ply.
    pub(super) async fn act_for(
        &mut self,
        player: &str,
        request: RoomRequest,
    ) -> Result<(), String> {
        let side = self
            .side_where(|s| s.player.id == player)
            .ok_or("you are not a player of this game")?;
        let request = match request {
            RoomRequest::Move { usi, .. } => RoomRequest::Move {
                ply: self.referee.as_ref().map_or(0, |r| r.game().moves().len()),
                usi,
            },
            other => other,
        };
        self.act(side, request, Duration::ZERO).await
    }

    pub(super) async fn request(&mut self, conn: u64, request: RoomRequest, lag: Duration) {
        let side = self.conns.get(&conn).and_then(|c| c.side);
        let outcome = match side {
            None => Err("a spectator watches: only the players move".to_string()),
            Some(side) => self.act(side, request, lag).await,
        };
        if let Err(message) = outcome {
            if let Some(c) = self.conns.get(&conn) {
                let _ = c.updates.try_send(RoomUpdate::Refused { message });
            }
        }
    }

    pub(super) async fn act(
        &mut self,
        side: Color,
        request: RoomRequest,
        lag: Duration,
    ) -> Result<(), String> {
        if request == RoomRequest::Cancel {
            return self.cancel(side).await;
        }
        if request == RoomRequest::Rematch {
            return match self.cpu_opponent() {
                Some(_) => self.rematch_cpu(side).await,
                None => self.rematch(side).await,
            };
        }
        if let RoomRequest::Chat { text } = &request {
            let text = check_chat(text)?;
            let name = self.seats[side.index()]
                .as_ref()
                .map_or_else(String::new, |s| s.player.name.clone());
            self.broadcast(|_| RoomUpdate::Chat {
                by: side.into(),
                name: name.clone(),
                text: text.clone(),
            });
            return Ok(());
        }
        if matches!(request, RoomRequest::ClaimVictory | RoomRequest::ClaimDraw) {
            return self.claim(side, request == RoomRequest::ClaimDraw).await;
        }
        let action = request
            .action()
            .expect("every other request is the referee's");
        let Some(referee) = &self.referee else {
            return Err("waiting for an opponent to join".into());
        };
        let mut next = referee.clone();
        let now = Instant::now();
        let mut events = next
            .act(side, action.clone(), lag, now)
            .map_err(|e| e.to_string())?;
        // The CPU, in a game against it, answers at once: it grants a takeback and declines
        // a draw.
        if let Some(cpu) = self.cpu_opponent().filter(|cpu| *cpu != side) {
            let answer = match action {
                Action::ProposeTakeback => Some(Action::ProposeTakeback),
                Action::OfferDraw => Some(Action::DeclineDraw),
                _ => None,
            };
            if let Some(more) = answer.and_then(|a| next.act(cpu, a, Duration::ZERO, now).ok()) {
                events.extend(more);
            }
        }
        self.commit(next, events).await
    }

    /// `side` asks for a rematch, or accepts the other's request: a new room with the same
    /// settings and players (colours swapped if the room alternates), each seat's new secret
    /// sent to its holder's pages alone.
    pub(super) async fn rematch(&mut self, side: Color) -> Result<(), String> {
        if !self.is_over() || self.seats.iter().any(Option::is_none) {
            return Err("a rematch follows a game that was played to its end".into());
        }
        if self.next_game.is_some() {
            return Err("the rematch is already made".into());
        }
        match self.rematch_offer {
            Some(by) if by == side => Ok(()),
            None => {
                self.rematch_offer = Some(side);
                self.broadcast(|_| RoomUpdate::RematchOffered { by: side.into() });
                Ok(())
            }
            Some(_) => {
                let rooms = self
                    .rooms
                    .as_ref()
                    .and_then(std::sync::Weak::upgrade)
                    .ok_or("the server is stopping")?;
                let [sente, gote] = self.seats.clone().map(|s| s.expect("both seats"));
                let players = if self.settings.alternate {
                    [gote.player, sente.player]
                } else {
                    [sente.player, gote.player]
                };
                let (game, secrets) = rooms.open_game(self.settings.clone(), players).await?;
                self.next_game = Some(game.clone());
                self.rematch_offer = None;
                // The new seats by the player who holds them here.
                let seat_of = |side: Option<Color>, seats: &[Option<Seated>; 2]| {
                    let id = &seats[side?.index()].as_ref()?.player.id;
                    secrets
                        .iter()
                        .find(|(p, _)| p == id)
                        .map(|(_, s)| s.expose().to_string())
                };
                let seats = self.seats.clone();
                self.broadcast(|side| RoomUpdate::Rematch {
                    game: game.clone(),
                    seat: seat_of(side, &seats),
                });
                Ok(())
            }
        }
    }

    /// A rematch against the CPU, which always accepts: a new room with the same settings,
    /// the player's colour swapped if the room alternates; the new seat goes to the player's
    /// pages.
    pub(super) async fn rematch_cpu(&mut self, side: Color) -> Result<(), String> {
        if !self.is_over() {
            return Err("a rematch follows a game that was played to its end".into());
        }
        if self.next_game.is_some() {
            return Err("the rematch is already made".into());
        }
        let rooms = self
            .rooms
            .as_ref()
            .and_then(std::sync::Weak::upgrade)
            .ok_or("the server is stopping")?;
        let player = self.seats[side.index()]
            .clone()
            .ok_or("you are not a player of this game")?
            .player;
        let next_side = if self.settings.alternate { !side } else { side };
        let settings = RoomSettings {
            color: match next_side {
                Color::Sente => ColorChoice::Sente,
                Color::Gote => ColorChoice::Gote,
            },
            ..self.settings.clone()
        };
        let (game, secret, _) = rooms.create(player, settings).await?;
        self.next_game = Some(game.clone());
        let seat = secret.expose().to_string();
        self.broadcast(|to| RoomUpdate::Rematch {
            game: game.clone(),
            seat: (to == Some(side)).then(|| seat.clone()),
        });
        Ok(())
    }

    /// `side` claims the win (or a draw, `drawn`) of a game its opponent left more than the
    /// grace time ago.
    pub(super) async fn claim(&mut self, side: Color, drawn: bool) -> Result<(), String> {
        if let LeaveRule::Cpu { .. } = self.settings.leave {
            return Err("in this room the CPU plays for a player who left".into());
        }
        let Some(referee) = self.referee.as_ref().filter(|r| r.ending().is_none()) else {
            return Err("there is no game being played to claim".into());
        };
        let gone = self.absent_since[(!side).index()]
            .filter(|_| !self.present(!side))
            .map(|since| since.elapsed());
        if gone.is_none_or(|gone| gone < self.patience.absence_grace) {
            return Err(format!(
                "your opponent may come back: a claim waits {} s after they left",
                self.patience.absence_grace.as_secs()
            ));
        }
        let mut next = referee.clone();
        let events = next.abandon(!side, drawn);
        self.commit(next, events).await
    }

    /// The host closes the room before anyone joined: it ends unplayed.
    pub(super) async fn cancel(&mut self, side: Color) -> Result<(), String> {
        if self.referee.is_some() {
            return Err("an opponent has joined: abort or resign instead".into());
        }
        let mut referee = Referee::new(
            self.new_game(),
            &Setup {
                clock: None,
                first_move_limit: None,
            },
            None,
            self.epoch,
            Instant::now(),
        );
        let events = referee
            .act(
                side,
                crate::referee::Action::Abort,
                Duration::ZERO,
                Instant::now(),
            )
            .map_err(|e| e.to_string())?;
        self.commit(referee, events).await
    }

    pub(super) async fn join(
        &mut self,
        player: PlayerRecord,
        seat: SecretHash,
    ) -> Result<Color, String> {
        let Some(open) = [Color::Sente, Color::Gote]
            .into_iter()
            .find(|c| self.seats[c.index()].is_none())
        else {
            return Err("both seats are taken".into());
        };
        if self
            .seats
            .iter()
            .flatten()
            .any(|s| s.player.id == player.id)
        {
            return Err("you are already in this room".into());
        }
        if self
            .settings
            .opponent
            .as_ref()
            .is_some_and(|o| *o != player.id)
        {
            return Err("this room waits for another player".into());
        }
        if self.settings.cpu_opponent.is_some() {
            return Err("the CPU has this seat".into());
        }
        let record = SeatRecord {
            player: Some(player.id.clone()),
            name: player.name.clone(),
            seat: Some(seat),
        };
        let id = self.id.clone();
        self.store
            .run(move |store| store.set_seat(&id, open, &record))
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())?;
        self.seats[open.index()] = Some(Seated { player, seat });
        let game = self.new_game();
        self.start(game, None);
        self.broadcast_views();
        // Both players' event streams (the API's) hear that the game starts.
        if let Some(rooms) = self.rooms.as_ref().and_then(std::sync::Weak::upgrade) {
            for seat in self.seats.iter().flatten() {
                let start = serde_json::json!({"type": "gameStart", "game": {"id": self.id, "gameId": self.id}});
                rooms.tell(&seat.player.id, start);
            }
        }
        Ok(open)
    }
}
