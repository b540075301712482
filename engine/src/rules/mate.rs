//! Mates by a series of checks, for the mate threat (杀, docs/rules.md, art. 28.2: "a move that means to
//! mate next move by a check or by consecutive checks") and for "a capture that is mated at once is no
//! chase" (art. 29.4).
//!
//! Stalemate loses like mate (docs/rules.md, art. 3.2 and 4.1.3), so a series of checks may also end
//! with a quiet move that leaves the defender no legal move: threatening that is a mate threat too.
//!
//! **Approximations:** the series of checks is searched to [`THREAT_CHECKS`] checking moves of the
//! attacker and within [`NODE_BUDGET`] nodes; a mate found deeper, or one the budget cuts off, is not
//! seen, so such a move is judged by its next heaviest effect. A stalemating quiet move is looked for
//! only where the defender, as things stand, has at most [`STALEMATE_MOBILITY`] legal moves.

use crate::movegen::{GenType, MoveList};
use crate::position::Position;

/// The longest series of checks searched for a mate threat (attacker moves; 2*N-1 plies). Art. 28.2 sets
/// no length; five is as far as a mate threat in a repetition cycle is realistically meant to reach.
pub const THREAT_CHECKS: u32 = 5;

/// Nodes one mate-threat question may visit before it answers "no mate found" (a few milliseconds): a
/// bound on the referee's time in positions full of checks.
pub const NODE_BUDGET: u64 = 200_000;

/// The most legal moves a defender may have for a quiet move to be tried as a stalemate: one quiet move
/// rarely takes away more, and trying every quiet move at every node would eat the node budget.
pub const STALEMATE_MOBILITY: u64 = 8;

/// Whether the side to move can mate by checking on every move (or stalemate at the end of the series), in at most `max_checks` of its moves.
/// Iterative deepening finds short mates first; `budget` bounds the work (a spent budget means "no").
pub fn mate_by_checks(pos: &mut Position, max_checks: u32, budget: &mut u64) -> bool {
    (1..=max_checks).any(|n| *budget > 0 && attack(pos, n, budget))
}

/// Whether the side to move could mate by checks if it were its turn again, right after the move that
/// produced `pos` (a null move for the side now to move). False when that side is in check.
pub fn threatens_mate(pos: &mut Position, max_checks: u32, budget: &mut u64) -> bool {
    if pos.in_check() {
        return false;
    }
    pos.make_null_move();
    let found = mate_by_checks(pos, max_checks, budget);
    pos.unmake_null_move();
    found
}

/// The attacker to move: some checking move after which every defence still loses.
fn attack(pos: &mut Position, checks_left: u32, budget: &mut u64) -> bool {
    let mut list = MoveList::new();
    pos.generate(GenType::All, &mut list);
    for &m in list.iter() {
        if !pos.gives_check(m) {
            continue;
        }
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        pos.make_move(m);
        let won = defend_fails(pos, checks_left - 1, budget);
        pos.unmake_move();
        if won {
            return true;
        }
    }
    stalemates(pos, &list, budget)
}

/// The attacker to move: some quiet move after which the defender has no legal move (art. 3.2).
fn stalemates(pos: &mut Position, list: &MoveList, budget: &mut u64) -> bool {
    if pos.in_check() {
        return false;
    }
    pos.make_null_move();
    let mobility = pos.count_legal();
    pos.unmake_null_move();
    if mobility > STALEMATE_MOBILITY {
        return false;
    }
    for &m in list.iter() {
        if pos.gives_check(m) {
            continue;
        }
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        pos.make_move(m);
        let stuck = !pos.has_legal_move();
        pos.unmake_move();
        if stuck {
            return true;
        }
    }
    false
}

/// The defender to move, in check: true if it has no move, or every move loses to further checks.
fn defend_fails(pos: &mut Position, checks_left: u32, budget: &mut u64) -> bool {
    let mut list = MoveList::new();
    pos.generate(GenType::All, &mut list);
    if list.is_empty() {
        return true;
    }
    if checks_left == 0 {
        return false;
    }
    for &m in list.iter() {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        pos.make_move(m);
        let lost = attack(pos, checks_left, budget);
        pos.unmake_move();
        if !lost {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`mate_by_checks`] with a fresh [`NODE_BUDGET`].
    fn mates(p: &mut Position, checks: u32) -> bool {
        let mut budget = NODE_BUDGET;
        mate_by_checks(p, checks, &mut budget)
    }

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).expect("valid test FEN")
    }

    #[test]
    fn finds_a_mate_in_one() {
        // Rook a1-a9 mates: the pawn on c8 covers d8, the red king covers the e-file.
        let mut p = pos("3k5/2P6/9/9/9/9/9/9/R8/4K4 w - - 0 1");
        assert!(mates(&mut p, 1));
        assert_eq!(p.to_fen(), "3k5/2P6/9/9/9/9/9/9/R8/4K4 w - - 0 1");
    }

    #[test]
    fn approximation_the_series_of_checks_is_bounded() {
        // Two checks mate (a1-a8 drives the king to d9, b7-b9 mates; the pawn on d4 shuts the d-file);
        // with a bound of one check the mate
        // is not seen. The referee searches THREAT_CHECKS checks: longer mates are missed.
        let mut p = pos("9/3k5/1R7/9/9/3p5/9/9/R8/4K4 w - - 0 1");
        assert!(!mates(&mut p, 1));
        assert!(mates(&mut p, 2));
    }

    #[test]
    fn a_quiet_move_that_stalemates_counts_as_a_mate() {
        // The black king on e9: d9 is covered by the pawn on c9, f9 by the rook on f0; e6-e7 takes e8
        // without checking, and stalemate loses (art. 3.2).
        let mut p = pos("2P1k4/9/9/4P4/9/9/9/9/4A4/3K1R3 w - - 0 1");
        assert!(mates(&mut p, 1));
        // With a black pawn free to move on a5 there is no stalemate.
        let mut p = pos("2P1k4/9/9/4P4/p8/9/9/9/4A4/3K1R3 w - - 0 1");
        assert!(!mates(&mut p, 1));
    }

    #[test]
    fn a_lone_rook_wins_a_bare_king_by_stalemate_not_by_checks() {
        // Checks alone never mate the bare king, but R-e0+ K-f9, R-e8 leaves it no move: found when
        // the series may hold two attacker moves, not one.
        let mut p = pos("4k4/9/9/9/9/9/9/9/9/3K2R2 w - - 0 1");
        assert!(!mates(&mut p, 1));
        assert!(mates(&mut p, 2));
    }
}
