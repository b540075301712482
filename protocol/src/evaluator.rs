//! The one place that names the evaluator the binary plays with, and the text of the `eval` command.
//! When the real evaluator lands, change the alias, [`new_evaluator`] and [`eval_text`] here (for the
//! latter: `eval::trace(pos).to_string()`); nothing else in the protocol crate names an evaluator.

use engine::evaluate::{Evaluate, MaterialEval, MATERIAL};
use engine::search::{Score, Searcher};
use engine::{Color, PieceKind, Position};
use std::fmt::Write;

/// The evaluator chuhan plays with.
pub type EngineEval = MaterialEval;

/// The searcher chuhan plays with.
pub type EngineSearcher = Searcher<EngineEval>;

/// A fresh evaluator.
pub fn new_evaluator() -> EngineEval {
    MaterialEval
}

/// The `eval` command's answer: the evaluation's terms and total, in centipawns (100 = a horse).
pub fn eval_text(pos: &Position) -> String {
    let cp = |units: i32| match Score::from_internal(units) {
        Score::Cp(c) => c,
        Score::Mate(_) => 0,
    };
    let mut s = String::from("Term      Red  Black   Red-Black (cp)\n");
    let mut total = 0;
    for kind in PieceKind::ALL.into_iter().filter(|k| *k != PieceKind::King) {
        let red = pos.pieces(Color::Red, kind).count() as i32;
        let black = pos.pieces(Color::Black, kind).count() as i32;
        let diff = (red - black) * MATERIAL[kind.index()];
        total += diff;
        let _ = writeln!(s, "{:<9}{red:>4}{black:>7}{:>14}", format!("{kind:?}"), cp(diff));
    }
    let _ = writeln!(s, "Material (Red's view): {} cp", cp(total));
    let side = pos.side_to_move();
    let _ = write!(s, "Evaluation ({side:?} to move): {} cp", cp(new_evaluator().evaluate(pos)));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eval_text_ends_with_the_total() {
        let t = eval_text(&Position::startpos());
        assert!(t.lines().last().unwrap().ends_with(": 0 cp"), "{t}");
        let t = eval_text(&Position::from_fen("5k3/9/9/9/9/9/9/9/9/R3K4 b").unwrap());
        assert!(t.contains("Rook"), "{t}");
        assert!(t.lines().last().unwrap().ends_with(": -200 cp"), "{t}");
    }
}
