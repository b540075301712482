//! The position: pieces on the board, side to move, counters, the incremental key and the move history.

use crate::attacks::{
    between, cannon_attacks, elephant_attacks, file_attacks, horse_attackers_from, horse_attacks,
    lines_through, rook_attacks, transposed_bit, ADVISOR_ATTACKS, KING_ATTACKS, PAWN_ATTACKERS_FROM,
    PAWN_ATTACKS,
};
use crate::bitboard::Bitboard;
use crate::text::clip;
use crate::types::{Color, Move, Piece, PieceKind, Square};
use crate::zobrist::{piece_key, SIDE_KEY};
use std::fmt;

/// What `unmake_move` needs to restore, and what the rules need to judge a repetition.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Undo {
    /// The move played (`None` for a null move in the search).
    pub mv: Option<Move>,
    /// The piece it captured.
    pub captured: Option<Piece>,
    /// The piece that moved (`None` for a null move): lets an evaluator replay the line's changes
    /// without the boards in between. It fits in the entry's padding.
    pub moved: Option<Piece>,
    /// The position key before the move.
    pub key: u64,
    /// The no-capture ply counter before the move.
    pub halfmove: u32,
    /// Checkers of the side to move before the move.
    pub checkers: Bitboard,
}

/// A xiangqi position with its history since it was set up.
#[derive(Clone)]
pub struct Position {
    board: [Option<Piece>; 90],
    pieces: [[Bitboard; PieceKind::NUM]; 2],
    colors: [Bitboard; 2],
    occ: Bitboard,
    occ_t: u128,
    kings: [Square; 2],
    side: Color,
    key: u64,
    halfmove: u32,
    fullmove: u32,
    checkers: Bitboard,
    history: Vec<Undo>,
}

/// A move from the wire that could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not four characters naming two squares (`h2e2`).
    Syntax(String),
    /// Well formed but not legal here; the string says why.
    Illegal(String, &'static str),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(s) => {
                write!(f, "'{}' is not a move (expected from-square then to-square, e.g. h2e2)", clip(s))
            }
            MoveError::Illegal(s, why) => write!(f, "illegal move {}: {why}", clip(s)),
        }
    }
}

impl std::error::Error for MoveError {}

/// For a king on each point: the points where a moving piece can start or end to give it a new check: its
/// rank and file (rooks, cannons and their screens, pawns), its diagonal neighbours (the horse legs that
/// could open) and the eight points a horse checks it from. A move that touches none of them cannot give
/// check in a legal position (where the side not to move is never in check), which lets `gives_check` and
/// `make_move` skip the attack lookups for most moves.
static CHECK_LINES: [Bitboard; 90] = {
    const HORSE: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
    const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    let mut t = [Bitboard::EMPTY; 90];
    let mut k = 0;
    while k < 90 {
        let (kf, kr) = ((k % 9) as i32, (k / 9) as i32);
        let mut bits = 0u128;
        let mut s = 0;
        while s < 90 {
            if s % 9 == k % 9 || s / 9 == k / 9 {
                bits |= 1 << s;
            }
            s += 1;
        }
        let mut i = 0;
        while i < 8 {
            let (f, r) = (kf + HORSE[i].0, kr + HORSE[i].1);
            if f >= 0 && f < 9 && r >= 0 && r < 10 {
                bits |= 1 << (r * 9 + f);
            }
            if i < 4 {
                let (f, r) = (kf + DIAG[i].0, kr + DIAG[i].1);
                if f >= 0 && f < 9 && r >= 0 && r < 10 {
                    bits |= 1 << (r * 9 + f);
                }
            }
            i += 1;
        }
        t[k] = Bitboard(bits);
        k += 1;
    }
    t
};

/// The standard start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

