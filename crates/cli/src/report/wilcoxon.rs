//! The Wilcoxon signed-rank test (Wilcoxon 1945) of paired measurements:
//! whether two configurations' per-instance measurements differ in
//! location, without assuming they are normally distributed.
//!
//! It follows `scipy.stats.wilcoxon` with its defaults (two-sided,
//! `zero_method="wilcox"`, no continuity correction, `method="auto"`): zero
//! differences are dropped; the absolute differences are ranked, ties taking
//! their mean rank; the statistic is the smaller of the sums of the positive
//! and of the negative ranks. The p-value is exact (the statistic's
//! distribution under the null hypothesis, every sign equally likely,
//! counted) when at most [`EXACT_MAX`] differences remain and none are tied;
//! otherwise it is the normal approximation, the variance reduced by
//! `sum(t^3 - t) / 48` over the groups of `t` tied ranks.

/// The most nonzero differences, without ties, whose p-value is exact.
pub const EXACT_MAX: usize = 50;

/// The result of [`signed_rank`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SignedRank {
    /// The pairs with a nonzero difference (the others are dropped).
    pub n: usize,
    /// The smaller of the positive and the negative rank sums.
    pub statistic: f64,
    /// The two-sided p-value.
    pub p_value: f64,
    /// Whether `p_value` is exact (otherwise the normal approximation).
    pub exact: bool,
}

/// The two-sided Wilcoxon signed-rank test of the differences `x[i] - y[i]`;
/// `None` when no difference is nonzero (or the slices differ in length).
pub fn signed_rank(x: &[f64], y: &[f64]) -> Option<SignedRank> {
    if x.len() != y.len() {
        return None;
    }
    let mut differences: Vec<f64> = x.iter().zip(y).map(|(a, b)| a - b).filter(|d| *d != 0.0).collect();
    let n = differences.len();
    if n == 0 {
        return None;
    }
    differences.sort_by(|a, b| a.abs().total_cmp(&b.abs()));
    // Ranks 1..=n, a group of equal absolute differences taking its mean
    // rank; `ties` collects `t^3 - t` per group.
    let (mut positive, mut negative, mut ties, mut tied) = (0.0, 0.0, 0.0, false);
    let mut start = 0;
    while start < n {
        let mut end = start + 1;
        while end < n && differences[end].abs() == differences[start].abs() {
            end += 1;
        }
        let t = (end - start) as f64;
        let rank = (start + end + 1) as f64 / 2.0;
        for d in &differences[start..end] {
            if *d > 0.0 { positive += rank } else { negative += rank }
        }
        if end - start > 1 {
            tied = true;
            ties += t * t * t - t;
        }
        start = end;
    }
    let statistic = f64::min(positive, negative);
    let exact = n <= EXACT_MAX && !tied;
    let p_value = if exact {
        exact_two_sided(n, statistic as usize)
    } else {
        let nf = n as f64;
        let mean = nf * (nf + 1.0) / 4.0;
        let variance = nf * (nf + 1.0) * (2.0 * nf + 1.0) / 24.0 - ties / 48.0;
        if variance <= 0.0 { 1.0 } else { (2.0 * normal_cdf((statistic - mean) / variance.sqrt())).min(1.0) }
    };
    Some(SignedRank { n, statistic, p_value, exact })
}

/// `2 P(T <= w)`, at most 1, where `T` is the sum of the ranks `1..=n` that
/// carry a positive sign when each sign is a fair coin: the number of subsets
/// of `1..=n` with each sum, counted by dynamic programming (at most
/// `2^50` subsets, which a `f64` counts exactly).
fn exact_two_sided(n: usize, w: usize) -> f64 {
    let total = n * (n + 1) / 2;
    let mut count = vec![0.0_f64; total + 1];
    count[0] = 1.0;
    for rank in 1..=n {
        for sum in (rank..=total).rev() {
            count[sum] += count[sum - rank];
        }
    }
    let at_most: f64 = count[..=w.min(total)].iter().sum();
    (2.0 * at_most / 2f64.powi(n as i32)).min(1.0)
}

/// The standard normal distribution function, `erfc(-z / sqrt 2) / 2`.
fn normal_cdf(z: f64) -> f64 {
    0.5 * erfc(-z / std::f64::consts::SQRT_2)
}

