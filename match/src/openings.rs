//! Opening lines: read from a file of FEN lines (optionally followed by `moves ...`) or from PGN, checked
//! move by move, cut to a number of plies, and put in order.

use super::referee;
use engine::fen::FenError;
use engine::position::{MoveError, START_FEN};
use engine::text::{clip, clip_to};
use engine::Position;
use std::fmt;
use std::path::Path;

/// A starting position and the moves played from it before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// FEN of the starting position (normalised by our FEN writer).
    pub fen: String,
    /// Moves in coordinates (`h2e2`), all legal.
    pub moves: Vec<String>,
}

impl Opening {
    /// The standard start position with no moves.
    pub fn startpos() -> Opening {
        Opening { fen: START_FEN.to_string(), moves: Vec::new() }
    }

    /// The position at the end of the line (with the line's moves as its history).
    pub fn position(&self) -> Result<Position, OpeningError> {
        let mut pos =
            Position::from_fen(&self.fen).map_err(|e| OpeningError::LineFen(self.fen.clone(), e))?;
        for text in &self.moves {
            pos.try_play(text).map_err(|e| OpeningError::LineMove(self.to_line(), text.clone(), e))?;
        }
        Ok(pos)
    }

    /// The line as written in an openings file.
    pub fn to_line(&self) -> String {
        if self.moves.is_empty() {
            self.fen.clone()
        } else {
            format!("{} moves {}", self.fen, self.moves.join(" "))
        }
    }
}

/// An opening file, or an opening line, that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningError {
    /// The file could not be read.
    Read(String, String),
    /// A bad FEN; (line or game number, what was wrong).
    Fen(usize, String),
    /// A move that is not legal or not understood; (line or game number, move, why).
    Move(usize, String, ReadMoveError),
    /// The file holds no lines.
    Empty,
    /// An [`Opening`] whose FEN is not a position; (the FEN, why).
    LineFen(String, FenError),
    /// An [`Opening`] with a move that cannot be played; (the line, the move, why).
    LineMove(String, String, MoveError),
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningError::Read(p, e) => write!(f, "cannot read {p}: {e}"),
            OpeningError::Fen(n, e) => write!(f, "opening {n}: {e}"),
            OpeningError::Move(n, m, e) => write!(f, "opening {n}: move '{}': {e}", clip(m)),
            OpeningError::Empty => f.write_str("the opening file holds no positions"),
            OpeningError::LineFen(fen, e) => write!(f, "opening '{}': {e}", clip_to(fen, 120)),
            OpeningError::LineMove(line, m, e) => {
                write!(f, "opening '{}': move {}: {e}", clip_to(line, 120), clip(m))
            }
        }
    }
}

impl std::error::Error for OpeningError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OpeningError::Move(_, _, e) => Some(e),
            OpeningError::LineFen(_, e) => Some(e),
            OpeningError::LineMove(_, _, e) => Some(e),
            _ => None,
        }
    }
}

/// A move word that [`read_move`] cannot play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadMoveError {
    /// Four characters read as coordinates, but not a legal move (or not squares).
    Coordinates(MoveError),
    /// Neither coordinates nor a legal move in Chinese notation.
    Unreadable,
}

impl fmt::Display for ReadMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadMoveError::Coordinates(e) => write!(f, "{e}"),
            ReadMoveError::Unreadable => f.write_str("not a legal move in coordinates or Chinese notation"),
        }
    }
}

impl std::error::Error for ReadMoveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadMoveError::Coordinates(e) => Some(e),
            ReadMoveError::Unreadable => None,
        }
    }
}

/// Reads an opening file (PGN if its first non-blank character is `[`, otherwise FEN lines).
pub fn load(path: &Path) -> Result<Vec<Opening>, OpeningError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| OpeningError::Read(path.display().to_string(), e.to_string()))?;
    parse(&text)
}

/// Parses the text of an opening file.
pub fn parse(text: &str) -> Result<Vec<Opening>, OpeningError> {
    let text = text.trim_start_matches('\u{feff}');
    let openings = if text.trim_start().starts_with('[') { parse_pgn(text)? } else { parse_lines(text)? };
    if openings.is_empty() {
        return Err(OpeningError::Empty);
    }
    Ok(openings)
}

/// FEN lines: `FEN [moves m1 m2 ...]`, or `startpos [moves ...]`; `#` starts a comment.
fn parse_lines(text: &str) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let line = line.strip_prefix("fen ").unwrap_or(line);
        let (fen_part, moves_part) = match line.split_once(" moves") {
            Some((f, m)) => (f.trim(), m),
            None => (line, ""),
        };
        let fen = if fen_part == "startpos" { START_FEN } else { fen_part };
        let pos = Position::from_fen(fen).map_err(|e| OpeningError::Fen(n, e.to_string()))?;
        let words: Vec<&str> = moves_part.split_whitespace().collect();
        out.push(play_line(n, pos, &words)?);
    }
    Ok(out)
}

/// Plays `words` (coordinates or Chinese notation) from `pos`, checking each.
fn play_line(n: usize, mut pos: Position, words: &[&str]) -> Result<Opening, OpeningError> {
    let fen = pos.to_fen();
    let mut moves = Vec::new();
    for w in words {
        let m = read_move(&pos, w).map_err(|e| OpeningError::Move(n, w.to_string(), e))?;
        moves.push(m.to_string());
        pos.make_move(m);
    }
    Ok(Opening { fen, moves })
}

