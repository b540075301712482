//! Legal move generation.
//!
//! Moves are generated per piece as target sets. A move is legal without further work unless the side to
//! move is in check, the king moves, or the move touches a "sensitive" point: a point on a ray from the
//! king that holds an enemy rook, cannon or (on the file) king, or a diagonal neighbour of the king (a horse
//! leg). Those moves get a full test of the king's safety with the occupancy after the move, which covers
//! discovered checks through cannon screens, a piece becoming a screen, and the kings facing.

use crate::attacks::{elephant_attacks, horse_attacks, ADVISOR_ATTACKS, KING_ATTACKS, PAWN_ATTACKS, RAYS};
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Move, PieceKind, Square};

/// At most 119 pseudo-legal moves exist in any position (2x17 rook, 2x17 cannon, 2x8 horse, 2x4 elephant,
/// 4+4 advisor, 4 king, 5x3 pawn), so a fixed array of 128 never overflows.
pub const MAX_MOVES: usize = 128;

/// A list of moves on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        let filler = Move::new(Square::from_index(0), Square::from_index(1));
        MoveList { moves: [filler; MAX_MOVES], len: 0 }
    }

    /// Appends a move.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES);
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for sorting).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Whether `m` is in the list.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    /// Keeps only the moves for which `f` is true.
    pub fn retain(&mut self, mut f: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            if f(self.moves[i]) {
                self.moves[j] = self.moves[i];
                j += 1;
            }
        }
        self.len = j;
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// Which moves to generate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GenType {
    /// Every legal move.
    All,
    /// Legal captures only.
    Captures,
    /// Legal non-captures only.
    Quiets,
}

/// What the generator needs to know once per position.
struct Context {
    sensitive: Bitboard,
    in_check: bool,
}

impl Position {
    fn context(&self) -> Context {
        let us = self.side_to_move();
        let them = !us;
        let king = self.king_square(us);
        let sliders = self.pieces(them, PieceKind::Rook) | self.pieces(them, PieceKind::Cannon);
        let enemy_king = self.pieces(them, PieceKind::King);
        let rays = &RAYS[king.index()];
        let mut sensitive = crate::attacks::diagonal_neighbours(king);
        // Rays 0 and 1 run along the king's file, where the other king may stand.
        for (d, &ray) in rays.iter().enumerate() {
            let threats = if d < 2 { sliders | enemy_king } else { sliders };
            if (ray & threats).nonempty() {
                sensitive |= ray;
            }
        }
        Context { sensitive, in_check: self.in_check() }
    }

    /// Calls `f(from, targets)` for every piece of the side to move with its pseudo-legal targets,
    /// restricted to `mask` (all, captures or quiets). The king comes first.
    #[inline(always)]
    fn for_each_piece(&self, gen: GenType, mut f: impl FnMut(Square, Bitboard, bool)) {
        let us = self.side_to_move();
        let own = self.color_pieces(us);
        let enemy = self.color_pieces(!us);
        let occ = self.occupied();
        let mask = match gen {
            GenType::All => !own,
            GenType::Captures => enemy,
            GenType::Quiets => !occ,
        };
        let king = self.king_square(us);
        f(king, KING_ATTACKS[king.index()] & mask, true);
        for s in self.pieces(us, PieceKind::Rook) {
            f(s, self.rook_attacks(s) & mask, false);
        }
        for s in self.pieces(us, PieceKind::Cannon) {
            let quiet = if gen != GenType::Captures { self.rook_attacks(s) & !occ } else { Bitboard::EMPTY };
            let capture =
                if gen != GenType::Quiets { self.cannon_attacks(s) & enemy } else { Bitboard::EMPTY };
            f(s, quiet | capture, false);
        }
        for s in self.pieces(us, PieceKind::Horse) {
            f(s, horse_attacks(s, occ) & mask, false);
        }
        for s in self.pieces(us, PieceKind::Pawn) {
            f(s, PAWN_ATTACKS[us.index()][s.index()] & mask, false);
        }
        for s in self.pieces(us, PieceKind::Elephant) {
            f(s, elephant_attacks(s, occ) & mask, false);
        }
        for s in self.pieces(us, PieceKind::Advisor) {
            f(s, ADVISOR_ATTACKS[s.index()] & mask, false);
        }
    }

    /// Appends the legal moves of the given type to `list`.
    pub fn generate(&self, gen: GenType, list: &mut MoveList) {
        let ctx = self.context();
        self.for_each_piece(gen, |from, targets, is_king| {
            if is_king || ctx.in_check || ctx.sensitive.has(from) {
                for to in targets {
                    if self.move_is_safe(from, to) {
                        list.push(Move::new(from, to));
                    }
                }
            } else {
                for to in targets & !ctx.sensitive {
                    list.push(Move::new(from, to));
                }
                for to in targets & ctx.sensitive {
                    if self.move_is_safe(from, to) {
                        list.push(Move::new(from, to));
                    }
                }
            }
        });
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(GenType::All, &mut list);
        list
    }

    /// The number of legal moves, without building a list (for perft's last ply).
    pub fn count_legal(&self) -> u64 {
        let ctx = self.context();
        let mut n = 0u64;
        self.for_each_piece(GenType::All, |from, targets, is_king| {
            if is_king || ctx.in_check || ctx.sensitive.has(from) {
                n += targets.filter(|&to| self.move_is_safe(from, to)).count() as u64;
            } else {
                n += (targets & !ctx.sensitive).count() as u64;
                n += (targets & ctx.sensitive).filter(|&to| self.move_is_safe(from, to)).count() as u64;
            }
        });
        n
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut found = false;
        self.for_each_piece(GenType::All, |from, targets, _| {
            if !found {
                found = targets.into_iter().any(|to| self.move_is_safe(from, to));
            }
        });
        found
    }

    /// Whether `m` is a move the piece on its origin could make here, ignoring the king's safety.
    /// For moves taken from a hash table or a killer slot, which may belong to another position.
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let us = self.side_to_move();
        let Some(piece) = self.piece_at(from) else { return false };
        if piece.color() != us || self.color_pieces(us).has(to) {
            return false;
        }
        let occ = self.occupied();
        let targets = match piece.kind() {
            PieceKind::Cannon => {
                if occ.has(to) {
                    self.cannon_attacks(from)
                } else {
                    self.rook_attacks(from)
                }
            }
            _ => self.attacks_of(piece, from),
        };
        targets.has(to)
    }

    /// Whether `m` is legal here (pseudo-legal and the king is safe afterwards).
    pub fn is_legal(&self, m: Move) -> bool {
        self.is_pseudo_legal(m) && self.move_is_safe(m.from(), m.to())
    }

    /// Whether `m` captures a piece.
    #[inline(always)]
    pub fn is_capture(&self, m: Move) -> bool {
        self.piece_at(m.to()).is_some()
    }

    /// Whether the side to move has no legal move (checkmated or stalemated: either way it loses).
    pub fn is_lost_by_no_move(&self) -> bool {
        !self.has_legal_move()
    }
}
