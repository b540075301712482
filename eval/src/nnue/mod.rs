//! The learned evaluation (NNUE: an efficiently updatable neural network).
//!
//! - [`features`]: what the network sees — each piece by kind, colour relative to the perspective and
//!   square, from both sides' points of view (1260 inputs each), optionally once per bucket of the
//!   perspective's own king (king buckets, 6 × 1260).
//! - [`network`]: the quantised weights and the output; [`file`]: the file format and its checks.
//! - [`accumulator`]: the per-search-thread state, updated move by move along the search's line;
//!   [`refresh`]: its cache of accumulators by king view, which makes king-bucket refreshes cheap.
//! - [`simd`]: the inner loops, portable, AVX2 (picked at run time) and NEON (aarch64), identical results.
//!
//! [`Nnue`] is the [`Evaluate`] implementation; [`embedded`] is the network built into the binary.

pub mod accumulator;
pub mod features;
pub mod file;
pub mod network;
pub mod refresh;
pub mod simd;

pub use accumulator::Accumulators;
pub use features::FeatureSet;
pub use file::LoadError;
pub use network::Network;

use engine::{Evaluate, Position};
use once_cell::sync::Lazy;
use std::sync::Arc;

/// The file name of the built-in network (in `eval/nets/`); the hex digits are the top half of its
/// checksum.
#[macro_export]
#[doc(hidden)]
macro_rules! default_net_name {
    () => {
        "chuhan-c42c3947.nnue"
    };
}

/// The file name of the built-in network.
pub const EMBEDDED_NAME: &str = default_net_name!();

/// The bytes of the built-in network file.
pub static EMBEDDED_BYTES: &[u8] =
    include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/nets/", default_net_name!()));

static EMBEDDED: Lazy<Arc<Network>> = Lazy::new(|| {
    Arc::new(file::from_bytes(EMBEDDED_BYTES).expect("the built-in network is valid (a test checks it)"))
});

/// The built-in network.
pub fn embedded() -> Arc<Network> {
    Arc::clone(&EMBEDDED)
}

/// The network in the file at `path`, or the built-in one when there is no path.
pub fn network_from(path: Option<&std::path::Path>) -> Result<Arc<Network>, LoadError> {
    match path {
        Some(path) => file::load(path).map(Arc::new),
        None => Ok(embedded()),
    }
}

/// The network evaluator: shares one network between threads; each search thread keeps its own
/// [`Accumulators`].
#[derive(Clone, Debug)]
pub struct Nnue {
    net: Arc<Network>,
}

impl Nnue {
    /// An evaluator with `net`.
    pub fn new(net: Arc<Network>) -> Nnue {
        Nnue { net }
    }

    /// The network it evaluates with.
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }
}

impl Default for Nnue {
    /// The built-in network.
    fn default() -> Nnue {
        Nnue::new(embedded())
    }
}

impl Evaluate for Nnue {
    type State = Accumulators;

    fn new_state(&self) -> Accumulators {
        Accumulators::new()
    }

    #[inline]
    fn evaluate_with(&self, pos: &Position, state: &mut Accumulators) -> i32 {
        state.evaluate(&self.net, pos)
    }

