//! King safety from the defender's side: missing defenders against the attackers they are weakest
//! against, the file in front of the king, and defenders that protect each other.
//!
//! Each function scores one idea for `us`, the side whose king it is about (the cannon terms credit the
//! attacker, since the cannon is what the weight prices).

use crate::material::Counts;
use crate::params::{
    CANNON_AIMED_AT_KING, CONNECTED_ADVISORS, CONNECTED_ELEPHANTS, EMPTY_HEADED_CANNON,
    MISSING_ADVISOR_VS_HORSE, MISSING_ADVISOR_VS_TWO_ROOKS, MISSING_ELEPHANT_VS_CANNON, OPEN_KING_FILE,
};
use crate::sink::Sink;
use engine::{Bitboard, Color, Piece, PieceKind, Position, Square};

/// The first pieces on the king's file in front of it (toward the enemy), nearest first.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct KingFile {
    /// Up to three pieces, nearest first.
    pub pieces: [Option<Piece>; 3],
}

impl KingFile {
    /// Reads the file in front of `us`'s king.
    ///
    /// The file comes as ten bits, one per rank, from the transposed occupancy, so finding and clearing
    /// the nearest piece is 32-bit work instead of 128-bit shifts along a ray.
    #[inline]
    pub fn of(pos: &Position, us: Color) -> KingFile {
        let king = pos.king_square(us);
        let (file, rank) = (king.file(), king.rank() as u32);
        let column = (pos.occupied_transposed() >> (file as u32 * Square::RANKS as u32)) as u32 & 0x3ff;
        let piece_on = |r: u32| Square::from_file_rank(file, r as u8).and_then(|sq| pos.piece_at(sq));
        let mut pieces = [None; 3];
        match us {
            Color::Red => {
                // Ranks above the king, nearest (lowest) first.
                let mut ahead = column & !((2 << rank) - 1);
                for slot in pieces.iter_mut() {
                    if ahead == 0 {
                        break;
                    }
                    *slot = piece_on(ahead.trailing_zeros());
                    ahead &= ahead - 1;
                }
            }
            Color::Black => {
                // Ranks below the king, nearest (highest) first.
                let mut ahead = column & ((1 << rank) - 1);
                for slot in pieces.iter_mut() {
                    if ahead == 0 {
                        break;
                    }
                    let r = 31 - ahead.leading_zeros();
                    *slot = piece_on(r);
                    ahead ^= 1 << r;
                }
            }
        }
        KingFile { pieces }
    }

    fn is(&self, slot: usize, color: Color, kind: PieceKind) -> bool {
        self.pieces[slot] == Some(Piece::new(color, kind))
    }
}

fn missing_advisors(counts: &Counts, us: Color) -> i32 {
    (2 - counts.get(us, PieceKind::Advisor)).max(0)
}

/// 缺士怕马: each missing advisor costs more for each enemy horse.
#[inline(always)]
pub fn missing_advisors_vs_horses<K: Sink>(counts: &Counts, us: Color, sink: &mut K) {
    let n = missing_advisors(counts, us) * counts.get(!us, PieceKind::Horse);
    sink.add(us, MISSING_ADVISOR_VS_HORSE, n);
}

/// 缺相怕炮: each missing elephant costs more for each enemy cannon.
#[inline(always)]
pub fn missing_elephants_vs_cannons<K: Sink>(counts: &Counts, us: Color, sink: &mut K) {
    let missing = (2 - counts.get(us, PieceKind::Elephant)).max(0);
    sink.add(us, MISSING_ELEPHANT_VS_CANNON, missing * counts.get(!us, PieceKind::Cannon));
}

/// Missing advisors fear two rooks.
#[inline(always)]
pub fn missing_advisors_vs_two_rooks<K: Sink>(counts: &Counts, us: Color, sink: &mut K) {
    let two_rooks = (counts.get(!us, PieceKind::Rook) >= 2) as i32;
    sink.add(us, MISSING_ADVISOR_VS_TWO_ROOKS, missing_advisors(counts, us) * two_rooks);
}

/// Nothing in front of the king on its file: a rook can come to it, per enemy rook.
#[inline(always)]
pub fn open_king_file<K: Sink>(file: &KingFile, counts: &Counts, us: Color, sink: &mut K) {
    let open = file.pieces[0].is_none() as i32;
    sink.add(us, OPEN_KING_FILE, open * counts.get(!us, PieceKind::Rook));
}

