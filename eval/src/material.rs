//! Material: the rules' value table, the phase-dependent shifts of the piece values, and the terms for
//! combinations of strong pieces that the sayings rank (docs/rules.md, art. 25.3 and the appendix).
//!
//! The rules' table is the starting point and stays exact in the `MATERIAL` block: rook = 2 horses =
//! 2 cannons = horse + cannon, horse = cannon, advisor = elephant. What the sayings add on top is kept in
//! separate blocks so the trace shows it: the cannon is worth more with a full board and the horse in the
//! ending (`PIECE_PHASE`), and some combinations are worth more than their sum (`COMBINATION`). Pawn values
//! depend on where the pawn stands (before the river, across it, by the palace, on the last rank) and so
//! live in the pawn's piece-square table; the table here only holds its base value.

use crate::packed::Packed;
use crate::params::{combination, COMBINATION, MATERIAL, PIECE_PHASE};
use crate::sink::{Accumulator, Sink};
use engine::{Color, PieceKind, Position};
use once_cell::sync::Lazy;

/// The rules' value table in internal units, by kind (king 0; a pawn's base value before the river).
pub const RULE_VALUES: [i32; PieceKind::NUM] = [0, 160, 160, 400, 800, 400, 80];

/// How many pieces of each kind each side has.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts([[i32; PieceKind::NUM]; 2]);

impl Counts {
    /// Counts the pieces of `pos`.
    #[inline]
    pub fn of(pos: &Position) -> Counts {
        // Every position has one king a side, so only the other kinds are counted.
        let mut c = [[1; PieceKind::NUM]; 2];
        for color in Color::ALL {
            for kind in &PieceKind::ALL[1..] {
                c[color.index()][kind.index()] = pos.pieces(color, *kind).count() as i32;
            }
        }
        Counts(c)
    }

    /// Counts given directly, by colour then kind (for tests of the value table).
    pub const fn from_array(c: [[i32; PieceKind::NUM]; 2]) -> Counts {
        Counts(c)
    }

    /// The number of `color`'s pieces of `kind`.
    #[inline(always)]
    pub fn get(&self, color: Color, kind: PieceKind) -> i32 {
        self.0[color.index()][kind.index()]
    }

    /// `color`'s rooks, horses and cannons.
    #[inline(always)]
    pub fn strong(&self, color: Color) -> i32 {
        self.get(color, PieceKind::Rook)
            + self.get(color, PieceKind::Horse)
            + self.get(color, PieceKind::Cannon)
    }

    /// The rules' value of `color`'s rooks, horses and cannons.
    #[inline(always)]
    pub fn strong_value(&self, color: Color) -> i32 {
        [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon]
            .iter()
            .map(|&k| self.get(color, k) * RULE_VALUES[k.index()])
            .sum()
    }
}

/// Every piece at its value in the rules' table.
#[inline(always)]
pub fn rule_material<K: Sink>(counts: &Counts, us: Color, sink: &mut K) {
    for kind in PieceKind::ALL {
        if kind != PieceKind::King {
            sink.add(us, MATERIAL + kind.index(), counts.get(us, kind));
        }
    }
}

/// The phase-dependent shift of each piece's value: cannon up and horse down with a full board, the
/// reverse in the ending (开局炮胜马，残局马胜炮).
#[inline(always)]
pub fn piece_phase_values<K: Sink>(counts: &Counts, us: Color, sink: &mut K) {
    for kind in PieceKind::ALL {
        if kind != PieceKind::King {
            sink.add(us, PIECE_PHASE + kind.index(), counts.get(us, kind));
        }
    }
}

/// Combinations of strong pieces: horse and cannon work together better than two of a kind, two cannons
/// need a rook (two horses + cannon > two cannons + horse; horse + cannon > two horses > two cannons;
/// rook + horse + cannon > rook + two cannons > rook + two horses).
#[inline(always)]
pub fn combinations<K: Sink>(counts: &Counts, us: Color, sink: &mut K) {
    let horses = counts.get(us, PieceKind::Horse);
    let cannons = counts.get(us, PieceKind::Cannon);
    let rook = (counts.get(us, PieceKind::Rook) > 0) as i32;
    let horse_cannon = (horses > 0 && cannons > 0) as i32;
    let two_horses = (horses >= 2) as i32;
    let two_cannons = (cannons >= 2) as i32;
    sink.add(us, COMBINATION + combination::HORSE_CANNON, horse_cannon);
    sink.add(us, COMBINATION + combination::TWO_HORSES, two_horses);
    sink.add(us, COMBINATION + combination::TWO_CANNONS, two_cannons);
    sink.add(us, COMBINATION + combination::HORSE_CANNON_ROOK, horse_cannon * rook);
    sink.add(us, COMBINATION + combination::TWO_HORSES_ROOK, two_horses * rook);
    sink.add(us, COMBINATION + combination::TWO_CANNONS_ROOK, two_cannons * rook);
}

/// [`combinations`] summed for one side, by its horses (0, 1, 2 or more), its cannons (likewise) and
/// whether it has a rook: what the term depends on. The search's evaluation looks the sum up instead of
/// reporting the six weights; the table is built by running the term itself, so the two cannot differ.
static COMBINATION_SUMS: Lazy<[[[Packed; 2]; 3]; 3]> = Lazy::new(|| {
    let mut table = [[[Packed::ZERO; 2]; 3]; 3];
    for (horses, by_cannons) in table.iter_mut().enumerate() {
        for (cannons, by_rook) in by_cannons.iter_mut().enumerate() {
            for (rooks, sum) in by_rook.iter_mut().enumerate() {
                let mut c = [[0; PieceKind::NUM]; 2];
                c[0][PieceKind::Horse.index()] = horses as i32;
                c[0][PieceKind::Cannon.index()] = cannons as i32;
                c[0][PieceKind::Rook.index()] = rooks as i32;
                let mut acc = Accumulator::default();
                combinations(&Counts(c), Color::Red, &mut acc);
                *sum = Packed::new(acc.total());
            }
        }
    }
    table
});