impl Position {
    /// The standard start position.
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("the start position is valid")
    }

    /// An empty board with Red to move; `fen` fills it and validates it.
    pub(crate) fn empty() -> Position {
        Position {
            board: [None; 90],
            pieces: [[Bitboard::EMPTY; PieceKind::NUM]; 2],
            colors: [Bitboard::EMPTY; 2],
            occ: Bitboard::EMPTY,
            occ_t: 0,
            kings: [Square::from_index(4), Square::from_index(85)],
            side: Color::Red,
            key: 0,
            halfmove: 0,
            fullmove: 1,
            checkers: Bitboard::EMPTY,
            history: Vec::with_capacity(256),
        }
    }

    pub(crate) fn put(&mut self, piece: Piece, sq: Square) {
        debug_assert!(self.board[sq.index()].is_none());
        self.board[sq.index()] = Some(piece);
        self.toggle(piece, sq);
        self.key ^= piece_key(piece, sq);
        if piece.kind() == PieceKind::King {
            self.kings[piece.color().index()] = sq;
        }
    }

    /// Clears the board and history and sets up `pieces` with `side` to move, reusing the allocations: the
    /// tablebase generator rebuilds millions of positions and must not allocate for each.
    pub(crate) fn reset_to(&mut self, pieces: &[(Piece, Square)], side: Color) {
        self.board = [None; 90];
        self.pieces = [[Bitboard::EMPTY; PieceKind::NUM]; 2];
        self.colors = [Bitboard::EMPTY; 2];
        self.occ = Bitboard::EMPTY;
        self.occ_t = 0;
        self.key = 0;
        self.side = Color::Red;
        self.history.clear();
        for &(p, sq) in pieces {
            self.put(p, sq);
        }
        self.set_state(side, 0, 1);
    }

    pub(crate) fn set_state(&mut self, side: Color, halfmove: u32, fullmove: u32) {
        if side != self.side {
            self.key ^= SIDE_KEY;
        }
        self.side = side;
        self.halfmove = halfmove;
        self.fullmove = fullmove;
        self.checkers = self.compute_checkers();
    }

    #[inline(always)]
    fn toggle(&mut self, piece: Piece, sq: Square) {
        let b = Bitboard::from_square(sq);
        self.pieces[piece.color().index()][piece.kind().index()] ^= b;
        self.colors[piece.color().index()] ^= b;
        self.occ ^= b;
        self.occ_t ^= transposed_bit(sq);
    }

    // ----- accessors -----

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The squares of `color`'s pieces of `kind`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.pieces[color.index()][kind.index()]
    }

    /// All of `color`'s pieces.
    #[inline(always)]
    pub fn color_pieces(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    /// Every occupied point.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.occ
    }

    /// The occupancy in transposed (file-major) order, for the slider tables.
    #[inline(always)]
    pub fn occupied_transposed(&self) -> u128 {
        self.occ_t
    }

    /// Where `color`'s king stands.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.kings[color.index()]
    }

    /// The Zobrist key of the position (pieces and side to move).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Plies since the last capture (for the 120-ply rule).
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The move number, starting at 1 and counting up after each Black move.
    #[inline(always)]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// Enemy pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.nonempty()
    }

    /// The moves played since the position was set up, oldest first, with what is needed to undo them.
    #[inline(always)]
    pub fn history(&self) -> &[Undo] {
        &self.history
    }

    /// Forgets the history (keeps the position). Used when a new game line starts from here.
    pub fn clear_history(&mut self) {
        self.history.clear();
    }

    /// Forgets all but the last `keep` plies of history (keeps the position). A game of thousands of moves
    /// then costs the search no more than a short one: the search copies the position into every thread.
    pub fn keep_recent_history(&mut self, keep: usize) {
        let n = self.history.len();
        if n > keep {
            self.history.drain(..n - keep);
        }
    }

    // ----- attacks -----

    /// Rook moves from `sq` on the current board.
    #[inline(always)]
    pub fn rook_attacks(&self, sq: Square) -> Bitboard {
        rook_attacks(sq, self.occ, self.occ_t)
    }

    /// Cannon captures from `sq` on the current board (the first piece behind one screen).
    #[inline(always)]
    pub fn cannon_attacks(&self, sq: Square) -> Bitboard {
        cannon_attacks(sq, self.occ, self.occ_t)
    }

    /// The squares `piece` standing on `sq` attacks on the current board (cannon: its captures only).
    #[inline(always)]
    pub fn attacks_of(&self, piece: Piece, sq: Square) -> Bitboard {
        match piece.kind() {
            PieceKind::King => KING_ATTACKS[sq.index()],
            PieceKind::Advisor => ADVISOR_ATTACKS[sq.index()],
            PieceKind::Elephant => elephant_attacks(sq, self.occ),
            PieceKind::Horse => horse_attacks(sq, self.occ),
            PieceKind::Rook => self.rook_attacks(sq),
            PieceKind::Cannon => self.cannon_attacks(sq),
            PieceKind::Pawn => PAWN_ATTACKS[piece.color().index()][sq.index()],
        }
    }

    /// Pieces of `by` (taken from `set`) that attack `sq` with occupancy `occ`/`occ_t`, counting only the
    /// pieces that can ever give check: rook, cannon, horse, pawn, and a king along an open file.
    #[inline(always)]
    fn checkers_from(sq: Square, by: Color, set: &[Bitboard; 7], occ: Bitboard, occ_t: u128) -> Bitboard {
        let rook_like = rook_attacks(sq, occ, occ_t);
        (rook_like & set[PieceKind::Rook.index()])
            | (file_attacks(sq, occ_t) & set[PieceKind::King.index()])
            | (cannon_attacks(sq, occ, occ_t) & set[PieceKind::Cannon.index()])
            | (horse_attackers_from(sq, occ) & set[PieceKind::Horse.index()])
            | (PAWN_ATTACKERS_FROM[by.index()][sq.index()] & set[PieceKind::Pawn.index()])
    }

    fn compute_checkers(&self) -> Bitboard {
        let us = self.side;
        let them = !us;
        Self::checkers_from(self.kings[us.index()], them, &self.pieces[them.index()], self.occ, self.occ_t)
    }

    /// Every piece of `by` that attacks `sq` on the current board (all kinds, kings by their steps and
    /// along an open file). Used by exchange evaluation and the chase rules.
    pub fn attackers_to(&self, sq: Square, by: Color) -> Bitboard {
        self.attackers_to_with(sq, by, self.occ, self.occ_t)
    }

    /// As [`Position::attackers_to`], with the occupancy given (pieces outside it do not attack).
    pub fn attackers_to_with(&self, sq: Square, by: Color, occ: Bitboard, occ_t: u128) -> Bitboard {
        let set = &self.pieces[by.index()];
        (Self::checkers_from(sq, by, set, occ, occ_t)
            | (KING_ATTACKS[sq.index()] & set[PieceKind::King.index()])
            | (ADVISOR_ATTACKS[sq.index()] & set[PieceKind::Advisor.index()])
            | (elephant_attacks(sq, occ) & set[PieceKind::Elephant.index()]))
            & occ
    }

    /// Whether `by` attacks `sq` with one of the pieces that can give check.
    pub fn is_attacked_by(&self, sq: Square, by: Color) -> bool {
        Self::checkers_from(sq, by, &self.pieces[by.index()], self.occ, self.occ_t).nonempty()
    }

    /// Whether the side to move's king would be safe after moving `from` -> `to` (the move is assumed
    /// pseudo-legal): no enemy piece that can give check (rook, cannon, horse, pawn, the king along the file)
    /// attacks the king with the occupancy after the move. Rooks, cannons and the king are judged one by one
    /// by the pieces between them and the king, and only those on the king's lines: there are rarely more
    /// than two, and each costs a table lookup where the slider tables would cost several 128-bit shifts.
    #[inline(always)]
    pub(crate) fn move_is_safe(&self, from: Square, to: Square) -> bool {
        let us = self.side;
        let them = !us;
        let set = &self.pieces[them.index()];
        let to_bit = Bitboard::from_square(to);
        let king = if from == self.kings[us.index()] { to } else { self.kings[us.index()] };
        // A piece captured on `to` attacks nothing.
        let alive = Bitboard(!to_bit.0);
        let pawns = set[PieceKind::Pawn.index()] & alive;
        if (PAWN_ATTACKERS_FROM[them.index()][king.index()] & pawns).nonempty() {
            return false;
        }
        let occ = (self.occ ^ Bitboard::from_square(from)) | to_bit;
        let horses = set[PieceKind::Horse.index()] & alive & horse_attackers_from(king, Bitboard::EMPTY);
        if horses.nonempty() && (horse_attackers_from(king, occ) & horses).nonempty() {
            return false;
        }
        let lines = lines_through(king) & alive;
        let file = Bitboard::FILES[king.file() as usize];
        for s in (set[PieceKind::Rook.index()] | (set[PieceKind::King.index()] & file)) & lines {
            if (between(s, king) & occ).is_empty() {
                return false;
            }
        }
        for s in set[PieceKind::Cannon.index()] & lines {
            let screens = between(s, king) & occ;
            if screens.nonempty() && !screens.more_than_one() {
                return false;
            }
        }
        true
    }

    /// Whether the side to move gives check by playing `m` (assumed legal).
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side;
        let Some(piece) = self.board[m.from().index()] else { return false };
        let (from, to) = (m.from(), m.to());
        if (CHECK_LINES[self.kings[(!us).index()].index()]
            & (Bitboard::from_square(from) | Bitboard::from_square(to)))
        .is_empty()
        {
            return false;
        }
        // One copy of our pieces as they stand after the move, the king left out (it cannot give check).
        let mut set = self.pieces[us.index()];
        set[piece.kind().index()] = set[piece.kind().index()].without(from).with(to);
        set[PieceKind::King.index()] = Bitboard::EMPTY;
        let occ = (self.occ.without(from)).with(to);
        let occ_t = (self.occ_t & !transposed_bit(from)) | transposed_bit(to);
        Self::checkers_from(self.kings[(!us).index()], us, &set, occ, occ_t).nonempty()
    }

    // ----- make / unmake -----

    /// Plays `m`, which must be legal in this position (use [`Position::parse_move`] or the generator).
    pub fn make_move(&mut self, m: Move) {
        self.play(m, None);
    }

    /// As [`Position::make_move`], told whether the move gives check (what [`Position::gives_check`]
    /// answered): the search asks that for every move anyway, and a move known not to check needs no attack
    /// lookups here.
    pub fn make_move_with_check(&mut self, m: Move, gives_check: bool) {
        debug_assert_eq!(gives_check, self.gives_check(m), "wrong check hint for {m}");
        self.play(m, Some(gives_check));
    }

    #[inline(always)]
    fn play(&mut self, m: Move, gives_check: Option<bool>) {
        let (from, to) = (m.from(), m.to());
        let piece = self.board[from.index()].expect("make_move: no piece on the origin square");
        let captured = self.board[to.index()];
        self.history.push(Undo {
            mv: Some(m),
            captured,
            moved: Some(piece),
            key: self.key,
            halfmove: self.halfmove,
            checkers: self.checkers,
        });
        let mut key = self.key ^ SIDE_KEY ^ piece_key(piece, from) ^ piece_key(piece, to);
        if let Some(c) = captured {
            let b = Bitboard::from_square(to);
            self.pieces[c.color().index()][c.kind().index()] ^= b;
            self.colors[c.color().index()] ^= b;
            key ^= piece_key(c, to);
            self.halfmove = 0;
            // The destination stays occupied: no change to occ.
            self.occ ^= b;
            self.occ_t ^= transposed_bit(to);
        } else {
            self.halfmove += 1;
        }
        self.toggle(piece, from);
        self.toggle(piece, to);
        self.board[from.index()] = None;
        self.board[to.index()] = Some(piece);
        if piece.kind() == PieceKind::King {
            self.kings[piece.color().index()] = to;
        }
        self.key = key;
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = !self.side;
        // The side now to move was not in check before the move, so only a move touching its king's lines
        // can have checked it.
        let lines = CHECK_LINES[self.kings[self.side.index()].index()];
        let may_check = match gives_check {
            Some(checks) => checks,
            None => (lines & (Bitboard::from_square(from) | Bitboard::from_square(to))).nonempty(),
        };
        self.checkers = if may_check { self.compute_checkers() } else { Bitboard::EMPTY };
    }

    /// Takes back the last move made with [`Position::make_move`].
    pub fn unmake_move(&mut self) {
        let u = self.history.pop().expect("unmake_move without a move to take back");
        let m = u.mv.expect("unmake_move after a null move");
        let (from, to) = (m.from(), m.to());
        let piece = self.board[to.index()].expect("unmake_move: destination is empty");
        self.side = !self.side;
        if self.side == Color::Black {
            self.fullmove -= 1;
        }
        self.toggle(piece, to);
        self.toggle(piece, from);
        self.board[from.index()] = Some(piece);
        self.board[to.index()] = u.captured;
        if let Some(c) = u.captured {
            self.toggle(c, to);
        }
        if piece.kind() == PieceKind::King {
            self.kings[piece.color().index()] = from;
        }
        self.key = u.key;
        self.halfmove = u.halfmove;
        self.checkers = u.checkers;
    }

    /// Passes the move to the other side (for null-move pruning; never when in check).
    pub fn make_null_move(&mut self) {
        debug_assert!(!self.in_check());
        self.history.push(Undo {
            mv: None,
            captured: None,
            moved: None,
            key: self.key,
            halfmove: self.halfmove,
            checkers: self.checkers,
        });
        self.key ^= SIDE_KEY;
        self.halfmove += 1;
        self.side = !self.side;
        self.checkers = self.compute_checkers();
    }

    /// Takes back a null move.
    pub fn unmake_null_move(&mut self) {
        let u = self.history.pop().expect("unmake_null_move without a null move");
        debug_assert!(u.mv.is_none());
        self.side = !self.side;
        self.key = u.key;
        self.halfmove = u.halfmove;
        self.checkers = u.checkers;
    }

    /// The key computed from scratch; equals [`Position::key`] in a consistent position.
    pub fn compute_key(&self) -> u64 {
        let mut k = if self.side == Color::Black { SIDE_KEY } else { 0 };
        for sq in self.occ {
            if let Some(p) = self.board[sq.index()] {
                k ^= piece_key(p, sq);
            }
        }
        k
    }

    // ----- moves from outside -----

    /// Resolves a move in coordinate text (`h2e2`, ranks 0-9) against this position.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let syntax = || MoveError::Syntax(text.chars().take(16).collect());
        if text.len() != 4 || !text.is_ascii() {
            return Err(syntax());
        }
        let from: Square = text[0..2].parse().map_err(|_| syntax())?;
        let to: Square = text[2..4].parse().map_err(|_| syntax())?;
        let m = Move::new(from, to);
        let illegal = |why| Err(MoveError::Illegal(text.to_string(), why));
        match self.piece_at(from) {
            None => return illegal("no piece on the origin square"),
            Some(p) if p.color() != self.side => {
                return illegal("the piece on the origin square is not the mover's")
            }
            _ => {}
        }
        if from == to || !self.is_pseudo_legal(m) {
            return illegal("the piece cannot move there");
        }
        if !self.move_is_safe(from, to) {
            return illegal("it leaves the king in check or facing the other king");
        }
        Ok(m)
    }

    /// Plays a move given as text if it is legal; otherwise leaves the position untouched.
    pub fn try_play(&mut self, text: &str) -> Result<Move, MoveError> {
        let m = self.parse_move(text)?;
        self.make_move(m);
        Ok(m)
    }

    /// The position with colours swapped and the board turned round (Red's pieces become Black's on the
    /// mirrored points); the side to move swaps too, so the evaluation from the mover's view is unchanged.
    pub fn flipped(&self) -> Position {
        let mut p = Position::empty();
        for sq in self.occ {
            if let Some(pc) = self.board[sq.index()] {
                p.put(Piece::new(!pc.color(), pc.kind()), sq.flip_rank());
            }
        }
        p.set_state(!self.side, self.halfmove, self.fullmove);
        p
    }

    /// The position mirrored left to right (same side to move).
    pub fn mirrored(&self) -> Position {
        let mut p = Position::empty();
        for sq in self.occ {
            if let Some(pc) = self.board[sq.index()] {
                p.put(pc, sq.mirror_file());
            }
        }
        p.set_state(self.side, self.halfmove, self.fullmove);
        p
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl PartialEq for Position {
    /// Two positions are equal when the pieces, side and counters agree (history is not compared).
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.side == other.side
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
    }
}
