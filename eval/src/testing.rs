//! Helpers for the unit tests of the terms.

use crate::params::NUM_WEIGHTS;
use crate::score::MgEg;
use crate::sink::Sink;
use crate::weights::WEIGHTS;
use crate::{evaluate_terms, Evaluator};
use engine::{Color, Position};

/// Sums the counts each colour reports for each weight.
struct Counter(Vec<[i32; 2]>);

impl Sink for Counter {
    fn add(&mut self, color: Color, weight: usize, n: i32) {
        self.0[weight][color.index()] += n;
    }
}

/// How many times `color` scores weight `weight` in the position `fen` (full evaluation).
pub fn term_count(fen: &str, color: Color, weight: usize) -> i32 {
    let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("test FEN {fen}: {e}"));
    let mut counter = Counter(vec![[0; 2]; NUM_WEIGHTS]);
    evaluate_terms(&pos, &Evaluator::default(), &mut counter);
    counter.0[weight][color.index()]
}

/// The current value of weight `weight`.
pub fn weight_of(weight: usize) -> MgEg {
    WEIGHTS[weight]
}

/// A small deterministic generator, so the tests need no extra crate.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// The bench positions and positions from random games (captures preferred half the time, so that
/// endings with few pieces show up too).
pub fn positions() -> Vec<Position> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut out = engine::bench::parse_fens(engine::bench::DEFAULT_FENS).expect("bench FENs parse");
    for _ in 0..60 {
        let mut pos = Position::startpos();
        for _ in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let captures: Vec<_> = moves.iter().copied().filter(|&m| pos.is_capture(m)).collect();
            let m = if !captures.is_empty() && rng.next().is_multiple_of(2) {
                captures[rng.next() as usize % captures.len()]
            } else {
                moves[rng.next() as usize % moves.len()]
            };
            pos.make_move(m);
            if rng.next().is_multiple_of(4) {
                out.push(Position::from_fen(&pos.to_fen()).expect("own FEN parses"));
            }
        }
    }
    out
}
