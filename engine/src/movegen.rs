//! Legal move generation.
//!
//! Moves are generated per piece as target sets, and only the moves that may expose the king get the full
//! test of its safety (`Position::move_is_safe`, with the occupancy after the move):
//! - not in check ([`Exposure`], worked out once per position): king moves; moves of a piece whose leaving
//!   exposes the king (the only piece between it and an enemy rook or the other king, one of the two pieces
//!   between it and an enemy cannon, or the leg of an enemy horse); and moves onto an empty point between the
//!   king and a facing enemy cannon (the piece would become its screen). Every other move is legal as it is.
//! - in check (`Position::generate_evasions`): every move is tested, but a non-king move can only be legal
//!   if it captures a checker, steps between the king and a checking rook, cannon or king, or onto a
//!   checking horse's leg, or if it moves the screen of a checking cannon away; other targets are dropped
//!   untested.
//!
//! The order of the moves is part of the contract (the search breaks ties by it): the king first, then
//! rooks, cannons, horses, pawns, elephants, advisors, each piece's targets in square order, except that
//! when not in check a piece off the "late" points (see [`Exposure::late`]) lists its targets off them
//! first. The tests compare the order with the generator that defined it.

use crate::attacks::{
    between, diagonal_neighbours, elephant_attacks, horse_attackers_from, horse_attacks, lines_through,
    orthogonal_neighbours, orthogonal_neighbours_all, ray_through, ADVISOR_ATTACKS, ELEPHANT_POINTS,
    KING_ATTACKS, PAWN_ATTACKS,
};
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

    /// Empties the list.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
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

/// Where the moves of the generator go: a list, or a counter for perft's last ply.
trait MoveSink {
    /// Takes one move.
    fn add(&mut self, m: Move);
    /// Takes the moves from `from` to each of `targets`, in square order.
    fn add_all(&mut self, from: Square, targets: Bitboard);
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn add(&mut self, m: Move) {
        self.push(m);
    }

    #[inline(always)]
    fn add_all(&mut self, from: Square, targets: Bitboard) {
        // By 64-bit halves (clearing the lowest bit of a 128-bit word costs twice the instructions), with the
        // length in a register. A list never holds more than MAX_MOVES (see there), so the index is masked
        // rather than checked; were that ever broken, moves would be overwritten, never written out of bounds.
        debug_assert!(self.len + targets.count() as usize <= MAX_MOVES);
        let mut len = self.len;
        let mut low = targets.0 as u64;
        while low != 0 {
            self.moves[len % MAX_MOVES] = Move::new(from, Square::from_index(low.trailing_zeros() as u8));
            len += 1;
            low &= low - 1;
        }
        let mut high = (targets.0 >> 64) as u64;
        while high != 0 {
            self.moves[len % MAX_MOVES] =
                Move::new(from, Square::from_index(64 + high.trailing_zeros() as u8));
            len += 1;
            high &= high - 1;
        }
        self.len = len;
    }
}

/// Counts moves without storing them.
struct MoveCount(u64);

impl MoveSink for MoveCount {
    #[inline(always)]
    fn add(&mut self, _: Move) {
        self.0 += 1;
    }

    #[inline(always)]
    fn add_all(&mut self, _: Square, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }
}

/// What the generator must test when the side to move is not in check (see the module comment); worked out
/// once per position.
struct Exposure {
    /// Our pieces whose leaving may expose the king: each of their moves is tested.
    pinned: Bitboard,
    /// The empty points between the king and a facing enemy cannon: a move there is tested.
    traps: Bitboard,
    /// Neither pinned pieces nor traps: no non-king move needs a test.
    none: bool,
    /// Only for the order of the moves: the points this generator once tested for every piece (the king's
    /// rays that hold an enemy rook, cannon or, on its file, king, and the king's diagonal neighbours). A piece
    /// off them lists its targets off them first. Holds `pinned` and `traps`.
    late: Bitboard,
}

