//! The stdin reader thread. It reads bytes (not UTF-8 strings, so binary garbage cannot kill it), cuts
//! them into lines of at most [`MAX_LINE`] bytes, decodes them lossily and forwards them to the main loop.
//!
//! It also acts on `stop`, `ponderhit` and `quit` itself, flipping the search's flags the moment it reads
//! them, so they take effect within milliseconds however busy the main loop is. A `stop` can arrive
//! before the main loop has even started the search it is meant for; [`Signals`] numbers the `go`
//! commands so the main loop can tell, when it starts search k, whether a stop or ponderhit for k has
//! already been read.

use engine::search::SearchControl;
use std::io::{self, BufRead, BufReader, Read};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::thread::JoinHandle;

/// Longest line kept; the rest of a longer line is skipped and reported.
pub const MAX_LINE: usize = 4 << 20;

/// What the reader passes on.
#[derive(Debug, PartialEq, Eq)]
pub enum Input {
    /// One line, line end removed, invalid UTF-8 replaced.
    Line {
        /// The text.
        text: String,
        /// How many `go` commands had been read up to and including this line.
        go_number: u64,
    },
    /// A line longer than [`MAX_LINE`] bytes; it was skipped whole.
    TooLong {
        /// Its length in bytes.
        len: usize,
        /// Its first word (the command), for the message.
        command: String,
    },
    /// End of input (or a read error): the GUI is gone.
    Eof,
}

/// Counters shared by the reader and the main loop, all in units of "the k-th `go` read".
#[derive(Debug, Default)]
pub struct Signals {
    gos_read: AtomicU64,
    stop_upto: AtomicU64,
    ponderhit_upto: AtomicU64,
    draw_upto: AtomicU64,
}

impl Signals {
    /// Whether a `stop` (or `quit`) was read after `go` number `k`.
    pub fn stopped(&self, k: u64) -> bool {
        self.stop_upto.load(Ordering::SeqCst) >= k
    }

    /// Whether a `ponderhit` was read after `go` number `k`.
    pub fn ponderhit(&self, k: u64) -> bool {
        self.ponderhit_upto.load(Ordering::SeqCst) >= k
    }

    /// Whether a `ponderhit draw` (a draw offer) was read after `go` number `k`.
    pub fn draw_offered(&self, k: u64) -> bool {
        self.draw_upto.load(Ordering::SeqCst) >= k
    }

    /// Notes one input line: counts `go`s and records stop/ponderhit/quit, flipping `control` at once.
    /// Returns the line's `go` number.
    pub fn note(&self, line: &str, control: &SearchControl) -> u64 {
        let mut words = line.split_whitespace();
        let word = words.next().unwrap_or("").trim_start_matches('\u{feff}').to_ascii_lowercase();
        match word.as_str() {
            "go" => return self.gos_read.fetch_add(1, Ordering::SeqCst) + 1,
            "stop" | "quit" => {
                self.stop_upto.store(self.gos_read.load(Ordering::SeqCst), Ordering::SeqCst);
                control.stop();
            }
            "ponderhit" => {
                let k = self.gos_read.load(Ordering::SeqCst);
                // The offer is recorded before the ponderhit so the search sees both together.
                if words.next().is_some_and(|w| w.eq_ignore_ascii_case("draw")) {
                    self.draw_upto.store(k, Ordering::SeqCst);
                }
                self.ponderhit_upto.store(k, Ordering::SeqCst);
                control.ponderhit();
            }
            _ => {}
        }
        self.gos_read.load(Ordering::SeqCst)
    }
}

/// One line's worth of bytes.
#[derive(Debug, PartialEq, Eq)]
pub enum RawLine {
    /// A line (without its `\n`) of at most `max` bytes.
    Line(Vec<u8>),
    /// A line longer than `max` bytes: its full length and its first bytes (at most [`HEAD`]); the rest
    /// was never kept.
    TooLong(usize, Vec<u8>),
    /// Nothing more to read.
    Eof,
}

/// How much of a too-long line is kept to say what it was.
pub const HEAD: usize = 32;

