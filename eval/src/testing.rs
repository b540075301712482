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
