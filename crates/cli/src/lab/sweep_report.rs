//! The report of a sweep: per point and algorithm the quantiles of checks,
//! nodes, CPU time (and nogoods learnt, when an algorithm learns), the satisfiable fraction with its 95% interval; every
//! run as a record; the chart; the backjumping checks.

use std::time::Duration;

use super::stats::{Estimate, Sample, Summary, wilson_interval};
use super::sweep::{InstanceOutcome, Run, Sweep};
use crate::report::plot::{CurveChart, CurvePanel, Series, compact};
use crate::report::{Cell, Report, Table, millis};

/// One algorithm at one point, over the samples.
#[derive(Clone, Debug, PartialEq)]
pub struct Cost {
    /// Constraint checks.
    pub checks: Summary,
    /// Nodes.
    pub nodes: Summary,
    /// Nogoods learnt (all zero for an algorithm that does not learn).
    pub learnt: Summary,
    /// CPU milliseconds (wall-clock milliseconds where the platform has no thread CPU clock).
    pub cpu_ms: Summary,
    /// Runs a limit stopped (their counts are lower bounds).
    pub limited: usize,
    /// The wall-clock time of all its runs.
    pub time: Duration,
    /// The CPU time of all its runs (`None` without a thread CPU clock).
    pub cpu_time: Option<Duration>,
}

/// One value of the swept parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// The parameter's value.
    pub value: f64,
    /// Instances run.
    pub instances: usize,
    /// Instances found satisfiable.
    pub satisfiable: usize,
    /// Instances on which every algorithm was stopped by a limit.
    pub undecided: usize,
    /// Instances with a variable whose every value is flawed (for the families whose instances may be).
    pub flawed: Option<usize>,
    /// Per algorithm, in the sweep's order.
    pub costs: Vec<Cost>,
}

impl Point {
    /// The fraction of the decided instances that are satisfiable (0 when none was decided).
    pub fn satisfiable_fraction(&self) -> f64 {
        let decided = self.instances - self.undecided;
        if decided == 0 { 0.0 } else { self.satisfiable as f64 / decided as f64 }
    }

    /// The 95% Wilson interval of the satisfiable fraction.
    pub fn satisfiable_interval(&self) -> (f64, f64) {
        wilson_interval(self.satisfiable, self.instances - self.undecided)
    }
}

/// Kondrak & van Beek (1997): with the same variable and value order,
/// conflict-directed backjumping never explores more nodes than its
/// chronological twin. The sweep checks it on every instance.
#[derive(Clone, Debug, PartialEq)]
pub struct TwinCheck {
    /// The index of the backjumping algorithm.
    pub backjumping: usize,
    /// The index of its chronological twin.
    pub chronological: usize,
    /// Instances on which both runs finished.
    pub compared: usize,
    /// Instances on which the backjumping run explored more nodes.
    pub more_nodes: usize,
    /// The parameter value and seed of the first such instance.
    pub example: Option<(f64, u64)>,
}

/// The result of a sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepResult {
    /// What was run.
    pub sweep: Sweep,
    /// One per parameter value, in order.
    pub points: Vec<Point>,
    /// Every instance and its runs, point by point, sample by sample.
    pub instances: Vec<InstanceOutcome>,
    /// The backjumping checks.
    pub twins: Vec<TwinCheck>,
}

fn samples(runs: impl Iterator<Item = (f64, bool)>) -> Vec<Sample> {
    runs.map(|(value, complete)| Sample { value, lower_bound: !complete }).collect()
}

fn run_cpu_ms(run: &Run) -> f64 {
    millis(run.cpu_time.unwrap_or(run.time))
}

