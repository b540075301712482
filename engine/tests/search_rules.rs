//! Game-ending rules inside the search: perpetual check, the 120-ply no-capture limit, repetitions.

use engine::evaluate::MaterialEval;
use engine::rules::{cycle_outcome, CycleOutcome};
use engine::search::repetition::repeated_cycle_len;
use engine::search::{Limits, Score, SearchControl, Searcher, SilentReporter};
use engine::Position;

fn search(pos: &Position, depth: u32) -> engine::search::SearchResult {
    let mut searcher = Searcher::new(MaterialEval);
    searcher.search(
        pos,
        &Limits { depth: Some(depth), ..Default::default() },
        &mut SilentReporter,
        &SearchControl::new(),
    )
}

fn play(fen: &str, moves: &str) -> Position {
    let mut pos = Position::from_fen(fen).expect("valid FEN");
    for m in moves.split_whitespace() {
        pos.try_play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    pos
}

/// Red (a rook down, and facing two rooks) can check forever: Rd1+ Ke9 Re1+ Kd9 ... The black king's only
/// squares are d9 and e9 (f9 faces the red king), and the black rooks on the back rank cannot interpose.
/// A search that scored every repetition as a draw would call this 0; perpetual check is forbidden, so the
/// checker loses and the score must stay clearly negative.
const PERPETUAL: &str = "r2k4r/9/9/9/9/9/9/9/4R4/5K3 w - - 0 1";

#[test]
fn one_sided_perpetual_check_does_not_save_the_checker() {
    let pos = Position::from_fen(PERPETUAL).expect("valid FEN");
    let result = search(&pos, 10);
    assert!(result.score <= -400, "perpetual check must not count as a draw: {result:?}");
}

#[test]
fn the_checking_cycle_is_judged_against_the_checker() {
    let pos = play(PERPETUAL, "e1d1 d9e9 d1e1 e9d9");
    assert_eq!(repeated_cycle_len(&pos), Some(4));
    assert_eq!(cycle_outcome(&pos, 4), CycleOutcome::SideToMoveLoses);
    // The side being checked would, at the repetition, see the win.
    let pos = play(PERPETUAL, "e1d1 d9e9 d1e1 e9d9 e1d1");
    assert_eq!(cycle_outcome(&pos, 4), CycleOutcome::SideToMoveWins);
}

#[test]
fn mutual_perpetual_check_is_a_draw() {
    // Red's cannon steps aside (d4e4) and discovers the rook's check; Black's rook interposes (e8d8) and
    // discovers its own cannon's check; both step back. Every move of the cycle was a check: a draw.
    let fen = "3kc4/4r4/9/9/9/3C5/9/4K4/3R5/9 w - - 0 1";
    let pos = play(fen, "d4e4 e8d8 e4d4 d8e8");
    assert_eq!(repeated_cycle_len(&pos), Some(4));
    assert_eq!(cycle_outcome(&pos, 4), CycleOutcome::Draw);
    let mut p = play(fen, "d4e4 e8d8 e4d4");
    p.make_move(p.parse_move("d8e8").expect("legal"));
    assert_eq!(engine::search::repetition::cycle_score(&mut p, 5, &mut Default::default()), Some(0));
}

#[test]
fn the_natural_limit_draws_a_won_position() {
    // Red is a rook up, but no capture is possible this move: whatever Red plays makes it 120 plies without a
    // capture, a draw.
    let pos = Position::from_fen("4k4/9/9/2p3p2/9/9/9/9/1R7/3K5 w - - 119 80").expect("valid FEN");
    let result = search(&pos, 8);
    assert_eq!(result.score, 0, "{result:?}");
    let fresh = Position::from_fen("4k4/9/9/2p3p2/9/9/9/9/1R7/3K5 w - - 0 80").expect("valid FEN");
    assert!(search(&fresh, 8).score >= 400);
}

#[test]
fn mate_on_the_last_ply_before_the_limit_still_wins() {
    // The mating move makes the no-capture count 120, but a side with no legal move has lost.
    let pos = Position::from_fen("4k4/R8/9/2p3p2/9/9/9/9/1R7/3K5 w - - 119 80").expect("valid FEN");
    let result = search(&pos, 6);
    assert_eq!(Score::from_internal(result.score), Score::Mate(1), "{result:?}");
}

#[test]
fn a_winning_side_avoids_repeating() {
    // Red is a rook up and the game history already holds the position after a shuffle: Red must not go back
    // into the repetition (a draw) but keep the win.
    let pos = play("4k4/9/9/2p3p2/9/9/9/9/1R7/3K5 w - - 0 1", "b1b2 e9e8 b2b1 e8e9");
    assert_eq!(repeated_cycle_len(&pos), Some(4));
    let result = search(&pos, 8);
    assert!(result.score >= 400, "a repetition (0) must not be chosen: {result:?}");
}

#[test]
fn the_search_sees_the_referees_verdict_on_a_cycle_through_the_game() {
    // Red's rook has swung i2-i0-i2 threatening mate each time, and Black parried b2-f2; now Black's
    // f2-b2 repeats the position, a cycle in which every Red move threatened mate (forbidden, art. 26.4)
    // and Black's were idle. The referee calls that a loss for Red, and so must the search at the root:
    // Black's best move is the repetition, scored as a win.
    let pos = play("1P7/9/5k3/9/9/9/9/1r6R/2C6/4K4 w - - 0 1", "i2i0 b2f2 i0i2");
    let result = search(&pos, 4);
    assert_eq!(result.best.map(|m| m.to_string()), Some("f2b2".to_string()), "{result:?}");
    assert!(matches!(Score::from_internal(result.score), Score::Mate(n) if n > 0), "{result:?}");
    // Red, in turn, will not walk back into it: from the position after b2-f2 the move i0-i2 that led to
    // the forbidden cycle is avoided once the cycle is in the game's history.
    let pos = play("1P7/9/5k3/9/9/9/9/1r6R/2C6/4K4 w - - 0 1", "i2i0 b2f2 i0i2 f2b2 i2i0 b2f2");
    let result = search(&pos, 4);
    assert_ne!(result.best.map(|m| m.to_string()), Some("i0i2".to_string()), "{result:?}");
}
