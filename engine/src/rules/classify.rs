//! The character of one move for the repetition rules: check (将), mate threat (杀), chase (捉) or idle
//! (闲), judged by its heaviest effect (docs/rules.md, art. 27.4).
//!
//! * **Check:** the move attacks the enemy king (art. 28.1).
//! * **Mate threat:** not a check, but if the mover could move again it would mate by a series of checks
//!   (art. 28.2; see `mate` for the depth searched). **Engine reading:** like a chase (art. 29.2), the
//!   threat must be new: a move that leaves in place a mate the mover could already have given before it
//!   threatens nothing (shuffling instead of mating is idle).
//! * **Chase:** the move creates a threat to win an enemy piece with material value that did not exist
//!   before it (art. 29.2, "from no chase to chase", 细则 D1). The threat itself is defined in `chase`.
//!   **Engine reading** of "new": a direct win is new when a piece that wins the target now did not win
//!   it directly before the move (the moved piece followed from its origin), so a new attacker, an
//!   attack uncovered, a protection cut and a new form of attack (a direct capture where only a line of
//!   checks won the piece before) are all new chases; the same piece moving and keeping its target is
//!   "from chase to chase", idle (细则 D2). A win through checks only is new when no piece could win the
//!   target in any way before. Not chases (art. 27.1, 27.2, 28.5-28.8): the king by itself; a pawn by
//!   itself (kept apart, because it becomes a chase when both sides attack on every move); offering an
//!   equal exchange (兑), following a protected piece (跟) and blocking (拦), which win nothing; a
//!   sacrifice (献) is idle unless the move also chases (细则 D5).
//!   A move onto a defensive post that makes a simple draw, whose only new chases are of advisors or
//!   elephants, is idle (art. 27.3; see `post`).
//! * **Idle:** everything else.
//!
//! "Before the move" means what the mover could carry out in the position before it, with its legal
//! moves: when the mover was in check, a standing attack it could not carry out then counts as new after
//! its reply. This only matters against a side that checks on every move, which loses anyway (art. 26.1).

use crate::attacks::horse_attacks;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::rules::chase::{threats, Threats};
use crate::rules::mate::{mate_by_checks, threatens_mate, NODE_BUDGET, THREAT_CHECKS};
use crate::rules::post::{advisors_and_elephants, defensive_post};
use crate::types::{Move, PieceKind, Square};
use std::fmt;

/// The kinds of move, lightest first, so `max` picks the heaviest effect.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MoveKind {
    /// 闲: no attack (includes exchange offers, sacrifices, blocks, follows, king or pawn attacks alone).
    Idle,
    /// 捉: a new threat to win a piece.
    Chase,
    /// 杀: threatens mate by a series of checks.
    MateThreat,
    /// 将: attacks the king.
    Check,
}

impl fmt::Display for MoveKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveKind::Idle => "idle",
            MoveKind::Chase => "chase",
            MoveKind::MateThreat => "mate-threat",
            MoveKind::Check => "check",
        })
    }
}

/// A move's character with the pieces it newly chases.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MoveClass {
    /// The heaviest effect, not counting chases by a pawn by itself.
    pub kind: MoveKind,
    /// Targets newly chased (squares, unchanged by the move since they are the opponent's pieces).
    pub chased: Bitboard,
    /// Targets newly threatened by a pawn by itself only: idle unless both sides attack on every move.
    pub pawn_chased: Bitboard,
}

impl MoveClass {
    /// The kind when chases by a pawn by itself count (mutual perpetual attack, art. 27.2).
    pub fn kind_counting_pawns(&self) -> MoveKind {
        if self.kind == MoveKind::Idle && self.pawn_chased.nonempty() {
            MoveKind::Chase
        } else {
            self.kind
        }
    }
}

/// Classifies the legal move `m` of the side to move in `pos`; `pos` is left as it was.
pub fn classify(pos: &mut Position, m: Move) -> MoveClass {
    classify_with(pos, m, Book::Chinese)
}

/// [`classify`] as the Asian rules read a move (docs/rules.md, "The Asian rules"): without the mate-threat
/// test, since a mate threat is not an attack there (A3), so a move is a check, else a chase of what it
/// newly threatens to win, else idle; and a rook held in place by an enemy horse does not chase that
/// horse (A9).
pub fn classify_chases(pos: &mut Position, m: Move) -> MoveClass {
    classify_with(pos, m, Book::Asian)
}

