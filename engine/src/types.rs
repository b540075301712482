//! The vocabulary of the game: squares, colours, pieces and moves.

use std::fmt;
use std::num::NonZeroU16;
use std::str::FromStr;

/// One of the 90 points of the board, numbered rank-major from Red's side: `a0` = 0, `i0` = 8, `a1` = 9 ... `i9` = 89.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of points on the board.
    pub const NUM: usize = 90;
    /// Number of files (a..i).
    pub const FILES: u8 = 9;
    /// Number of ranks (0..9).
    pub const RANKS: u8 = 10;

    /// The square with this index, if it is on the board.
    #[inline(always)]
    pub const fn new(index: u8) -> Option<Square> {
        if (index as usize) < Self::NUM {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square at `file` (0 = a) and `rank` (0 = Red's back rank), if both are in range.
    #[inline(always)]
    pub const fn from_file_rank(file: u8, rank: u8) -> Option<Square> {
        if file < Self::FILES && rank < Self::RANKS {
            Some(Square(rank * Self::FILES + file))
        } else {
            None
        }
    }

    /// Builds a square from an index the caller knows is below 90 (checked in debug builds).
    #[inline(always)]
    pub(crate) const fn from_index(index: u8) -> Square {
        debug_assert!((index as usize) < Self::NUM);
        Square(index)
    }

    /// Index 0..90, for table lookups.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..9 (a..i).
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 % Self::FILES
    }

    /// Rank 0..10, counted from Red's back rank.
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 / Self::FILES
    }

    /// The same point seen from the other side of the board (rank r -> 9 - r).
    #[inline(always)]
    pub const fn flip_rank(self) -> Square {
        Square((Self::RANKS - 1 - self.rank()) * Self::FILES + self.file())
    }

    /// The same point mirrored left-right (file f -> 8 - f).
    #[inline(always)]
    pub const fn mirror_file(self) -> Square {
        Square(self.rank() * Self::FILES + (Self::FILES - 1 - self.file()))
    }

    /// The square `df` files and `dr` ranks away, if it is on the board.
    #[inline(always)]
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f < 0 || r < 0 {
            return None;
        }
        Self::from_file_rank(f as u8, r as u8)
    }

    /// Whether the point lies on `color`'s own side of the river.
    #[inline(always)]
    pub const fn on_own_side(self, color: Color) -> bool {
        match color {
            Color::Red => self.rank() <= 4,
            Color::Black => self.rank() >= 5,
        }
    }

    /// Every square, a0 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..Self::NUM as u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Text that is not a square like `e2`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SquareParseError(pub String);

impl fmt::Display for SquareParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a square (a0..i9)", self.0)
    }
}

impl std::error::Error for SquareParseError {}

impl FromStr for Square {
    type Err = SquareParseError;
    fn from_str(s: &str) -> Result<Square, SquareParseError> {
        let b = s.as_bytes();
        if b.len() == 2 && (b'a'..=b'i').contains(&b[0]) && b[1].is_ascii_digit() {
            Ok(Square((b[1] - b'0') * Self::FILES + (b[0] - b'a')))
        } else {
            Err(SquareParseError(s.to_string()))
        }
    }
}

