//! Where each rook and horse of a side reaches, computed once per evaluation for the terms that need it
//! (mobility, and the attacks on the palace).

use engine::attacks::{horse_attacks, rook_attacks};
use engine::{Bitboard, Color, PieceKind, Position};

/// The reach of a side's rooks and horses (at most two of each in a legal position).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Reach {
    rook: [Bitboard; 2],
    rooks: usize,
    horse: [Bitboard; 2],
    horses: usize,
}

impl Reach {
    /// The reach of `us`'s rooks (up to and including the first piece each way) and horses (legs
    /// counted).
    #[inline(always)]
    pub fn of(pos: &Position, us: Color) -> Reach {
        let (occ, occ_t) = (pos.occupied(), pos.occupied_transposed());
        let mut r = Reach::default();
        for sq in pos.pieces(us, PieceKind::Rook).take(2) {
            r.rook[r.rooks] = rook_attacks(sq, occ, occ_t);
            r.rooks += 1;
        }
        for sq in pos.pieces(us, PieceKind::Horse).take(2) {
            r.horse[r.horses] = horse_attacks(sq, occ);
            r.horses += 1;
        }
        r
    }

    /// One set per rook.
    #[inline(always)]
    pub fn rooks(&self) -> &[Bitboard] {
        &self.rook[..self.rooks]
    }

    /// One set per horse.
    #[inline(always)]
    pub fn horses(&self) -> &[Bitboard] {
        &self.horse[..self.horses]
    }
}
