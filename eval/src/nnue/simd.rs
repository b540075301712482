//! The two inner loops of the network — adding and subtracting weight rows into an accumulator, and the
//! clipped-ReLU dot product of the output — in a portable version, an AVX2 version picked at run time on
//! x86-64 and a NEON version on aarch64 ([`neon`], always: every aarch64 CPU has NEON). All use wrapping
//! integer arithmetic, so they give identical results bit for bit (a test checks).

use super::network::QA;
use std::sync::atomic::{AtomicU8, Ordering};

#[cfg(target_arch = "aarch64")]
pub mod neon;

/// Lanes of i16 in one AVX2 register; hidden sizes are multiples of it.
pub const LANES: usize = 16;

/// 0: not yet detected, 1: portable code only, 2: AVX2.
static LEVEL: AtomicU8 = AtomicU8::new(0);

/// Whether the AVX2 versions run on this CPU (detected once).
#[inline(always)]
pub fn has_avx2() -> bool {
    match LEVEL.load(Ordering::Relaxed) {
        2 => true,
        1 => false,
        _ => detect(),
    }
}

#[cold]
fn detect() -> bool {
    #[cfg(target_arch = "x86_64")]
    let avx2 = std::arch::is_x86_feature_detected!("avx2");
    #[cfg(not(target_arch = "x86_64"))]
    let avx2 = false;
    LEVEL.store(if avx2 { 2 } else { 1 }, Ordering::Relaxed);
    avx2
}

/// `out = input + Σ rows added − Σ rows removed`, each row `hidden` long in `weights`.
#[inline]
pub fn update(
    out: &mut [i16],
    input: &[i16],
    weights: &[i16],
    hidden: usize,
    added: &[usize],
    removed: &[usize],
) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: AVX2, the only feature the function enables, was detected on this CPU.
        unsafe { update_avx2(out, input, weights, hidden, added, removed) };
        return;
    }
    // SAFETY: NEON, the only feature the function enables, is part of every aarch64 target.
    #[cfg(target_arch = "aarch64")]
    return unsafe { neon::update(out, input, weights, hidden, added, removed) };
    #[cfg(not(target_arch = "aarch64"))]
    update_scalar(out, input, weights, hidden, added, removed)
}

/// The clipped-ReLU output sum: `Σ clamp(us, 0, QA) · w_us + Σ clamp(them, 0, QA) · w_them`.
#[inline]
pub fn output(us: &[i16], them: &[i16], w_us: &[i16], w_them: &[i16]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: AVX2, the only feature the function enables, was detected on this CPU.
        return unsafe { output_avx2(us, them, w_us, w_them) };
    }
    // SAFETY: NEON, the only feature the function enables, is part of every aarch64 target.
    #[cfg(target_arch = "aarch64")]
    return unsafe { neon::output(us, them, w_us, w_them) };
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    return output_simd128(us, them, w_us, w_them);
    #[cfg(not(any(target_arch = "aarch64", all(target_arch = "wasm32", target_feature = "simd128"))))]
    output_scalar(us, them, w_us, w_them)
}

/// Portable [`update`].
pub fn update_scalar(
    out: &mut [i16],
    input: &[i16],
    weights: &[i16],
    hidden: usize,
    added: &[usize],
    removed: &[usize],
) {
    out[..hidden].copy_from_slice(&input[..hidden]);
    for &f in added {
        let row = &weights[f * hidden..(f + 1) * hidden];
        out.iter_mut().zip(row).for_each(|(o, &w)| *o = o.wrapping_add(w));
    }
    for &f in removed {
        let row = &weights[f * hidden..(f + 1) * hidden];
        out.iter_mut().zip(row).for_each(|(o, &w)| *o = o.wrapping_sub(w));
    }
}

/// Portable [`output`].
pub fn output_scalar(us: &[i16], them: &[i16], w_us: &[i16], w_them: &[i16]) -> i32 {
    let half = |acc: &[i16], w: &[i16]| {
        acc.iter().zip(w).fold(0i32, |s, (&a, &w)| s.wrapping_add((a as i32).clamp(0, QA) * w as i32))
    };
    half(us, w_us).wrapping_add(half(them, w_them))
}

