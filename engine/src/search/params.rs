//! The search's numbers in one place: fixed limits (depth, ply) as constants, and every tunable margin,
//! reduction coefficient and history bonus in [`SearchParams`], with a range for tuners.
//!
//! Margins are in internal evaluation units (a horse is 400, a pawn before the river 80).
//!
//! A parameter added switched off keeps the old behaviour until an SPRT says otherwise (`docs/benchmarks.md`,
//! "Search experiments"). The reduction and extension group was switched on together by its SPRT (+16.9 ±
//! 12.3 Elo at 3+0.03 over 1,300 games): `lmr_cutoffs`, `hindsight`, `iir_pv` 3, `lmr_extend`,
//! `singular_high_reduction` 2, `singular_low_reduction`, `lmr_pv` and `iir_pv_stale`.

use super::see::{SeeValues, SEE_KING};
use crate::types::PieceKind;

/// Deepest ply the search reaches (the stacks are sized by it).
pub const MAX_PLY: usize = 128;

/// Deepest iteration of iterative deepening.
pub const MAX_DEPTH: i32 = 100;

/// Static evaluations are clamped inside this so they never read as mate scores.
pub const EVAL_CAP: i32 = super::MATE_BOUND - 1;

/// Marker for "no static evaluation" (the side to move is in check).
pub const EVAL_NONE: i32 = -32_000;

/// Whether singular extensions are on by default (see the strength notes in the search module: on since
/// they passed an SPRT on net 3).
pub const SINGULAR_EXTENSION: bool = true;

/// Hash cutoffs are taken only while the no-capture clock is below this. The 120-ply limit is not in the
/// key, so a score stored with the limit far away is wrong where the limit falls inside the lines it
/// summarises; below 100 the limit is at least 20 plies away, beyond most of the lines the search looks at.
pub const TT_CUTOFF_MAX_CLOCK: u32 = 100;

/// After a null-move cutoff at high depth, the verification search allows no null move in the first this
/// many percent of its depth, so another null move near its root cannot hide the zugzwang it looks for,
/// while its deeper plies still prune with them.
pub const NMP_VERIFY_PERCENT: i32 = 75;

/// Capture futility (`capture_futility_base`) adds the capture's history divided by this: a capture that
/// has kept paying (the history at most 16,384) earns at most about a horse's worth of margin more.
pub const CAPTURE_FUTILITY_HISTORY_DIVISOR: i32 = 16;

/// The most plies `iir_pv_stale` takes from a node (Pikafish-HCE's bound as well).
pub const IIR_PV_STALE_MAX: i32 = 5;

/// Extensions apply only up to this many times the iteration depth from the root, so that every line ends
/// (a perpetual series of checks would otherwise extend without bound).
pub const EXTENSION_PLY_FACTOR: usize = 2;

/// The singular search (every move but the hash move) runs at the node's depth divided by this: deep enough
/// to trust, shallow enough to afford at every hash move.
pub const SINGULAR_DEPTH_DIVISOR: i32 = 2;

/// Best-move changes (decayed each iteration) add at most this to the optimum time's factor: once the best
/// move keeps changing, more changes say little more.
pub const MAX_INSTABILITY: f64 = 1.5;

/// A falling score stretches the optimum time at most this much (a fall of `time_falling_divisor` or more) ...
pub const MAX_FALLING_STRETCH: f64 = 1.75;

/// ... and a rising one shrinks it at most to this: a search that goes well still gets most of its time.
pub const MIN_FALLING_STRETCH: f64 = 0.75;

/// The optimum time's factor by the number of iterations in a row with the same best move (the last entry
/// for more): a move that keeps winning iterations is unlikely to change, so its search can stop sooner.
pub const STABILITY: [f64; 6] = [1.25, 1.1, 1.0, 0.9, 0.8, 0.7];

