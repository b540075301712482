//! Correction history: how far the search's results have strayed from the static evaluation in positions
//! that share a feature (the pawns; one side's other pieces; the last two moves), so the evaluation the
//! pruning rules read can be moved towards what searching such positions found.
//!
//! Each table is indexed by the side to move and a hash of the feature; entries learn by the same gravity
//! as the move histories, within ±[`CORRECTION_MAX`]. The correction is a weighted sum of the entries that
//! apply, in evaluation units, at most about a third of a pawn per table.

use super::history::{gravity_within, PIECE_TO};
use crate::position::Position;
use crate::types::{Color, PieceKind};

/// Entries per side in each keyed table (a power of two).
const KEYED_SIZE: usize = 1 << 14;

/// Bound of every entry.
pub const CORRECTION_MAX: i32 = 1024;

/// One update moves an entry by at most this.
const MAX_STEP: i32 = CORRECTION_MAX / 4;

/// A table's entries weigh this (per mille of a unit per entry step) ...
const WEIGHT: i32 = 3_000;

/// ... over this: a full entry (1,024) is worth about 23 units, and the four tables together about a pawn.
const WEIGHT_SCALE: i32 = 131_072;

/// The pieces other than pawns, each hashed into a side's non-pawn key.
const NON_PAWN: [PieceKind; 6] = [
    PieceKind::King,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Rook,
    PieceKind::Cannon,
];

#[inline(always)]
fn gravity(entry: &mut i16, bonus: i32) {
    gravity_within(entry, bonus, CORRECTION_MAX);
}

/// A 64-bit mix of a 90-square set (bitboards are 128 bits; the high half holds the last 26 squares).
#[inline(always)]
fn mix(bits: u128, seed: u64) -> u64 {
    let lo = bits as u64;
    let hi = (bits >> 64) as u64;
    let x = (lo ^ seed).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ hi.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    x ^ (x >> 29)
}

/// Where a position's entries lie in the keyed tables.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CorrectionKeys {
    side: usize,
    pawn: usize,
    non_pawn: [usize; 2],
}

impl CorrectionKeys {
    /// The keys of `pos`.
    pub fn of(pos: &Position) -> CorrectionKeys {
        let pawns = mix(pos.pieces(Color::Red, PieceKind::Pawn).0, 1)
            ^ mix(pos.pieces(Color::Black, PieceKind::Pawn).0, 2).rotate_left(32);
        let non_pawn = [Color::Red, Color::Black].map(|c| {
            let mut h = c.index() as u64;
            for (i, &kind) in NON_PAWN.iter().enumerate() {
                h = h.rotate_left(11) ^ mix(pos.pieces(c, kind).0, i as u64 + 3);
            }
            h as usize % KEYED_SIZE
        });
        CorrectionKeys { side: pos.side_to_move().index(), pawn: pawns as usize % KEYED_SIZE, non_pawn }
    }
}

/// The correction tables of one thread.
pub struct Correction {
    pawn: Vec<i16>,
    non_pawn: [Vec<i16>; 2],
    /// By the continuation rows of the two previous moves (the one two plies up first).
    continuation: Vec<i16>,
}

impl Default for Correction {
    fn default() -> Self {
        Correction::new()
    }
}

impl Correction {
    /// Empty tables.
    pub fn new() -> Correction {
        Correction {
            pawn: vec![0; 2 * KEYED_SIZE],
            non_pawn: [vec![0; 2 * KEYED_SIZE], vec![0; 2 * KEYED_SIZE]],
            continuation: vec![0; (PIECE_TO + 1) * (PIECE_TO + 1)],
        }
    }

    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        self.pawn.fill(0);
        self.non_pawn.iter_mut().for_each(|t| t.fill(0));
        self.continuation.fill(0);
    }

    #[inline(always)]
    fn continuation_index(rows: [usize; 2]) -> usize {
        rows[0] * (PIECE_TO + 1) + rows[1]
    }

    /// The correction in evaluation units, `percent` of the tables' weight, for a position with `keys`
    /// reached by the moves whose continuation rows are `rows` (two plies up, then one).
    #[inline(always)]
    pub fn value(&self, keys: &CorrectionKeys, rows: [usize; 2], percent: i32) -> i32 {
        let s = keys.side * KEYED_SIZE;
        let sum = self.pawn[s + keys.pawn] as i32
            + self.non_pawn[0][s + keys.non_pawn[0]] as i32
            + self.non_pawn[1][s + keys.non_pawn[1]] as i32
            + self.continuation[Self::continuation_index(rows)] as i32;
        sum * WEIGHT / WEIGHT_SCALE * percent / 100
    }

    /// Learns that a `depth`-ply search found `diff` more (negative: less) than the corrected evaluation.
    #[inline(always)]
    pub fn update(&mut self, keys: &CorrectionKeys, rows: [usize; 2], diff: i32, depth: i32) {
        let bonus = (diff * depth / 4).clamp(-MAX_STEP, MAX_STEP);
        let s = keys.side * KEYED_SIZE;
        gravity(&mut self.pawn[s + keys.pawn], bonus);
        gravity(&mut self.non_pawn[0][s + keys.non_pawn[0]], bonus);
        gravity(&mut self.non_pawn[1][s + keys.non_pawn[1]], bonus);
        gravity(&mut self.continuation[Self::continuation_index(rows)], bonus);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::history::NO_ROW;

    #[test]
    fn learns_the_sign_and_stays_bounded() {
        let pos = Position::startpos();
        let keys = CorrectionKeys::of(&pos);
        let rows = [NO_ROW, NO_ROW];
        let mut c = Correction::new();
        assert_eq!(c.value(&keys, rows, 100), 0);
        for _ in 0..1000 {
            c.update(&keys, rows, 500, 20);
        }
        let high = c.value(&keys, rows, 100);
        assert!(high > 80 && high <= 4 * CORRECTION_MAX * WEIGHT / WEIGHT_SCALE, "{high}");
        assert_eq!(c.value(&keys, rows, 0), 0);
        for _ in 0..1000 {
            c.update(&keys, rows, -500, 20);
        }
        assert!(c.value(&keys, rows, 100) < -80);
        c.clear();
        assert_eq!(c.value(&keys, rows, 100), 0);
    }

    #[test]
    fn keys_follow_the_features() {
        let a = Position::startpos();
        let mut b = a.clone();
        b.try_play("h2e2").expect("legal");
        let (ka, kb) = (CorrectionKeys::of(&a), CorrectionKeys::of(&b));
        assert_eq!(ka.pawn, kb.pawn, "a cannon move leaves the pawns");
        assert_eq!(ka.non_pawn[1], kb.non_pawn[1], "and Black's pieces");
        assert_ne!(ka.non_pawn[0], kb.non_pawn[0]);
        assert_ne!(ka.side, kb.side);
    }
}