impl SweepResult {
    /// Summarises the outcomes of `sweep` (sorted by point and sample).
    pub fn new(sweep: Sweep, instances: Vec<InstanceOutcome>) -> SweepResult {
        let mut points = Vec::with_capacity(sweep.values.len());
        for (p, &value) in sweep.values.iter().enumerate() {
            let here: Vec<&InstanceOutcome> = instances.iter().filter(|o| o.point == p).collect();
            let costs = (0..sweep.algorithms.len())
                .map(|a| {
                    let runs = || here.iter().map(|o| &o.runs[a]);
                    Cost {
                        checks: Summary::of(&samples(runs().map(|r| (r.checks as f64, r.complete)))),
                        nodes: Summary::of(&samples(runs().map(|r| (r.nodes as f64, r.complete)))),
                        learnt: Summary::of(&samples(runs().map(|r| (r.learnt as f64, r.complete)))),
                        cpu_ms: Summary::of(&samples(runs().map(|r| (run_cpu_ms(r), r.complete)))),
                        limited: runs().filter(|r| !r.complete).count(),
                        time: runs().map(|r| r.time).sum(),
                        cpu_time: runs().map(|r| r.cpu_time).sum(),
                    }
                })
                .collect();
            points.push(Point {
                value,
                instances: here.len(),
                satisfiable: here.iter().filter(|o| o.satisfiable == Some(true)).count(),
                undecided: here.iter().filter(|o| o.satisfiable.is_none()).count(),
                flawed: sweep
                    .generator
                    .family
                    .may_be_flawed()
                    .then(|| here.iter().filter(|o| o.flawed == Some(true)).count()),
                costs,
            });
        }
        let twins = twin_checks(&sweep, &instances);
        SweepResult { sweep, points, instances, twins }
    }

    /// Whether an algorithm learns: the reports then have the nogoods learnt.
    fn learns(&self) -> bool {
        self.sweep.algorithms.iter().any(|algorithm| algorithm.config.learning())
    }

    /// A one-line description of the instances.
    pub fn description(&self) -> String {
        let s = &self.sweep;
        let critical = match s.critical() {
            Some((value, words)) => format!("; {words} {} = {value:.3}", s.parameter),
            None => String::new(),
        };
        format!(
            "{}, {} instances per {}, seed {}{critical}",
            s.generator.description(Some(s.parameter)),
            s.samples,
            s.parameter,
            s.seed
        )
    }

    /// Decimals that show every parameter value exactly (at least 2, at most 6).
    fn value_decimals(&self) -> usize {
        decimals(self.points.iter().map(|p| p.value), 2, 6)
    }

    /// Decimals that show every satisfiable fraction exactly, or to 3 places.
    fn fraction_decimals(&self) -> usize {
        decimals(self.points.iter().map(Point::satisfiable_fraction), 2, 3)
    }

    fn satisfiable_cell(&self, point: &Point) -> Cell {
        let d = self.fraction_decimals();
        let (low, high) = point.satisfiable_interval();
        Cell::text(format!("{:.d$} ({low:.2}-{high:.2})", point.satisfiable_fraction()))
    }

    fn table(&self, statistic: Statistic) -> Table {
        let mut columns = vec![self.sweep.parameter.to_string(), "sat (95% interval)".to_string()];
        let flawed = self.sweep.generator.family.may_be_flawed();
        if flawed {
            columns.push("flawed".to_string());
        }
        // The full spelling, not the one given: `fc` is `fc+mrv+pairwise`.
        columns.extend(self.sweep.algorithms.iter().map(|a| a.config.to_string()));
        let mut table = Table::new(columns).with_title(format!(
            "{}: {}; {}",
            statistic.title(),
            self.description(),
            statistic.legend()
        ));
        for point in &self.points {
            let mut row = vec![Cell::Float(point.value, self.value_decimals()), self.satisfiable_cell(point)];
            if flawed {
                let share = point.flawed.unwrap_or(0) as f64 / point.instances.max(1) as f64;
                row.push(Cell::Float(share, 2));
            }
            row.extend(point.costs.iter().map(|cost| statistic.cell(cost)));
            table.push(row);
        }
        table
    }