impl Position {
    /// The pieces and points that may expose the king, when not in check.
    #[inline(always)]
    fn exposure(&self) -> Exposure {
        let us = self.side_to_move();
        let them = !us;
        let king = self.king_square(us);
        let own = self.color_pieces(us);
        let rooks = self.pieces(them, PieceKind::Rook);
        let cannons = self.pieces(them, PieceKind::Cannon);
        let enemy_king = self.pieces(them, PieceKind::King);
        let lines = lines_through(king);

        let mut late = diagonal_neighbours(king);
        let mut pinned = Bitboard::EMPTY;
        let mut traps = Bitboard::EMPTY;
        // The other king only ever faces ours along the file.
        let rook_like = (rooks & lines) | (enemy_king & Bitboard::FILES[king.file() as usize]);
        let cannons = cannons & lines;
        if (rook_like | cannons).nonempty() {
            let occ = self.occupied();
            // Not in check, so a rook or the king on the lines has a piece between: if only one, it is pinned.
            for s in rook_like {
                late |= ray_through(king, s);
                let blockers = between(s, king) & occ;
                if !blockers.more_than_one() {
                    pinned |= blockers & own;
                }
            }
            // A cannon with no screen makes every empty point between a trap; with two screens, either of
            // them leaving gives check. (One screen would be check.)
            for s in cannons {
                late |= ray_through(king, s);
                let gap = between(s, king);
                let screens = gap & occ;
                if screens.is_empty() {
                    traps |= gap;
                } else {
                    // Exactly two: one left after clearing the lowest.
                    let rest = Bitboard(screens.0 & (screens.0 - 1));
                    if rest.nonempty() && !rest.more_than_one() {
                        pinned |= screens & own;
                    }
                }
            }
        }
        // A horse that would check but for its leg: the leg, if ours, must not leave.
        let horses = horse_attackers_from(king, Bitboard::EMPTY) & self.pieces(them, PieceKind::Horse);
        if horses.nonempty() {
            let legs = diagonal_neighbours(king) & own;
            for h in horses {
                pinned |= orthogonal_neighbours(h) & legs;
            }
        }
        Exposure { pinned, traps, none: (pinned | traps).is_empty(), late }
    }

    /// Hands the legal moves among `targets` of the non-king piece on `from` to `sink`, when not in check.
    #[inline(always)]
    fn add_piece_moves(&self, ex: &Exposure, from: Square, targets: Bitboard, sink: &mut impl MoveSink) {
        if targets.is_empty() {
            return;
        }
        let early = if ex.late.has(from) { targets } else { targets & !ex.late };
        let late = targets ^ early;
        if ex.none {
            sink.add_all(from, early);
            sink.add_all(from, late);
        } else if ex.pinned.has(from) {
            // Pinned pieces stand on late points, so their targets are all early: square order.
            self.add_if_safe(from, targets, sink);
        } else {
            self.add_unless_trapped(ex, from, early, sink);
            self.add_unless_trapped(ex, from, late, sink);
        }
    }

    /// Hands `targets` of the piece on `from` to `sink` in square order, those on traps only if safe.
    #[inline(always)]
    fn add_unless_trapped(&self, ex: &Exposure, from: Square, targets: Bitboard, sink: &mut impl MoveSink) {
        let trapped = targets & ex.traps;
        if trapped.is_empty() {
            sink.add_all(from, targets);
            return;
        }
        for to in targets {
            if !trapped.has(to) || self.move_is_safe(from, to) {
                sink.add(Move::new(from, to));
            }
        }
    }

