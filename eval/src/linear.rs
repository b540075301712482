//! The evaluation as a linear function of its weights: per position, the count each weight is multiplied
//! by (Red's count minus Black's), the phase and the draw scale; and an evaluator over weights held at run
//! time, to play or compare weight sets that are not compiled in.

use crate::endgame::SCALE_MAX;
use crate::material::Counts;
use crate::params::NUM_WEIGHTS;
use crate::phase::PHASE_MAX;
use crate::score::MgEg;
use crate::sink::Sink;
use crate::{evaluate_terms, Evaluator, Outcome};
use engine::{Color, Evaluate, Position};
use std::sync::Arc;

/// Sums weights held at run time (and optionally records the counts).
struct RuntimeSink<'a> {
    weights: &'a [MgEg],
    total: MgEg,
    counts: Option<&'a mut Vec<(u16, i32)>>,
}

impl Sink for RuntimeSink<'_> {
    #[inline(always)]
    fn add(&mut self, color: Color, weight: usize, n: i32) {
        if n == 0 {
            return;
        }
        let n = match color {
            Color::Red => n,
            Color::Black => -n,
        };
        self.total += self.weights[weight] * n;
        if let Some(c) = self.counts.as_deref_mut() {
            c.push((weight as u16, n));
        }
    }
}

/// The features of one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Features {
    /// (weight index, Red's count minus Black's), each weight once, sorted by index.
    pub counts: Vec<(u16, i32)>,
    /// Middlegame share, phase / PHASE_MAX.
    pub mg_share: f64,
    /// Draw scale as a fraction (fixed by the weights the features were taken with).
    pub scale: f64,
    /// The evaluation from Red's view with those weights (integer, as the engine computes it).
    pub red_score: i32,
}

/// The features of `pos` under the full evaluation with `weights`.
pub fn extract(pos: &Position, weights: &[MgEg]) -> Features {
    let ev = Evaluator::default();
    let mut raw = Vec::with_capacity(96);
    let mut sink = RuntimeSink { weights, total: MgEg::ZERO, counts: Some(&mut raw) };
    let counts: Counts = evaluate_terms(pos, &ev, &mut sink);
    let total = sink.total;
    let outcome = Outcome::of(total, &counts, pos, &ev);
    raw.sort_unstable_by_key(|&(w, _)| w);
    let mut merged: Vec<(u16, i32)> = Vec::with_capacity(raw.len());
    for (w, n) in raw {
        match merged.last_mut() {
            Some(last) if last.0 == w => last.1 += n,
            _ => merged.push((w, n)),
        }
    }
    merged.retain(|&(_, n)| n != 0);
    Features {
        counts: merged,
        mg_share: outcome.phase as f64 / PHASE_MAX as f64,
        scale: outcome.scale.factor as f64 / SCALE_MAX as f64,
        red_score: outcome.red,
    }
}

/// The full evaluation with weights chosen at run time (slower than [`Evaluator`], which has them
/// compiled in); for matches between weight sets.
#[derive(Clone, Debug)]
pub struct WeightedEvaluator {
    weights: Arc<[MgEg]>,
}

impl WeightedEvaluator {
    /// An evaluator using `weights` (which must have [`NUM_WEIGHTS`] entries).
    pub fn new(weights: Vec<MgEg>) -> Option<WeightedEvaluator> {
        (weights.len() == NUM_WEIGHTS).then(|| WeightedEvaluator { weights: weights.into() })
    }
}

impl Evaluate for WeightedEvaluator {
    type State = ();

    fn new_state(&self) {}

    fn evaluate_with(&self, pos: &Position, _: &mut ()) -> i32 {
        let ev = Evaluator::default();
        let mut sink = RuntimeSink { weights: &self.weights, total: MgEg::ZERO, counts: None };
        let counts = evaluate_terms(pos, &ev, &mut sink);
        let red = Outcome::of(sink.total, &counts, pos, &ev).red;
        match pos.side_to_move() {
            Color::Red => red,
            Color::Black => -red,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::weights::WEIGHTS;

    #[test]
    fn features_reproduce_the_evaluation() {
        let positions = engine::bench::parse_fens(engine::bench::DEFAULT_FENS).unwrap();
        let runtime = WeightedEvaluator::new(WEIGHTS.to_vec()).unwrap();
        for pos in &positions {
            let f = extract(pos, &WEIGHTS);
            let (mut mg, mut eg) = (0i64, 0i64);
            for &(w, n) in &f.counts {
                mg += WEIGHTS[w as usize].mg() as i64 * n as i64;
                eg += WEIGHTS[w as usize].eg() as i64 * n as i64;
            }
            let linear = (mg as f64 * f.mg_share + eg as f64 * (1.0 - f.mg_share)) * f.scale;
            assert!((linear - f.red_score as f64).abs() <= 2.0, "{pos:?}: {linear} vs {}", f.red_score);
            let full = Evaluator::default().evaluate(pos);
            assert_eq!(runtime.evaluate(pos), full, "{pos:?}");
            let stm = if pos.side_to_move() == Color::Red { f.red_score } else { -f.red_score };
            assert_eq!(stm, full);
        }
    }
}
