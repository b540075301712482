//! UCI/UCCI lines through a whole in-process session (parser, position resolution, options, display).
//! Property: a line the parser refuses, or a `position` that cannot be set up, gets exactly one message
//! line; a refused `position` leaves the last valid one in place (`d` prints the same FEN before and after);
//! after everything the session still answers `isready` with `readyok`.
#![no_main]

use fuzzkit::assert_one_short_line;
use libfuzzer_sys::fuzz_target;
use protocol::output::Output;
use protocol::reader::Input;
use protocol::session::{Config, Session};
use protocol::{parse, Command, Dialect, ParseError};
use std::io::Write;
use std::sync::{Arc, Mutex};

/// Output lines shared between the session and the target.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    /// The lines written since the last call.
    fn take(&self) -> Vec<String> {
        let bytes = std::mem::take(&mut *self.0.lock().unwrap());
        String::from_utf8_lossy(&bytes).lines().map(String::from).collect()
    }
}

/// Lines that would end the session, start a search or a long tool, or touch files and big tables: the
/// session handles those like any other command, but a fuzz run must stay fast and in memory.
fn excluded(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    let first = lower.split_whitespace().next().unwrap_or("");
    matches!(first, "go" | "bench" | "perft" | "quit" | "xboard")
        || protocol::cecp::opens(line)
        || (first == "setoption"
            && ["hash", "thread", "file", "log", "path", "book", "egtb", "table"]
                .iter()
                .any(|w| lower.contains(w)))
}

/// The FEN line of the `d` board.
fn shown_fen(session: &mut Session, out: &Captured) -> Option<String> {
    session.receive(Input::Line { text: "d".into() });
    out.take().into_iter().find_map(|l| l.split_once("FEN: ").map(|(_, f)| f.trim().to_string()))
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let lines: Vec<&str> = text.lines().take(16).collect();
    let out = Captured::default();
    let mut session = Session::new(Output::new(out.clone()), Config::default());
    let mut dialect = Dialect::Uci;
    for line in lines {
        if excluded(line) {
            continue;
        }
        let parsed = parse(line, dialect);
        let before = match &parsed {
            Ok(Command::Position(_)) => shown_fen(&mut session, &out),
            _ => None,
        };
        session.receive(Input::Line { text: line.to_string() });
        let said = out.take();
        match parsed {
            Err(ParseError::Empty) => assert!(said.is_empty(), "{line:?} -> {said:?}"),
            Err(e) => {
                assert_eq!(said.len(), 1, "{line:?} ({e}) -> {said:?}");
                assert_one_short_line(&said[0], 400);
            }
            Ok(Command::Uci) => dialect = Dialect::Uci,
            Ok(Command::Ucci) => dialect = Dialect::Ucci,
            Ok(Command::Position(_)) if said.iter().any(|l| l.contains("position rejected")) => {
                assert_eq!(said.len(), 1, "{line:?} -> {said:?}");
                assert_eq!(shown_fen(&mut session, &out), before, "a refused position changed the board");
            }
            Ok(_) => {}
        }
    }
    session.receive(Input::Line { text: "isready".into() });
    let said = out.take();
    assert_eq!(said.last().map(String::as_str), Some("readyok"), "{said:?}");
});
