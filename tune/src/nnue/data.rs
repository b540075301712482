//! Training samples for the network, read from game files: each position `gamefile::training_positions`
//! keeps becomes its active features (side to move's perspective), the search score and the result.
//! Positions are grouped by game so that the validation split never shares a game with training.

use crate::gamefile::{self, GameFileError, GameRecord};
use engine::{PieceKind, Square};
use eval::nnue::features::{self, INPUTS, MAX_ACTIVE};
use rayon::prelude::*;
use std::path::Path;

/// Marks an unused feature slot.
const NO_FEATURE: u16 = u16::MAX;

/// Samples in struct-of-arrays form (a few tens of bytes each, so millions fit in memory).
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// [`MAX_ACTIVE`] slots per sample: the side to move's active features, then [`NO_FEATURE`].
    features: Vec<u16>,
    /// The mover's search score, internal units.
    pub scores: Vec<f32>,
    /// The game's result for the mover: 1, ½ or 0.
    pub results: Vec<f32>,
    /// The index of the game each sample comes from (over all files read).
    pub games: Vec<u32>,
}

impl Dataset {
    /// Samples held.
    pub fn len(&self) -> usize {
        self.scores.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }

    /// The side to move's active features of sample `i`.
    pub fn features(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.features[i * MAX_ACTIVE..(i + 1) * MAX_ACTIVE]
            .iter()
            .take_while(|&&f| f != NO_FEATURE)
            .map(|&f| f as usize)
    }

    /// Appends the training positions of `games`, numbering them from `first_game`.
    pub fn add_games(&mut self, games: &[GameRecord], first_game: u32) {
        let per_game: Vec<Vec<([u16; MAX_ACTIVE], f32, f32)>> = games
            .par_iter()
            .map(|game| {
                gamefile::training_positions(game)
                    .into_iter()
                    .map(|tp| {
                        let mut slots = [NO_FEATURE; MAX_ACTIVE];
                        for (slot, f) in
                            slots.iter_mut().zip(features::active(&tp.pos, tp.pos.side_to_move()))
                        {
                            *slot = f as u16;
                        }
                        (slots, tp.score as f32, tp.result)
                    })
                    .collect()
            })
            .collect();
        for (g, samples) in per_game.into_iter().enumerate() {
            for (slots, score, result) in samples {
                self.features.extend_from_slice(&slots);
                self.scores.push(score);
                self.results.push(result);
                self.games.push(first_game + g as u32);
            }
        }
    }

    /// Reads every complete game of the files at `paths`.
    pub fn read(paths: &[impl AsRef<Path>]) -> Result<(Dataset, usize), GameFileError> {
        let mut data = Dataset::default();
        let mut games = 0;
        for path in paths {
            let records = gamefile::read_games(path.as_ref())?;
            data.add_games(&records, games as u32);
            games += records.len();
        }
        Ok((data, games))
    }

    /// Splits into (training, validation): a game goes to validation with probability `fraction`,
    /// decided by a hash of its number and `seed`.
    pub fn split(&self, fraction: f64, seed: u64) -> (Dataset, Dataset) {
        let (mut train, mut valid) = (Dataset::default(), Dataset::default());
        let threshold = (fraction.clamp(0.0, 1.0) * u32::MAX as f64) as u64;
        for i in 0..self.len() {
            let to = if (mix(self.games[i] as u64 ^ seed.rotate_left(17)) >> 32) < threshold {
                &mut valid
            } else {
                &mut train
            };
            to.features.extend_from_slice(&self.features[i * MAX_ACTIVE..(i + 1) * MAX_ACTIVE]);
            to.scores.push(self.scores[i]);
            to.results.push(self.results[i]);
            to.games.push(self.games[i]);
        }
        (train, valid)
    }
}

/// A 64-bit mixer (the splitmix64 finaliser): spreads a counter into well-distributed bits.
pub fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Feature maps between views of the same position.
pub struct FeatureMaps {
    /// The same piece seen from the other perspective (colours swapped, ranks flipped).
    pub other: Vec<u16>,
    /// The same piece on the mirrored file (the board mirrored left to right).
    pub mirror: Vec<u16>,
}

impl FeatureMaps {
    /// The tables, derived from the feature layout `(kind × 2 + theirs) × 90 + square`.
    pub fn new() -> FeatureMaps {
        let mut other = vec![0; INPUTS];
        let mut mirror = vec![0; INPUTS];
        for f in 0..INPUTS {
            let (group, sq) = (f / Square::NUM, f % Square::NUM);
            let (kind, theirs) = (group / 2, group % 2);
            debug_assert!(kind < PieceKind::NUM);
            let sq = Square::new(sq as u8).unwrap_or_else(|| unreachable!("square index below 90"));
            other[f] = ((kind * 2 + (1 - theirs)) * Square::NUM + sq.flip_rank().index()) as u16;
            mirror[f] = (group * Square::NUM + sq.mirror_file().index()) as u16;
        }
        FeatureMaps { other, mirror }
    }
}

impl Default for FeatureMaps {
    fn default() -> Self {
        FeatureMaps::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{Color, Position};

    #[test]
    fn the_other_perspective_map_matches_the_engine_features() {
        let maps = FeatureMaps::new();
        let pos =
            Position::from_fen("rnbakab1r/9/1c5cn/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w").unwrap();
        for us in Color::ALL {
            let mut mapped: Vec<usize> = features::active(&pos, us).map(|f| maps.other[f] as usize).collect();
            let mut direct: Vec<usize> = features::active(&pos, !us).collect();
            mapped.sort_unstable();
            direct.sort_unstable();
            assert_eq!(mapped, direct);
        }
    }
}
