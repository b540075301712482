//! Move-ordering statistics learned during the search, one set per thread: butterfly history (by side and
//! from-to), capture history (by piece, destination and victim), continuation history (by the piece and
//! destination of an earlier move in the line and of this move) and counter-moves.
//!
//! Updates use "gravity": `h += bonus - h * |bonus| / MAX`, which keeps every entry inside ±MAX and lets
//! old knowledge fade as new evidence arrives.

use super::correction::Correction;
use crate::position::Position;
use crate::types::{Color, Move, Piece, PieceKind};

/// Bound of every history entry.
pub const HISTORY_MAX: i32 = 16_384;

const SQUARES: usize = 90;
/// Number of (piece, destination) pairs: the rows and columns of the continuation history.
pub const PIECE_TO: usize = Piece::NUM * SQUARES;
/// The continuation row used when there is no earlier move (root, null move): updated but never informative.
pub const NO_ROW: usize = PIECE_TO;

/// The statistics of one thread.
pub struct Histories {
    butterfly: Vec<i16>,
    capture: Vec<i16>,
    continuation: Vec<i16>,
    counter: Vec<Option<Move>>,
    /// How the search has corrected the static evaluation (see `correction.rs`).
    pub correction: Correction,
}

impl Default for Histories {
    fn default() -> Self {
        Histories::new()
    }
}

#[inline(always)]
fn gravity(entry: &mut i16, bonus: i32) {
    gravity_within(entry, bonus, HISTORY_MAX);
}

/// The gravity update of an entry kept inside ±`max` (the correction history uses its own bound).
#[inline(always)]
pub(super) fn gravity_within(entry: &mut i16, bonus: i32, max: i32) {
    let b = bonus.clamp(-max, max);
    let v = *entry as i32;
    *entry = (v + b - v * b.abs() / max) as i16;
}

/// A move's index in one side's butterfly table (origin, destination).
#[inline(always)]
pub fn from_to(m: Move) -> usize {
    m.from().index() * SQUARES + m.to().index()
}

/// The continuation-history row (or column) of `piece` arriving on the destination of `m`.
#[inline(always)]
pub fn piece_to(piece: Piece, m: Move) -> usize {
    piece.index() * SQUARES + m.to().index()
}

impl Histories {
    /// Empty statistics.
    pub fn new() -> Histories {
        Histories {
            butterfly: vec![0; 2 * SQUARES * SQUARES],
            capture: vec![0; PIECE_TO * PieceKind::NUM],
            continuation: vec![0; (PIECE_TO + 1) * PIECE_TO],
            counter: vec![None; PIECE_TO],
            correction: Correction::new(),
        }
    }

    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        self.butterfly.fill(0);
        self.capture.fill(0);
        self.continuation.fill(0);
        self.counter.fill(None);
        self.correction.clear();
    }

    #[inline(always)]
    fn butterfly_index(pos: &Position, m: Move) -> usize {
        Self::butterfly_index_for(pos.side_to_move(), m)
    }

    #[inline(always)]
    fn butterfly_index_for(side: Color, m: Move) -> usize {
        side.index() * SQUARES * SQUARES + from_to(m)
    }

    /// The butterfly table of the side to move in `pos`, by [`from_to`].
    #[inline(always)]
    pub fn butterfly_of(&self, pos: &Position) -> &[i16] {
        let base = pos.side_to_move().index() * SQUARES * SQUARES;
        &self.butterfly[base..base + SQUARES * SQUARES]
    }

    /// Continuation-history row `row` (a previous move's piece and destination), by [`piece_to`].
    #[inline(always)]
    pub fn continuation_row(&self, row: usize) -> &[i16] {
        &self.continuation[row * PIECE_TO..(row + 1) * PIECE_TO]
    }

    /// Butterfly history of a quiet move in `pos` (before it is played).
    #[inline(always)]
    pub fn butterfly(&self, pos: &Position, m: Move) -> i32 {
        self.butterfly[Self::butterfly_index(pos, m)] as i32
    }

    /// Adds `bonus` (negative: malus) to a quiet move's butterfly history.
    #[inline(always)]
    pub fn update_butterfly(&mut self, pos: &Position, m: Move, bonus: i32) {
        gravity(&mut self.butterfly[Self::butterfly_index(pos, m)], bonus);
    }

    /// Adds `bonus` to the butterfly history of a quiet move that `side` played.
    #[inline(always)]
    pub fn update_butterfly_for(&mut self, side: Color, m: Move, bonus: i32) {
        gravity(&mut self.butterfly[Self::butterfly_index_for(side, m)], bonus);
    }

    #[inline(always)]
    fn capture_index(piece: Piece, m: Move, victim: PieceKind) -> usize {
        piece_to(piece, m) * PieceKind::NUM + victim.index()
    }

    /// Capture history of `piece` taking a `victim` with `m`.
    #[inline(always)]
    pub fn capture(&self, piece: Piece, m: Move, victim: PieceKind) -> i32 {
        self.capture[Self::capture_index(piece, m, victim)] as i32
    }

    /// Adds `bonus` to a capture's history.
    #[inline(always)]
    pub fn update_capture(&mut self, piece: Piece, m: Move, victim: PieceKind, bonus: i32) {
        gravity(&mut self.capture[Self::capture_index(piece, m, victim)], bonus);
    }

    /// Continuation history of the move whose (piece, destination) is `col`, after an earlier move `row`.
    #[inline(always)]
    pub fn continuation(&self, row: usize, col: usize) -> i32 {
        self.continuation[row * PIECE_TO + col] as i32
    }

    /// Adds `bonus` to a continuation-history entry.
    #[inline(always)]
    pub fn update_continuation(&mut self, row: usize, col: usize, bonus: i32) {
        gravity(&mut self.continuation[row * PIECE_TO + col], bonus);
    }

    /// The move that last refuted the move whose (piece, destination) is `row`.
    #[inline(always)]
    pub fn counter(&self, row: usize) -> Option<Move> {
        self.counter.get(row).copied().flatten()
    }

    /// Records `m` as the refutation of the move `row`.
    #[inline(always)]
    pub fn set_counter(&mut self, row: usize, m: Move) {
        if let Some(slot) = self.counter.get_mut(row) {
            *slot = Some(m);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_stays_bounded() {
        let mut e = 0i16;
        for _ in 0..1000 {
            gravity(&mut e, 1800);
        }
        assert!(e as i32 <= HISTORY_MAX && e > 15_000, "{e}");
        for _ in 0..1000 {
            gravity(&mut e, -1800);
        }
        assert!(e as i32 >= -HISTORY_MAX && e < -15_000, "{e}");
    }

    #[test]
    fn bonus_is_monotone_and_capped() {
        for start in [-16_000i16, -3_000, 0, 3_000, 16_000] {
            let after = |bonus: i32| {
                let mut e = start;
                gravity(&mut e, bonus);
                e
            };
            // A larger bonus never leaves the entry lower.
            let mut last = after(-HISTORY_MAX);
            for bonus in (-HISTORY_MAX..=HISTORY_MAX).step_by(97) {
                let now = after(bonus);
                assert!(now >= last, "start {start}, bonus {bonus}: {now} < {last}");
                last = now;
            }
            // A bonus beyond the bound counts as the bound.
            assert_eq!(after(3 * HISTORY_MAX), after(HISTORY_MAX), "start {start}");
            assert_eq!(after(-3 * HISTORY_MAX), after(-HISTORY_MAX), "start {start}");
        }
    }
}
