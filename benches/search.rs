//! Search speed: fixed-depth searches from a fresh table, one thread, material evaluation.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use engine::evaluate::MaterialEval;
use engine::search::{Limits, SearchControl, Searcher, SilentReporter};
use engine::Position;

const POSITIONS: [(&str, &str, u32); 3] = [
    ("start", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", 12),
    ("middlegame", "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1", 11),
    ("endgame", "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1", 14),
];

fn fixed_depth(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for (name, fen, depth) in POSITIONS {
        let pos = Position::from_fen(fen).expect("valid bench FEN");
        let limits = Limits { depth: Some(depth), ..Default::default() };
        let mut searcher = Searcher::new(MaterialEval);
        group.bench_function(format!("depth{depth}/{name}"), |b| {
            b.iter(|| {
                searcher.clear();
                black_box(searcher.search(&pos, &limits, &mut SilentReporter, &SearchControl::new()).nodes)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, fixed_depth);
criterion_main!(benches);
