//! A table in memory: two bits of win/draw/loss per slot, packed four to a byte, and the distance to
//! mate beside it.

use super::index::Indexer;
use super::material::Material;
use crate::position::Position;

/// Win, draw or loss for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wdl {
    /// The side to move loses with best play.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move wins with best play.
    Win,
}

impl Wdl {
    /// The same result seen by the other side.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }
}

/// What a table says about one position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The result for the side to move.
    pub wdl: Wdl,
    /// Plies to mate (0 for a draw; see docs/rules.md for positions decided by the perpetual-check rule).
    pub dtm: u16,
    /// Whether the result comes from the perpetual-check rule rather than a forced mate.
    pub perpetual: bool,
}

/// The two-bit codes of the WDL array.
pub(crate) const CODE_DRAW: u8 = 0;
pub(crate) const CODE_WIN: u8 = 1;
pub(crate) const CODE_LOSS: u8 = 2;
/// A slot no legal position fills.
pub(crate) const CODE_ILLEGAL: u8 = 3;
/// The DTM word's flag for results decided by the perpetual-check rule; the low 15 bits are plies.
pub(crate) const DTM_PERPETUAL: u16 = 0x8000;

/// One material's results (in its stored colouring).
pub struct Table {
    material: Material,
    indexer: Indexer,
    wdl: Vec<u8>,
    dtm: Vec<u16>,
}

impl Table {
    /// A table from its arrays; `wdl` holds `indexer.size()` two-bit codes, `dtm` one word per slot.
    pub(crate) fn from_parts(material: Material, indexer: Indexer, wdl: Vec<u8>, dtm: Vec<u16>) -> Table {
        Table { material, indexer, wdl, dtm }
    }

    /// The material, in the colouring it is stored under.
    pub fn material(&self) -> Material {
        self.material
    }

    /// The indexer.
    pub fn indexer(&self) -> &Indexer {
        &self.indexer
    }

    /// Slots in the table.
    pub fn size(&self) -> u64 {
        self.indexer.size()
    }

    /// The packed WDL bytes.
    pub(crate) fn wdl_bytes(&self) -> &[u8] {
        &self.wdl
    }

    /// The DTM words.
    pub(crate) fn dtm_words(&self) -> &[u16] {
        &self.dtm
    }

    /// The two-bit code of a slot.
    #[inline(always)]
    pub(crate) fn code(&self, index: u64) -> u8 {
        (self.wdl[(index / 4) as usize] >> (2 * (index % 4))) & 3
    }

    /// The verdict of a slot, `None` for an illegal one.
    #[inline]
    pub fn verdict_at(&self, index: u64) -> Option<Verdict> {
        let wdl = match self.code(index) {
            CODE_DRAW => Wdl::Draw,
            CODE_WIN => Wdl::Win,
            CODE_LOSS => Wdl::Loss,
            _ => return None,
        };
        let word = self.dtm[index as usize];
        Some(Verdict { wdl, dtm: word & !DTM_PERPETUAL, perpetual: word & DTM_PERPETUAL != 0 })
    }

    /// The slot of `pos` in this table, colours swapped first when `flip`.
    #[inline]
    pub fn index_of(&self, pos: &Position, flip: bool) -> Option<u64> {
        self.indexer.locate(pos, flip)
    }

    /// Win/draw/loss of `pos` (its material must be this table's, `flip` as [`Table::index_of`]).
    #[inline]
    pub fn wdl(&self, pos: &Position, flip: bool) -> Option<Wdl> {
        self.index_of(pos, flip).and_then(|i| self.verdict_at(i)).map(|v| v.wdl)
    }

    /// The full verdict of `pos` (its material must be this table's, `flip` as [`Table::index_of`]).
    #[inline]
    pub fn verdict(&self, pos: &Position, flip: bool) -> Option<Verdict> {
        self.index_of(pos, flip).and_then(|i| self.verdict_at(i))
    }

    /// Counts of (wins, draws, losses, illegal slots) over the table.
    pub fn census(&self) -> [u64; 4] {
        let mut n = [0u64; 4];
        for i in 0..self.size() {
            n[self.code(i) as usize] += 1;
        }
        [n[CODE_WIN as usize], n[CODE_DRAW as usize], n[CODE_LOSS as usize], n[CODE_ILLEGAL as usize]]
    }
}
