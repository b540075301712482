//! The evaluation's terms by name: the vocabulary shared by the weight layout ([`crate::params`]), the
//! evaluator's switches and the trace. It depends on nothing else in the crate, so every module can name a
//! term without importing the code that computes or prints it.

/// One group of weights: a row of the trace, a switch of [`TermSet`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// The rules' value table.
    Material,
    /// Phase-dependent piece values (开局炮胜马，残局马胜炮).
    PieceValues,
    /// Combinations of strong pieces.
    Combinations,
    /// Piece-square tables (including the pawn's value by rank).
    PieceSquare,
    /// Missing defenders, the file in front of the king, cannons aimed at it.
    KingSafety,
    /// Attackers by the enemy palace.
    Attack,
    /// Rook, horse and cannon mobility.
    Mobility,
    /// Rooks on open files, horses on the edge.
    Placement,
    /// Advisors and elephants protecting each other.
    Defenders,
    /// The side to move.
    Tempo,
}

impl Term {
    /// Number of terms.
    pub const COUNT: usize = 10;
    /// Every term, in trace order.
    pub const ALL: [Term; Term::COUNT] = [
        Term::Material,
        Term::PieceValues,
        Term::Combinations,
        Term::PieceSquare,
        Term::KingSafety,
        Term::Attack,
        Term::Mobility,
        Term::Placement,
        Term::Defenders,
        Term::Tempo,
    ];

    /// The row label.
    pub const fn name(self) -> &'static str {
        match self {
            Term::Material => "Material",
            Term::PieceValues => "Piece values",
            Term::Combinations => "Combinations",
            Term::PieceSquare => "Piece-square",
            Term::KingSafety => "King safety",
            Term::Attack => "Palace attack",
            Term::Mobility => "Mobility",
            Term::Placement => "Placement",
            Term::Defenders => "Defenders",
            Term::Tempo => "Tempo",
        }
    }
}

/// A set of [`Term`]s to evaluate.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TermSet(u16);

impl TermSet {
    /// Every term.
    pub const ALL: TermSet = TermSet((1 << Term::COUNT) - 1);
    /// Material (the rules' table and its phase shifts) and piece-square tables only.
    pub const MATERIAL_AND_PST: TermSet =
        TermSet(1 << Term::Material as u16 | 1 << Term::PieceValues as u16 | 1 << Term::PieceSquare as u16);

    /// Whether `term` is in the set.
    #[inline(always)]
    pub const fn contains(self, term: Term) -> bool {
        self.0 >> term as u16 & 1 != 0
    }

    /// The set with `term` added.
    pub const fn with(self, term: Term) -> TermSet {
        TermSet(self.0 | 1 << term as u16)
    }

    /// The set with `term` removed.
    pub const fn without(self, term: Term) -> TermSet {
        TermSet(self.0 & !(1 << term as u16))
    }
}
