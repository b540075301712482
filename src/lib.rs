//! Whole-program tests and benchmarks live in tests/ and benches/.