/// A move in coordinates (`h2e2`, `h2-e2`) or Chinese notation (`炮二平五`).
pub fn read_move(pos: &Position, word: &str) -> Result<engine::Move, ReadMoveError> {
    let plain: String = word.chars().filter(|c| *c != '-').collect();
    if plain.len() == 4 && plain.is_ascii() {
        return pos.parse_move(&plain.to_ascii_lowercase()).map_err(ReadMoveError::Coordinates);
    }
    referee::from_chinese(pos, word).ok_or(ReadMoveError::Unreadable)
}

/// PGN games: the `FEN` tag (default: the start position) and the move text, whose comments, variations,
/// move numbers and result are skipped.
fn parse_pgn(text: &str) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    let mut fen: Option<String> = None;
    let mut movetext = String::new();
    let mut in_moves = false;
    let mut flush = |fen: &mut Option<String>, movetext: &mut String| -> Result<(), OpeningError> {
        let n = out.len() + 1;
        let start = fen.take().unwrap_or_else(|| START_FEN.to_string());
        let pos = Position::from_fen(&start).map_err(|e| OpeningError::Fen(n, e.to_string()))?;
        let tokens = movetext_tokens(movetext);
        let words: Vec<&str> = tokens.iter().map(String::as_str).collect();
        out.push(play_line(n, pos, &words)?);
        movetext.clear();
        Ok(())
    };
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            if in_moves {
                flush(&mut fen, &mut movetext)?;
                in_moves = false;
            }
            if let Some(value) = tag_value(t, "FEN") {
                fen = Some(value);
            }
        } else if !t.is_empty() {
            in_moves = true;
            movetext.push_str(t);
            movetext.push('\n');
        }
    }
    if in_moves || fen.is_some() {
        flush(&mut fen, &mut movetext)?;
    }
    Ok(out)
}

/// The value of a `[Name "value"]` tag line, if the line is that tag.
pub fn tag_value(line: &str, name: &str) -> Option<String> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?;
    let (tag, rest) = inner.split_once(char::is_whitespace)?;
    if tag != name {
        return None;
    }
    let value = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some(value.replace("\\\"", "\"").replace("\\\\", "\\"))
}

/// The move words of PGN move text.
fn movetext_tokens(text: &str) -> Vec<String> {
    let mut clean = String::new();
    let mut brace = false;
    let mut paren = 0usize;
    for line in text.lines() {
        for c in line.chars() {
            match c {
                '{' if !brace => brace = true,
                '}' if brace => brace = false,
                _ if brace => {}
                '(' => paren += 1,
                ')' => paren = paren.saturating_sub(1),
                _ if paren > 0 => {}
                ';' => break,
                _ => clean.push(c),
            }
        }
        clean.push(' ');
    }
    clean
        .split_whitespace()
        .filter(|w| !matches!(*w, "1-0" | "0-1" | "1/2-1/2" | "*") && !w.starts_with('$'))
        .map(|w| w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.'))
        .filter(|w| !w.is_empty())
        .map(String::from)
        .collect()
}

/// Keeps at most `plies` moves of each line.
pub fn cut(openings: &mut [Opening], plies: usize) {
    for o in openings {
        o.moves.truncate(plies);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::random::SplitMix;

    #[test]
    fn fen_lines_with_and_without_moves() {
        let text = "# comment\n\nstartpos moves h2e2 h9g7 # 中炮对屏风马\n\
                    rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n\
                    fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w moves c3c4\n";
        let o = parse(text).expect("valid");
        assert_eq!(o.len(), 3);
        assert_eq!(o[0].moves, vec!["h2e2", "h9g7"]);
        assert_eq!(o[0].fen, START_FEN);
        assert!(o[1].moves.is_empty());
        assert_eq!(o[2].moves, vec!["c3c4"]);
        assert_eq!(parse(&o[0].to_line()).expect("round trip")[0], o[0]);
    }

    #[test]
    fn bad_lines_are_reported_with_their_number() {
        assert!(matches!(parse("startpos moves h2e2 h2e2"), Err(OpeningError::Move(1, _, _))));
        assert!(matches!(parse("\nrnbakabnr/9 w"), Err(OpeningError::Fen(2, _))));
        assert!(matches!(parse("startpos moves zz"), Err(OpeningError::Move(1, _, _))));
        assert_eq!(parse("# nothing\n"), Err(OpeningError::Empty));
    }

    #[test]
    fn pgn_games_with_tags_comments_and_variations() {
        let text = "[Event \"x\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n\n\
                    1. h2e2 {炮二平五 +0.20/5} h9g7 (1... h7e7) 2. h0g2 ; rest of line\n i9h9 1/2-1/2\n\n\
                    [Event \"y\"]\n\n1. c3c4 *\n";
        let o = parse(text).expect("valid");
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].moves, vec!["h2e2", "h9g7", "h0g2", "i9h9"]);
        assert_eq!(o[1].moves, vec!["c3c4"]);
    }

    #[test]
    fn cutting_and_shuffling() {
        let mut o = parse("startpos moves h2e2 h9g7 h0g2\nstartpos moves c3c4").expect("valid");
        cut(&mut o, 2);
        assert_eq!(o[0].moves.len(), 2);
        let mut v: Vec<u32> = (0..10).collect();
        SplitMix::new(7).shuffle(&mut v);
        let mut w: Vec<u32> = (0..10).collect();
        SplitMix::new(7).shuffle(&mut w);
        assert_eq!(v, w, "a seed gives one order");
        assert_ne!(v, (0..10).collect::<Vec<_>>());
        v.sort();
        assert_eq!(v, (0..10).collect::<Vec<_>>());
    }
}
