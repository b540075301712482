//! Attackers gathering by the enemy palace (连车重炮卧槽马, 卒坐宫心): each function credits `us` for one
//! pattern of attack on the enemy king.

use crate::king_safety::KingFile;
use crate::params::{
    CONNECTED_ROOKS, DOUBLED_CANNONS, HORSE_CHECK_POINT, HORSE_NEAR_PALACE, PALACE_PAWN, ROOK_NEAR_PALACE,
};
use crate::reach::Reach;
use crate::sink::Sink;
use engine::{Bitboard, Color, Piece, PieceKind, Position};

const fn point(file: u8, rank: u8) -> u128 {
    1u128 << (rank as usize * 9 + file as usize)
}

/// The enemy palace centre, by the attacker's colour (e8 for Red's pawns, e1 for Black's).
const PALACE_CENTRE: [Bitboard; 2] = [Bitboard(point(4, 8)), Bitboard(point(4, 1))];

/// Points from which a horse checks a king on its home point unless the leg is blocked: 卧槽 (c8, g8)
/// and 挂角 (d7, f7), by the attacker's colour.
const HORSE_CHECK_POINTS: [Bitboard; 2] = [
    Bitboard(point(2, 8) | point(6, 8) | point(3, 7) | point(5, 7)),
    Bitboard(point(2, 1) | point(6, 1) | point(3, 2) | point(5, 2)),
];

/// 卒坐宫心: a pawn on the enemy palace centre takes the king's best square and its escape.
#[inline(always)]
pub fn palace_pawn<K: Sink>(pos: &Position, us: Color, sink: &mut K) {
    let n = (pos.pieces(us, PieceKind::Pawn) & PALACE_CENTRE[us.index()]).count() as i32;
    sink.add(us, PALACE_PAWN, n);
}

/// 连车: two rooks that see each other defend each other and double on a line.
#[inline(always)]
pub fn connected_rooks<K: Sink>(pos: &Position, reach: &Reach, us: Color, sink: &mut K) {
    // A rook's reach holds the first piece each way but never its own point, so the first slot meets our
    // rooks only if there is a second rook and it sees the first.
    let connected = (reach.rook_slots()[0] & pos.pieces(us, PieceKind::Rook)).nonempty();
    sink.add(us, CONNECTED_ROOKS, connected as i32);
}

/// 重炮: two of our cannons on the enemy king's file, one the other's screen.
#[inline(always)]
pub fn doubled_cannons<K: Sink>(enemy_file: &KingFile, us: Color, sink: &mut K) {
    let cannon = Some(Piece::new(us, PieceKind::Cannon));
    let n = enemy_file.pieces.iter().filter(|&&p| p == cannon).count();
    sink.add(us, DOUBLED_CANNONS, (n >= 2) as i32);
}

/// 卧槽马, 挂角马: horses on the points from which they check the king at home.
#[inline(always)]
pub fn horse_check_points<K: Sink>(pos: &Position, us: Color, sink: &mut K) {
    let n = (pos.pieces(us, PieceKind::Horse) & HORSE_CHECK_POINTS[us.index()]).count() as i32;
    sink.add(us, HORSE_CHECK_POINT, n);
}

/// Rooks that reach into the enemy palace.
#[inline(always)]
pub fn rooks_near_palace<K: Sink>(reach: &Reach, us: Color, sink: &mut K) {
    let palace = Bitboard::PALACE[(!us).index()];
    let n = reach.rook_slots().iter().filter(|&&r| (r & palace).nonempty()).count() as i32;
    sink.add(us, ROOK_NEAR_PALACE, n);
}

/// Enemy palace points our horses attack.
#[inline(always)]
pub fn horses_near_palace<K: Sink>(reach: &Reach, us: Color, sink: &mut K) {
    let palace = Bitboard::PALACE[(!us).index()];
    let n: u32 = reach.horse_slots().iter().map(|&h| (h & palace).count()).sum();
    sink.add(us, HORSE_NEAR_PALACE, n as i32);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{term_count, term_counts, weight_of};

    #[test]
    fn pawn_in_the_palace_centre() {
        let fen = "3k5/4P4/9/9/9/9/9/9/9/4K4 w - - 0 1";
        assert_eq!(term_count(fen, Color::Red, PALACE_PAWN), 1);
        let beside = "3k5/5P3/9/9/9/9/9/9/9/4K4 w - - 0 1";
        assert_eq!(term_count(beside, Color::Red, PALACE_PAWN), 0);
        assert!(weight_of(PALACE_PAWN).mg() > 0);
    }

    #[test]
    fn connected_rooks_doubled_cannons_and_horse_check_points() {
        // Red: rooks a7 and a4 see each other; cannons e4 and e2 on Black's king file (so Black is in
        // check); a horse on c8 (卧槽).
        let fen = "4k4/2N6/R8/9/9/R3C4/9/4C4/9/3K5 b - - 0 1";
        assert_eq!(term_count(fen, Color::Red, CONNECTED_ROOKS), 1);
        assert_eq!(term_count(fen, Color::Red, DOUBLED_CANNONS), 1);
        assert_eq!(term_count(fen, Color::Red, HORSE_CHECK_POINT), 1);
        assert!(term_count(fen, Color::Red, HORSE_NEAR_PALACE) >= 1);
        assert_eq!(term_count(fen, Color::Red, ROOK_NEAR_PALACE), 1, "the rook on a7 sweeps rank 7");
        let blocked = "4k4/2N6/R8/P8/9/R3C4/9/4C4/9/3K5 b - - 0 1";
        assert_eq!(term_count(blocked, Color::Red, CONNECTED_ROOKS), 0);
        for w in [CONNECTED_ROOKS, DOUBLED_CANNONS, HORSE_CHECK_POINT, HORSE_NEAR_PALACE, ROOK_NEAR_PALACE] {
            assert!(weight_of(w).mg() > 0);
        }
    }

    #[test]
    fn rooks_near_the_palace() {
        let fen = "5k3/9/9/9/9/9/9/9/9/3RK4 w - - 0 1";
        assert_eq!(term_counts(fen, ROOK_NEAR_PALACE), [1, 0]);
    }
}
