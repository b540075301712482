//! The training loop: mini-batches, gradients in parallel, Adam, a validation loss per epoch.
//!
//! Each sample's prediction is `sigmoid(eval / K)` with the network's evaluation in internal units and
//! `sigmoid(x) = 1 / (1 + e^-x)`. Its target mixes the game's result with the search score:
//!
//! `target = λ · result + (1 − λ) · sigmoid(score / K)`
//!
//! (λ = 0 learns the search's scores alone, λ = 1 the results alone). The loss is the mean squared
//! difference. K is fitted to the data first unless given: the K for which `sigmoid(score / K)` best
//! predicts the results.
//!
//! Runs are deterministic for a seed whatever the thread count: a batch is cut into a fixed number of
//! chunks, each chunk's gradient is computed on its own, and the chunks are added in order.

use super::data::{mix, Dataset, FeatureMaps};
use super::model::{Adam, Layout, Model};
use eval::nnue::features::{FeatureSet, MAX_ACTIVE};
use eval::nnue::network::{Network, OUTPUT_SCALE};
use rayon::prelude::*;

/// Chunks a batch is cut into (fixed, for determinism).
const CHUNKS: usize = 8;

/// Settings of a training run.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// The network's inputs.
    pub features: FeatureSet,
    /// Neurons per perspective (a multiple of 16).
    pub hidden: usize,
    /// Passes over the training set.
    pub epochs: usize,
    /// Samples per Adam step.
    pub batch_size: usize,
    /// Adam step size at the start; it falls linearly to a tenth by the last epoch.
    pub learning_rate: f32,
    /// Weight of the game result in the target (see the module doc).
    pub lambda: f32,
    /// The sigmoid's scale K, internal units (`None`: fitted to the data).
    pub scale: Option<f32>,
    /// Share of games held out for validation.
    pub validation: f64,
    /// Seed of the initial weights, the split, the shuffles and the mirroring.
    pub seed: u64,
    /// Mirror each sample left to right with probability ½ in each epoch (xiangqi is symmetric so). With
    /// king buckets this still adds data: a perspective whose king is on the e-file sees the mirrored
    /// board as other features of the same bucket (one on the d- or f-file sees the same features).
    pub mirror: bool,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            features: FeatureSet::PieceSquare,
            hidden: 128,
            epochs: 30,
            batch_size: 16_384,
            learning_rate: 0.008,
            lambda: 0.3,
            scale: None,
            validation: 0.05,
            seed: 1,
            mirror: true,
        }
    }
}

