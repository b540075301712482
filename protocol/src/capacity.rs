//! What this machine can run: search threads are capped at its hardware threads.
//!
//! Lazy SMP gains nothing from threads that have no core to run on; they only share the cores the others
//! have. Worse, each thread then gets a small slice of the time, so a stop or the clock is noticed late:
//! measured on a 2-core machine, `go movetime 200` took 0.85 s to answer with 32 threads and 4-16 s with
//! 256, losing on time in fast games. With the cap it answers in about 0.2 s whatever `Threads` says.

/// Threads the machine runs at once (the standard library counts cores and CPU quotas), if it says.
/// WASI cannot count cores, so the browser's threaded build is told by its page
/// (`CHUHAN_HARDWARE_THREADS`, from `navigator.hardwareConcurrency`).
pub fn hardware_threads() -> Option<usize> {
    #[cfg(target_os = "wasi")]
    {
        let told = std::env::var(HARDWARE_THREADS_VAR).ok().and_then(|v| v.parse::<usize>().ok());
        if let Some(n) = told.filter(|&n| n > 0) {
            return Some(n);
        }
    }
    std::thread::available_parallelism().ok().map(|n| n.get())
}

/// The environment variable that gives a WASI build its hardware threads.
#[cfg(target_os = "wasi")]
const HARDWARE_THREADS_VAR: &str = "CHUHAN_HARDWARE_THREADS";

/// Whether this build can start threads at all. A `wasm32` build without shared memory (a browser worker)
/// cannot: there the standard library's spawn always fails, so work runs on the caller's thread.
pub const fn threads_can_start() -> bool {
    !cfg!(all(target_arch = "wasm32", not(target_feature = "atomics")))
}

/// Search threads to use for `asked` on a machine running `hardware` threads at once (`None`: unknown,
/// then `asked`). At least one.
pub fn search_threads(asked: usize, hardware: Option<usize>) -> usize {
    match hardware {
        Some(h) => asked.min(h).max(1),
        None => asked.max(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_stop_at_the_hardware() {
        assert_eq!(search_threads(256, Some(2)), 2);
        assert_eq!(search_threads(1, Some(2)), 1);
        assert_eq!(search_threads(8, Some(16)), 8);
        assert_eq!(search_threads(256, None), 256);
        assert_eq!(search_threads(0, Some(4)), 1);
        assert!(hardware_threads().is_some_and(|n| n >= 1));
    }
}