/// The complementary error function, by its Chebyshev fit (Press, Teukolsky,
/// Vetterling & Flannery, Numerical Recipes, `erfcc`): relative error below
/// 1.2e-7 everywhere, far below what a p-value needs.
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let value = t * poly.exp();
    if x >= 0.0 { value } else { 2.0 - value }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Darwin's Zea mays data, the differences in height of 15 pairs of
    /// plants (cross- minus self-fertilised, eighths of an inch), the
    /// example of `scipy.stats.wilcoxon`'s documentation (SciPy 1.11):
    /// `wilcoxon(d)` gives statistic 24.0 and p-value 0.041259765625 (exact),
    /// `wilcoxon(d, method="approx")` 24.0 and 0.04088813291185591.
    const ZEA_MAYS: [f64; 15] = [6., 8., 14., 16., 23., 24., 28., 29., 41., -48., 49., 56., 60., -67., 75.];

    #[test]
    fn darwins_zea_mays_exactly_as_scipy() {
        let zero = [0.0; 15];
        let test = signed_rank(&ZEA_MAYS, &zero).unwrap();
        assert_eq!((test.n, test.statistic, test.exact), (15, 24.0, true));
        assert!((test.p_value - 0.041259765625).abs() < 1e-12, "{test:?}");
        // The pairs' order does not matter, nor which side is x.
        let swapped = signed_rank(&zero, &ZEA_MAYS).unwrap();
        assert_eq!(swapped.p_value, test.p_value);
    }

    #[test]
    fn the_normal_approximation_as_scipy() {
        // The approximation on ZEA_MAYS: z = (24 - 60) / sqrt(310),
        // p = 2 Phi(z) = 0.04088813291185591 (scipy's documentation; Python's
        // `math.erfc` gives 0.040888132911855925).
        let nf = 15.0_f64;
        let z = (24.0 - nf * (nf + 1.0) / 4.0) / (nf * (nf + 1.0) * (2.0 * nf + 1.0) / 24.0).sqrt();
        assert!((2.0 * normal_cdf(z) - 0.04088813291185591).abs() < 1e-7);
        // Sixty differences, beyond the exact range, none tied: ZEA_MAYS and
        // three copies moved away from zero by 100, 200 and 300.
        let many: Vec<f64> =
            (0..4).flat_map(|k| ZEA_MAYS.iter().map(move |d| d + d.signum() * 100.0 * k as f64)).collect();
        let test = signed_rank(&many, &[0.0; 60]).unwrap();
        assert!(!test.exact && test.n == 60);
        assert!(test.p_value > 0.0 && test.p_value < 0.05, "{test:?}");
    }

    #[test]
    fn small_samples_exactly() {
        // Five positive differences: T = 0, p = 2 / 2^5 = 0.0625, the
        // smallest two-sided p-value of five pairs (scipy: 0.0625).
        let test = signed_rank(&[1., 2., 3., 4., 5.], &[0.; 5]).unwrap();
        assert_eq!((test.statistic, test.p_value, test.exact), (0.0, 0.0625, true));
        // Mixed signs: positive ranks 1 + 3 + 5 = 9, negative 2 + 4 = 6;
        // 13 of the 32 sign patterns have a sum of at most 6 ({}, {1}, {2},
        // {3}, {1,2}, {4}, {1,3}, {5}, {1,4}, {2,3}, {1,5}, {2,4}, {1,2,3}):
        // p = 2 * 13 / 32 = 0.8125.
        let test = signed_rank(&[1., -2., 3., -4., 5.], &[0.; 5]).unwrap();
        assert_eq!((test.statistic, test.p_value), (6.0, 0.8125));
        // Symmetric: positive 1 + 4 = 5 and negative 2 + 3 = 5 give 2 P(T <= 5) > 1, capped.
        assert_eq!(signed_rank(&[1., -2., -3., 4.], &[0.; 4]).unwrap().p_value, 1.0);
        // Zero differences are dropped: nothing left, no test.
        assert_eq!(signed_rank(&[3., 4.], &[3., 4.]), None);
        assert_eq!(signed_rank(&[1.], &[1., 2.]), None);
    }

    #[test]
    fn ties_take_mean_ranks_and_the_corrected_approximation() {
        // |d| = 1, 1, 2, 2, 2 with signs +, +, +, +, -: ranks 1.5, 1.5, 4,
        // 4, 4; negative sum 4, positive 11. Ties: (8 - 2) + (27 - 3) = 30,
        // variance 55/4 - 30/48 = 13.125, z = (4 - 7.5) / sqrt(13.125)
        // = -0.9660918, p = 2 Phi(z) = 0.33399825582199805 (computed with
        // Python's `math.erfc(-z / math.sqrt(2))`).
        let test = signed_rank(&[1., 1., 2., 2., -2.], &[0.; 5]).unwrap();
        assert_eq!((test.statistic, test.exact), (4.0, false));
        assert!((test.p_value - 0.333_998_255_822).abs() < 1e-6, "{test:?}");
    }

    #[test]
    fn the_exact_distribution_sums_to_one() {
        // P(T <= n(n+1)/2) = 1 (capped), and the distribution is symmetric:
        // P(T <= k) = P(T >= total - k).
        assert_eq!(exact_two_sided(10, 55), 1.0);
        let below = exact_two_sided(12, 20) / 2.0;
        let mut count = vec![0.0_f64; 79];
        count[0] = 1.0;
        for rank in 1..=12 {
            for sum in (rank..=78).rev() {
                count[sum] += count[sum - rank];
            }
        }
        let above: f64 = count[58..].iter().sum::<f64>() / 4096.0;
        assert!((below - above).abs() < 1e-15);
    }
}
