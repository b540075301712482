//! The one place that names the evaluator the binary plays with, and the text of the `eval` command.

use engine::search::Searcher;
use engine::Position;

/// The evaluator chuhan plays with.
pub type EngineEval = eval::Evaluator;

/// The searcher chuhan plays with.
pub type EngineSearcher = Searcher<EngineEval>;

/// A fresh evaluator.
pub fn new_evaluator() -> EngineEval {
    eval::Evaluator::default()
}

/// The evaluator for the `knowledge` option: `none` is material and piece-square tables only (for A/B
/// tests of the evaluation and for handicap games); every other level is the full evaluation.
pub fn evaluator_for(knowledge: &str) -> EngineEval {
    if knowledge.eq_ignore_ascii_case("none") {
        eval::Evaluator::material_and_pst()
    } else {
        eval::Evaluator::default()
    }
}

/// The `eval` command's answer: every term for Red, Black and the total (100 = a horse), the phase, the
/// draw scale and the final score from the side to move.
pub fn eval_text(pos: &Position) -> String {
    eval::trace(pos).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eval_text_ends_with_the_score_for_the_side_to_move() {
        let t = eval_text(&Position::startpos());
        assert!(t.contains("Material"), "{t}");
        assert!(t.lines().last().unwrap().starts_with("Final score (Red to move)"), "{t}");
        let t = eval_text(&Position::from_fen("5k3/9/9/9/9/9/9/9/9/R3K4 b").unwrap());
        assert!(t.lines().last().unwrap().starts_with("Final score (Black to move): -"), "{t}");
    }
}
