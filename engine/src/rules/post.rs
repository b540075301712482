//! The defensive post (docs/rules.md, art. 27.3): a move that takes up a defensive post and at once makes
//! a simple draw is idle, even if it happens to attack an advisor or an elephant.
//!
//! **Engine reading** (the article names neither the posts nor the draws): the moved piece stands on its
//! own side of the river after the move (a post that defends rather than attacks), and the position is a
//! simple draw by material: each side's attacking force (rook 4, horse or cannon 2, any pawn 1; advisors
//! and elephants, which never leave their own half, 0) is at most [`SIMPLE_DRAW_FORCE`], and the two
//! differ by at most one pawn. Rook against rook, rook and pawn against rook, horse against cannon are
//! such endings; rook against horse, or anything with more on the board, is not.

use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, Move, PieceKind};

/// The most attacking force either side may have for the position to count as a simple draw.
pub const SIMPLE_DRAW_FORCE: i32 = 6;

/// A side's attacking force: rooks 4, horses and cannons 2, pawns 1.
fn force(pos: &Position, side: Color) -> i32 {
    let n = |kind| pos.pieces(side, kind).count() as i32;
    4 * n(PieceKind::Rook) + 2 * (n(PieceKind::Horse) + n(PieceKind::Cannon)) + n(PieceKind::Pawn)
}

/// Whether `m`, just played in `pos`, took up a defensive post in a simple draw (art. 27.3).
pub fn defensive_post(pos: &Position, m: Move) -> bool {
    let Some(piece) = pos.piece_at(m.to()) else { return false };
    if !m.to().on_own_side(piece.color()) {
        return false;
    }
    let (a, b) = (force(pos, Color::Red), force(pos, Color::Black));
    a.max(b) <= SIMPLE_DRAW_FORCE && (a - b).abs() <= 1
}

/// The targets in `chased` that are advisors or elephants (the only ones art. 27.3 excuses).
pub fn advisors_and_elephants(pos: &Position, chased: Bitboard) -> Bitboard {
    chased.into_iter().fold(Bitboard::EMPTY, |bb, sq| match pos.piece_at(sq).map(|p| p.kind()) {
        Some(PieceKind::Advisor | PieceKind::Elephant) => bb.with(sq),
        _ => bb,
    })
}
