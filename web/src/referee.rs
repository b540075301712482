//! The page's rules service: for a game given as a `position` line (the UCI command, parsed by the
//! protocol crate's own parser), the legal moves, the moves in Chinese notation, and the referee's
//! verdict in words. The page asks it after every move; the engine worker is busy searching then, and
//! these answers take microseconds.
//!
//! Request: a `position startpos|fen <FEN> [moves ...]` line, optionally followed by a
//! `line <move> ...` line (a principal variation from the game's last position, to write in Chinese).
//! Answer: one JSON object; `{"ok":false,"error":...}` when the request cannot be used.

use crate::json::{object, string, strings};
use engine::notation::to_chinese;
use engine::rules::Referee;
use engine::{Color, Position};
use protocol::command::{Base, Command, Dialect};

/// The JSON answer to `request` (never fails: a bad request gets an error object).
pub fn answer(request: &str) -> String {
    match describe(request) {
        Ok(json) => json,
        Err(e) => object(&[("ok", "false".into()), ("error", string(&e))]),
    }
}

fn describe(request: &str) -> Result<String, String> {
    let mut lines = request.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().ok_or("empty request")?;
    let spec = match protocol::parse(first, Dialect::Uci) {
        Ok(Command::Position(spec)) => spec,
        Ok(_) => return Err("the request must start with a position line".into()),
        Err(e) => return Err(e.to_string()),
    };
    let start = match &spec.base {
        Base::Startpos => Position::startpos(),
        Base::Fen(fen) => Position::from_fen(fen).map_err(|e| format!("bad FEN: {e}"))?,
    };
    let mut referee = Referee::new(start);
    let mut chinese = Vec::with_capacity(spec.moves.len());
    for (i, text) in spec.moves.iter().enumerate() {
        if referee.judgement().is_over() {
            return Err(format!("move {} ('{text}') comes after the game ended", i + 1));
        }
        let pos = referee.position();
        let m = pos.parse_move(text).map_err(|e| format!("move {} ('{text}'): {e}", i + 1))?;
        if !pos.is_legal(m) {
            return Err(format!("move {} ('{text}') is illegal", i + 1));
        }
        chinese.push(to_chinese(pos, m));
        referee.play(m);
    }
    let pos = referee.position();
    let line = match lines.next().and_then(|l| l.strip_prefix("line")) {
        Some(moves) => line_in_chinese(pos, moves.split_whitespace()),
        None => Vec::new(),
    };
    let judgement = referee.judgement();
    let over = judgement.is_over();
    let legal: Vec<String> =
        if over { Vec::new() } else { pos.legal_moves().iter().map(|m| m.to_string()).collect() };
    Ok(object(&[
        ("ok", "true".into()),
        ("fen", string(&pos.to_fen())),
        ("turn", string(if pos.side_to_move() == Color::Red { "red" } else { "black" })),
        ("check", pos.in_check().to_string()),
        ("legal", strings(legal)),
        ("moves", strings(chinese)),
        ("line", strings(line)),
        ("result", string(&judgement.result.to_string())),
        ("reason", string(&judgement.reason.to_string())),
        ("detail", string(&judgement.detail)),
    ]))
}

/// The moves of a line in Chinese notation, up to the first that is not legal where it comes.
fn line_in_chinese<'a>(start: &Position, moves: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut pos = start.clone();
    let mut out = Vec::new();
    for text in moves {
        let Ok(m) = pos.parse_move(text) else { break };
        if !pos.is_legal(m) {
            break;
        }
        out.push(to_chinese(&pos, m));
        pos.make_move(m);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_and_a_line_in_chinese() {
        let a = answer("position startpos moves h2e2\nline h9g7 h0g2");
        assert!(a.starts_with("{\"ok\":true,"), "{a}");
        assert!(a.contains("\"turn\":\"black\""), "{a}");
        assert!(a.contains("\"moves\":[\"炮二平五\"]"), "{a}");
        assert!(a.contains("\"line\":[\"马8进7\",\"马二进三\"]"), "{a}");
        assert!(a.contains("\"result\":\"*\""), "{a}");
        assert!(a.contains("\"h9g7\""), "{a}");
    }

    #[test]
    fn bad_requests_are_answered_with_an_error() {
        for bad in ["", "go depth 3", "position fen xyz", "position startpos moves h2e2 h2e2"] {
            let a = answer(bad);
            assert!(a.starts_with("{\"ok\":false,\"error\":"), "{bad}: {a}");
        }
    }

    #[test]
    fn checkmate_ends_the_game_in_words() {
        // The rook on a9 checks; d8 is the other rook's and e9 faces the red king.
        let a = answer("position fen 3k5/8R/9/9/9/9/9/9/9/R3K4 w - - 0 1 moves a0a9");
        assert!(a.contains("\"result\":\"1-0\""), "{a}");
        assert!(a.contains("\"reason\":\"checkmate\""), "{a}");
        assert!(a.contains("\"legal\":[]"), "{a}");
    }
}
