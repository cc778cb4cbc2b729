//! One clock for both sides, and the `go` command built from it: the arena's referee and the
//! browser board keep time with it. A [`TimeControl`] says how time is given; a [`Clock`]
//! runs it for Sente and Gote.

use crate::GoCommand;
use gogo_rules::Color;
use std::fmt;
use std::time::{Duration, Instant};

/// A time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Main time (possibly zero) then a fixed byoyomi per move.
    Byoyomi {
        /// Main time, spent first.
        main: Duration,
        /// Time per move once the main time is gone (lost if not used).
        byoyomi: Duration,
    },
    /// Main time plus an increment after each move.
    Fischer {
        /// Time at the start.
        main: Duration,
        /// Time added after each move.
        increment: Duration,
    },
    /// A fixed time per move.
    MoveTime(Duration),
    /// A fixed node count per move (no clock).
    Nodes(u64),
    /// A fixed depth per move (no clock).
    Depth(u32),
}

impl TimeControl {
    /// Whether this is a clock (byoyomi or Fischer), rather than a fixed time, nodes or
    /// depth per move.
    pub fn is_clock(&self) -> bool {
        matches!(
            self,
            TimeControl::Byoyomi { .. } | TimeControl::Fischer { .. }
        )
    }
}

/// Time-control text that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseTimeControlError {
    /// Not `kind=value`.
    NotKindValue(String),
    /// A kind other than byoyomi, fischer, movetime, nodes and depth.
    UnknownKind(String),
    /// A value that is not a whole number (of milliseconds, nodes or plies).
    BadNumber(String),
}

impl fmt::Display for ParseTimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseTimeControlError::NotKindValue(text) => {
                write!(f, "tc: '{text}' is not kind=value")
            }
            ParseTimeControlError::UnknownKind(kind) => write!(
                f,
                "tc: unknown kind '{kind}' (byoyomi, fischer, movetime, nodes, depth)"
            ),
            ParseTimeControlError::BadNumber(value) => {
                write!(f, "tc: '{value}' is not a whole number")
            }
        }
    }
}

impl std::error::Error for ParseTimeControlError {}

impl fmt::Display for TimeControl {
    /// The text [`TimeControl`]'s parser reads: `byoyomi=MAIN+BYOYOMI`,
    /// `fischer=MAIN+INCREMENT`, `movetime=MS`, `nodes=N`, `depth=D`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = Duration::as_millis;
        match *self {
            TimeControl::Byoyomi { main, byoyomi } => {
                write!(f, "byoyomi={}+{}", ms(&main), ms(&byoyomi))
            }
            TimeControl::Fischer { main, increment } => {
                write!(f, "fischer={}+{}", ms(&main), ms(&increment))
            }
            TimeControl::MoveTime(t) => write!(f, "movetime={}", ms(&t)),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            TimeControl::Depth(d) => write!(f, "depth={d}"),
        }
    }
}

/// How far a [`deadline`] reaches when the time asked for is past what an [`Instant`]
/// holds: a year.
pub const FARTHEST_DEADLINE: Duration = Duration::from_secs(365 * 24 * 3600);

/// `after` from `start`, or [`FARTHEST_DEADLINE`] from `start` if that is past what an
/// [`Instant`] holds: a time control of any size gives a deadline, never a panic.
pub fn deadline(start: Instant, after: Duration) -> Instant {
    start
        .checked_add(after)
        .or_else(|| start.checked_add(FARTHEST_DEADLINE))
        .unwrap_or(start)
}

/// A duration in whole milliseconds for a `go` command, `u64::MAX` if it does not fit.
fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

impl std::str::FromStr for TimeControl {
    type Err = ParseTimeControlError;

