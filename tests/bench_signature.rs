//! The bench signature: the total node count of `chuhan bench` — a fixed-depth, one-thread search of the 49
//! bench positions with the evaluation the engine plays with by default (the built-in network), each from a
//! fresh table. Any change to the search's or the evaluation's behaviour changes it; a change that should not
//! (a refactor, a speed-up) must leave it alone. The handcrafted evaluation keeps a signature of its own
//! (`chuhan bench --eval classical`), so a change to it is seen too.
//!
//! To update after an intended change: run this test, take the count from the failure message, put it in
//! the constant below, and end the commit message with `Bench: N` (the same number `chuhan bench` prints).

use engine::bench::{parse_fens, run, BenchConfig, DEFAULT_FENS};
use engine::Evaluate;

/// `Nodes searched` of `chuhan bench` (default depth, 1 thread, 16 MiB, the built-in network).
const SIGNATURE: u64 = 20_102_066;

/// `Nodes searched` of `chuhan bench --eval classical` (`eval::Evaluator`).
const CLASSICAL_SIGNATURE: u64 = 17_936_114;

fn check<E: Evaluate>(evaluator: E, expected: u64, constant: &str, command: &str) {
    let positions = parse_fens(DEFAULT_FENS).expect("bench positions parse");
    assert_eq!(positions.len(), 49);
    let report = run(evaluator, &positions, &BenchConfig::default(), |_, _, _| {});
    assert_eq!(
        report.nodes, expected,
        "bench signature changed: `{command}` now searches {} nodes. If the change of behaviour is \
         intended, set {constant} in tests/bench_signature.rs to {} and end the commit message with \
         `Bench: {}`.",
        report.nodes, report.nodes, report.nodes
    );
}

#[test]
fn bench_node_count_is_pinned() {
    check(eval::nnue::Nnue::new(eval::nnue::embedded()), SIGNATURE, "SIGNATURE", "chuhan bench");
}

#[test]
fn classical_bench_node_count_is_pinned() {
    check(
        eval::Evaluator::default(),
        CLASSICAL_SIGNATURE,
        "CLASSICAL_SIGNATURE",
        "chuhan bench --eval classical",
    );
}

#[test]
fn one_thread_search_is_deterministic() {
    // A shallower run twice in a row: the node count may not depend on time or on earlier searches.
    let positions = parse_fens(DEFAULT_FENS).expect("bench positions parse");
    let config = BenchConfig { depth: 10, ..BenchConfig::default() };
    let first = run(eval::Evaluator::default(), &positions, &config, |_, _, _| {});
    let second = run(eval::Evaluator::default(), &positions, &config, |_, _, _| {});
    assert_eq!(first.nodes, second.nodes);
}
