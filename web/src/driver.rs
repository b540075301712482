//! The session behind the browser worker: text from the host, split into lines exactly as the native
//! stdin reader splits its bytes ([`protocol::reader::read_raw_line`]), each handed to the shared
//! [`Session`].

use protocol::output::Output;
use protocol::reader::{input_of, read_raw_line, Input, RawLine, MAX_LINE};
use protocol::session::{Config, Next, Session};
use std::io::Write;

/// How long a search that only `stop` would end may think in the browser when the host cannot deliver
/// `stop` during a search (one thread, and no memory shared with the page): ten seconds.
pub const UNSTOPPABLE_SEARCH_MS: u64 = 10_000;

/// One engine conversation fed by the host.
pub struct Driver {
    session: Session,
    /// After `quit`: the native engine would have exited, so lines are no longer read.
    ended: bool,
}

impl Driver {
    /// A conversation whose output lines go to `out`; `interruptible` when the host delivers `stop` and
    /// `ponderhit` to a running search ([`engine::search::interrupt`]), so that no search needs a cap.
    pub fn new(out: impl Write + Send + 'static, interruptible: bool) -> Driver {
        let cap = if interruptible { None } else { Some(UNSTOPPABLE_SEARCH_MS) };
        let config = Config { tty: false, unstoppable_search_ms: cap };
        Driver { session: Session::new(Output::new(out), config), ended: false }
    }

    /// Handles every line in `bytes` (a message may hold several; a last line needs no line end).
    /// Returns whether the conversation is over (`quit`).
    pub fn send(&mut self, bytes: &[u8]) -> bool {
        let mut reader = bytes;
        while !self.ended {
            let input = match read_raw_line(&mut reader, MAX_LINE) {
                Ok(RawLine::Eof) | Err(_) => break,
                Ok(raw) => input_of(raw),
            };
            match self.session.receive(input) {
                Next::Continue => {}
                Next::End => self.ended = true,
                // CECP needs its own loop over the whole input, which the worker does not hand over.
                Next::Xboard => self
                    .session
                    .refuse("xboard: the browser build speaks UCI and UCCI only; send uci or ucci"),
            }
        }
        self.ended
    }

    /// Whether `quit` has come.
    pub fn ended(&self) -> bool {
        self.ended
    }
}

/// What the end of the host's input means: the same as the end of stdin (any search answers).
impl Drop for Driver {
    fn drop(&mut self) {
        if !self.ended {
            let _ = self.session.receive(Input::Eof);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// Collects what the engine writes.
    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>);
    impl Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().map_err(|_| std::io::Error::other("poisoned"))?.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    impl Sink {
        fn text(&self) -> String {
            String::from_utf8_lossy(&self.0.lock().expect("not poisoned")).into_owned()
        }
    }

    #[test]
    fn speaks_uci_line_by_line_and_answers_a_search() {
        let sink = Sink::default();
        let mut d = Driver::new(sink.clone(), false);
        assert!(!d.send(b"uci\nisready"));
        assert!(!d.send(b"position startpos moves h2e2\r\ngo depth 3\n"));
        // On the host the search has its own thread (the end of input would stop it): wait for its answer.
        while !sink.text().contains("bestmove ") {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        drop(d);
        let text = sink.text();
        assert!(text.contains("uciok\n"), "{text}");
        assert!(text.contains("readyok\n"), "{text}");
        assert!(text.contains("info depth 3"), "{text}");
        assert!(text.lines().last().is_some_and(|l| l.starts_with("bestmove ")), "{text}");
    }

    #[test]
    fn bad_lines_get_one_message_and_quit_ends() {
        let sink = Sink::default();
        let mut d = Driver::new(sink.clone(), false);
        d.send(b"uci\n");
        let before = sink.text().lines().count();
        d.send(b"position fen nonsense\n");
        d.send(b"xboard\n");
        let text = sink.text();
        let after: Vec<&str> = text.lines().skip(before).collect();
        assert_eq!(after.len(), 2, "{after:?}");
        assert!(after.iter().all(|l| l.starts_with("info string ")), "{after:?}");
        assert!(d.send(b"quit\nisready\n"));
        assert!(d.ended());
        assert!(!sink.text().ends_with("readyok\n"), "nothing is read after quit");
    }

    #[test]
    fn an_infinite_search_answers_by_itself() {
        let sink = Sink::default();
        let mut d = Driver::new(sink.clone(), false);
        d.send(b"uci\nposition fen 4k4/9/9/9/9/9/9/9/4A4/3AK4 w\ngo infinite\n");
        // The end of input would stop an infinite search at once; the cap alone must end this one.
        while !sink.text().contains("bestmove ") {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        drop(d);
        assert!(sink.text().contains("bestmove "), "{}", sink.text());
    }
}
