//! The bench signature: the total node count of a fixed-depth, one-thread search of the 49 bench positions,
//! each from a fresh table. Any change to the search's behaviour changes it; a change that should not (a
//! refactor, a speed-up) must leave it alone.
//!
//! To update after an intended change: run this test, take the count from the failure message, put it in
//! `SIGNATURE` below, and quote the new `chuhan bench` count in the commit message (`Bench: N`).
//! The pinned count uses `MaterialEval` at `SIGNATURE_DEPTH` (shallower than `chuhan bench`, to stay fast in
//! debug builds). When the CLI bench moves to the real evaluator this constant does not change: it pins the
//! library search with `MaterialEval`.

use engine::bench::{parse_fens, run, BenchConfig, DEFAULT_FENS};
use engine::evaluate::MaterialEval;

/// Depth of the pinned bench.
const SIGNATURE_DEPTH: u32 = 11;

/// Total nodes of the 49 bench positions at `SIGNATURE_DEPTH` with `MaterialEval`, one thread, 16 MiB.
const SIGNATURE: u64 = 782_993;

#[test]
fn bench_node_count_is_pinned() {
    let positions = parse_fens(DEFAULT_FENS).expect("bench positions parse");
    assert_eq!(positions.len(), 49);
    let config = BenchConfig { depth: SIGNATURE_DEPTH, threads: 1, hash_mb: 16 };
    let first = run(MaterialEval, &positions, &config, |_, _, _| {});
    let second = run(MaterialEval, &positions, &config, |_, _, _| {});
    assert_eq!(first.nodes, second.nodes, "the one-thread bench must be deterministic");
    assert_eq!(
        first.nodes, SIGNATURE,
        "bench signature changed: depth {SIGNATURE_DEPTH} now searches {} nodes. If the change of search \
         behaviour is intended, set SIGNATURE in tests/bench_signature.rs to {} and quote the new `chuhan bench` \
         count in the commit message.",
        first.nodes, first.nodes
    );
}
