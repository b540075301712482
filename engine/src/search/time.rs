//! Time management: how long to think on this move, from the limits the GUI sent.
//!
//! Two budgets: the soft (optimum) time, after which no new iteration starts (the search scales it by how
//! stable the best move and score are), and the hard time, after which the search stops at once. The hard
//! time always leaves the move overhead and a reserve on the clock, so the engine never loses on time.

use super::params::SearchParams;
use super::Limits;
use std::time::Duration;

/// The thinking budget for one move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeManager {
    /// Optimum time: stop iterating after it (before scaling by stability); `None` = no time limit.
    pub soft: Option<Duration>,
    /// Maximum time: stop searching at once; `None` = no time limit.
    pub hard: Option<Duration>,
    /// Largest factor, in percent, by which instability stretches the soft time.
    pub max_stretch_percent: u32,
}

/// Moves-to-go assumed for sudden death: many early in the game, fewer (but never too few) later.
fn default_moves_to_go(move_number: u32, params: &SearchParams) -> u64 {
    let base = params.time_moves_to_go.max(1) as u64;
    base.saturating_sub(move_number as u64 / 2).max(params.time_moves_to_go_min.max(1) as u64)
}

impl TimeManager {
    /// The budget for a search with `limits`, at game move `move_number` (1-based), keeping `overhead_ms`
    /// per move in reserve for the GUI and the pipes; the factors come from `params`.
    pub fn new(limits: &Limits, move_number: u32, overhead_ms: u64, params: &SearchParams) -> TimeManager {
        let max_stretch_percent = params.time_max_stretch_percent.max(100) as u32;
        if limits.infinite {
            return TimeManager { soft: None, hard: None, max_stretch_percent };
        }
        let mut soft: Option<u64> = None;
        let mut hard: Option<u64> = None;
        if let Some(t) = limits.movetime {
            let think = t.saturating_sub(overhead_ms).max(t / 2).max(1);
            soft = Some(think);
            hard = Some(think);
        }
        if let Some(c) = limits.clock {
            let (s, h) =
                clock_budget(c.remaining_ms, c.increment_ms, c.movestogo, move_number, overhead_ms, params);
            soft = Some(soft.map_or(s, |x| x.min(s)));
            hard = Some(hard.map_or(h, |x| x.min(h)));
        }
        TimeManager {
            soft: soft.map(Duration::from_millis),
            hard: hard.map(Duration::from_millis),
            max_stretch_percent,
        }
    }

    /// The soft time stretched by `factor` (never past the hard time).
    pub fn scaled_soft(&self, factor: f64) -> Option<Duration> {
        let soft = self.soft?.mul_f64(factor.clamp(0.1, self.max_stretch_percent as f64 / 100.0));
        Some(match self.hard {
            Some(h) => soft.min(h),
            None => soft,
        })
    }
}

