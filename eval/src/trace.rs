//! The evaluation broken down by term, for the `eval` command and for reading what the evaluation thinks.

use crate::endgame::Scale;
use crate::material::Counts;
use crate::params::TERM_OF_WEIGHT;
use crate::phase::PHASE_MAX;
use crate::score::MgEg;
use crate::sink::Sink;
use crate::term::Term;
use crate::weights::WEIGHTS;
use crate::{evaluate_terms, Evaluator, Outcome};
use engine::evaluate::UNITS_PER_HORSE;
use engine::{Color, PieceKind, Position, Square};
use std::fmt;

/// Keeps each term's sum for each colour.
#[derive(Default)]
struct TraceSink {
    rows: [[MgEg; 2]; Term::COUNT],
}

impl Sink for TraceSink {
    fn add(&mut self, color: Color, weight: usize, n: i32) {
        self.rows[TERM_OF_WEIGHT[weight] as usize][color.index()] += WEIGHTS[weight] * n;
    }

    fn piece_square(&mut self, color: Color, kind: PieceKind, sq: Square) {
        self.add(color, crate::pst::index(color, kind, sq), 1);
    }
}

/// Every term of an evaluation for both colours, with the phase, the draw scaling and the final score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    rows: [[MgEg; 2]; Term::COUNT],
    outcome: Outcome,
    side: Color,
}

/// The full evaluation of `pos`, term by term.
pub fn trace(pos: &Position) -> Trace {
    trace_with(pos, &Evaluator::default())
}

/// The evaluation of `pos` by `ev`, term by term.
pub fn trace_with(pos: &Position, ev: &Evaluator) -> Trace {
    let mut sink = TraceSink::default();
    let counts: Counts = evaluate_terms(pos, ev, &mut sink);
    let total = sink.rows.iter().fold(MgEg::ZERO, |t, r| t + r[0] - r[1]);
    let outcome = Outcome::of(total, &counts, pos, ev);
    Trace { rows: sink.rows, outcome, side: pos.side_to_move() }
}

impl Trace {
    /// The (middlegame, endgame) sum of `term` for `color`.
    pub fn term(&self, term: Term, color: Color) -> MgEg {
        self.rows[term as usize][color.index()]
    }

    /// The game phase, 0..=[`PHASE_MAX`].
    pub fn phase(&self) -> i32 {
        self.outcome.phase
    }

    /// The endgame draw scaling that was applied.
    pub fn scale(&self) -> Scale {
        self.outcome.scale
    }

    /// The final score from the side to move's view, internal units (what `evaluate` returns).
    pub fn score(&self) -> i32 {
        match self.side {
            Color::Red => self.outcome.red,
            Color::Black => -self.outcome.red,
        }
    }

    /// A pair tapered at this trace's phase, in protocol units (100 = one horse), unrounded.
    fn units(&self, v: MgEg) -> f64 {
        let tapered = (v.mg() as f64 * self.phase() as f64
            + v.eg() as f64 * (PHASE_MAX - self.phase()) as f64)
            / PHASE_MAX as f64;
        tapered * 100.0 / UNITS_PER_HORSE as f64
    }
}

impl fmt::Display for Trace {
    /// A table of every term from Red's view in protocol units (100 = one horse), then the phase, the draw
    /// scaling and the final score from the side to move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{:<14} {:>9} {:>9} {:>9}", "Term", "Red", "Black", "Total")?;
        writeln!(f, "{}", "-".repeat(44))?;
        let (mut red, mut black) = (MgEg::ZERO, MgEg::ZERO);
        for term in Term::ALL {
            let (r, b) = (self.term(term, Color::Red), self.term(term, Color::Black));
            red += r;
            black += b;
            let (r, b) = (self.units(r), self.units(b));
            writeln!(f, "{:<14} {:>9.2} {:>9.2} {:>9.2}", term.name(), r, b, r - b)?;
        }
        writeln!(f, "{}", "-".repeat(44))?;
        let (r, b) = (self.units(red), self.units(black));
        writeln!(f, "{:<14} {:>9.2} {:>9.2} {:>9.2}", "Sum", r, b, r - b)?;
        writeln!(
            f,
            "Phase: {}/{} (strong pieces left; {} = full board)",
            self.phase(),
            PHASE_MAX,
            PHASE_MAX
        )?;
        let scale = self.scale();
        writeln!(f, "Draw scale: {}/{} ({})", scale.factor, crate::endgame::SCALE_MAX, scale.rule)?;
        let side = match self.side {
            Color::Red => "Red",
            Color::Black => "Black",
        };
        write!(f, "Final score ({side} to move): {:.2}", self.score() as f64 * 100.0 / UNITS_PER_HORSE as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::Evaluate;

    #[test]
    fn trace_matches_evaluate_and_lists_every_term() {
        for fen in [
            engine::position::START_FEN,
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "2bak4/9/3a5/p2Np3p/3n1P3/3pc3P/P4r1c1/B2CC2R1/4A4/3AK1B2 b - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let t = trace(&pos);
            assert_eq!(t.score(), Evaluator::default().evaluate(&pos), "{fen}");
            let text = t.to_string();
            for term in Term::ALL {
                assert!(text.contains(term.name()), "{text}");
            }
            assert!(text.contains("Phase:") && text.contains("Final score"), "{text}");
        }
    }

    #[test]
    fn start_position_trace_is_balanced() {
        let t = trace(&Position::startpos());
        for term in Term::ALL {
            if term != Term::Tempo {
                assert_eq!(t.term(term, Color::Red), t.term(term, Color::Black), "{term:?}");
            }
        }
        assert_eq!(t.phase(), PHASE_MAX);
        // Material: 2 rooks, 2 horses, 2 cannons, 2 advisors, 2 elephants, 5 pawns = 4240 internal units.
        assert_eq!(t.term(Term::Material, Color::Red), MgEg(4240, 4240));
    }
}
