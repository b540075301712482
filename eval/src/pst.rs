//! Piece-square tables: a middlegame and an endgame value for every kind on every point.
//!
//! The weights hold one half board per kind, seen from Red's side with rank 9 (the enemy's back rank)
//! first and files a..e (f..i mirror d..a), so every table is left-right symmetric and reads like the
//! board in the generated `weights.rs`. Full tables for both colours are expanded at compile time; Black's
//! are Red's turned round by [`half_index`].

use crate::params::{HALF_BOARD, NUM_WEIGHTS, PST};
use crate::score::MgEg;
use crate::weights::WEIGHTS;
use engine::{Color, PieceKind, Square};

/// Index in a half-board table of `sq` seen from `color`'s side.
#[inline(always)]
pub const fn half_index(color: Color, sq: Square) -> usize {
    let sq = match color {
        Color::Red => sq,
        Color::Black => sq.flip_rank(),
    };
    let file = sq.file();
    let folded = if file > 4 { 8 - file } else { file };
    (9 - sq.rank()) as usize * 5 + folded as usize
}

/// Index in the weight vector of the piece-square weight of `color`'s `kind` on `sq`.
#[inline(always)]
pub const fn index(color: Color, kind: PieceKind, sq: Square) -> usize {
    PST + kind.index() * HALF_BOARD + half_index(color, sq)
}

/// Full tables by colour, kind and square.
pub static TABLE: [[[MgEg; Square::NUM]; PieceKind::NUM]; 2] = expand(&WEIGHTS);

const fn expand(w: &[MgEg; NUM_WEIGHTS]) -> [[[MgEg; Square::NUM]; PieceKind::NUM]; 2] {
    let mut t = [[[MgEg::ZERO; Square::NUM]; PieceKind::NUM]; 2];
    let mut c = 0;
    while c < 2 {
        let color = Color::ALL[c];
        let mut k = 0;
        while k < PieceKind::NUM {
            let mut s = 0;
            while s < Square::NUM {
                let sq = match Square::new(s as u8) {
                    Some(sq) => sq,
                    None => unreachable!(),
                };
                t[c][k][s] = w[index(color, PieceKind::ALL[k], sq)];
                s += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn black_mirrors_red_and_files_mirror() {
        for kind in PieceKind::ALL {
            for sq in Square::all() {
                let red = TABLE[0][kind.index()][sq.index()];
                assert_eq!(red, TABLE[1][kind.index()][sq.flip_rank().index()], "{kind:?} {sq}");
                assert_eq!(red, TABLE[0][kind.index()][sq.mirror_file().index()], "{kind:?} {sq}");
            }
        }
        let sq = |s: &str| s.parse::<Square>().unwrap();
        assert_eq!(half_index(Color::Red, sq("a9")), 0);
        assert_eq!(half_index(Color::Red, sq("e0")), 49);
        assert_eq!(half_index(Color::Black, sq("e9")), 49);
        assert_eq!(half_index(Color::Red, sq("i9")), 0);
    }
}
