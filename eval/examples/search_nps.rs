//! Search speed with each evaluator: the fixed-depth bench (engine::bench) with material only, material +
//! PST, and the full evaluation. Usage: `cargo run --release -p chuhan-eval --example search_nps [depth]`.
use engine::bench::{parse_fens, run, BenchConfig, DEFAULT_FENS};
use engine::evaluate::MaterialEval;
use engine::Evaluate;
use eval::Evaluator;

fn report<E: Evaluate>(name: &str, ev: E, depth: u32) {
    let positions = parse_fens(DEFAULT_FENS).expect("bench FENs parse");
    let r = run(ev, &positions, &BenchConfig { depth, ..Default::default() }, |_, _, _| {});
    println!("{name:<14} nodes {:>10}  {:>8.2}s  {:>9} nodes/s", r.nodes, r.elapsed.as_secs_f64(), r.nps());
}

fn main() {
    let depth = std::env::args().nth(1).and_then(|d| d.parse().ok()).unwrap_or(4);
    report("material", MaterialEval, depth);
    report("material+pst", Evaluator::material_and_pst(), depth);
    report("full", Evaluator::default(), depth);
}
