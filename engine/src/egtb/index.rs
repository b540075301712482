//! The index of a table: a dense number for every placement of the material's pieces and side to move.
//!
//! Each group of like pieces (one colour, one kind) takes one digit of a mixed-radix number: the rank of
//! the set of points it stands on among the points that kind may use (`fen::square_allowed`), so two
//! advisors of a side count C(5, 2) = 10 placements, not 25. Red's king, the first group, is kept on
//! files d-e (six points): a position with it on file f is stored as its left-right mirror, which has the
//! same value. Placements where two pieces share a point, the kings face or the side not to move is in
//! check still get a slot; the generator marks them illegal. Slots are Red-to-move first, then
//! Black-to-move.

use super::material::Material;
use crate::fen::square_allowed;
use crate::position::Position;
use crate::types::{Color, Piece, PieceKind, Square};

/// The most pieces a table can hold (kings included).
pub const MAX_PIECES: usize = 8;

/// `BINOM[n][k]` = n choose k, for the group sizes a side can have.
static BINOM: [[u64; 6]; 91] = {
    let mut t = [[0u64; 6]; 91];
    let mut n = 0;
    while n <= 90 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 6 {
            t[n][k] = if n == 0 { 0 } else { t[n - 1][k - 1] + t[n - 1][k] };
            k += 1;
        }
        n += 1;
    }
    t
};

/// One digit of the index: `count` pieces of one kind and colour.
#[derive(Clone, Debug)]
struct Group {
    piece: Piece,
    count: usize,
    /// Where in a placement the group's squares start.
    first: usize,
    /// The points the group may stand on, in square order.
    squares: Vec<Square>,
    /// For each point, its position in `squares` (255: not allowed).
    slot: [u8; 90],
    /// How many placements the group has.
    radix: u64,
}

/// Squares in the order of [`Material::pieces`], one per piece.
pub type Placement = [Square; MAX_PIECES];

/// Maps positions of one material to slots and back.
#[derive(Clone, Debug)]
pub struct Indexer {
    groups: Vec<Group>,
    pieces: Vec<Piece>,
    per_side: u64,
}

impl Indexer {
    /// The indexer of `material` (in the colouring given); `None` if it has more than [`MAX_PIECES`] pieces.
    pub fn new(material: &Material) -> Option<Indexer> {
        let pieces = material.pieces();
        if pieces.len() > MAX_PIECES {
            return None;
        }
        let mut groups: Vec<Group> = Vec::new();
        for (i, &p) in pieces.iter().enumerate() {
            if let Some(g) = groups.last_mut().filter(|g| g.piece == p) {
                g.count += 1;
                continue;
            }
            let squares: Vec<Square> = Square::all()
                .filter(|&s| square_allowed(p, s))
                .filter(|&s| p != Piece::RedKing || s.file() <= 4)
                .collect();
            let mut slot = [255u8; 90];
            for (n, s) in squares.iter().enumerate() {
                slot[s.index()] = n as u8;
            }
            groups.push(Group { piece: p, count: 1, first: i, squares, slot, radix: 0 });
        }
        let mut per_side = 1u64;
        for g in &mut groups {
            g.radix = BINOM[g.squares.len()][g.count];
            per_side = per_side.checked_mul(g.radix)?;
        }
        Some(Indexer { groups, pieces, per_side })
    }

    /// How many slots the table has (both sides to move).
    pub fn size(&self) -> u64 {
        2 * self.per_side
    }

    /// The pieces, in placement order.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// The slot of a placement whose Red king stands on file d or e, with `side` to move; `None` when a piece
    /// stands where its kind may not or two like pieces share a point.
    pub fn encode(&self, sq: &Placement, side: Color) -> Option<u64> {
        let mut idx = 0u64;
        for g in &self.groups {
            let mut slots = [0u8; 5];
            for (j, s) in sq[g.first..g.first + g.count].iter().enumerate() {
                let v = g.slot[s.index()];
                if v == 255 {
                    return None;
                }
                slots[j] = v;
            }
            let slots = &mut slots[..g.count];
            slots.sort_unstable();
            let mut rank = 0u64;
            for (j, &v) in slots.iter().enumerate() {
                if j > 0 && slots[j - 1] == v {
                    return None;
                }
                rank += BINOM[v as usize][j + 1];
            }
            idx = idx * g.radix + rank;
        }
        Some(side.index() as u64 * self.per_side + idx)
    }

