//! Evaluation speed: the handcrafted evaluation (full and the material + PST baseline) over the bench
//! positions, and the network — from scratch over the same positions, and incrementally along game lines
//! as the search uses it (each step makes a move and evaluates, so both sides pay for `make_move`), and
//! for each network shape the search's pattern with king moves among the children (make, evaluate, unmake)
//! and the cost of a refresh with and without the refresh cache.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use engine::random::Rng;
use engine::{Evaluate, Move, Position};
use eval::nnue::features::FeatureSet;
use eval::nnue::refresh::RefreshCache;
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
        let nnue = Nnue::new(Arc::new(Network::random_with(FeatureSet::KingBuckets, hidden, 1)));
        let mut state = nnue.new_state();
        group.bench_function(format!("nnue_kingbuckets_{hidden}_incremental"), |b| {
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

/// Random game lines where every third move is a king's when one can move, each ply with a sibling: a
/// king move when there is one, else another random move.
fn king_lines(games: usize, plies: usize) -> Vec<Vec<(Move, Move)>> {
    let mut rng = Rng::new(77);
    (0..games)
        .map(|_| {
            let mut pos = Position::startpos();
            let mut line = Vec::new();
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let king = pos.king_square(pos.side_to_move());
                let kings: Vec<Move> = moves.iter().copied().filter(|m| m.from() == king).collect();
                let pick = |rng: &mut Rng| {
                    if !kings.is_empty() && rng.below(3) == 0 {
                        kings[rng.below(kings.len())]
                    } else {
                        moves[rng.below(moves.len())]
                    }
                };
                let (m, sibling) = (pick(&mut rng), kings.first().copied().unwrap_or(pick(&mut rng)));
                line.push((m, sibling));
                pos.make_move(m);
            }
            line
        })
        .collect()
}

/// Along each line, for the line's move and its sibling: make, evaluate, unmake; then the line's move is
/// made and the walk goes on (the next children replay it).
fn make_evaluate_unmake<E: Evaluate>(ev: &E, state: &mut E::State, lines: &[Vec<(Move, Move)>]) -> i32 {
    let mut sum = 0;
    for line in lines {
        let mut pos = Position::startpos();
        for &(m, sibling) in line {
            for child in [m, sibling] {
                pos.make_move(child);
                sum += ev.evaluate_with(&pos, state);
                pos.unmake_move();
            }
            pos.make_move(m);
        }
    }
    sum
}

fn with_king_moves(c: &mut Criterion) {
    let lines = king_lines(8, 100);
    let steps: usize = lines.iter().map(|l| 2 * l.len()).sum();
    let mut group = c.benchmark_group("make_evaluate_unmake_with_king_moves");
    group.throughput(Throughput::Elements(steps as u64));
    for (name, set, hidden) in [
        ("piecesquare_128", FeatureSet::PieceSquare, 128),
        ("kingbuckets_128", FeatureSet::KingBuckets, 128),
        ("kingbuckets_256", FeatureSet::KingBuckets, 256),
    ] {
        let nnue = Nnue::new(Arc::new(Network::random_with(set, hidden, 1)));
        let mut state = nnue.new_state();
        group.bench_function(name, |b| b.iter(|| make_evaluate_unmake(&nnue, &mut state, black_box(&lines))));
    }
    group.finish();

    // One perspective's refresh at every position of the lines: from scratch, or through the cache
    // (whose entry was last computed a ply earlier, as when a king steps back and forth).
    let mut positions = Vec::new();
    for line in &lines {
        let mut pos = Position::startpos();
        for &(m, _) in line {
            pos.make_move(m);
            positions.push(pos.clone());
        }
    }
    let mut group = c.benchmark_group("refresh_one_perspective");
    group.throughput(Throughput::Elements(positions.len() as u64));
    for hidden in [128, 256] {
        let net = Network::random_with(FeatureSet::KingBuckets, hidden, 1);
        let mut out = vec![0i16; hidden];
        group.bench_function(format!("kingbuckets_{hidden}_from_scratch"), |b| {
            b.iter(|| {
                for pos in &positions {
                    net.refresh(black_box(pos), engine::Color::Red, &mut out);
                }
                out[0]
            })
        });
        let mut cache = RefreshCache::default();
        cache.reset(&net);
        group.bench_function(format!("kingbuckets_{hidden}_cached"), |b| {
            b.iter(|| {
                for pos in &positions {
                    let view = net.features().view(engine::Color::Red, pos.king_square(engine::Color::Red));
                    cache.refresh(&net, black_box(pos), engine::Color::Red, view, &mut out);
                }
                out[0]
            })
        });
    }
    group.finish();
}

criterion_group!(benches, evaluate, along_lines, with_king_moves);
criterion_main!(benches);
