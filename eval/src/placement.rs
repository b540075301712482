//! Where rooks and horses stand beyond their piece-square value: rooks on files without pawns, horses on
//! the edge (马跳边易被歼).

use crate::params::{HORSE_ON_EDGE, ROOK_OPEN_FILE, ROOK_SEMI_OPEN_FILE};
use crate::sink::Sink;
use engine::{Bitboard, Color, PieceKind, Position};

/// A rook on a file with no pawns, or with enemy pawns only.
#[inline(always)]
pub fn rook_on_open_file<K: Sink>(pos: &Position, us: Color, sink: &mut K) {
    let ours = pos.pieces(us, PieceKind::Pawn);
    let theirs = pos.pieces(!us, PieceKind::Pawn);
    let (mut open, mut semi) = (0, 0);
    for sq in pos.pieces(us, PieceKind::Rook) {
        let file = Bitboard::FILES[sq.file() as usize];
        if (file & ours).is_empty() {
            if (file & theirs).is_empty() {
                open += 1;
            } else {
                semi += 1;
            }
        }
    }
    sink.add(us, ROOK_OPEN_FILE, open);
    sink.add(us, ROOK_SEMI_OPEN_FILE, semi);
}

/// A horse on the a- or i-file reaches at most four points and is easily trapped.
#[inline(always)]
pub fn horse_on_edge<K: Sink>(pos: &Position, us: Color, sink: &mut K) {
    let edge = Bitboard::FILES[0] | Bitboard::FILES[8];
    sink.add(us, HORSE_ON_EDGE, (pos.pieces(us, PieceKind::Horse) & edge).count() as i32);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{term_count, weight_of};

    #[test]
    fn rook_files() {
        // Rook a0 behind its own a3 pawn: neither; rook b0: open; rook on c-file facing a black pawn: semi.
        let fen = "3k5/9/9/2p6/9/9/P8/9/9/RR2K4 w - - 0 1";
        assert_eq!(term_count(fen, Color::Red, ROOK_OPEN_FILE), 1);
        assert_eq!(term_count(fen, Color::Red, ROOK_SEMI_OPEN_FILE), 0);
        let semi = "3k5/9/9/2p6/9/9/P8/9/9/2R1K4 w - - 0 1";
        assert_eq!(term_count(semi, Color::Red, ROOK_SEMI_OPEN_FILE), 1);
        assert!(weight_of(ROOK_OPEN_FILE).mg() > weight_of(ROOK_SEMI_OPEN_FILE).mg());
        assert!(weight_of(ROOK_SEMI_OPEN_FILE).mg() > 0);
    }

    #[test]
    fn horse_on_the_edge() {
        let fen = "3k5/9/9/9/9/9/9/N8/9/4K3N w - - 0 1";
        assert_eq!(term_count(fen, Color::Red, HORSE_ON_EDGE), 2);
        let centre = "3k5/9/9/9/9/9/9/2N6/9/4K4 w - - 0 1";
        assert_eq!(term_count(centre, Color::Red, HORSE_ON_EDGE), 0);
        assert!(weight_of(HORSE_ON_EDGE).mg() < 0);
    }
}
