//! A weight with a middlegame and an endgame value, and the taper between them.
//!
//! Every term of the evaluation adds such pairs; only the sum is blended by the game phase
//! ([`crate::phase`]), so each weight can say how much it matters with a full board and how much in the
//! ending without the terms knowing the phase.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// Phase with every strong piece on the board (and more, after clamping): the scale of [`MgEg::taper`].
/// It lives here, with the taper, rather than in [`crate::phase`], so that this vocabulary type needs
/// nothing else of the crate; `phase` re-exports it.
pub const PHASE_MAX: i32 = 16;

/// A (middlegame, endgame) pair of internal units (a horse is about 400).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct MgEg(pub i32, pub i32);

impl MgEg {
    /// Zero in both phases.
    pub const ZERO: MgEg = MgEg(0, 0);

    /// The middlegame value.
    #[inline(always)]
    pub const fn mg(self) -> i32 {
        self.0
    }

    /// The endgame value.
    #[inline(always)]
    pub const fn eg(self) -> i32 {
        self.1
    }

    /// Sum, usable in constant tables.
    #[inline(always)]
    pub const fn plus(self, other: MgEg) -> MgEg {
        MgEg(self.0 + other.0, self.1 + other.1)
    }

    /// The value at `phase` (0 = bare ending .. [`PHASE_MAX`] = full board), rounded toward zero.
    #[inline(always)]
    pub const fn taper(self, phase: i32) -> i32 {
        (self.0 * phase + self.1 * (PHASE_MAX - phase)) / PHASE_MAX
    }
}

impl Add for MgEg {
    type Output = MgEg;
    #[inline(always)]
    fn add(self, o: MgEg) -> MgEg {
        MgEg(self.0 + o.0, self.1 + o.1)
    }
}

impl Sub for MgEg {
    type Output = MgEg;
    #[inline(always)]
    fn sub(self, o: MgEg) -> MgEg {
        MgEg(self.0 - o.0, self.1 - o.1)
    }
}

impl Neg for MgEg {
    type Output = MgEg;
    #[inline(always)]
    fn neg(self) -> MgEg {
        MgEg(-self.0, -self.1)
    }
}

impl Mul<i32> for MgEg {
    type Output = MgEg;
    #[inline(always)]
    fn mul(self, n: i32) -> MgEg {
        MgEg(self.0 * n, self.1 * n)
    }
}

impl AddAssign for MgEg {
    #[inline(always)]
    fn add_assign(&mut self, o: MgEg) {
        self.0 += o.0;
        self.1 += o.1;
    }
}

impl SubAssign for MgEg {
    #[inline(always)]
    fn sub_assign(&mut self, o: MgEg) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn taper_blends_linearly() {
        let w = MgEg(100, 20);
        assert_eq!(w.taper(PHASE_MAX), 100);
        assert_eq!(w.taper(0), 20);
        assert_eq!(w.taper(PHASE_MAX / 2), 60);
        assert_eq!((w * 2 - MgEg(50, 10)).plus(-w), MgEg(50, 10));
    }
}
