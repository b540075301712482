//! Strength sanity check (ignored by default; run with `cargo test --release --test search_selfplay --
//! --ignored --nocapture`): the full search against a plain alpha-beta (same move ordering, hash table and
//! quiescence, but no pruning, reductions or extensions), in short games from the bench positions, each
//! played with both colours. A small positional evaluator lives here so the games are not decided by
//! material alone; the real evaluator is in the `eval` crate.

use engine::evaluate::Evaluate;
use engine::search::repetition::{cycle_verdict, repeated_cycle_len, CycleVerdict};
use engine::search::{Limits, SearchControl, SearchFeatures, Searcher, SilentReporter};
use engine::{Color, Piece, PieceKind, Position};

/// Material, mobility of horses and rooks, central cannons and advanced pawns.
#[derive(Clone, Copy)]
struct SketchEval;

impl Evaluate for SketchEval {
    type State = ();

    fn new_state(&self) {}

    fn evaluate_with(&self, pos: &Position, _: &mut ()) -> i32 {
        let mut side = [0i32; 2];
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                for sq in pos.pieces(color, kind) {
                    let rank = if color == Color::Red { sq.rank() as i32 } else { 9 - sq.rank() as i32 };
                    let centre = 4 - (sq.file() as i32 - 4).abs();
                    side[color.index()] += match kind {
                        PieceKind::King => 0,
                        PieceKind::Advisor | PieceKind::Elephant => 160,
                        PieceKind::Horse => {
                            400 + 6 * centre + 6 * pos.attacks_of(Piece::new(color, kind), sq).count() as i32
                        }
                        PieceKind::Rook => 820 + 4 * pos.rook_attacks(sq).count() as i32,
                        PieceKind::Cannon => 420 + 4 * centre + if sq.file() == 4 { 20 } else { 0 },
                        PieceKind::Pawn if rank >= 5 => {
                            130 + 10 * centre + if rank <= 8 { 15 * (rank - 4) } else { -30 }
                        }
                        PieceKind::Pawn => 70,
                    };
                }
            }
        }
        let red = side[0] - side[1];
        if pos.side_to_move() == Color::Red {
            red
        } else {
            -red
        }
    }
}

/// Plays a game from `start`; `engines[red]` has Red. Returns +1 if Red wins, -1 if Black wins, 0 for a draw
/// (no-capture limit, a repetition judged a draw, or 300 plies).
fn play(start: &Position, engines: &mut [Searcher<SketchEval>; 2], red: usize, limits: &Limits) -> i32 {
    let mut pos = start.clone();
    for e in engines.iter_mut() {
        e.clear();
    }
    let sign = |c: Color| if c == Color::Red { 1 } else { -1 };
    for _ in 0..300 {
        let mover = pos.side_to_move();
        if !pos.has_legal_move() {
            return -sign(mover);
        }
        if pos.halfmove_clock() >= 120 {
            return 0;
        }
        if let Some(len) = repeated_cycle_len(&pos) {
            return match cycle_verdict(&pos, len) {
                CycleVerdict::Draw => 0,
                CycleVerdict::SideToMoveLoses => -sign(mover),
                CycleVerdict::SideToMoveWins => sign(mover),
            };
        }
        let engine = if mover == Color::Red { red } else { 1 - red };
        let result = engines[engine].search(&pos, limits, &mut SilentReporter, &SearchControl::new());
        let Some(m) = result.best else { return -sign(mover) };
        assert!(pos.is_legal(m));
        pos.make_move(m);
    }
    0
}

/// Wins, draws and losses of engine 0 over `openings` positions, both colours each.
fn match_result(features: [SearchFeatures; 2], openings: usize, limits: &Limits) -> (u32, u32, u32) {
    let positions = engine::bench::parse_fens(engine::bench::DEFAULT_FENS).expect("bench positions");
    let mut engines = [Searcher::new(SketchEval), Searcher::new(SketchEval)];
    for (e, f) in engines.iter_mut().zip(features) {
        e.set_features(f);
    }
    let (mut w, mut d, mut l) = (0, 0, 0);
    for start in positions.iter().take(openings) {
        for red in 0..2 {
            let for_first = if red == 0 { 1 } else { -1 } * play(start, &mut engines, red, limits);
            match for_first {
                1 => w += 1,
                0 => d += 1,
                _ => l += 1,
            }
        }
    }
    (w, d, l)
}

#[test]
#[ignore = "plays dozens of games; a strength check, not a unit test"]
fn pruned_search_beats_plain_alpha_beta_at_equal_nodes() {
    let limits = Limits { nodes: Some(20_000), ..Default::default() };
    let (w, d, l) = match_result([SearchFeatures::default(), SearchFeatures::plain()], 20, &limits);
    let score = (w as f64 + d as f64 / 2.0) / (w + d + l) as f64;
    println!("full vs plain at 20k nodes: +{w} ={d} -{l} ({score:.3})");
    assert!(score > 0.55, "+{w} ={d} -{l}");
}

#[test]
#[ignore = "plays dozens of games against the clock; prints the result, asserts nothing about timing"]
fn pruned_search_against_plain_alpha_beta_at_equal_time() {
    let limits = Limits { movetime: Some(50), ..Default::default() };
    let (w, d, l) = match_result([SearchFeatures::default(), SearchFeatures::plain()], 20, &limits);
    println!("full vs plain at 50 ms a move: +{w} ={d} -{l}");
}
