//! Static exchange evaluation: whether a move wins at least a given amount once both sides have captured
//! back on its destination with their cheapest pieces.
//!
//! Attackers are recomputed from the occupancy after every capture, which handles the xiangqi x-rays: a
//! rook behind a rook, a cannon whose screen is the piece that just captured or just left, a horse whose
//! leg was just cleared. Pins and the kings' face-off are ignored (the exchange may contain an illegal
//! capture), as in most engines.

use crate::attacks::{
    cannon_attacks, elephant_attacks, horse_attackers_from, rook_attacks, transposed_bit, ADVISOR_ATTACKS,
    KING_ATTACKS, PAWN_ATTACKERS_FROM,
};
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, Move, PieceKind, Square};

/// Exchange values by [`PieceKind`] index: king, advisor, elephant, horse, rook, cannon, pawn. The search's
/// come from [`SearchParams::see_values`](super::params::SearchParams::see_values), where the five that
/// matter are tunable and their defaults are explained.
pub type SeeValues = [i32; PieceKind::NUM];

/// The king's exchange value: only makes capturing it unthinkable (it is not tuned).
pub const SEE_KING: i32 = 10_000;

/// Value of the piece a move captures (0 for a quiet move).
#[inline(always)]
pub fn victim_value(pos: &Position, m: Move, values: &SeeValues) -> i32 {
    pos.piece_at(m.to()).map_or(0, |p| values[p.kind().index()])
}

/// The cheapest piece of `by` attacking `sq` with occupancy `occ` (by each kind's own moves; the king only by
/// its palace steps: in an exchange it never captures along the file), lowest point first among equals.
/// The kinds are tried from the cheapest up and the first found is taken, so the slider lookups, the dearest
/// part, are skipped whenever a pawn, advisor, elephant or horse recaptures, without building every
/// attacker set at each step.
#[inline]
fn cheapest_attacker(
    pos: &Position,
    sq: Square,
    by: Color,
    occ: Bitboard,
    occ_t: u128,
) -> Option<(PieceKind, Square)> {
    let p = |k| pos.pieces(by, k) & occ;
    let i = sq.index();
    if let Some(s) = (PAWN_ATTACKERS_FROM[by.index()][i] & p(PieceKind::Pawn)).lsb() {
        return Some((PieceKind::Pawn, s));
    }
    if let Some(s) = (ADVISOR_ATTACKS[i] & p(PieceKind::Advisor)).lsb() {
        return Some((PieceKind::Advisor, s));
    }
    if let Some(s) = (elephant_attacks(sq, occ) & p(PieceKind::Elephant)).lsb() {
        return Some((PieceKind::Elephant, s));
    }
    if let Some(s) = (horse_attackers_from(sq, occ) & p(PieceKind::Horse)).lsb() {
        return Some((PieceKind::Horse, s));
    }
    if let Some(s) = (cannon_attacks(sq, occ, occ_t) & p(PieceKind::Cannon)).lsb() {
        return Some((PieceKind::Cannon, s));
    }
    if let Some(s) = (rook_attacks(sq, occ, occ_t) & p(PieceKind::Rook)).lsb() {
        return Some((PieceKind::Rook, s));
    }
    (KING_ATTACKS[i] & p(PieceKind::King)).lsb().map(|s| (PieceKind::King, s))
}

