//! Mates by a series of checks, for the mate threat (杀, docs/rules.md, art. 28.2: "a move that means to
//! mate next move by a check or by consecutive checks") and for "a capture that is mated at once is no
//! chase" (art. 29.4).
//!
//! **Approximation:** the series of checks is searched to [`THREAT_CHECKS`] checking moves of the attacker
//! and within [`NODE_BUDGET`] nodes; a mate found deeper, or one the budget cuts off, is not seen, so such a
//! move is judged by its next heaviest effect.

use crate::movegen::{GenType, MoveList};
use crate::position::Position;

/// The longest series of checks searched for a mate threat (attacker moves; 2*N-1 plies).
pub const THREAT_CHECKS: u32 = 5;

/// Nodes one mate-threat question may visit before it answers "no mate found".
pub const NODE_BUDGET: u64 = 200_000;

/// Whether the side to move can mate by checking on every move, in at most `max_checks` of its moves.
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

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).expect("valid test FEN")
    }

    #[test]
    fn finds_a_mate_in_one() {
        // Rook a1-a9 mates: the pawn on c8 covers d8, the red king covers the e-file.
        let mut p = pos("3k5/2P6/9/9/9/9/9/9/R8/4K4 w - - 0 1");
        let mut budget = NODE_BUDGET;
        assert!(mate_by_checks(&mut p, 1, &mut budget));
        assert_eq!(p.to_fen(), "3k5/2P6/9/9/9/9/9/9/R8/4K4 w - - 0 1");
    }

    #[test]
    fn approximation_the_series_of_checks_is_bounded() {
        // Two checks mate (a1-a8 drives the king to d9, b7-b9 mates; the pawn on d4 shuts the d-file);
        // with a bound of one check the mate
        // is not seen. The referee searches THREAT_CHECKS checks: longer mates are missed.
        let mut p = pos("9/3k5/1R7/9/9/3p5/9/9/R8/4K4 w - - 0 1");
        let mut budget = NODE_BUDGET;
        assert!(!mate_by_checks(&mut p, 1, &mut budget));
        let mut budget = NODE_BUDGET;
        assert!(mate_by_checks(&mut p, 2, &mut budget));
    }

    #[test]
    fn no_mate_for_a_lone_rook_against_a_free_king() {
        let mut p = pos("4k4/9/9/9/9/9/9/9/9/3K2R2 w - - 0 1");
        let mut budget = NODE_BUDGET;
        assert!(!mate_by_checks(&mut p, 3, &mut budget));
    }
}
