//! Helpers for the unit tests of the terms.

use crate::params::NUM_WEIGHTS;
use crate::score::MgEg;
use crate::sink::Sink;
use crate::weights::WEIGHTS;
use crate::{evaluate_terms, Evaluator};
use engine::random::{random_positions, RandomWalk, Rng};
use engine::{Color, Position};

/// Sums the counts each colour reports for each weight.
struct Counter(Vec<[i32; 2]>);

impl Sink for Counter {
    fn add(&mut self, color: Color, weight: usize, n: i32) {
        self.0[weight][color.index()] += n;
    }
}

/// How many times each colour scores weight `weight` in the position `fen` (full evaluation), Red's count
/// first.
pub fn term_counts(fen: &str, weight: usize) -> [i32; 2] {
    let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("test FEN {fen}: {e}"));
    let mut counter = Counter(vec![[0; 2]; NUM_WEIGHTS]);
    evaluate_terms(&pos, &Evaluator::default(), &mut counter);
    counter.0[weight]
}

/// How many times `color` scores weight `weight` in the position `fen` (full evaluation).
pub fn term_count(fen: &str, color: Color, weight: usize) -> i32 {
    term_counts(fen, weight)[color.index()]
}

/// The current value of weight `weight`.
pub fn weight_of(weight: usize) -> MgEg {
    WEIGHTS[weight]
}

/// The bench positions and positions from random games (captures preferred half the time, so that
/// endings with few pieces show up too).
pub fn positions() -> Vec<Position> {
    let mut out = engine::bench::parse_fens(engine::bench::DEFAULT_FENS).expect("bench FENs parse");
    let walk = RandomWalk { games: 60, plies: 200, keep_one_in: 4 };
    out.extend(random_positions(&mut Rng::from_state(0x9e37_79b9_7f4a_7c15), walk));
    out
}
