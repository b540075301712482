//! What a side could win on its next move: the raw material of the chase (捉, docs/rules.md, art. 28.3
//! and 29).
//!
//! A target is an enemy piece with material value (子力, art. 25.3): rook, horse, cannon, advisor,
//! elephant, or a pawn that has crossed the river; never the king or an uncrossed pawn. A side threatens a
//! target when, moving now, it can
//!
//! * capture it and come out ahead after the complete exchange on that point (art. 29.1), which covers an
//!   unprotected target, a false or insufficient protection (假根/少根, art. 28.16: the recapture is illegal,
//!   or there are more attackers than defenders), and a protected target worth more than the capturer
//!   (细则 D3); or
//! * give a check and, whatever the reply, then make such a capture (one check, see the approximations);
//!
//! and the capture is not answered by an immediate mate (art. 29.4).
//!
//! Values (art. 25.3): rook 4, horse 2, cannon 2, advisor 1, elephant 1, crossed pawn 1. So a rook is two
//! horses, a horse a cannon, an advisor an elephant; "one piece for several pawns" comes out about even.
//!
//! Whether the threat is new, and which capturers count (the king or a pawn by itself do not), is decided
//! by `classify`; this module reports every threat with the kind of piece that makes it.
//!
//! **Approximations:** the series of checks before the capture is one check long ([`CHASE_CHECKS`]); the
//! exchange is searched [`EXCHANGE_DEPTH`] captures deep; "mated at once" after the capture means a mate by
//! at most [`CAPTURE_MATE_CHECKS`] checks found within a small node budget. The defensive-post exemption of
//! art. 27.3 (attacking an advisor or elephant as a side effect of taking up a post that makes a plain
//! draw) is not recognised: such a move counts as a chase.

use crate::bitboard::Bitboard;
use crate::movegen::{GenType, MoveList};
use crate::position::Position;
use crate::rules::mate::mate_by_checks;
use crate::types::{Move, Piece, PieceKind, Square};

/// Checks the chaser may give before the capture ("through a series of checks", art. 29.1).
pub const CHASE_CHECKS: u32 = 1;

/// Captures searched in one exchange on a point.
pub const EXCHANGE_DEPTH: u32 = 10;

/// "Mated at once" after the capture: a mate by a series of at most this many checks (art. 29.4).
pub const CAPTURE_MATE_CHECKS: u32 = 3;

/// Nodes one "mated at once" question may visit.
const CAPTURE_MATE_BUDGET: u64 = 5_000;

/// The value of `piece` standing on `sq` for the chase rules (0: not material).
pub fn rule_value(piece: Piece, sq: Square) -> i32 {
    match piece.kind() {
        PieceKind::King => 0,
        PieceKind::Rook => 4,
        PieceKind::Horse | PieceKind::Cannon => 2,
        PieceKind::Advisor | PieceKind::Elephant => 1,
        PieceKind::Pawn => i32::from(!sq.on_own_side(piece.color())),
    }
}

/// The enemy targets the side to move can win next move, split by who wins them.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Threats {
    /// Won by a rook, horse, cannon, advisor or elephant, or by any piece together with the king (a chase).
    pub by_piece: Bitboard,
    /// Won only by a pawn by itself (art. 27.2: idle unless both sides attack on every move).
    pub by_pawn: Bitboard,
    /// Won only by the king by itself (art. 27.1: always idle).
    pub by_king: Bitboard,
}

impl Threats {
    /// Every threatened target.
    pub fn all(&self) -> Bitboard {
        self.by_piece | self.by_pawn | self.by_king
    }
}

/// Who makes a winning capture; the most "chasing" kind wins when several can.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Capturer {
    King,
    Pawn,
    Piece,
}

fn capturer_of(pos: &Position, m: Move) -> Capturer {
    match pos.piece_at(m.from()).map(|p| p.kind()) {
        Some(PieceKind::King) => Capturer::King,
        Some(PieceKind::Pawn) => Capturer::Pawn,
        _ => Capturer::Piece,
    }
}

/// What the side to move gains on `sq` by capturing there first or not at all, both sides then taking
/// turns to recapture or stop, whichever suits them (legal captures only, so pins and facing kings count).
pub fn exchange_gain(pos: &mut Position, sq: Square, depth: u32) -> i32 {
    let Some(victim) = pos.piece_at(sq) else { return 0 };
    if depth == 0 {
        return 0;
    }
    let value = rule_value(victim, sq).max(i32::from(victim.kind() == PieceKind::Pawn));
    let mut list = MoveList::new();
    pos.generate(GenType::Captures, &mut list);
    let mut best = 0;
    for &m in list.iter().filter(|m| m.to() == sq) {
        pos.make_move(m);
        let gain = value - exchange_gain(pos, sq, depth - 1);
        pos.unmake_move();
        best = best.max(gain);
    }
    best
}