/// The sum of `us`'s [`combinations`] weights.
#[inline(always)]
pub fn combination_sum(counts: &Counts, us: Color) -> Packed {
    let horses = counts.get(us, PieceKind::Horse).clamp(0, 2) as usize;
    let cannons = counts.get(us, PieceKind::Cannon).clamp(0, 2) as usize;
    let rook = (counts.get(us, PieceKind::Rook) > 0) as usize;
    COMBINATION_SUMS[horses][cannons][rook]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phase::PHASE_MAX;
    use crate::score::MgEg;
    use crate::sink::Accumulator;
    use crate::weights::WEIGHTS;

    const K: PieceKind = PieceKind::King;
    const A: PieceKind = PieceKind::Advisor;
    const B: PieceKind = PieceKind::Elephant;
    const N: PieceKind = PieceKind::Horse;
    const R: PieceKind = PieceKind::Rook;
    const C: PieceKind = PieceKind::Cannon;

    #[test]
    fn rule_table_equalities_hold() {
        let v = |k: PieceKind| RULE_VALUES[k.index()];
        assert_eq!(v(R), 2 * v(N));
        assert_eq!(v(R), 2 * v(C));
        assert_eq!(v(R), v(N) + v(C));
        assert_eq!(v(N), v(C));
        assert_eq!(v(A), v(B));
        assert_eq!(v(K), 0);
        // The opening material table used by the evaluation is exactly the rules' table.
        for kind in PieceKind::ALL {
            assert_eq!(WEIGHTS[MATERIAL + kind.index()], MgEg(v(kind), v(kind)), "{kind:?}");
        }
    }

    /// Material of one side holding `pieces` (king implied), tapered at `phase`.
    fn value(pieces: &[PieceKind], phase: i32) -> i32 {
        let mut c = [[0; PieceKind::NUM]; 2];
        c[0][K.index()] = 1;
        for k in pieces {
            c[0][k.index()] += 1;
        }
        let counts = Counts::from_array(c);
        let mut acc = Accumulator::default();
        rule_material(&counts, Color::Red, &mut acc);
        piece_phase_values(&counts, Color::Red, &mut acc);
        combinations(&counts, Color::Red, &mut acc);
        acc.total().taper(phase)
    }

    #[test]
    fn combination_sums_are_the_terms() {
        for horses in 0..=2 {
            for cannons in 0..=2 {
                for rooks in 0..=2 {
                    let mut c = [[1, 2, 2, 0, 0, 0, 5]; 2];
                    c[1][N.index()] = horses;
                    c[1][C.index()] = cannons;
                    c[1][R.index()] = rooks;
                    let counts = Counts::from_array(c);
                    let mut acc = Accumulator::default();
                    combinations(&counts, Color::Black, &mut acc);
                    assert_eq!(combination_sum(&counts, Color::Black).unpack(), -acc.total());
                }
            }
        }
    }

    #[test]
    fn cannon_leads_with_a_full_board_and_horse_in_the_ending() {
        assert!(value(&[C], PHASE_MAX) > value(&[N], PHASE_MAX));
        assert!(value(&[N], 0) > value(&[C], 0));
    }

    #[test]
    fn sayings_about_combinations_hold_in_every_phase() {
        for phase in 0..=PHASE_MAX {
            let v = |p: &[PieceKind]| value(p, phase);
            assert!(v(&[N, N, C]) > v(&[C, C, N]), "2 horses + cannon > 2 cannons + horse at {phase}");
            assert!(v(&[N, C]) > v(&[N, N]), "horse + cannon > 2 horses at {phase}");
            assert!(v(&[N, N]) > v(&[C, C]), "2 horses > 2 cannons at {phase}");
            assert!(v(&[R, N, C]) > v(&[R, C, C]), "rook + horse + cannon > rook + 2 cannons at {phase}");
            assert!(v(&[R, C, C]) > v(&[R, N, N]), "rook + 2 cannons > rook + 2 horses at {phase}");
        }
    }

    #[test]
    fn pawns_gain_value_across_the_river_and_lose_it_on_the_last_rank() {
        use crate::pst::TABLE;
        let pawn = |sq: &str| {
            let sq: engine::Square = sq.parse().unwrap();
            let w = WEIGHTS[MATERIAL + PieceKind::Pawn.index()]
                + WEIGHTS[PIECE_PHASE + PieceKind::Pawn.index()]
                + TABLE[0][PieceKind::Pawn.index()][sq.index()];
            (w.mg(), w.eg())
        };
        let (home, crossed, palace, last) = (pawn("e3"), pawn("e5"), pawn("e8"), pawn("e9"));
        for (a, b) in [(home.0, crossed.0), (home.1, crossed.1), (crossed.0, palace.0), (crossed.1, palace.1)]
        {
            assert!(a < b, "pawn value grows toward the palace");
        }
        assert!(last.0 < crossed.0 && last.1 < crossed.1, "an old pawn on the last rank is worth little");
    }
}
