//! Chinese move notation. The bytes before a zero byte choose a position (one legal move per byte from
//! the start); the rest is read as a move in Chinese notation. Property: every legal move written in
//! Chinese reads back as the same move, no two legal moves are written alike, and arbitrary text reads as
//! a legal move or is refused with one short message.
#![no_main]

use engine::notation::{from_chinese, to_chinese};
use fuzzkit::{assert_one_short_line, position_from_choices, split_at_zero};
use libfuzzer_sys::fuzz_target;
use std::collections::HashSet;

fuzz_target!(|data: &[u8]| {
    let (game, text) = split_at_zero(data);
    let pos = position_from_choices(game);
    let legal = pos.legal_moves();
    let mut seen = HashSet::new();
    for &m in legal.iter() {
        let written = to_chinese(&pos, m);
        assert!(seen.insert(written.clone()), "two moves written {written} in {pos:?}");
        assert_eq!(from_chinese(&pos, &written), Ok(m), "{written} in {pos:?}");
    }
    let text = String::from_utf8_lossy(text);
    match from_chinese(&pos, &text) {
        Ok(m) => assert!(legal.contains(m), "{text:?} read as the illegal {m} in {pos:?}"),
        Err(e) => assert_one_short_line(&e.to_string(), 400),
    }
});
