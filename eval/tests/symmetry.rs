//! The evaluation sees colours and sides alike: a position scores the same for the side to move after
//! swapping the colours (turning the board round) and after mirroring it left to right.

use engine::evaluate::EVAL_LIMIT;
use engine::random::{random_positions, RandomWalk, Rng};
use engine::{Evaluate, Position};
use eval::Evaluator;

/// Positions from random games (captures preferred half the time so endings show up too), plus the bench
/// positions.
fn positions() -> Vec<Position> {
    let mut out = engine::bench::parse_fens(engine::bench::DEFAULT_FENS).expect("bench FENs parse");
    let walk = RandomWalk { games: 40, plies: 160, keep_one_in: 8 };
    out.extend(random_positions(&mut Rng::from_state(0x2545_f491_4f6c_dd1d), walk));
    out
}

#[test]
fn colour_and_mirror_symmetric() {
    let positions = positions();
    assert!(positions.len() >= 500, "{} positions", positions.len());
    for ev in [Evaluator::default(), Evaluator::material_and_pst()] {
        for pos in &positions {
            let score = ev.evaluate(pos);
            assert!(score.abs() < EVAL_LIMIT, "{pos:?}: {score}");
            assert_eq!(score, ev.evaluate(&pos.flipped()), "colour flip of {pos:?}");
            assert_eq!(score, ev.evaluate(&pos.mirrored()), "mirror of {pos:?}");
            assert_eq!(score, ev.evaluate(&pos.flipped().mirrored()), "flip and mirror of {pos:?}");
        }
    }
}

#[test]
fn trace_agrees_with_evaluate_on_random_positions() {
    for pos in positions().iter().step_by(7) {
        assert_eq!(eval::trace(pos).score(), Evaluator::default().evaluate(pos), "{pos:?}");
    }
}
