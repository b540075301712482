//! Which compiled copy of the evaluation this CPU can run, detected once.
//!
//! The binary targets baseline x86-64, which lacks the instructions the evaluation leans on (POPCNT for
//! counting sets, BMI1/BMI2/LZCNT for finding and clearing bits and for shifts). [`crate::Evaluator`]
//! carries copies compiled with them and picks one per call from [`level`]: one relaxed load of a byte,
//! cheaper than asking the standard library for each feature in turn.

use std::sync::atomic::{AtomicU8, Ordering};

/// The instruction sets usable on this CPU, in increasing order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Baseline x86-64 (or another architecture).
    Baseline = 1,
    /// POPCNT.
    Popcnt = 2,
    /// POPCNT, BMI1, BMI2 and LZCNT (Haswell and Zen on).
    Bmi = 3,
}

/// The detected level, or 0 before the first call.
static LEVEL: AtomicU8 = AtomicU8::new(0);

/// The instruction sets usable on this CPU.
#[inline(always)]
pub fn level() -> Level {
    match LEVEL.load(Ordering::Relaxed) {
        3 => Level::Bmi,
        2 => Level::Popcnt,
        1 => Level::Baseline,
        _ => detect(),
    }
}

#[cold]
#[inline(never)]
fn detect() -> Level {
    let level = detected();
    LEVEL.store(level as u8, Ordering::Relaxed);
    level
}

#[cfg(target_arch = "x86_64")]
fn detected() -> Level {
    use std::arch::is_x86_feature_detected as has;
    if has!("popcnt") && has!("bmi1") && has!("bmi2") && has!("lzcnt") {
        Level::Bmi
    } else if has!("popcnt") {
        Level::Popcnt
    } else {
        Level::Baseline
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn detected() -> Level {
    Level::Baseline
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_is_detected_once_and_stays() {
        let first = level();
        assert_eq!(level(), first);
        assert_eq!(LEVEL.load(Ordering::Relaxed), first as u8);
    }
}
