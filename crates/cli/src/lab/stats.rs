//! The statistics of the lab's tables: quantiles of samples some of whose
//! values are lower bounds (runs a limit stopped), and the Wilson interval
//! of a proportion.

/// One sampled value: what was measured, and whether it is only a lower
/// bound (a limit stopped the run: the true value is at least this).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The measured value.
    pub value: f64,
    /// Whether the true value may be larger.
    pub lower_bound: bool,
}

/// A statistic of samples, and whether it is exact or only a lower bound.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The value computed from the measured values.
    pub value: f64,
    /// Whether the true statistic may be larger (some samples it depends on
    /// are lower bounds).
    pub lower_bound: bool,
}

/// The quantiles and the mean of a sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// The 10th percentile.
    pub p10: Estimate,
    /// The lower quartile.
    pub q1: Estimate,
    /// The median.
    pub median: Estimate,
    /// The upper quartile.
    pub q3: Estimate,
    /// The 90th percentile.
    pub p90: Estimate,
    /// The mean.
    pub mean: Estimate,
}

impl Summary {
    /// The summary of `samples` (all zero when there are none).
    pub fn of(samples: &[Sample]) -> Summary {
        let mut sorted = samples.to_vec();
        // Among equal values the lower bounds go last: their true values are
        // at least as large, so the exact ones are the order statistics below.
        sorted.sort_by(|a, b| a.value.total_cmp(&b.value).then(a.lower_bound.cmp(&b.lower_bound)));
        let mean =
            if samples.is_empty() { 0.0 } else { samples.iter().map(|s| s.value).sum::<f64>() / samples.len() as f64 };
        Summary {
            p10: quantile(&sorted, 0.1),
            q1: quantile(&sorted, 0.25),
            median: quantile(&sorted, 0.5),
            q3: quantile(&sorted, 0.75),
            p90: quantile(&sorted, 0.9),
            mean: Estimate { value: mean, lower_bound: samples.iter().any(|s| s.lower_bound) },
        }
    }
}

/// The quantile `q` of sorted samples, interpolated linearly between order
/// statistics (Hyndman & Fan 1996, type 7, R's default: the median of an
/// even count is the mean of the middle two). Raising a lower bound can only
/// move it further up the order, so the quantile is exact exactly when no
/// lower bound sits at or below the order statistics it reads.
pub fn quantile(sorted: &[Sample], q: f64) -> Estimate {
    if sorted.is_empty() {
        return Estimate { value: 0.0, lower_bound: false };
    }
    let h = (sorted.len() - 1) as f64 * q;
    let (below, above) = (h.floor() as usize, h.ceil() as usize);
    let value = sorted[below].value + (h - below as f64) * (sorted[above].value - sorted[below].value);
    Estimate { value, lower_bound: sorted[..=above].iter().any(|s| s.lower_bound) }
}

/// The Wilson score interval (Wilson 1927) of `successes` out of `trials`
/// at 95% confidence (z = 1.96): unlike the normal approximation it stays
/// within 0 and 1 and is not empty at 0 or `trials` successes.
pub fn wilson_interval(successes: usize, trials: usize) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let z = 1.96f64;
    let n = trials as f64;
    let p = successes as f64 / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exact(values: &[f64]) -> Vec<Sample> {
        values.iter().map(|&value| Sample { value, lower_bound: false }).collect()
    }

    #[test]
    fn quantiles_interpolate_between_order_statistics() {
        let summary = Summary::of(&exact(&[5.0, 1.0, 3.0, 2.0, 4.0]));
        assert_eq!(
            [summary.p10.value, summary.q1.value, summary.median.value, summary.q3.value, summary.p90.value],
            [1.4, 2.0, 3.0, 4.0, 4.6]
        );
        assert_eq!(summary.mean.value, 3.0);
        assert_eq!(Summary::of(&exact(&[4.0, 1.0, 3.0, 2.0])).median.value, 2.5);
        assert_eq!(Summary::of(&[]).median, Estimate { value: 0.0, lower_bound: false });
        assert!(!summary.median.lower_bound && !summary.mean.lower_bound);
    }

    #[test]
    fn a_quantile_is_a_lower_bound_only_if_a_bound_is_at_or_below_it() {
        // Two of nine runs were stopped at 1000 nodes: the hardest. The
        // median (the 5th value) is exact; the 90th percentile is not.
        let mut samples = exact(&[10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0]);
        samples.extend([Sample { value: 1000.0, lower_bound: true }; 2]);
        let summary = Summary::of(&samples);
        assert_eq!(summary.median, Estimate { value: 50.0, lower_bound: false });
        assert!(!summary.q3.lower_bound, "the 7th of 9 is exact");
        assert!(summary.p90.lower_bound);
        assert!(summary.mean.lower_bound);
        // A run stopped early, below the median, makes the median a bound.
        let mut samples = exact(&[10.0, 20.0, 30.0]);
        samples.push(Sample { value: 5.0, lower_bound: true });
        let summary = Summary::of(&samples);
        assert!(summary.median.lower_bound && summary.p10.lower_bound);
    }

    #[test]
    fn the_wilson_interval_matches_published_values() {
        // 0 of 10: (0, 0.2775); 5 of 10: (0.2366, 0.7634) (Newcombe 1998, table I).
        let (low, high) = wilson_interval(0, 10);
        assert!(low == 0.0 && (high - 0.2775).abs() < 1e-4, "{high}");
        let (low, high) = wilson_interval(5, 10);
        assert!((low - 0.2366).abs() < 1e-4 && (high - 0.7634).abs() < 1e-4, "{low} {high}");
        let (low, high) = wilson_interval(50, 50);
        assert!(high == 1.0 && (low - 0.9287).abs() < 1e-4, "{low}");
        assert_eq!(wilson_interval(0, 0), (0.0, 1.0));
    }
}