/// What a run produced.
#[derive(Clone, Debug)]
pub struct TrainOutcome {
    /// The float network.
    pub model: Model,
    /// The quantised network.
    pub network: Network,
    /// The sigmoid scale used.
    pub scale: f32,
    /// Training and validation loss after each epoch.
    pub losses: Vec<(f64, f64)>,
    /// The epoch kept (1-based): the one with the lowest validation loss.
    pub best_epoch: usize,
    /// Validation loss of the search scores themselves (the part of the target a net cannot beat).
    pub score_loss: f64,
    /// Mean |float − quantised| evaluation on the validation set, centipawns (100 = a horse).
    pub quantisation_cp: f64,
    /// Samples trained on and validated on.
    pub sizes: (usize, usize),
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The K that best predicts results from scores (golden-section search over 50..20000 units).
pub fn fit_scale(data: &Dataset) -> f32 {
    let error = |k: f64| -> f64 {
        // Fixed chunks added in order: the same sum whatever the thread count.
        let chunk = data.len().div_ceil(64).max(1);
        let parts: Vec<f64> = data
            .scores
            .par_chunks(chunk)
            .zip(data.results.par_chunks(chunk))
            .map(|(scores, results)| {
                scores
                    .iter()
                    .zip(results)
                    .map(|(&s, &r)| (1.0 / (1.0 + (-(s as f64) / k).exp()) - r as f64).powi(2))
                    .sum::<f64>()
            })
            .collect();
        parts.iter().sum()
    };
    let (mut lo, mut hi) = (50f64.ln(), 20_000f64.ln());
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let (a, b) = (hi - phi * (hi - lo), lo + phi * (hi - lo));
        if error(a.exp()) < error(b.exp()) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp() as f32
}

/// One sample's two feature lists in `features`, mirrored or not. The data holds the side to move's
/// piece-square features; the board is mirrored and turned round on those, and each perspective's
/// king-bucket features then come from its own king among them (as the engine indexes them).
pub(crate) fn sample_features(
    features: FeatureSet,
    data: &Dataset,
    maps: &FeatureMaps,
    i: usize,
    mirror: bool,
    us: &mut Vec<usize>,
    them: &mut Vec<usize>,
) {
    us.clear();
    them.clear();
    for f in data.features(i) {
        let f = if mirror { maps.mirror[f] as usize } else { f };
        us.push(f);
        them.push(maps.other[f] as usize);
    }
    if features != FeatureSet::PieceSquare {
        for list in [us, them] {
            let view = features.view_of_plain(list);
            list.iter_mut().for_each(|f| *f = view.rebase(*f));
        }
    }
}

/// Adds the loss gradient of samples `indices` to `grad`; returns their summed loss.
#[allow(clippy::too_many_arguments)]
fn chunk_gradient(
    model: &Model,
    data: &Dataset,
    maps: &FeatureMaps,
    indices: &[(u32, bool)],
    lambda: f32,
    scale: f32,
    grad: &mut [f32],
) -> f64 {
    let l: Layout = model.layout();
    let h = l.hidden;
    let (mut us, mut them) = (Vec::with_capacity(MAX_ACTIVE), Vec::with_capacity(MAX_ACTIVE));
    let (mut h_us, mut h_them) = (vec![0.0f32; h], vec![0.0f32; h]);
    let mut loss = 0.0f64;
    let out_per_logit = OUTPUT_SCALE as f32 / scale;
    for &(i, mirror) in indices {
        let i = i as usize;
        sample_features(model.features, data, maps, i, mirror, &mut us, &mut them);
        model.hidden_sums(us.iter().copied(), &mut h_us);
        model.hidden_sums(them.iter().copied(), &mut h_them);
        let out = model.output(&h_us, &h_them);
        let p = sigmoid(out * out_per_logit);
        let target = lambda * data.results[i] + (1.0 - lambda) * sigmoid(data.scores[i] / scale);
        loss += ((p - target) as f64).powi(2);
        // d loss / d out.
        let g = 2.0 * (p - target) * p * (1.0 - p) * out_per_logit;
        grad[l.b2] += g;
        let (w_us, w_them) = model.params[l.w2..l.b2].split_at(h);
        for (half, hs, w) in [(0, &mut h_us, w_us), (1, &mut h_them, w_them)] {
            let gw2 = &mut grad[l.w2 + half * h..l.w2 + (half + 1) * h];
            for k in 0..h {
                let x = hs[k];
                gw2[k] += g * x.clamp(0.0, 1.0);
                // Reuse the buffer for d loss / d pre-activation.
                hs[k] = if x > 0.0 && x < 1.0 { g * w[k] } else { 0.0 };
            }
        }
        for (active, d) in [(&us, &h_us), (&them, &h_them)] {
            grad[l.b1..l.w2].iter_mut().zip(d.iter()).for_each(|(a, d)| *a += d);
            // Only the active features' rows get a gradient: the first layer is sparse.
            for &f in active.iter() {
                grad[f * h..(f + 1) * h].iter_mut().zip(d.iter()).for_each(|(a, d)| *a += d);
            }
        }
    }
    loss
}

/// Mean loss of `model` on `data` (no mirroring).
pub fn loss(model: &Model, data: &Dataset, lambda: f32, scale: f32) -> f64 {
    let maps = FeatureMaps::new();
    let n = data.len();
    if n == 0 {
        return 0.0;
    }
    let chunk = n.div_ceil(64).max(1);
    let parts: Vec<f64> = (0..n)
        .collect::<Vec<_>>()
        .par_chunks(chunk)
        .map(|idx| {
            let (mut us, mut them) = (Vec::new(), Vec::new());
            idx.iter()
                .map(|&i| {
                    sample_features(model.features, data, &maps, i, false, &mut us, &mut them);
                    let eval = model.evaluate(&us, &them);
                    let target = lambda * data.results[i] + (1.0 - lambda) * sigmoid(data.scores[i] / scale);
                    ((sigmoid(eval / scale) - target) as f64).powi(2)
                })
                .sum()
        })
        .collect();
    parts.iter().sum::<f64>() / n as f64
}

/// Mean |float − quantised| evaluation over `data`, internal units.
pub fn quantisation_error(model: &Model, net: &Network, data: &Dataset) -> f64 {
    let maps = FeatureMaps::new();
    let n = data.len();
    if n == 0 {
        return 0.0;
    }
    let parts: Vec<f64> = (0..n)
        .collect::<Vec<_>>()
        .par_chunks(n.div_ceil(64).max(1))
        .map(|idx| {
            let (mut us, mut them) = (Vec::new(), Vec::new());
            idx.iter()
                .map(|&i| {
                    sample_features(model.features, data, &maps, i, false, &mut us, &mut them);
                    (model.evaluate(&us, &them) - net.evaluate_active(&us, &them) as f32).abs() as f64
                })
                .sum()
        })
        .collect();
    parts.iter().sum::<f64>() / n as f64
}

/// Trains a network on `data`, reporting each epoch through `report`.
pub fn train(data: &Dataset, config: &TrainConfig, mut report: impl FnMut(&str)) -> TrainOutcome {
    let (train, valid) = data.split(config.validation, config.seed);
    let scale = config.scale.unwrap_or_else(|| fit_scale(&train));
    let lambda = config.lambda.clamp(0.0, 1.0);
    let score_loss = if valid.is_empty() {
        0.0
    } else {
        let sum: f64 = valid
            .scores
            .iter()
            .zip(&valid.results)
            .map(|(&s, &r)| {
                let p = sigmoid(s / scale);
                ((p - (lambda * r + (1.0 - lambda) * p)) as f64).powi(2)
            })
            .sum();
        sum / valid.len() as f64
    };
    report(&format!(
        "{} training and {} validation positions; K = {scale:.0}, lambda = {lambda}; search scores' validation loss {score_loss:.6}",
        train.len(),
        valid.len()
    ));
    let maps = FeatureMaps::new();
    let mut model = Model::new(config.features, config.hidden, config.seed);
    let layout = model.layout();
    let mut adam = Adam::new(layout.len);
    let mut grads = vec![vec![0.0f32; layout.len]; CHUNKS];
    let mut total = vec![0.0f32; layout.len];
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let batch = config.batch_size.max(CHUNKS);
    let mut losses = Vec::new();
    // The epoch with the lowest validation loss is the one kept: with little data the net overfits.
    let mut best: Option<(f64, Model)> = None;
    for epoch in 0..config.epochs {
        let start = std::time::Instant::now();
        // Fisher-Yates shuffle from a per-epoch generator.
        let mut rng = engine::random::Rng::new(mix(config.seed ^ ((epoch as u64 + 1) * 0x1000_0001)));
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let progress = epoch as f32 / config.epochs.max(1) as f32;
        let lr = config.learning_rate * (1.0 - 0.9 * progress);
        let mut epoch_loss = 0.0;
        for batch_indices in order.chunks(batch) {
            let picks: Vec<(u32, bool)> = batch_indices
                .iter()
                .map(|&i| (i, config.mirror && mix(config.seed ^ ((epoch as u64) << 40) ^ i as u64) & 1 == 1))
                .collect();
            let per_chunk = picks.len().div_ceil(CHUNKS);
            let chunk_losses: Vec<f64> = grads
                .par_iter_mut()
                .zip(picks.par_chunks(per_chunk.max(1)))
                .map(|(grad, idx)| {
                    grad.iter_mut().for_each(|g| *g = 0.0);
                    chunk_gradient(&model, &train, &maps, idx, lambda, scale, grad)
                })
                .collect();
            epoch_loss += chunk_losses.iter().sum::<f64>();
            let inv = 1.0 / picks.len() as f32;
            total.iter_mut().for_each(|t| *t = 0.0);
            for grad in grads.iter().take(picks.len().div_ceil(per_chunk.max(1))) {
                total.iter_mut().zip(grad).for_each(|(t, g)| *t += g);
            }
            total.iter_mut().for_each(|t| *t *= inv);
            adam.step(&mut model.params, &total, lr);
            model.clip();
        }
        let train_loss = epoch_loss / train.len().max(1) as f64;
        let valid_loss = loss(&model, &valid, lambda, scale);
        losses.push((train_loss, valid_loss));
        if valid.is_empty() || best.as_ref().is_none_or(|(b, _)| valid_loss < *b) {
            best = Some((valid_loss, model.clone()));
        }
        report(&format!(
            "epoch {:>3}/{}  lr {lr:.5}  train loss {train_loss:.6}  validation loss {valid_loss:.6}  {:.1}s",
            epoch + 1,
            config.epochs,
            start.elapsed().as_secs_f64()
        ));
    }
    let (best_epoch, model) = match best {
        Some((loss, m)) => (losses.iter().position(|l| l.1 == loss).map_or(losses.len(), |i| i + 1), m),
        None => (0, model),
    };
    report(&format!("keeping epoch {best_epoch}"));
    let network = model.quantise();
    let quantisation_cp = quantisation_error(&model, &network, &valid) * 100.0 / OUTPUT_SCALE as f64;
    TrainOutcome {
        model,
        network,
        scale,
        losses,
        best_epoch,
        score_loss,
        quantisation_cp,
        sizes: (train.len(), valid.len()),
    }
}
