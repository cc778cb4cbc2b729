//! What an online room's pages and the server say to each other, as JSON: the room's
//! settings (chosen by its host), a seat's requests ([`RoomRequest`]) and the server's
//! updates ([`RoomUpdate`]), each numbered so that a page that comes back gets what it
//! missed.

use crate::messages::Side;
use crate::referee::{Action, EventKind};
use gogo_protocol::TimeControl;
use gogo_rules::{RuleSet, MAX_GAME_MOVES};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::time::Duration;

/// A room's clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OnlineClock {
    /// No clock.
    #[default]
    None,
    /// Main time and an increment per move.
    Fischer {
        /// Main time, ms.
        main_ms: u64,
        /// Added after each move, ms.
        increment_ms: u64,
    },
    /// Main time, then a byoyomi per move.
    Byoyomi {
        /// Main time, ms.
        main_ms: u64,
        /// Time per move once the main time is spent, ms.
        byoyomi_ms: u64,
    },
    /// The same time for every move and nothing else (Qdan's turn limit).
    PerTurn {
        /// Time per move, ms.
        turn_ms: u64,
    },
}

/// Presets that suit 5x5 games, which are short (lishogi's users asked for shorter ones):
/// a name and the clock.
pub const CLOCK_PRESETS: [(&str, OnlineClock); 7] = [
    ("1+1", fischer(60_000, 1_000)),
    ("3+2", fischer(180_000, 2_000)),
    ("5+3", fischer(300_000, 3_000)),
    ("1|10", byoyomi(60_000, 10_000)),
    ("3|10", byoyomi(180_000, 10_000)),
    ("30 s a move", OnlineClock::PerTurn { turn_ms: 30_000 }),
    ("60 s a move", OnlineClock::PerTurn { turn_ms: 60_000 }),
];

const fn fischer(main_ms: u64, increment_ms: u64) -> OnlineClock {
    OnlineClock::Fischer {
        main_ms,
        increment_ms,
    }
}

const fn byoyomi(main_ms: u64, byoyomi_ms: u64) -> OnlineClock {
    OnlineClock::Byoyomi {
        main_ms,
        byoyomi_ms,
    }
}

impl OnlineClock {
    /// The referee's time control; `None` without a clock.
    pub fn control(self) -> Option<TimeControl> {
        let ms = Duration::from_millis;
        match self {
            OnlineClock::None => None,
            OnlineClock::Fischer {
                main_ms,
                increment_ms,
            } => Some(TimeControl::Fischer {
                main: ms(main_ms),
                increment: ms(increment_ms),
            }),
            OnlineClock::Byoyomi {
                main_ms,
                byoyomi_ms,
            } => Some(TimeControl::Byoyomi {
                main: ms(main_ms),
                byoyomi: ms(byoyomi_ms),
            }),
            // lishogi's per-move clock: byoyomi without main time.
            OnlineClock::PerTurn { turn_ms } => Some(TimeControl::Byoyomi {
                main: Duration::ZERO,
                byoyomi: ms(turn_ms),
            }),
        }
    }

    fn check(self) -> Result<(), String> {
        const HOURS_3: u64 = 3 * 3600 * 1000;
        const MINUTE: u64 = 60_000;
        match self {
            OnlineClock::None => Ok(()),
            OnlineClock::Fischer {
                main_ms,
                increment_ms,
            } if (1_000..=HOURS_3).contains(&main_ms) && increment_ms <= MINUTE => Ok(()),
            OnlineClock::Byoyomi {
                main_ms,
                byoyomi_ms,
            } if main_ms <= HOURS_3 && (1_000..=MINUTE).contains(&byoyomi_ms) => Ok(()),
            OnlineClock::PerTurn { turn_ms } if (5_000..=10 * MINUTE).contains(&turn_ms) => Ok(()),
            _ => Err(
                "clock: main time 1 s to 3 h, increment up to 60 s, byoyomi 1 to 60 s, \
                      a turn 5 s to 10 min"
                    .into(),
            ),
        }
    }
}

