//! Search constants in one place: depth limits, pruning margins and the late-move-reduction table.
//!
//! Margins are in internal evaluation units (a horse is 400, a pawn before the river 80).

/// Deepest ply the search reaches (the stacks are sized by it).
pub const MAX_PLY: usize = 128;

/// Deepest iteration of iterative deepening.
pub const MAX_DEPTH: i32 = 100;

/// Static evaluations are clamped inside this so they never read as mate scores.
pub const EVAL_CAP: i32 = super::MATE_BOUND - 1;

/// Marker for "no static evaluation" (the side to move is in check).
pub const EVAL_NONE: i32 = -32_000;

/// Reverse futility: a node whose static eval beats beta by this much per ply of depth is cut.
pub const RFP_MARGIN: i32 = 70;
/// Reverse futility applies up to this depth.
pub const RFP_DEPTH: i32 = 8;

/// Razoring: at shallow depth an eval this far below alpha drops straight into quiescence.
pub const RAZOR_BASE: i32 = 300;
/// Razoring margin per depth squared.
pub const RAZOR_PER_DEPTH2: i32 = 180;

/// Futility pruning of quiet moves: eval + base + per_depth * lmr_depth <= alpha.
pub const FUTILITY_BASE: i32 = 100;
/// See [`FUTILITY_BASE`].
pub const FUTILITY_PER_DEPTH: i32 = 80;

/// SEE threshold per depth below which captures are pruned at shallow depth.
pub const SEE_CAPTURE_PER_DEPTH: i32 = 95;
/// SEE threshold per lmr-depth squared below which quiet moves are pruned.
pub const SEE_QUIET_PER_DEPTH2: i32 = 14;

/// Quiescence delta pruning: a capture that cannot lift eval + margin + victim above alpha is skipped.
pub const DELTA_MARGIN: i32 = 150;

/// Aspiration window half-width at the start of an iteration.
pub const ASPIRATION_DELTA: i32 = 30;

/// Continuation-history pruning of quiets: skip when the history score is below this per depth.
pub const HISTORY_PRUNE_PER_DEPTH: i32 = -4000;

/// Whether singular extensions are on by default (see the strength notes in the search module).
pub const SINGULAR_EXTENSION: bool = false;

/// Late-move pruning: after this many quiet moves at `depth` the rest are skipped.
#[inline]
pub fn lmp_threshold(depth: i32, improving: bool) -> i32 {
    let base = 3 + depth * depth;
    if improving {
        base
    } else {
        base / 2
    }
}

/// Reduction for the `move_number`-th move (1-based) at `depth`, in plies, before adjustments.
#[inline]
pub fn reduction(depth: i32, move_number: usize) -> i32 {
    let d = (depth.max(0) as usize).min(LMR_SIZE - 1);
    let m = move_number.min(LMR_SIZE - 1);
    LMR[d][m] as i32
}

const LMR_SIZE: usize = 64;

/// `LMR[d][m] = 0.75 + ln(d) * ln(m) / 2.25`, rounded down; built at compile time.
static LMR: [[u8; LMR_SIZE]; LMR_SIZE] = {
    let mut t = [[0u8; LMR_SIZE]; LMR_SIZE];
    let mut d = 1;
    while d < LMR_SIZE {
        let mut m = 1;
        while m < LMR_SIZE {
            let r = 0.75 + ln(d as f64) * ln(m as f64) / 2.25;
            t[d][m] = r as u8;
            m += 1;
        }
        d += 1;
    }
    t
};

/// Natural logarithm for `x >= 1`, usable in constant evaluation: `x = 2^k * y` with `y` in [1, 2), then
/// `ln y = 2 atanh((y-1)/(y+1))` by its series, which converges fast for such `y`.
const fn ln(mut x: f64) -> f64 {
    let mut k = 0.0;
    while x >= 2.0 {
        x /= 2.0;
        k += 1.0;
    }
    let z = (x - 1.0) / (x + 1.0);
    let z2 = z * z;
    let mut term = z;
    let mut sum = 0.0;
    let mut n = 1.0;
    while n < 40.0 {
        sum += term / n;
        term *= z2;
        n += 2.0;
    }
    k * std::f64::consts::LN_2 + 2.0 * sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn const_ln_matches_std() {
        for x in 1..200 {
            let x = x as f64;
            assert!((ln(x) - x.ln()).abs() < 1e-9, "ln({x})");
        }
    }

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        assert_eq!(reduction(1, 1), 0);
        for d in 1..40 {
            for m in 1..40 {
                assert!(reduction(d + 1, m) >= reduction(d, m));
                assert!(reduction(d, m + 1) >= reduction(d, m));
            }
        }
        assert!(reduction(20, 30) >= 4);
    }
}
