//! Endgame tablebases: probe time (WDL and DTM, table in memory) and generation speed (slots a second).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use engine::egtb::{closure, file, generate, Material, Rules, TableSet, Tablebases};
use engine::Position;

/// The tables `target` needs, generated in memory, without `target` itself.
fn subtables(target: Material) -> TableSet {
    let mut set = TableSet::new();
    for m in closure(&[target]) {
        if m != target {
            set.insert(generate(m, &set, Rules::Chinese).expect("generate").0);
        }
    }
    set
}

/// Positions of KRKA spread over the board, for the probes (legal ones only).
fn probe_positions() -> Vec<Position> {
    let mut out = Vec::new();
    for rook in ["a0", "b4", "c6", "h8", "i1", "e5"] {
        for (bk, ba) in [("e9", "e8"), ("d9", "f9"), ("f8", "d9"), ("e7", "d7")] {
            let place = |sq: &str| -> (u8, u8) {
                let b = sq.as_bytes();
                (b[0] - b'a', b[1] - b'0')
            };
            let mut board = [['.'; 9]; 10];
            for (sq, c) in [(rook, 'R'), ("d0", 'K'), (bk, 'k'), (ba, 'a')] {
                let (f, r) = place(sq);
                board[r as usize][f as usize] = c;
            }
            let rows: Vec<String> = (0..10)
                .rev()
                .map(|r| {
                    let mut s = String::new();
                    let mut gap = 0;
                    for c in board[r] {
                        if c == '.' {
                            gap += 1;
                        } else {
                            if gap > 0 {
                                s.push_str(&gap.to_string());
                                gap = 0;
                            }
                            s.push(c);
                        }
                    }
                    if gap > 0 {
                        s.push_str(&gap.to_string());
                    }
                    s
                })
                .collect();
            for side in ["w", "b"] {
                if let Ok(p) = Position::from_fen(&format!("{} {side} - - 0 1", rows.join("/"))) {
                    out.push(p);
                }
            }
        }
    }
    out
}

fn probe(c: &mut Criterion) {
    let target: Material = "KRKA".parse().unwrap();
    let mut set = subtables(target);
    set.insert(generate(target, &set, Rules::Chinese).unwrap().0);
    let dir = std::env::temp_dir().join(format!("chuhan-egtb-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for m in set.materials() {
        file::write(set.get(m).unwrap(), Rules::Chinese, &dir).unwrap();
    }
    let tb = Tablebases::open(std::slice::from_ref(&dir));
    let positions = probe_positions();
    assert!(positions.len() > 20);
    // Loaded on first probe: the benches time the probe of a table already in memory.
    assert!(positions.iter().all(|p| tb.probe(p).is_some()));
    let mut group = c.benchmark_group("egtb_probe");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("wdl/KRKA", |b| {
        b.iter(|| positions.iter().filter_map(|p| tb.probe_wdl(black_box(p))).count())
    });
    group.bench_function("dtm/KRKA", |b| {
        b.iter(|| positions.iter().filter_map(|p| tb.probe(black_box(p))).map(|v| v.dtm as u64).sum::<u64>())
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

fn generation(c: &mut Criterion) {
    let mut group = c.benchmark_group("egtb_generate");
    group.sample_size(10);
    for name in ["KRKA", "KNKA", "KRKN"] {
        let target: Material = name.parse().unwrap();
        let set = subtables(target);
        let slots = engine::egtb::index::Indexer::new(&target).unwrap().size();
        group.throughput(Throughput::Elements(slots));
        group.bench_function(name, |b| b.iter(|| generate(target, &set, Rules::Chinese).unwrap().1.legal));
    }
    group.finish();
}

criterion_group!(benches, probe, generation);
criterion_main!(benches);
