//! Inputs the fuzz targets of fuzz/ found mishandled, kept as ordinary tests (issue 36). Each bad input must
//! give one short message line, with no control character from the input in it.

use engine::notation::from_chinese;
use engine::Position;

fn assert_one_clean_line(message: &str) {
    assert!(!message.chars().any(char::is_control), "{message:?}");
    assert!(message.len() < 200, "{} bytes: {message}", message.len());
}

/// `fen` target: a FEN board with control characters was echoed raw in the message.
#[test]
fn fen_errors_show_control_characters_as_visible_replacements() {
    for fen in [
        "\u{6}\0\r/",
        "\u{15}/",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR \x1b[2J",
        &"\r".repeat(5000),
    ] {
        let e = Position::from_fen(fen).expect_err("refused");
        assert_one_clean_line(&e.to_string());
    }
}

/// `move_list` target: a move word with control characters was echoed raw.
#[test]
fn move_errors_show_control_characters_as_visible_replacements() {
    let mut pos = Position::startpos();
    for word in [")\u{4}\u{4}+a\u{4}", "\r\r\r\r", "h2e\u{7}", "\u{1b}[1m"] {
        let e = pos.try_play(word).expect_err("refused");
        assert_one_clean_line(&e.to_string());
    }
    assert_eq!(pos, Position::startpos(), "refused moves change nothing");
    let e = from_chinese(&pos, "炮\u{1b}二平五\r").map(|m| m.to_string()).unwrap_or_else(|e| e.to_string());
    assert_one_clean_line(&e);
}
