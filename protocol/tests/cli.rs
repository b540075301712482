//! The command line, run as a user would. (Its presence also makes `cargo test` build the `chuhan` binary
//! that the whole-program tests in the root `tests/` spawn.)

use std::process::Command;

#[test]
fn perft_prints_the_node_count() {
    let out = Command::new(env!("CARGO_BIN_EXE_chuhan")).args(["perft", "3"]).output().expect("run chuhan");
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "Nodes searched: 79666\n");
}

#[test]
fn perft_rejects_a_bad_fen_without_crashing() {
    let out = Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .args(["perft", "2", "--fen", "rnbakabnr/9 w"])
        .output()
        .expect("run chuhan");
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("10 ranks"));
}
