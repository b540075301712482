//! The network's inputs. Two feature sets share one layout of 1260 inputs per king view:
//!
//! - [`FeatureSet::PieceSquare`] (the built-in network's): one feature per (piece kind, colour relative to
//!   the perspective, square seen from the perspective).
//! - [`FeatureSet::KingBuckets`]: the same 1260, once per *bucket* of the perspective's own king — so a
//!   rook on d7 can weigh differently when the king has climbed to the palace's top rank.
//!
//! Black's perspective turns the board round (ranks flipped) and swaps colours, so both perspectives share
//! one weight matrix and a position and its [`Position::flipped`] twin give the side to move the same
//! inputs.
//!
//! King buckets: seen from its perspective, a king stands on one of the palace's 9 points (files d-f,
//! ranks 0-2). A king on the d-file mirrors every square of that perspective left to right, so the king is
//! always on the e- or f-file; the 6 buckets are its rank × {e-file, side file}, and feature =
//! `bucket × 1260 + (kind × 2 + theirs) × 90 + square` (the square mirrored when the king is on the d-file).
//! Only a king's own moves change its perspective's [`View`] (kings are never captured), so the other
//! perspective keeps updating incrementally. Bucketing also by the enemy king's side was left out: it
//! doubles the weights again and a first king-bucket net should show whether the own king pays at all.

use engine::{Color, Piece, PieceKind, Position, Square};
use std::fmt;
use std::str::FromStr;

/// Input features per king view: 7 kinds × 2 relative colours × 90 squares (the piece-square set's
/// whole input layer).
pub const INPUTS: usize = PieceKind::NUM * 2 * Square::NUM;

/// Most pieces on a board, hence most active features per perspective.
pub const MAX_ACTIVE: usize = 32;

/// King buckets of [`FeatureSet::KingBuckets`]: palace rank × {e-file, side file}.
pub const KING_BUCKETS: usize = 6;

/// Distinct [`View`]s over all feature sets (their [`View::slot`]s are below it): bucket × mirrored.
pub const VIEW_SLOTS: usize = KING_BUCKETS * 2;

/// Which inputs a network has.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum FeatureSet {
    /// Piece kind × relative colour × square (1260 inputs): net 1 and net 2, format version 1.
    #[default]
    PieceSquare,
    /// The same per bucket of the perspective's own king, mirrored to the e-side (7560 inputs).
    KingBuckets,
}

impl FeatureSet {
    /// Every set.
    pub const ALL: [FeatureSet; 2] = [FeatureSet::PieceSquare, FeatureSet::KingBuckets];

    /// Input features per perspective.
    pub const fn inputs(self) -> usize {
        match self {
            FeatureSet::PieceSquare => INPUTS,
            FeatureSet::KingBuckets => KING_BUCKETS * INPUTS,
        }
    }

    /// The number a network file names the set by.
    pub const fn id(self) -> u32 {
        match self {
            FeatureSet::PieceSquare => 0,
            FeatureSet::KingBuckets => 1,
        }
    }

    /// The set a network file's number names.
    pub fn from_id(id: u32) -> Option<FeatureSet> {
        FeatureSet::ALL.into_iter().find(|s| s.id() == id)
    }

    /// Its name on command lines (`piecesquare`, `kingbuckets`).
    pub const fn name(self) -> &'static str {
        match self {
            FeatureSet::PieceSquare => "piecesquare",
            FeatureSet::KingBuckets => "kingbuckets",
        }
    }

    /// How `perspective` indexes its features while its own king stands on `king` (a board square).
    #[inline(always)]
    pub fn view(self, perspective: Color, king: Square) -> View {
        match self {
            FeatureSet::PieceSquare => View::PLAIN,
            FeatureSet::KingBuckets => king_view(relative(perspective, king)),
        }
    }

    /// The view of a perspective whose piece-square features are `plain` (its own king among them).
    pub fn view_of_plain(self, plain: &[usize]) -> View {
        const OWN_KING: usize = PieceKind::King.index() * 2;
        match self {
            FeatureSet::PieceSquare => View::PLAIN,
            FeatureSet::KingBuckets => plain
                .iter()
                .find(|&&f| f / Square::NUM == OWN_KING)
                .and_then(|&f| Square::new((f % Square::NUM) as u8))
                .map_or(View::PLAIN, king_view),
        }
    }
}

impl fmt::Display for FeatureSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A feature set name that is not one of [`FeatureSet::ALL`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureSetParseError(pub String);

impl fmt::Display for FeatureSetParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a feature set (piecesquare, kingbuckets)", self.0)
    }
}

impl std::error::Error for FeatureSetParseError {}

impl FromStr for FeatureSet {
    type Err = FeatureSetParseError;
    fn from_str(s: &str) -> Result<FeatureSet, FeatureSetParseError> {
        FeatureSet::ALL.into_iter().find(|f| f.name() == s).ok_or_else(|| FeatureSetParseError(s.to_string()))
    }
}

