//! The search's own numbers: pruning margins, reductions, history bonuses, move-ordering
//! scores and the piece values of static exchange evaluation.
//!
//! They are kept apart from the evaluation so that retuning the evaluation, or replacing it
//! with a network, leaves pruning, SEE and move ordering as they are. The piece values were
//! copied from the hand-made evaluation's fitted board and hand values (build 45411d5), which
//! is where the search read them until then.

use gogo_rules::PieceKind;

/// A search parameter a tuner may set: its name, default, range and SPSA step. In a release
/// build it is a constant ([`Tunable::get`] folds to its default); built with the `tune`
/// feature, [`TUNABLES`] can set it at run time (the engine offers each as a USI option).
#[derive(Debug)]
pub struct Tunable {
    /// The name (the USI option's in a tuning build).
    pub name: &'static str,
    /// The value in a release build, and the start of tuning.
    pub default: i32,
    /// The least value.
    pub min: i32,
    /// The most value.
    pub max: i32,
    /// SPSA's perturbation for this parameter.
    pub step: i32,
    #[cfg(feature = "tune")]
    value: std::sync::atomic::AtomicI32,
}

/// Declares each tunable once: `NAME = (default, min, max, step);` makes `pub static NAME`
/// and puts it in `TUNABLES`, so that no tunable can be missing from the table.
macro_rules! tunables {
    ($($(#[$doc:meta])* $name:ident = ($default:expr, $min:expr, $max:expr, $step:expr);)*) => {
        $(
            $(#[$doc])*
            pub static $name: Tunable = Tunable {
                name: stringify!($name),
                default: $default,
                min: $min,
                max: $max,
                step: $step,
                #[cfg(feature = "tune")]
                value: std::sync::atomic::AtomicI32::new($default),
            };
        )*
        /// Every tunable search parameter, for the tuner and the USI options of a tuning
        /// build, in the order declared. (Statics, so that a tuning build's values are the
        /// ones the search reads.)
        pub static TUNABLES: [&Tunable; [$(stringify!($name)),*].len()] = [$(&$name),*];
    };
}

impl Tunable {
    /// The value.
    #[inline(always)]
    pub fn get(&self) -> i32 {
        #[cfg(feature = "tune")]
        {
            self.value.load(std::sync::atomic::Ordering::Relaxed)
        }
        #[cfg(not(feature = "tune"))]
        {
            self.default
        }
    }

    /// Sets the value (a tuning build only; `false` outside the range or elsewhere).
    pub fn set(&self, value: i32) -> bool {
        #[cfg(feature = "tune")]
        if (self.min..=self.max).contains(&value) {
            self.value
                .store(value, std::sync::atomic::Ordering::Relaxed);
            return true;
        }
        let _ = value;
        false
    }
}

/// Piece values on the board for SEE and capture ordering, by [`PieceKind::index`] (the
/// king's is 0: SEE treats it apart).
pub const BOARD_VALUE: [i32; PieceKind::COUNT] = [268, 566, 636, 706, 876, 0, 714, 644, 1196, 1416];
/// Values in hand, by hand-kind index (pawn, silver, gold, bishop, rook).
pub const HAND_VALUE: [i32; 5] = [264, 792, 870, 890, 1206];

/// The board value of a kind.
#[inline]
pub fn board_value(kind: PieceKind) -> i32 {
    BOARD_VALUE[kind.index()]
}

/// What capturing a piece of `kind` gains: it leaves the opponent's board and joins our hand.
#[inline]
pub fn capture_gain(kind: PieceKind) -> i32 {
    BOARD_VALUE[kind.index()] + HAND_VALUE[kind.unpromote().index()]
}

/// See [`ASPIRATION_DELTA`].
pub const ASPIRATION_MIN_DEPTH: i32 = 4;

/// Null-move pruning: shallowest depth; the reduction is `NMP_BASE_REDUCTION` plus
/// `NMP_DEPTH_PCT` hundredths of the depth plus one per `NMP_EVAL_STEP` above beta, at most
/// `NMP_EVAL_MAX` more.
pub const NMP_MIN_DEPTH: i32 = 3;

/// ProbCut: from this depth, a capture that beats `beta + PROBCUT_MARGIN` in a search
/// `PROBCUT_REDUCTION` plies shallower cuts the node.
pub const PROBCUT_MIN_DEPTH: i32 = 5;

/// Internal iterative reduction: shallowest depth at which a node without a table move is
/// searched one ply shallower.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Late-move pruning: deepest depth; quiet moves after `(LMP_BASE + depth²) / (1 or 2) +
/// LMP_SLACK` are skipped (halved when not improving).
pub const LMP_MAX_DEPTH: i32 = 4;

/// See [`LMR_BASE_CENTI`].
pub const LMR_MIN_DEPTH: i32 = 3;
/// See [`LMR_BASE_CENTI`].
pub const LMR_HISTORY_MAX: i32 = 2;
/// At the root, quiet moves after the first few of a line are reduced by one ply.
pub const ROOT_LMR_AFTER: usize = 3;

/// Check extensions stop beyond `2 · depth + CHECK_EXTENSION_SLACK` plies from the root.
pub const CHECK_EXTENSION_SLACK: usize = 8;

/// History: scores stay within this bound (gravity formula).
pub const HISTORY_MAX: i32 = 16_384;
/// Quiet moves remembered per node for the history malus.
pub const QUIETS_REMEMBERED: usize = 64;

/// Capture ordering: victim value times this, less the attacker's value.
pub const MVV_MULTIPLIER: i32 = 8;
/// Capture ordering: bonus for a promotion.
pub const PROMOTION_ORDER_BONUS: i32 = 300;
/// Evasion ordering: captures and promotions come before quiet evasions.
pub const EVASION_NOISY_BONUS: i32 = 1_000_000;

/// ... up to this factor ...
pub const INSTABILITY_MAX: f64 = 2.5;
/// ... and shrinks back by this factor while it stays.
pub const INSTABILITY_DECAY: f64 = 0.85;

/// ... from this iteration on.
pub const NODE_TM_MIN_DEPTH: i32 = 6;

// Every tunable search parameter: each declared once here, which makes its static (read by
// the search) and its entry in `TUNABLES` (the tuner's table and a tuning build's USI
// options).
tunables! {
    /// Aspiration windows: the first half-width, and the depth from which they are used.
    ASPIRATION_DELTA = (38, 10, 60, 5);
    /// Reverse futility pruning: deepest depth, margin per ply, and the margin given back when
    /// the evaluation is improving.
    RFP_MAX_DEPTH = (8, 3, 9, 1);
    /// See [`RFP_MAX_DEPTH`].
    RFP_MARGIN_PER_PLY = (106, 40, 160, 10);
    /// See [`RFP_MAX_DEPTH`].
    RFP_IMPROVING_BONUS = (32, 0, 80, 8);
    /// See [`NMP_MIN_DEPTH`].
    NMP_BASE_REDUCTION = (4, 1, 5, 1);
    /// See [`NMP_MIN_DEPTH`]. (Hundredths, so that a tuner can move it between what whole
    /// divisors allow: 50 is `depth / 2`.)
    NMP_DEPTH_PCT = (50, 20, 80, 5);
    /// See [`NMP_MIN_DEPTH`].
    NMP_EVAL_STEP = (200, 80, 400, 25);
    /// See [`NMP_MIN_DEPTH`].
    NMP_EVAL_MAX = (2, 0, 4, 1);
    /// See [`PROBCUT_MIN_DEPTH`].
    PROBCUT_MARGIN = (208, 80, 400, 20);
    /// See [`PROBCUT_MIN_DEPTH`].
    PROBCUT_REDUCTION = (4, 2, 5, 1);
    /// See [`LMP_MAX_DEPTH`].
    LMP_BASE = (4, 1, 8, 1);
    /// See [`LMP_MAX_DEPTH`].
    LMP_SLACK = (2, 0, 6, 1);
    /// Futility pruning of quiet moves: deepest depth, base margin and margin per ply.
    FUTILITY_MAX_DEPTH = (5, 2, 8, 1);
    /// See [`FUTILITY_MAX_DEPTH`].
    FUTILITY_BASE = (126, 40, 240, 15);
    /// See [`FUTILITY_MAX_DEPTH`].
    FUTILITY_PER_PLY = (97, 40, 180, 10);
    /// Late-move reductions: `base + ln(depth) · ln(move number) / divisor` (base and divisor in
    /// hundredths), from this depth and move number on; the history term moves it by
    /// `history / LMR_HISTORY_DIVISOR`, clamped.
    LMR_BASE_CENTI = (65, 0, 120, 8);
    /// See [`LMR_BASE_CENTI`].
    LMR_DIVISOR_CENTI = (190, 150, 320, 12);
    /// See [`LMR_BASE_CENTI`].
    LMR_HISTORY_DIVISOR = (6685, 2000, 12000, 600);
    /// A quiet move is reduced one ply more when the nodes a ply below have failed high more
    /// than this many times since their grandparent began (Stockfish's `cutoffCnt`): there a
    /// reply refutes easily, so the move is likely bad.
    LMR_CUTOFF_COUNT = (3, 1, 8, 1);
    /// Quiescence delta pruning: a capture that cannot lift the score to alpha even with this
    /// margin is skipped.
    QS_DELTA_MARGIN = (223, 100, 450, 25);
    /// History bonus for a cutoff at `depth`: `depth² · HISTORY_BONUS_SCALE`, capped.
    HISTORY_BONUS_SCALE = (21, 4, 40, 3);
    /// See [`HISTORY_BONUS_SCALE`].
    HISTORY_BONUS_MAX = (1436, 600, 3200, 150);
    /// Time: the soft target stretches by this factor (in hundredths) each time the best move
    /// changes ...
    INSTABILITY_GROWTH_PCT = (140, 100, 200, 8);
    /// No new iteration is started after this share (in hundredths) of the stretched soft
    /// target.
    NEW_ITERATION_PCT = (60, 30, 95, 5);
    /// Time: the soft target is also scaled by (`NODE_TM_BASE_PCT` - share) times
    /// `NODE_TM_SCALE_PCT`, in hundredths, where the share is the part of the root's nodes
    /// spent below the best move (0.675 when it took them all, 2.0 when it took none) ...
    NODE_TM_BASE_PCT = (150, 110, 200, 5);
    /// See [`NODE_TM_BASE_PCT`].
    NODE_TM_SCALE_PCT = (135, 80, 200, 8);
    /// Time with an increment (Fischer): the soft target is the remaining time over
    /// `TM_INC_SOFT_DIVISOR` plus `TM_INC_SHARE_PCT` hundredths of the increment; the hard limit
    /// the remaining time over `TM_INC_HARD_DIVISOR` plus the increment.
    TM_INC_SOFT_DIVISOR = (25, 10, 60, 3);
    /// See [`TM_INC_SOFT_DIVISOR`].
    TM_INC_SHARE_PCT = (75, 30, 100, 8);
    /// See [`TM_INC_SOFT_DIVISOR`].
    TM_INC_HARD_DIVISOR = (5, 2, 10, 1);
    /// Time with byoyomi: the byoyomi is spent whole, plus the main time over this divisor
    /// (three times as much at the hard limit).
    TM_BYOYOMI_MAIN_DIVISOR = (12, 6, 30, 2);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tunables_are_named_once_and_start_in_their_range() {
        let mut names: Vec<&str> = TUNABLES.iter().map(|t| t.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), TUNABLES.len());
        for t in TUNABLES {
            assert!(
                t.min <= t.default && t.default <= t.max && t.step > 0,
                "{t:?}"
            );
            assert_eq!(t.get(), t.default, "{}", t.name);
        }
        // Outside the range nothing is set, in any build.
        assert!(!RFP_MARGIN_PER_PLY.set(RFP_MARGIN_PER_PLY.max + 1));
    }
}
