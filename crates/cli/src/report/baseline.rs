//! A comparison summarised against a baseline configuration (`--baseline`),
//! in the terms of solver papers and competitions: the instances each
//! configuration finished, its penalised average run time (PAR2 and PAR10),
//! the geometric mean of its per-instance ratios to the baseline, its wins,
//! ties and losses against it, and a paired significance test, its
//! p-values also adjusted for the number of configurations compared with the
//! baseline (Holm 1979).
//!
//! The sums of the totals table mislead as soon as a limit stopped some run:
//! a stopped run's counts are lower bounds, so a configuration that gives up
//! early looks cheap. These summaries treat the runs a limit stopped
//! explicitly.

use std::time::Duration;

use crate::report::compare::{Comparison, Measurement};
use crate::report::holm;
use crate::report::wilcoxon::{self, SignedRank};

/// One configuration against the baseline.
#[derive(Clone, Debug, PartialEq)]
pub struct AgainstBaseline {
    /// Instances this configuration finished (no limit stopped it).
    pub finished: usize,
    /// The penalised average run times in seconds, PAR2 and PAR10: the mean
    /// over the instances of the run's time, or 2 (10) times the time limit
    /// for a run that did not finish; `None` without a time limit.
    pub par: Option<(f64, f64)>,
    /// The instances every configuration finished: the ratios and the tests
    /// are over these.
    pub common: usize,
    /// The geometric mean over the common instances of `(nodes + 1) /
    /// (baseline's nodes + 1)` (one added so that a run without a decision
    /// counts); `None` without common instances.
    pub nodes_ratio: Option<f64>,
    /// The geometric mean over the common instances of the time ratios.
    pub time_ratio: Option<f64>,
    /// Wins, ties and losses on nodes, over every instance: fewer nodes than
    /// the baseline when both finished, or finished where the baseline did
    /// not (a loss the other way round; a tie when neither finished).
    pub nodes_record: (usize, usize, usize),
    /// The Wilcoxon signed-rank test of the nodes over the common instances
    /// (`None` when every pair is equal).
    pub nodes_test: Option<SignedRank>,
    /// The same test of the times.
    pub time_test: Option<SignedRank>,
    /// The p-value of [`AgainstBaseline::nodes_test`] adjusted by Holm's
    /// method ([`holm::holm`]) for the family of the configurations' node
    /// tests against the same baseline (those with a test).
    pub nodes_p_holm: Option<f64>,
    /// The same for the times.
    pub time_p_holm: Option<f64>,
}

/// The time a summary reads from a run: its CPU time when `cpu`, otherwise
/// its wall-clock time.
fn seconds(m: &Measurement, cpu: bool) -> f64 {
    if cpu { m.cpu_time.unwrap_or(m.time) } else { m.time }.as_secs_f64()
}

/// Whether the summaries read CPU time: when every run has it.
pub fn reads_cpu_time(comparison: &Comparison) -> bool {
    comparison.measurements.iter().flatten().all(|m| m.cpu_time.is_some())
}

