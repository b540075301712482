//! Where the terms report what they found.
//!
//! Every term says "`n` times weight `w` for `color`" and nothing else, so one body of evaluation code
//! serves three readers: the [`Accumulator`] that sums the weights (the search's evaluation, inlined and
//! allocation-free), the trace that keeps a row per term, and the tuner that records the counts as the
//! features of a linear model.

use crate::packed::Packed;
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

/// The weights, packed: a static rather than the `const` itself, since indexing a `const` with a run-time
/// index can make the compiler copy the whole array per call.
static PACKED_WEIGHTS: [Packed; NUM_WEIGHTS] = {
    let mut t = [Packed::ZERO; NUM_WEIGHTS];
    let mut i = 0;
    while i < NUM_WEIGHTS {
        t[i] = Packed::new(WEIGHTS[i]);
        i += 1;
    }
    t
};

/// Sums the weights from Red's point of view, as [`Packed`] pairs (one addition per term).
///
/// Each side's sum is kept apart and subtracted once at the end: adding to the slot the colour indexes is
/// cheaper than choosing between adding and subtracting at every term.
#[derive(Copy, Clone, Debug, Default)]
pub struct Accumulator {
    by_color: [Packed; 2],
}

impl Accumulator {
    /// Red's total minus Black's.
    #[inline(always)]
    pub fn total(&self) -> MgEg {
        (self.by_color[Color::Red.index()] - self.by_color[Color::Black.index()]).unpack()
    }

    /// Adds a packed pair to `color`'s side.
    #[inline(always)]
    pub fn add_packed(&mut self, color: Color, value: Packed) {
        self.by_color[color.index()] += value;
    }
}

impl Sink for Accumulator {
    #[inline(always)]
    fn add(&mut self, color: Color, weight: usize, n: i32) {
        debug_assert!(weight < NUM_WEIGHTS);
        self.by_color[color.index()] += PACKED_WEIGHTS[weight] * n;
    }

    #[inline(always)]
    fn piece_square(&mut self, color: Color, kind: PieceKind, sq: Square) {
        self.by_color[color.index()] += Packed::new(pst::TABLE[color.index()][kind.index()][sq.index()]);
    }
}
