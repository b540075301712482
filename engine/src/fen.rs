//! FEN in and out, with validation that names the offending field and token.
//!
//! Accepted: `w`, `r` (Red) or `b` (Black) to move; `E`/`H` for elephant/horse; fields after the side to move
//! may be missing or `-`. The fifth field is the no-capture ply count for the 120-ply rule.

use crate::position::Position;
use crate::types::{Color, Piece, PieceKind, Square};
use std::fmt;

/// Why a FEN was rejected. Each variant names the field and the token at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Nothing but white space.
    Empty,
    /// The board field does not have 10 ranks.
    RankCount {
        /// The board field as given.
        board: String,
        /// How many ranks it has.
        found: usize,
    },
    /// A rank that does not describe exactly 9 points.
    RankLength {
        /// Rank number (9 = the first one written).
        rank: u8,
        /// The rank's text.
        token: String,
        /// How many points it describes.
        points: usize,
    },
    /// A character that is neither a piece letter nor a digit 1-9.
    UnknownPiece {
        /// Rank number where it appears.
        rank: u8,
        /// The character.
        token: char,
    },
    /// A side has no king.
    MissingKing(Color),
    /// More pieces of a kind than the set has.
    TooMany {
        /// The piece.
        piece: Piece,
        /// How many were given.
        count: u32,
    },
    /// A piece on a point it can never stand on.
    BadSquare {
        /// The piece.
        piece: Piece,
        /// The point.
        square: Square,
    },
    /// The kings face each other on an open file.
    KingsFacing,
    /// The side that is not to move is in check.
    OppositeCheck,
    /// No side-to-move field.
    MissingSide,
    /// A side-to-move field other than `w`, `r` or `b`.
    BadSide(String),
    /// A counter field that is not a number (or out of range).
    BadCounter {
        /// `halfmove` or `fullmove`.
        field: &'static str,
        /// The token.
        token: String,
    },
}

fn clip(s: &str) -> String {
    let mut t: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        t.push_str("...");
    }
    t
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "FEN is empty"),
            FenError::RankCount { board, found } => {
                write!(f, "FEN board '{}': expected 10 ranks separated by '/', found {found}", clip(board))
            }
            FenError::RankLength { rank, token, points } => {
                write!(f, "FEN board rank {rank} '{}': describes {points} points, expected 9", clip(token))
            }
            FenError::UnknownPiece { rank, token } => {
                write!(f, "FEN board rank {rank}: unknown piece letter '{}'", token.escape_debug())
            }
            FenError::MissingKing(c) => write!(f, "FEN board: {c:?} has no king"),
            FenError::TooMany { piece, count } => write!(
                f,
                "FEN board: {count} pieces '{}' but a side has at most {}",
                piece.to_char(),
                piece.kind().max_count()
            ),
            FenError::BadSquare { piece, square } => {
                write!(f, "FEN board: '{}' can never stand on {square}", piece.to_char())
            }
            FenError::KingsFacing => write!(f, "FEN board: the kings face each other on an open file"),
            FenError::OppositeCheck => write!(f, "FEN: the side not to move is in check"),
            FenError::MissingSide => write!(f, "FEN side to move: missing (expected w, r or b)"),
            FenError::BadSide(t) => write!(f, "FEN side to move '{}': expected w, r or b", clip(t)),
            FenError::BadCounter { field, token } => {
                write!(f, "FEN {field} counter '{}': expected a number or -", clip(token))
            }
        }
    }
}

impl std::error::Error for FenError {}

/// Whether a piece of this kind and colour may ever stand on `sq` in a game from the start position.
pub fn square_allowed(piece: Piece, sq: Square) -> bool {
    let color = piece.color();
    // Work in Red's frame.
    let s = if color == Color::Red { sq } else { sq.flip_rank() };
    let (f, r) = (s.file(), s.rank());
    match piece.kind() {
        PieceKind::King => (3..=5).contains(&f) && r <= 2,
        PieceKind::Advisor => matches!((f, r), (3, 0) | (5, 0) | (4, 1) | (3, 2) | (5, 2)),
        PieceKind::Elephant => matches!((f, r), (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4)),
        PieceKind::Pawn => r >= 5 || ((r == 3 || r == 4) && f % 2 == 0),
        _ => true,
    }
}

