//! Shared by the tests that drive the binaries: where Cargo built them for this test run, and a pipe to a
//! running engine. `env!("CARGO_BIN_EXE_...")` makes Cargo build the binaries before these tests and
//! names exactly those files, so a test can never run a stale binary.
#![allow(dead_code)]

pub mod engine_pipe;
pub mod match_cli;
pub mod networks;

use std::path::Path;

/// The `chuhan` binary of this build.
pub fn chuhan() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_chuhan"))
}

/// The scripted test engine (`src/bin/chuhan-test-engine.rs`), built for tests only.
pub fn test_engine() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_chuhan-test-engine"))
}

/// MiB the engine may use for its table on this machine, if it can tell (Linux: MemAvailable less an eighth
/// of MemTotal, at least 256 MiB; the same rule as `engine::search::tt_size`).
pub fn hash_room_mb() -> Option<usize> {
    let info = engine::memory::mem_info()?;
    let total_mb = (info.total >> 20) as usize;
    Some(((info.available >> 20) as usize).saturating_sub(engine::search::tt_size::reserve_mb(total_mb)))
}