    /// The chart: median checks, nodes and CPU time per algorithm against
    /// the swept parameter (log scale; medians that are only lower bounds
    /// drawn as hollow triangles), the satisfiable fraction on the right
    /// axis, and the predicted critical value.
    pub fn chart(&self) -> CurveChart {
        let series = |of: fn(&Cost) -> &Summary| -> Vec<Series> {
            self.sweep
                .algorithms
                .iter()
                .enumerate()
                .map(|(a, algorithm)| Series {
                    name: algorithm.config.to_string(),
                    points: self.points.iter().map(|p| (p.value, of(&p.costs[a]).median.value)).collect(),
                    dashed: algorithm.config.backjumping(),
                    lower_bounds: self.points.iter().map(|p| of(&p.costs[a]).median.lower_bound).collect(),
                })
                .collect()
        };
        let first = self.points.first().map_or(0.0, |p| p.value);
        let last = self.points.last().map_or(1.0, |p| p.value);
        let pad = ((last - first) * 0.03).max(0.01);
        let s = &self.sweep;
        let mut x_range = ((first - pad).max(0.0), last + pad);
        if s.generator.is_fraction(s.parameter) {
            x_range.1 = x_range.1.min(1.0);
        }
        CurveChart {
            title: format!(
                "{}, {} instances per point, seed {}",
                s.generator.description(Some(s.parameter)),
                s.samples,
                s.seed
            ),
            x_axis: s.parameter.to_string(),
            x_range,
            panels: vec![
                CurvePanel { axis: "median constraint checks".into(), series: series(|c| &c.checks) },
                CurvePanel { axis: "median nodes".into(), series: series(|c| &c.nodes) },
                CurvePanel { axis: "median CPU time (ms)".into(), series: series(|c| &c.cpu_ms) },
            ],
            fraction: Some((
                "fraction satisfiable".into(),
                Series {
                    name: "satisfiable".into(),
                    points: self.points.iter().map(|p| (p.value, p.satisfiable_fraction())).collect(),
                    dashed: true,
                    lower_bounds: Vec::new(),
                },
            )),
            marker: s.critical().map(|(value, words)| (value, format!("{words} {} = {value:.3}", s.parameter))),
        }
    }

    /// Every run: one record per instance and algorithm.
    pub fn runs(&self) -> Table {
        let records = RunRecords::of(&self.sweep);
        let mut table = records.table();
        for outcome in &self.instances {
            for row in records.rows(outcome) {
                table.push(row);
            }
        }
        table
    }
}

/// The records of a sweep's runs (`--records`), one per instance and
/// algorithm: known from the sweep alone, so that they can be written as the
/// instances finish.
#[derive(Clone, Copy, Debug)]
pub(super) struct RunRecords<'a> {
    sweep: &'a Sweep,
    value_decimals: usize,
    flawed: bool,
    learns: bool,
}

