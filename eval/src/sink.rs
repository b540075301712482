//! Where the terms report what they found.
//!
//! Every term says "`n` times weight `w` for `color`" and nothing else, so one body of evaluation code
//! serves three readers: the [`Accumulator`] that sums the weights (the search's evaluation, inlined and
//! allocation-free), the trace that keeps a row per term, and the tuner that records the counts as the
//! features of a linear model.

use crate::params::NUM_WEIGHTS;
use crate::pst;
use crate::score::MgEg;
use crate::weights::WEIGHTS;
use engine::{Color, PieceKind, Square};

/// Receives the terms of an evaluation.
pub trait Sink {
    /// Adds `n` times weight `weight` to `color`'s side.
    fn add(&mut self, color: Color, weight: usize, n: i32);

    /// Adds the piece-square weight of `color`'s `kind` on `sq`.
    #[inline(always)]
    fn piece_square(&mut self, color: Color, kind: PieceKind, sq: Square) {
        self.add(color, pst::index(color, kind, sq), 1);
    }
}

/// The weights as one static table: indexing the `const` directly with a run-time index can make the
/// compiler copy the whole array per call.
static WEIGHT_TABLE: [MgEg; NUM_WEIGHTS] = WEIGHTS;

/// Sums the weights from Red's point of view.
///
/// Each side's sum is kept apart and subtracted once at the end: adding to the slot the colour indexes is
/// cheaper than choosing between adding and subtracting at every term.
#[derive(Copy, Clone, Debug, Default)]
pub struct Accumulator {
    by_color: [MgEg; 2],
}

impl Accumulator {
    /// Red's total minus Black's.
    #[inline(always)]
    pub fn total(&self) -> MgEg {
        self.by_color[Color::Red.index()] - self.by_color[Color::Black.index()]
    }
}

impl Sink for Accumulator {
    #[inline(always)]
    fn add(&mut self, color: Color, weight: usize, n: i32) {
        debug_assert!(weight < NUM_WEIGHTS);
        self.by_color[color.index()] += WEIGHT_TABLE[weight] * n;
    }

    #[inline(always)]
    fn piece_square(&mut self, color: Color, kind: PieceKind, sq: Square) {
        self.by_color[color.index()] += pst::TABLE[color.index()][kind.index()][sq.index()];
    }
}