/// 空头炮: an enemy cannon faces the king with nothing between; any piece that steps in becomes its
/// screen, so the defenders cannot use the file. Credited to the cannon's side.
#[inline(always)]
pub fn empty_headed_cannon<K: Sink>(file: &KingFile, us: Color, sink: &mut K) {
    sink.add(!us, EMPTY_HEADED_CANNON, file.is(0, !us, PieceKind::Cannon) as i32);
}

/// An enemy cannon on the king's file behind two screens (the central cannon's pressure): moving either
/// screen away gives check. Credited to the cannon's side.
#[inline(always)]
pub fn cannon_aimed_at_king<K: Sink>(file: &KingFile, us: Color, sink: &mut K) {
    sink.add(!us, CANNON_AIMED_AT_KING, file.is(2, !us, PieceKind::Cannon) as i32);
}

/// The palace centre, by the colour of the palace.
const PALACE_CENTRE: [Bitboard; 2] = [Bitboard(1 << (9 + 4)), Bitboard(1 << (8 * 9 + 4))];

/// Advisors that protect each other (one on the palace centre).
///
/// Every advisor point touches the centre and no other advisor point, so two advisors protect each
/// other exactly when there are two and one stands on the centre.
#[inline(always)]
pub fn connected_advisors<K: Sink>(pos: &Position, us: Color, sink: &mut K) {
    let advisors = pos.pieces(us, PieceKind::Advisor);
    let connected = advisors.more_than_one() && (advisors & PALACE_CENTRE[us.index()]).nonempty();
    sink.add(us, CONNECTED_ADVISORS, connected as i32);
}

/// Elephants that protect each other (相连: one can step to the other's point).
#[inline(always)]
pub fn connected_elephants<K: Sink>(pos: &Position, us: Color, sink: &mut K) {
    let connected = elephants_connected(pos.pieces(us, PieceKind::Elephant), pos.occupied());
    sink.add(us, CONNECTED_ELEPHANTS, connected as i32);
}