    /// Hands the legal moves of the given type to `sink`, in generation order.
    #[inline(always)]
    fn generate_into(&self, gen: GenType, sink: &mut impl MoveSink) {
        if self.in_check() {
            return self.generate_evasions(gen, sink);
        }
        let ex = self.exposure();
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
        self.add_if_safe(king, KING_ATTACKS[king.index()] & mask, sink);
        for s in self.pieces(us, PieceKind::Rook) {
            self.add_piece_moves(&ex, s, self.rook_attacks(s) & mask, sink);
        }
        for s in self.pieces(us, PieceKind::Cannon) {
            let quiet = if gen != GenType::Captures { self.rook_attacks(s) & !occ } else { Bitboard::EMPTY };
            let capture =
                if gen != GenType::Quiets { self.cannon_attacks(s) & enemy } else { Bitboard::EMPTY };
            self.add_piece_moves(&ex, s, quiet | capture, sink);
        }
        for s in self.pieces(us, PieceKind::Horse) {
            self.add_piece_moves(&ex, s, horse_attacks(s, occ) & mask, sink);
        }
        // Pawns, elephants and advisors rarely have a capture: skip them at once when none can.
        let pawns = self.pieces(us, PieceKind::Pawn);
        if gen != GenType::Captures || (orthogonal_neighbours_all(pawns) & mask).nonempty() {
            for s in pawns {
                self.add_piece_moves(&ex, s, PAWN_ATTACKS[us.index()][s.index()] & mask, sink);
            }
        }
        if gen != GenType::Captures || (ELEPHANT_POINTS[us.index()] & mask).nonempty() {
            for s in self.pieces(us, PieceKind::Elephant) {
                self.add_piece_moves(&ex, s, elephant_attacks(s, occ) & mask, sink);
            }
        }
        if gen != GenType::Captures || (Bitboard::PALACE[us.index()] & mask).nonempty() {
            for s in self.pieces(us, PieceKind::Advisor) {
                self.add_piece_moves(&ex, s, ADVISOR_ATTACKS[s.index()] & mask, sink);
            }
        }
    }

    /// [`Position::generate_into`] when in check. Every move is tested, but a non-king move is only tried if
    /// its target is `allowed` (captures a checker, or blocks a rook, cannon, king or horse check) or it moves
    /// a screen of a checking cannon away. A piece whose moves on an empty board reach no allowed point is
    /// skipped before its attacks are looked up.
    fn generate_evasions(&self, gen: GenType, sink: &mut impl MoveSink) {
        let us = self.side_to_move();
        let them = !us;
        let king = self.king_square(us);
        let own = self.color_pieces(us);
        let enemy = self.color_pieces(them);
        let occ = self.occupied();
        let checkers = self.checkers();
        let mask = match gen {
            GenType::All => !own,
            GenType::Captures => enemy,
            GenType::Quiets => !occ,
        };
        self.add_if_safe(king, KING_ATTACKS[king.index()] & mask, sink);
        // The union over the checkers: a superset of what answers them all.
        let mut allowed = checkers;
        for c in checkers {
            // Empty unless the checker is a rook, cannon or king on the king's lines.
            allowed |= between(c, king);
        }
        let mut screens = Bitboard::EMPTY;
        for c in checkers & self.pieces(them, PieceKind::Cannon) {
            screens |= between(c, king) & own;
        }
        for c in checkers & self.pieces(them, PieceKind::Horse) {
            allowed |= orthogonal_neighbours(c) & diagonal_neighbours(king);
        }
        let allowed = allowed & mask;
        let reach = |s: Square| if screens.has(s) { mask } else { allowed };
        for s in self.pieces(us, PieceKind::Rook) {
            let reach = reach(s);
            if (lines_through(s) & reach).nonempty() {
                self.add_if_safe(s, self.rook_attacks(s) & reach, sink);
            }
        }
        for s in self.pieces(us, PieceKind::Cannon) {
            let reach = reach(s);
            if (lines_through(s) & reach).nonempty() {
                let targets = (self.rook_attacks(s) & !occ) | (self.cannon_attacks(s) & enemy);
                self.add_if_safe(s, targets & reach, sink);
            }
        }
        for s in self.pieces(us, PieceKind::Horse) {
            let reach = reach(s);
            if (horse_attacks(s, Bitboard::EMPTY) & reach).nonempty() {
                self.add_if_safe(s, horse_attacks(s, occ) & reach, sink);
            }
        }
        for s in self.pieces(us, PieceKind::Pawn) {
            self.add_if_safe(s, PAWN_ATTACKS[us.index()][s.index()] & reach(s), sink);
        }
        for s in self.pieces(us, PieceKind::Elephant) {
            let reach = reach(s);
            if (elephant_attacks(s, Bitboard::EMPTY) & reach).nonempty() {
                self.add_if_safe(s, elephant_attacks(s, occ) & reach, sink);
            }
        }
        for s in self.pieces(us, PieceKind::Advisor) {
            self.add_if_safe(s, ADVISOR_ATTACKS[s.index()] & reach(s), sink);
        }
    }