/// Each configuration of `comparison` (in its order, the baseline's own row
/// included) against the configuration at `baseline`; `limit` is the time
/// limit of the runs, for the penalised run times.
pub fn against_baseline(comparison: &Comparison, baseline: usize, limit: Option<Duration>) -> Vec<AgainstBaseline> {
    let cpu = reads_cpu_time(comparison);
    let instances = comparison.instances.len();
    let common: Vec<usize> =
        (0..instances).filter(|&i| comparison.measurements.iter().all(|row| row[i].is_complete())).collect();
    let base = &comparison.measurements[baseline];
    let mut summaries: Vec<AgainstBaseline> = comparison
        .measurements
        .iter()
        .map(|row| {
            let finished = row.iter().filter(|m| m.is_complete()).count();
            let par = limit.filter(|_| instances > 0).map(|limit| {
                let penalised = |k: f64| {
                    let total: f64 = row
                        .iter()
                        .map(|m| if m.is_complete() { seconds(m, cpu) } else { k * limit.as_secs_f64() })
                        .sum();
                    total / instances as f64
                };
                (penalised(2.0), penalised(10.0))
            });
            let nodes = |m: &Measurement| m.stats.nodes as f64 + 1.0;
            let time = |m: &Measurement| seconds(m, cpu).max(1e-9);
            let ratio = |value: &dyn Fn(&Measurement) -> f64| {
                (!common.is_empty()).then(|| {
                    let logs: f64 = common.iter().map(|&i| (value(&row[i]) / value(&base[i])).ln()).sum();
                    (logs / common.len() as f64).exp()
                })
            };
            let test = |value: &dyn Fn(&Measurement) -> f64| {
                let ours: Vec<f64> = common.iter().map(|&i| value(&row[i])).collect();
                let theirs: Vec<f64> = common.iter().map(|&i| value(&base[i])).collect();
                wilcoxon::signed_rank(&ours, &theirs)
            };
            let mut record = (0, 0, 0);
            for (m, b) in row.iter().zip(base) {
                let outcome = match (m.is_complete(), b.is_complete()) {
                    (true, true) => m.stats.nodes.cmp(&b.stats.nodes).reverse(),
                    (ours, theirs) => ours.cmp(&theirs),
                };
                match outcome {
                    std::cmp::Ordering::Greater => record.0 += 1,
                    std::cmp::Ordering::Equal => record.1 += 1,
                    std::cmp::Ordering::Less => record.2 += 1,
                }
            }
            AgainstBaseline {
                finished,
                par,
                common: common.len(),
                nodes_ratio: ratio(&nodes),
                time_ratio: ratio(&time),
                nodes_record: record,
                nodes_test: test(&nodes),
                time_test: test(&time),
                nodes_p_holm: None,
                time_p_holm: None,
            }
        })
        .collect();
    let p_values = |test: fn(&AgainstBaseline) -> Option<SignedRank>| -> Vec<Option<f64>> {
        summaries.iter().map(|summary| test(summary).map(|t| t.p_value)).collect()
    };
    let nodes = holm::holm(&p_values(|summary| summary.nodes_test));
    let time = holm::holm(&p_values(|summary| summary.time_test));
    for ((summary, nodes), time) in summaries.iter_mut().zip(nodes).zip(time) {
        summary.nodes_p_holm = nodes;
        summary.time_p_holm = time;
    }
    summaries
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::compare::test_models::queens;
    use crate::report::compare::{CompareOptions, Goal, Repeats, compare};
    use csp::{Limits, SolveConfig};

    /// 4- to 7-queens, counted by plain backtracking, forward checking and
    /// MAC, with a node limit that stops plain backtracking on the larger
    /// boards; every time then set by hand, so that the sums are known.
    fn comparison() -> Comparison {
        let models: Vec<(String, csp::Model)> = (4..=7).map(|n| (format!("{n}-queens"), queens(n))).collect();
        let instances: Vec<(&str, &csp::Model)> = models.iter().map(|(name, model)| (name.as_str(), model)).collect();
        let configs: Vec<SolveConfig> = ["bt+input", "fc+mrv", "mac+mrv"].iter().map(|c| c.parse().unwrap()).collect();
        let mut limits = Limits::none();
        limits.nodes = Some(1000);
        let options = CompareOptions { goal: Goal::Count, repeats: Repeats::Exactly(1), limits };
        let mut comparison = compare(&instances, &configs, &options).unwrap();
        for (c, row) in comparison.measurements.iter_mut().enumerate() {
            for (i, m) in row.iter_mut().enumerate() {
                m.cpu_time = Some(Duration::from_millis(((c + 1) * 100 + i * 10) as u64));
            }
        }
        comparison
    }

    #[test]
    fn runs_a_limit_stopped_are_penalised_and_left_out_of_the_ratios() {
        let comparison = comparison();
        let finished: Vec<Vec<bool>> =
            comparison.measurements.iter().map(|row| row.iter().map(Measurement::is_complete).collect()).collect();
        // The node limit stops plain backtracking on some board, not the others.
        assert!(finished[0].contains(&false) && finished[1..].iter().flatten().all(|&f| f), "{finished:?}");
        let summaries = against_baseline(&comparison, 1, Some(Duration::from_secs(1)));
        let common: Vec<usize> = (0..4).filter(|&i| finished[0][i]).collect();
        for (c, summary) in summaries.iter().enumerate() {
            assert_eq!(summary.finished, finished[c].iter().filter(|&&f| f).count());
            assert_eq!(summary.common, common.len());
            // PAR2: the CPU time of a finished run, 2 s for the others; over 4 instances.
            let par2: f64 = (0..4)
                .map(|i| if finished[c][i] { ((c + 1) * 100 + i * 10) as f64 / 1000.0 } else { 2.0 })
                .sum::<f64>()
                / 4.0;
            let (got2, got10) = summary.par.unwrap();
            assert!((got2 - par2).abs() < 1e-12, "{c}: {got2} against {par2}");
            let unfinished = finished[c].iter().filter(|&&f| !f).count() as f64;
            assert!((got10 - par2 - 8.0 * unfinished / 4.0).abs() < 1e-12);
            // Nodes: the geometric mean of (n + 1) / (n_fc + 1) over the common boards.
            let logs: f64 = common
                .iter()
                .map(|&i| {
                    let nodes = |row: usize| comparison.measurements[row][i].stats.nodes as f64 + 1.0;
                    (nodes(c) / nodes(1)).ln()
                })
                .sum();
            assert!((summary.nodes_ratio.unwrap() - (logs / common.len() as f64).exp()).abs() < 1e-12);
            let (wins, ties, losses) = summary.nodes_record;
            assert_eq!(wins + ties + losses, 4);
        }
        // The baseline against itself: ratio 1, every instance a tie, no test.
        let own = &summaries[1];
        assert_eq!((own.nodes_ratio, own.time_ratio, own.nodes_record), (Some(1.0), Some(1.0), (0, 4, 0)));
        assert_eq!((own.nodes_test, own.time_test), (None, None));
        // Holm's correction over the two configurations tested against forward checking.
        let nodes_p: Vec<Option<f64>> = summaries.iter().map(|s| s.nodes_test.map(|t| t.p_value)).collect();
        let adjusted: Vec<Option<f64>> = summaries.iter().map(|s| s.nodes_p_holm).collect();
        assert_eq!(adjusted, holm::holm(&nodes_p));
        assert!(adjusted[1].is_none());
        // Plain backtracking loses on the boards where it was stopped.
        let stopped = finished[0].iter().filter(|&&f| !f).count();
        assert!(summaries[0].nodes_record.2 >= stopped);
        // The times of the common boards: bt 100 + 10 i ms against fc's 200 + 10 i.
        let expected: f64 = common.iter().map(|&i| ((100.0 + 10.0 * i as f64) / (200.0 + 10.0 * i as f64)).ln()).sum();
        assert!((summaries[0].time_ratio.unwrap() - (expected / common.len() as f64).exp()).abs() < 1e-12);
    }

    #[test]
    fn without_a_time_limit_there_is_no_penalised_run_time() {
        let comparison = comparison();
        assert!(against_baseline(&comparison, 0, None).iter().all(|summary| summary.par.is_none()));
    }
}
