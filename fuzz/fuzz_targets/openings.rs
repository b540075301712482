//! Opening files (FEN lines with moves, or PGN). Property: every opening read sets up (its FEN and moves
//! are legal), and the openings written back as FEN lines read back as the same openings.
#![no_main]

use arena::openings::parse;
use fuzzkit::assert_one_short_line;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let openings = match parse(&text) {
        Ok(o) => o,
        Err(e) => return assert_one_short_line(&e.to_string(), 600),
    };
    for o in &openings {
        let pos = o.position().unwrap_or_else(|e| panic!("an opening read does not set up: {e}"));
        assert_eq!(pos.key(), pos.compute_key());
    }
    let written: Vec<String> = openings.iter().map(|o| o.to_line()).collect();
    let back = parse(&written.join("\n")).unwrap_or_else(|e| panic!("written openings refused: {e}"));
    assert_eq!(back, openings);
});