    /// `byoyomi=200`, `byoyomi=10000+200` (main+byoyomi, ms), `fischer=1000+10`,
    /// `movetime=100`, `nodes=20000`, `depth=6`.
    fn from_str(text: &str) -> Result<TimeControl, ParseTimeControlError> {
        let (kind, value) = text
            .split_once('=')
            .ok_or_else(|| ParseTimeControlError::NotKindValue(text.to_string()))?;
        fn number<T: std::str::FromStr>(v: &str) -> Result<T, ParseTimeControlError> {
            v.parse()
                .map_err(|_| ParseTimeControlError::BadNumber(v.to_string()))
        }
        let ms = |v: &str| number(v).map(Duration::from_millis);
        // `a+b`, or `b` alone with `a` as given.
        let pair = |v: &str, alone_is_second: bool| match v.split_once('+') {
            Some((a, b)) => Ok((ms(a)?, ms(b)?)),
            None if alone_is_second => Ok((Duration::ZERO, ms(v)?)),
            None => Ok((ms(v)?, Duration::ZERO)),
        };
        Ok(match kind {
            "byoyomi" => {
                let (main, byoyomi) = pair(value, true)?;
                TimeControl::Byoyomi { main, byoyomi }
            }
            "fischer" => {
                let (main, increment) = pair(value, false)?;
                TimeControl::Fischer { main, increment }
            }
            "movetime" => TimeControl::MoveTime(ms(value)?),
            "nodes" => TimeControl::Nodes(number(value)?),
            "depth" => TimeControl::Depth(number(value)?),
            _ => return Err(ParseTimeControlError::UnknownKind(kind.to_string())),
        })
    }
}

/// Both sides' time, each under its [`TimeControl`] (the same one unless the game gives
/// time odds), and the side whose clock runs.
#[derive(Clone, Debug)]
pub struct Clock {
    /// The time control by colour.
    controls: [TimeControl; 2],
    /// Main time left, by colour.
    main: [Duration; 2],
    /// The side whose clock runs, and since when.
    running: Option<(Color, Instant)>,
}

impl Clock {
    /// Both sides under `control` with its main time, no clock running.
    pub fn new(control: TimeControl) -> Clock {
        Clock::with_odds([control; 2])
    }

    /// Time odds: each colour under its own control (Sente's first), e.g. a fixed 100 ms a
    /// move against 400 ms; no clock running.
    pub fn with_odds(controls: [TimeControl; 2]) -> Clock {
        let main = |control| match control {
            TimeControl::Byoyomi { main, .. } | TimeControl::Fischer { main, .. } => main,
            _ => Duration::ZERO,
        };
        Clock {
            controls,
            main: controls.map(main),
            running: None,
        }
    }

    /// Sente's time control, which is Gote's too unless the clock gives time odds.
    pub fn control(&self) -> TimeControl {
        self.controls[0]
    }

    /// Whether the game is on a clock (byoyomi or Fischer) for either side, rather than a
    /// fixed time, nodes or depth per move.
    pub fn timed(&self) -> bool {
        self.controls.iter().any(TimeControl::is_clock)
    }

    /// Sente's byoyomi per move (zero unless byoyomi).
    pub fn byoyomi(&self) -> Duration {
        match self.controls[0] {
            TimeControl::Byoyomi { byoyomi, .. } => byoyomi,
            _ => Duration::ZERO,
        }
    }

    /// Main time left by colour, as of the last stop (the running side's is not counted
    /// down: see [`Clock::left_now`]).
    pub fn main(&self) -> [Duration; 2] {
        self.main
    }

    /// Main time left by colour now, the running side's counted down.
    pub fn left_now(&self) -> [Duration; 2] {
        let mut main = self.main;
        if let Some((c, since)) = self.running {
            main[c.index()] = main[c.index()].saturating_sub(since.elapsed());
        }
        main
    }

    /// Sets the main time left (a takeback restores it).
    pub fn set_main(&mut self, main: [Duration; 2]) {
        self.main = main;
    }

