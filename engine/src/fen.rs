//! FEN in and out, with validation that names the offending field and token.
//!
//! Accepted: `w`, `r` (Red) or `b` (Black) to move; `E`/`H` for elephant/horse; fields after the side to move
//! may be missing or `-`. The fifth field is the no-capture ply count for the 120-ply rule.
//!
//! Two levels of placement (docs/rules.md, "Composed positions"): [`Position::from_fen`] takes only
//! positions a game from the start could reach ([`square_allowed`]); [`Position::from_composed_fen`] also
//! takes composed problems (排局) that the rules of movement can play ([`square_playable`]) and names the
//! pieces that stand where no game could bring them.

use crate::position::Position;
use crate::text::clip;
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

/// Whether the rules of movement (docs/rules.md, art. 2.2) can play a piece of this kind and colour on `sq`:
/// the king in its palace, the advisor on the five points of the palace's diagonals, the elephant on its
/// seven points on its own side of the river (the only points its moves join), anything else anywhere.
/// A pawn may stand anywhere: even on its own back rank it can step forward.
pub fn square_playable(piece: Piece, sq: Square) -> bool {
    match piece.kind() {
        PieceKind::King | PieceKind::Advisor | PieceKind::Elephant => square_allowed(piece, sq),
        _ => true,
    }
}

/// A composed position (排局) and the pieces in it that stand where no game from the start could bring them.
#[derive(Clone, Debug)]
pub struct Composed {
    /// The position, playable by the rules of movement.
    pub position: Position,
    /// Each piece on a point that [`square_allowed`] refuses, in the order the FEN lists them.
    pub unreachable: Vec<(Piece, Square)>,
}

impl Composed {
    /// One line for the user when the position could not arise in a game (`None` when it could).
    pub fn warning(&self) -> Option<String> {
        if self.unreachable.is_empty() {
            return None;
        }
        let list: Vec<String> =
            self.unreachable.iter().map(|(p, sq)| format!("{}{sq}", p.to_char())).collect();
        Some(format!(
            "composed position: no game can reach {} (played as given, by the rules of movement)",
            list.join(" ")
        ))
    }
}

impl Position {
    /// Parses and validates a FEN of a position a game could reach (every piece on a [`square_allowed`]
    /// point).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        parse(fen, true).map(|c| c.position)
    }

    /// Parses and validates a FEN that the rules of movement can play: a composed problem may put pieces
    /// where no game could (a pawn on its own back rank), as long as each stands on a [`square_playable`]
    /// point, the kings are in their palaces and not facing, the side not to move is not in check, and no
    /// kind has more pieces than the starting set. The pieces no game could place are listed.
    pub fn from_composed_fen(fen: &str) -> Result<Composed, FenError> {
        parse(fen, false)
    }

    /// The position as FEN (`w`/`b`, letters `B` and `N`, castling and en-passant fields `-`).
    pub fn to_fen(&self) -> String {
        fen_of(self)
    }

    /// The position as XBoard writes it in `setboard`: [`to_xboard_fen`] of [`Position::to_fen`].
    pub fn to_xboard_fen(&self) -> String {
        to_xboard_fen(&self.to_fen())
    }
}

/// Parses a FEN; `game` refuses pieces no game could place, otherwise they are listed.
fn parse(fen: &str, game: bool) -> Result<Composed, FenError> {
    let mut unreachable = Vec::new();
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
                if game || !square_playable(p, sq) {
                    return Err(FenError::BadSquare { piece: p, square: sq });
                }
                unreachable.push((p, sq));
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
    Ok(Composed { position: pos, unreachable })
}

/// The FEN of `pos`.
fn fen_of(pos: &Position) -> String {
    let mut s = String::with_capacity(90);
    for rank in (0..10).rev() {
        let mut empty = 0;
        for file in 0..9 {
            let sq = Square::from_file_rank(file, rank).expect("in range");
            match pos.piece_at(sq) {
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
    let side = if pos.side_to_move() == Color::Red { 'w' } else { 'b' };
    format!("{s} {side} - - {} {}", pos.halfmove_clock(), pos.fullmove_number())
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

    fn composed(fen: &str) -> Composed {
        Position::from_composed_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    #[test]
    fn composed_positions_take_pawns_no_game_can_place_and_name_them() {
        // A red pawn on its own back rank and one on b4 (an odd file before the river): refused for a game,
        // played as given in a composed position.
        let fen = "3k5/9/9/9/9/9/1P7/9/9/4KP3 w - - 0 1";
        assert_err!(fen, FenError::BadSquare { piece: Piece::RedPawn, .. });
        let c = composed(fen);
        assert_eq!(c.position.to_fen(), fen);
        let f0 = Square::from_file_rank(5, 0).expect("f0");
        let b3 = Square::from_file_rank(1, 3).expect("b3");
        assert_eq!(c.unreachable, vec![(Piece::RedPawn, b3), (Piece::RedPawn, f0)]);
        let warning = c.warning().expect("a warning");
        assert!(warning.contains("Pb3 Pf0"), "{warning}");
        // Black's pawn on its own palace's top rank.
        let c = composed("3k1p3/9/9/9/9/9/9/9/9/4K4 b - - 0 1");
        assert_eq!(c.unreachable.len(), 1);
        // A position a game can reach is no composition.
        let c = composed(crate::position::START_FEN);
        assert!(c.unreachable.is_empty() && c.warning().is_none());
    }

    #[test]
    fn composed_positions_still_follow_the_rules_of_movement() {
        // King out of its palace, advisor off the palace diagonals, elephant across the river or off its
        // points: no move of theirs is defined there, so even a composed position refuses them.
        for (fen, piece) in [
            ("3k5/9/9/9/9/9/9/9/K8/9 w", Piece::RedKing),
            ("3k5/9/9/9/9/9/9/9/9/3KA4 w", Piece::RedAdvisor),
            ("3k5/9/9/9/4B4/9/9/9/9/3K5 w", Piece::RedElephant),
            ("3k5/9/9/9/9/9/9/9/1B7/3K5 w", Piece::RedElephant),
            ("3k5/4b4/9/9/9/9/9/9/9/3K5 w", Piece::BlackElephant),
        ] {
            match Position::from_composed_fen(fen) {
                Err(FenError::BadSquare { piece: p, .. }) => assert_eq!(p, piece, "{fen}"),
                other => panic!("{fen}: {other:?}"),
            }
        }
        assert!(matches!(
            Position::from_composed_fen("4k4/9/9/9/9/9/9/9/9/4K4 w"),
            Err(FenError::KingsFacing)
        ));
        assert!(matches!(
            Position::from_composed_fen("4k4/9/9/9/9/9/9/9/4R4/3K5 w"),
            Err(FenError::OppositeCheck)
        ));
        assert!(matches!(
            Position::from_composed_fen("3k5/9/9/9/9/P8/P1P1P1P1P/9/9/4K4 w"),
            Err(FenError::TooMany { piece: Piece::RedPawn, count: 6 })
        ));
    }
}