/// Declares [`SearchParams`], its defaults and its tuning table from one list, so a parameter cannot be
/// added to one and forgotten in another.
macro_rules! search_params {
    ($($(#[doc = $doc:literal])* $name:ident: $default:literal in $min:literal..=$max:literal,)*) => {
        /// Every tunable number of the search, in internal units (a horse is 400, a pawn before the river
        /// 80) or plies. Most defaults are the values the SPSA run `data/spsa-1` found; the ones it did not
        /// tune yet (`razor_depth`, `singular_depth`, `singular_tt_depth`, `singular_double_margin`,
        /// `aspiration_depth`, `aspiration_score_divisor`, `aspiration_grow_*`, `root_lmr_*`) are hand-set. SPSA
        /// moves them within each parameter's range (see [`SearchParams::TUNABLES`]).
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $($(#[doc = $doc])* pub $name: i32,)*
            /// Late-move reductions by (depth, move number), built from `lmr_base` and `lmr_divisor`.
            lmr: Box<[[u8; LMR_SIZE]; LMR_SIZE]>,
            /// Exchange values by piece kind, built from the `see_*` parameters.
            see: SeeValues,
        }

        impl Default for SearchParams {
            fn default() -> Self {
                let mut p = SearchParams {
                    $($name: $default,)*
                    lmr: Box::new([[0; LMR_SIZE]; LMR_SIZE]),
                    see: [0; PieceKind::NUM],
                };
                p.rebuild();
                p
            }
        }

        impl SearchParams {
            /// Every parameter with its range, for tuners (`setoption name tune.<name>` in tune builds).
            pub const TUNABLES: &'static [Tunable] = &[
                $(Tunable { name: stringify!($name), default: $default, min: $min, max: $max },)*
            ];

            /// The value of the parameter called `name`.
            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $(stringify!($name) => Some(self.$name),)*
                    _ => None,
                }
            }

            /// Sets the parameter called `name` (clamped to its range); false if there is none.
            pub fn set(&mut self, name: &str, value: i32) -> bool {
                let Some(t) = Self::TUNABLES.iter().find(|t| t.name == name) else { return false };
                let v = value.clamp(t.min, t.max);
                match name {
                    $(stringify!($name) => self.$name = v,)*
                    _ => return false,
                }
                self.rebuild();
                true
            }
        }
    };
}

/// One tunable parameter: its name, default and range.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Tunable {
    /// The field name.
    pub name: &'static str,
    /// The default (for most, the tuned value of `data/spsa-1`).
    pub default: i32,
    /// Smallest value a tuner may try.
    pub min: i32,
    /// Largest value a tuner may try.
    pub max: i32,
}

