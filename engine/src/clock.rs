//! The one place that reads the time. Everything that measures a search (time limits, `nps`, bench) asks
//! [`Instant::now`] here instead of `std::time::Instant`.
//!
//! Why: on `wasm32-unknown-unknown` the standard library has no clock at all (`std::time::Instant::now`
//! and `SystemTime::now` panic), so the browser build's host hands in its own millisecond clock
//! (`performance.now()`) with [`set_source`]. Native builds use the standard monotonic clock and never
//! look at the source. Until a source is set the wasm clock stands still at zero, which only fixed-depth
//! and fixed-node searches survive; the web crate sets it before the first command. The browser's
//! threaded build (`wasm32-wasip1-threads`) has the standard clock, from its host's `clock_time_get`.

use std::ops::Sub;
use std::time::Duration;

/// A point in time, comparable with another from the same process.
#[derive(Copy, Clone, Debug, PartialEq, PartialOrd)]
pub struct Instant(Inner);

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
type Inner = std::time::Instant;

/// Milliseconds from the source's own origin.
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
type Inner = f64;

impl Instant {
    /// Now.
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    pub fn now() -> Instant {
        Instant(std::time::Instant::now())
    }

    /// Now, from the source the host set (zero when none is set).
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    pub fn now() -> Instant {
        Instant(source::now_ms())
    }

    /// The time since this instant (zero if the clock went backwards).
    pub fn elapsed(&self) -> Duration {
        Instant::now() - *self
    }
}

impl Sub for Instant {
    type Output = Duration;

    /// The time from `earlier` to `self`, zero when `earlier` is later.
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    fn sub(self, earlier: Instant) -> Duration {
        self.0.saturating_duration_since(earlier.0)
    }

    /// The time from `earlier` to `self`, zero when `earlier` is later.
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    fn sub(self, earlier: Instant) -> Duration {
        let ms = self.0 - earlier.0;
        if ms.is_finite() && ms > 0.0 {
            Duration::from_secs_f64(ms / 1000.0)
        } else {
            Duration::ZERO
        }
    }
}

/// Some nanoseconds that differ from run to run, for seeding play that should vary between games (not a
/// calendar time on every platform).
pub fn seed_nanos() -> u64 {
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    }
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    {
        (source::now_ms() * 1e6) as u64
    }
}

/// Sets the millisecond clock (monotonic, any origin) that the wasm build reads; the first call wins.
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub fn set_source(now_ms: fn() -> f64) {
    source::set(now_ms);
}

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod source {
    use std::sync::OnceLock;

    static SOURCE: OnceLock<fn() -> f64> = OnceLock::new();

    pub(super) fn set(now_ms: fn() -> f64) {
        let _ = SOURCE.set(now_ms);
    }

    pub(super) fn now_ms() -> f64 {
        SOURCE.get().map_or(0.0, |f| f())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_moves_forward_and_never_back() {
        let a = Instant::now();
        let b = Instant::now();
        assert_eq!(a - b, Duration::ZERO, "earlier minus later saturates");
        assert!(b.elapsed() < Duration::from_secs(60));
        assert!(seed_nanos() > 0);
    }
}
