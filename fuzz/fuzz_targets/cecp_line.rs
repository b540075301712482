//! CECP (xboard) lines through the CECP parser. Property: parsing is a function of the line (the same
//! answer twice), and a refusal prints as one short `Error (...)` line however long or strange the input.
#![no_main]

use fuzzkit::assert_one_short_line;
use libfuzzer_sys::fuzz_target;
use protocol::cecp::command::parse;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for line in text.lines().take(64) {
        let first = parse(line);
        assert_eq!(first, parse(line), "parsing {line:?} twice gave two answers");
        if line.trim().is_empty() {
            assert!(first.is_none(), "a blank line is not a command");
        }
        if let Some(Err(e)) = first {
            assert_one_short_line(&format!("Error ({}): {}", e.reason, e.command), 400);
        }
    }
});