search_params! {
    /// Reverse futility: a node whose static eval beats beta by this much per ply of depth is cut.
    rfp_margin: 69 in 30..=150,
    /// Reverse futility applies up to this depth.
    rfp_depth: 8 in 4..=12,
    /// Razoring: up to this depth ...
    razor_depth: 3 in 1..=6,
    /// ... an eval this far below alpha drops straight into quiescence ...
    razor_base: 302 in 100..=600,
    /// ... plus this much per depth squared.
    razor_per_depth2: 180 in 60..=400,
    /// Futility pruning of quiet moves: eval + base + per_depth * lmr_depth <= alpha ...
    futility_base: 100 in 30..=250,
    /// ... with this per ply of reduced depth.
    futility_per_depth: 82 in 30..=200,
    /// Futility pruning of quiet moves applies below this reduced depth.
    futility_depth: 8 in 4..=12,
    /// SEE threshold per depth below which captures are pruned at shallow depth.
    see_capture_per_depth: 96 in 40..=200,
    /// SEE pruning of captures applies up to this depth.
    see_capture_depth: 8 in 4..=12,
    /// SEE threshold per reduced depth squared below which quiet moves are pruned.
    see_quiet_per_depth2: 15 in 4..=40,
    /// Continuation-history pruning of quiets below this reduced depth ...
    history_prune_depth: 4 in 2..=8,
    /// ... when the history score is below this per depth.
    history_prune_per_depth: -4192 in -8000..=-1000,
    /// Late-move pruning: this many quiet moves plus depth squared (halved when not improving).
    lmp_base: 4 in 1..=8,
    /// Null move: the static eval must be at least beta - this per depth ...
    nmp_eval_per_depth: 11 in 0..=30,
    /// ... + this.
    nmp_eval_base: 148 in 0..=400,
    /// Null move reduction: this many plies ...
    nmp_base: 3 in 2..=5,
    /// ... plus depth divided by this ...
    nmp_depth_divisor: 4 in 2..=6,
    /// ... plus (eval - beta) divided by this ...
    nmp_eval_divisor: 99 in 50..=300,
    /// ... at most this much.
    nmp_eval_max: 3 in 1..=5,
    /// Null-move cutoffs are verified by a normal search from this depth on.
    nmp_verify_depth: 12 in 8..=20,
    /// Internal iterative reduction from this depth on.
    iir_depth: 3 in 2..=8,
    /// Late-move reduction table: 100 × the constant term of `base + ln(depth) ln(move) / divisor`.
    lmr_base: 78 in 0..=150,
    /// Late-move reduction table: 100 × the divisor of `base + ln(depth) ln(move) / divisor`.
    lmr_divisor: 227 in 150..=350,
    /// The history score that reduces one ply less is this far above ...
    lmr_history_divisor: 8738 in 4000..=16000,
    /// ... this offset.
    lmr_history_offset: 1986 in 0..=6000,
    /// Singular extension: tried from this depth on ...
    singular_depth: 8 in 4..=12,
    /// ... when the hash entry is at most this many plies shallower than the node ...
    singular_tt_depth: 3 in 1..=6,
    /// ... with the exclusion window this much per depth below the hash score.
    singular_margin_per_depth: 2 in 1..=6,
    /// ... and extended twice outside the principal variation when everything else scores this much below
    /// the window.
    singular_double_margin: 20 in 0..=100,
    /// Quiescence: captures losing more than this in SEE are skipped.
    qsearch_see: 49 in 0..=200,
    /// Quiescence delta pruning: a capture that cannot lift eval + margin + victim above alpha is skipped.
    delta_margin: 157 in 50..=400,
    /// Aspiration windows from this depth on (shallower iterations search the full window).
    aspiration_depth: 4 in 2..=8,
    /// Aspiration window half-width at the start of an iteration ...
    aspiration_delta: 29 in 10..=80,
    /// ... plus the previous score (capped at a mate bound) divided by this: big scores swing more.
    aspiration_score_divisor: 64 in 16..=256,
    /// After a fail the half-width grows by this many percent of itself ...
    aspiration_grow_percent: 50 in 25..=150,
    /// ... plus this.
    aspiration_grow_base: 5 in 0..=20,
    /// Root late-move reductions from this depth on ...
    root_lmr_depth: 3 in 2..=6,
    /// ... for root moves after this many.
    root_lmr_moves: 3 in 1..=8,
    /// The static evaluation is multiplied by (this − the no-capture clock in plies) / this (0: off, the
    /// default until an SPRT says otherwise): a lead that cannot capture before the move limit is worth
    /// less, so the side ahead prefers lines that make progress.
    clock_scale: 0 in 0..=1000,
    /// A node where no move raised alpha gives the opponent's quiet move that led to it this many percent
    /// of the depth's history bonus (0: off, the default until an SPRT says otherwise).
    prior_bonus_percent: 0 in 0..=300,
    /// Checking moves are extended a ply only at depths above this (0: at every depth) ...
    check_ext_depth: 0 in 0..=30,
    /// ... and only where the static evaluation is at least this far from zero (0: everywhere; in check
    /// there is no evaluation and checks are extended).
    check_ext_eval: 0 in 0..=400,
    /// 1: checking moves are pruned at shallow depth like any other move (move count, history, futility
    /// and SEE); 0: they never are.
    prune_checks: 0 in 0..=1,
    /// Late-move reductions: plies less for a checking move ...
    lmr_check: 1 in 0..=2,
    /// ... and plies more at an expected cut node ...
    lmr_cut_node: 1 in 0..=4,
    /// ... and plies more outside the principal variation when the children of this ply have failed high
    /// more than three times since its parent began (0: off).
    lmr_cutoffs: 1 in 0..=2,
    /// Late-move pruning when not improving: this many percent of the improving threshold.
    lmp_worsening_percent: 50 in 10..=100,
    /// Quiet-move ordering by threats, in history units (0: off, the default until an SPRT says otherwise):
    /// a rook attacked by a lesser piece that moves to a square no lesser piece attacks gains this, and one
    /// that walks from safety into such an attack loses it; horses and cannons the same against pawns,
    /// advisors and elephants, with three fifths of it.
    threat_order: 0 in 0..=40000,
    /// Quiet-move ordering: a quiet move that gives check gains this, in history units (0: off).
    check_order: 0 in 0..=40000,
    /// The quiet move that led here gains butterfly history by how much it improved its mover's static
    /// evaluation: this many percent of 300 − 4 × (the evaluation before it, the mover's view, plus the one
    /// after it, the opponent's view), that product kept within −1,600..1,200 (0: off).
    eval_diff_history_percent: 0 in 0..=300,
    /// Hindsight depth (0: off): a node reached by a reduction of at least 3 plies is searched a ply deeper
    /// when the opponent's evaluation did not worsen; one reached by 2 or more a ply shallower when both
    /// sides' evaluations sum above `hindsight_margin` (both think they stand well: quiet).
    hindsight: 1 in 0..=1,
    /// See `hindsight`.
    hindsight_margin: 150 in 50..=400,
    /// Internal iterative reduction at principal-variation nodes without a hash move: plies (cut nodes
    /// always reduce one; Pikafish-HCE reduces such PV nodes by 3).
    iir_pv: 3 in 1..=4,
    /// After a reduced search beat alpha and the move was searched again at full depth, its continuation
    /// histories gain (or, failing low there, lose) this many percent of the depth's bonus (0: off).
    lmr_research_bonus_percent: 0 in 0..=200,
    /// A move with a good enough history may be searched up to this many plies deeper than its siblings by a
    /// negative reduction (0: never beyond the node's depth less one).
    lmr_extend: 1 in 0..=1,
    /// Correction history (`correction.rs`): this many percent of its tables' weight moves the static
    /// evaluation (0: off, and nothing is learned). On since its SPRT: +18.7 ± 13.1 Elo at 3+0.03.
    correction_percent: 100 in 0..=300,
    /// Quiet checks at the quiescence search's first ply (0: off): after the captures, the quiet moves that
    /// give check and do not lose the exchange on their square (the reply is then every evasion).
    qsearch_checks: 0 in 0..=1,
    /// ProbCut (0: off): outside the principal variation, from `probcut_depth` on, a capture whose exchange
    /// gains enough and whose search four plies shallower beats beta by this much cuts the node.
    probcut_margin: 0 in 0..=400,
    /// See `probcut_margin`: the margin shrinks by this when the static evaluation is improving.
    probcut_improving: 45 in 0..=150,
    /// See `probcut_margin`: the shallowest depth it is tried at.
    probcut_depth: 5 in 4..=10,
    /// Singular search: plies less for a hash move that beats beta when another move comes near it
    /// (Pikafish-HCE takes two).
    singular_high_reduction: 2 in 1..=3,
    /// Singular search: plies less for a hash move whose stored score is at most alpha and at most what the
    /// other moves reached without it (0: off).
    singular_low_reduction: 1 in 0..=2,
    /// Futility for quiet moves: the margin gains the move's history (the late-move reductions' statistic)
    /// divided by this (0: off, a fixed margin).
    futility_history_divisor: 0 in 0..=400,
    /// Futility for captures outside the principal variation (0: off): a capture that does not give check
    /// is skipped when the static evaluation plus this, `capture_futility_per_depth` per ply of reduced
    /// depth, the victim's exchange value and its capture history / 16 stays at or below alpha ...
    capture_futility_base: 0 in 0..=500,
    /// ... see `capture_futility_base` ...
    capture_futility_per_depth: 217 in 80..=400,
    /// ... below this reduced depth.
    capture_futility_depth: 9 in 3..=14,
    /// 1: a hash cutoff that fails low with a quiet hash move takes the depth's history bonus from that move
    /// (butterfly and continuation), as a cutoff that fails high gives it (0: only the latter).
    tt_cut_malus: 0 in 0..=1,
    /// Late-move reductions: plies less at principal-variation nodes, on top of the ply less every node on
    /// or once on the principal variation gets (0: none).
    lmr_pv: 1 in 0..=2,
    /// 1: a principal-variation node whose hash entry is shallower than its depth searches half the
    /// difference less deep, at most `IIR_PV_STALE_MAX` plies (0: off).
    iir_pv_stale: 1 in 0..=1,
    /// Reverse futility: the margin grows by the history statistic of the opponent's quiet move that led
    /// here, divided by this (0: off; Pikafish-HCE subtracts its own statistic / 186, about / 160 in ours).
    rfp_stat_divisor: 0 in 0..=1000,
    /// Null move only after an opponent's move whose history statistic is below this (0: always; about
    /// 9,800 in ours is Pikafish-HCE's 15,503).
    nmp_stat_max: 0 in 0..=60000,
    /// History bonus per depth ...
    history_bonus_per_depth: 160 in 60..=400,
    /// ... minus this ...
    history_bonus_offset: 112 in 0..=400,
    /// ... at most this.
    history_bonus_max: 1769 in 600..=4000,
    /// Time: moves to go assumed at the start of a sudden-death game (one fewer every two moves) ...
    time_moves_to_go: 43 in 25..=70,
    /// ... but never fewer than this.
    time_moves_to_go_min: 21 in 12..=35,
    /// Time: the hard limit is this many percent of the optimum time ...
    time_hard_percent: 402 in 200..=700,
    /// ... and at most this many percent of the clock left after the overhead (the last move before a
    /// control is capped at 80% whatever this is).
    time_hard_cap_percent: 50 in 30..=70,
    /// Time: the optimum is at most this many percent of the clock left after the overhead.
    time_soft_cap_percent: 40 in 20..=60,
    /// Time: the largest stretch, in percent, that an unstable best move or score gives the optimum.
    time_max_stretch_percent: 250 in 150..=400,
    /// Time: a fall in score of this much stretches the optimum by 100% (capped at 75%), a rise
    /// shrinks it by up to 25%.
    time_falling_divisor: 400 in 150..=1000,
    /// Time: once the best move has taken at least this many percent of the search's nodes (0: off) ...
    time_effort_percent: 0 in 0..=99,
    /// ... the optimum time is scaled by this many percent.
    time_effort_scale_percent: 76 in 40..=100,
    /// Exchange value of an advisor (static exchange evaluation: orders and prunes captures). The exchange
    /// values differ from the evaluation's material (cannon 400, pawn 80) on purpose: an exchange is
    /// decided early in the game, when a cannon is worth a little more than a horse, and a pawn that takes
    /// part in one has usually crossed the river. They only order and prune captures, so the evaluation's
    /// finer, phase-dependent values are not needed; the king's is fixed ([`see::SEE_KING`](super::see::SEE_KING)).
    see_advisor: 161 in 100..=300,
    /// Exchange value of an elephant.
    see_elephant: 156 in 100..=300,
    /// Exchange value of a horse.
    see_horse: 404 in 300..=550,
    /// Exchange value of a rook.
    see_rook: 798 in 650..=1100,
    /// Exchange value of a cannon.
    see_cannon: 424 in 300..=550,
    /// Exchange value of a pawn.
    see_pawn: 92 in 50..=200,
}