/// Declares a fieldless enum together with `NUM` (how many variants) and `ALL` (every variant, in
/// declaration order, which is index order), so the list cannot fall out of step with the enum
/// (cozy-chess's `simple_enum!`).
macro_rules! simple_enum {
    (
        $(#[$attr:meta])*
        pub enum $name:ident { $($(#[$variant_attr:meta])* $variant:ident $(= $value:literal)?,)* }
    ) => {
        $(#[$attr])*
        pub enum $name { $($(#[$variant_attr])* $variant $(= $value)?,)* }

        impl $name {
            #[doc = concat!("How many `", stringify!($name), "` values there are.")]
            pub const NUM: usize = Self::ALL.len();
            #[doc = concat!("Every `", stringify!($name), "`, in index order.")]
            pub const ALL: [$name; [$($name::$variant),*].len()] = [$($name::$variant),*];
        }
    };
}

/// A side: Red moves first and sits on ranks 0-4.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    /// The side that moves first (upper-case letters in FEN).
    Red = 0,
    /// The second side (lower-case letters in FEN).
    Black = 1,
}

impl Color {
    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// Index 0 or 1.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// +1 for Red, -1 for Black: the rank direction in which this side's pawns advance.
    #[inline(always)]
    pub const fn forward(self) -> i8 {
        match self {
            Color::Red => 1,
            Color::Black => -1,
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.flip()
    }
}

simple_enum! {
    /// The kind of a piece, without its colour.
    #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
    pub enum PieceKind {
        /// 帅/将, the general.
        King = 0,
        /// 仕/士.
        Advisor = 1,
        /// 相/象 (bishop letter `B`, also `E` on input).
        Elephant = 2,
        /// 马 (knight letter `N`, also `H` on input).
        Horse = 3,
        /// 车 (chariot).
        Rook = 4,
        /// 炮/砲.
        Cannon = 5,
        /// 兵/卒 (soldier).
        Pawn = 6,
    }
}

impl PieceKind {
    /// Index 0..7.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// How many of this kind one side has in the full set.
    pub const fn max_count(self) -> u32 {
        match self {
            PieceKind::King => 1,
            PieceKind::Pawn => 5,
            _ => 2,
        }
    }

    /// The FEN letter in upper case (Red's letter).
    pub const fn letter(self) -> char {
        match self {
            PieceKind::King => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Rook => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Pawn => 'P',
        }
    }

    /// The kind for a FEN letter of either case (`E` and `H` accepted).
    pub const fn from_letter(c: char) -> Option<PieceKind> {
        match c.to_ascii_uppercase() {
            'K' => Some(PieceKind::King),
            'A' => Some(PieceKind::Advisor),
            'B' | 'E' => Some(PieceKind::Elephant),
            'N' | 'H' => Some(PieceKind::Horse),
            'R' => Some(PieceKind::Rook),
            'C' => Some(PieceKind::Cannon),
            'P' => Some(PieceKind::Pawn),
            _ => None,
        }
    }
}

simple_enum! {
    /// A coloured piece. `Option<Piece>` is one byte.
    #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
    #[repr(u8)]
    #[allow(missing_docs)]
    pub enum Piece {
        RedKing,
        RedAdvisor,
        RedElephant,
        RedHorse,
        RedRook,
        RedCannon,
        RedPawn,
        BlackKing,
        BlackAdvisor,
        BlackElephant,
        BlackHorse,
        BlackRook,
        BlackCannon,
        BlackPawn,
    }
}

impl Piece {
    /// The piece of this colour and kind.
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Self::ALL[color.index() * PieceKind::NUM + kind.index()]
    }

    /// Index 0..14 (Red's kinds, then Black's).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The piece's colour.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if (self as u8) < PieceKind::NUM as u8 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// The piece's kind.
    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        // A table padded to 16 and a mask: one load, where `% 7` took a multiply and shifts on every call
        // (1.3% of the bench's instructions, callgrind).
        const KIND: [PieceKind; 16] = {
            let mut t = [PieceKind::King; 16];
            let mut i = 0;
            while i < Piece::NUM {
                t[i] = PieceKind::ALL[i % PieceKind::NUM];
                i += 1;
            }
            t
        };
        KIND[self as usize & 15]
    }

    /// The FEN letter: upper case for Red.
    pub const fn to_char(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece for a FEN letter (`E`/`H` accepted for elephant/horse).
    pub const fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() { Color::Red } else { Color::Black };
        match PieceKind::from_letter(c) {
            Some(kind) => Some(Piece::new(color, kind)),
            None => None,
        }
    }

    /// The traditional Chinese character: 帅仕相马车炮兵 for Red, 将士象马车炮卒 for Black.
    pub const fn chinese(self) -> char {
        match self {
            Piece::RedKing => '帅',
            Piece::RedAdvisor => '仕',
            Piece::RedElephant => '相',
            Piece::RedHorse => '马',
            Piece::RedRook => '车',
            Piece::RedCannon => '炮',
            Piece::RedPawn => '兵',
            Piece::BlackKing => '将',
            Piece::BlackAdvisor => '士',
            Piece::BlackElephant => '象',
            Piece::BlackHorse => '马',
            Piece::BlackRook => '车',
            Piece::BlackCannon => '炮',
            Piece::BlackPawn => '卒',
        }
    }
}

/// A move from one square to another. Xiangqi has no special moves, so that is all a move is.
///
/// Layout: bits 0-6 origin, bits 7-13 destination, bit 15 always set so the value is never zero and
/// `Option<Move>` stays two bytes.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Move(NonZeroU16);

const MOVE_TAG: u16 = 1 << 15;

impl Move {
    /// The move from `from` to `to`.
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        match NonZeroU16::new(MOVE_TAG | from.0 as u16 | (to.0 as u16) << 7) {
            Some(v) => Move(v),
            None => unreachable!(),
        }
    }

    /// Origin square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square((self.0.get() & 0x7f) as u8)
    }

    /// Destination square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square(((self.0.get() >> 7) & 0x7f) as u8)
    }

    /// The packed 16-bit form (never zero), for hash tables.
    #[inline(always)]
    pub const fn to_u16(self) -> u16 {
        self.0.get()
    }

    /// Unpacks a value written by [`Move::to_u16`]; `None` for 0 or anything that is not a move on the board.
    #[inline(always)]
    pub const fn from_u16(v: u16) -> Option<Move> {
        let from = v & 0x7f;
        let to = (v >> 7) & 0x7f;
        if v & MOVE_TAG == 0 || from >= 90 || to >= 90 || v & 0x4000 != 0 {
            return None;
        }
        match NonZeroU16::new(v) {
            Some(nz) => Some(Move(nz)),
            None => None,
        }
    }

    /// The same move seen from the other side of the board (ranks flipped).
    pub const fn flip_rank(self) -> Move {
        Move::new(self.from().flip_rank(), self.to().flip_rank())
    }

    /// The same move mirrored left-right.
    pub const fn mirror_file(self) -> Move {
        Move::new(self.from().mirror_file(), self.to().mirror_file())
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(std::mem::size_of::<Option<Move>>(), 2);
        assert_eq!(std::mem::size_of::<Option<Piece>>(), 1);
    }

    #[test]
    fn square_text_round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert!("j0".parse::<Square>().is_err());
        assert!("a10".parse::<Square>().is_err());
        assert_eq!("e0".parse::<Square>().unwrap().index(), 4);
        assert_eq!("i9".parse::<Square>().unwrap().index(), 89);
    }

    #[test]
    fn move_packing() {
        for a in Square::all() {
            for b in [Square::from_index(0), Square::from_index(89), a.flip_rank()] {
                let m = Move::new(a, b);
                assert_eq!((m.from(), m.to()), (a, b));
                assert_eq!(Move::from_u16(m.to_u16()), Some(m));
            }
        }
        assert_eq!(Move::from_u16(0), None);
    }

    #[test]
    fn pieces() {
        for p in Piece::ALL {
            assert_eq!(Piece::new(p.color(), p.kind()), p);
            assert_eq!(Piece::from_char(p.to_char()), Some(p));
        }
        assert_eq!(Piece::from_char('E'), Some(Piece::RedElephant));
        assert_eq!(Piece::from_char('h'), Some(Piece::BlackHorse));
        assert_eq!(Piece::from_char('x'), None);
    }
}
