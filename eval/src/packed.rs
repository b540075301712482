//! A (middlegame, endgame) pair packed into one 64-bit integer, so that summing weights costs one
//! addition instead of two.
//!
//! The endgame half is scaled by 2^32 and the middlegame half added below it, sign and all. Sums,
//! differences and integer multiples of packed pairs are the packed sums, differences and multiples of
//! the pairs, exactly, as long as each half of every result fits an `i32` (evaluation sums stay within a
//! few thousand units), so unpacking the total gives what summing [`MgEg`]s would have.

use crate::score::MgEg;
use std::ops::{AddAssign, Mul, Sub};

/// A [`MgEg`] as one integer: `eg * 2^32 + mg`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Packed(i64);

impl Packed {
    /// Zero in both phases.
    pub const ZERO: Packed = Packed(0);

    /// Packs `v`.
    #[inline(always)]
    pub const fn new(v: MgEg) -> Packed {
        Packed(((v.eg() as i64) << 32) + v.mg() as i64)
    }

    /// Sum, usable in constant tables.
    #[inline(always)]
    pub const fn plus(self, o: Packed) -> Packed {
        Packed(self.0 + o.0)
    }

    /// The pair: the low 32 bits are the middlegame half, and what is left once it is taken away is the
    /// endgame half times 2^32.
    #[inline(always)]
    pub const fn unpack(self) -> MgEg {
        let mg = self.0 as i32;
        MgEg(mg, ((self.0 - mg as i64) >> 32) as i32)
    }
}

impl AddAssign for Packed {
    #[inline(always)]
    fn add_assign(&mut self, o: Packed) {
        self.0 += o.0;
    }
}

impl Sub for Packed {
    type Output = Packed;
    #[inline(always)]
    fn sub(self, o: Packed) -> Packed {
        Packed(self.0 - o.0)
    }
}

impl Mul<i32> for Packed {
    type Output = Packed;
    #[inline(always)]
    fn mul(self, n: i32) -> Packed {
        Packed(self.0 * n as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_and_multiples_unpack_exactly() {
        let pairs = [MgEg(0, 0), MgEg(-1, 1), MgEg(1, -1), MgEg(-800, -40), MgEg(37, 12), MgEg(-5, 0)];
        let mut packed = Packed::ZERO;
        let mut plain = MgEg::ZERO;
        for (i, &p) in pairs.iter().enumerate() {
            let n = i as i32 * 3 - 7;
            assert_eq!(Packed::new(p).unpack(), p);
            assert_eq!((Packed::new(p) * n).unpack(), p * n);
            packed += Packed::new(p) * n;
            plain += p * n;
            assert_eq!(packed.unpack(), plain);
            assert_eq!((Packed::ZERO - packed).unpack(), -plain);
        }
        let big = MgEg(i32::MAX / 2, i32::MIN / 2);
        assert_eq!(Packed::new(big).plus(Packed::new(big)).unpack(), MgEg(i32::MAX - 1, i32::MIN));
    }
}
