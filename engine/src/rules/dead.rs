//! Dead positions: neither side can ever give mate (docs/rules.md, art. 4.2.1: a simple position that
//! neither side can possibly win).
//!
//! Only rooks, horses, cannons and pawns can cross the river or attack the enemy king. Advisors and
//! elephants stay on their own side, and a king attacks the other only along an open file, which is an
//! illegal face-off. A side left with nothing but king, advisors and elephants can also never be
//! stalemated: its king always keeps a step (a corner king has two neighbours that no advisor or
//! elephant can occupy and one enemy king can cover only one of them, and so on for every palace point).
//! So when neither side has a rook, horse, cannon or pawn, no sequence of moves can end the game.
//!
//! Theoretical draws that still allow mates by helpmate (for example a lone pawn on the last rank against
//! advisors) are not dead: the referee leaves them to the move limit.

use crate::position::Position;
use crate::types::{Color, PieceKind};
use std::fmt;

/// A named dead-position pattern.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DeadPattern {
    /// Nothing but the two kings (双帅/将).
    BareKings,
    /// Kings with advisors and/or elephants only, on at least one side (仕相/士象 only).
    DefendersOnly,
}

impl fmt::Display for DeadPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DeadPattern::BareKings => "bare kings",
            DeadPattern::DefendersOnly => "only kings, advisors and elephants left",
        })
    }
}

/// Whether `color` has a piece that can ever attack the enemy king: rook, horse, cannon or pawn.
pub fn has_attackers(pos: &Position, color: Color) -> bool {
    [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon, PieceKind::Pawn]
        .iter()
        .any(|&k| pos.pieces(color, k).nonempty())
}

/// The dead-position pattern `pos` matches, if any.
pub fn dead_position(pos: &Position) -> Option<DeadPattern> {
    if has_attackers(pos, Color::Red) || has_attackers(pos, Color::Black) {
        return None;
    }
    if pos.occupied().count() == 2 {
        Some(DeadPattern::BareKings)
    } else {
        Some(DeadPattern::DefendersOnly)
    }
}
