//! Traditional Chinese move notation (docs/notation.md; docs/rules.md, art. 1.1 and 7.5) to and from
//! ICCS moves.
//!
//! A move is written piece, file, direction, number: `炮二平五`, `马8进7`, `车一进三`. Each side numbers the
//! files from its own right, Red with Chinese numerals 一..九, Black with 1..9. 进 is forward, 退 back, 平
//! sideways; a straight move along a file gives the number of steps, every other move (sideways, and any
//! horse, elephant or advisor move) the destination file.
//!
//! Several identical pieces on one file are told apart by their order from the front (the mover's front):
//! two `前`/`后`, three `前`/`中`/`后`, four `前`/`中前`/`中后`/`后`, five `前`/`中前`/`中`/`中后`/`后`
//! (docs/notation.md, "Several identical pieces on one file"): `前车进一`, `中兵平四`. When a side's pawns
//! stand several to a file on more than one file, the order word is followed by the file instead of the
//! piece: `前三进一`, `后7平6` (a chuhan convention, named as such there). Advisors and elephants
//! on one file need no order word (their direction already tells them apart) and get none on output.
//!
//! Input is forgiving: traditional and variant characters (車 俥, 馬 傌, 砲 包, 帥, 將, 仕/士, 相/象, 兵/卒,
//! 進, 後), Chinese, ASCII or full-width digits for either side, spaces anywhere, an order word with or
//! without the piece or file, and the abbreviated form without a direction (`炮25` for `炮二平五`, art. 7.5)
//! when it names a single move.

use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::text::clip;
use crate::types::{Color, Move, PieceKind, Square};
use std::fmt;

/// Why a text could not be read as a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// Nothing but white space.
    Empty,
    /// A character that is not part of the notation.
    UnknownChar(char),
    /// The characters do not form a move (the text as given).
    Malformed(String),
    /// No legal move fits the text.
    NoSuchMove(String),
    /// More than one legal move fits the text.
    Ambiguous(String),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Empty => write!(f, "empty move text"),
            NotationError::UnknownChar(c) => {
                write!(f, "'{}' is not part of Chinese move notation", c.escape_debug())
            }
            NotationError::Malformed(t) => write!(f, "'{}' is not a move in Chinese notation", clip(t)),
            NotationError::NoSuchMove(t) => write!(f, "no legal move fits '{}'", clip(t)),
            NotationError::Ambiguous(t) => write!(f, "'{}' fits more than one legal move", clip(t)),
        }
    }
}

impl std::error::Error for NotationError {}

const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The file's number (1..9) counted from `color`'s right.
fn file_number(color: Color, file: u8) -> u8 {
    match color {
        Color::Red => 9 - file,
        Color::Black => file + 1,
    }
}

/// A number (1..9) as `color` writes it.
fn numeral(color: Color, n: u8) -> char {
    match color {
        Color::Red => RED_NUMERALS[usize::from(n.clamp(1, 9) - 1)],
        Color::Black => char::from(b'0' + n),
    }
}

/// Order words for `n` identical pieces on a file, front first (docs/notation.md).
fn order_words(n: usize) -> &'static [&'static str] {
    match n {
        2 => &["前", "后"],
        3 => &["前", "中", "后"],
        4 => &["前", "中前", "中后", "后"],
        5 => &["前", "中前", "中", "中后", "后"],
        _ => &[],
    }
}

/// The squares of `set` (one file), front first as `color` sees it.
fn front_first(color: Color, set: Bitboard) -> Vec<Square> {
    let mut v: Vec<Square> = set.into_iter().collect();
    v.sort_by_key(|s| s.rank());
    if color == Color::Red {
        v.reverse();
    }
    v
}

/// `color`'s pieces of `kind` on the file of `sq`.
fn same_on_file(pos: &Position, color: Color, kind: PieceKind, sq: Square) -> Bitboard {
    pos.pieces(color, kind) & Bitboard::FILES[usize::from(sq.file())]
}

/// Whether `color` has two or more pawns on more than one file.
fn pawns_stacked_on_several_files(pos: &Position, color: Color) -> bool {
    let pawns = pos.pieces(color, PieceKind::Pawn);
    Bitboard::FILES.iter().filter(|&&f| (pawns & f).more_than_one()).count() > 1
}

