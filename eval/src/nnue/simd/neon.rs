//! The NEON versions of [`super::update`] and [`super::output`], for aarch64 (Linux, Android, Windows on
//! ARM, Apple silicon). NEON is part of every aarch64 CPU the targets allow (the targets enable it), so
//! there is nothing to detect: these replace the portable loops outright. A NEON register holds eight i16, half an AVX2 one; the
//! arithmetic wraps as the portable code's does, so the results are identical bit for bit (the tests in
//! [`super`] check it under qemu).

use super::super::network::QA;
use super::LANES;
use std::arch::aarch64::*;

/// Lanes of i16 in one NEON register.
const NEON_LANES: usize = 8;

/// Eight i16 from the start of `c`.
#[inline]
#[target_feature(enable = "neon")]
fn load(c: &[i16]) -> int16x8_t {
    assert!(c.len() >= NEON_LANES);
    // SAFETY: the assert keeps the 128-bit unaligned load inside `c`.
    unsafe { vld1q_s16(c.as_ptr()) }
}

/// Writes `v` to the first eight i16 of `c`.
#[inline]
#[target_feature(enable = "neon")]
fn store(c: &mut [i16], v: int16x8_t) {
    assert!(c.len() >= NEON_LANES);
    // SAFETY: the assert keeps the 128-bit unaligned store inside `c`.
    unsafe { vst1q_s16(c.as_mut_ptr(), v) }
}

/// NEON [`super::update`]. As in the AVX2 version, the two shapes a search's moves have (one row in and
/// one out; one in and two out for a capture) get loops with their rows sliced once; a refresh walks the
/// feature lists for every eight lanes.
///
/// # Safety
/// The CPU must have NEON, which every aarch64 target Rust builds for assumes.
#[target_feature(enable = "neon")]
pub fn update(
    out: &mut [i16],
    input: &[i16],
    weights: &[i16],
    hidden: usize,
    added: &[usize],
    removed: &[usize],
) {
    assert!(hidden.is_multiple_of(LANES) && out.len() >= hidden && input.len() >= hidden);
    let (out, input) = (&mut out[..hidden], &input[..hidden]);
    let row = |f: usize| &weights[f * hidden..(f + 1) * hidden];
    let lanes = |s| <[i16]>::chunks_exact(s, NEON_LANES);
    match (added, removed) {
        (&[a], &[r]) => {
            let rows = lanes(row(a)).zip(lanes(row(r)));
            for ((o, i), (a, r)) in out.chunks_exact_mut(NEON_LANES).zip(lanes(input)).zip(rows) {
                store(o, vsubq_s16(vaddq_s16(load(i), load(a)), load(r)));
            }
        }
        (&[a], &[r1, r2]) => {
            let rows = lanes(row(a)).zip(lanes(row(r1))).zip(lanes(row(r2)));
            for ((o, i), ((a, r1), r2)) in out.chunks_exact_mut(NEON_LANES).zip(lanes(input)).zip(rows) {
                store(o, vsubq_s16(vsubq_s16(vaddq_s16(load(i), load(a)), load(r1)), load(r2)));
            }
        }
        _ => {
            for c in (0..hidden).step_by(NEON_LANES) {
                let mut v = load(&input[c..]);
                for &f in added {
                    v = vaddq_s16(v, load(&row(f)[c..]));
                }
                for &f in removed {
                    v = vsubq_s16(v, load(&row(f)[c..]));
                }
                store(&mut out[c..], v);
            }
        }
    }
}

/// NEON [`super::output`]: clamp, multiply into 32-bit products and accumulate them (`smlal`, low and high
/// halves), add the four lanes up. The products are exact and every sum wraps modulo 2^32, as in the
/// portable loop.
///
/// # Safety
/// The CPU must have NEON, as for [`update`].
#[target_feature(enable = "neon")]
pub fn output(us: &[i16], them: &[i16], w_us: &[i16], w_them: &[i16]) -> i32 {
    let n = us.len();
    assert!(n.is_multiple_of(LANES) && them.len() == n && w_us.len() == n && w_them.len() == n);
    let zero = vdupq_n_s16(0);
    let ceiling = vdupq_n_s16(QA as i16);
    let mut sum = vdupq_n_s32(0);
    for (acc, w) in [(us, w_us), (them, w_them)] {
        for (a, w) in acc.chunks_exact(NEON_LANES).zip(w.chunks_exact(NEON_LANES)) {
            let a = vminq_s16(vmaxq_s16(load(a), zero), ceiling);
            let w = load(w);
            sum = vmlal_s16(sum, vget_low_s16(a), vget_low_s16(w));
            sum = vmlal_high_s16(sum, a, w);
        }
    }
    vaddvq_s32(sum)
}
