//! The board's game as the store keeps it: a snapshot after each change (the board's task
//! writes what changed before the page is told), and a game taken up again from the store
//! when the server was restarted under a page.

use super::*;
use gogo_store::StoredGame;
use serde::{Deserialize, Serialize};

/// How the board's game was set up, as the store keeps it beside the moves (enough to set
/// the same game up again).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LocalSettings {
    /// Who plays Sente and Gote.
    pub players: [Player; 2],
    /// The clock.
    pub clock: ClockSetting,
    /// The engine's level (0: full strength).
    pub level: u8,
    /// Whether the engine's moves below full strength come after a pause.
    pub thinking_pause: bool,
}

/// The game on the board, as the store keeps it.
#[derive(Clone, Debug)]
pub struct KeptGame {
    /// Which game of the board this is: a new game or a record loaded is another.
    pub generation: u64,
    /// Its setup.
    pub settings: LocalSettings,
    /// The game (start, rules, moves).
    pub game: Game,
    /// Both clocks' main time now, as of the last move.
    pub clocks: [Duration; 2],
    /// Its ending, once it has one.
    pub ending: Option<Ending>,
    /// Sente's and Gote's names in the records.
    pub names: [String; 2],
}

/// A time control as the page's clock setting.
fn clock_setting(control: TimeControl) -> ClockSetting {
    let ms = |d: Duration| d.as_millis() as u64;
    match control {
        TimeControl::Byoyomi { main, byoyomi } => ClockSetting::Byoyomi {
            main_ms: ms(main),
            byoyomi_ms: ms(byoyomi),
        },
        TimeControl::Fischer { main, increment } => ClockSetting::Fischer {
            main_ms: ms(main),
            increment_ms: ms(increment),
        },
        TimeControl::MoveTime(t) => ClockSetting::None { engine_ms: ms(t) },
        TimeControl::Nodes(_) | TimeControl::Depth(_) => ClockSetting::None { engine_ms: 1000 },
    }
}

/// What tells whether the kept game changed, without copying it: the game's generation,
/// its moves, whether it has ended, whether a puzzle is open. A takeback and the next move
/// come in separate changes, so no change leaves this the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeptMark(u64, usize, bool, bool);

impl Session {
    /// The mark of the game as the store keeps it (see [`KeptMark`]).
    pub fn kept_mark(&self) -> KeptMark {
        KeptMark(
            self.generation,
            self.game.moves().len(),
            self.ending.is_some(),
            self.puzzle.is_some(),
        )
    }

    /// The game on the board as the store keeps it; `None` during a puzzle (a puzzle is
    /// not the person's game).
    pub fn kept(&self) -> Option<KeptGame> {
        if self.puzzle.is_some() {
            return None;
        }
        let names = [0, 1].map(|i| match (&self.record_names[i], self.players[i]) {
            (Some(name), _) => name.clone(),
            (None, Player::Human) => "human".to_string(),
            (None, Player::Engine) => self.engine_player_name(),
        });
        Some(KeptGame {
            generation: self.generation,
            settings: LocalSettings {
                players: self.players,
                clock: clock_setting(self.clock.control()),
                level: self.level,
                thinking_pause: self.thinking_pause,
            },
            game: self.game.clone(),
            clocks: self.clock.main(),
            ending: self.ending.clone(),
            names,
        })
    }

    /// Sets the game up again as the store kept it (after a restart of the server): its
    /// moves, its ending (the store's word, never a page's) and its clocks as they were
    /// after its last move.
    pub fn restore(&mut self, stored: &StoredGame) -> Result<(), String> {
        let settings: LocalSettings =
            serde_json::from_str(&stored.settings).map_err(|e| format!("settings: {e}"))?;
        let rules = stored.game.rules();
        let ending = stored.result.as_ref().map(|r| {
            Ending::from_reason(&r.reason, r.winner).unwrap_or_else(|| {
                // An engine's own words: the loser forfeits with them.
                let loser = r.winner.map_or(Color::Sente, |w| !w);
                Ending::EngineFailure(loser, r.reason.clone())
            })
        });
        let request = Request::NewGame {
            start: stored.game.start().to_sfen(),
            rules: rules.name().to_string(),
            sente: settings.players[0],
            gote: settings.players[1],
            clock: settings.clock,
            level: settings.level,
            max_plies: rules.max_plies.unwrap_or(0),
            moves: stored
                .game
                .moves()
                .iter()
                .map(ToString::to_string)
                .collect(),
            thinking_pause: settings.thinking_pause,
        };
        let updates = self.handle(request);
        if let Some(Update::Error { message }) =
            updates.iter().find(|u| matches!(u, Update::Error { .. }))
        {
            return Err(message.clone());
        }
        if let Some(last) = stored.moves.last() {
            self.clock
                .set_main(last.clocks_ms.map(Duration::from_millis));
        }
        if let Some(ending) = ending.filter(|_| self.ending.is_none()) {
            self.end(ending);
        }
        Ok(())
    }
}
