//! The two hot loops of the network, compiled twice: for the baseline x86-64 (SSE2) and for
//! CPUs with AVX2, chosen once at run time. The code is the same plain Rust; AVX2 only lets
//! the compiler use wider vectors (16 lanes of `i16`, 4 of `i64` products).

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

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn screlu_dot_avx2(acc: &[i16; HIDDEN], weights: &[i16]) -> i64 {
    screlu_dot_body(acc, weights)
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
        }
    }
}