    /// The side whose clock runs.
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(c, _)| c)
    }

    /// The longest `side` may take for its move now: its main time and byoyomi, the fixed
    /// time per move, or `untimed` under nodes or depth.
    pub fn allowed(&self, side: Color, untimed: Duration) -> Duration {
        match self.controls[side.index()] {
            TimeControl::Byoyomi { byoyomi, .. } => self.main[side.index()].saturating_add(byoyomi),
            TimeControl::Fischer { .. } => self.main[side.index()],
            TimeControl::MoveTime(t) => t,
            TimeControl::Nodes(_) | TimeControl::Depth(_) => untimed,
        }
    }

    /// The `go` command for `side`, the side to move in the position it is for (`go ponder`
    /// with `ponder`). Under time odds it states `side`'s control, with both main times
    /// and each side's own increment.
    pub fn go(&self, side: Color, ponder: bool) -> GoCommand {
        let ms = |d: Duration| Some(millis(d));
        let go = GoCommand {
            ponder,
            ..GoCommand::default()
        };
        let increment = |c: TimeControl| match c {
            TimeControl::Fischer { increment, .. } => increment,
            _ => Duration::ZERO,
        };
        match self.controls[side.index()] {
            TimeControl::Byoyomi { byoyomi, .. } => GoCommand {
                btime: ms(self.main[0]),
                wtime: ms(self.main[1]),
                byoyomi: ms(byoyomi),
                ..go
            },
            TimeControl::Fischer { .. } => GoCommand {
                btime: ms(self.main[0]),
                wtime: ms(self.main[1]),
                binc: ms(increment(self.controls[0])),
                winc: ms(increment(self.controls[1])),
                ..go
            },
            TimeControl::MoveTime(t) => GoCommand {
                movetime: ms(t),
                ..go
            },
            TimeControl::Nodes(n) => GoCommand {
                nodes: Some(n),
                ..go
            },
            TimeControl::Depth(d) => GoCommand {
                depth: Some(d),
                ..go
            },
        }
    }

    /// Starts `side`'s clock.
    pub fn start(&mut self, side: Color) {
        self.running = Some((side, Instant::now()));
    }

    /// Stops the running clock after its side moved, charging the time taken (and adding
    /// Fischer's increment). Returns the time taken, or `Err` with it if the side took more
    /// than it had (and `tolerance` more): its main time is then zero. Without a running
    /// clock, nothing was taken.
    pub fn stop(&mut self, tolerance: Duration) -> Result<Duration, Duration> {
        let Some((side, since)) = self.running.take() else {
            return Ok(Duration::ZERO);
        };
        self.charge(side, since.elapsed(), tolerance)
    }

    /// Charges `side` for a move that took `spent`: see [`Clock::stop`].
    pub fn charge(
        &mut self,
        side: Color,
        spent: Duration,
        tolerance: Duration,
    ) -> Result<Duration, Duration> {
        let i = side.index();
        if spent > self.allowed(side, Duration::MAX).saturating_add(tolerance) {
            if self.controls[i].is_clock() {
                self.main[i] = Duration::ZERO;
            }
            return Err(spent);
        }
        match self.controls[i] {
            TimeControl::Byoyomi { .. } => self.main[i] = self.main[i].saturating_sub(spent),
            TimeControl::Fischer { increment, .. } => {
                self.main[i] = self.main[i].saturating_sub(spent).saturating_add(increment)
            }
            _ => {}
        }
        Ok(spent)
    }

    /// The side whose time has run out (and `tolerance` more) while its clock runs.
    pub fn flagged(&self, tolerance: Duration) -> Option<Color> {
        let (side, since) = self.running?;
        (since.elapsed() > self.allowed(side, Duration::MAX).saturating_add(tolerance))
            .then_some(side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn byoyomi_fischer_and_movetime_charge_and_flag() {
        let mut clock = Clock::new("byoyomi=1000+200".parse().unwrap());
        assert!(clock.timed());
        assert_eq!(clock.allowed(Color::Sente, ms(5)), ms(1200));
        assert_eq!(clock.charge(Color::Sente, ms(300), ms(0)), Ok(ms(300)));
        assert_eq!(clock.main(), [ms(700), ms(1000)]);
        let go = clock.go(Color::Sente, false);
        assert_eq!(
            (go.btime, go.wtime, go.byoyomi),
            (Some(700), Some(1000), Some(200))
        );
        // 700 + 200 + 50 of tolerance is the most.
        assert_eq!(clock.charge(Color::Sente, ms(951), ms(50)), Err(ms(951)));
        assert_eq!(clock.main()[0], ms(0));

        let mut clock = Clock::new("fischer=1000+100".parse().unwrap());
        assert_eq!(clock.charge(Color::Gote, ms(400), ms(0)), Ok(ms(400)));
        assert_eq!(clock.main(), [ms(1000), ms(700)]);
        let go = clock.go(Color::Gote, true);
        assert_eq!((go.binc, go.winc, go.ponder), (Some(100), Some(100), true));

        let mut clock = Clock::new("movetime=100".parse().unwrap());
        assert!(!clock.timed());
        assert_eq!(clock.go(Color::Sente, false).movetime, Some(100));
        assert!(clock.charge(Color::Sente, ms(150), ms(0)).is_err());
        let clock = Clock::new("depth=7".parse().unwrap());
        assert_eq!(clock.allowed(Color::Gote, ms(30_000)), ms(30_000));
        assert_eq!(clock.go(Color::Sente, false).depth, Some(7));
    }

    #[test]
    fn time_odds_give_each_side_its_own_control() {
        let mut clock = Clock::with_odds([
            "movetime=100".parse().unwrap(),
            "movetime=400".parse().unwrap(),
        ]);
        assert!(!clock.timed());
        assert_eq!(clock.go(Color::Sente, false).movetime, Some(100));
        assert_eq!(clock.go(Color::Gote, false).movetime, Some(400));
        assert_eq!(clock.allowed(Color::Gote, ms(5)), ms(400));
        assert_eq!(clock.charge(Color::Gote, ms(300), ms(0)), Ok(ms(300)));
        assert!(clock.charge(Color::Sente, ms(300), ms(0)).is_err());

        // Fischer against Fischer with four times the time: each side's own main time and
        // increment, the side to move's kind of control.
        let mut clock = Clock::with_odds([
            "fischer=1000+10".parse().unwrap(),
            "fischer=4000+40".parse().unwrap(),
        ]);
        assert_eq!(clock.main(), [ms(1000), ms(4000)]);
        let go = clock.go(Color::Gote, false);
        assert_eq!(
            (go.btime, go.wtime, go.binc, go.winc),
            (Some(1000), Some(4000), Some(10), Some(40))
        );
        assert_eq!(clock.charge(Color::Gote, ms(1500), ms(0)), Ok(ms(1500)));
        assert_eq!(clock.main(), [ms(1000), ms(2540)]);
        assert!(clock.charge(Color::Sente, ms(1500), ms(0)).is_err());
        assert_eq!(clock.main(), [ms(0), ms(2540)]);

        // A fixed time against a clock: the clock's side is timed, the other is not.
        let mut clock = Clock::with_odds([
            "movetime=100".parse().unwrap(),
            "byoyomi=0+300".parse().unwrap(),
        ]);
        assert!(clock.timed());
        assert_eq!(clock.go(Color::Gote, true).byoyomi, Some(300));
        assert!(clock.charge(Color::Sente, ms(200), ms(0)).is_err());
        assert_eq!(clock.main(), [ms(0), ms(0)]);
    }

    #[test]
    fn a_running_clock_counts_down_and_flags() {
        let mut clock = Clock::new("byoyomi=0+30".parse().unwrap());
        clock.start(Color::Gote);
        assert_eq!(clock.running(), Some(Color::Gote));
        assert_eq!(clock.flagged(ms(0)), None);
        std::thread::sleep(ms(40));
        assert_eq!(clock.flagged(ms(0)), Some(Color::Gote));
        assert!(clock.stop(ms(0)).is_err());
        assert_eq!(clock.running(), None);
        assert_eq!(clock.stop(ms(0)), Ok(Duration::ZERO));
    }

    #[test]
    fn controls_of_any_size_give_deadlines_and_go_commands() {
        let now = Instant::now();
        assert_eq!(deadline(now, ms(250)), now + ms(250));
        let far = deadline(now, Duration::MAX);
        assert!(far >= now + Duration::from_secs(364 * 24 * 3600));
        let huge: TimeControl = "fischer=18446744073709551615+18446744073709551615"
            .parse()
            .unwrap();
        assert_eq!(huge.to_string().parse::<TimeControl>(), Ok(huge));
        let mut clock = Clock::new(huge);
        // The increment keeps adding past what milliseconds in a u64 can say.
        for _ in 0..3 {
            assert!(clock.charge(Color::Sente, ms(1), ms(0)).is_ok());
        }
        assert_eq!(clock.go(Color::Sente, false).btime, Some(u64::MAX));
    }
}
