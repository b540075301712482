//! The bench signature: the total node count of `chuhan bench` — a fixed-depth, one-thread search of the 49
//! bench positions with the real evaluator, each from a fresh table. Any change to the search's or the
//! evaluation's behaviour changes it; a change that should not (a refactor, a speed-up) must leave it alone.
//!
//! To update after an intended change: run this test, take the count from the failure message, put it in
//! `SIGNATURE` below, and end the commit message with `Bench: N` (the same number `chuhan bench` prints).

use engine::bench::{parse_fens, run, BenchConfig, DEFAULT_FENS};

/// `Nodes searched` of `chuhan bench` (default depth, 1 thread, 16 MiB, `eval::Evaluator`).
const SIGNATURE: u64 = 10_623_283;

#[test]
fn bench_node_count_is_pinned() {
    let positions = parse_fens(DEFAULT_FENS).expect("bench positions parse");
    assert_eq!(positions.len(), 49);
    let config = BenchConfig::default();
    let report = run(eval::Evaluator::default(), &positions, &config, |_, _, _| {});
    assert_eq!(
        report.nodes, SIGNATURE,
        "bench signature changed: `chuhan bench` now searches {} nodes. If the change of behaviour is \
         intended, set SIGNATURE in tests/bench_signature.rs to {} and end the commit message with \
         `Bench: {}`.",
        report.nodes, report.nodes, report.nodes
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
