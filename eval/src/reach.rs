//! Where each rook and horse of a side reaches, computed once per evaluation for the terms that need it
//! (mobility, and the attacks on the palace).

use engine::attacks::{horse_attacks, rook_attacks};
use engine::{Bitboard, Color, PieceKind, Position};

/// The reach of a side's rooks and horses (at most two of each in a legal position), in two slots per
/// kind: a slot without a piece holds the empty set, so terms that only look for points in the sets can
/// read both slots without asking how many pieces there are.
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
        // The first two points of each set, taken without an iterator so that the sets land in their
        // slots directly.
        let rooks = pos.pieces(us, PieceKind::Rook);
        if let Some(first) = rooks.lsb() {
            r.rook[0] = rook_attacks(first, occ, occ_t);
            r.rooks = 1;
            if let Some(second) = without_lowest(rooks).lsb() {
                r.rook[1] = rook_attacks(second, occ, occ_t);
                r.rooks = 2;
            }
        }
        let horses = pos.pieces(us, PieceKind::Horse);
        if let Some(first) = horses.lsb() {
            r.horse[0] = horse_attacks(first, occ);
            r.horses = 1;
            if let Some(second) = without_lowest(horses).lsb() {
                r.horse[1] = horse_attacks(second, occ);
                r.horses = 2;
            }
        }
        r
    }

    /// Both rook slots (an empty set where there is no rook).
    #[inline(always)]
    pub fn rook_slots(&self) -> [Bitboard; 2] {
        self.rook
    }

    /// Both horse slots (an empty set where there is no horse).
    #[inline(always)]
    pub fn horse_slots(&self) -> [Bitboard; 2] {
        self.horse
    }

    /// How many rooks there are (the filled slots come first).
    #[inline(always)]
    pub fn rook_count(&self) -> usize {
        self.rooks
    }

    /// How many horses there are (the filled slots come first).
    #[inline(always)]
    pub fn horse_count(&self) -> usize {
        self.horses
    }
}

/// `board` without its lowest point.
#[inline(always)]
fn without_lowest(board: Bitboard) -> Bitboard {
    Bitboard(board.0 & board.0.wrapping_sub(1))
}
