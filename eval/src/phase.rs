//! The game phase: how much strong material (rooks, horses, cannons) is left, which decides how the
//! middlegame and endgame halves of every weight are blended.

use crate::material::Counts;
pub use crate::score::PHASE_MAX;
use engine::{Color, PieceKind};

/// Phase contributed by one piece of each kind: a rook counts twice a horse or a cannon, matching the
/// rules' value table; kings, advisors, elephants and pawns do not count.
pub const PHASE_WEIGHT: [i32; PieceKind::NUM] = [0, 0, 0, 1, 2, 1, 0];

/// The phase of a position from its piece counts: [`PHASE_MAX`] with all strong pieces, 0 with none.
#[inline]
pub fn phase(counts: &Counts) -> i32 {
    let mut p = 0;
    for color in Color::ALL {
        for kind in [PieceKind::Horse, PieceKind::Rook, PieceKind::Cannon] {
            p += counts.get(color, kind) * PHASE_WEIGHT[kind.index()];
        }
    }
    p.min(PHASE_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::Position;

    #[test]
    fn start_is_full_and_bare_kings_are_zero() {
        assert_eq!(phase(&Counts::of(&Position::startpos())), PHASE_MAX);
        let bare = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
        assert_eq!(phase(&Counts::of(&bare)), 0);
        let rook_each = Position::from_fen("3ak4/9/9/9/9/9/9/9/R8/3K1r3 w - - 0 1").unwrap();
        assert_eq!(phase(&Counts::of(&rook_each)), 4);
    }
}
