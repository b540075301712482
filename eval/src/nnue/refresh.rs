//! The refresh cache (a "Finny table"): for each perspective and each king [`View`], the accumulator last
//! computed in that view and the pieces it was computed for.
//!
//! A king move into another bucket (or across the mirror line) changes every feature of its perspective,
//! so that accumulator cannot be updated move by move. Rebuilding it adds ~32 weight rows; instead the
//! cache entry of the new view is brought to the current board by the difference between its stored
//! pieces and today's — a king that steps back and forth between two palace points finds the entry one or
//! two moves old, a handful of rows. A new position's first refresh starts from the biases and an empty
//! board, which is a full refresh. Wrapping arithmetic makes the result equal to a fresh computation bit
//! for bit whatever path the entry took (a test checks).

use super::features::{index_in, View, VIEW_SLOTS};
use super::network::Network;
use super::simd;
use engine::{Bitboard, Color, Piece, PieceKind, Position, Square};

/// Every piece set of a board, by colour and kind.
type Pieces = [[Bitboard; PieceKind::NUM]; 2];

/// One search thread's cached accumulators, [`VIEW_SLOTS`] per perspective.
#[derive(Clone, Debug, Default)]
pub struct RefreshCache {
    hidden: usize,
    /// Per (perspective, view slot): `hidden` values.
    values: Vec<i16>,
    /// Per (perspective, view slot): the pieces its values were computed for.
    boards: Vec<Pieces>,
}

impl RefreshCache {
    /// Empties every entry for `net`: each holds the biases, computed for an empty board.
    pub fn reset(&mut self, net: &Network) {
        let (_, biases, _, _) = net.parts();
        self.hidden = net.hidden();
        self.values.clear();
        for _ in 0..2 * VIEW_SLOTS {
            self.values.extend_from_slice(biases);
        }
        self.boards = vec![[[Bitboard::EMPTY; PieceKind::NUM]; 2]; 2 * VIEW_SLOTS];
    }

    /// `perspective`'s accumulator for `pos` in `view` (its king's), into `out`, through the cache entry
    /// of that view, which is left holding the same values and `pos`'s pieces. `reset` must have been
    /// called with `net`.
    pub fn refresh(
        &mut self,
        net: &Network,
        pos: &Position,
        perspective: Color,
        view: View,
        out: &mut [i16],
    ) {
        let hidden = self.hidden;
        debug_assert_eq!(hidden, net.hidden());
        let entry = perspective.index() * VIEW_SLOTS + view.slot();
        let board = &mut self.boards[entry];
        // At most 90 pieces each way (a board's points), so no list can overflow.
        let (mut added, mut removed) = ([0usize; Square::NUM], [0usize; Square::NUM]);
        let (mut n_added, mut n_removed) = (0, 0);
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let (now, was) = (pos.pieces(color, kind), board[color.index()][kind.index()]);
                if now == was {
                    continue;
                }
                let piece = Piece::new(color, kind);
                for sq in now & !was {
                    added[n_added] = index_in(view, perspective, piece, sq);
                    n_added += 1;
                }
                for sq in was & !now {
                    removed[n_removed] = index_in(view, perspective, piece, sq);
                    n_removed += 1;
                }
                board[color.index()][kind.index()] = now;
            }
        }
        let values = &mut self.values[entry * hidden..(entry + 1) * hidden];
        simd::update(out, values, net.input_weights(), hidden, &added[..n_added], &removed[..n_removed]);
        values.copy_from_slice(&out[..hidden]);
    }
}
