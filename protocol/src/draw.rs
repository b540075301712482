//! UCCI draw offers and resignation: what to add after `bestmove` (`draw` or `resign`).
//!
//! Rules, each behind its option:
//! - accept an offer (`acceptdraw`) when the position is a dead draw or we are worse by at least
//!   [`WORSE_CP`];
//! - offer one (`offerdraw`) when the position is dead even: neither side has a piece that can cross the
//!   river (only kings, advisors and elephants are left), or the search scores it exactly 0 (its draw
//!   score) after [`QUIET_PLIES`] plies without a capture;
//! - resign (`resign`) when the search has proved a mate against us.
//!
//! An offer is answered before resigning: a draw is better than a loss.

use engine::search::{Score, MATE_BOUND};
use engine::{Color, PieceKind, Position};

/// We are "worse" (and accept a draw) at this many centipawns below zero.
pub const WORSE_CP: i32 = 20;
/// A zero score counts as a dead draw only after this many plies without a capture.
pub const QUIET_PLIES: u32 = 60;

/// What follows the move in UCCI's `bestmove`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Nothing.
    Play,
    /// `draw`: accept the opponent's offer, or offer one.
    Draw,
    /// `resign`.
    Resign,
}

/// Which of the three behaviours are switched on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DrawPolicy {
    /// Accept offers.
    pub accept: bool,
    /// Make offers.
    pub offer: bool,
    /// Resign lost positions.
    pub resign: bool,
}

/// Whether neither side has a piece that could ever give mate.
pub fn no_attackers(pos: &Position) -> bool {
    [Color::Red, Color::Black].iter().all(|&c| {
        [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon, PieceKind::Pawn]
            .iter()
            .all(|&k| pos.pieces(c, k).is_empty())
    })
}

/// Whether the position is dead even: nobody can win, or the search says draw and nothing happens.
pub fn dead_even(pos: &Position, score: i32) -> bool {
    no_attackers(pos) || (score == 0 && pos.halfmove_clock() >= QUIET_PLIES)
}

/// The verdict for the root position `pos`, given the search's internal `score` for the mover and whether
/// the opponent offered a draw.
pub fn verdict(policy: DrawPolicy, pos: &Position, score: i32, offered: bool) -> Verdict {
    let worse = match Score::from_internal(score) {
        Score::Cp(cp) => cp <= -WORSE_CP,
        Score::Mate(n) => n < 0,
    };
    if offered && policy.accept && (dead_even(pos, score) || worse) {
        return Verdict::Draw;
    }
    if policy.resign && score <= -MATE_BOUND {
        return Verdict::Resign;
    }
    if policy.offer && dead_even(pos, score) {
        return Verdict::Draw;
    }
    Verdict::Play
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::search::MATE;

    const ALL: DrawPolicy = DrawPolicy { accept: true, offer: true, resign: true };
    const NONE: DrawPolicy = DrawPolicy { accept: false, offer: false, resign: false };

    fn bare() -> Position {
        Position::from_fen("3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w - - 0 1").unwrap()
    }

    #[test]
    fn accepts_when_worse_or_dead_not_when_better() {
        let start = Position::startpos();
        assert_eq!(verdict(ALL, &start, -200, true), Verdict::Draw);
        assert_eq!(verdict(ALL, &start, 200, true), Verdict::Play);
        assert_eq!(verdict(ALL, &start, 0, true), Verdict::Play, "level at move one is no dead draw");
        assert_eq!(verdict(ALL, &bare(), 40, true), Verdict::Draw);
        assert_eq!(verdict(NONE, &start, -200, true), Verdict::Play);
    }

    #[test]
    fn offers_only_dead_even() {
        assert!(no_attackers(&bare()));
        assert!(!no_attackers(&Position::startpos()));
        assert_eq!(verdict(ALL, &bare(), 0, false), Verdict::Draw);
        assert_eq!(verdict(ALL, &Position::startpos(), 0, false), Verdict::Play);
        let quiet =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 80 41")
                .unwrap();
        assert_eq!(verdict(ALL, &quiet, 0, false), Verdict::Draw);
        assert_eq!(verdict(ALL, &quiet, 4, false), Verdict::Play);
        assert_eq!(verdict(NONE, &bare(), 0, false), Verdict::Play);
    }

    #[test]
    fn resigns_only_when_mated_and_prefers_a_draw() {
        let start = Position::startpos();
        assert_eq!(verdict(ALL, &start, -MATE + 5, false), Verdict::Resign);
        assert_eq!(verdict(ALL, &start, -MATE + 5, true), Verdict::Draw);
        assert_eq!(verdict(ALL, &start, -3000, false), Verdict::Play);
        assert_eq!(verdict(NONE, &start, -MATE + 5, false), Verdict::Play);
    }
}