/// Whether two elephants on `elephants` (a side's, so on its seven elephant points) can step to each
/// other's point with the board occupied by `occ`.
///
/// Two elephant points an elephant's step apart are two files and two ranks apart, so their indices
/// differ by 16 or 20 and the eye between is their midpoint; no other two elephant points of a side
/// differ by 16 or 20. That settles it from the two indices and one bit of the board, without the
/// move table.
#[inline(always)]
fn elephants_connected(elephants: Bitboard, occ: Bitboard) -> bool {
    let (set, low) = (elephants.0, elephants.0.trailing_zeros());
    let high = 127u32.wrapping_sub(set.leading_zeros());
    let step = high.wrapping_sub(low);
    set != 0 && (step == 16 || step == 20) && (occ.0 >> ((low + high) / 2)) & 1 == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{term_count, term_counts, weight_of};

    /// The file in front of the king, read by walking it point by point.
    fn king_file_by_walking(pos: &Position, us: Color) -> KingFile {
        let step = match us {
            Color::Red => 1,
            Color::Black => -1,
        };
        let mut pieces = [None; 3];
        let mut found = 0;
        let mut sq = pos.king_square(us);
        while let Some(next) = sq.offset(0, step) {
            sq = next;
            if let Some(p) = pos.piece_at(sq) {
                if found < 3 {
                    pieces[found] = Some(p);
                    found += 1;
                }
            }
        }
        KingFile { pieces }
    }

    #[test]
    fn king_file_matches_a_walk_along_it() {
        for pos in crate::testing::positions() {
            for us in Color::ALL {
                assert_eq!(KingFile::of(&pos, us), king_file_by_walking(&pos, us), "{us:?} {pos:?}");
            }
        }
    }

    /// Defenders that protect each other, by the move tables (the first piece's moves reach the other).
    fn protect_each_other(pieces: Bitboard, moves: impl Fn(Square) -> Bitboard) -> bool {
        match pieces.lsb() {
            Some(first) if pieces.more_than_one() => (moves(first) & pieces).nonempty(),
            _ => false,
        }
    }

    #[test]
    fn connected_defenders_match_the_move_tables() {
        use engine::attacks::{elephant_attacks, ADVISOR_ATTACKS};
        use engine::fen::square_allowed;
        // Every pair of points of each colour, with the eyes open and blocked.
        for us in Color::ALL {
            for kind in [PieceKind::Advisor, PieceKind::Elephant] {
                let points: Vec<Square> =
                    Square::all().filter(|&sq| square_allowed(Piece::new(us, kind), sq)).collect();
                for (i, &a) in points.iter().enumerate() {
                    for &b in &points[i..] {
                        let pieces = Bitboard::from_square(a).with(b);
                        for occ in [pieces, !Bitboard::EMPTY] {
                            let by_table = match kind {
                                PieceKind::Advisor => {
                                    protect_each_other(pieces, |sq| ADVISOR_ATTACKS[sq.index()])
                                }
                                _ => protect_each_other(pieces, |sq| elephant_attacks(sq, occ)),
                            };
                            let quick = match kind {
                                PieceKind::Advisor => {
                                    pieces.more_than_one() && (pieces & PALACE_CENTRE[us.index()]).nonempty()
                                }
                                _ => elephants_connected(pieces, occ),
                            };
                            assert_eq!(quick, by_table, "{us:?} {kind:?} {a} {b} {occ:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn missing_advisors_fear_horses() {
        // Black lacks both advisors; Red has two horses.
        let fen = "4k4/9/4b4/9/9/9/9/4B4/4A4/1N1AK2N1 w - - 0 1";
        assert_eq!(term_counts(fen, MISSING_ADVISOR_VS_HORSE), [0, 4]);
        assert!(weight_of(MISSING_ADVISOR_VS_HORSE).mg() < 0);
    }

    #[test]
    fn missing_elephants_fear_cannons() {
        let fen = "3aka3/9/9/9/9/9/9/1C5C1/9/3A1K3 w - - 0 1";
        assert_eq!(term_counts(fen, MISSING_ELEPHANT_VS_CANNON), [0, 4]);
        assert!(weight_of(MISSING_ELEPHANT_VS_CANNON).mg() < 0);
    }

    #[test]
    fn missing_advisors_fear_two_rooks() {
        let one_rook = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1";
        let two_rooks = "3k5/9/9/9/9/9/9/9/9/R3K3R w - - 0 1";
        assert_eq!(term_count(one_rook, Color::Black, MISSING_ADVISOR_VS_TWO_ROOKS), 0);
        assert_eq!(term_count(two_rooks, Color::Black, MISSING_ADVISOR_VS_TWO_ROOKS), 2);
        assert!(weight_of(MISSING_ADVISOR_VS_TWO_ROOKS).mg() < 0);
    }

    #[test]
    fn open_file_in_front_of_the_king() {
        // Black's king on d9 with nothing below it on the d-file; Red has a rook.
        let open = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1";
        let closed = "3k5/9/3n5/9/9/9/9/9/9/R3K4 w - - 0 1";
        assert_eq!(term_count(open, Color::Black, OPEN_KING_FILE), 1);
        assert_eq!(term_count(closed, Color::Black, OPEN_KING_FILE), 0);
        assert!(weight_of(OPEN_KING_FILE).mg() < 0);
    }

    #[test]
    fn empty_headed_cannon_and_aimed_cannon() {
        // Red cannon on e4 facing Black's king on e9 with nothing between: 空头炮.
        let empty_headed = "3aka3/9/9/9/9/4C4/9/9/9/3K5 w - - 0 1";
        assert_eq!(term_counts(empty_headed, EMPTY_HEADED_CANNON), [1, 0]);
        // The classical central cannon: two screens (Black's advisor and pawn) before the king.
        let aimed = "3ak4/4a4/9/4p4/9/9/9/4C4/9/3K5 w - - 0 1";
        assert_eq!(term_count(aimed, Color::Red, CANNON_AIMED_AT_KING), 1);
        assert_eq!(term_count(aimed, Color::Red, EMPTY_HEADED_CANNON), 0);
        assert!(weight_of(EMPTY_HEADED_CANNON).mg() > weight_of(CANNON_AIMED_AT_KING).mg());
        assert!(weight_of(CANNON_AIMED_AT_KING).mg() > 0);
    }

    #[test]
    fn connected_defenders() {
        let connected = "4k4/9/9/9/9/9/9/4B4/4A4/2BAK4 w - - 0 1";
        let apart = "3k5/9/9/9/9/9/9/B7B/9/3AKA3 w - - 0 1";
        assert_eq!(term_count(connected, Color::Red, CONNECTED_ADVISORS), 1);
        assert_eq!(term_count(connected, Color::Red, CONNECTED_ELEPHANTS), 1);
        assert_eq!(term_count(apart, Color::Red, CONNECTED_ADVISORS), 0);
        assert_eq!(term_count(apart, Color::Red, CONNECTED_ELEPHANTS), 0);
        assert!(weight_of(CONNECTED_ADVISORS).mg() > 0 && weight_of(CONNECTED_ELEPHANTS).mg() > 0);
    }
}
