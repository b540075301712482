//! The layout of the weight vector: which block of [`crate::weights::WEIGHTS`] belongs to which term.
//!
//! All weights live in one flat array so the tuner can treat the evaluation as a linear function of it
//! (each term reports "n times weight i for this colour", see [`crate::sink`]). The blocks below name the
//! ranges; their order is the order of the generated `weights.rs`. A block is *frozen* when its values
//! encode the rules or a saying that the tests check (the rules' value table, the phase shift between
//! horse and cannon, the material combinations); the tuner leaves those alone.

use crate::term::Term;

/// A named range of the weight vector.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// The block's name as written in the generated source.
    pub name: &'static str,
    /// Index of its first weight.
    pub start: usize,
    /// Number of weights.
    pub len: usize,
    /// The trace row its weights add to.
    pub term: Term,
    /// Whether the tuner may change it.
    pub tunable: bool,
    /// Weights per line in the generated source.
    pub row: usize,
}

/// Points in a half-board table (files a..e of ranks 9..0; f..i mirror d..a).
pub const HALF_BOARD: usize = 50;
/// Entries of the rook and cannon mobility tables (0..=17 moves).
pub const SLIDER_MOBILITY: usize = 18;
/// Entries of the horse mobility table (0..=8 moves).
pub const HORSE_MOVES: usize = 9;

/// Offsets inside the [`COMBINATION`] block.
pub mod combination {
    /// Horse and cannon together (马炮).
    pub const HORSE_CANNON: usize = 0;
    /// Two horses.
    pub const TWO_HORSES: usize = 1;
    /// Two cannons.
    pub const TWO_CANNONS: usize = 2;
    /// Horse and cannon with a rook.
    pub const HORSE_CANNON_ROOK: usize = 3;
    /// Two horses with a rook.
    pub const TWO_HORSES_ROOK: usize = 4;
    /// Two cannons with a rook.
    pub const TWO_CANNONS_ROOK: usize = 5;
    /// Number of combination weights.
    pub const LEN: usize = 6;
}

macro_rules! blocks {
    ($($(#[doc = $doc:literal])* $name:ident = $len:expr, $term:ident, $tunable:literal, $row:literal;)*) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[derive(Copy, Clone)]
        enum Id { $($name,)* }
        const LENS: &[usize] = &[$($len,)*];
        $( $(#[doc = $doc])* pub const $name: usize = start_of(Id::$name as usize); )*
        /// Every block, in weight order.
        pub const BLOCKS: &[Block] = &[$(
            Block { name: stringify!($name), start: $name, len: $len, term: Term::$term, tunable: $tunable,
                    row: $row },
        )*];
        /// Length of the weight vector.
        pub const NUM_WEIGHTS: usize = start_of(LENS.len());
    };
}

const fn start_of(block: usize) -> usize {
    let mut s = 0;
    let mut i = 0;
    while i < block {
        s += LENS[i];
        i += 1;
    }
    s
}

blocks! {
    /// The rules' value table by kind (frozen: rook = 2 horses = 2 cannons, advisor = elephant).
    MATERIAL = 7, Material, false, 7;
    /// Phase-dependent shifts of the piece values (开局炮胜马，残局马胜炮), by kind.
    PIECE_PHASE = 7, PieceValues, false, 7;
    /// Material combinations, see [`combination`].
    COMBINATION = combination::LEN, Combinations, false, 6;
    /// Piece-square tables: for each kind a half board from Red's side, rank 9 first.
    PST = 7 * HALF_BOARD, PieceSquare, true, 5;
    /// Per missing advisor, per enemy horse (缺士怕马).
    MISSING_ADVISOR_VS_HORSE = 1, KingSafety, true, 1;
    /// Per missing elephant, per enemy cannon (缺相怕炮).
    MISSING_ELEPHANT_VS_CANNON = 1, KingSafety, true, 1;
    /// Per missing advisor when the enemy has both rooks.
    MISSING_ADVISOR_VS_TWO_ROOKS = 1, KingSafety, true, 1;
    /// Nothing in front of the king on its file, per enemy rook.
    OPEN_KING_FILE = 1, KingSafety, true, 1;
    /// For the attacker: a cannon facing the king with no screen (空头炮).
    EMPTY_HEADED_CANNON = 1, KingSafety, true, 1;
    /// For the attacker: a cannon on the king's file behind two screens (中炮镇中).
    CANNON_AIMED_AT_KING = 1, KingSafety, true, 1;
    /// A pawn on the enemy palace centre (卒坐宫心).
    PALACE_PAWN = 1, Attack, true, 1;
    /// Two rooks that see each other (连车).
    CONNECTED_ROOKS = 1, Attack, true, 1;
    /// Two cannons on the enemy king's file (重炮).
    DOUBLED_CANNONS = 1, Attack, true, 1;
    /// Per horse on a checking point by the palace (卧槽, 挂角).
    HORSE_CHECK_POINT = 1, Attack, true, 1;
    /// Per rook that reaches a point of the enemy palace.
    ROOK_NEAR_PALACE = 1, Attack, true, 1;
    /// Per enemy palace point a horse attacks.
    HORSE_NEAR_PALACE = 1, Attack, true, 1;
    /// Rook mobility by number of moves.
    ROOK_MOBILITY = SLIDER_MOBILITY, Mobility, true, 6;
    /// Horse mobility by number of moves (legs counted).
    HORSE_MOBILITY = HORSE_MOVES, Mobility, true, 9;
    /// Cannon mobility by number of non-capturing moves.
    CANNON_MOBILITY = SLIDER_MOBILITY, Mobility, true, 6;
    /// Per enemy piece a cannon attacks over a screen.
    CANNON_TARGET = 1, Mobility, true, 1;
    /// Rook on a file with no pawns.
    ROOK_OPEN_FILE = 1, Placement, true, 1;
    /// Rook on a file with enemy pawns only.
    ROOK_SEMI_OPEN_FILE = 1, Placement, true, 1;
    /// Horse on the edge file (马跳边).
    HORSE_ON_EDGE = 1, Placement, true, 1;
    /// Advisors protecting each other.
    CONNECTED_ADVISORS = 1, Defenders, true, 1;
    /// Elephants protecting each other.
    CONNECTED_ELEPHANTS = 1, Defenders, true, 1;
    /// The side to move.
    TEMPO = 1, Tempo, true, 1;
}

/// The block holding weight `index`.
pub fn block_of(index: usize) -> &'static Block {
    let i = BLOCKS.partition_point(|b| b.start + b.len <= index);
    &BLOCKS[i.min(BLOCKS.len() - 1)]
}

/// The trace row of each weight, for the trace sink.
pub static TERM_OF_WEIGHT: [Term; NUM_WEIGHTS] = {
    let mut t = [Term::Material; NUM_WEIGHTS];
    let mut b = 0;
    while b < BLOCKS.len() {
        let mut i = 0;
        while i < BLOCKS[b].len {
            t[BLOCKS[b].start + i] = BLOCKS[b].term;
            i += 1;
        }
        b += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_tile_the_vector() {
        let mut next = 0;
        for b in BLOCKS {
            assert_eq!(b.start, next, "{} starts where the previous block ends", b.name);
            assert!(b.len > 0 && b.row > 0);
            next += b.len;
        }
        assert_eq!(next, NUM_WEIGHTS);
        assert_eq!(block_of(PST + 3).name, "PST");
        assert_eq!(block_of(TEMPO).name, "TEMPO");
        assert_eq!(block_of(0).name, "MATERIAL");
    }
}