/// How one perspective indexes its features: where its bucket's 1260 rows start and whether squares are
/// mirrored left to right.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct View {
    base: usize,
    mirror: bool,
}

impl View {
    /// The piece-square set's only view.
    pub const PLAIN: View = View { base: 0, mirror: false };

    /// A number below [`VIEW_SLOTS`] naming the view (the refresh cache keeps one entry per slot).
    #[inline(always)]
    pub fn slot(self) -> usize {
        self.base / INPUTS * 2 + self.mirror as usize
    }

    /// Its king bucket (0 for the piece-square set).
    pub fn bucket(self) -> usize {
        self.base / INPUTS
    }

    /// Whether it mirrors squares left to right.
    pub fn mirrored(self) -> bool {
        self.mirror
    }

    /// The feature of a piece-square feature `plain` (already relative to the perspective) in this view.
    #[inline(always)]
    pub fn rebase(self, plain: usize) -> usize {
        let (group, sq) = (plain / Square::NUM, plain % Square::NUM);
        self.base + group * Square::NUM + SQUARES[0][self.mirror as usize][sq] as usize
    }
}

/// The view of a king on `king`, a square already seen from its perspective. A king outside the palace
/// (no legal position has one) counts as on its nearest palace rank and a side file.
#[inline(always)]
fn king_view(king: Square) -> View {
    let (file, rank) = (king.file(), king.rank().min(2) as usize);
    let bucket = rank * 2 + (file != 4) as usize;
    View { base: bucket * INPUTS, mirror: file < 4 }
}

/// `sq` seen from `perspective`.
#[inline(always)]
fn relative(perspective: Color, sq: Square) -> Square {
    match perspective {
        Color::Red => sq,
        Color::Black => sq.flip_rank(),
    }
}

/// `[perspective][mirrored][square]`: the square's index in the feature layout.
static SQUARES: [[[u8; Square::NUM]; 2]; 2] = square_table();

const fn square_table() -> [[[u8; Square::NUM]; 2]; 2] {
    let mut t = [[[0u8; Square::NUM]; 2]; 2];
    let mut i = 0;
    while i < Square::NUM {
        let (file, rank) = (i % 9, i / 9);
        let flipped = (9 - rank) * 9 + file;
        t[0][0][i] = i as u8;
        t[0][1][i] = (rank * 9 + 8 - file) as u8;
        t[1][0][i] = flipped as u8;
        t[1][1][i] = ((9 - rank) * 9 + 8 - file) as u8;
        i += 1;
    }
    t
}

/// The piece-square feature index of `piece` on `sq` seen by `perspective`.
#[inline(always)]
pub fn index(perspective: Color, piece: Piece, sq: Square) -> usize {
    index_in(View::PLAIN, perspective, piece, sq)
}

/// The feature index of `piece` on `sq` seen by `perspective` in `view`.
#[inline(always)]
pub fn index_in(view: View, perspective: Color, piece: Piece, sq: Square) -> usize {
    let theirs = (piece.color() != perspective) as usize;
    let sq = SQUARES[perspective.index()][view.mirror as usize][sq.index()] as usize;
    view.base + (piece.kind().index() * 2 + theirs) * Square::NUM + sq
}

/// The active piece-square features of `pos` seen by `perspective`, in square order.
pub fn active(pos: &Position, perspective: Color) -> impl Iterator<Item = usize> + '_ {
    active_in(FeatureSet::PieceSquare, pos, perspective)
}

