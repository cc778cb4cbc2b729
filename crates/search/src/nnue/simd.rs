//! The hot loops of the network, compiled twice: for the baseline x86-64 (SSE2) and for CPUs
//! with AVX2, chosen once at run time. The accumulator updates are the same plain Rust for
//! both (AVX2 only lets the compiler use 16 lanes of `i16`); the output's dot product has
//! AVX2 code of its own, checked against the plain one.

use super::{HIDDEN, QA};
use std::sync::OnceLock;

/// `Σ clamp(a, 0, QA)² · w` over one perspective. One term fits in `i32` (511 · 32767 < 2³¹
/// for `v · w`), the product with `v` is taken in `i64`, and so is the sum, whatever weights
/// a network file holds.
#[inline(always)]
fn screlu_dot_body(acc: &[i16; HIDDEN], weights: &[i16]) -> i64 {
    let mut total = 0i64;
    for (a, w) in acc.chunks_exact(16).zip(weights.chunks_exact(16)) {
        let mut lanes = [0i64; 16];
        for i in 0..16 {
            let v = (a[i] as i32).clamp(0, QA);
            lanes[i] = (v * w[i] as i32) as i64 * v as i64;
        }
        total += lanes.iter().sum::<i64>();
    }
    total
}

/// `values += added rows - removed rows`.
#[inline(always)]
fn update_body(values: &mut [i16; HIDDEN], added: &[&[i16; HIDDEN]], removed: &[&[i16; HIDDEN]]) {
    for row in added {
        for (v, w) in values.iter_mut().zip(row.iter()) {
            *v = v.wrapping_add(*w);
        }
    }
    for row in removed {
        for (v, w) in values.iter_mut().zip(row.iter()) {
            *v = v.wrapping_sub(*w);
        }
    }
}

// The AVX2 dot product sums in `i32` lanes: at most `HIDDEN / 16` steps add two products of
// a clipped activation and a 16-bit value to each lane.
const _: () = assert!((HIDDEN / 16) as i64 * 2 * QA as i64 * 32768 <= i32::MAX as i64);

/// [`screlu_dot_body`] with 16-bit multiplies: `Σ v² · w = Σ v · (v · w)`, where the 32-bit
/// `v · w` is taken apart as `hi · 2¹⁶ + lo` with both halves signed 16-bit, so that each
/// half goes through `pmaddwd` (16 × 16-bit products summed in pairs into `i32`). Exact for
/// any weights, like the body.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn screlu_dot_avx2(acc: &[i16; HIDDEN], weights: &[i16]) -> i64 {
    use std::arch::x86_64::*;
    assert!(weights.len() >= HIDDEN);
    let zero = _mm256_setzero_si256();
    let qa = _mm256_set1_epi16(QA as i16);
    let mut sum_hi = _mm256_setzero_si256();
    let mut sum_lo = _mm256_setzero_si256();
    for i in (0..HIDDEN).step_by(16) {
        // SAFETY: i + 16 <= HIDDEN <= both lengths, and loadu takes unaligned addresses.
        #[allow(unsafe_code)]
        let (a, w) = unsafe {
            (
                _mm256_loadu_si256(acc.as_ptr().add(i).cast()),
                _mm256_loadu_si256(weights.as_ptr().add(i).cast()),
            )
        };
        let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
        let lo = _mm256_mullo_epi16(v, w);
        // mulhi's high half belongs with an unsigned low half; a negative `lo` borrows
        // one from it, which the arithmetic shift (-1 or 0) gives back.
        let hi = _mm256_sub_epi16(_mm256_mulhi_epi16(v, w), _mm256_srai_epi16(lo, 15));
        sum_hi = _mm256_add_epi32(sum_hi, _mm256_madd_epi16(v, hi));
        sum_lo = _mm256_add_epi32(sum_lo, _mm256_madd_epi16(v, lo));
    }
    let mut hi = [0i32; 8];
    let mut lo = [0i32; 8];
    // SAFETY: each array holds exactly 32 bytes, and storeu takes unaligned addresses.
    #[allow(unsafe_code)]
    unsafe {
        _mm256_storeu_si256(hi.as_mut_ptr().cast(), sum_hi);
        _mm256_storeu_si256(lo.as_mut_ptr().cast(), sum_lo);
    }
    let wide = |lanes: [i32; 8]| lanes.iter().map(|&x| x as i64).sum::<i64>();
    (wide(hi) << 16) + wide(lo)
}

