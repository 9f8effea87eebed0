//! The `--stats` batch summary, in constant memory: per-puzzle times go into a
//! log-linear histogram (about 3% resolution) instead of a vector, so a batch
//! of a million puzzles costs the same few kilobytes as a batch of ten.

use std::fmt::Write as _;
use std::time::Duration;

use crate::app::counted;

/// Sub-buckets per power of two: 32 gives a relative error under 1/32.
const SUB_BITS: u32 = 5;
const SUB: u64 = 1 << SUB_BITS;
const BUCKETS: usize = ((64 - SUB_BITS as usize) + 1) << SUB_BITS;

/// A histogram of durations in nanoseconds with exact count, sum and maximum.
#[derive(Clone, Debug)]
pub(super) struct Histogram {
    counts: Vec<u64>,
    total: u64,
    max: u64,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram { counts: vec![0; BUCKETS], total: 0, max: 0 }
    }
}

fn bucket(v: u64) -> usize {
    if v < SUB {
        return v as usize;
    }
    let exponent = 63 - v.leading_zeros();
    let shift = exponent - SUB_BITS;
    let mantissa = v >> shift; // in SUB..2*SUB
    (((shift + 1) as usize) << SUB_BITS) + (mantissa - SUB) as usize
}

/// The smallest value of a bucket and the first value past it.
fn bounds(index: usize) -> (u64, u64) {
    let index = index as u64;
    if index < SUB {
        return (index, index + 1);
    }
    let shift = (index >> SUB_BITS) - 1;
    let mantissa = (index & (SUB - 1)) + SUB;
    let high = (u128::from(mantissa + 1) << shift).min(u128::from(u64::MAX)) as u64;
    (mantissa << shift, high)
}

impl Histogram {
    /// Records one value.
    pub(super) fn record(&mut self, nanos: u64) {
        self.counts[bucket(nanos)] += 1;
        self.total += 1;
        self.max = self.max.max(nanos);
    }

    /// The number of values.
    pub(super) fn len(&self) -> u64 {
        self.total
    }

    /// The largest value (exact).
    pub(super) fn max(&self) -> u64 {
        self.max
    }

    /// The `q`-quantile (0 to 1), as the middle of its bucket, never above the maximum.
    pub(super) fn quantile(&self, q: f64) -> u64 {
        if self.total == 0 {
            return 0;
        }
        let rank = ((q * self.total as f64).ceil() as u64).clamp(1, self.total);
        let mut seen = 0;
        for (index, &count) in self.counts.iter().enumerate() {
            seen += count;
            if seen >= rank {
                let (low, high) = bounds(index);
                return (low + (high - low - 1) / 2).min(self.max);
            }
        }
        self.max
    }
}

/// A duration in nanoseconds with a unit that suits it: `812 ns`, `16.3 µs`,
/// `1.21 ms`, `3.45 s` (three significant digits or so).
pub(super) fn duration_text(nanos: u64) -> String {
    let value = nanos as f64;
    let (scaled, unit) = if nanos < 1_000 {
        return format!("{nanos} ns");
    } else if nanos < 1_000_000 {
        (value / 1e3, "µs")
    } else if nanos < 1_000_000_000 {
        (value / 1e6, "ms")
    } else {
        (value / 1e9, "s")
    };
    let decimals = if scaled < 10.0 {
        2
    } else if scaled < 100.0 {
        1
    } else {
        0
    };
    format!("{scaled:.decimals$} {unit}")
}

/// The summary's `wall time` line: seconds, puzzles per second, jobs.
pub(super) fn wall_line(puzzles: u64, wall: Duration, jobs: usize) -> String {
    let seconds = wall.as_secs_f64();
    let rate = if seconds > 0.0 { puzzles as f64 / seconds } else { 0.0 };
    format!(
        "wall time       {seconds:.3} s, {}/s ({}, parsing and output included)\n",
        counted(rate.round() as u64, "puzzle", "puzzles"),
        counted(jobs as u64, "job", "jobs")
    )
}

