//! A set of points as a 128-bit word (bits 0..90 used), with the named regions of the board.

use crate::types::{Color, Square};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares: bit `i` is the square with index `i`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

const fn file_mask(file: u8) -> u128 {
    let mut m = 0u128;
    let mut r = 0;
    while r < 10 {
        m |= 1u128 << (r * 9 + file as usize);
        r += 1;
    }
    m
}

const fn rank_mask(rank: u8) -> u128 {
    0x1ffu128 << (rank as usize * 9)
}

/// The `N` copies of `first` shifted up by `step` bits each: the files from file a (step 1), the ranks from
/// rank 0 (step 9).
const fn shifted<const N: usize>(first: u128, step: usize) -> [Bitboard; N] {
    let mut a = [Bitboard(0); N];
    let mut i = 0;
    while i < N {
        a[i] = Bitboard(first << (i * step));
        i += 1;
    }
    a
}

const fn palace_mask(color: Color) -> u128 {
    let base = match color {
        Color::Red => 0,
        Color::Black => 7,
    };
    let mut m = 0u128;
    let mut r = base;
    while r < base + 3 {
        m |= 0b111_000u128 << (r * 9);
        r += 1;
    }
    m
}

/// The bit of each square: loading it is cheaper than the variable 128-bit shift `1 << sq`, which the
/// baseline x86-64 target spells as several instructions with selects.
static SQUARE_BITS: [u128; 90] = {
    let mut a = [0u128; 90];
    let mut i = 0;
    while i < 90 {
        a[i] = 1u128 << i;
        i += 1;
    }
    a
};

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 90 squares.
    pub const FULL: Bitboard = Bitboard((1u128 << 90) - 1);
    /// File masks, a..i.
    pub const FILES: [Bitboard; 9] = shifted(file_mask(0), 1);
    /// Rank masks, 0..9.
    pub const RANKS: [Bitboard; 10] = shifted(rank_mask(0), 9);
    /// Each side's palace (files d-f, its three back ranks), indexed by colour.
    pub const PALACE: [Bitboard; 2] =
        [Bitboard(palace_mask(Color::Red)), Bitboard(palace_mask(Color::Black))];
    /// Each side's own half of the board (Red: ranks 0-4), indexed by colour.
    pub const HALF: [Bitboard; 2] =
        [Bitboard((1u128 << 45) - 1), Bitboard(((1u128 << 90) - 1) ^ ((1u128 << 45) - 1))];

    /// The set holding only `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(SQUARE_BITS[sq.index()])
    }

    /// Whether `sq` is in the set.
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        self.0 & SQUARE_BITS[sq.index()] != 0
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one square.
    #[inline(always)]
    pub const fn nonempty(self) -> bool {
        self.0 != 0
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set has more than one square.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline(always)]
    pub const fn lsb(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index(self.0.trailing_zeros() as u8))
        }
    }

    /// The set with `sq` added.
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | SQUARE_BITS[sq.index()])
    }

    /// The set with `sq` removed.
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !SQUARE_BITS[sq.index()])
    }

    /// The set mirrored top to bottom (rank r -> 9 - r).
    pub fn flip_rank(self) -> Bitboard {
        self.into_iter().fold(Bitboard::EMPTY, |b, sq| b.with(sq.flip_rank()))
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        // One 64-bit half at a time: finding and clearing the lowest bit of a 128-bit word costs about
        // twice as many instructions as of a 64-bit one, and the low half holds most points.
        let low = self.0 as u64;
        if low != 0 {
            self.0 = (self.0 >> 64 << 64) | (low & (low - 1)) as u128;
            return Some(Square::from_index(low.trailing_zeros() as u8));
        }
        let high = (self.0 >> 64) as u64;
        if high == 0 {
            return None;
        }
        self.0 = ((high & (high - 1)) as u128) << 64;
        Some(Square::from_index(64 + high.trailing_zeros() as u8))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline(always)]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::FULL.0)
    }
}

impl fmt::Debug for Bitboard {
    /// Draws the set as a board, rank 9 on top, `X` for members.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for rank in (0..10).rev() {
            for file in 0..9 {
                let sq = Square::from_file_rank(file, rank).expect("in range");
                write!(f, "{}", if self.has(sq) { " X" } else { " ." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, |b, s| b.with(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions() {
        assert_eq!(Bitboard::FULL.count(), 90);
        assert_eq!(Bitboard::PALACE[0].count(), 9);
        assert!(Bitboard::PALACE[0].has("e1".parse().unwrap()));
        assert!(Bitboard::PALACE[1].has("d9".parse().unwrap()));
        assert!(!Bitboard::PALACE[1].has("c9".parse().unwrap()));
        assert_eq!(Bitboard::HALF[0].count(), 45);
        assert_eq!((Bitboard::HALF[0] & Bitboard::HALF[1]).count(), 0);
        let files = Bitboard::FILES.iter().fold(Bitboard::EMPTY, |a, &b| a | b);
        assert_eq!(files, Bitboard::FULL);
        assert_eq!(!Bitboard::EMPTY, Bitboard::FULL);
        assert!(Bitboard::RANKS[9].has("i9".parse().unwrap()));
    }

    #[test]
    fn iteration() {
        let b = Bitboard::from_square("a0".parse().unwrap()).with("i9".parse().unwrap());
        let v: Vec<String> = b.map(|s| s.to_string()).collect();
        assert_eq!(v, ["a0", "i9"]);
        assert!(b.more_than_one());
        assert_eq!(b.flip_rank(), Bitboard::from_square("a9".parse().unwrap()).with("i0".parse().unwrap()));
    }
}