/// AVX2 [`update`]: sixteen lanes at a time, every row read once. A search's moves add one row and
/// remove one (or two, for a capture): those two cases have their own loops with the rows sliced once,
/// which halved the update's instructions per node (callgrind) against walking the feature lists for
/// every sixteen lanes.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub unsafe fn update_avx2(
    out: &mut [i16],
    input: &[i16],
    weights: &[i16],
    hidden: usize,
    added: &[usize],
    removed: &[usize],
) {
    use std::arch::x86_64::*;
    assert!(hidden.is_multiple_of(LANES) && out.len() >= hidden && input.len() >= hidden);
    let (out, input) = (&mut out[..hidden], &input[..hidden]);
    let row = |f: usize| &weights[f * hidden..(f + 1) * hidden];
    // SAFETY: `c` is always a `chunks_exact(LANES)` slice of exactly 16 i16, so the unaligned 256-bit
    // load stays inside it.
    let load = |c: &[i16]| unsafe { _mm256_loadu_si256(c.as_ptr() as *const __m256i) };
    match (added, removed) {
        (&[a], &[r]) => {
            let (a, r) = (row(a), row(r));
            for (((o, i), a), r) in out
                .chunks_exact_mut(LANES)
                .zip(input.chunks_exact(LANES))
                .zip(a.chunks_exact(LANES))
                .zip(r.chunks_exact(LANES))
            {
                let v = _mm256_sub_epi16(_mm256_add_epi16(load(i), load(a)), load(r));
                // SAFETY: `o` is a `chunks_exact_mut(LANES)` slice of exactly 16 i16.
                unsafe { _mm256_storeu_si256(o.as_mut_ptr() as *mut __m256i, v) };
            }
        }
        (&[a], &[r1, r2]) => {
            let (a, r1, r2) = (row(a), row(r1), row(r2));
            let rows = a.chunks_exact(LANES).zip(r1.chunks_exact(LANES)).zip(r2.chunks_exact(LANES));
            for ((o, i), ((a, r1), r2)) in
                out.chunks_exact_mut(LANES).zip(input.chunks_exact(LANES)).zip(rows)
            {
                let v = _mm256_sub_epi16(_mm256_add_epi16(load(i), load(a)), load(r1));
                let v = _mm256_sub_epi16(v, load(r2));
                // SAFETY: `o` is a `chunks_exact_mut(LANES)` slice of exactly 16 i16.
                unsafe { _mm256_storeu_si256(o.as_mut_ptr() as *mut __m256i, v) };
            }
        }
        _ => {
            for &f in added.iter().chain(removed) {
                assert!((f + 1) * hidden <= weights.len());
            }
            let w = weights.as_ptr();
            for c in (0..hidden).step_by(LANES) {
                // SAFETY: the asserts above keep every 16-lane load and store inside its slice.
                unsafe {
                    let mut v = _mm256_loadu_si256(input.as_ptr().add(c) as *const __m256i);
                    for &f in added {
                        v = _mm256_add_epi16(v, _mm256_loadu_si256(w.add(f * hidden + c) as *const __m256i));
                    }
                    for &f in removed {
                        v = _mm256_sub_epi16(v, _mm256_loadu_si256(w.add(f * hidden + c) as *const __m256i));
                    }
                    _mm256_storeu_si256(out.as_mut_ptr().add(c) as *mut __m256i, v);
                }
            }
        }
    }
}

/// AVX2 [`output`]: clamp, multiply in pairs into 32-bit sums (`madd`), add up.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub unsafe fn output_avx2(us: &[i16], them: &[i16], w_us: &[i16], w_them: &[i16]) -> i32 {
    use std::arch::x86_64::*;
    let n = us.len();
    assert!(n.is_multiple_of(LANES) && them.len() == n && w_us.len() == n && w_them.len() == n);
    let zero = _mm256_setzero_si256();
    let ceiling = _mm256_set1_epi16(QA as i16);
    let mut sum = _mm256_setzero_si256();
    for (acc, w) in [(us, w_us), (them, w_them)] {
        for c in (0..n).step_by(LANES) {
            // SAFETY: `c + 16 <= n`, the length of both slices (asserted above).
            unsafe {
                let a = _mm256_loadu_si256(acc.as_ptr().add(c) as *const __m256i);
                let a = _mm256_min_epi16(_mm256_max_epi16(a, zero), ceiling);
                let w = _mm256_loadu_si256(w.as_ptr().add(c) as *const __m256i);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(a, w));
            }
        }
    }
    let lo = _mm256_castsi256_si128(sum);
    let hi = _mm256_extracti128_si256(sum, 1);
    let s = _mm_add_epi32(lo, hi);
    let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
    _mm_cvtsi128_si32(s)
}

