//! Match statistics: score, logistic Elo with a 95% interval, likelihood of superiority, pentanomial counts
//! of game pairs, and the sequential probability ratio test.
//!
//! Formulas (all from the first engine's point of view):
//! - Score s = (W + D/2) / N. Logistic Elo = -400 log10(1/s - 1).
//! - Interval: s ± 1.959964 σ/√n, mapped to Elo, where σ² is the sample variance of the per-unit score and n
//!   the number of units; the unit is a game pair (score 0, ¼, ½, ¾, 1) when games come in colour-swapped
//!   pairs, which removes the opening's bias from the variance, otherwise a single game (0, ½, 1).
//!   When every unit had the same outcome (σ = 0: all wins, all losses, all draws, a single pair) the sample
//!   variance claims a certainty that a handful of games cannot give, so the interval is then Wilson's
//!   score interval for a proportion s of n units, which assumes the largest spread a score of mean s can
//!   have, s(1 - s): a 4-0 gives Elo +inf with 95% bounds (-113, +inf), not a zero-width or infinite one.
//! - LOS: trinomial ½(1 + erf((W - L)/√(2(W + L)))); pentanomial Φ((s - ½)/(σ/√n)). When σ = 0, the
//!   pentanomial LOS takes the Agresti-Coull centre s̃ = (ns + z²/2)/(n + z²) and its error
//!   √(s̃(1 - s̃)/(n + z²)) instead: two pairs won 2-0 give 81%, ten give 99.9%, all draws ½.
//! - SPRT: generalised SPRT on pentanomial frequencies in logistic Elo. For each hypothesis score
//!   s_i = 1/(1 + 10^(-elo_i/400)) the maximum-likelihood pair distribution with that mean is
//!   p_k = p̂_k / (1 + λ(x_k - s_i)), λ solving Σ p̂_k (x_k - s_i)/(1 + λ(x_k - s_i)) = 0; then
//!   LLR = n Σ p̂_k ln(p1_k / p0_k). Empty cells count as 0.001 so the solution exists (as fishtest does).
//!   Bounds: ln(β/(1-α)) and ln((1-β)/α).

