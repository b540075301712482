//! The evaluation sees colours and sides alike: a position scores the same for the side to move after
//! swapping the colours (turning the board round) and after mirroring it left to right.

use engine::evaluate::EVAL_LIMIT;
use engine::{Evaluate, Position};
use eval::Evaluator;

/// A small deterministic generator, so the test needs no extra crate.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Positions from random games (captures preferred half the time so endings show up too), plus the bench
/// positions.
fn positions() -> Vec<Position> {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut out = engine::bench::parse_fens(engine::bench::DEFAULT_FENS).expect("bench FENs parse");
    for _ in 0..40 {
        let mut pos = Position::startpos();
        for _ in 0..160 {
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
            if rng.next().is_multiple_of(8) {
                out.push(Position::from_fen(&pos.to_fen()).expect("own FEN parses"));
            }
        }
    }
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
