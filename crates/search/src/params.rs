//! The search's own numbers: pruning margins, reductions, history bonuses, move-ordering
//! scores and the piece values of static exchange evaluation.
//!
//! They are kept apart from the evaluation so that retuning the evaluation, or replacing it
//! with a network, leaves pruning, SEE and move ordering as they are. The piece values were
//! copied from the hand-made evaluation's fitted board and hand values (build 45411d5), which
//! is where the search read them until then.

use gogo_rules::PieceKind;

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

/// Aspiration windows: the first half-width, and the depth from which they are used.
pub const ASPIRATION_DELTA: i32 = 25;
/// See [`ASPIRATION_DELTA`].
pub const ASPIRATION_MIN_DEPTH: i32 = 4;

/// Reverse futility pruning: deepest depth, margin per ply, and the margin given back when
/// the evaluation is improving.
pub const RFP_MAX_DEPTH: i32 = 6;
/// See [`RFP_MAX_DEPTH`].
pub const RFP_MARGIN_PER_PLY: i32 = 90;
/// See [`RFP_MAX_DEPTH`].
pub const RFP_IMPROVING_BONUS: i32 = 30;

/// Null-move pruning: shallowest depth; the reduction is `base + depth / divisor` plus one
/// per `eval_step` above beta, at most `eval_max` more.
pub const NMP_MIN_DEPTH: i32 = 3;
/// See [`NMP_MIN_DEPTH`].
pub const NMP_BASE_REDUCTION: i32 = 3;
/// See [`NMP_MIN_DEPTH`].
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// See [`NMP_MIN_DEPTH`].
pub const NMP_EVAL_STEP: i32 = 200;
/// See [`NMP_MIN_DEPTH`].
pub const NMP_EVAL_MAX: i32 = 2;

/// Internal iterative reduction: shallowest depth at which a node without a table move is
/// searched one ply shallower.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Late-move pruning: deepest depth; quiet moves after `(base + depth²) / (1 or 2) + slack`
/// are skipped (halved when not improving).
pub const LMP_MAX_DEPTH: i32 = 4;
/// See [`LMP_MAX_DEPTH`].
pub const LMP_BASE: i32 = 3;
/// See [`LMP_MAX_DEPTH`].
pub const LMP_SLACK: usize = 2;

/// Futility pruning of quiet moves: deepest depth, base margin and margin per ply.
pub const FUTILITY_MAX_DEPTH: i32 = 5;
/// See [`FUTILITY_MAX_DEPTH`].
pub const FUTILITY_BASE: i32 = 120;
/// See [`FUTILITY_MAX_DEPTH`].
pub const FUTILITY_PER_PLY: i32 = 100;

/// Late-move reductions: `base + ln(depth) · ln(move number) / divisor`, from this depth and
/// move number on; the history term moves it by `history / LMR_HISTORY_DIVISOR`, clamped.
pub const LMR_BASE: f64 = 0.5;
/// See [`LMR_BASE`].
pub const LMR_DIVISOR: f64 = 2.1;
/// See [`LMR_BASE`].
pub const LMR_MIN_DEPTH: i32 = 3;
/// See [`LMR_BASE`].
pub const LMR_HISTORY_DIVISOR: i32 = 6000;
/// See [`LMR_BASE`].
pub const LMR_HISTORY_MAX: i32 = 2;
/// At the root, quiet moves after the first few of a line are reduced by one ply.
pub const ROOT_LMR_AFTER: usize = 3;

/// Check extensions stop beyond `2 · depth + CHECK_EXTENSION_SLACK` plies from the root.
pub const CHECK_EXTENSION_SLACK: usize = 8;

/// Quiescence delta pruning: a capture that cannot lift the score to alpha even with this
/// margin is skipped.
pub const QS_DELTA_MARGIN: i32 = 250;

/// History: scores stay within this bound (gravity formula).
pub const HISTORY_MAX: i32 = 16_384;
/// History bonus for a cutoff at `depth`: `depth² · HISTORY_BONUS_SCALE`, capped.
pub const HISTORY_BONUS_SCALE: i32 = 16;
/// See [`HISTORY_BONUS_SCALE`].
pub const HISTORY_BONUS_MAX: i32 = 1600;
/// Quiet moves remembered per node for the history malus.
pub const QUIETS_REMEMBERED: usize = 64;

/// Capture ordering: victim value times this, less the attacker's value.
pub const MVV_MULTIPLIER: i32 = 8;
/// Capture ordering: bonus for a promotion.
pub const PROMOTION_ORDER_BONUS: i32 = 300;
/// Evasion ordering: captures and promotions come before quiet evasions.
pub const EVASION_NOISY_BONUS: i32 = 1_000_000;

/// Time: the soft target stretches by this factor each time the best move changes ...
pub const INSTABILITY_GROWTH: f64 = 1.4;
/// ... up to this factor ...
pub const INSTABILITY_MAX: f64 = 2.5;
/// ... and shrinks back by this factor while it stays.
pub const INSTABILITY_DECAY: f64 = 0.85;
/// No new iteration is started after this fraction of the stretched soft target.
pub const NEW_ITERATION_FRACTION: f64 = 0.6;