/// Reads up to the next `\n` without keeping more than `max` bytes in memory.
pub fn read_raw_line(r: &mut impl BufRead, max: usize) -> io::Result<RawLine> {
    let mut buf = Vec::new();
    let mut len = 0usize;
    let mut any = false;
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        let room = max.saturating_sub(buf.len());
        buf.extend_from_slice(&part[..part.len().min(room)]);
        len += part.len();
        let used = done.unwrap_or(chunk.len());
        r.consume(used);
        if done.is_some() {
            break;
        }
    }
    Ok(match (any, len > max) {
        (false, _) => RawLine::Eof,
        (true, true) => {
            buf.truncate(HEAD);
            RawLine::TooLong(len, buf)
        }
        (true, false) => RawLine::Line(buf),
    })
}

/// Decodes a raw line: invalid UTF-8 becomes U+FFFD, a trailing `\r` (CRLF input) goes.
pub fn decode(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    text.strip_suffix('\r').unwrap_or(&text).to_string()
}

/// Starts the reader thread. It ends after `quit`, at EOF, or when the main loop has hung up.
pub fn spawn(
    input: impl Read + Send + 'static,
    tx: Sender<Input>,
    signals: Arc<Signals>,
    control: Arc<SearchControl>,
) -> io::Result<JoinHandle<()>> {
    std::thread::Builder::new().name("stdin".into()).spawn(move || {
        let mut reader = BufReader::with_capacity(1 << 16, input);
        loop {
            let input = match read_raw_line(&mut reader, MAX_LINE) {
                Ok(RawLine::Line(bytes)) => {
                    let text = decode(&bytes);
                    tracing::debug!(target: "protocol", "< {}", crate::parse::echo_long(&text));
                    let go_number = signals.note(&text, &control);
                    let quit = text.split_whitespace().next().is_some_and(|w| w.eq_ignore_ascii_case("quit"));
                    let sent = tx.send(Input::Line { text, go_number });
                    if quit || sent.is_err() {
                        return;
                    }
                    continue;
                }
                Ok(RawLine::TooLong(len, head)) => {
                    let command = decode(&head).split_whitespace().next().unwrap_or_default().to_string();
                    Input::TooLong { len, command }
                }
                Ok(RawLine::Eof) => Input::Eof,
                Err(e) => {
                    tracing::warn!("stdin: {e}");
                    Input::Eof
                }
            };
            let eof = input == Input::Eof;
            if eof {
                // The GUI is gone: stop whatever is running so the loop can finish.
                signals.stop_upto.store(signals.gos_read.load(Ordering::SeqCst), Ordering::SeqCst);
                control.stop();
            }
            if tx.send(input).is_err() || eof {
                return;
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(data: &[u8], max: usize) -> Vec<RawLine> {
        let mut r = BufReader::with_capacity(7, data);
        let mut out = vec![];
        loop {
            let l = read_raw_line(&mut r, max).unwrap();
            let eof = l == RawLine::Eof;
            out.push(l);
            if eof {
                return out;
            }
        }
    }

    #[test]
    fn splits_lines_and_keeps_the_last_unterminated_one() {
        assert_eq!(
            lines(b"uci\r\nisready\n\nquit", 100),
            vec![
                RawLine::Line(b"uci\r".to_vec()),
                RawLine::Line(b"isready".to_vec()),
                RawLine::Line(vec![]),
                RawLine::Line(b"quit".to_vec()),
                RawLine::Eof
            ]
        );
    }

    #[test]
    fn long_lines_are_skipped_whole() {
        let mut data = vec![b'x'; 50];
        data.extend_from_slice(b"\nisready\n");
        assert_eq!(
            lines(&data, 20),
            vec![RawLine::TooLong(50, vec![b'x'; 20]), RawLine::Line(b"isready".to_vec()), RawLine::Eof]
        );
    }

    #[test]
    fn garbage_decodes_lossily_and_crlf_goes() {
        assert_eq!(decode(b"go\xff\xfe depth 1\r"), "go\u{fffd}\u{fffd} depth 1");
        assert_eq!(decode(b"isready\r"), "isready");
    }

    #[test]
    fn stop_before_its_search_starts_is_remembered() {
        let s = Signals::default();
        let c = SearchControl::new();
        assert_eq!(s.note("go infinite", &c), 1);
        assert!(!s.stopped(1));
        assert_eq!(s.note("stop", &c), 1);
        assert!(s.stopped(1) && c.stopped());
        assert_eq!(s.note("go ponder", &c), 2);
        assert!(!s.stopped(2) && !s.ponderhit(2));
        s.note("ponderhit draw", &c);
        assert!(s.ponderhit(2) && s.draw_offered(2) && !s.draw_offered(3));
        assert_eq!(s.note("isready", &c), 2);
    }
}
