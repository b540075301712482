//! The seam between the search and the evaluation: the search is generic over [`Evaluate`], which the
//! `eval` crate implements. [`MaterialEval`] is the simplest evaluator, used by tests to show the search
//! depends on nothing else.

use crate::position::Position;
use crate::types::{Color, PieceKind};

/// A static evaluation of a position.
///
/// Scores are in internal units from the side to move's point of view: a horse is worth about
/// [`UNITS_PER_HORSE`], and the protocols report `score * 100 / UNITS_PER_HORSE` (100 = one horse or cannon).
/// Results must stay well inside ±[`EVAL_LIMIT`] so they never look like mate scores.
///
/// An evaluator may keep state per search thread ([`Evaluate::State`], e.g. a learned network's
/// accumulators updated move by move): each search worker makes one with [`Evaluate::new_state`] and
/// passes it to every [`Evaluate::evaluate_with`] of its line. Evaluators without such state use `()`.
pub trait Evaluate: Send + Sync + 'static {
    /// Per-thread scratch state (caches that follow the search's line); `()` when none is needed.
    type State: Send;

    /// A fresh state for one search thread.
    fn new_state(&self) -> Self::State;

    /// The score of `pos` for the side to move, using and updating the thread's `state`. The result must
    /// not depend on what the state held before: only speed may.
    fn evaluate_with(&self, pos: &Position, state: &mut Self::State) -> i32;

    /// The score of `pos` for the side to move, without a state kept across calls.
    fn evaluate(&self, pos: &Position) -> i32 {
        self.evaluate_with(pos, &mut self.new_state())
    }
}

/// Internal evaluation units per horse (the protocols' 100).
pub const UNITS_PER_HORSE: i32 = 400;

/// Bound on static evaluations; anything beyond is reserved for mate scores.
pub const EVAL_LIMIT: i32 = 20_000;

/// Material only, from the rules' value table (rook = 2 horses, horse = cannon, advisor = elephant).
#[derive(Copy, Clone, Debug, Default)]
pub struct MaterialEval;

/// Plain material values in internal units, indexed by [`PieceKind`].
pub const MATERIAL: [i32; PieceKind::NUM] = [0, 160, 160, 400, 800, 400, 80];

impl Evaluate for MaterialEval {
    type State = ();

    fn new_state(&self) {}

    fn evaluate_with(&self, pos: &Position, _: &mut ()) -> i32 {
        let mut s = 0;
        for kind in PieceKind::ALL {
            let diff =
                pos.pieces(Color::Red, kind).count() as i32 - pos.pieces(Color::Black, kind).count() as i32;
            s += diff * MATERIAL[kind.index()];
        }
        if pos.side_to_move() == Color::Red {
            s
        } else {
            -s
        }
    }
}