/// What a batch did, puzzle by puzzle.
#[derive(Clone, Debug, Default)]
pub(super) struct Summary {
    pub(super) puzzles: u64,
    pub(super) solved: u64,
    pub(super) unsatisfiable: u64,
    pub(super) limit: u64,
    pub(super) invalid: u64,
    /// Puzzles the search solved without a decision (propagation alone).
    pub(super) no_guess: u64,
    pub(super) nodes: u64,
    pub(super) max_nodes: u64,
    pub(super) backtracks: u64,
    /// Per-puzzle times of the puzzles that reached the solver.
    pub(super) times: Histogram,
}

impl Summary {
    /// Records a puzzle that reached the solver.
    pub(super) fn searched(&mut self, nanos: u64, nodes: u64, backtracks: u64) {
        self.times.record(nanos);
        self.nodes += nodes;
        self.max_nodes = self.max_nodes.max(nodes);
        self.backtracks += backtracks;
    }

    /// The summary as a few aligned lines.
    pub(super) fn render(&self, wall: Duration, jobs: usize) -> String {
        let mut out = String::new();
        let searched = self.times.len().max(1) as f64;
        let _ = writeln!(
            out,
            "puzzles         {} (solved {}, unsatisfiable {}, limit reached {}, bad input {})",
            self.puzzles, self.solved, self.unsatisfiable, self.limit, self.invalid
        );
        out.push_str(&wall_line(self.puzzles, wall, jobs));
        let _ = writeln!(
            out,
            "time per puzzle median {}, p90 {}, max {} (model, search and verification)",
            duration_text(self.times.quantile(0.5)),
            duration_text(self.times.quantile(0.9)),
            duration_text(self.times.max())
        );
        let _ = writeln!(
            out,
            "per puzzle      {:.2} nodes (max {}), {:.2} backtracks",
            self.nodes as f64 / searched,
            self.max_nodes,
            self.backtracks as f64 / searched
        );
        let _ = writeln!(
            out,
            "no guessing     {:.1}% solved by propagation alone",
            100.0 * self.no_guess as f64 / searched
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_cover_values_in_order_with_small_error() {
        let mut previous = 0;
        for v in (0..5000u64).chain([1 << 20, (1 << 40) + 12345, u64::MAX]) {
            let b = bucket(v);
            assert!(b >= previous && b < BUCKETS);
            previous = b;
            let (low, high) = bounds(b);
            assert!(low <= v && (v < high || v == u64::MAX), "{v} in {low}..{high}");
            assert!((high - low) as f64 <= (low as f64 / 32.0).max(1.0) + 1.0);
        }
    }

    #[test]
    fn durations_get_a_unit_that_suits_them() {
        assert_eq!(duration_text(812), "812 ns");
        assert_eq!(duration_text(16_300), "16.3 µs");
        assert_eq!(duration_text(1_211_428_100), "1.21 s");
        assert_eq!(duration_text(4_400_000), "4.40 ms");
        assert_eq!(duration_text(250_000_000), "250 ms");
        let mut summary = Summary { puzzles: 1, ..Summary::default() };
        summary.searched(1_211_428_100, 3, 1);
        let text = summary.render(Duration::from_secs(1), 1);
        assert!(text.contains("1 puzzle/s (1 job,"), "{text}");
        assert!(text.contains("time per puzzle median 1.2"), "{text}");
        assert!(text.contains(" s, p90 1.2"), "{text}");
    }

    #[test]
    fn quantiles_are_close() {
        let mut h = Histogram::default();
        for v in 1..=1000u64 {
            h.record(v * 1000);
        }
        let median = h.quantile(0.5) as f64;
        assert!((median - 500_000.0).abs() / 500_000.0 < 0.04, "{median}");
        let p90 = h.quantile(0.9) as f64;
        assert!((p90 - 900_000.0).abs() / 900_000.0 < 0.04, "{p90}");
        assert_eq!(h.max(), 1_000_000);
        assert_eq!(Histogram::default().quantile(0.5), 0);
    }
}
