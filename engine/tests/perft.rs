//! Move generation against the published xiangqi perft counts (tests/data/perft-suite.txt).

use engine::perft::perft;
use engine::Position;

/// (fen, [(depth, count)]) from the suite file.
fn suite() -> Vec<(String, Vec<(u32, u64)>)> {
    include_str!("data/perft-suite.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.split(';');
            let fen = parts.next().expect("fen").trim().to_string();
            let counts = parts
                .map(|p| {
                    let (d, n) = p.trim().split_once(':').expect("depth:count");
                    (d.parse().expect("depth"), n.parse().expect("count"))
                })
                .collect();
            (fen, counts)
        })
        .collect()
}

fn run_suite(max_depth: u32) {
    for (fen, counts) in suite() {
        let mut pos = Position::from_fen(&fen).expect("suite FEN is valid");
        for &(depth, expected) in counts.iter().filter(|(d, _)| *d <= max_depth) {
            assert_eq!(perft(&mut pos, depth), expected, "perft {depth} of {fen}");
        }
        assert_eq!(pos.to_fen().split(' ').next(), fen.split(' ').next(), "position restored");
    }
}

#[test]
fn perft_suite_to_depth_5() {
    run_suite(5);
}

#[test]
#[ignore = "about a minute in release: cargo test --release -- --ignored"]
fn perft_start_depth_6() {
    let mut pos = Position::startpos();
    assert_eq!(perft(&mut pos, 6), 5_392_831_844);
}