    fn evaluate(&self, pos: &Position) -> i32 {
        self.net.evaluate_from_scratch(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::random::Rng;

    #[test]
    fn embedded_network_loads_and_its_name_carries_its_checksum() {
        let net = file::from_bytes(EMBEDDED_BYTES).expect("built-in network");
        assert_eq!(EMBEDDED_NAME, format!("chuhan-{:08x}.nnue", net.checksum() >> 32));
        assert_eq!(file::to_bytes(&net), EMBEDDED_BYTES);
    }

    #[test]
    fn a_position_and_its_flipped_twin_score_the_same_for_the_mover() {
        let net = Network::random(128, 3);
        for pos in crate::testing::positions() {
            assert_eq!(net.evaluate_from_scratch(&pos), net.evaluate_from_scratch(&pos.flipped()), "{pos:?}");
        }
    }

    #[test]
    fn incremental_updates_equal_a_refresh_after_every_move() {
        let net = Network::random(128, 9);
        let nnue = Nnue::new(Arc::new(net.clone()));
        let mut rng = Rng::new(17);
        let mut state = nnue.new_state();
        for _ in 0..40 {
            let mut pos = Position::startpos();
            for _ in 0..160 {
                assert_eq!(nnue.evaluate_with(&pos, &mut state), net.evaluate_from_scratch(&pos), "{pos:?}");
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Now and then a null move, and now and then a step back, as the search does.
                match rng.below(10) {
                    0 if !pos.in_check() => {
                        pos.make_null_move();
                        assert_eq!(nnue.evaluate_with(&pos, &mut state), net.evaluate_from_scratch(&pos));
                        pos.unmake_null_move();
                    }
                    1 if !pos.history().is_empty() => pos.unmake_move(),
                    _ => pos.make_move(moves[rng.below(moves.len())]),
                }
            }
        }
    }

    /// Random games that move a king whenever one can (every third move), with null moves and steps
    /// back as the search makes them, checking the incremental score against a fresh one at every ply.
    /// Returns how many king moves changed their perspective's bucket and how many crossed the mirror line.
    fn check_incremental_along_random_lines(net: &Network, seed: u64, games: usize) -> (usize, usize) {
        let nnue = Nnue::new(Arc::new(net.clone()));
        let mut rng = Rng::new(seed);
        let mut state = nnue.new_state();
        let (mut buckets, mut mirrors) = (0, 0);
        for _ in 0..games {
            let mut pos = Position::startpos();
            for _ in 0..160 {
                assert_eq!(nnue.evaluate_with(&pos, &mut state), net.evaluate_from_scratch(&pos), "{pos:?}");
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let us = pos.side_to_move();
                let king_moves: Vec<_> =
                    moves.iter().copied().filter(|m| m.from() == pos.king_square(us)).collect();
                match rng.below(10) {
                    0 if !pos.in_check() => {
                        pos.make_null_move();
                        assert_eq!(nnue.evaluate_with(&pos, &mut state), net.evaluate_from_scratch(&pos));
                        pos.unmake_null_move();
                    }
                    1 if !pos.history().is_empty() => pos.unmake_move(),
                    2..=4 if !king_moves.is_empty() => {
                        let m = king_moves[rng.below(king_moves.len())];
                        let set = FeatureSet::KingBuckets;
                        let (a, b) = (set.view(us, m.from()), set.view(us, m.to()));
                        buckets += (a.bucket() != b.bucket()) as usize;
                        mirrors += (a.mirrored() != b.mirrored()) as usize;
                        pos.make_move(m);
                    }
                    _ => pos.make_move(moves[rng.below(moves.len())]),
                }
            }
        }
        (buckets, mirrors)
    }

    #[test]
    fn king_bucket_incremental_updates_equal_a_refresh_across_buckets_and_the_mirror() {
        for hidden in [128, 256] {
            let net = Network::random_with(FeatureSet::KingBuckets, hidden, 11);
            let (buckets, mirrors) = check_incremental_along_random_lines(&net, 31, 30);
            assert!(buckets > 100 && mirrors > 100, "{buckets} bucket changes, {mirrors} mirror crossings");
        }
    }

    #[test]
    fn piece_square_incremental_updates_equal_a_refresh_with_kings_on_the_move() {
        check_incremental_along_random_lines(&Network::random(128, 12), 37, 20);
    }

    #[test]
    fn the_simd_loops_score_game_positions_as_the_portable_ones_do() {
        // The built-in network's own weights, and a king-bucket network's random ones, on positions of
        // random games, captures included: where this CPU has a SIMD version (AVX2, NEON) the network's
        // loops are it, and they must give the portable loops' accumulators and sums exactly.
        for net in [embedded(), Arc::new(Network::random_with(FeatureSet::KingBuckets, 256, 5))] {
            simd_matches_portable(&net);
        }
    }

    fn simd_matches_portable(net: &Network) {
        let (weights, biases, output_weights, _) = net.parts();
        let hidden = net.hidden();
        let (w_us, w_them) = output_weights.split_at(hidden);
        let mut rng = Rng::new(23);
        for _ in 0..12 {
            let mut pos = Position::startpos();
            for _ in 0..120 {
                let mut accumulators = [vec![0i16; hidden], vec![0i16; hidden]];
                for (acc, perspective) in
                    accumulators.iter_mut().zip([pos.side_to_move(), !pos.side_to_move()])
                {
                    net.refresh(&pos, perspective, acc);
                    let active: Vec<usize> = features::active_in(net.features(), &pos, perspective).collect();
                    let mut portable = vec![0i16; hidden];
                    simd::update_scalar(&mut portable, biases, weights, hidden, &active, &[]);
                    assert_eq!(*acc, portable, "accumulator of {perspective:?} in {pos:?}");
                }
                let [us, them] = &accumulators;
                let portable = simd::output_scalar(us, them, w_us, w_them);
                assert_eq!(simd::output(us, them, w_us, w_them), portable, "output sum of {pos:?}");
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.make_move(moves[rng.below(moves.len())]);
            }
        }
    }

    #[test]
    fn a_state_follows_a_change_of_network() {
        let (a, b) =
            (Nnue::new(Arc::new(Network::random(128, 1))), Nnue::new(Arc::new(Network::random(256, 2))));
        let pos = Position::startpos();
        let mut state = a.new_state();
        assert_eq!(a.evaluate_with(&pos, &mut state), a.evaluate(&pos));
        assert_eq!(b.evaluate_with(&pos, &mut state), b.evaluate(&pos));
        assert_ne!(a.evaluate(&pos), b.evaluate(&pos));
    }

    #[test]
    fn damaged_files_are_refused_with_their_reason() {
        let net = Network::random(32, 4);
        let good = file::to_bytes(&net);
        assert_eq!(file::from_bytes(&good).expect("round trip"), net);
        let err = |bytes: &[u8]| file::from_bytes(bytes).expect_err("must be refused");
        assert!(matches!(err(&good[..good.len() - 1]), LoadError::Truncated { .. }));
        assert!(matches!(err(&good[..20]), LoadError::Truncated { .. }));
        assert!(matches!(err(&good[..4]), LoadError::Truncated { .. }));
        let mut long = good.clone();
        long.push(0);
        assert!(matches!(err(&long), LoadError::TrailingData { .. }));
        let mut flipped = good.clone();
        flipped[1000] ^= 1;
        assert!(matches!(err(&flipped), LoadError::BadChecksum { .. }));
        let mut version = good.clone();
        version[8] = 3;
        assert!(matches!(err(&version), LoadError::WrongVersion(3)));
        let mut magic = good.clone();
        magic[0] = b'X';
        assert!(matches!(err(&magic), LoadError::NotANetwork));
        let mut shape = good;
        shape[16] = 17;
        assert!(matches!(err(&shape), LoadError::WrongShape(_)));
        let missing = file::load(std::path::Path::new("/nonexistent/chuhan.nnue"));
        assert!(matches!(missing, Err(LoadError::Missing(_))));
    }

    #[test]
    fn king_bucket_files_round_trip_and_bad_ones_are_refused() {
        let net = Network::random_with(FeatureSet::KingBuckets, 32, 6);
        let good = file::to_bytes(&net);
        assert_eq!(good.len(), file::file_len(FeatureSet::KingBuckets, 32));
        assert_eq!(u32::from_le_bytes(good[8..12].try_into().unwrap()), file::VERSION);
        assert_eq!(file::from_bytes(&good).expect("round trip"), net);
        let err = |bytes: &[u8]| file::from_bytes(bytes).expect_err("must be refused");
        let mut unknown = good.clone();
        unknown[12] = 9;
        assert!(matches!(err(&unknown), LoadError::UnknownFeatureSet(9)));
        // A king-bucket header over piece-square inputs: the shape does not fit the set.
        let mut shape = good.clone();
        shape[16..20].copy_from_slice(&(features::INPUTS as u32).to_le_bytes());
        assert!(matches!(err(&shape), LoadError::WrongShape(_)));
        assert!(matches!(err(&good[..14]), LoadError::Truncated { .. }));
        assert!(matches!(err(&good[..good.len() - 2]), LoadError::Truncated { .. }));
        let mut flipped = good.clone();
        flipped[5000] ^= 4;
        assert!(matches!(err(&flipped), LoadError::BadChecksum { .. }));
        // Piece-square networks keep format version 1; a version 2 file may hold one too.
        let plain = Network::random(32, 6);
        let v1 = file::to_bytes(&plain);
        assert_eq!(u32::from_le_bytes(v1[8..12].try_into().unwrap()), file::VERSION_1);
        let mut v2 = v1[..12].to_vec();
        v2[8] = 2;
        v2.extend_from_slice(&FeatureSet::PieceSquare.id().to_le_bytes());
        v2.extend_from_slice(&v1[12..v1.len() - 8]);
        let sum = engine::checksum::fnv1a(&v2);
        v2.extend_from_slice(&sum.to_le_bytes());
        let read = file::from_bytes(&v2).expect("a version 2 piece-square file");
        assert_eq!(read.features(), FeatureSet::PieceSquare);
        assert_eq!(read.parts(), plain.parts());
    }

    #[test]
    fn a_state_follows_a_change_of_feature_set() {
        let (a, b) = (
            Nnue::new(Arc::new(Network::random(128, 1))),
            Nnue::new(Arc::new(Network::random_with(FeatureSet::KingBuckets, 128, 1))),
        );
        let mut pos = Position::startpos();
        let mut state = a.new_state();
        for mv in ["h2e2", "h9g7", "e0e1"] {
            pos.try_play(mv).expect("legal");
            assert_eq!(a.evaluate_with(&pos, &mut state), a.evaluate(&pos));
            assert_eq!(b.evaluate_with(&pos, &mut state), b.evaluate(&pos));
        }
    }
}
