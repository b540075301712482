//! The network's inputs: one feature per (piece kind, colour relative to the perspective, square seen
//! from the perspective). Black's perspective turns the board round (ranks flipped) and swaps colours, so
//! both perspectives share one weight matrix and a position and its [`Position::flipped`] twin give the
//! side to move the same inputs.

use engine::{Color, Piece, PieceKind, Position, Square};

/// Input features per perspective: 7 kinds × 2 relative colours × 90 squares.
pub const INPUTS: usize = PieceKind::NUM * 2 * Square::NUM;

/// Most pieces on a board, hence most active features per perspective.
pub const MAX_ACTIVE: usize = 32;

/// The feature index of `piece` on `sq` seen by `perspective`.
#[inline(always)]
pub fn index(perspective: Color, piece: Piece, sq: Square) -> usize {
    let theirs = (piece.color() != perspective) as usize;
    let sq = match perspective {
        Color::Red => sq,
        Color::Black => sq.flip_rank(),
    };
    (piece.kind().index() * 2 + theirs) * Square::NUM + sq.index()
}

/// The active features of `pos` seen by `perspective`, in square order.
pub fn active(pos: &Position, perspective: Color) -> impl Iterator<Item = usize> + '_ {
    pos.occupied().filter_map(move |sq| pos.piece_at(sq).map(|p| index(perspective, p, sq)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_cover_the_input_range_once() {
        let mut seen = vec![false; INPUTS];
        for perspective in Color::ALL {
            seen.iter_mut().for_each(|s| *s = false);
            for piece in Piece::ALL {
                for sq in Square::all() {
                    let i = index(perspective, piece, sq);
                    assert!(!seen[i], "{piece:?} {sq:?} collides");
                    seen[i] = true;
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn flipped_position_gives_the_mover_the_same_inputs() {
        for pos in crate::testing::positions() {
            let flipped = pos.flipped();
            let sorted = |p: &Position, c: Color| {
                let mut v: Vec<usize> = active(p, c).collect();
                v.sort_unstable();
                v
            };
            let (us, them) = (pos.side_to_move(), !pos.side_to_move());
            assert_eq!(sorted(&pos, us), sorted(&flipped, !us), "{pos:?}");
            assert_eq!(sorted(&pos, them), sorted(&flipped, !them), "{pos:?}");
        }
    }

    #[test]
    fn mirrored_position_mirrors_each_feature() {
        // Features keep files as they are, so mirroring the board maps each feature to the one on the
        // mirrored square: the trainer may double its data by mirroring.
        let mirror = |i: usize| {
            let (rest, sq) = (i / Square::NUM, i % Square::NUM);
            rest * Square::NUM + Square::new(sq as u8).map_or(0, |s| s.mirror_file().index())
        };
        for pos in crate::testing::positions().into_iter().take(300) {
            for c in Color::ALL {
                let mut a: Vec<usize> = active(&pos, c).map(mirror).collect();
                let mut b: Vec<usize> = active(&pos.mirrored(), c).collect();
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(a, b);
            }
        }
    }
}