/// SIMD128 [`output`] for the browser build compiled with `+simd128` (wasm has no run-time feature
/// detection: a module either has SIMD or is the portable build). The compiler vectorises the update's
/// loops by itself, but not the widening multiply-add here; `i32x4.dot_i16x8_s` does it as AVX2's `madd`
/// does. The products fit (`0..=QA` times an i16) and the sums wrap as the portable version's do, so the
/// results are equal bit for bit (the bench signature of `chuhan-simd.wasm` checks it).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub fn output_simd128(us: &[i16], them: &[i16], w_us: &[i16], w_them: &[i16]) -> i32 {
    use std::arch::wasm32::*;
    const WASM_LANES: usize = 8;
    let n = us.len();
    if !n.is_multiple_of(WASM_LANES) || them.len() != n || w_us.len() != n || w_them.len() != n {
        return output_scalar(us, them, w_us, w_them);
    }
    // SAFETY: `c` is a `chunks_exact(8)` slice of exactly 8 i16 (16 bytes), all that `v128_load` reads;
    // it needs no alignment.
    let load = |c: &[i16]| unsafe { v128_load(c.as_ptr() as *const v128) };
    let (zero, ceiling) = (i16x8_splat(0), i16x8_splat(QA as i16));
    let mut sum = i32x4_splat(0);
    for (acc, w) in [(us, w_us), (them, w_them)] {
        for (a, w) in acc.chunks_exact(WASM_LANES).zip(w.chunks_exact(WASM_LANES)) {
            let a = i16x8_min(i16x8_max(load(a), zero), ceiling);
            sum = i32x4_add(sum, i32x4_dot_i16x8(a, load(w)));
        }
    }
    i32x4_extract_lane::<0>(sum)
        .wrapping_add(i32x4_extract_lane::<1>(sum))
        .wrapping_add(i32x4_extract_lane::<2>(sum))
        .wrapping_add(i32x4_extract_lane::<3>(sum))
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::random::Rng;

    fn random_i16(rng: &mut Rng, n: usize, span: u64) -> Vec<i16> {
        (0..n).map(|_| ((rng.next_u64() % (2 * span + 1)) as i64 - span as i64) as i16).collect()
    }

    /// [`update`] the obvious way: each lane summed exactly in i64, wrapped to i16 once at the end (the same
    /// result as wrapping at every step, since both are arithmetic modulo 2^16).
    fn update_reference(
        input: &[i16],
        weights: &[i16],
        hidden: usize,
        added: &[usize],
        removed: &[usize],
    ) -> Vec<i16> {
        (0..hidden)
            .map(|i| {
                let row = |f: usize| weights[f * hidden + i] as i64;
                let sum = input[i] as i64 + added.iter().map(|&f| row(f)).sum::<i64>()
                    - removed.iter().map(|&f| row(f)).sum::<i64>();
                sum as i16
            })
            .collect()
    }

    /// [`output`] the obvious way: exact in i64, wrapped to i32 once at the end.
    fn output_reference(us: &[i16], them: &[i16], w_us: &[i16], w_them: &[i16]) -> i32 {
        let half = |acc: &[i16], w: &[i16]| {
            acc.iter().zip(w).map(|(&a, &w)| (a as i64).clamp(0, QA as i64) * w as i64).sum::<i64>()
        };
        (half(us, w_us) + half(them, w_them)) as i32
    }

    /// Checks the portable update, and the SIMD one where this CPU has it (AVX2 on x86-64, NEON on
    /// aarch64), against the reference. Returns whether a SIMD version ran.
    fn check_update(
        input: &[i16],
        weights: &[i16],
        hidden: usize,
        added: &[usize],
        removed: &[usize],
    ) -> bool {
        let want = update_reference(input, weights, hidden, added, removed);
        let what = format!("{} in, {} out, hidden {hidden}", added.len(), removed.len());
        let mut got = vec![0; hidden];
        update_scalar(&mut got, input, weights, hidden, added, removed);
        assert_eq!(got, want, "portable update, {what}");
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            let mut got = vec![0; hidden];
            // SAFETY: AVX2 was detected just above.
            unsafe { update_avx2(&mut got, input, weights, hidden, added, removed) };
            assert_eq!(got, want, "AVX2 update, {what}");
            return true;
        }
        #[cfg(target_arch = "aarch64")]
        {
            let mut got = vec![0; hidden];
            // SAFETY: NEON is part of every aarch64 target.
            unsafe { neon::update(&mut got, input, weights, hidden, added, removed) };
            assert_eq!(got, want, "NEON update, {what}");
        }
        cfg!(target_arch = "aarch64")
    }

    /// [`check_update`] for the output sum.
    fn check_output(us: &[i16], them: &[i16], w_us: &[i16], w_them: &[i16]) -> bool {
        let want = output_reference(us, them, w_us, w_them);
        assert_eq!(output_scalar(us, them, w_us, w_them), want, "portable output, hidden {}", us.len());
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            // SAFETY: AVX2 was detected just above.
            let got = unsafe { output_avx2(us, them, w_us, w_them) };
            assert_eq!(got, want, "AVX2 output, hidden {}", us.len());
            return true;
        }
        // SAFETY: NEON is part of every aarch64 target.
        #[cfg(target_arch = "aarch64")]
        assert_eq!(unsafe { neon::output(us, them, w_us, w_them) }, want, "NEON output, hidden {}", us.len());
        cfg!(target_arch = "aarch64")
    }

    fn note_if_skipped(simd_ran: bool) {
        if !simd_ran {
            eprintln!("no SIMD version for this CPU: only the portable code was checked");
        }
    }

    #[test]
    fn every_version_matches_the_reference_bit_for_bit() {
        let mut rng = Rng::new(5);
        let mut simd_ran = true;
        // Under Miri (scripts/miri.sh) a few rounds: every line of each version still runs.
        let rounds = if cfg!(miri) { 3 } else { 200 };
        for hidden in [16, 128, 256] {
            for _ in 0..rounds {
                // Spans wide enough to wrap: every version must wrap the same way.
                let weights = random_i16(&mut rng, 40 * hidden, 20_000);
                let input = random_i16(&mut rng, hidden, 30_000);
                let added: Vec<usize> = (0..rng.below(4)).map(|_| rng.below(40)).collect();
                let removed: Vec<usize> = (0..rng.below(4)).map(|_| rng.below(40)).collect();
                simd_ran &= check_update(&input, &weights, hidden, &added, &removed);
                let us = random_i16(&mut rng, hidden, 400);
                let them = random_i16(&mut rng, hidden, 400);
                let (wu, wt) = (random_i16(&mut rng, hidden, 32_000), random_i16(&mut rng, hidden, 32_000));
                simd_ran &= check_output(&us, &them, &wu, &wt);
            }
        }
        note_if_skipped(simd_ran);
    }

    #[test]
    fn the_move_shaped_updates_match_the_reference() {
        // A quiet move (one row in, one out), a capture (one in, two out) and a refresh (32 in): the
        // shapes the AVX2 and NEON updates have their own loops for, each checked on purpose rather than
        // by chance.
        let mut rng = Rng::new(9);
        let mut simd_ran = true;
        for hidden in [16, 128, 256] {
            for (n_added, n_removed) in [(1, 1), (1, 2), (32, 0), (0, 0), (2, 1)] {
                for _ in 0..if cfg!(miri) { 2 } else { 50 } {
                    let weights = random_i16(&mut rng, 40 * hidden, 20_000);
                    let input = random_i16(&mut rng, hidden, 30_000);
                    let added: Vec<usize> = (0..n_added).map(|_| rng.below(40)).collect();
                    let removed: Vec<usize> = (0..n_removed).map(|_| rng.below(40)).collect();
                    simd_ran &= check_update(&input, &weights, hidden, &added, &removed);
                }
            }
        }
        note_if_skipped(simd_ran);
    }
}
