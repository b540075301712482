//! Endgame knowledge: positions the stronger side cannot win, and how far to pull their score toward a
//! draw.
//!
//! The evaluation finds which side it favours and asks [`scale`] how much of that advantage is real. The
//! rules are textbook sayings (docs/rules.md, appendix "Piece values and sayings"), each deliberately
//! narrow:
//! - a side with nothing that can still attack (no rook, horse or cannon, and no pawn off the last rank:
//!   老卒无功) cannot win, so a position where neither side can is a dead draw;
//! - a lone cannon cannot mate a king that has no advisors or elephants either (孤炮难鸣): nothing on the
//!   board can be its screen but the kings. Against advisors it can (an advisor penned on its corner
//!   becomes the screen), so that case is left to the search;
//! - a horse and at most one pawn cannot break full advisors and elephants (马卒难破士相全);
//! - a pawnless side only a little ahead in strong pieces rarely wins (scaled by half, not to zero).
//!
//! A lone rook against full advisors and elephants is a win and is deliberately not scaled.

use crate::material::Counts;
use engine::{Bitboard, Color, PieceKind, Position};
use std::fmt;

/// The factor of an unscaled score: scores are multiplied by `factor / SCALE_MAX`.
pub const SCALE_MAX: i32 = 64;

/// Which rule set the factor.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DrawRule {
    /// No rule applies.
    None,
    /// The favoured side has nothing that can attack.
    NoAttackers,
    /// 孤炮难鸣: a lone cannon with no screen on the board.
    LoneCannon,
    /// 马卒难破士相全: horse and at most one pawn against full advisors and elephants.
    HorsePawnVsFullDefence,
    /// No pawns and at most a horse's worth ahead in strong pieces.
    PawnlessSmallEdge,
}

impl fmt::Display for DrawRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawRule::None => "none",
            DrawRule::NoAttackers => "no attacker left that can cross the river",
            DrawRule::LoneCannon => "a lone cannon cannot mate (孤炮难鸣)",
            DrawRule::HorsePawnVsFullDefence => {
                "horse and pawn cannot break full advisors and elephants (马卒难破士相全)"
            }
            DrawRule::PawnlessSmallEdge => "no pawns and a small edge in strong pieces",
        })
    }
}

/// The factor for the favoured side and the rule behind it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Scale {
    /// 0 (dead draw) ..= [`SCALE_MAX`] (no scaling).
    pub factor: i32,
    /// Why.
    pub rule: DrawRule,
}

impl Scale {
    /// No scaling.
    pub const NONE: Scale = Scale { factor: SCALE_MAX, rule: DrawRule::None };
}

/// Whether `color` has a pawn that can still move forward or reach the palace (one not on the enemy's
/// back rank). Only whether there is one matters to the rules, so no count is taken.
#[inline(always)]
fn has_useful_pawn(pos: &Position, color: Color) -> bool {
    let last_rank = match color {
        Color::Red => Bitboard::RANKS[9],
        Color::Black => Bitboard::RANKS[0],
    };
    (pos.pieces(color, PieceKind::Pawn) & !last_rank).nonempty()
}

/// How much of `strong`'s advantage counts, given the material on the board.
#[inline(always)]
pub fn scale(pos: &Position, counts: &Counts, strong: Color) -> Scale {
    let pieces = counts.strong(strong);
    let pawn = has_useful_pawn(pos, strong);
    if pawn && (pieces > 1 || counts.get(strong, PieceKind::Rook) > 0) {
        // The usual case, settled without looking further: every rule below needs no useful pawn or at
        // most one strong piece that is not a rook.
        return Scale::NONE;
    }
    scale_by_rules(counts, strong, pieces, pawn)
}

/// [`scale`] once the quick test has not settled it: `pieces` is `strong`'s count of rooks, horses and
/// cannons and `pawn` whether it has a useful pawn.
#[inline(always)]
fn scale_by_rules(counts: &Counts, strong: Color, pieces: i32, pawn: bool) -> Scale {
    let weak = !strong;
    if pieces == 0 && !pawn {
        return Scale { factor: 0, rule: DrawRule::NoAttackers };
    }
    if pieces > 1 || counts.get(strong, PieceKind::Rook) > 0 {
        return pawnless_small_edge(counts, strong, pawn);
    }
    let defenders = |c: Color| counts.get(c, PieceKind::Advisor) + counts.get(c, PieceKind::Elephant);
    let all_pawns = counts.get(strong, PieceKind::Pawn);
    let lone_cannon = pieces == 1 && counts.get(strong, PieceKind::Cannon) == 1 && all_pawns == 0;
    if lone_cannon && defenders(strong) == 0 && defenders(weak) == 0 {
        return Scale { factor: 0, rule: DrawRule::LoneCannon };
    }
    let full_defence =
        counts.get(weak, PieceKind::Advisor) == 2 && counts.get(weak, PieceKind::Elephant) == 2;
    if pieces == 1 && counts.get(strong, PieceKind::Horse) == 1 && all_pawns <= 1 && full_defence {
        return Scale { factor: SCALE_MAX / 8, rule: DrawRule::HorsePawnVsFullDefence };
    }
    pawnless_small_edge(counts, strong, pawn)
}

