//! The workspace root: the cross-crate tests in tests/ and the criterion benchmarks in benches/.
