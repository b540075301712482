//! Shared helpers for the whole-program tests: where the built binaries are.
#![allow(dead_code)]

use std::path::PathBuf;

/// The directory holding the binaries of this build profile (`target/release` under `cargo test --release`).
pub fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    // target/<profile>/deps/<test> -> target/<profile>
    exe.parent().and_then(|p| p.parent()).expect("target directory").to_path_buf()
}

/// The `chuhan` binary of this build. `cargo test --workspace` builds it because the protocol crate has
/// integration tests of its own.
pub fn chuhan() -> PathBuf {
    let path = target_dir().join(format!("chuhan{}", std::env::consts::EXE_SUFFIX));
    assert!(path.exists(), "{} not built: run `cargo test --release --workspace`", path.display());
    path
}

/// An example program of the root package (test engines), built by `cargo test`.
pub fn example(name: &str) -> PathBuf {
    let path = target_dir().join("examples").join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(path.exists(), "{} not built: run `cargo test --release --workspace`", path.display());
    path
}
