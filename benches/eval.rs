//! Evaluation speed: the full evaluation and the material + PST baseline over the bench positions.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use engine::Evaluate;
use eval::Evaluator;

fn evaluate(c: &mut Criterion) {
    let positions = engine::bench::parse_fens(engine::bench::DEFAULT_FENS).expect("bench FENs parse");
    let mut group = c.benchmark_group("evaluate");
    group.throughput(Throughput::Elements(positions.len() as u64));
    for (name, ev) in [("full", Evaluator::default()), ("material_pst", Evaluator::material_and_pst())] {
        group.bench_function(name, |b| {
            b.iter(|| positions.iter().map(|p| black_box(&ev).evaluate(black_box(p))).sum::<i32>())
        });
    }
    group.finish();
}

criterion_group!(benches, evaluate);
criterion_main!(benches);
