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
//! * give a series of checks and, whatever the replies, then make such a capture, coming out ahead over
//!   the whole line (every capture along it counted, the checking pieces given up included);
//!
//! and the capture is not answered by an immediate mate (art. 29.4).
//!
//! Values (art. 25.3): rook 4, horse 2, cannon 2, advisor 1, elephant 1, crossed pawn 1. So a rook is two
//! horses, a horse a cannon, an advisor an elephant; "one piece for several pawns" comes out about even.
//!
//! Whether the threat is new, and which capturers count (the king or a pawn by itself do not), is decided
//! by `classify`; this module reports every threat with the kind of piece that makes it.
//!
//! **Approximations:** the series of checks before the capture is at most [`CHASE_CHECKS`] checks long,
//! within [`CHASE_BUDGET`] checking moves for all the targets of one position; the exchange is searched
//! [`EXCHANGE_DEPTH`] captures deep; "mated at once" after the capture means a mate (or stalemate) by at
//! most [`CAPTURE_MATE_CHECKS`] checks found within [`CAPTURE_MATE_BUDGET`] nodes.

use crate::bitboard::Bitboard;
use crate::movegen::{GenType, MoveList};
use crate::position::Position;
use crate::rules::mate::mate_by_checks;
use crate::types::{Move, Piece, PieceKind, Square};

/// Checks the chaser may give before the capture ("through a series of checks", art. 29.1). Three
/// covers the forcing lines a referee reads at the board; longer ones are not seen (docs/rules.md,
/// approximations).
pub const CHASE_CHECKS: u32 = 3;

/// Captures searched in one exchange on a point.
pub const EXCHANGE_DEPTH: u32 = 10;

/// "Mated at once" after the capture: a mate by a series of at most this many checks (art. 29.4). "At
/// once" (立即) reads as a short forced mate; a longer one does not stop the capture counting as a win.
pub const CAPTURE_MATE_CHECKS: u32 = 3;

/// Nodes one "mated at once" question may visit.
pub const CAPTURE_MATE_BUDGET: u64 = 5_000;

/// Checking moves one `threats` call may try in all its chases through checks.
pub const CHASE_BUDGET: u64 = 2_000;

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