    /// The placement and side to move of a slot (below [`Indexer::size`]).
    pub fn decode(&self, index: u64, sq: &mut Placement) -> Color {
        let side = if index >= self.per_side { Color::Black } else { Color::Red };
        let mut rest = index % self.per_side;
        for g in self.groups.iter().rev() {
            let mut rank = rest % g.radix;
            rest /= g.radix;
            // Unrank the combination, largest element first.
            let mut top = g.squares.len();
            for j in (1..=g.count).rev() {
                let mut v = top - 1;
                while BINOM[v][j] > rank {
                    v -= 1;
                }
                rank -= BINOM[v][j];
                sq[g.first + j - 1] = g.squares[v];
                top = v;
            }
        }
        side
    }

    /// Sets `pos` to the placement of slot `index` and returns the side to move; `None` when no legal
    /// position has that slot (two pieces on one point, the side not to move in check or facing the other
    /// king). `list` is scratch space, so that the generator, which loads every slot, never allocates.
    pub fn load_into(
        &self,
        index: u64,
        pos: &mut Position,
        list: &mut Vec<(Piece, Square)>,
    ) -> Option<Color> {
        let mut sq = empty_placement();
        let side = self.decode(index, &mut sq);
        list.clear();
        let mut seen = 0u128;
        for (&p, &s) in self.pieces.iter().zip(sq.iter()) {
            let b = 1u128 << s.index();
            if seen & b != 0 {
                return None;
            }
            seen |= b;
            list.push((p, s));
        }
        pos.reset_to(list, side);
        if pos.is_attacked_by(pos.king_square(!side), side) {
            return None;
        }
        Some(side)
    }

    /// The position of slot `index`, if it holds a legal one (see [`Indexer::load_into`]).
    pub fn position_of(&self, index: u64) -> Option<Position> {
        let mut pos = Position::startpos();
        self.load_into(index, &mut pos, &mut Vec::with_capacity(self.pieces.len())).map(|_| pos)
    }

    /// The slot of `pos` if its material is exactly this indexer's, read with the colours swapped (and the
    /// board turned) when `flip`; mirrored left-right when Red's king then stands on file f.
    pub fn locate(&self, pos: &Position, flip: bool) -> Option<u64> {
        let red = if flip { Color::Black } else { Color::Red };
        let mirror = pos.king_square(red).file() > 4;
        let mut sq: Placement = empty_placement();
        for g in &self.groups {
            let color = if flip { !g.piece.color() } else { g.piece.color() };
            let bb = pos.pieces(color, g.piece.kind());
            if bb.count() as usize != g.count {
                return None;
            }
            for (j, s) in bb.into_iter().enumerate() {
                let s = if flip { s.flip_rank() } else { s };
                sq[g.first + j] = if mirror { s.mirror_file() } else { s };
            }
        }
        let side = if flip { !pos.side_to_move() } else { pos.side_to_move() };
        self.encode(&sq, side)
    }

    /// Whether the piece at placement entry `i` is Red's king (the one kept on files d-e).
    pub fn is_red_king(&self, i: usize) -> bool {
        self.pieces[i] == Piece::RedKing
    }

    /// The kind of the piece at placement entry `i`.
    pub fn kind(&self, i: usize) -> PieceKind {
        self.pieces[i].kind()
    }
}

/// An all-`a0` placement to decode into.
pub fn empty_placement() -> Placement {
    [Square::from_index(0); MAX_PIECES]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_encode_round_trip() {
        for name in ["KRK", "KNKAA", "KCKAB", "KPPKA"] {
            let m: Material = name.parse().unwrap();
            let ix = Indexer::new(&m).unwrap();
            let mut sq = empty_placement();
            let step = (ix.size() / 5000).max(1);
            let mut i = 0;
            while i < ix.size() {
                let side = ix.decode(i, &mut sq);
                assert_eq!(ix.encode(&sq, side), Some(i), "{name} {i}");
                i += step;
            }
        }
        let ix = Indexer::new(&"KRKAABB".parse().unwrap()).unwrap();
        assert_eq!(ix.size(), 2 * 6 * 90 * 9 * 10 * 21);
    }
}
