//! Mobility: how many moves rooks, horses (whose legs can be blocked) and cannons (which need screens to
//! capture) have. Moves onto our own pieces do not count; each count indexes its own weight table, so the
//! value of the first few moves can differ from the value of the last.

use crate::params::{
    CANNON_MOBILITY, CANNON_TARGET, HORSE_MOBILITY, HORSE_MOVES, ROOK_MOBILITY, SLIDER_MOBILITY,
};
use crate::reach::Reach;
use crate::sink::Sink;
use engine::attacks::{cannon_attacks, rook_attacks};
use engine::bitboard::Bitboard;
use engine::{Color, PieceKind, Position};

/// Rook moves, captures included.
#[inline(always)]
pub fn rook_mobility<K: Sink>(pos: &Position, reach: &Reach, us: Color, sink: &mut K) {
    slot_mobility(pos, reach.rook_slots(), reach.rook_count(), us, ROOK_MOBILITY, SLIDER_MOBILITY, sink);
}

/// Horse moves with blocked legs taken into account (马怕蹩脚).
#[inline(always)]
pub fn horse_mobility<K: Sink>(pos: &Position, reach: &Reach, us: Color, sink: &mut K) {
    slot_mobility(pos, reach.horse_slots(), reach.horse_count(), us, HORSE_MOBILITY, HORSE_MOVES, sink);
}

/// For each of the first `filled` slots, one weight from the table of `len` at `table`, indexed by the
/// slot's moves that do not land on our own pieces (the last weight stands for that many or more).
#[inline(always)]
fn slot_mobility<K: Sink>(
    pos: &Position,
    slots: [Bitboard; 2],
    filled: usize,
    us: Color,
    table: usize,
    len: usize,
    sink: &mut K,
) {
    let not_ours = !pos.color_pieces(us);
    for (slot, moves) in slots.into_iter().enumerate() {
        if slot < filled {
            let n = (moves & not_ours).count() as usize;
            sink.add(us, table + n.min(len - 1), 1);
        }
    }
}

/// Cannon quiet moves, and the enemy pieces it attacks over a screen.
#[inline(always)]
pub fn cannon_mobility<K: Sink>(pos: &Position, us: Color, sink: &mut K) {
    let (occ, occ_t) = (pos.occupied(), pos.occupied_transposed());
    let empty = !occ;
    let theirs = pos.color_pieces(!us);
    for sq in pos.pieces(us, PieceKind::Cannon) {
        let quiet = (rook_attacks(sq, occ, occ_t) & empty).count() as usize;
        sink.add(us, CANNON_MOBILITY + quiet.min(SLIDER_MOBILITY - 1), 1);
        sink.add(us, CANNON_TARGET, (cannon_attacks(sq, occ, occ_t) & theirs).count() as i32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{term_count, weight_of};

    #[test]
    fn mobility_counts_moves() {
        // A Red rook alone on a5: 9 along the file, 8 along the rank.
        let free = "3k5/9/9/9/R8/9/9/9/9/4K4 w - - 0 1";
        assert_eq!(term_count(free, Color::Red, ROOK_MOBILITY + 17), 1);
        // Horse on the start point with its legs blocked by the pieces of the start position: b0 can go to
        // a2 and c2 only.
        let start = engine::position::START_FEN;
        assert_eq!(term_count(start, Color::Red, HORSE_MOBILITY + 2), 2);
        // Cannons at the start: each has 11 quiet moves and one target (the horse behind the screen).
        assert_eq!(term_count(start, Color::Red, CANNON_MOBILITY + 11), 2);
        assert_eq!(term_count(start, Color::Red, CANNON_TARGET), 2);
        assert!(weight_of(ROOK_MOBILITY + 17).mg() > weight_of(ROOK_MOBILITY).mg());
        assert!(weight_of(HORSE_MOBILITY + 8).mg() > weight_of(HORSE_MOBILITY).mg());
    }

    #[test]
    fn blocked_horse_leg_costs_mobility() {
        let free = "3k5/9/9/9/4N4/9/9/9/9/4K4 w - - 0 1";
        let hobbled = "3k5/9/9/9/4N4/4P4/9/9/9/4K4 w - - 0 1";
        assert_eq!(term_count(free, Color::Red, HORSE_MOBILITY + 8), 1);
        assert_eq!(term_count(hobbled, Color::Red, HORSE_MOBILITY + 6), 1);
    }
}
