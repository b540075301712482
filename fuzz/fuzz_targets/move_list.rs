//! Move lists in `position`: a start (the start position, or a FEN in the input before a zero byte) and
//! a list of move words, each played with `try_play` when legal. Property: the incremental key always equals
//! the key computed from scratch; a refused word changes nothing; undoing every move played restores the
//! starting position and its Zobrist key, and so does every null move.
#![no_main]

use engine::Position;
use fuzzkit::{assert_one_short_line, split_at_zero};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (head, tail) = split_at_zero(data);
    let (fen, words) = if tail.is_empty() { (None, head) } else { (Some(head), tail) };
    let mut pos = match fen {
        Some(f) => match Position::from_fen(&String::from_utf8_lossy(f)) {
            Ok(p) => p,
            Err(_) => return,
        },
        None => Position::startpos(),
    };
    let start = pos.clone();
    let start_key = pos.key();
    let words = String::from_utf8_lossy(words);
    let mut played = 0;
    let mut keys = vec![pos.key()];
    for (i, word) in words.split_whitespace().take(400).enumerate() {
        // Every fourth word also tries a move picked among the legal ones, so games get long.
        if i % 4 == 3 {
            let legal = pos.legal_moves();
            if let Some(&m) = legal.get(word.len() % legal.len().max(1)) {
                assert!(pos.is_legal(m));
                pos.make_move(m);
                played += 1;
                keys.push(pos.key());
            }
        }
        let before = pos.clone();
        let before_key = pos.key();
        match pos.try_play(word) {
            Ok(m) => {
                assert!(before.legal_moves().contains(m), "{word} accepted but not legal in {before:?}");
                played += 1;
                keys.push(pos.key());
            }
            Err(e) => {
                assert_one_short_line(&e.to_string(), 400);
                assert_eq!(pos, before, "a refused move changed the position");
                assert_eq!(pos.key(), before_key);
            }
        }
        assert_eq!(pos.key(), pos.compute_key(), "incremental key after {word}");
        if !pos.in_check() {
            pos.make_null_move();
            assert_eq!(pos.key(), pos.compute_key());
            pos.unmake_null_move();
            assert_eq!(pos.key(), *keys.last().unwrap());
        }
    }
    for _ in 0..played {
        assert_eq!(pos.key(), keys.pop().unwrap());
        pos.unmake_move();
    }
    assert_eq!(pos, start, "undoing every move");
    assert_eq!(pos.key(), start_key, "undoing every move restores the key");
});
