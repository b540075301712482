//! The stdin reader thread. It reads bytes (not UTF-8 strings, so binary garbage cannot kill it), cuts
//! them into lines of at most [`MAX_LINE`] bytes, decodes them lossily and forwards them to the main loop,
//! which is never busy for long (searches run on their own threads), so `stop` and `ponderhit` take effect
//! as they are read there. The reader only looks for `quit`, after which it reads no more.

use std::io::{self, BufRead, BufReader, Read};
use std::sync::mpsc::Sender;
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
pub fn spawn(input: impl Read + Send + 'static, tx: Sender<Input>) -> io::Result<JoinHandle<()>> {
    std::thread::Builder::new().name("stdin".into()).spawn(move || {
        let mut reader = BufReader::with_capacity(1 << 16, input);
        loop {
            let input = match read_raw_line(&mut reader, MAX_LINE) {
                Ok(raw) => input_of(raw),
                Err(e) => {
                    tracing::warn!("stdin: {e}");
                    Input::Eof
                }
            };
            let end = match &input {
                Input::Line { text } => {
                    tracing::debug!(target: "protocol", "< {}", crate::parse::echo_long(text));
                    text.split_whitespace().next().is_some_and(|w| w.eq_ignore_ascii_case("quit"))
                }
                Input::TooLong { .. } => false,
                Input::Eof => true,
            };
            if tx.send(input).is_err() || end {
                return;
            }
        }
    })
}

/// The input a raw line stands for: the decoded line, or for a too-long one its length and command.
pub fn input_of(raw: RawLine) -> Input {
    match raw {
        RawLine::Line(bytes) => Input::Line { text: decode(&bytes) },
        RawLine::TooLong(len, head) => {
            let command = decode(&head).split_whitespace().next().unwrap_or_default().to_string();
            Input::TooLong { len, command }
        }
        RawLine::Eof => Input::Eof,
    }
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
}