/// The best capturer among the side to move's legal captures in `captures` that win the target on `sq`
/// and are not mated at once.
fn direct_win(pos: &mut Position, captures: &MoveList, sq: Square) -> Option<Capturer> {
    let target = pos.piece_at(sq)?;
    let value = rule_value(target, sq);
    if value == 0 || target.color() == pos.side_to_move() {
        return None;
    }
    let mut best = None;
    for &m in captures.iter().filter(|m| m.to() == sq) {
        let who = capturer_of(pos, m);
        if best >= Some(who) {
            continue;
        }
        pos.make_move(m);
        let gain = value - exchange_gain(pos, sq, EXCHANGE_DEPTH);
        let wins = gain > 0 && !mated_at_once(pos);
        pos.unmake_move();
        if wins {
            best = Some(who);
        }
    }
    best
}

/// Whether the side to move (the one that just lost a piece) mates by a short series of checks.
fn mated_at_once(pos: &mut Position) -> bool {
    let mut budget = CAPTURE_MATE_BUDGET;
    mate_by_checks(pos, CAPTURE_MATE_CHECKS, &mut budget)
}

/// Whether the side to move wins the target on `sq` by a check and then a winning capture (by a rook,
/// horse, cannon, advisor or elephant), whatever the reply. The target is followed if the reply moves it.
fn win_after_check(pos: &mut Position, all_moves: &MoveList, sq: Square) -> bool {
    for &c in all_moves.iter() {
        if c.to() == sq || !pos.gives_check(c) {
            continue;
        }
        pos.make_move(c);
        let mut replies = MoveList::new();
        pos.generate(GenType::All, &mut replies);
        // A checkmate is a mate threat, judged as such elsewhere; it does not win the piece.
        let mut wins = !replies.is_empty();
        for &r in replies.iter() {
            let followed = if r.from() == sq { r.to() } else { sq };
            pos.make_move(r);
            let mut caps = MoveList::new();
            pos.generate(GenType::Captures, &mut caps);
            let ok = direct_win(pos, &caps, followed) == Some(Capturer::Piece);
            pos.unmake_move();
            if !ok {
                wins = false;
                break;
            }
        }
        pos.unmake_move();
        if wins {
            return true;
        }
    }
    false
}

/// Every enemy target the side to move threatens to win on its next move.
pub fn threats(pos: &mut Position) -> Threats {
    let us = pos.side_to_move();
    let mut out = Threats::default();
    let mut captures = MoveList::new();
    pos.generate(GenType::Captures, &mut captures);
    let mut all_moves = None;
    for sq in pos.color_pieces(!us) {
        let Some(target) = pos.piece_at(sq) else { continue };
        if rule_value(target, sq) == 0 {
            continue;
        }
        match direct_win(pos, &captures, sq) {
            Some(Capturer::Piece) => out.by_piece = out.by_piece.with(sq),
            Some(Capturer::Pawn) => out.by_pawn = out.by_pawn.with(sq),
            Some(Capturer::King) => out.by_king = out.by_king.with(sq),
            None => {
                if CHASE_CHECKS > 0 {
                    let moves = all_moves.get_or_insert_with(|| pos.legal_moves()).clone();
                    if win_after_check(pos, &moves, sq) {
                        out.by_piece = out.by_piece.with(sq);
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn threats_of(fen: &str) -> Threats {
        let mut p = Position::from_fen(fen).expect("valid test FEN");
        threats(&mut p)
    }

    fn sq(s: &str) -> Square {
        s.parse().expect("square")
    }

    #[test]
    fn unprotected_rook_attacked_by_a_horse() {
        // Red horse c4 attacks the black rook on d6; nothing protects it.
        let t = threats_of("5k3/9/9/3r5/9/2N6/9/9/9/4K4 w - - 0 1");
        assert!(t.by_piece.has(sq("d6")), "{t:?}");
    }

    #[test]
    fn protected_horse_attacked_by_a_rook_is_no_threat() {
        // Red rook d2 attacks the black horse d6, which the black rook a6 protects.
        let t = threats_of("4k4/9/9/r2n5/9/9/9/3R5/9/3K5 w - - 0 1");
        assert!(!t.all().has(sq("d6")), "{t:?}");
    }

    #[test]
    fn protected_rook_attacked_by_a_horse_is_a_threat() {
        // Red horse c4 attacks the black rook d6, protected by the black rook a6: horse for rook wins.
        let t = threats_of("5k3/9/9/r2r5/9/2N6/9/9/9/4K4 w - - 0 1");
        assert!(t.by_piece.has(sq("d6")), "{t:?}");
    }

    #[test]
    fn uncrossed_pawn_and_king_are_never_targets() {
        // Red rook c4 attacks the black pawn on c6 (not crossed): no threat.
        let t = threats_of("5k3/9/9/2p6/9/2R6/9/9/9/4K4 w - - 0 1");
        assert!(t.all().is_empty(), "{t:?}");
    }
}
