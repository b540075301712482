//! Material signatures: which pieces a table holds, and the names (`KRKAABB`) users and files call them by.

use crate::position::Position;
use crate::types::{Color, Piece, PieceKind};
use std::fmt;
use std::str::FromStr;

/// The order in which a side's pieces are named after its king (the R N C P A B).
pub const NAME_ORDER: [PieceKind; 6] = [
    PieceKind::Rook,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Pawn,
    PieceKind::Advisor,
    PieceKind::Elephant,
];

/// How many pieces of each kind each side has (kings included, always one each).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    counts: [[u8; PieceKind::NUM]; 2],
}

/// A material name that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MaterialError(pub String);

impl fmt::Display for MaterialError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::error::Error for MaterialError {}

/// A rough worth per kind, only to decide which side a table calls Red.
const fn weight(kind: PieceKind) -> u32 {
    match kind {
        PieceKind::Rook => 90,
        PieceKind::Horse | PieceKind::Cannon => 40,
        PieceKind::Pawn => 15,
        PieceKind::Advisor | PieceKind::Elephant => 10,
        PieceKind::King => 0,
    }
}

impl Material {
    /// The two bare kings.
    pub const fn kings() -> Material {
        let mut counts = [[0; PieceKind::NUM]; 2];
        counts[0][0] = 1;
        counts[1][0] = 1;
        Material { counts }
    }

    /// The material on the board.
    pub fn of(pos: &Position) -> Material {
        let mut m = Material { counts: [[0; PieceKind::NUM]; 2] };
        for c in Color::ALL {
            for k in PieceKind::ALL {
                m.counts[c.index()][k.index()] = pos.pieces(c, k).count() as u8;
            }
        }
        m
    }

    /// How many pieces of `color` of `kind`.
    pub fn count(&self, color: Color, kind: PieceKind) -> usize {
        self.counts[color.index()][kind.index()] as usize
    }

    /// All pieces on the board, kings included.
    pub fn total(&self) -> usize {
        self.counts.iter().flatten().map(|&n| n as usize).sum()
    }

    /// The same material with the colours swapped.
    pub fn flipped(&self) -> Material {
        Material { counts: [self.counts[1], self.counts[0]] }
    }

    /// The sort key of one side: its rough worth, then its pieces in naming order.
    fn side_key(&self, color: Color) -> (u32, [u8; 6]) {
        let c = &self.counts[color.index()];
        let worth = PieceKind::ALL.iter().map(|&k| weight(k) * c[k.index()] as u32).sum();
        (worth, NAME_ORDER.map(|k| c[k.index()]))
    }

    /// The colouring a table is stored under (the stronger side as Red) and whether this is its flip.
    pub fn canonical(&self) -> (Material, bool) {
        if self.side_key(Color::Black) > self.side_key(Color::Red) {
            (self.flipped(), true)
        } else {
            (*self, false)
        }
    }

    /// Whether this is the colouring tables are stored under.
    pub fn is_canonical(&self) -> bool {
        !self.canonical().1
    }

    /// The stored materials one capture leads to (each piece other than a king taken once), deduplicated.
    pub fn captures(&self) -> Vec<Material> {
        let mut out = Vec::new();
        for c in Color::ALL {
            for k in PieceKind::ALL {
                if k != PieceKind::King && self.counts[c.index()][k.index()] > 0 {
                    let mut m = *self;
                    m.counts[c.index()][k.index()] -= 1;
                    let m = m.canonical().0;
                    if !out.contains(&m) {
                        out.push(m);
                    }
                }
            }
        }
        out
    }

    /// The pieces, Red's then Black's, each side's king first and the rest in naming order.
    pub fn pieces(&self) -> Vec<Piece> {
        let mut out = Vec::new();
        for c in Color::ALL {
            out.push(Piece::new(c, PieceKind::King));
            for k in NAME_ORDER {
                for _ in 0..self.count(c, k) {
                    out.push(Piece::new(c, k));
                }
            }
        }
        out
    }

    /// Whether `color` has a piece that can ever give check (rook, horse, cannon or pawn).
    pub fn can_check(&self, color: Color) -> bool {
        [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon, PieceKind::Pawn]
            .iter()
            .any(|&k| self.count(color, k) > 0)
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in Color::ALL {
            write!(f, "K")?;
            for k in NAME_ORDER {
                for _ in 0..self.count(c, k) {
                    write!(f, "{}", k.letter())?;
                }
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Material {
    type Err = MaterialError;

    /// Reads `KRKAABB`: Red's king and pieces, then Black's; letters of either case, `E`/`H` accepted.
    fn from_str(s: &str) -> Result<Material, MaterialError> {
        let bad = |why: &str| MaterialError(format!("material '{s}': {why}"));
        let up = s.to_ascii_uppercase();
        if !up.starts_with('K') {
            return Err(bad("must start with Red's king K"));
        }
        let rest = &up[1..];
        let Some(split) = rest.find('K') else { return Err(bad("Black's king K is missing")) };
        let mut m = Material::kings();
        for (color, part) in [(Color::Red, &rest[..split]), (Color::Black, &rest[split + 1..])] {
            for ch in part.chars() {
                let kind = PieceKind::from_letter(ch)
                    .ok_or_else(|| bad(&format!("'{ch}' is not a piece letter (R N C P A B)")))?;
                if kind == PieceKind::King {
                    return Err(bad("more than two kings"));
                }
                let n = &mut m.counts[color.index()][kind.index()];
                *n += 1;
                if *n as u32 > kind.max_count() {
                    return Err(bad(&format!(
                        "more than {} '{}' on one side",
                        kind.max_count(),
                        kind.letter()
                    )));
                }
            }
        }
        Ok(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_canonical_side() {
        for name in ["KRKAABB", "KRPKR", "KNKAA", "KK", "KCKB", "KPKA"] {
            let m: Material = name.parse().unwrap();
            assert_eq!(m.to_string(), name);
            assert!(m.is_canonical(), "{name}");
        }
        let m: Material = "KAAKR".parse().unwrap();
        assert_eq!(m.canonical(), ("KRKAA".parse().unwrap(), true));
        assert_eq!("kpr kr".replace(' ', "").parse::<Material>().unwrap().to_string(), "KRPKR");
        assert!("RKK".parse::<Material>().is_err());
        assert!("KRRRK".parse::<Material>().is_err());
        assert!("KXK".parse::<Material>().is_err());
    }

    #[test]
    fn captures_lead_to_stored_colourings() {
        let m: Material = "KRKN".parse().unwrap();
        let subs: Vec<String> = m.captures().iter().map(|m| m.to_string()).collect();
        assert_eq!(subs, vec!["KNK", "KRK"]);
    }
}