/// What happens when a player leaves (no page connected for the grace time).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LeaveRule {
    /// The one who stayed may claim the win or a draw (lishogi's rule).
    #[default]
    Claim,
    /// The CPU plays for the absent side at this level until they come back (Qdan's rule).
    Cpu {
        /// The engine's level (1 weakest to 10; 0 full strength).
        level: u8,
    },
}

/// Who the host plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ColorChoice {
    /// Sente.
    Sente,
    /// Gote.
    Gote,
    /// Drawn at random.
    #[default]
    Random,
}

fn on() -> bool {
    true
}

fn standard() -> String {
    "standard".into()
}

/// A room's settings, as its host chose them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoomSettings {
    /// `standard` or `kawu` (each with its own start).
    #[serde(default = "standard")]
    pub rules: String,
    /// The clock.
    #[serde(default)]
    pub clock: OnlineClock,
    /// Whether the game changes both players' ratings.
    #[serde(default)]
    pub rated: bool,
    /// The host's side.
    #[serde(default)]
    pub color: ColorChoice,
    /// The game is drawn after this many plies (0: the rule set's own limit).
    #[serde(default)]
    pub max_plies: u32,
    /// Whether the board shows the legal squares of a piece.
    #[serde(default = "on")]
    pub show_legal: bool,
    /// Whether a rematch swaps who starts.
    #[serde(default = "on")]
    pub alternate: bool,
    /// What happens when a player leaves.
    #[serde(default)]
    pub leave: LeaveRule,
    /// The only player who may take the open seat (a challenge), by id; `None`: anyone.
    #[serde(default)]
    pub opponent: Option<String>,
    /// The CPU takes the open seat at this level (1 weakest to 10; 0 full strength) and the
    /// game starts at once: a visitor plays the server's engine. Casual, and not listed.
    #[serde(default)]
    pub cpu_opponent: Option<u8>,
}

impl Default for RoomSettings {
    fn default() -> RoomSettings {
        RoomSettings {
            rules: standard(),
            clock: OnlineClock::None,
            rated: false,
            color: ColorChoice::Random,
            max_plies: 0,
            show_legal: true,
            alternate: true,
            leave: LeaveRule::Claim,
            opponent: None,
            cpu_opponent: None,
        }
    }
}

impl RoomSettings {
    /// The name the CPU plays under in a game against it, if it is one.
    pub fn cpu_name(&self) -> Option<String> {
        self.cpu_opponent.map(|level| match level {
            0 => "CPU (full strength)".to_string(),
            level => format!("CPU level {level}"),
        })
    }

    /// The rules these settings name, with the move limit; an error in words if they do not
    /// hold.
    pub fn checked_rules(&self) -> Result<RuleSet, String> {
        let rules: RuleSet = self.rules.parse().map_err(|e| format!("{e}"))?;
        self.clock.check()?;
        if let LeaveRule::Cpu { level } = self.leave {
            if level > 10 {
                return Err("the CPU's level: 0 (full strength) or 1 to 10".into());
            }
        }
        if self.opponent.as_ref().is_some_and(|o| o.len() > 32) {
            return Err("no such player".into());
        }
        if let Some(level) = self.cpu_opponent {
            if level > 10 {
                return Err("the CPU's level: 0 (full strength) or 1 to 10".into());
            }
            if self.rated {
                return Err("a game against the CPU is casual: it changes no rating".into());
            }
            if self.opponent.is_some() {
                return Err("a room is either a challenge or a game against the CPU".into());
            }
        }
        if self.max_plies as usize > MAX_GAME_MOVES {
            return Err(format!("move limit: 0 (none) to {MAX_GAME_MOVES} plies"));
        }
        Ok(match self.max_plies {
            0 => rules,
            n => rules.with_max_plies(Some(n)),
        })
    }
}

