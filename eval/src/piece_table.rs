//! Each piece's whole value on its point — its value in the rules' table, the phase shift of that value
//! and its piece-square weight — as one packed pair per (colour, kind, point).
//!
//! Those three terms are linear in the pieces on the board, so the search's evaluation sums one table
//! entry per piece instead of reporting each term apart; the trace and the tuner still see them apart
//! through [`crate::sink::Sink`], and a test checks the two agree.

use crate::packed::Packed;
use crate::params::{MATERIAL, PIECE_PHASE};
use crate::pst;
use crate::weights::WEIGHTS;
use engine::{Bitboard, Color, PieceKind, Position, Square};

/// Entries per (colour, kind): every index a 128-bit board can yield, so lookups need no bounds check.
const POINTS: usize = 128;

/// The value of `color`'s `kind` on each point (zero off the board).
static TABLE: [[[Packed; POINTS]; PieceKind::NUM]; 2] = {
    let mut t = [[[Packed::ZERO; POINTS]; PieceKind::NUM]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < PieceKind::NUM {
            // The king has no material value: the material terms leave it out.
            let material = if k == PieceKind::King.index() {
                Packed::ZERO
            } else {
                Packed::new(WEIGHTS[MATERIAL + k].plus(WEIGHTS[PIECE_PHASE + k]))
            };
            let mut s = 0;
            while s < Square::NUM {
                t[c][k][s] = material.plus(Packed::new(pst::TABLE[c][k][s]));
                s += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
};

/// The value of `color`'s `kind` on the point with index `sq`.
#[inline(always)]
fn value(color: Color, kind: PieceKind, sq: usize) -> Packed {
    TABLE[color.index()][kind.index()][sq & (POINTS - 1)]
}

/// The sum over the points of `board` of `table`, one 64-bit half at a time (finding and clearing the
/// lowest bit of a 64-bit word is about half the work of a 128-bit one).
#[inline(always)]
fn sum_over(table: &[Packed; POINTS], board: Bitboard) -> Packed {
    let mut total = Packed::ZERO;
    let mut low = board.0 as u64;
    while low != 0 {
        total += table[low.trailing_zeros() as usize & 63];
        low &= low - 1;
    }
    let mut high = (board.0 >> 64) as u64;
    while high != 0 {
        total += table[64 + (high.trailing_zeros() as usize & 63)];
        high &= high - 1;
    }
    total
}

/// Material, piece values and piece-square weights of all of `color`'s pieces.
#[inline(always)]
pub fn sum(pos: &Position, color: Color) -> Packed {
    let table = &TABLE[color.index()];
    // One king per side, always.
    let mut total = value(color, PieceKind::King, pos.king_square(color).index());
    // Every kind but the king (ALL lists it first).
    for &kind in &PieceKind::ALL[1..] {
        total += sum_over(&table[kind.index()], pos.pieces(color, kind));
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_material_plus_phase_shift_plus_piece_square() {
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                for sq in Square::all() {
                    let mut expected = pst::TABLE[color.index()][kind.index()][sq.index()];
                    if kind != PieceKind::King {
                        expected += WEIGHTS[MATERIAL + kind.index()] + WEIGHTS[PIECE_PHASE + kind.index()];
                    }
                    assert_eq!(value(color, kind, sq.index()).unpack(), expected, "{color:?} {kind:?} {sq}");
                }
            }
        }
        let mut off_board = TABLE.iter().flatten().flat_map(|t| &t[Square::NUM..]);
        assert!(off_board.all(|&p| p == Packed::ZERO));
    }
}