    /// Hands those of `targets` of the piece on `from` that leave the king safe to `sink`, in square order.
    #[inline(always)]
    fn add_if_safe(&self, from: Square, targets: Bitboard, sink: &mut impl MoveSink) {
        for to in targets {
            if self.move_is_safe(from, to) {
                sink.add(Move::new(from, to));
            }
        }
    }

    /// Appends the legal moves of the given type to `list`.
    pub fn generate(&self, gen: GenType, list: &mut MoveList) {
        // One copy per type, so each sees its mask as a constant.
        match gen {
            GenType::All => self.generate_into(GenType::All, list),
            GenType::Captures => self.generate_into(GenType::Captures, list),
            GenType::Quiets => self.generate_into(GenType::Quiets, list),
        }
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(GenType::All, &mut list);
        list
    }

    /// The number of legal moves, without building a list (for perft's last ply).
    pub fn count_legal(&self) -> u64 {
        let mut count = MoveCount(0);
        self.generate_into(GenType::All, &mut count);
        count.0
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        self.count_legal() != 0
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
        match piece.kind() {
            // Sliders by the pieces between, which is cheaper than their attack tables.
            PieceKind::Rook => lines_through(from).has(to) && (between(from, to) & occ).is_empty(),
            PieceKind::Cannon => {
                let screens = between(from, to) & occ;
                lines_through(from).has(to)
                    && if occ.has(to) {
                        screens.nonempty() && !screens.more_than_one()
                    } else {
                        screens.is_empty()
                    }
            }
            _ => self.attacks_of(piece, from).has(to),
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks::{ADVISOR_ATTACKS, KING_ATTACKS, PAWN_ATTACKS, RAYS};

    /// The generator as it was before [`Exposure`]: every move of the king, of a piece on a "late" point,
    /// onto one, or made in check goes through `move_is_safe`. Its output (moves and order) is the contract.
    fn reference(pos: &Position, gen: GenType) -> Vec<Move> {
        let us = pos.side_to_move();
        let them = !us;
        let king = pos.king_square(us);
        let sliders = pos.pieces(them, PieceKind::Rook) | pos.pieces(them, PieceKind::Cannon);
        let enemy_king = pos.pieces(them, PieceKind::King);
        let mut sensitive = diagonal_neighbours(king);
        for (d, &ray) in RAYS[king.index()].iter().enumerate() {
            let threats = if d < 2 { sliders | enemy_king } else { sliders };
            if (ray & threats).nonempty() {
                sensitive |= ray;
            }
        }
        let own = pos.color_pieces(us);
        let enemy = pos.color_pieces(them);
        let occ = pos.occupied();
        let mask = match gen {
            GenType::All => !own,
            GenType::Captures => enemy,
            GenType::Quiets => !occ,
        };
        let mut pieces: Vec<(Square, Bitboard, bool)> = vec![(king, KING_ATTACKS[king.index()] & mask, true)];
        for s in pos.pieces(us, PieceKind::Rook) {
            pieces.push((s, pos.rook_attacks(s) & mask, false));
        }
        for s in pos.pieces(us, PieceKind::Cannon) {
            let quiet = if gen != GenType::Captures { pos.rook_attacks(s) & !occ } else { Bitboard::EMPTY };
            let capture =
                if gen != GenType::Quiets { pos.cannon_attacks(s) & enemy } else { Bitboard::EMPTY };
            pieces.push((s, quiet | capture, false));
        }
        for s in pos.pieces(us, PieceKind::Horse) {
            pieces.push((s, horse_attacks(s, occ) & mask, false));
        }
        for s in pos.pieces(us, PieceKind::Pawn) {
            pieces.push((s, PAWN_ATTACKS[us.index()][s.index()] & mask, false));
        }
        for s in pos.pieces(us, PieceKind::Elephant) {
            pieces.push((s, elephant_attacks(s, occ) & mask, false));
        }
        for s in pos.pieces(us, PieceKind::Advisor) {
            pieces.push((s, ADVISOR_ATTACKS[s.index()] & mask, false));
        }
        let mut out = Vec::new();
        for (from, targets, is_king) in pieces {
            let safe = |&to: &Square| pos.move_is_safe(from, to);
            if is_king || pos.in_check() || sensitive.has(from) {
                out.extend(targets.filter(safe).map(|to| Move::new(from, to)));
            } else {
                out.extend((targets & !sensitive).map(|to| Move::new(from, to)));
                out.extend((targets & sensitive).filter(safe).map(|to| Move::new(from, to)));
            }
        }
        out
    }

    /// The published perft positions, many with checks, pins and cannon screens near the kings.
    const SUITE: [&str; 12] = [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
        "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
        "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
        "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1",
        "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
        "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
        "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1",
        "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
        "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w - - 0 1",
        "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
    ];

    /// Checks every generation type and the counters against the reference; returns the number of checkers.
    fn agrees(pos: &Position) -> u32 {
        for gen in [GenType::All, GenType::Captures, GenType::Quiets] {
            let mut list = MoveList::new();
            pos.generate(gen, &mut list);
            assert_eq!(list.as_slice(), reference(pos, gen).as_slice(), "{gen:?} in {}", pos.to_fen());
        }
        let all = reference(pos, GenType::All);
        if pos.in_check() {
            // is_legal agrees with the generator for every move of our pieces (the hash and killer moves).
            for from in pos.color_pieces(pos.side_to_move()) {
                for to in Square::all() {
                    let m = Move::new(from, to);
                    assert_eq!(pos.is_legal(m), all.contains(&m), "is_legal({m}) in {}", pos.to_fen());
                }
            }
        }
        let n = all.len() as u64;
        assert_eq!(pos.count_legal(), n, "count in {}", pos.to_fen());
        assert_eq!(pos.has_legal_move(), n != 0, "has_legal_move in {}", pos.to_fen());
        pos.checkers().count()
    }

    #[test]
    fn same_moves_in_the_same_order_as_the_reference() {
        let mut rng = crate::random::Rng::from_state(0x2545_f491_4f6c_dd1du64);
        let mut next = move || rng.next_u64();
        let roots =
            SUITE.iter().copied().chain(crate::bench::DEFAULT_FENS.lines().filter(|l| !l.trim().is_empty()));
        let (mut nodes, mut checks, mut double_checks) = (0, 0, 0);
        for fen in roots {
            for _ in 0..6 {
                let mut pos = Position::from_fen(fen).expect("valid FEN");
                for _ in 0..60 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    agrees(&pos);
                    // Every child too: replies to checks, discovered checks and double checks come up here.
                    for &m in moves.iter() {
                        pos.make_move(m);
                        nodes += 1;
                        let checkers = agrees(&pos);
                        checks += (checkers > 0) as u32;
                        double_checks += (checkers > 1) as u32;
                        pos.unmake_move();
                    }
                    pos.make_move(moves[(next() % moves.len() as u64) as usize]);
                }
            }
        }
        assert!(nodes > 100_000 && checks > 5_000 && double_checks > 50, "{nodes} nodes, {checks} checks");
    }

    /// Composed positions (docs/rules.md, "Composed positions") with pawns where no game could put them:
    /// on their own back rank, in their own palace, on odd files before the river.
    const COMPOSED: [&str; 4] = [
        "3k5/9/9/9/9/9/1P7/9/P8/4KP3 w - - 0 1",
        "2Pak4/4a4/1p7/9/9/9/9/9/p3p4/3K5 b - - 0 1",
        "r2ak1p2/4a4/2p6/9/9/2R6/1P7/9/4P4/3AKA3 w - - 0 1",
        "3k1p3/3pp4/9/1p7/9/9/9/1C3n3/3PP4/4KA3 w - - 0 1",
    ];

    #[test]
    fn composed_positions_agree_with_the_reference() {
        let mut rng = crate::random::Rng::from_state(0x9e37_79b9_7f4a_7c15u64);
        let mut walked = 0;
        for fen in COMPOSED {
            let start = Position::from_composed_fen(fen).expect("a playable composed FEN");
            assert!(!start.unreachable.is_empty(), "{fen} should be a composition");
            for _ in 0..8 {
                let mut pos = start.position.clone();
                for _ in 0..40 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    agrees(&pos);
                    for &m in moves.iter() {
                        pos.make_move(m);
                        agrees(&pos);
                        pos.unmake_move();
                    }
                    pos.make_move(moves[(rng.next_u64() % moves.len() as u64) as usize]);
                    walked += 1;
                }
            }
        }
        assert!(walked > 200, "{walked}");
    }
}
