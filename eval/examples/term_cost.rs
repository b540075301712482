//! Rough cost of each term group: the full evaluation with one group left out, ns per position.
use engine::Evaluate;
use eval::{Evaluator, Term, TermSet};
use std::hint::black_box;
use std::time::Instant;

fn time(ev: &Evaluator, positions: &[engine::Position]) -> f64 {
    let rounds = 20_000;
    let start = Instant::now();
    let mut sum = 0i64;
    for _ in 0..rounds {
        for p in positions {
            sum += black_box(ev).evaluate(black_box(p)) as i64;
        }
    }
    black_box(sum);
    start.elapsed().as_nanos() as f64 / (rounds * positions.len()) as f64
}

fn main() {
    let positions = engine::bench::parse_fens(engine::bench::DEFAULT_FENS).expect("bench FENs parse");
    let full = time(&Evaluator::default(), &positions);
    println!("full: {full:.0} ns, material+pst: {:.0} ns", time(&Evaluator::material_and_pst(), &positions));
    println!("no draw scaling: {:.0} ns", time(&Evaluator::with_terms(TermSet::ALL, false), &positions));
    for term in Term::ALL {
        let t = time(&Evaluator::with_terms(TermSet::ALL.without(term), true), &positions);
        println!("without {:<14} {t:.0} ns (saves {:.0})", term.name(), full - t);
    }
}
