//! `stop` and `ponderhit` for a search that its front door cannot reach while it runs.
//!
//! Natively the front door reads its input on another thread than the search and calls
//! [`SearchControl::stop`] itself. The browser build has one thread: the worker's message handler cannot
//! run until the search returns, so a `stop` posted to it would wait for the search it means to end. There
//! the host hands in a poll ([`set_source`]) that reads the lines the page marked urgent from memory the
//! page shares with the worker; the search calls it every few thousand nodes ([`check`]) and, while an
//! infinite or pondering search has nothing left to do but wait, between short waits ([`pause`]).

use super::SearchControl;
use std::time::Duration;

/// What the host asks of a running search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Interrupt {
    /// Nothing.
    None,
    /// `stop`: answer now.
    Stop,
    /// `ponderhit`: the opponent played the expected move; the clock runs from now.
    Ponderhit,
}

/// Sets the poll that the wasm build's search calls: it returns what the host asks, waiting up to the
/// given milliseconds for something to arrive (zero: look and return). The first call wins.
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub fn set_source(poll: fn(wait_ms: f64) -> Interrupt) {
    source::set(poll);
}

/// Applies a `stop` or `ponderhit` that the host holds for the search (wasm; nothing to do natively).
#[inline]
pub(crate) fn check(control: &SearchControl) {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    apply(control, source::poll(0.0));
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    let _ = control;
}

/// Waits about `wait` for a `stop` or `ponderhit` to arrive, applying it when one does.
pub(crate) fn pause(control: &SearchControl, wait: Duration) {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    apply(control, source::poll(wait.as_secs_f64() * 1000.0));
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    {
        let _ = control;
        std::thread::sleep(wait);
    }
}

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
fn apply(control: &SearchControl, interrupt: Interrupt) {
    match interrupt {
        Interrupt::None => {}
        Interrupt::Stop => control.stop(),
        Interrupt::Ponderhit => control.ponderhit(),
    }
}

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod source {
    use super::Interrupt;
    use std::sync::OnceLock;

    static SOURCE: OnceLock<fn(f64) -> Interrupt> = OnceLock::new();

    pub(super) fn set(poll: fn(f64) -> Interrupt) {
        let _ = SOURCE.set(poll);
    }

    pub(super) fn poll(wait_ms: f64) -> Interrupt {
        SOURCE.get().map_or(Interrupt::None, |f| f(wait_ms))
    }
}