/// The enemy targets the side to move can win next move, split by who wins them and how.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Threats {
    /// Won by a rook, horse, cannon, advisor or elephant, or by any piece together with the king (a chase),
    /// directly or through checks.
    pub by_piece: Bitboard,
    /// Of `by_piece`, the targets won only through a series of checks.
    pub through_checks: Bitboard,
    /// For each target of `by_piece` won by a direct capture: the points of the pieces whose capture wins
    /// it (the king and pawns excluded), so that `classify` can tell a new attacker from one carried on.
    pub capturers: Vec<(Square, Bitboard)>,
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

    /// The points of the pieces whose direct capture wins the target on `sq` (empty if none does).
    pub fn capturers_of(&self, sq: Square) -> Bitboard {
        self.capturers.iter().find(|c| c.0 == sq).map_or(Bitboard::EMPTY, |c| c.1)
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

/// The material a capture on `sq` takes: the rule value, with an uncrossed pawn counted as 1 so that
/// giving one up is never free.
fn taken(pos: &Position, sq: Square) -> i32 {
    pos.piece_at(sq).map_or(0, |p| rule_value(p, sq).max(i32::from(p.kind() == PieceKind::Pawn)))
}

/// What the side to move gains on `sq` by capturing there first or not at all, both sides then taking
/// turns to recapture or stop, whichever suits them (legal captures only, so pins and facing kings count).
pub fn exchange_gain(pos: &mut Position, sq: Square, depth: u32) -> i32 {
    if depth == 0 || pos.piece_at(sq).is_none() {
        return 0;
    }
    let value = taken(pos, sq);
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

/// The capture `m` of an enemy target on its point: what it gains after the complete exchange there, or
/// `None` when the capturer is then mated at once (art. 29.4).
fn capture_gain(pos: &mut Position, m: Move) -> Option<i32> {
    let value = pos.piece_at(m.to()).map_or(0, |t| rule_value(t, m.to()));
    pos.make_move(m);
    let gain = value - exchange_gain(pos, m.to(), EXCHANGE_DEPTH);
    let mated = gain > 0 && mated_at_once(pos);
    pos.unmake_move();
    (!mated).then_some(gain)
}

/// The winning captures of the target on `sq` among the side to move's legal `captures`: the capturer's
/// point, its kind and the gain. Empty if `sq` holds no enemy target.
fn winning_captures(pos: &mut Position, captures: &MoveList, sq: Square) -> Vec<(Square, Capturer, i32)> {
    let Some(target) = pos.piece_at(sq) else { return Vec::new() };
    if rule_value(target, sq) == 0 || target.color() == pos.side_to_move() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for &m in captures.iter().filter(|m| m.to() == sq) {
        let who = capturer_of(pos, m);
        if let Some(gain) = capture_gain(pos, m).filter(|&g| g > 0) {
            out.push((m.from(), who, gain));
        }
    }
    out
}

/// Whether the side to move (the one that just lost a piece) mates by a short series of checks.
fn mated_at_once(pos: &mut Position) -> bool {
    let mut budget = CAPTURE_MATE_BUDGET;
    mate_by_checks(pos, CAPTURE_MATE_CHECKS, &mut budget)
}

/// Whether the side to move wins the target on `sq` by a series of at most `checks` checks ending in a
/// winning capture by a rook, horse, cannon, advisor or elephant, whatever the replies; the target is
/// followed if a reply moves it. Every capture along the line counts (art. 29.1, "come out ahead"): the
/// line is a win only if `so_far` (material won before this point), plus what the checks take, minus
/// what the replies take (the checking piece given up included), plus the final exchange's gain, is
/// positive. `budget` bounds the nodes; a spent budget answers "no".
fn win_through_checks(pos: &mut Position, sq: Square, checks: u32, so_far: i32, budget: &mut u64) -> bool {
    let mut moves = MoveList::new();
    pos.generate(GenType::All, &mut moves);
    for &c in moves.iter() {
        if c.to() == sq || !pos.gives_check(c) {
            continue;
        }
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let won = so_far + taken(pos, c.to());
        pos.make_move(c);
        let mut replies = MoveList::new();
        pos.generate(GenType::All, &mut replies);
        // A checkmate is a mate threat, judged as such elsewhere; it does not win the piece.
        let mut wins = !replies.is_empty();
        for &r in replies.iter() {
            let followed = if r.from() == sq { r.to() } else { sq };
            let net = won - taken(pos, r.to());
            pos.make_move(r);
            let ok = final_capture_wins(pos, followed, net)
                || (checks > 1 && win_through_checks(pos, followed, checks - 1, net, budget));
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

/// Whether a piece of the side to move takes the target on `sq` with a gain that leaves the whole line,
/// which has won `net` so far, ahead.
fn final_capture_wins(pos: &mut Position, sq: Square, net: i32) -> bool {
    let mut caps = MoveList::new();
    pos.generate(GenType::Captures, &mut caps);
    winning_captures(pos, &caps, sq).iter().any(|&(_, who, gain)| who == Capturer::Piece && net + gain > 0)
}

/// Every enemy target the side to move threatens to win on its next move.
pub fn threats(pos: &mut Position) -> Threats {
    let us = pos.side_to_move();
    let mut out = Threats::default();
    let mut captures = MoveList::new();
    pos.generate(GenType::Captures, &mut captures);
    let mut budget = CHASE_BUDGET;
    for sq in pos.color_pieces(!us) {
        let Some(target) = pos.piece_at(sq) else { continue };
        if rule_value(target, sq) == 0 {
            continue;
        }
        let wins = winning_captures(pos, &captures, sq);
        let pieces: Bitboard =
            wins.iter().filter(|w| w.1 == Capturer::Piece).fold(Bitboard::EMPTY, |bb, w| bb.with(w.0));
        match wins.iter().map(|w| w.1).max() {
            Some(Capturer::Piece) => {
                out.by_piece = out.by_piece.with(sq);
                out.capturers.push((sq, pieces));
            }
            Some(Capturer::Pawn) => out.by_pawn = out.by_pawn.with(sq),
            Some(Capturer::King) => out.by_king = out.by_king.with(sq),
            None => {
                if CHASE_CHECKS > 0 && win_through_checks(pos, sq, CHASE_CHECKS, 0, &mut budget) {
                    out.by_piece = out.by_piece.with(sq);
                    out.through_checks = out.through_checks.with(sq);
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

    /// Asserts that the side to move in `fen` threatens the piece on `point` by a piece's attack.
    fn assert_threat(fen: &str, point: &str) {
        let t = threats_of(fen);
        assert!(t.by_piece.has(sq(point)), "{t:?}");
    }

    /// Asserts that the side to move in `fen` threatens the piece on `point` in no way.
    fn assert_no_threat(fen: &str, point: &str) {
        let t = threats_of(fen);
        assert!(!t.all().has(sq(point)), "{t:?}");
    }

    #[test]
    fn unprotected_rook_attacked_by_a_horse() {
        // Red horse c4 attacks the black rook on d6; nothing protects it.
        assert_threat("5k3/9/9/3r5/9/2N6/9/9/9/4K4 w - - 0 1", "d6");
    }

    #[test]
    fn protected_horse_attacked_by_a_rook_is_no_threat() {
        // Red rook d2 attacks the black horse d6, which the black rook a6 protects.
        assert_no_threat("4k4/9/9/r2n5/9/9/9/3R5/9/3K5 w - - 0 1", "d6");
    }

    #[test]
    fn protected_rook_attacked_by_a_horse_is_a_threat() {
        // Red horse c4 attacks the black rook d6, protected by the black rook a6: horse for rook wins.
        assert_threat("5k3/9/9/r2r5/9/2N6/9/9/9/4K4 w - - 0 1", "d6");
    }

    #[test]
    fn a_check_line_that_loses_the_checker_is_no_threat() {
        // The black king alone protects the horse on d9 from the rook on d2. Any check drives it away,
        // but Red's only checks are by the rook on f8 (f8-e8 or f8-f9), which the king takes: rook (4)
        // given for horse (2) is a loss over the whole line (art. 29.1), so the horse is not threatened.
        assert_no_threat("3nk4/5R3/4b4/9/9/9/9/3R5/9/4K4 w - - 0 1", "d9");
    }

    #[test]
    fn a_check_line_that_gives_less_than_it_wins_is_a_threat() {
        // The same with a pawn on f8: the king may take the checking pawn (1), and the rook then takes
        // the horse (2): ahead over the whole line, a threat through a check.
        let t = threats_of("3nk4/5P3/4b4/9/9/9/9/3R5/9/4K4 w - - 0 1");
        assert!(t.by_piece.has(sq("d9")) && t.through_checks.has(sq("d9")), "{t:?}");
        assert!(t.capturers_of(sq("d9")).is_empty(), "{t:?}");
    }

    #[test]
    fn approximation_the_checks_before_a_capture_are_bounded() {
        // Red wins the horse on b8 by two checks (h9+ Kf8, h8+ K moves, R×b8). A series of one check
        // misses it: the referee searches CHASE_CHECKS checks, so a line one check longer than that,
        // or one the node budget cuts off, is not seen.
        let mut p = Position::from_fen("5k3/1n7/9/9/9/9/9/7R1/9/3K5 w - - 0 1").expect("valid test FEN");
        let mut budget = CHASE_BUDGET;
        assert!(!win_through_checks(&mut p, sq("b8"), 1, 0, &mut budget));
        let mut budget = CHASE_BUDGET;
        assert!(win_through_checks(&mut p, sq("b8"), 2, 0, &mut budget));
        const { assert!(CHASE_CHECKS >= 2) };
    }

    #[test]
    fn uncrossed_pawn_and_king_are_never_targets() {
        // Red rook c4 attacks the black pawn on c6 (not crossed): no threat.
        let t = threats_of("5k3/9/9/2p6/9/2R6/9/9/9/4K4 w - - 0 1");
        assert!(t.all().is_empty(), "{t:?}");
    }
}