impl<'a> RunRecords<'a> {
    /// The records of `sweep`'s runs.
    pub(super) fn of(sweep: &'a Sweep) -> RunRecords<'a> {
        RunRecords {
            sweep,
            value_decimals: decimals(sweep.values.iter().copied(), 2, 6),
            flawed: sweep.generator.family.may_be_flawed(),
            learns: sweep.algorithms.iter().any(|algorithm| algorithm.config.learning()),
        }
    }

    /// The table without rows: its columns.
    pub(super) fn table(&self) -> Table {
        let s = self.sweep;
        let mut columns = vec![s.parameter, "sample", "seed", "algorithm", "config", "satisfiable"];
        if self.flawed {
            columns.push("flawed");
        }
        columns.extend(["solved", "limited", "nodes", "checks", "failures", "backtracks"]);
        if self.learns {
            columns.push("learnt");
        }
        columns.extend(["cpu_ms", "time_ms"]);
        Table::new(columns)
    }

    /// The records of one instance's runs, algorithm by algorithm.
    pub(super) fn rows(&self, outcome: &InstanceOutcome) -> Vec<Vec<Cell>> {
        let s = self.sweep;
        let mut rows = Vec::with_capacity(s.algorithms.len());
        for (algorithm, run) in s.algorithms.iter().zip(&outcome.runs) {
            let mut row = vec![
                Cell::Float(s.values[outcome.point], self.value_decimals),
                Cell::Int(outcome.sample as u64),
                Cell::Int(outcome.seed),
                Cell::text(algorithm.name.clone()),
                Cell::text(algorithm.config.to_string()),
                outcome.satisfiable.map_or(Cell::Empty, |sat| Cell::Int(u64::from(sat))),
            ];
            if self.flawed {
                row.push(outcome.flawed.map_or(Cell::Empty, |f| Cell::Int(u64::from(f))));
            }
            row.extend([
                Cell::Int(u64::from(run.solved)),
                Cell::Int(u64::from(!run.complete)),
                Cell::Int(run.nodes),
                Cell::Int(run.checks),
                Cell::Int(run.failures),
                Cell::Int(run.backtracks),
            ]);
            if self.learns {
                row.push(Cell::Int(run.learnt));
            }
            row.extend([
                run.cpu_time.map_or(Cell::Empty, |cpu| Cell::Float(millis(cpu), 3)),
                Cell::Float(millis(run.time), 3),
            ]);
            rows.push(row);
        }
        rows
    }
}

/// For every backjumping algorithm whose chronological twin (the same
/// configuration without backjumping) is also in the sweep: on how many
/// instances it explored more nodes than the twin.
fn twin_checks(sweep: &Sweep, outcomes: &[InstanceOutcome]) -> Vec<TwinCheck> {
    let mut checks = Vec::new();
    for (b, backjumping) in sweep.algorithms.iter().enumerate() {
        if !backjumping.config.backjumping() {
            continue;
        }
        let twin_config = backjumping.config.clone().with_search(backjumping.config.search.without_backjumping());
        let Some(c) = sweep.algorithms.iter().position(|a| a.config == twin_config) else { continue };
        let mut check = TwinCheck { backjumping: b, chronological: c, compared: 0, more_nodes: 0, example: None };
        for outcome in outcomes {
            let (jump, chrono) = (&outcome.runs[b], &outcome.runs[c]);
            if !(jump.complete && chrono.complete) {
                continue;
            }
            check.compared += 1;
            if jump.nodes > chrono.nodes {
                check.more_nodes += 1;
                check.example.get_or_insert((sweep.values[outcome.point], outcome.seed));
            }
        }
        checks.push(check);
    }
    checks
}

/// The fewest decimals, between `min` and `max`, that write every value exactly.
fn decimals(values: impl Iterator<Item = f64>, min: usize, max: usize) -> usize {
    let exact = |x: f64, d: usize| {
        let scale = 10f64.powi(d as i32);
        ((x * scale).round() / scale - x).abs() < 1e-9
    };
    values.map(|x| (min..=max).find(|&d| exact(x, d)).unwrap_or(max)).max().unwrap_or(min)
}

/// A statistic, written with `>=` when it is only a lower bound.
pub(super) fn estimate(estimate: Estimate) -> String {
    let bound = if estimate.lower_bound { ">=" } else { "" };
    format!("{bound}{}", three_digits(estimate.value))
}

/// `value` to three significant digits: `15.2M`, `12.5k`, `950`, `28.8`,
/// `0.0921` (the tables' cells; exact values are in CSV and JSON).
fn three_digits(value: f64) -> String {
    let magnitude = value.abs();
    if magnitude >= 1000.0 || magnitude == 0.0 || !value.is_finite() {
        return compact(value);
    }
    let decimals = (2 - magnitude.log10().floor() as i32).max(0) as usize;
    let text = format!("{value:.decimals$}");
    if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.').to_string() } else { text }
}

/// Which statistic a table shows.
#[derive(Clone, Copy)]
enum Statistic {
    Checks,
    MeanChecks,
    Nodes,
    MeanNodes,
    CpuMs,
    /// Only when an algorithm learns.
    Learnt,
}

impl Statistic {
    const ALL: [Statistic; 5] =
        [Statistic::Checks, Statistic::MeanChecks, Statistic::Nodes, Statistic::MeanNodes, Statistic::CpuMs];