/// What a seat asks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum RoomRequest {
    /// A move for ply `ply` (0: the first), USI.
    Move {
        /// The ply the page saw as next.
        ply: usize,
        /// The move.
        usi: String,
    },
    /// Resign.
    Resign,
    /// Offer a draw, or accept the opponent's offer.
    OfferDraw,
    /// Decline the opponent's draw offer.
    DeclineDraw,
    /// Ask to take one's last move back, or accept the opponent's request.
    ProposeTakeback,
    /// Decline the opponent's takeback request.
    DeclineTakeback,
    /// Call the game off before both sides have moved.
    Abort,
    /// Before anyone joined: close the room (its host only).
    Cancel,
    /// The opponent has been gone longer than the grace time: win the game.
    ClaimVictory,
    /// The opponent has been gone longer than the grace time: end the game drawn.
    ClaimDraw,
    /// After the game: ask for another with the same settings (colours swapped if the room
    /// alternates), or accept the opponent's request.
    Rematch,
    /// A line of chat to the game's players and spectators (at most [`MAX_CHAT_CHARS`]
    /// characters; not kept).
    Chat {
        /// What the player typed.
        text: String,
    },
}

/// The longest line of chat, in characters (lishogi's limit).
pub const MAX_CHAT_CHARS: usize = 140;

/// A line of chat as it is passed on: trimmed, control characters refused, at most
/// [`MAX_CHAT_CHARS`] characters; an error in words otherwise.
pub fn check_chat(text: &str) -> Result<String, &'static str> {
    let text = text.trim();
    if text.is_empty() {
        return Err("an empty line of chat");
    }
    if text.chars().count() > MAX_CHAT_CHARS {
        return Err("a line of chat is at most 140 characters");
    }
    if text.chars().any(char::is_control) {
        return Err("a line of chat is one line of text");
    }
    Ok(text.to_string())
}

impl RoomRequest {
    /// The referee's action, for those the referee judges.
    pub fn action(&self) -> Option<Action> {
        Some(match self {
            RoomRequest::Move { ply, usi } => Action::Move {
                ply: *ply,
                usi: usi.clone(),
            },
            RoomRequest::Resign => Action::Resign,
            RoomRequest::OfferDraw => Action::OfferDraw,
            RoomRequest::DeclineDraw => Action::DeclineDraw,
            RoomRequest::ProposeTakeback => Action::ProposeTakeback,
            RoomRequest::DeclineTakeback => Action::DeclineTakeback,
            RoomRequest::Abort => Action::Abort,
            RoomRequest::Cancel
            | RoomRequest::Rematch
            | RoomRequest::ClaimVictory
            | RoomRequest::ClaimDraw
            | RoomRequest::Chat { .. } => return None,
        })
    }
}

/// A player as a room shows them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatView {
    /// The player's public id.
    pub id: String,
    /// Their name, as they typed it (the page shows it as text).
    pub name: String,
    /// Their game rating, rounded.
    pub rating: u32,
    /// Whether the rating is still provisional.
    pub provisional: bool,
    /// Whether their page is connected.
    pub present: bool,
    /// While the game is played and their page is not connected: how long it has been
    /// gone, ms (the other may claim once it is the room's `claim_after_ms`).
    pub absent_ms: Option<u64>,
    /// Whether this seat is the server's CPU (a game against it): no id, no rating.
    pub cpu: bool,
}

/// A room as it stands: what a page needs to draw it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoomView {
    /// The room's (and its game's) public id.
    pub id: String,
    /// The epoch and number of the last event, for coming back.
    pub epoch: u64,
    /// See `epoch`.
    pub event: u64,
    /// The side this page holds; `None` for a spectator.
    pub you: Option<Side>,
    /// `waiting` (for a second player), `playing` or `over`.
    pub status: Cow<'static, str>,
    /// Sente's and Gote's players (`None`: an open seat).
    pub seats: [Option<SeatView>; 2],
    /// The settings.
    pub settings: RoomSettings,
    /// The start position, SFEN.
    pub start: String,
    /// The moves, USI.
    pub moves: Vec<String>,
    /// The position now, SFEN.
    pub sfen: String,
    /// The legal moves now, USI (empty unless the game is being played).
    pub legal: Vec<String>,
    /// Sente's and Gote's main time left, ms, as of now (0 without a clock).
    pub clocks_ms: [u64; 2],
    /// The side whose clock runs.
    pub running: Option<Side>,
    /// A pending draw offer's side.
    pub draw_offer: Option<Side>,
    /// A pending takeback request's side.
    pub takeback_offer: Option<Side>,
    /// A pending rematch request's side.
    pub rematch_offer: Option<Side>,
    /// The game that follows this one, once both asked for a rematch.
    pub next_game: Option<String>,
    /// How long a player may be gone before the other may claim, ms.
    pub claim_after_ms: u64,
    /// The side the CPU plays for now (its player left), if any.
    pub cpu_plays: Option<Side>,
    /// The result (`1-0`, `0-1`, `1/2-1/2`, `*` for none), once over.
    pub result: Option<Cow<'static, str>>,
    /// Why it ended, in words.
    pub reason: Option<String>,
}