/// (soft, hard) in milliseconds for a clock of `remaining` with `increment` per move.
fn clock_budget(
    remaining: u64,
    increment: u64,
    movestogo: Option<u32>,
    move_number: u32,
    overhead: u64,
    params: &SearchParams,
) -> (u64, u64) {
    let usable = remaining.saturating_sub(overhead);
    if usable == 0 {
        // Below the overhead already: answer almost at once.
        let h = (remaining / 5).max(1);
        return ((h / 2).max(1), h);
    }
    let mtg = movestogo.map_or_else(|| default_moves_to_go(move_number, params), |m| m.clamp(1, 80) as u64);
    // What this and the next mtg-1 moves can spend, each paying the overhead.
    let total = (usable + increment * (mtg - 1)).saturating_sub(overhead * (mtg - 1));
    let optimum = (total / mtg).max(1);
    // Keep a reserve: the last move before a control may use most of the clock, otherwise at most half.
    let percent = |p: i32| p.clamp(1, 80) as f64 / 100.0;
    let (soft_cap, hard_cap) = if mtg == 1 {
        (0.5, 0.8)
    } else {
        (percent(params.time_soft_cap_percent), percent(params.time_hard_cap_percent))
    };
    let hard_factor = params.time_hard_percent.max(100) as f64 / 100.0;
    let hard = (optimum as f64 * hard_factor).min(usable as f64 * hard_cap).max(1.0) as u64;
    let soft = (optimum as f64).min(usable as f64 * soft_cap).min(hard as f64).max(1.0) as u64;
    (soft, hard)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Clock;
    use std::sync::LazyLock;

    static P: LazyLock<SearchParams> = LazyLock::new(SearchParams::default);

    fn clock(remaining_ms: u64, increment_ms: u64, movestogo: Option<u32>) -> Limits {
        Limits { clock: Some(Clock { remaining_ms, increment_ms, movestogo }), ..Default::default() }
    }

    fn ms(d: Option<Duration>) -> u64 {
        d.map_or(u64::MAX, |d| d.as_millis() as u64)
    }

    #[test]
    fn no_time_limits() {
        let tm = TimeManager::new(&Limits { depth: Some(5), ..Default::default() }, 1, 30, &P);
        assert_eq!((tm.soft, tm.hard), (None, None));
        let tm = TimeManager::new(&Limits { infinite: true, ..clock(1000, 0, None) }, 1, 30, &P);
        assert_eq!(tm.hard, None);
    }

    #[test]
    fn movetime_is_spent_minus_overhead() {
        let tm = TimeManager::new(&Limits { movetime: Some(1000), ..Default::default() }, 1, 30, &P);
        assert_eq!((ms(tm.soft), ms(tm.hard)), (970, 970));
        // An overhead larger than the time still leaves half of it.
        let tm = TimeManager::new(&Limits { movetime: Some(20), ..Default::default() }, 1, 30, &P);
        assert_eq!(ms(tm.hard), 10);
    }

    #[test]
    fn sudden_death_spreads_the_clock() {
        let tm = TimeManager::new(&clock(60_000, 0, None), 1, 30, &P);
        let (soft, hard) = (ms(tm.soft), ms(tm.hard));
        assert!((1000..=2000).contains(&soft), "{soft}");
        assert!(hard >= 3 * soft && hard <= 30_000, "{hard}");
        // Later in the game a bigger share of what is left.
        let late = TimeManager::new(&clock(60_000, 0, None), 80, 30, &P);
        assert!(ms(late.soft) > soft);
    }

    #[test]
    fn increment_is_mostly_spent() {
        let tm = TimeManager::new(&clock(10_000, 2_000, None), 30, 30, &P);
        let soft = ms(tm.soft);
        assert!((2_000..=4_000).contains(&soft), "{soft}");
        assert!(ms(tm.hard) <= 5_000);
    }

    #[test]
    fn moves_to_go_competition_controls() {
        // 40 moves in 90 minutes, first move.
        let tm = TimeManager::new(&clock(90 * 60_000, 0, Some(40)), 1, 30, &P);
        let soft = ms(tm.soft);
        assert!((100_000..=140_000).contains(&soft), "{soft}");
        // Then 10 moves in 15 minutes.
        let tm = TimeManager::new(&clock(15 * 60_000, 0, Some(10)), 41, 30, &P);
        assert!((80_000..=95_000).contains(&ms(tm.soft)));
        // The last move before the control may use a good part of the clock but never all of it.
        let tm = TimeManager::new(&clock(20_000, 0, Some(1)), 40, 30, &P);
        assert!(ms(tm.soft) >= 8_000);
        assert!(ms(tm.hard) <= 16_000);
    }

    #[test]
    fn hard_limit_always_leaves_time_on_the_clock() {
        for remaining in [0u64, 1, 10, 29, 30, 31, 100, 500, 1_000, 5_000, 60_000, 600_000, 10_000_000] {
            for inc in [0u64, 100, 1_000, 10_000] {
                for mtg in [None, Some(1), Some(2), Some(5), Some(40)] {
                    for move_number in [1, 20, 100] {
                        let tm = TimeManager::new(&clock(remaining, inc, mtg), move_number, 30, &P);
                        let (soft, hard) = (ms(tm.soft), ms(tm.hard));
                        assert!(soft >= 1 && soft <= hard, "{remaining} {inc} {mtg:?}: {soft} {hard}");
                        if remaining > 30 {
                            assert!(hard + 30 <= remaining, "{remaining} {inc} {mtg:?}: hard {hard}");
                            assert!(hard <= ((remaining - 30) * 8 / 10).max(1));
                        } else {
                            assert!(hard <= remaining.max(1));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn stretching_stays_under_the_hard_limit() {
        let tm = TimeManager::new(&clock(60_000, 0, None), 1, 30, &P);
        assert!(tm.scaled_soft(10.0) <= tm.hard);
        assert!(tm.scaled_soft(0.5) < tm.soft);
    }

    /// The clock after a whole game on a slow machine, or `None` if it ran out: every move runs to its hard
    /// limit (the worst case) and then `lag_ms` more (a loaded machine answers late: the poll interval
    /// stretches, the process waits for a core, the pipes are slow), and the increment is added after it.
    /// A control of `movestogo` moves adds `base_ms` again when it is reached.
    fn clock_after(
        base_ms: u64,
        inc_ms: u64,
        movestogo: Option<u32>,
        lag_ms: u64,
        moves: u32,
    ) -> Option<i64> {
        let mut remaining = base_ms as i64;
        let mut to_go = movestogo;
        for move_number in 1..=moves {
            let limits = clock(remaining.max(0) as u64, inc_ms, to_go);
            let tm = TimeManager::new(&limits, move_number, 30, &P);
            remaining -= ms(tm.hard) as i64 + lag_ms as i64;
            if remaining < 0 {
                return None;
            }
            remaining += inc_ms as i64;
            if let (Some(n), Some(total)) = (to_go, movestogo) {
                to_go = Some(if n == 1 { total } else { n - 1 });
                if n == 1 {
                    remaining += base_ms as i64;
                }
            }
        }
        Some(remaining)
    }

    #[test]
    fn a_slow_machine_does_not_lose_on_time() {
        // With an increment, a lag per move is survivable for ever as long as it is below the increment
        // and at most (overhead + increment) / 2: the hard limit is half of what is left above the overhead, so late
        // in a long game the clock settles at overhead + 2 × (increment - lag) before a move, and that
        // move's hard limit (increment - lag) and lag must fit in it. 2+0.05 is the control where a loaded run once forfeited; here every
        // move takes its whole hard limit and then the lag, for 300 moves. A machine that lags more
        // needs a larger MoveOverhead, which the settling point grows with.
        for (base, inc, lag) in [(2_000, 50, 40), (5_000, 50, 40), (10_000, 100, 65), (1_000, 10, 5)] {
            let left = clock_after(base, inc, None, lag, 300);
            assert!(left.is_some(), "{base}+{inc} with {lag} ms lag: lost on time");
        }
        // Without an increment a lag must eventually lose, but a lag within the overhead (what the
        // MoveOverhead option is for) not within a long game: 120 moves at 60+0 with 5 ms, 200 moves of
        // 40 moves in 60 s with 20 ms. (With every move at its hard limit the clock reaches a control with
        // little more than one overhead per move still to play in reserve, so there a lag of the whole
        // overhead on every move is too much; real searches mostly stop at the optimum.)
        assert!(clock_after(60_000, 0, None, 5, 120).is_some());
        assert!(clock_after(60_000, 0, Some(40), 20, 200).is_some());
        // A lag far beyond increment and overhead cannot be absorbed by any budget: the check can fail.
        assert!(clock_after(2_000, 50, None, 200, 300).is_none());
    }

    #[test]
    fn the_time_factors_are_parameters() {
        let mut p = SearchParams::default();
        let base = TimeManager::new(&clock(60_000, 0, None), 1, 30, &p);
        assert_eq!(base.max_stretch_percent, 250);
        assert!(p.set("time_moves_to_go", 25));
        assert!(p.set("time_hard_percent", 200));
        assert!(p.set("time_max_stretch_percent", 150));
        let tm = TimeManager::new(&clock(60_000, 0, None), 1, 30, &p);
        assert!(tm.soft > base.soft, "fewer moves to go give more time a move");
        assert_eq!(tm.scaled_soft(10.0), tm.soft.map(|s| s.mul_f64(1.5).min(tm.hard.unwrap_or(s))));
        // The caps keep their guarantee whatever a tuner sets.
        for (name, value) in
            [("time_hard_cap_percent", 70), ("time_soft_cap_percent", 60), ("time_hard_percent", 700)]
        {
            assert!(p.set(name, value));
        }
        for remaining in [100u64, 1_000, 10_000] {
            let tm = TimeManager::new(&clock(remaining, 0, None), 1, 30, &p);
            assert!(ms(tm.hard) <= (remaining - 30) * 7 / 10, "{remaining}: {:?}", tm.hard);
        }
    }
}
