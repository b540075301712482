//! The quantised network: the inputs of its [`FeatureSet`] (1260, or 6 × 1260 with king buckets) →
//! `hidden` per perspective (i16, clipped ReLU) → one output read from [side to move's half, other half].
//!
//! Quantisation: the float network's input weights and hidden biases are multiplied by [`QA`] (so an
//! activation of 1.0 is `QA`), output weights by [`QB`], the output bias by `QA × QB`; the integer output
//! divided by `QA × QB` is the float output, and one unit of float output is [`OUTPUT_SCALE`] internal
//! units (one horse).

use super::features::{self, FeatureSet};
use super::simd;
use engine::evaluate::{EVAL_LIMIT, UNITS_PER_HORSE};
use engine::{Color, Position};

/// Scale of the input weights and hidden biases, and the clipped ReLU's ceiling.
pub const QA: i32 = 255;
/// Scale of the output weights.
pub const QB: i32 = 64;
/// Internal units per unit of the float network's output.
pub const OUTPUT_SCALE: i32 = UNITS_PER_HORSE;

/// A network ready to evaluate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    features: FeatureSet,
    hidden: usize,
    /// One row of `hidden` weights per input feature.
    input_weights: Vec<i16>,
    input_bias: Vec<i16>,
    /// The side to move's `hidden` weights, then the other side's.
    output_weights: Vec<i16>,
    output_bias: i32,
    /// FNV-1a of the network's file bytes: its identity.
    checksum: u64,
}

/// Why quantised parts do not make a network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShapeError {
    /// The hidden size is zero or not a multiple of 16 (the SIMD lanes).
    HiddenSize(usize),
    /// One part has the wrong number of values for the hidden size.
    PartLength {
        /// Which part.
        part: &'static str,
        /// Values found.
        len: usize,
        /// Values expected.
        want: usize,
    },
}

impl std::fmt::Display for ShapeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShapeError::HiddenSize(hidden) => {
                write!(f, "hidden size {hidden} is not a positive multiple of 16")
            }
            ShapeError::PartLength { part, len, want } => write!(f, "{part}: {len} values, {want} expected"),
        }
    }
}

impl std::error::Error for ShapeError {}

impl Network {
    /// A network from its quantised parts; the error names the part whose length does not fit `hidden`
    /// and the inputs of `features`.
    pub fn from_parts(
        features: FeatureSet,
        hidden: usize,
        input_weights: Vec<i16>,
        input_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: i32,
    ) -> Result<Network, ShapeError> {
        if hidden == 0 || !hidden.is_multiple_of(16) {
            return Err(ShapeError::HiddenSize(hidden));
        }
        for (part, len, want) in [
            ("input weights", input_weights.len(), features.inputs() * hidden),
            ("hidden biases", input_bias.len(), hidden),
            ("output weights", output_weights.len(), 2 * hidden),
        ] {
            if len != want {
                return Err(ShapeError::PartLength { part, len, want });
            }
        }
        let mut net =
            Network { features, hidden, input_weights, input_bias, output_weights, output_bias, checksum: 0 };
        let bytes = super::file::to_bytes(&net);
        net.checksum = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().unwrap_or([0; 8]));
        Ok(net)
    }

    /// Neurons per perspective.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Its inputs.
    #[inline(always)]
    pub fn features(&self) -> FeatureSet {
        self.features
    }

    /// The checksum its file carries: names the network (`chuhan-<first 8 hex digits>.nnue`).
    pub fn checksum(&self) -> u64 {
        self.checksum
    }

    /// The quantised parts: input weights, hidden biases, output weights, output bias.
    pub fn parts(&self) -> (&[i16], &[i16], &[i16], i32) {
        (&self.input_weights, &self.input_bias, &self.output_weights, self.output_bias)
    }

    /// The input weights of every feature, row after row.
    #[inline(always)]
    pub(super) fn input_weights(&self) -> &[i16] {
        &self.input_weights
    }

    /// The score for the side to move, internal units, from the side to move's and the other side's
    /// accumulators.
    #[inline]
    pub fn output(&self, us: &[i16], them: &[i16]) -> i32 {
        let (w_us, w_them) = self.output_weights.split_at(self.hidden);
        let raw = simd::output(us, them, w_us, w_them).wrapping_add(self.output_bias);
        let units = raw as i64 * OUTPUT_SCALE as i64 / (QA * QB) as i64;
        units.clamp(-(EVAL_LIMIT as i64 - 1), EVAL_LIMIT as i64 - 1) as i32
    }

    /// `perspective`'s accumulator for `pos`, computed from scratch into `out`.
    pub fn refresh(&self, pos: &Position, perspective: Color, out: &mut [i16]) {
        let mut active = [0usize; features::MAX_ACTIVE];
        let mut n = 0;
        for f in features::active_in(self.features, pos, perspective) {
            if n < active.len() {
                active[n] = f;
                n += 1;
            }
        }
        simd::update(out, &self.input_bias, &self.input_weights, self.hidden, &active[..n], &[]);
    }

    /// The score for the side to move, internal units, from the active features of each perspective
    /// (the trainer's view of a position).
    pub fn evaluate_active(&self, us: &[usize], them: &[usize]) -> i32 {
        let mut acc_us = vec![0i16; self.hidden];
        let mut acc_them = vec![0i16; self.hidden];
        simd::update(&mut acc_us, &self.input_bias, &self.input_weights, self.hidden, us, &[]);
        simd::update(&mut acc_them, &self.input_bias, &self.input_weights, self.hidden, them, &[]);
        self.output(&acc_us, &acc_them)
    }

    /// The score of `pos` for the side to move, computed from scratch.
    pub fn evaluate_from_scratch(&self, pos: &Position) -> i32 {
        let mut us = vec![0i16; self.hidden];
        let mut them = vec![0i16; self.hidden];
        self.refresh(pos, pos.side_to_move(), &mut us);
        self.refresh(pos, !pos.side_to_move(), &mut them);
        self.output(&us, &them)
    }

    /// A piece-square network with random weights of about the trained size (for tests and benchmarks).
    pub fn random(hidden: usize, seed: u64) -> Network {
        Network::random_with(FeatureSet::PieceSquare, hidden, seed)
    }

    /// A network of `features` with random weights of about the trained size.
    pub fn random_with(features: FeatureSet, hidden: usize, seed: u64) -> Network {
        let hidden = hidden.max(16) / 16 * 16;
        let mut rng = engine::random::Rng::new(seed);
        let mut draw = |n: usize, span: i64| -> Vec<i16> {
            (0..n).map(|_| ((rng.next_u64() % (2 * span as u64 + 1)) as i64 - span) as i16).collect()
        };
        let input_weights = draw(features.inputs() * hidden, 120);
        let input_bias = draw(hidden, 120);
        let output_weights = draw(2 * hidden, 100);
        Network::from_parts(features, hidden, input_weights, input_bias, output_weights, 1234)
            .unwrap_or_else(|_| Network::zero(hidden))
    }

    /// A piece-square network of zero weights (scores every position 0).
    pub fn zero(hidden: usize) -> Network {
        let hidden = hidden.max(16) / 16 * 16;
        let inputs = FeatureSet::PieceSquare.inputs();
        Network::from_parts(
            FeatureSet::PieceSquare,
            hidden,
            vec![0; inputs * hidden],
            vec![0; hidden],
            vec![0; 2 * hidden],
            0,
        )
        .expect("zero parts have the lengths of their shape")
    }
}