    fn summary(self, cost: &Cost) -> &Summary {
        match self {
            Statistic::Checks | Statistic::MeanChecks => &cost.checks,
            Statistic::Nodes | Statistic::MeanNodes => &cost.nodes,
            Statistic::CpuMs => &cost.cpu_ms,
            Statistic::Learnt => &cost.learnt,
        }
    }

    fn cell(self, cost: &Cost) -> Cell {
        let summary = self.summary(cost);
        match self {
            Statistic::MeanChecks | Statistic::MeanNodes => Cell::text(estimate(summary.mean)),
            _ => {
                Cell::text(format!("{} ({}-{})", estimate(summary.median), estimate(summary.q1), estimate(summary.q3)))
            }
        }
    }

    fn title(self) -> &'static str {
        match self {
            Statistic::Checks => "constraint checks",
            Statistic::MeanChecks => "mean constraint checks",
            Statistic::Nodes => "nodes",
            Statistic::MeanNodes => "mean nodes",
            Statistic::CpuMs => "CPU time (ms)",
            Statistic::Learnt => "nogoods learnt",
        }
    }

    fn legend(self) -> &'static str {
        match self {
            Statistic::MeanChecks | Statistic::MeanNodes => {
                "sat: the satisfiable fraction; >= a lower bound (a limit stopped runs)"
            }
            _ => {
                "median (lower quartile-upper quartile); sat: the satisfiable fraction; >= a lower bound (a limit stopped runs)"
            }
        }
    }
}

impl Report for SweepResult {
    fn tables(&self) -> Vec<Table> {
        let learnt = self.learns().then_some(Statistic::Learnt);
        Statistic::ALL.into_iter().chain(learnt).map(|statistic| self.table(statistic)).collect()
    }

    fn records(&self) -> Table {
        let s = &self.sweep;
        let flawed = s.generator.family.may_be_flawed();
        let mut columns: Vec<String> =
            [s.parameter, "algorithm", "config", "instances", "satisfiable", "sat_fraction", "sat_low", "sat_high"]
                .iter()
                .map(|c| c.to_string())
                .collect();
        if flawed {
            columns.push("flawed".to_string());
        }
        columns.push("limited".to_string());
        let learns = self.learns();
        let statistics: Vec<&str> =
            ["checks", "nodes", "learnt", "cpu_ms"].into_iter().filter(|&name| learns || name != "learnt").collect();
        for statistic in &statistics {
            for quantile in ["p10", "q1", "median", "q3", "p90", "mean"] {
                columns.push(format!("{statistic}_{quantile}"));
            }
        }
        let mut table = Table::new(columns);
        for point in &self.points {
            let (low, high) = point.satisfiable_interval();
            for (algorithm, cost) in s.algorithms.iter().zip(&point.costs) {
                let mut row = vec![
                    Cell::Float(point.value, self.value_decimals()),
                    Cell::text(algorithm.name.clone()),
                    Cell::text(algorithm.config.to_string()),
                    Cell::Int(point.instances as u64),
                    Cell::Int(point.satisfiable as u64),
                    Cell::Float(point.satisfiable_fraction(), self.fraction_decimals()),
                    Cell::Float(low, 4),
                    Cell::Float(high, 4),
                ];
                if flawed {
                    row.push(Cell::Int(point.flawed.unwrap_or(0) as u64));
                }
                row.push(Cell::Int(cost.limited as u64));
                let learnt = learns.then_some(&cost.learnt);
                for summary in [Some(&cost.checks), Some(&cost.nodes), learnt, Some(&cost.cpu_ms)].into_iter().flatten()
                {
                    for e in [summary.p10, summary.q1, summary.median, summary.q3, summary.p90, summary.mean] {
                        row.push(Cell::Float(e.value, 3));
                    }
                }
                table.push(row);
            }
        }
        table
    }

