//! Perft: counts the leaf nodes of the legal move tree, the contract for move generation.

use crate::position::Position;
use crate::types::Move;
use rayon::prelude::*;

/// Number of leaf nodes `depth` plies below `pos` (bulk-counted at the last ply).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => {
            let moves = pos.legal_moves();
            let mut n = 0;
            for &m in moves.as_slice() {
                pos.make_move(m);
                n += perft(pos, depth - 1);
                pos.unmake_move();
            }
            n
        }
    }
}

/// Leaf counts below each root move, in generation order. With `threads > 1` root moves are split over a
/// rayon pool of that size.
pub fn divide(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    let moves: Vec<Move> = pos.legal_moves().as_slice().to_vec();
    let count = |m: &Move| {
        let mut p = pos.clone();
        p.make_move(*m);
        (*m, if depth == 0 { 1 } else { perft(&mut p, depth - 1) })
    };
    if threads <= 1 {
        moves.iter().map(count).collect()
    } else {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(|| moves.par_iter().map(count).collect()),
            Err(_) => moves.iter().map(count).collect(),
        }
    }
}
