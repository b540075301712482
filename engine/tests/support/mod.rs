//! Helpers shared by the referee's test files (judge.rs, rule_sets.rs).

use engine::position::Position;
use engine::rules::GameResult;

/// The position of a test FEN, which must be valid.
pub fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("test position {fen}: {e}"))
}

/// The position with colours swapped and the moves to match.
pub fn flip(fen: &str, moves: &str) -> (String, String) {
    let flipped = position(fen).flipped().to_fen();
    let moves = moves
        .split_whitespace()
        .map(|m| {
            let b = m.as_bytes();
            let rank = |c: u8| char::from(b'9' - (c - b'0'));
            format!("{}{}{}{}", char::from(b[0]), rank(b[1]), char::from(b[2]), rank(b[3]))
        })
        .collect::<Vec<_>>()
        .join(" ");
    (flipped, moves)
}

/// The result with the colours swapped.
pub fn swapped(r: GameResult) -> GameResult {
    match r {
        GameResult::RedWins => GameResult::BlackWins,
        GameResult::BlackWins => GameResult::RedWins,
        other => other,
    }
}