    fn json(&self) -> serde_json::Value {
        let s = &self.sweep;
        let summary = |summary: &Summary| {
            let e = |e: Estimate| serde_json::json!({ "value": crate::report::without_noise(e.value), "lower_bound": e.lower_bound });
            serde_json::json!({
                "p10": e(summary.p10), "q1": e(summary.q1), "median": e(summary.median),
                "q3": e(summary.q3), "p90": e(summary.p90), "mean": e(summary.mean),
            })
        };
        let points: Vec<serde_json::Value> = self
            .points
            .iter()
            .map(|point| {
                let costs: Vec<serde_json::Value> = s
                    .algorithms
                    .iter()
                    .zip(&point.costs)
                    .map(|(algorithm, cost)| {
                        let mut json = serde_json::json!({
                            "algorithm": algorithm.name,
                            "checks": summary(&cost.checks),
                            "nodes": summary(&cost.nodes),
                            "cpu_ms": summary(&cost.cpu_ms),
                            "limited": cost.limited,
                        });
                        if self.learns() {
                            json["learnt"] = summary(&cost.learnt);
                        }
                        json
                    })
                    .collect();
                let (low, high) = point.satisfiable_interval();
                serde_json::json!({
                    "value": point.value,
                    "instances": point.instances,
                    "satisfiable": point.satisfiable,
                    "undecided": point.undecided,
                    "flawed": point.flawed,
                    "sat_fraction": point.satisfiable_fraction(),
                    "sat_interval": [crate::report::without_noise(low), crate::report::without_noise(high)],
                    "algorithms": costs,
                })
            })
            .collect();
        let algorithms: Vec<serde_json::Value> = s
            .algorithms
            .iter()
            .map(|a| serde_json::json!({ "name": a.name, "config": a.config.to_string() }))
            .collect();
        let twins: Vec<serde_json::Value> = self
            .twins
            .iter()
            .map(|t| {
                serde_json::json!({
                    "backjumping": s.algorithms[t.backjumping].name,
                    "chronological": s.algorithms[t.chronological].name,
                    "compared": t.compared,
                    "more_nodes": t.more_nodes,
                })
            })
            .collect();
        serde_json::json!({
            "generator": s.generator.to_string(),
            "parameter": s.parameter,
            "samples": s.samples,
            "seed": s.seed,
            "node_limit": s.limits.nodes,
            "timeout_s": s.limits.time.map(|t| t.as_secs_f64()),
            "cpu_timeout_s": s.limits.cpu_time.map(|t| t.as_secs_f64()),
            "critical": s.critical().map(|(value, words)| serde_json::json!({ "value": value, "kind": words })),
            "algorithms": algorithms,
            "points": points,
            "backjumping_checks": twins,
            "runs": self.runs().records(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_show_values_exactly() {
        assert_eq!(decimals([0.05, 0.1, 0.95].into_iter(), 2, 6), 2);
        assert_eq!(decimals([0.05, 0.375].into_iter(), 2, 6), 3);
        assert_eq!(decimals([1.0 / 3.0].into_iter(), 2, 3), 3);
        assert_eq!(decimals(std::iter::empty(), 2, 3), 2);
    }

    #[test]
    fn estimates_say_when_they_are_lower_bounds() {
        assert_eq!(estimate(Estimate { value: 15_172_742.5, lower_bound: false }), "15.2M");
        assert_eq!(estimate(Estimate { value: 1000.0, lower_bound: true }), ">=1k");
    }

    #[test]
    fn cells_have_three_significant_digits() {
        let cases = [
            (0.0, "0"),
            (0.009_21, "0.00921"),
            (0.02, "0.02"),
            (0.2346, "0.235"),
            (28.75, "28.8"),
            (950.0, "950"),
            (12_500.0, "12.5k"),
        ];
        for (value, text) in cases {
            assert_eq!(three_digits(value), text, "{value}");
        }
    }
}