/// Whether `m` (legal in `pos`) wins at least `threshold` in the exchange on its destination.
pub fn see_ge(pos: &Position, m: Move, threshold: i32, values: &SeeValues) -> bool {
    let (from, to) = (m.from(), m.to());
    let Some(mover) = pos.piece_at(from) else { return false };
    let mut swap = victim_value(pos, m, values) - threshold;
    if swap < 0 {
        return false;
    }
    swap = values[mover.kind().index()] - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = pos.occupied().without(from).with(to);
    let mut occ_t = (pos.occupied_transposed() & !transposed_bit(from)) | transposed_bit(to);
    let mut side = mover.color();
    // `res` is 1 while the side that moved last is winning the exchange so far.
    let mut res = 1;
    loop {
        side = !side;
        let Some((kind, sq)) = cheapest_attacker(pos, to, side, occ, occ_t) else { break };
        res ^= 1;
        if kind == PieceKind::King {
            // The king may only take last: if the other side still attacks, the capture is illegal.
            if cheapest_attacker(pos, to, !side, occ, occ_t).is_some() {
                res ^= 1;
            }
            break;
        }
        swap = values[kind.index()] - swap;
        if swap < res {
            break;
        }
        occ = occ.without(sq);
        occ_t &= !transposed_bit(sq);
    }
    res == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search's default exchange values.
    fn values() -> SeeValues {
        *crate::search::params::SearchParams::default().see_values()
    }

    /// One piece kind's default exchange value, so the expectations follow the tuned parameters.
    fn value(kind: PieceKind) -> i32 {
        values()[kind.index()]
    }

    /// The exchange as first written (every attacker set built at each step): the reference the faster
    /// `see_ge` must agree with. It repeats `see_ge`'s swap loop on purpose, so the two stay independent.
    fn see_ge_reference(pos: &Position, m: Move, threshold: i32, values: &SeeValues) -> bool {
        const CHEAPEST_FIRST: [PieceKind; 7] = [
            PieceKind::Pawn,
            PieceKind::Advisor,
            PieceKind::Elephant,
            PieceKind::Horse,
            PieceKind::Cannon,
            PieceKind::Rook,
            PieceKind::King,
        ];
        fn attackers(pos: &Position, sq: Square, by: Color, occ: Bitboard, occ_t: u128) -> Bitboard {
            let p = |k| pos.pieces(by, k);
            ((rook_attacks(sq, occ, occ_t) & p(PieceKind::Rook))
                | (cannon_attacks(sq, occ, occ_t) & p(PieceKind::Cannon))
                | (horse_attackers_from(sq, occ) & p(PieceKind::Horse))
                | (PAWN_ATTACKERS_FROM[by.index()][sq.index()] & p(PieceKind::Pawn))
                | (KING_ATTACKS[sq.index()] & p(PieceKind::King))
                | (ADVISOR_ATTACKS[sq.index()] & p(PieceKind::Advisor))
                | (elephant_attacks(sq, occ) & p(PieceKind::Elephant)))
                & occ
        }
        let (from, to) = (m.from(), m.to());
        let Some(mover) = pos.piece_at(from) else { return false };
        let mut swap = victim_value(pos, m, values) - threshold;
        if swap < 0 {
            return false;
        }
        swap = values[mover.kind().index()] - swap;
        if swap <= 0 {
            return true;
        }
        let mut occ = pos.occupied().without(from).with(to);
        let mut occ_t = (pos.occupied_transposed() & !transposed_bit(from)) | transposed_bit(to);
        let mut side = mover.color();
        let mut res = 1;
        loop {
            side = !side;
            let ours = attackers(pos, to, side, occ, occ_t);
            if ours.is_empty() {
                break;
            }
            res ^= 1;
            let Some((kind, sq)) =
                CHEAPEST_FIRST.iter().find_map(|&k| (ours & pos.pieces(side, k)).lsb().map(|s| (k, s)))
            else {
                break;
            };
            if kind == PieceKind::King {
                if attackers(pos, to, !side, occ, occ_t).nonempty() {
                    res ^= 1;
                }
                break;
            }
            swap = values[kind.index()] - swap;
            if swap < res {
                break;
            }
            occ = occ.without(sq);
            occ_t &= !transposed_bit(sq);
        }
        res == 1
    }

    #[test]
    fn agrees_with_the_reference_over_random_games() {
        let mut rng = crate::random::Rng::from_state(0x9e37_79b9_7f4a_7c15u64);
        let mut next = move || rng.next_u64();
        let mut checked = 0u64;
        // Built once: the default parameters are not free to build, and this loop asks 4 million times.
        let values = values();
        crate::random::walk_games(60, 160, |pos, moves| {
            for &m in moves.iter() {
                for threshold in [-800, -400, -90, -1, 0, 1, 90, 160, 400, 420, 800] {
                    assert_eq!(
                        see_ge(pos, m, threshold, &values),
                        see_ge_reference(pos, m, threshold, &values),
                        "{m} at {threshold} in {pos:?}"
                    );
                    checked += 1;
                }
            }
            moves[(next() % moves.len() as u64) as usize]
        });
        assert!(checked > 100_000, "{checked}");
    }

    fn see_of(fen: &str, mv: &str) -> (Position, Move) {
        let pos = Position::from_fen(fen).expect("valid fen");
        let m = pos.parse_move(mv).expect("legal move");
        (pos, m)
    }

    /// Asserts the exact exchange value of `mv` in `fen`.
    fn assert_see(fen: &str, mv: &str, expected: i32) {
        let (pos, m) = see_of(fen, mv);
        assert_eq!(see_value(&pos, m), expected, "{mv} in {fen}");
    }

    /// The exact exchange value, by bisection over `see_ge`.
    fn see_value(pos: &Position, m: Move) -> i32 {
        let (mut lo, mut hi) = (-20_000i32, 20_000i32);
        while lo < hi {
            let mid = (lo + hi + 1).div_euclid(2);
            if see_ge(pos, m, mid, &values()) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        lo
    }

    #[test]
    fn free_piece_and_defended_piece() {
        // Red rook takes an undefended black horse.
        assert_see("4k4/9/9/9/4n4/9/9/9/9/4RK3 w - - 0 1", "e0e5", value(PieceKind::Horse));
        // The horse is defended by a black rook behind it: the rook is lost for the horse.
        assert_see(
            "4k4/4r4/9/9/4n4/9/9/9/9/4RK3 w - - 0 1",
            "e0e5",
            value(PieceKind::Horse) - value(PieceKind::Rook),
        );
    }

    #[test]
    fn cannon_xray_through_the_capturer() {
        // Red rook takes a pawn on e5; a black cannon on e7 sees e5 over the red pawn on e6, so the rook is lost;
        // with the cannon on e8 and nothing between, it has no screen and the pawn is free.
        assert_see(
            "3k5/9/4c4/4P4/4p4/9/9/9/9/4RK3 w - - 0 1",
            "e0e5",
            value(PieceKind::Pawn) - value(PieceKind::Rook),
        );
        assert_see("3k5/4c4/9/9/4p4/9/9/9/9/4RK3 w - - 0 1", "e0e5", value(PieceKind::Pawn));
    }

    #[test]
    fn cannon_capture_uses_the_rook_behind_as_recapture() {
        // Red cannon e2 takes the horse on e6 over the pawn on e4; black rook e9 recaptures; red rook e0 has
        // the cannon's old screen (the pawn on e4) in its way, so it cannot take back.
        assert_see(
            "3kr4/9/9/4n4/9/4p4/9/4C4/9/4RK3 w - - 0 1",
            "e2e6",
            value(PieceKind::Horse) - value(PieceKind::Cannon),
        );
    }

    #[test]
    fn king_recaptures_only_when_safe() {
        // Red rook takes a black advisor next to the king: the king recaptures (nothing else defends).
        assert_see(
            "4k4/4a4/9/9/9/9/9/9/9/4RK3 w - - 0 1",
            "e0e8",
            value(PieceKind::Advisor) - value(PieceKind::Rook),
        );
        // With a red rook behind on the file, the king cannot take back.
        assert_see("4k4/4a4/9/9/9/9/9/4R4/9/4RK3 w - - 0 1", "e2e8", value(PieceKind::Advisor));
    }

    #[test]
    fn quiet_moves_to_attacked_squares() {
        // A red horse stepping where a black pawn takes it loses the horse.
        let (pos, m) = see_of("4k4/9/9/4p4/9/9/3N5/9/9/5K3 w - - 0 1", "d3e5");
        assert!(!see_ge(&pos, m, 0, &values()));
        let horse = value(PieceKind::Horse);
        assert!(see_ge(&pos, m, -horse, &values()));
        assert!(!see_ge(&pos, m, -horse + 1, &values()));
    }
}