/// Which rule book reads the move.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Book {
    Chinese,
    Asian,
}

fn classify_with(pos: &mut Position, m: Move, book: Book) -> MoveClass {
    let mate_threats = book == Book::Chinese;
    pos.make_move(m);
    if pos.in_check() {
        pos.unmake_move();
        return MoveClass { kind: MoveKind::Check, chased: Bitboard::EMPTY, pawn_chased: Bitboard::EMPTY };
    }
    let mut budget = NODE_BUDGET;
    if mate_threats && threatens_mate(pos, THREAT_CHECKS, &mut budget) {
        pos.unmake_move();
        // A mate the mover could already have given before the move is not threatened by this move.
        let mut budget = NODE_BUDGET;
        if !mate_by_checks(pos, THREAT_CHECKS, &mut budget) {
            return MoveClass {
                kind: MoveKind::MateThreat,
                chased: Bitboard::EMPTY,
                pawn_chased: Bitboard::EMPTY,
            };
        }
        pos.make_move(m);
    }
    let on_post = defensive_post(pos, m);
    pos.make_null_move();
    let after = threats(pos);
    pos.unmake_null_move();
    let held = if book == Book::Asian { held_rooks(pos) } else { Vec::new() };
    pos.unmake_move();
    let before = threats(pos);
    let mut chased = new_chases(&before, &after, m);
    for &(rook, horse) in &held {
        // AXF rule 19 (A9): the held rook's attack on its horse chases nothing, so a target whose only new
        // capturer is that rook is not chased.
        if chased.has(horse) && new_capturers(&before, &after, m, horse) == Bitboard::from_square(rook) {
            chased = chased.without(horse);
        }
    }
    // Art. 27.3: taking up a defensive post that makes a simple draw excuses an incidental attack on an
    // advisor or elephant, but not one on anything else.
    if on_post && advisors_and_elephants(pos, chased) == chased {
        chased = Bitboard::EMPTY;
    }
    // A chase by the pawn alone is kept apart; one the pawn or a piece already made is not new.
    let pawn_chased = after.by_pawn & !(before.by_piece | before.by_pawn);
    let kind = if chased.nonempty() { MoveKind::Chase } else { MoveKind::Idle };
    MoveClass { kind, chased, pawn_chased }
}

/// The mover's rooks held in place by an enemy horse, each with that horse, in `pos` after the move: the
/// rook stands on the horse's leg, so that moving it away would let the horse check the mover's king
/// (AXF rule 19, docs/rules.md A9).
fn held_rooks(pos: &Position) -> Vec<(Square, Square)> {
    let mover = !pos.side_to_move();
    let king = pos.king_square(mover);
    let occupied = pos.occupied();
    let mut held = Vec::new();
    for horse in pos.pieces(!mover, PieceKind::Horse) {
        if horse_attacks(horse, occupied).has(king) {
            continue;
        }
        for rook in pos.pieces(mover, PieceKind::Rook) {
            if horse_attacks(horse, occupied.without(rook)).has(king) {
                held.push((rook, horse));
            }
        }
    }
    held
}

/// The pieces (by their point after `m`) that win `target` directly after `m` and did not win it directly
/// before, the moved piece followed from its origin.
fn new_capturers(before: &Threats, after: &Threats, m: Move, target: Square) -> Bitboard {
    let had = before.capturers_of(target);
    let origin = |a: Square| if a == m.to() { m.from() } else { a };
    after
        .capturers_of(target)
        .into_iter()
        .filter(|&a| !had.has(origin(a)))
        .fold(Bitboard::EMPTY, |b, a| b.with(a))
}

/// The targets chased anew by `m`, given what the mover threatened before and after it (art. 29.2,
/// 细则 D1, D2). A direct win is new when one of its capturers did not already win that target directly
/// before the move, the moved piece being followed from its origin: so a piece that moves and keeps its
/// target carries the same chase on (idle), while a new attacker, an attack uncovered or a protection cut
/// makes a new one, even if the target could be won through checks before. A win through checks only is
/// new when the target could not be won by a piece in any way before. A chase by the king alone was never
/// a chase, so a target the king alone attacked can still be chased "for the first time".
fn new_chases(before: &Threats, after: &Threats, m: Move) -> Bitboard {
    let mut chased = after.through_checks & !before.by_piece;
    for &(target, _) in &after.capturers {
        if new_capturers(before, after, m, target).nonempty() {
            chased = chased.with(target);
        }
    }
    chased
}