impl SearchParams {
    /// Recomputes the tables derived from the parameters.
    fn rebuild(&mut self) {
        let (base, divisor) = (self.lmr_base as f64 / 100.0, self.lmr_divisor as f64 / 100.0);
        for d in 1..LMR_SIZE {
            for m in 1..LMR_SIZE {
                let r = base + ln(d as f64) * ln(m as f64) / divisor;
                self.lmr[d][m] = r.clamp(0.0, 255.0) as u8;
            }
        }
        self.see = [
            SEE_KING,
            self.see_advisor,
            self.see_elephant,
            self.see_horse,
            self.see_rook,
            self.see_cannon,
            self.see_pawn,
        ];
    }

    /// Exchange values by [`PieceKind`] index, for [`see_ge`](super::see::see_ge) and capture ordering.
    #[inline]
    pub fn see_values(&self) -> &SeeValues {
        &self.see
    }

    /// Late-move pruning: after this many quiet moves at `depth` the rest are skipped.
    #[inline]
    pub fn lmp_threshold(&self, depth: i32, improving: bool) -> i32 {
        let base = self.lmp_base + depth * depth;
        if improving {
            base
        } else {
            base * self.lmp_worsening_percent / 100
        }
    }

    /// What a quiet move's history `stat` adds to its futility margin (nothing while `futility_history_divisor` is 0).
    #[inline]
    pub fn futility_history(&self, stat: i32) -> i32 {
        history_share(stat, self.futility_history_divisor)
    }

