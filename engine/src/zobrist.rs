//! Zobrist keys, generated at compile time from a fixed seed so every build hashes alike.

use crate::types::{Piece, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

const fn build() -> ([[u64; 90]; 14], u64) {
    let mut t = [[0u64; 90]; 14];
    let mut state = 0x6368_7568_616e_u64; // "chuhan"
    let mut p = 0;
    while p < 14 {
        let mut s = 0;
        while s < 90 {
            let (st, v) = splitmix(state);
            state = st;
            t[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    let (_, side) = splitmix(state);
    (t, side)
}

const TABLES: ([[u64; 90]; 14], u64) = build();
static PIECE_SQUARE: [[u64; 90]; 14] = TABLES.0;

/// Key of `piece` standing on `sq`.
#[inline(always)]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    PIECE_SQUARE[piece.index()][sq.index()]
}

/// Key toggled when Black is to move.
pub const SIDE_KEY: u64 = TABLES.1;
