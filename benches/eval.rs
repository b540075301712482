//! Evaluation speed: the handcrafted evaluation (full and the material + PST baseline) over the bench
//! positions, and the network — from scratch over the same positions, and incrementally along game lines
//! as the search uses it (each step makes a move and evaluates, so both sides pay for `make_move`).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use engine::random::Rng;
use engine::{Evaluate, Move, Position};
use eval::nnue::{Network, Nnue};
use eval::Evaluator;
use std::sync::Arc;

fn evaluate(c: &mut Criterion) {
    let positions = engine::bench::parse_fens(engine::bench::DEFAULT_FENS).expect("bench FENs parse");
    let mut group = c.benchmark_group("evaluate");
    group.throughput(Throughput::Elements(positions.len() as u64));
    for (name, ev) in [("full", Evaluator::default()), ("material_pst", Evaluator::material_and_pst())] {
        group.bench_function(name, |b| {
            b.iter(|| positions.iter().map(|p| black_box(&ev).evaluate(black_box(p))).sum::<i32>())
        });
    }
    let nnue = Nnue::default();
    group.bench_function("nnue_from_scratch", |b| {
        b.iter(|| positions.iter().map(|p| black_box(&nnue).evaluate(black_box(p))).sum::<i32>())
    });
    group.finish();
}

/// Random game lines from the start position: the moves of each.
fn lines(games: usize, plies: usize) -> Vec<Vec<Move>> {
    let mut rng = Rng::new(2024);
    (0..games)
        .map(|_| {
            let mut pos = Position::startpos();
            let mut line = Vec::new();
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                pos.make_move(m);
                line.push(m);
            }
            line
        })
        .collect()
}

/// Plays each line move by move, evaluating after every move with one state, then takes it back.
fn walk<E: Evaluate>(ev: &E, state: &mut E::State, lines: &[Vec<Move>]) -> i32 {
    let mut sum = 0;
    for line in lines {
        let mut pos = Position::startpos();
        for &m in line {
            pos.make_move(m);
            sum += ev.evaluate_with(&pos, state);
        }
    }
    sum
}

fn along_lines(c: &mut Criterion) {
    let lines = lines(8, 100);
    let steps: usize = lines.iter().map(Vec::len).sum();
    let mut group = c.benchmark_group("make_and_evaluate");
    group.throughput(Throughput::Elements(steps as u64));
    let hce = Evaluator::default();
    group.bench_function("handcrafted", |b| b.iter(|| walk(&hce, &mut (), black_box(&lines))));
    for hidden in [128, 256] {
        let nnue = Nnue::new(Arc::new(Network::random(hidden, 1)));
        let mut state = nnue.new_state();
        group.bench_function(format!("nnue_{hidden}_incremental"), |b| {
            b.iter(|| walk(&nnue, &mut state, black_box(&lines)))
        });
    }
    let embedded = Nnue::default();
    let mut state = embedded.new_state();
    group.bench_function("nnue_embedded_incremental", |b| {
        b.iter(|| walk(&embedded, &mut state, black_box(&lines)))
    });
    group.finish();
}

criterion_group!(benches, evaluate, along_lines);
criterion_main!(benches);