    /// Reduction for the `move_number`-th move (1-based) at `depth`, in plies, before adjustments.
    #[inline]
    pub fn reduction(&self, depth: i32, move_number: usize) -> i32 {
        let d = (depth.max(0) as usize).min(LMR_SIZE - 1);
        let m = move_number.min(LMR_SIZE - 1);
        self.lmr[d][m] as i32
    }

    /// What the history statistic `stat` of the opponent's last move adds to the reverse-futility margin
    /// (nothing while `rfp_stat_divisor` is 0).
    #[inline]
    pub fn rfp_stat(&self, stat: i32) -> i32 {
        history_share(stat, self.rfp_stat_divisor)
    }

    /// The history bonus (and, negated, malus) for a move at `depth`.
    #[inline]
    pub fn history_bonus(&self, depth: i32) -> i32 {
        (self.history_bonus_per_depth * depth - self.history_bonus_offset).clamp(0, self.history_bonus_max)
    }
}

/// A history statistic divided by a parameter that switches its term off at 0.
#[inline]
fn history_share(stat: i32, divisor: i32) -> i32 {
    if divisor > 0 {
        stat / divisor
    } else {
        0
    }
}

const LMR_SIZE: usize = 64;

/// Natural logarithm for `x >= 1`: `x = 2^k * y` with `y` in [1, 2), then `ln y = 2 atanh((y-1)/(y+1))`
/// by its series, which converges fast for such `y`. (Written out rather than `f64::ln` so the reduction
/// table is the same on every platform's libm.)
fn ln(mut x: f64) -> f64 {
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
        let p = SearchParams::default();
        assert_eq!(p.reduction(1, 1), 0);
        for d in 1..40 {
            for m in 1..40 {
                assert!(p.reduction(d + 1, m) >= p.reduction(d, m));
                assert!(p.reduction(d, m + 1) >= p.reduction(d, m));
            }
        }
        assert!(p.reduction(20, 30) >= 4);
    }

    #[test]
    fn every_tunable_default_is_inside_its_range_and_settable() {
        let mut p = SearchParams::default();
        for t in SearchParams::TUNABLES {
            assert!(t.min <= t.default && t.default <= t.max, "{t:?}");
            assert_eq!(p.get(t.name), Some(t.default), "{}", t.name);
            assert!(p.set(t.name, t.max + 1000));
            assert_eq!(p.get(t.name), Some(t.max), "clamped: {}", t.name);
        }
        assert!(!p.set("no_such_parameter", 1));
        assert_eq!(p.get("no_such_parameter"), None);
    }

    #[test]
    fn history_bonus_grows_with_depth_up_to_its_cap() {
        let p = SearchParams::default();
        assert_eq!(p.history_bonus(0), 0);
        assert!(p.history_bonus(3) > p.history_bonus(2));
        assert_eq!(p.history_bonus(50), p.history_bonus_max);
    }

    #[test]
    fn the_exchange_values_follow_their_parameters() {
        let mut p = SearchParams::default();
        let pinned = [
            ("see_advisor", 161),
            ("see_elephant", 157),
            ("see_horse", 401),
            ("see_rook", 803),
            ("see_cannon", 423),
            ("see_pawn", 89),
        ];
        for (name, value) in pinned {
            p.set(name, value);
        }
        assert_eq!(*p.see_values(), [SEE_KING, 161, 157, 401, 803, 423, 89]);
        p.set("see_cannon", 450);
        assert_eq!(p.see_values()[PieceKind::Cannon.index()], 450);
        assert_eq!(p.see_values()[PieceKind::King.index()], SEE_KING);
    }

    #[test]
    fn the_reduction_table_follows_its_coefficients() {
        let mut p = SearchParams::default();
        let before = p.reduction(20, 30);
        p.set("lmr_divisor", 150);
        assert!(p.reduction(20, 30) > before);
    }
}
