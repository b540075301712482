//! The float network the trainer fits — the same shape as `eval::nnue::Network`, for either feature set —
//! and its quantisation.
//!
//! Parameters live in one flat vector (so the optimiser and the gradient sums treat them alike):
//! input weights (one row of `hidden` per feature of the set), hidden biases, output weights (side to move's half,
//! then the other half), output bias. An activation of 1.0 is the clipped ReLU's ceiling, and one unit of
//! output is `OUTPUT_SCALE` internal units.

use eval::nnue::features::FeatureSet;
use eval::nnue::network::{Network, OUTPUT_SCALE, QA, QB};

/// Largest magnitude a weight may take, so that quantised values fit: `1.98 × QA` keeps 32 input rows
/// plus a bias inside an i16 accumulator, and `1.98 × QB` keeps output weights within ±127.
pub const WEIGHT_CLIP: f32 = 1.98;

/// The float network.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Its inputs.
    pub features: FeatureSet,
    /// Neurons per perspective.
    pub hidden: usize,
    /// Every parameter, laid out as the module doc says.
    pub params: Vec<f32>,
}

/// Where each block of parameters starts.
#[derive(Copy, Clone, Debug)]
pub struct Layout {
    /// Neurons per perspective.
    pub hidden: usize,
    /// Start of the hidden biases.
    pub b1: usize,
    /// Start of the output weights.
    pub w2: usize,
    /// Index of the output bias.
    pub b2: usize,
    /// Parameters in all.
    pub len: usize,
}

impl Layout {
    /// The layout for the inputs of `features` and `hidden` neurons per perspective.
    pub fn new(features: FeatureSet, hidden: usize) -> Layout {
        let b1 = features.inputs() * hidden;
        let w2 = b1 + hidden;
        let b2 = w2 + 2 * hidden;
        Layout { hidden, b1, w2, b2, len: b2 + 1 }
    }
}

impl Model {
    /// Small random weights from `seed` (uniform, the hidden layer scaled for ~30 active inputs).
    pub fn new(features: FeatureSet, hidden: usize, seed: u64) -> Model {
        let layout = Layout::new(features, hidden);
        let mut rng = engine::random::Rng::new(seed);
        let mut params = vec![0.0f32; layout.len];
        for (i, p) in params.iter_mut().enumerate() {
            let u = rng.unit() as f32 * 2.0 - 1.0;
            *p = if i < layout.b1 {
                u * 0.1
            } else if i < layout.w2 {
                0.1 + 0.1 * u
            } else if i < layout.b2 {
                u / (2.0 * hidden as f32).sqrt()
            } else {
                0.0
            };
        }
        Model { features, hidden, params }
    }

    /// The parameter layout.
    pub fn layout(&self) -> Layout {
        Layout::new(self.features, self.hidden)
    }

    /// The hidden layer's pre-activations for the active features `active`, into `out`.
    #[inline]
    pub fn hidden_sums(&self, active: impl Iterator<Item = usize>, out: &mut [f32]) {
        let l = self.layout();
        out.copy_from_slice(&self.params[l.b1..l.w2]);
        for f in active {
            let row = &self.params[f * l.hidden..(f + 1) * l.hidden];
            out.iter_mut().zip(row).for_each(|(o, w)| *o += w);
        }
    }

    /// The output (1.0 = `OUTPUT_SCALE` internal units) from the two perspectives' pre-activations.
    #[inline]
    pub fn output(&self, us: &[f32], them: &[f32]) -> f32 {
        let l = self.layout();
        let (w_us, w_them) = self.params[l.w2..l.b2].split_at(l.hidden);
        let dot = |h: &[f32], w: &[f32]| h.iter().zip(w).map(|(h, w)| h.clamp(0.0, 1.0) * w).sum::<f32>();
        dot(us, w_us) + dot(them, w_them) + self.params[l.b2]
    }

    /// The score for the side to move in internal units, from each perspective's active features.
    pub fn evaluate(&self, us: &[usize], them: &[usize]) -> f32 {
        let mut h_us = vec![0.0; self.hidden];
        let mut h_them = vec![0.0; self.hidden];
        self.hidden_sums(us.iter().copied(), &mut h_us);
        self.hidden_sums(them.iter().copied(), &mut h_them);
        self.output(&h_us, &h_them) * OUTPUT_SCALE as f32
    }

    /// Keeps every weight within ±[`WEIGHT_CLIP`] (the output bias is not clipped).
    pub fn clip(&mut self) {
        let b2 = self.layout().b2;
        self.params[..b2].iter_mut().for_each(|p| *p = p.clamp(-WEIGHT_CLIP, WEIGHT_CLIP));
    }

    /// The integer network: input weights and biases × QA, output weights × QB, output bias × QA·QB,
    /// rounded to nearest.
    pub fn quantise(&self) -> Network {
        let l = self.layout();
        let q16 = |x: f32, s: i32| (x * s as f32).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
        let w1 = self.params[..l.b1].iter().map(|&w| q16(w, QA)).collect();
        let b1 = self.params[l.b1..l.w2].iter().map(|&w| q16(w, QA)).collect();
        let w2 = self.params[l.w2..l.b2].iter().map(|&w| q16(w, QB)).collect();
        let b2 = (self.params[l.b2] * (QA * QB) as f32).round() as i32;
        Network::from_parts(self.features, self.hidden, w1, b1, w2, b2)
            .unwrap_or_else(|e| unreachable!("a model's parts always fit its shape: {e}"))
    }
}

/// Adam: per-parameter step sizes from running averages of the gradient and its square.
#[derive(Clone, Debug)]
pub struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    steps: i32,
}

impl Adam {
    /// First-moment decay.
    pub const BETA1: f32 = 0.9;
    /// Second-moment decay.
    pub const BETA2: f32 = 0.999;
    /// Keeps the step finite where the gradient has been zero.
    pub const EPSILON: f32 = 1e-8;

    /// State for `len` parameters.
    pub fn new(len: usize) -> Adam {
        Adam { m: vec![0.0; len], v: vec![0.0; len], steps: 0 }
    }

    /// One step of size `lr` against `grad`.
    pub fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32) {
        self.steps += 1;
        let c1 = 1.0 - Self::BETA1.powi(self.steps);
        let c2 = 1.0 - Self::BETA2.powi(self.steps);
        for (((p, g), m), v) in params.iter_mut().zip(grad).zip(&mut self.m).zip(&mut self.v) {
            *m = Self::BETA1 * *m + (1.0 - Self::BETA1) * g;
            *v = Self::BETA2 * *v + (1.0 - Self::BETA2) * g * g;
            *p -= lr * (*m / c1) / ((*v / c2).sqrt() + Self::EPSILON);
        }
    }
}