/// The active features of `set` in `pos` seen by `perspective`, in square order.
pub fn active_in(set: FeatureSet, pos: &Position, perspective: Color) -> impl Iterator<Item = usize> + '_ {
    let view = set.view(perspective, pos.king_square(perspective));
    pos.occupied().filter_map(move |sq| pos.piece_at(sq).map(|p| index_in(view, perspective, p, sq)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_cover_the_input_range_once() {
        let mut seen = vec![false; INPUTS];
        for perspective in Color::ALL {
            seen.iter_mut().for_each(|s| *s = false);
            for piece in Piece::ALL {
                for sq in Square::all() {
                    let i = index(perspective, piece, sq);
                    assert!(!seen[i], "{piece:?} {sq:?} collides");
                    seen[i] = true;
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn flipped_position_gives_the_mover_the_same_inputs() {
        for pos in crate::testing::positions() {
            let flipped = pos.flipped();
            let sorted = |p: &Position, c: Color| {
                let mut v: Vec<usize> = active(p, c).collect();
                v.sort_unstable();
                v
            };
            let (us, them) = (pos.side_to_move(), !pos.side_to_move());
            assert_eq!(sorted(&pos, us), sorted(&flipped, !us), "{pos:?}");
            assert_eq!(sorted(&pos, them), sorted(&flipped, !them), "{pos:?}");
        }
    }

    #[test]
    fn mirrored_position_mirrors_each_feature() {
        // Features keep files as they are, so mirroring the board maps each feature to the one on the
        // mirrored square: the trainer may double its data by mirroring.
        let mirror = |i: usize| {
            let (rest, sq) = (i / Square::NUM, i % Square::NUM);
            rest * Square::NUM + Square::new(sq as u8).map_or(0, |s| s.mirror_file().index())
        };
        for pos in crate::testing::positions().into_iter().take(300) {
            for c in Color::ALL {
                let mut a: Vec<usize> = active(&pos, c).map(mirror).collect();
                let mut b: Vec<usize> = active(&pos.mirrored(), c).collect();
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(a, b);
            }
        }
    }

    fn sorted(it: impl Iterator<Item = usize>) -> Vec<usize> {
        let mut v: Vec<usize> = it.collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn every_king_view_indexes_its_own_block_once() {
        // For each palace point of the own king, the features of every piece on every square are distinct
        // and inside the bucket's block; d-file and f-file kings share a block, mirrored.
        for perspective in Color::ALL {
            for file in 3..=5 {
                for rank in 0..=2 {
                    let king = Square::from_file_rank(file, rank).unwrap();
                    let king = if perspective == Color::Black { king.flip_rank() } else { king };
                    let view = FeatureSet::KingBuckets.view(perspective, king);
                    assert_eq!(view.bucket(), rank as usize * 2 + (file != 4) as usize);
                    assert_eq!(view.mirrored(), file == 3);
                    assert!(view.slot() < VIEW_SLOTS);
                    let mut seen = vec![false; INPUTS];
                    for piece in Piece::ALL {
                        for sq in Square::all() {
                            let i = index_in(view, perspective, piece, sq);
                            assert_eq!(i / INPUTS, view.bucket());
                            assert!(!seen[i % INPUTS], "{piece:?} {sq:?} collides");
                            seen[i % INPUTS] = true;
                        }
                    }
                }
            }
        }
        assert_eq!(FeatureSet::KingBuckets.inputs(), KING_BUCKETS * INPUTS);
    }

    #[test]
    fn feature_sets_round_trip_through_their_names_and_ids() {
        for set in FeatureSet::ALL {
            assert_eq!(set.name().parse::<FeatureSet>(), Ok(set));
            assert_eq!(FeatureSet::from_id(set.id()), Some(set));
        }
        assert!("kings".parse::<FeatureSet>().is_err());
        assert_eq!(FeatureSet::from_id(7), None);
    }

    #[test]
    fn king_bucket_features_come_from_the_piece_square_ones() {
        // The trainer stores piece-square features and derives the king-bucket ones; both roads must meet.
        for pos in crate::testing::positions() {
            for c in Color::ALL {
                let plain: Vec<usize> = active(&pos, c).collect();
                let view = FeatureSet::KingBuckets.view_of_plain(&plain);
                assert_eq!(view, FeatureSet::KingBuckets.view(c, pos.king_square(c)));
                assert_eq!(
                    sorted(plain.iter().map(|&f| view.rebase(f))),
                    sorted(active_in(FeatureSet::KingBuckets, &pos, c)),
                    "{pos:?}"
                );
            }
        }
    }

    #[test]
    fn king_buckets_give_a_flipped_position_the_same_inputs() {
        for pos in crate::testing::positions() {
            let flipped = pos.flipped();
            for c in Color::ALL {
                let set = FeatureSet::KingBuckets;
                assert_eq!(sorted(active_in(set, &pos, c)), sorted(active_in(set, &flipped, !c)), "{pos:?}");
            }
        }
    }

    #[test]
    fn king_buckets_see_a_mirrored_position_alike_unless_the_king_is_on_the_e_file() {
        // Mirroring the board moves a d-file king to the f-file and back: the king-relative mirror then
        // gives that perspective the same features. An e-file king sees the mirrored board as new inputs
        // of the same bucket, which is why the trainer keeps mirroring positions at random.
        let set = FeatureSet::KingBuckets;
        let mut both = [0; 2];
        for pos in crate::testing::positions() {
            let mirrored = pos.mirrored();
            for c in Color::ALL {
                let (a, b) = (sorted(active_in(set, &pos, c)), sorted(active_in(set, &mirrored, c)));
                if pos.king_square(c).file() == 4 {
                    let mirror_each =
                        |i: usize| i - i % INPUTS + View { base: 0, mirror: true }.rebase(i % INPUTS);
                    assert_eq!(sorted(a.iter().map(|&i| mirror_each(i))), b, "{pos:?}");
                    both[0] += 1;
                } else {
                    assert_eq!(a, b, "{pos:?}");
                    both[1] += 1;
                }
            }
        }
        assert!(both[0] > 0 && both[1] > 0, "{both:?}");
    }
}
