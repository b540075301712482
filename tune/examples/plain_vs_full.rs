//! A strength sanity check, not a test: the full search against a plain alpha-beta (same move ordering,
//! hash table and quiescence, but no pruning, reductions or extensions), in games from the first 20 bench
//! positions, each played with both colours, judged by `engine::rules` through `tune::selfplay`. A small
//! positional evaluator lives here so the games are not decided by material alone; the real evaluator is
//! in the `eval` crate.
//!
//! ```text
//! cargo run --release -p chuhan-tune --example plain_vs_full            # 20,000 nodes a move
//! cargo run --release -p chuhan-tune --example plain_vs_full -- 50ms    # 50 ms a move
//! ```

use engine::evaluate::Evaluate;
use engine::search::{Limits, SearchFeatures, Searcher};
use engine::{Color, Piece, PieceKind};
use tune::selfplay::{play, GameConfig};

/// Material, mobility of horses and rooks, central cannons and advanced pawns.
#[derive(Clone, Copy)]
struct SketchEval;

impl Evaluate for SketchEval {
    type State = ();

    fn new_state(&self) {}

    fn evaluate_with(&self, pos: &engine::Position, _: &mut ()) -> i32 {
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

/// Wins, draws and losses of the full search over `openings` bench positions, both colours each.
fn match_result(openings: usize, limits: &Limits) -> (u32, u32, u32) {
    let positions = engine::bench::parse_fens(engine::bench::DEFAULT_FENS).expect("bench positions");
    let mut full = Searcher::new(SketchEval);
    let mut plain = Searcher::new(SketchEval);
    plain.set_features(SearchFeatures::plain());
    let config = GameConfig { limits: limits.clone(), max_plies: 300, adjudication: None };
    let (mut w, mut d, mut l) = (0, 0, 0);
    for start in positions.iter().take(openings) {
        for full_colour in Color::ALL {
            let game = match full_colour {
                Color::Red => play(start, &mut full, &mut plain, &config),
                Color::Black => play(start, &mut plain, &mut full, &config),
            };
            match game.result.points(full_colour) {
                p if p > 0.75 => w += 1,
                p if p < 0.25 => l += 1,
                _ => d += 1,
            }
        }
    }
    (w, d, l)
}

fn main() {
    let timed = std::env::args().nth(1).is_some_and(|a| a.ends_with("ms"));
    let limits = if timed {
        Limits { movetime: Some(50), ..Default::default() }
    } else {
        Limits { nodes: Some(20_000), ..Default::default() }
    };
    let (w, d, l) = match_result(20, &limits);
    let score = (w as f64 + d as f64 / 2.0) / (w + d + l).max(1) as f64;
    let what = if timed { "50 ms a move" } else { "20k nodes a move" };
    println!("full vs plain at {what}: +{w} ={d} -{l} ({score:.3})");
}