impl Position {
    /// Parses and validates a FEN.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let mut fields = fen.split_whitespace();
        let board = fields.next().ok_or(FenError::Empty)?;
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 10 {
            return Err(FenError::RankCount { board: board.to_string(), found: ranks.len() });
        }
        let mut pos = Position::empty();
        let mut counts = [0u32; Piece::NUM];
        for (i, text) in ranks.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file = 0usize;
            let mut placed = Vec::with_capacity(9);
            for c in text.chars() {
                if let Some(d) = c.to_digit(10).filter(|d| (1..=9).contains(d)) {
                    file += d as usize;
                } else if let Some(p) = Piece::from_char(c) {
                    placed.push((file, p));
                    file += 1;
                } else {
                    return Err(FenError::UnknownPiece { rank, token: c });
                }
            }
            if file != 9 {
                return Err(FenError::RankLength { rank, token: text.to_string(), points: file });
            }
            for (f, p) in placed {
                let sq = Square::from_file_rank(f as u8, rank).expect("file and rank in range");
                counts[p.index()] += 1;
                if counts[p.index()] > p.kind().max_count() {
                    return Err(FenError::TooMany { piece: p, count: counts[p.index()] });
                }
                if !square_allowed(p, sq) {
                    return Err(FenError::BadSquare { piece: p, square: sq });
                }
                pos.put(p, sq);
            }
        }
        for c in Color::ALL {
            if counts[Piece::new(c, PieceKind::King).index()] == 0 {
                return Err(FenError::MissingKing(c));
            }
        }
        let side = match fields.next() {
            None => return Err(FenError::MissingSide),
            Some("w") | Some("r") | Some("W") | Some("R") => Color::Red,
            Some("b") | Some("B") => Color::Black,
            Some(t) => return Err(FenError::BadSide(t.to_string())),
        };
        // Castling and en-passant fields exist only for chess compatibility.
        let _ = fields.next();
        let _ = fields.next();
        let halfmove = counter(fields.next(), "halfmove", 0)?;
        let fullmove = counter(fields.next(), "fullmove", 1)?.max(1);
        pos.set_state(side, halfmove, fullmove);

        let (rk, bk) = (pos.king_square(Color::Red), pos.king_square(Color::Black));
        if rk.file() == bk.file() && (crate::attacks::between(rk, bk) & pos.occupied()).is_empty() {
            return Err(FenError::KingsFacing);
        }
        if pos.is_attacked_by(pos.king_square(!side), side) {
            return Err(FenError::OppositeCheck);
        }
        Ok(pos)
    }

    /// The position as FEN (`w`/`b`, letters `B` and `N`, castling and en-passant fields `-`).
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..10).rev() {
            let mut empty = 0;
            for file in 0..9 {
                let sq = Square::from_file_rank(file, rank).expect("in range");
                match self.piece_at(sq) {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.to_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let side = if self.side_to_move() == Color::Red { 'w' } else { 'b' };
        format!("{s} {side} - - {} {}", self.halfmove_clock(), self.fullmove_number())
    }

    /// The position as XBoard writes it in `setboard`: [`to_xboard_fen`] of [`Position::to_fen`].
    pub fn to_xboard_fen(&self) -> String {
        to_xboard_fen(&self.to_fen())
    }
}

/// Turns one of our FENs (`N`, `B`, `- -` fields) into XBoard's form: its xiangqi letters (H horse,
/// E elephant) and no castling or en-passant fields, as XBoard itself writes FENs in `setboard`.
pub fn to_xboard_fen(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let board: String = fields
        .first()
        .unwrap_or(&"")
        .chars()
        .map(|c| match c {
            'N' => 'H',
            'n' => 'h',
            'B' => 'E',
            'b' => 'e',
            c => c,
        })
        .collect();
    let mut out = vec![board.as_str()];
    out.extend(fields.iter().skip(1).filter(|f| **f != "-"));
    out.join(" ")
}

fn counter(tok: Option<&str>, field: &'static str, default: u32) -> Result<u32, FenError> {
    match tok {
        None | Some("-") => Ok(default),
        Some(t) => match t.parse::<u32>() {
            Ok(v) if v <= 100_000 => Ok(v),
            _ => Err(FenError::BadCounter { field, token: t.to_string() }),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::START_FEN;

    #[test]
    fn round_trip() {
        let p = Position::from_fen(START_FEN).unwrap();
        assert_eq!(p.to_fen(), START_FEN);
        let q = Position::from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r").unwrap();
        assert_eq!(q.to_fen(), START_FEN);
    }

    #[test]
    fn fens_in_xboard_letters() {
        assert_eq!(
            Position::startpos().to_xboard_fen(),
            "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w 0 1"
        );
        assert_eq!(to_xboard_fen("4k4/9/9/9/9/9/9/9/9/4K4 b - - 3 9"), "4k4/9/9/9/9/9/9/9/9/4K4 b 3 9");
    }

    fn err(fen: &str) -> FenError {
        Position::from_fen(fen).expect_err(fen)
    }

    /// Asserts that `fen` is refused with an error matching the pattern.
    macro_rules! assert_err {
        ($fen:expr, $pattern:pat $(if $guard:expr)?) => {{
            let e = err($fen);
            assert!(matches!(e, $pattern $(if $guard)?), "{}: {e:?}", $fen);
        }};
    }

    #[test]
    fn bad_fens_are_named() {
        assert_eq!(err(""), FenError::Empty);
        assert!(matches!(err("rnbakabnr/9/1c5c1 w"), FenError::RankCount { found: 3, .. }));
        assert_err!(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w",
            FenError::RankLength { rank: 0, points: 8, .. }
        );
        assert_err!(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w",
            FenError::RankLength { rank: 0, points: 10, .. }
        );
        assert_err!(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5X1/9/RNBAKABNR w",
            FenError::UnknownPiece { token: 'X', .. }
        );
        assert_eq!(
            err("rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
            FenError::MissingKing(Color::Black)
        );
        assert_err!(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/R8/RNBAKABNR w",
            FenError::TooMany { piece: Piece::RedRook, count: 3 }
        );
        assert_err!(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/P8/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            FenError::TooMany { piece: Piece::RedPawn, count: 6 }
        );
        // King outside the palace, advisor off its points, elephant across the river, pawns never reachable.
        assert_err!(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNRK w",
            FenError::RankLength { .. }
        );
        for (fen, bad) in [
            ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/K8/RNBA1ABNR w", Piece::RedKing),
            ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/A8/RNB1KABNR w", Piece::RedAdvisor),
            ("rnbakabnr/9/1c5c1/p1p1p1p1p/4B4/9/P1P1P1P1P/1C5C1/9/RN1AKABNR w", Piece::RedElephant),
            ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/1P7/P1P1P1P2/1C5C1/9/RNBAKABNR w", Piece::RedPawn),
            ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P2/1C5C1/P8/RNBAKABNR w", Piece::RedPawn),
        ] {
            assert_err!(fen, FenError::BadSquare { piece, .. } if piece == bad);
        }
        assert_eq!(err("4k4/9/9/9/9/9/9/9/9/4K4 w"), FenError::KingsFacing);
        // Red to move while Black is in check from the rook.
        assert_eq!(err("4k4/9/9/9/9/9/9/9/4R4/3K5 w"), FenError::OppositeCheck);
        assert_eq!(err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"), FenError::MissingSide);
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x"),
            FenError::BadSide("x".into())
        );
        assert_err!(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - abc 1",
            FenError::BadCounter { field: "halfmove", .. }
        );
        assert_err!(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 -5",
            FenError::BadCounter { field: "fullmove", .. }
        );
        // Messages name the token.
        let msg = err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5X1/9/RNBAKABNR w").to_string();
        assert!(msg.contains("'X'"), "{msg}");
    }
}
