//! FEN text. Property: a FEN that parses is written back by our writer, and that text parses to the same
//! position with the same Zobrist key, which is also the key computed from scratch; a refusal is one line.
#![no_main]

use engine::Position;
use fuzzkit::assert_one_short_line;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let composed = Position::from_composed_fen(&text);
    match Position::from_fen(&text) {
        Ok(pos) => {
            assert_eq!(pos.key(), pos.compute_key(), "key of {text:?}");
            let written = pos.to_fen();
            let again =
                Position::from_fen(&written).unwrap_or_else(|e| panic!("{written:?} is refused: {e}"));
            assert_eq!(again, pos, "{text:?} -> {written:?}");
            assert_eq!(again.key(), pos.key(), "{text:?} -> {written:?}");
            assert_eq!(again.to_fen(), written);
            assert!(composed.is_ok(), "a legal FEN refused as a composed one: {text:?}");
            // The legal moves do not depend on how the FEN was spelled.
            assert_eq!(pos.legal_moves().as_slice(), again.legal_moves().as_slice());
        }
        Err(e) => assert_one_short_line(&e.to_string(), 400),
    }
    if let Ok(c) = composed {
        let _ = c.warning();
        let pos = c.position;
        assert_eq!(pos.key(), pos.compute_key());
        let _ = pos.legal_moves();
        let _ = pos.to_xboard_fen();
    }
});
