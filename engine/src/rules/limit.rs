//! The natural move limit (自然限着, docs/rules.md, art. 4.2.4 and 23.3).
//!
//! The game is drawn after 60 rounds (120 plies) in a row without a capture. When a player claims this
//! draw, "of the claimant's checks against the other side, at most 10 are counted" (art. 23.3): a side
//! cannot reach the limit by checking. The referee lets either side be the claimant, so exactly what we
//! count is:
//!
//! * the plies since the last capture (a start position's FEN counter counts as capture-free plies with
//!   no checks among them, since the FEN does not say);
//! * for a claimant X, every ply counts except X's checks beyond its tenth in that stretch;
//! * the game is drawn once the count reaches 120 for either claimant, i.e. for the side that checked
//!   less. The other side's checks always count in full for the claimant.

use crate::types::Color;

/// Plies without a capture that draw the game (60 rounds).
pub const NATURAL_LIMIT_PLIES: u32 = 120;

/// Of the claimant's checks, at most this many count towards the limit (art. 23.3).
pub const COUNTED_CHECKS: u32 = 10;

/// The capture-free stretch of a game: its length and each side's checks within it, and the limit that
/// draws it (120 plies unless an event chose another, [`MoveLimit::with_limit`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MoveLimit {
    plies: u32,
    checks: [u32; 2],
    /// Counted plies that draw the game; 0: no limit.
    limit: u32,
}

impl Default for MoveLimit {
    fn default() -> Self {
        MoveLimit { plies: 0, checks: [0; 2], limit: NATURAL_LIMIT_PLIES }
    }
}

impl MoveLimit {
    /// A stretch that already has `plies` capture-free plies (from a FEN counter), with no known checks.
    pub fn starting_at(plies: u32) -> MoveLimit {
        MoveLimit { plies, ..MoveLimit::default() }
    }

    /// The same stretch judged against another limit in plies (an event's own number, art. 4.2.4); 0:
    /// no limit. The check counting of art. 23.3 applies to any limit.
    pub fn with_limit(self, limit_plies: u32) -> MoveLimit {
        MoveLimit { limit: limit_plies, ..self }
    }

    /// Records a ply by `mover`: a capture starts a new stretch, a check is noted against the mover.
    pub fn record(&mut self, mover: Color, capture: bool, check: bool) {
        if capture {
            *self = MoveLimit { limit: self.limit, ..MoveLimit::default() };
        } else {
            self.plies += 1;
            if check {
                self.checks[mover.index()] += 1;
            }
        }
    }

    /// Plies since the last capture, every one counted.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Checks `side` gave since the last capture.
    pub fn checks(&self, side: Color) -> u32 {
        self.checks[side.index()]
    }

    /// The count a claim by `claimant` is judged on: all plies but the claimant's checks past its tenth.
    pub fn counted_for(&self, claimant: Color) -> u32 {
        self.plies - self.checks[claimant.index()].saturating_sub(COUNTED_CHECKS)
    }

    /// The best count either side could claim with.
    pub fn counted(&self) -> u32 {
        self.counted_for(Color::Red).max(self.counted_for(Color::Black))
    }

    /// Whether the natural limit is reached.
    pub fn reached(&self) -> bool {
        self.limit != 0 && self.counted() >= self.limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quiet_plies_reach_the_limit_at_120() {
        let mut l = MoveLimit::default();
        for i in 0..119 {
            l.record(if i % 2 == 0 { Color::Red } else { Color::Black }, false, false);
        }
        assert!(!l.reached());
        l.record(Color::Black, false, false);
        assert!(l.reached());
    }

    #[test]
    fn a_capture_restarts_the_count() {
        let mut l = MoveLimit::starting_at(100);
        l.record(Color::Red, true, false);
        assert_eq!(l.plies(), 0);
    }

    #[test]
    fn checks_past_the_tenth_do_not_count_for_the_checker_but_do_for_the_other() {
        let mut l = MoveLimit::default();
        // Red checks on 30 of its 60 moves; Black never checks.
        for i in 0..120 {
            let mover = if i % 2 == 0 { Color::Red } else { Color::Black };
            l.record(mover, false, mover == Color::Red && i % 4 == 0);
        }
        assert_eq!(l.checks(Color::Red), 30);
        assert_eq!(l.counted_for(Color::Red), 100);
        // Black claims: Black gave no checks, so all 120 count.
        assert_eq!(l.counted_for(Color::Black), 120);
        assert!(l.reached());
    }

    #[test]
    fn both_sides_checking_delays_the_limit() {
        let mut l = MoveLimit::default();
        for i in 0..120 {
            let mover = if i % 2 == 0 { Color::Red } else { Color::Black };
            l.record(mover, false, i < 40);
        }
        // 20 checks each: 10 of each claimant's own do not count.
        assert_eq!(l.counted(), 110);
        assert!(!l.reached());
    }

    #[test]
    fn an_event_limit_replaces_the_sixty_moves_and_zero_means_none() {
        let mut l = MoveLimit::default().with_limit(80);
        for i in 0..80 {
            l.record(if i % 2 == 0 { Color::Red } else { Color::Black }, false, false);
        }
        assert!(l.reached());
        l.record(Color::Red, true, false);
        assert_eq!((l.plies(), l.reached()), (0, false));
        let mut none = MoveLimit::starting_at(500).with_limit(0);
        none.record(Color::Red, false, false);
        assert!(!none.reached());
    }
}