/// One change, numbered.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EventView {
    /// A move.
    Moved {
        /// Its ply.
        ply: usize,
        /// USI.
        usi: String,
        /// Both clocks after it, ms.
        clocks_ms: [u64; 2],
    },
    /// A draw offer.
    DrawOffered {
        /// Whose.
        by: Side,
    },
    /// A draw offer declined.
    DrawDeclined {
        /// By whom.
        by: Side,
    },
    /// A takeback request.
    TakebackProposed {
        /// Whose.
        by: Side,
    },
    /// A takeback request declined.
    TakebackDeclined {
        /// By whom.
        by: Side,
    },
    /// Moves taken back.
    TookBack {
        /// Moves left.
        plies: usize,
        /// Both clocks, ms.
        clocks_ms: [u64; 2],
    },
    /// The end.
    Ended {
        /// `1-0`, `0-1`, `1/2-1/2` or `*`.
        result: Cow<'static, str>,
        /// Why, in words.
        reason: String,
    },
}

fn ms(clocks: [Duration; 2]) -> [u64; 2] {
    clocks.map(|d| d.as_millis() as u64)
}

impl From<&EventKind> for EventView {
    fn from(kind: &EventKind) -> EventView {
        match kind {
            EventKind::Moved { ply, usi, clocks } => EventView::Moved {
                ply: *ply,
                usi: usi.clone(),
                clocks_ms: ms(*clocks),
            },
            EventKind::DrawOffered(c) => EventView::DrawOffered { by: (*c).into() },
            EventKind::DrawDeclined(c) => EventView::DrawDeclined { by: (*c).into() },
            EventKind::TakebackProposed(c) => EventView::TakebackProposed { by: (*c).into() },
            EventKind::TakebackDeclined(c) => EventView::TakebackDeclined { by: (*c).into() },
            EventKind::TookBack { plies, clocks } => EventView::TookBack {
                plies: *plies,
                clocks_ms: ms(*clocks),
            },
            EventKind::Ended(ending) => EventView::Ended {
                result: ending.result().into(),
                reason: ending.reason(),
            },
        }
    }
}

/// What the server tells a room's page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RoomUpdate {
    /// The whole room (on attaching, after a gap, or when the room itself changed).
    Room(Box<RoomView>),
    /// One numbered change of the game.
    Event {
        /// The referee's epoch.
        epoch: u64,
        /// The event's number.
        number: u64,
        /// What changed.
        event: EventView,
        /// The position now, SFEN (after the last of the events sent together).
        sfen: String,
        /// The legal moves now, USI (empty once the game is over).
        legal: Vec<String>,
    },
    /// A player's page came or went.
    Presence {
        /// The side.
        side: Side,
        /// Whether its page is connected.
        present: bool,
    },
    /// A player asked for a rematch.
    RematchOffered {
        /// Who.
        by: Side,
    },
    /// The rematch is made: its game, and this page's seat in it (only to that seat's
    /// holder; `None` for a spectator).
    Rematch {
        /// The new game's id.
        game: String,
        /// This page's seat secret in it.
        seat: Option<String>,
    },
    /// A player's line of chat (shown as text).
    Chat {
        /// Whose.
        by: Side,
        /// Their name.
        name: String,
        /// The line.
        text: String,
    },
    /// A request was refused; nothing changed.
    Refused {
        /// Why.
        message: String,
    },
}
