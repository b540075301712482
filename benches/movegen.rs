//! Move generation, make/unmake and perft speed.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use engine::perft::perft;
use engine::Position;

const POSITIONS: [(&str, &str); 3] = [
    ("start", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"),
    ("middlegame", "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1"),
    ("open", "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1"),
];

fn movegen(c: &mut Criterion) {
    for (name, fen) in POSITIONS {
        let pos = Position::from_fen(fen).expect("valid bench FEN");
        c.bench_function(&format!("legal_moves/{name}"), |b| b.iter(|| black_box(&pos).legal_moves().len()));
    }
}

fn make_unmake(c: &mut Criterion) {
    for (name, fen) in POSITIONS {
        let mut pos = Position::from_fen(fen).expect("valid bench FEN");
        let moves = pos.legal_moves();
        c.bench_function(&format!("make_unmake/{name}"), |b| {
            b.iter(|| {
                for &m in moves.as_slice() {
                    pos.make_move(m);
                    pos.unmake_move();
                }
            })
        });
    }
}

fn perft4(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    let mut pos = Position::startpos();
    group.bench_function("perft4/start", |b| b.iter(|| perft(black_box(&mut pos), 4)));
    group.finish();
}

criterion_group!(benches, movegen, make_unmake, perft4);
criterion_main!(benches);
