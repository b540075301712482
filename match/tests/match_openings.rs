//! The shipped opening book `scripts/openings.fen`: every line legal, 4-10 plies from the start position, at
//! least 100 distinct lines; and (ignored by default, it searches) no line lost for either side.

use arena::openings::{self, Opening};
use engine::position::START_FEN;
use engine::search::{Limits, SearchControl, Searcher, SilentReporter};
use engine::{Color, Position};
use std::collections::HashSet;

fn book() -> Vec<Opening> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/openings.fen");
    openings::load(std::path::Path::new(path)).expect("every line of scripts/openings.fen is legal")
}

#[test]
fn the_book_holds_over_a_hundred_distinct_legal_lines_from_the_start() {
    let book = book();
    assert!(book.len() >= 100, "{} lines", book.len());
    let mut finals = HashSet::new();
    for o in &book {
        assert_eq!(o.fen, START_FEN);
        assert!((4..=10).contains(&o.moves.len()), "{}", o.to_line());
        let mut pos = Position::from_fen(&o.fen).expect("start position");
        for m in &o.moves {
            pos.try_play(m).expect("legal (checked again move by move)");
        }
        assert!(pos.has_legal_move());
        assert!(finals.insert(pos.to_fen()), "duplicate line {}", o.to_line());
    }
}

/// The balance check used to build the book: a fixed-depth search with material evaluation must score
/// every line within 30 (about a pawn and a half; 100 = a horse) from Red's view.
#[test]
#[ignore = "searches 100+ positions; run with --release -- --ignored"]
fn no_line_is_lost_for_either_side() {
    let depth = std::env::var("OPENINGS_DEPTH").ok().and_then(|d| d.parse().ok()).unwrap_or(4);
    let mut worst = Vec::new();
    for o in book() {
        let mut pos = Position::from_fen(&o.fen).expect("start position");
        for m in &o.moves {
            pos.try_play(m).expect("legal");
        }
        let mut searcher = Searcher::new(engine::evaluate::MaterialEval);
        let limits = Limits { depth: Some(depth), ..Default::default() };
        let r = searcher.search(&pos, &limits, &mut SilentReporter, &SearchControl::new());
        let red = if pos.side_to_move() == Color::Red { r.score } else { -r.score } * 100
            / engine::evaluate::UNITS_PER_HORSE;
        println!("{red:>5}  {}", o.moves.join(" "));
        if red.abs() > 30 {
            worst.push((red, o.to_line()));
        }
    }
    assert!(worst.is_empty(), "unbalanced lines: {worst:?}");
}

/// The endgame openings of the tablebase matches, made by `chuhan-tune endgames`: `scripts/endgames.fen`
/// (a piece or two beyond what a table holds) and `scripts/endgames_won.fen` (covered positions the tables
/// call won): every line a legal, quiet position of its named material, a hundred distinct ones a file.
#[test]
fn the_endgame_openings_are_quiet_positions_of_their_named_material() {
    for name in ["endgames.fen", "endgames_won.fen"] {
        check_endgame_openings(&format!("{}/../scripts/{name}", env!("CARGO_MANIFEST_DIR")));
    }
}

fn check_endgame_openings(path: &str) {
    use engine::egtb::Material;
    let text = std::fs::read_to_string(path).expect("the endgame openings are there");
    let lines = openings::parse(&text).expect("every line is legal");
    assert!(lines.len() >= 100, "{} lines", lines.len());
    let mut seen = HashSet::new();
    for line in text.lines().filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty()) {
        let (fen, name) = line.split_once('#').expect("each position names its material after '#'");
        let pos = Position::from_fen(fen.trim()).expect("legal");
        let named: Material = name.trim().parse().expect("a material name");
        assert_eq!(Material::of(&pos), named, "{line}");
        assert!(named.total() <= 8, "{line}");
        assert!(!pos.in_check() && pos.has_legal_move(), "{line}");
        assert!(pos.legal_moves().into_iter().all(|&m| !pos.is_capture(m)), "{line}");
        assert!(seen.insert(pos.to_fen()), "duplicate {line}");
    }
    assert_eq!(seen.len(), lines.len());
}