/// `out = from + added rows - removed rows`, in one pass for the deltas moves make (as
/// many rows added as removed, one or two).
#[inline(always)]
fn update_from_body(
    out: &mut [i16; HIDDEN],
    from: &[i16; HIDDEN],
    added: &[&[i16; HIDDEN]],
    removed: &[&[i16; HIDDEN]],
) {
    match (added, removed) {
        ([a], [r]) => {
            for i in 0..HIDDEN {
                out[i] = from[i].wrapping_add(a[i]).wrapping_sub(r[i]);
            }
        }
        ([a0, a1], [r0, r1]) => {
            for i in 0..HIDDEN {
                out[i] = from[i]
                    .wrapping_add(a0[i])
                    .wrapping_add(a1[i])
                    .wrapping_sub(r0[i])
                    .wrapping_sub(r1[i]);
            }
        }
        _ => {
            *out = *from;
            update_body(out, added, removed);
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn update_from_avx2(
    out: &mut [i16; HIDDEN],
    from: &[i16; HIDDEN],
    added: &[&[i16; HIDDEN]],
    removed: &[&[i16; HIDDEN]],
) {
    update_from_body(out, from, added, removed)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn update_avx2(values: &mut [i16; HIDDEN], added: &[&[i16; HIDDEN]], removed: &[&[i16; HIDDEN]]) {
    update_body(values, added, removed)
}

/// Whether this CPU has AVX2, asked once.
fn has_avx2() -> bool {
    static AVX2: OnceLock<bool> = OnceLock::new();
    *AVX2.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            std::arch::is_x86_feature_detected!("avx2")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    })
}

/// [`screlu_dot_body`], with AVX2 where the CPU has it.
#[inline]
pub(crate) fn screlu_dot(acc: &[i16; HIDDEN], weights: &[i16]) -> i64 {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the function only needs AVX2, and has_avx2 checked that this CPU has it.
        #[allow(unsafe_code)]
        return unsafe { screlu_dot_avx2(acc, weights) };
    }
    screlu_dot_body(acc, weights)
}

/// [`update_body`], with AVX2 where the CPU has it.
#[inline]
pub(crate) fn update(
    values: &mut [i16; HIDDEN],
    added: &[&[i16; HIDDEN]],
    removed: &[&[i16; HIDDEN]],
) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the function only needs AVX2, and has_avx2 checked that this CPU has it.
        #[allow(unsafe_code)]
        return unsafe { update_avx2(values, added, removed) };
    }
    update_body(values, added, removed)
}

/// [`update_from_body`], with AVX2 where the CPU has it.
#[inline]
pub(crate) fn update_from(
    out: &mut [i16; HIDDEN],
    from: &[i16; HIDDEN],
    added: &[&[i16; HIDDEN]],
    removed: &[&[i16; HIDDEN]],
) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the function only needs AVX2, and has_avx2 checked that this CPU has it.
        #[allow(unsafe_code)]
        return unsafe { update_from_avx2(out, from, added, removed) };
    }
    update_from_body(out, from, added, removed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gogo_rules::Rng;

    /// Both builds of each loop give the same numbers, extreme values included.
    #[test]
    fn avx2_and_baseline_agree() {
        let mut rng = Rng::new(1);
        for _ in 0..200 {
            let mut acc = [0i16; HIDDEN];
            let mut w = [0i16; HIDDEN];
            for i in 0..HIDDEN {
                acc[i] = (rng.below(65536) as i32 - 32768) as i16;
                w[i] = (rng.below(65536) as i32 - 32768) as i16;
            }
            assert_eq!(screlu_dot(&acc, &w), screlu_dot_body(&acc, &w));
            let mut a = acc;
            let mut b = acc;
            let row: [i16; HIDDEN] = w;
            update(&mut a, &[&row], &[&row, &row]);
            update_body(&mut b, &[&row], &[&row, &row]);
            assert_eq!(a, b);
            // The one-pass update from another accumulator equals copy-then-update, for
            // each shape of delta.
            let other: [i16; HIDDEN] = std::array::from_fn(|i| acc[(i * 7) % HIDDEN]);
            for (added, removed) in [(1, 1), (2, 2), (0, 0), (2, 1), (1, 0)] {
                let rows = [&row, &other];
                let mut fused = [0i16; HIDDEN];
                update_from(&mut fused, &acc, &rows[..added], &rows[..removed]);
                let mut copied = acc;
                update_body(&mut copied, &rows[..added], &rows[..removed]);
                assert_eq!(fused, copied, "{added} added, {removed} removed");
            }
        }
    }

    /// The sums at their extremes: every activation clipped high with the most negative
    /// weight (whose 16-bit low half is -2¹⁵, the largest `pmaddwd` term), and the other
    /// corners.
    #[test]
    fn the_dot_product_is_exact_at_the_extremes() {
        let activations = [i16::MIN, -1, 0, 1, QA as i16 - 1, QA as i16, i16::MAX];
        let weights = [i16::MIN, i16::MIN + 1, -1, 0, 1, i16::MAX - 1, i16::MAX];
        for &a in &activations {
            for &w in &weights {
                let acc = [a; HIDDEN];
                let row = [w; HIDDEN];
                let v = (a as i64).clamp(0, QA as i64);
                assert_eq!(screlu_dot(&acc, &row), HIDDEN as i64 * v * v * w as i64);
            }
        }
    }
}