fn pawnless_small_edge(counts: &Counts, strong: Color, pawn: bool) -> Scale {
    let weak = !strong;
    let edge = counts.strong_value(strong) - counts.strong_value(weak);
    if !pawn && counts.strong(weak) > 0 && edge <= crate::material::RULE_VALUES[PieceKind::Horse.index()] {
        Scale { factor: SCALE_MAX / 2, rule: DrawRule::PawnlessSmallEdge }
    } else {
        Scale::NONE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Evaluator;
    use engine::Evaluate;

    fn scale_of(fen: &str, strong: Color) -> Scale {
        let pos = Position::from_fen(fen).unwrap();
        scale(&pos, &Counts::of(&pos), strong)
    }

    fn eval(fen: &str) -> i32 {
        Evaluator::default().evaluate(&Position::from_fen(fen).unwrap())
    }

    #[test]
    fn no_attackers_is_a_dead_draw() {
        // Kings, advisors and elephants only: nobody can ever attack.
        let fen = "2bakab2/9/9/9/9/9/9/9/4A4/3AK1B2 w - - 0 1";
        assert_eq!(eval(fen), 0);
        assert_eq!(scale_of(fen, Color::Black).rule, DrawRule::NoAttackers);
        // An old pawn on the last rank does not help (老卒无功): Red is up a pawn and two advisors but
        // cannot win.
        let old_pawn = "3k1P3/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1";
        assert_eq!(scale_of(old_pawn, Color::Red).rule, DrawRule::NoAttackers);
        assert_eq!(eval(old_pawn), 0);
    }

    #[test]
    fn lone_cannon_cannot_mate() {
        let fen = "4k4/9/9/9/9/9/9/4C4/9/3K5 w - - 0 1";
        assert_eq!(scale_of(fen, Color::Red).rule, DrawRule::LoneCannon);
        assert_eq!(eval(fen), 0);
        // With an advisor to screen for it, the cannon can mate a bare king: no scaling.
        let with_advisor = "4k4/9/9/9/9/9/9/4C4/4A4/3K5 w - - 0 1";
        assert_eq!(scale_of(with_advisor, Color::Red), Scale::NONE);
        assert!(eval(with_advisor) > 300);
        // Against two advisors the defender's own advisor can be the screen: not scaled.
        let against_advisors = "3ak4/4a4/9/9/9/9/9/1C7/9/3K5 w - - 0 1";
        assert_eq!(scale_of(against_advisors, Color::Red), Scale::NONE);
    }

    #[test]
    fn horse_and_pawn_cannot_break_full_defence() {
        let fen = "2bakab2/9/9/4P4/9/9/9/4N4/9/4K4 w - - 0 1";
        assert_eq!(scale_of(fen, Color::Red).rule, DrawRule::HorsePawnVsFullDefence);
        assert!(eval(fen).abs() < 40);
        // Missing one elephant, the defence can break: no scaling.
        let broken = "3akab2/9/9/4P4/9/9/9/4N4/9/4K4 w - - 0 1";
        assert_eq!(scale_of(broken, Color::Red), Scale::NONE);
    }

    #[test]
    fn lone_rook_beats_full_advisors_and_elephants() {
        let fen = "2bakab2/9/9/9/9/9/9/9/9/R2K5 w - - 0 1";
        assert_eq!(scale_of(fen, Color::Red), Scale::NONE);
        assert!(eval(fen) > 100, "a rook against full defence is winning for the rook");
    }

    #[test]
    fn pawnless_small_edge_is_scaled() {
        // Rook against horse and two advisors: the rook side is ahead but rarely wins.
        let fen = "3akn3/4a4/9/9/9/9/9/9/9/R3K4 w - - 0 1";
        assert_eq!(scale_of(fen, Color::Red).rule, DrawRule::PawnlessSmallEdge);
        // A pawn that can still advance keeps the winning chances.
        let with_pawn = "3akn3/4a4/9/9/4P4/9/9/9/9/R3K4 w - - 0 1";
        assert_eq!(scale_of(with_pawn, Color::Red), Scale::NONE);
    }
}