/// The 95% two-sided normal quantile.
const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of the first engine.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Score fraction, or `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + self.draws as f64 / 2.0) / n as f64)
    }

    /// Share of draws.
    pub fn draw_ratio(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.draws as f64 / n as f64)
    }
}

/// Counts of game pairs by the first engine's points in the pair: 0, ½, 1, 1½, 2.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Adds a pair given the first engine's points (0, 0.5 or 1) in its two games.
    pub fn add(&mut self, a: f64, b: f64) {
        let half_points = ((a + b) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[half_points] += 1;
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }
}

/// A point estimate with its interval.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Score fraction.
    pub score: f64,
    /// Logistic Elo (±infinity at a score of 0 or 1).
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub elo_low: f64,
    /// Upper end of the 95% interval.
    pub elo_high: f64,
    /// Likelihood of superiority (probability the first engine is stronger).
    pub los: f64,
}

impl Estimate {
    /// Half the width of the interval, the "±" figure.
    pub fn error(&self) -> f64 {
        (self.elo_high - self.elo_low) / 2.0
    }
}

/// Logistic Elo difference for a score fraction.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// Expected score for a logistic Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Mean and sample variance of outcomes `x_k` seen `n_k` times.
fn mean_variance(values: &[f64], counts: &[u64]) -> (f64, f64, f64) {
    let n: f64 = counts.iter().map(|&c| c as f64).sum();
    let mean = values.iter().zip(counts).map(|(x, &c)| x * c as f64).sum::<f64>() / n;
    let var = values.iter().zip(counts).map(|(x, &c)| c as f64 * (x - mean).powi(2)).sum::<f64>() / n;
    (n, mean, var)
}

fn estimate(values: &[f64], counts: &[u64], los: Option<f64>) -> Option<Estimate> {
    if counts.iter().sum::<u64>() == 0 {
        return None;
    }
    let (n, mean, var) = mean_variance(values, counts);
    let (low, high, fallback_los) = if var > 0.0 {
        let se = (var / n).sqrt();
        (mean - Z95 * se, mean + Z95 * se, normal_cdf((mean - 0.5) / se))
    } else {
        // Identical outcomes say nothing about the spread (see the module notes).
        let (low, high) = wilson(mean, n);
        (low, high, agresti_coull_los(mean, n))
    };
    Some(Estimate {
        score: mean,
        elo: elo_from_score(mean),
        elo_low: elo_from_score(low),
        elo_high: elo_from_score(high),
        los: los.unwrap_or(fallback_los),
    })
}

/// Wilson's 95% score interval for a proportion `p` of `n` units; it stays inside [0, 1] and has a width
/// even when p is 0 or 1.
fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Likelihood of superiority for `n` units that all scored `p`, from the Agresti-Coull adjusted proportion.
fn agresti_coull_los(p: f64, n: f64) -> f64 {
    let z2 = Z95 * Z95;
    let n_adj = n + z2;
    let p_adj = (n * p + z2 / 2.0) / n_adj;
    normal_cdf((p_adj - 0.5) / (p_adj * (1.0 - p_adj) / n_adj).sqrt())
}

/// Estimate from single games.
pub fn trinomial(wdl: &Wdl) -> Option<Estimate> {
    let decisive = (wdl.wins + wdl.losses) as f64;
    let los = if decisive > 0.0 {
        0.5 * (1.0 + erf((wdl.wins as f64 - wdl.losses as f64) / (2.0 * decisive).sqrt()))
    } else {
        0.5
    };
    estimate(&[0.0, 0.5, 1.0], &[wdl.losses, wdl.draws, wdl.wins], Some(los))
}

/// Estimate from colour-swapped game pairs.
pub fn pentanomial(p: &Pentanomial) -> Option<Estimate> {
    estimate(&[0.0, 0.25, 0.5, 0.75, 1.0], &p.0, None)
}

/// Standard normal distribution function.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// The error function: its Taylor series below 2.5, the continued fraction of erfc above (both good to
/// about 1e-13 in their range).
pub fn erf(x: f64) -> f64 {
    let a = x.abs();
    let r = if a < 2.5 {
        // erf(x) = 2/√π Σ (-1)^n x^(2n+1) / (n! (2n+1))
        let mut term = a;
        let mut sum = a;
        let x2 = a * a;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs() {
            n += 1.0;
            term *= -x2 / n;
            sum += term / (2.0 * n + 1.0);
            if n > 200.0 {
                break;
            }
        }
        2.0 / std::f64::consts::PI.sqrt() * sum
    } else {
        // erfc(x) = e^(-x²)/√π · 1/(x + 1/2/(x + 1/(x + 3/2/(x + 2/(x + ...))))), evaluated backwards.
        let mut f = a;
        for k in (1..60).rev() {
            f = a + (k as f64 / 2.0) / f;
        }
        1.0 - (-a * a).exp() / (std::f64::consts::PI.sqrt() * f)
    };
    if x < 0.0 {
        -r
    } else {
        r
    }
}

/// Where an SPRT stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SprtState {
    /// Neither bound crossed.
    Continue,
    /// LLR at or below the lower bound: the first engine is not elo1 stronger (H0 accepted).
    AcceptH0,
    /// LLR at or above the upper bound: the first engine is elo1 stronger (H1 accepted).
    AcceptH1,
}

/// An SPRT in logistic Elo on pentanomial statistics.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    /// Elo of H0.
    pub elo0: f64,
    /// Elo of H1.
    pub elo1: f64,
    /// Type I error.
    pub alpha: f64,
    /// Type II error.
    pub beta: f64,
}

impl Sprt {
    /// (lower, upper) LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// Log-likelihood ratio of H1 against H0 for these pairs (0 before the first pair).
    pub fn llr(&self, p: &Pentanomial) -> f64 {
        if p.pairs() == 0 {
            return 0.0;
        }
        let counts: Vec<f64> = p.0.iter().map(|&c| (c as f64).max(1e-3)).collect();
        let n: f64 = counts.iter().sum();
        let freq: Vec<f64> = counts.iter().map(|c| c / n).collect();
        let xs = [0.0, 0.25, 0.5, 0.75, 1.0];
        let p0 = mle_with_mean(&xs, &freq, score_from_elo(self.elo0));
        let p1 = mle_with_mean(&xs, &freq, score_from_elo(self.elo1));
        n * freq.iter().zip(p0.iter().zip(&p1)).map(|(f, (a, b))| f * (b / a).ln()).sum::<f64>()
    }

    /// The decision for an LLR.
    pub fn state(&self, llr: f64) -> SprtState {
        let (low, high) = self.bounds();
        if llr >= high {
            SprtState::AcceptH1
        } else if llr <= low {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

/// The distribution closest (in likelihood) to the observed frequencies `freq` over outcomes `xs` whose mean
/// is `s`: p_k = freq_k / (1 + λ(x_k - s)), λ found by bisection (the constraint is monotone in λ).
fn mle_with_mean(xs: &[f64], freq: &[f64], s: f64) -> Vec<f64> {
    let g = |lambda: f64| -> f64 {
        xs.iter().zip(freq).map(|(x, f)| f * (x - s) / (1.0 + lambda * (x - s))).sum()
    };
    let hi_dev = xs.iter().map(|x| x - s).fold(f64::NEG_INFINITY, f64::max);
    let lo_dev = xs.iter().map(|x| x - s).fold(f64::INFINITY, f64::min);
    // 1 + λ d > 0 for every deviation d: λ in (-1/hi_dev, -1/lo_dev).
    let mut lo = if hi_dev > 0.0 { -1.0 / hi_dev } else { -1e9 };
    let mut hi = if lo_dev < 0.0 { -1.0 / lo_dev } else { 1e9 };
    let shrink = 1e-12;
    (lo, hi) = (lo + shrink * (hi - lo), hi - shrink * (hi - lo));
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        // g decreases in λ.
        if g(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let lambda = 0.5 * (lo + hi);
    xs.iter().zip(freq).map(|(x, f)| f / (1.0 + lambda * (x - s))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    // Reference values below were computed independently in Python (math.erf, math.log10, and a separate
    // bisection for the constrained maximum likelihood), see the match runner's report.

    #[test]
    fn elo_of_known_scores() {
        assert!(close(elo_from_score(0.75), 190.848_501_887_865, 1e-9));
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        assert!(close(elo_from_score(0.6), 70.436_503_622_272_47, 1e-9));
        assert!(close(score_from_elo(5.0), 0.507_195_081_709_051_4, 1e-12));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
    }

    #[test]
    fn erf_matches_the_library_values() {
        assert!(close(erf(0.5), 0.520_499_877_813_046_5, 1e-12));
        assert!(close(erf(1.0), 0.842_700_792_949_714_9, 1e-12));
        assert!(close(erf(-2.0), -0.995_322_265_018_952_7, 1e-12));
        assert!(close(erf(3.0), 0.999_977_909_503_001_4, 1e-12));
        assert!(close(normal_cdf(1.959_963_984_540_054), 0.975, 1e-12));
    }

    #[test]
    fn trinomial_estimate_of_a_small_match() {
        // 30 wins, 40 draws, 30 losses... and a lopsided one.
        let even = trinomial(&Wdl { wins: 30, draws: 40, losses: 30 }).unwrap();
        assert!(close(even.elo, 0.0, 1e-9) && close(even.los, 0.5, 1e-12));
        let e = trinomial(&Wdl { wins: 40, draws: 30, losses: 30 }).unwrap();
        assert!(close(e.score, 0.55, 1e-12));
        assert!(close(e.elo, 34.860_070_287_560_08, 1e-9));
        assert!(close(e.elo_low, -21.850_090_815_487_45, 1e-6), "{}", e.elo_low);
        assert!(close(e.elo_high, 93.502_249_960_931_11, 1e-6), "{}", e.elo_high);
        assert!(close(e.los, 0.884_001_138_185_633, 1e-9), "{}", e.los);
    }

    #[test]
    fn pentanomial_estimate_of_a_small_match() {
        let p = Pentanomial([3, 10, 20, 12, 5]);
        let e = pentanomial(&p).unwrap();
        assert!(close(e.score, 0.53, 1e-12));
        assert!(close(e.elo, 20.871_204_666_028_67, 1e-9), "{}", e.elo);
        assert!(close(e.elo_low, -28.926_019_673_856_6, 1e-6), "{}", e.elo_low);
        assert!(close(e.elo_high, 71.546_094_641_285_48, 1e-6), "{}", e.elo_high);
        assert!(close(e.los, 0.794_460_110_638_342_4, 1e-9), "{}", e.los);
    }

    #[test]
    fn identical_outcomes_give_wilson_bounds_not_certainty_or_nothing() {
        // One pair of 1½ points: Elo +191, Wilson bounds on a score of ¾ from one unit.
        let e = pentanomial(&Pentanomial([0, 0, 0, 1, 0])).unwrap();
        assert!(close(e.elo, 190.848_501_887_865, 1e-9));
        assert!(e.elo_low < -300.0 && e.elo_low.is_finite() && e.elo_high > 600.0 && e.elo_high.is_finite());
        assert!(e.los > 0.55 && e.los < 0.75, "{e:?}");
        // Ten draws: Elo 0, a finite symmetric interval, no evidence either way.
        let e = trinomial(&Wdl { wins: 0, draws: 10, losses: 0 }).unwrap();
        assert_eq!((e.elo, e.los), (0.0, 0.5));
        assert!(e.error().is_finite() && e.error() > 100.0 && close(e.elo_low, -e.elo_high, 1e-9), "{e:?}");
    }

    #[test]
    fn a_four_nil_win_has_a_lower_bound_and_a_los_that_mean_something() {
        // 4-0 in two colour-swapped pairs.
        let e = pentanomial(&Pentanomial([0, 0, 0, 0, 2])).unwrap();
        assert_eq!((e.score, e.elo, e.elo_high), (1.0, f64::INFINITY, f64::INFINITY));
        assert!(close(e.elo_low, -113.4, 1.0), "{e:?}");
        assert!(close(e.los, 0.81, 0.01), "{e:?}");
        // The same games counted singly: the trinomial LOS of four wins and no loss.
        let e = trinomial(&Wdl { wins: 4, draws: 0, losses: 0 }).unwrap();
        assert!(close(e.los, 0.977, 0.001) && e.elo_low > 0.0 && e.elo_low.is_finite(), "{e:?}");
        // More of the same narrows it: ten pairs won.
        let e = pentanomial(&Pentanomial([0, 0, 0, 0, 10])).unwrap();
        assert!(e.elo_low > 100.0 && e.los > 0.99, "{e:?}");
    }

    #[test]
    fn every_degenerate_match_gives_figures_that_mean_something() {
        assert_eq!(pentanomial(&Pentanomial::default()), None, "no games, no estimate");
        assert_eq!(trinomial(&Wdl::default()), None);
        // All losses mirror all wins.
        let won = pentanomial(&Pentanomial([0, 0, 0, 0, 3])).unwrap();
        let lost = pentanomial(&Pentanomial([3, 0, 0, 0, 0])).unwrap();
        assert_eq!((lost.elo, lost.elo_low), (f64::NEG_INFINITY, f64::NEG_INFINITY));
        assert!(close(lost.elo_high, -won.elo_low, 1e-9) && close(lost.los, 1.0 - won.los, 1e-12));
        // All draws, and one drawn pair.
        for p in [Pentanomial([0, 0, 5, 0, 0]), Pentanomial([0, 0, 1, 0, 0])] {
            let e = pentanomial(&p).unwrap();
            assert_eq!((e.elo, e.los), (0.0, 0.5));
            assert!(e.elo_low.is_finite() && close(e.elo_low, -e.elo_high, 1e-9), "{e:?}");
        }
        // One game.
        let e = trinomial(&Wdl { wins: 1, draws: 0, losses: 0 }).unwrap();
        assert!(e.elo == f64::INFINITY && e.elo_low.is_finite() && e.los > 0.5 && e.los < 1.0, "{e:?}");
        for e in [won, lost] {
            assert!(!e.los.is_nan() && !e.elo_low.is_nan() && !e.elo_high.is_nan());
        }
    }

    #[test]
    fn pairs_are_binned_by_points() {
        let mut p = Pentanomial::default();
        p.add(1.0, 0.0);
        p.add(0.5, 1.0);
        p.add(0.0, 0.0);
        p.add(1.0, 1.0);
        assert_eq!(p.0, [1, 0, 1, 1, 1]);
    }

    #[test]
    fn sprt_bounds_and_llr() {
        let t = Sprt { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05 };
        let (lo, hi) = t.bounds();
        assert!(close(lo, -2.944_438_979_166_440_4, 1e-12) && close(hi, 2.944_438_979_166_440_4, 1e-12));
        let llr = t.llr(&Pentanomial([100, 900, 2000, 1000, 120]));
        assert!(close(llr, 3.444_841_911_974_395, 1e-6), "{llr}");
        let llr = t.llr(&Pentanomial([50, 300, 600, 250, 40]));
        assert!(close(llr, -3.426_832_438_596_78, 1e-6), "{llr}");
        assert_eq!(t.llr(&Pentanomial::default()), 0.0);
        assert_eq!(t.state(3.0), SprtState::AcceptH1);
        assert_eq!(t.state(-3.0), SprtState::AcceptH0);
        assert_eq!(t.state(0.0), SprtState::Continue);
    }

    #[test]
    fn sprt_with_one_sided_results_still_decides() {
        // Empty cells count as 0.001 pairs, so a run of wins decides only after several pairs.
        let t = Sprt { elo0: 0.0, elo1: 100.0, alpha: 0.05, beta: 0.05 };
        let llr = t.llr(&Pentanomial([0, 0, 0, 0, 6]));
        assert!(close(llr, 1.482_181_447_995_547, 1e-6), "{llr}");
        assert_eq!(t.state(llr), SprtState::Continue);
        let llr = t.llr(&Pentanomial([0, 0, 0, 0, 12]));
        assert!(close(llr, 2.963_951_538_823_815_6, 1e-6), "{llr}");
        assert_eq!(t.state(llr), SprtState::AcceptH1);
    }
}
