//! One side's game clock, kept by the runner (engines are told their time but never trusted with it).

use super::config::TimeControl;

/// A side's clock under a time control.
#[derive(Clone, Debug)]
pub struct Clock {
    tc: TimeControl,
    /// Milliseconds left; may dip below zero by up to the forfeit margin.
    remaining_ms: i64,
    /// Moves left in the current period (`None` for sudden death).
    moves_left: Option<u32>,
}

/// The side overran its time by more than the margin.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Overrun {
    /// Milliseconds the move took.
    pub used_ms: u64,
    /// Milliseconds that were on the clock.
    pub had_ms: i64,
}

impl Clock {
    /// A fresh clock at the start of a game.
    pub fn new(tc: TimeControl) -> Clock {
        Clock { tc, remaining_ms: tc.base_ms as i64, moves_left: tc.moves }
    }

    /// Milliseconds to report to the engine (never negative; 1 rather than 0 so no engine divides by zero).
    pub fn remaining_ms(&self) -> u64 {
        self.remaining_ms.max(1) as u64
    }

    /// The increment in milliseconds.
    pub fn increment_ms(&self) -> u64 {
        self.tc.increment_ms
    }

    /// Moves until the next time control, if the control has periods.
    pub fn movestogo(&self) -> Option<u32> {
        self.moves_left
    }

    /// How long the current move may take before it forfeits, given the margin.
    pub fn allowance_ms(&self, margin_ms: u64) -> u64 {
        (self.remaining_ms + margin_ms as i64).max(0) as u64
    }

    /// Charges a move that took `used_ms`: forfeits if it overran by more than the margin; otherwise adds the
    /// increment and, at the end of a period, the next period's time.
    pub fn charge(&mut self, used_ms: u64, margin_ms: u64) -> Result<(), Overrun> {
        if used_ms > self.allowance_ms(margin_ms) {
            return Err(Overrun { used_ms, had_ms: self.remaining_ms });
        }
        self.remaining_ms -= used_ms as i64;
        self.remaining_ms += self.tc.increment_ms as i64;
        if let Some(left) = self.moves_left.as_mut() {
            *left -= 1;
            if *left == 0 {
                *left = self.tc.moves.unwrap_or(1);
                self.remaining_ms += self.tc.base_ms as i64;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn increment_is_added_after_each_move() {
        let mut c = Clock::new(TimeControl { base_ms: 1000, increment_ms: 100, moves: None });
        assert_eq!(c.charge(300, 100), Ok(()));
        assert_eq!(c.remaining_ms(), 800);
        assert_eq!(c.movestogo(), None);
    }

    #[test]
    fn overrunning_by_more_than_the_margin_forfeits() {
        let mut c = Clock::new(TimeControl { base_ms: 1000, increment_ms: 0, moves: None });
        assert_eq!(c.charge(1050, 100), Ok(()), "within the margin");
        assert_eq!(c.remaining_ms(), 1, "reported time never drops to zero");
        assert_eq!(c.allowance_ms(100), 50);
        assert_eq!(c.charge(51, 100), Err(Overrun { used_ms: 51, had_ms: -50 }));
    }

    #[test]
    fn periods_refill_after_their_moves() {
        let mut c = Clock::new(TimeControl { base_ms: 1000, increment_ms: 0, moves: Some(2) });
        assert_eq!(c.movestogo(), Some(2));
        c.charge(400, 0).unwrap();
        assert_eq!((c.remaining_ms(), c.movestogo()), (600, Some(1)));
        c.charge(400, 0).unwrap();
        assert_eq!((c.remaining_ms(), c.movestogo()), (1200, Some(2)));
    }
}