/// The order word of the piece on `sq` among its identical neighbours on the file, if it needs one.
fn order_word(pos: &Position, color: Color, kind: PieceKind, sq: Square) -> Option<&'static str> {
    let set = same_on_file(pos, color, kind, sq);
    let order = front_first(color, set);
    let i = order.iter().position(|&s| s == sq)?;
    order_words(order.len()).get(i).copied()
}

/// The move `m` (legal in `pos`) in Chinese notation; the ICCS text if no piece stands on its origin.
pub fn to_chinese(pos: &Position, m: Move) -> String {
    let (from, to) = (m.from(), m.to());
    let Some(piece) = pos.piece_at(from) else { return m.to_string() };
    let (color, kind) = (piece.color(), piece.kind());
    let mut s = String::new();
    let word = match kind {
        PieceKind::Advisor | PieceKind::Elephant => None,
        _ => order_word(pos, color, kind, from),
    };
    match word {
        Some(w) if kind == PieceKind::Pawn && pawns_stacked_on_several_files(pos, color) => {
            s.push_str(w);
            s.push(numeral(color, file_number(color, from.file())));
        }
        Some(w) => {
            s.push_str(w);
            s.push(piece.chinese());
        }
        None => {
            s.push(piece.chinese());
            s.push(numeral(color, file_number(color, from.file())));
        }
    }
    let dr = i16::from(to.rank()) - i16::from(from.rank());
    if dr == 0 {
        s.push('平');
        s.push(numeral(color, file_number(color, to.file())));
    } else {
        s.push(if dr * i16::from(color.forward()) > 0 { '进' } else { '退' });
        let n = match kind {
            PieceKind::Advisor | PieceKind::Elephant | PieceKind::Horse => file_number(color, to.file()),
            _ => dr.unsigned_abs() as u8,
        };
        s.push(numeral(color, n));
    }
    s
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Dir {
    Forward,
    Back,
    Sideways,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Token {
    Kind(PieceKind),
    Front,
    Middle,
    Back,
    Dir(Dir),
    Num(u8),
}

fn token(c: char) -> Result<Option<Token>, NotationError> {
    let t = match c {
        '帅' | '帥' | '将' | '將' => Token::Kind(PieceKind::King),
        '仕' | '士' => Token::Kind(PieceKind::Advisor),
        '相' | '象' => Token::Kind(PieceKind::Elephant),
        '马' | '馬' | '傌' => Token::Kind(PieceKind::Horse),
        '车' | '車' | '俥' => Token::Kind(PieceKind::Rook),
        '炮' | '砲' | '包' => Token::Kind(PieceKind::Cannon),
        '兵' | '卒' => Token::Kind(PieceKind::Pawn),
        '前' => Token::Front,
        '中' => Token::Middle,
        '后' | '後' => Token::Back,
        '进' | '進' => Token::Dir(Dir::Forward),
        '退' => Token::Dir(Dir::Back),
        '平' => Token::Dir(Dir::Sideways),
        '1'..='9' => Token::Num(c as u8 - b'0'),
        '１'..='９' => Token::Num((c as u32 - '０' as u32) as u8),
        c if c.is_whitespace() => return Ok(None),
        c => match RED_NUMERALS.iter().position(|&n| n == c) {
            Some(i) => Token::Num(i as u8 + 1),
            None => return Err(NotationError::UnknownChar(c)),
        },
    };
    Ok(Some(t))
}

/// What a move text says.
#[derive(Debug, Default)]
struct Descriptor {
    order: Option<&'static str>,
    kind: Option<PieceKind>,
    file: Option<u8>,
    dir: Option<Dir>,
    target: u8,
}

fn parse(text: &str) -> Result<Descriptor, NotationError> {
    let mut toks = Vec::new();
    for c in text.chars() {
        if let Some(t) = token(c)? {
            toks.push(t);
        }
    }
    if toks.is_empty() {
        return Err(NotationError::Empty);
    }
    let bad = || NotationError::Malformed(text.trim().to_string());
    let mut d = Descriptor::default();
    let mut rest: &[Token] = &toks;
    d.order = match rest {
        [Token::Middle, Token::Front, ..] => Some("中前"),
        [Token::Middle, Token::Back, ..] => Some("中后"),
        [Token::Front, ..] => Some("前"),
        [Token::Middle, ..] => Some("中"),
        [Token::Back, ..] => Some("后"),
        _ => None,
    };
    rest = &rest[d.order.map_or(0, |w| w.chars().count())..];
    if let [Token::Kind(k), tail @ ..] = rest {
        d.kind = Some(*k);
        rest = tail;
    }
    match rest {
        [Token::Num(f), Token::Dir(dir), Token::Num(n)] => {
            d.file = Some(*f);
            d.dir = Some(*dir);
            d.target = *n;
        }
        [Token::Dir(dir), Token::Num(n)] if d.order.is_some() => {
            d.dir = Some(*dir);
            d.target = *n;
        }
        [Token::Num(f), Token::Num(n)] if d.order.is_none() && d.kind.is_some() => {
            d.file = Some(*f);
            d.target = *n;
        }
        _ => return Err(bad()),
    }
    if d.kind.is_none() {
        // An order word with a file and no piece is the pawns' form (`前三进一`).
        if d.order.is_some() && d.file.is_some() {
            d.kind = Some(PieceKind::Pawn);
        } else if d.order.is_none() {
            return Err(bad());
        }
    }
    let in_range = |n: u8| (1..=9).contains(&n);
    if !in_range(d.target) || d.file.is_some_and(|f| !in_range(f)) {
        return Err(bad());
    }
    Ok(d)
}

/// Whether the legal move `m` fits the description.
fn fits(pos: &Position, d: &Descriptor, m: Move) -> bool {
    let (from, to) = (m.from(), m.to());
    let Some(piece) = pos.piece_at(from) else { return false };
    let (color, kind) = (piece.color(), piece.kind());
    if d.kind.is_some_and(|k| k != kind) {
        return false;
    }
    if d.file.is_some_and(|f| f != file_number(color, from.file())) {
        return false;
    }
    if let Some(word) = d.order {
        let set = same_on_file(pos, color, kind, from);
        let order = front_first(color, set);
        let words = order_words(order.len());
        match order.iter().position(|&s| s == from) {
            Some(i) if words.get(i) == Some(&word) => {}
            _ => return false,
        }
    }
    let dr = i16::from(to.rank()) - i16::from(from.rank());
    let dest_file = file_number(color, to.file());
    let diagonal = matches!(kind, PieceKind::Advisor | PieceKind::Elephant | PieceKind::Horse);
    match d.dir {
        Some(Dir::Sideways) => dr == 0 && dest_file == d.target,
        Some(dir) => {
            let forward = dr * i16::from(color.forward()) > 0;
            let right_way = dr != 0 && forward == (dir == Dir::Forward);
            right_way
                && if diagonal {
                    dest_file == d.target
                } else {
                    from.file() == to.file() && dr.unsigned_abs() == u16::from(d.target)
                }
        }
        // Abbreviated record: piece, file, destination file.
        None => dest_file == d.target && (diagonal || dr == 0),
    }
}

/// The legal move of the side to move that `text` (Chinese notation) describes.
pub fn from_chinese(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let d = parse(text)?;
    let legal = pos.legal_moves();
    let mut found = legal.iter().copied().filter(|&m| fits(pos, &d, m));
    let first = found.next().ok_or_else(|| NotationError::NoSuchMove(text.trim().to_string()))?;
    if found.next().is_some() {
        return Err(NotationError::Ambiguous(text.trim().to_string()));
    }
    Ok(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(pos: &mut Position, iccs: &str) -> String {
        let m = pos.parse_move(iccs).expect("legal test move");
        let text = to_chinese(pos, m);
        assert_eq!(from_chinese(pos, &text), Ok(m), "{text}");
        pos.make_move(m);
        text
    }

    #[test]
    fn opening_moves_both_ways() {
        let mut p = Position::startpos();
        assert_eq!(play(&mut p, "h2e2"), "炮二平五");
        assert_eq!(play(&mut p, "h9g7"), "马8进7");
        assert_eq!(play(&mut p, "i0i1"), "车一进一");
        assert_eq!(play(&mut p, "i9h9"), "车9平8");
    }

    #[test]
    fn every_legal_move_round_trips_in_the_start_position() {
        let p = Position::startpos();
        for &m in p.legal_moves().iter() {
            let text = to_chinese(&p, m);
            assert_eq!(from_chinese(&p, &text), Ok(m), "{text}");
        }
    }
}
