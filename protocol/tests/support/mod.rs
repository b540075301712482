//! Shared by the tests that drive the binaries: where Cargo built them for this test run, and a pipe to a
//! running engine. `env!("CARGO_BIN_EXE_...")` makes Cargo build the binaries before these tests and
//! names exactly those files, so a test can never run a stale binary.
#![allow(dead_code)]

pub mod engine_pipe;
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
