//! Whole-program checks of the `chuhan` binary.

mod common;

use std::process::Command;

#[test]
fn perft_divide_lists_every_root_move() {
    let out = Command::new(common::chuhan()).args(["perft", "2", "--divide"]).output().expect("run chuhan");
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 46, "{text}");
    assert_eq!(lines[44], "Nodes searched: 1920");
    assert!(lines[45].starts_with("Nodes/second: "), "{text}");
    assert!(lines.contains(&"h2e2: 45"), "{text}");
}
