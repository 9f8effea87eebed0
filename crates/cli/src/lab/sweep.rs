//! The tightness sweep: for each tightness, `samples` random model-B
//! instances solved under every algorithm, summarised per point.

use std::fmt;
use std::time::Duration;

use crate::report::compare::{CompareError, CompareOptions, Goal, Measurement, Repeats, check_agreement, measure};
use csp::random::RandomCsp;
use csp::rng::Rng;
use csp::{Limits, SolveConfig};
use rayon::prelude::*;

use crate::report::plot::{CurveChart, CurvePanel, Series};
use crate::report::{Cell, Report, Table};

/// The largest number of instances a sweep may ask for (points x samples).
pub const MAX_INSTANCES: usize = 1_000_000;

/// The largest instance the lab builds, in bytes of forbidden-pair bitsets:
/// beyond this a model would not fit comfortably in memory.
pub const MAX_INSTANCE_BYTES: usize = 1 << 30;

/// The most variables of an instance (the generator lists all `n(n-1)/2` pairs).
pub const MAX_VARIABLES: usize = 2_000;

/// The largest domain of an instance (the generator lists all `d^2` value pairs).
pub const MAX_VALUES: usize = 1_000;

/// An algorithm of a sweep: the name it was given and the configuration it
/// stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Algorithm {
    /// The spelling given on the command line (`fc`, `mac/ac2001+domwdeg`).
    pub name: String,
    /// The configuration the spelling means (`fc` is `fc+mrv`: the
    /// spelling's default orderings).
    pub config: SolveConfig,
}

impl std::str::FromStr for Algorithm {
    type Err = csp::ConfigSyntaxError;

    fn from_str(text: &str) -> Result<Algorithm, Self::Err> {
        Ok(Algorithm { name: text.trim().to_string(), config: text.parse()? })
    }
}

/// What a sweep runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    /// `n`, the number of variables.
    pub variables: usize,
    /// `d`, the domain size.
    pub values: usize,
    /// `p1`, the density.
    pub density: f64,
    /// The tightness values `p2`, in order.
    pub tightness: Vec<f64>,
    /// Instances per tightness.
    pub samples: usize,
    /// The algorithms, in order.
    pub algorithms: Vec<Algorithm>,
    /// The seed every instance seed is derived from ([`instance_seed`]).
    pub seed: u64,
    /// Limits for every run.
    pub limits: Limits,
}

/// Parameters that describe no sweep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SweepError(pub String);

impl fmt::Display for SweepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SweepError {}

impl Sweep {
    /// The instance at tightness index `point`, sample `sample`.
    pub fn instance(&self, point: usize, sample: usize) -> RandomCsp {
        RandomCsp {
            variables: self.variables,
            values: self.values,
            density: self.density,
            tightness: self.tightness[point],
            seed: instance_seed(self.seed, point, sample),
        }
    }

    /// The predicted phase transition `p2 = 1 - d^(-2 / (p1 (n - 1)))`.
    pub fn critical_tightness(&self) -> f64 {
        RandomCsp { variables: self.variables, values: self.values, density: self.density, tightness: 0.0, seed: 0 }
            .critical_tightness()
    }

    /// Checks the parameters, so that no instance fails to build.
    pub fn validate(&self) -> Result<(), SweepError> {
        validate_instances(self.variables, self.values, self.density, &self.tightness)?;
        let fail = |message: String| Err(SweepError(message));
        if self.samples == 0 {
            return fail("--samples must be at least 1".to_string());
        }
        if self.algorithms.is_empty() {
            return fail("--algorithms names no algorithm".to_string());
        }
        if self.tightness.len().saturating_mul(self.samples) > MAX_INSTANCES {
            return fail(format!(
                "{} tightness values x {} samples is more than {MAX_INSTANCES} instances",
                self.tightness.len(),
                self.samples
            ));
        }
        Ok(())
    }

    /// Runs the sweep on the current rayon thread pool: every instance under
    /// every algorithm, in parallel over instances; `tick` is called once per
    /// instance done (for a progress bar). The result does not depend on the
    /// number of threads (but for the times). A disagreement between
    /// algorithms, or a wrong solution, stops the sweep with the error.
    pub fn run(&self, tick: &(dyn Fn() + Sync)) -> Result<SweepResult, SweepFailure> {
        self.validate().map_err(SweepFailure::Usage)?;
        let jobs: Vec<(usize, usize)> =
            (0..self.tightness.len()).flat_map(|p| (0..self.samples).map(move |s| (p, s))).collect();
        let options = CompareOptions { goal: Goal::First, repeats: Repeats::Exactly(1), limits: self.limits };
        // One instance per rayon job: instances differ in cost by orders of
        // magnitude, and rayon's default splitting leaves runs of dozens of
        // instances to one thread, which the other cannot steal from; with
        // the hard instances in one run, a sweep used a single core.
        let outcomes: Vec<InstanceOutcome> = jobs
            .par_iter()
            .with_max_len(1)
            .map(|&(point, sample)| {
                let outcome = self.run_instance(point, sample, &options);
                tick();
                outcome
            })
            .collect::<Result<_, _>>()?;
        Ok(self.summarise(&outcomes))
    }

    fn run_instance(
        &self,
        point: usize,
        sample: usize,
        options: &CompareOptions,
    ) -> Result<InstanceOutcome, SweepFailure> {
        let spec = self.instance(point, sample);
        let model = spec.generate().map_err(|e| SweepFailure::Usage(SweepError(format!("{spec}: {e}"))))?;
        let name = format!("{spec} (point {point}, sample {sample})");
        let measurements: Vec<Measurement> = self
            .algorithms
            .iter()
            .map(|algorithm| measure(&name, &model, &algorithm.config, options))
            .collect::<Result<_, _>>()
            .map_err(SweepFailure::from)?;
        check_agreement(&name, Goal::First, &measurements).map_err(SweepFailure::from)?;
        let satisfiable = measurements.iter().find(|m| m.is_complete()).map(|m| m.solved);
        Ok(InstanceOutcome {
            point,
            seed: spec.seed,
            satisfiable,
            runs: measurements
                .iter()
                .map(|m| Run { checks: m.stats.checks, nodes: m.stats.nodes, complete: m.is_complete(), time: m.time })
                .collect(),
        })
    }

    fn summarise(&self, outcomes: &[InstanceOutcome]) -> SweepResult {
        let mut points = Vec::with_capacity(self.tightness.len());
        // The outcomes are in job order: point by point, `samples` each.
        for (&tightness, here) in self.tightness.iter().zip(outcomes.chunks(self.samples)) {
            let costs = (0..self.algorithms.len())
                .map(|a| {
                    let checks: Vec<u64> = here.iter().map(|o| o.runs[a].checks).collect();
                    let nodes: Vec<u64> = here.iter().map(|o| o.runs[a].nodes).collect();
                    Cost {
                        median_checks: median(&checks),
                        mean_checks: mean(&checks),
                        median_nodes: median(&nodes),
                        mean_nodes: mean(&nodes),
                        limited: here.iter().filter(|o| !o.runs[a].complete).count(),
                        time: here.iter().map(|o| o.runs[a].time).sum(),
                    }
                })
                .collect();
            points.push(Point {
                tightness,
                instances: here.len(),
                satisfiable: here.iter().filter(|o| o.satisfiable == Some(true)).count(),
                undecided: here.iter().filter(|o| o.satisfiable.is_none()).count(),
                costs,
            });
        }
        let twins = self.twin_checks(outcomes);
        SweepResult { sweep: self.clone(), critical_tightness: self.critical_tightness(), points, twins }
    }

    /// For every backjumping algorithm whose chronological twin (the same
    /// configuration without backjumping) is also in the sweep: on how many
    /// instances it explored more nodes than the twin.
    fn twin_checks(&self, outcomes: &[InstanceOutcome]) -> Vec<TwinCheck> {
        let mut checks = Vec::new();
        for (b, backjumping) in self.algorithms.iter().enumerate() {
            if !backjumping.config.backjumping() {
                continue;
            }
            let twin_config = backjumping.config.clone().with_search(backjumping.config.search.without_backjumping());
            let Some(c) = self.algorithms.iter().position(|a| a.config == twin_config) else { continue };
            let mut check = TwinCheck { backjumping: b, chronological: c, compared: 0, more_nodes: 0, example: None };
            for outcome in outcomes {
                let (jump, chrono) = (&outcome.runs[b], &outcome.runs[c]);
                if !(jump.complete && chrono.complete) {
                    continue;
                }
                check.compared += 1;
                if jump.nodes > chrono.nodes {
                    check.more_nodes += 1;
                    check.example.get_or_insert((self.tightness[outcome.point], outcome.seed));
                }
            }
            checks.push(check);
        }
        checks
    }
}

/// Checks the parameters of random instances: at least two variables and one
/// value, density and every tightness between 0 and 1, and a model small
/// enough to build.
pub fn validate_instances(variables: usize, values: usize, density: f64, tightness: &[f64]) -> Result<(), SweepError> {
    let fail = |message: String| Err(SweepError(message));
    if variables < 2 {
        return fail(format!("--vars must be at least 2 (a binary CSP needs pairs of variables), not {variables}"));
    }
    if values < 1 {
        return fail("--values must be at least 1".to_string());
    }
    if !(0.0..=1.0).contains(&density) {
        return fail(format!("--density must be between 0 and 1, not {density}"));
    }
    if tightness.is_empty() {
        return fail("there is no tightness to sweep".to_string());
    }
    if let Some(bad) = tightness.iter().find(|t| !(0.0..=1.0).contains(*t)) {
        return fail(format!("the tightness must be between 0 and 1, not {bad}"));
    }
    if variables > MAX_VARIABLES || values > MAX_VALUES {
        return fail(format!("the lab builds instances of at most {MAX_VARIABLES} variables and {MAX_VALUES} values"));
    }
    let constraints = RandomCsp { variables, values, density, tightness: 0.0, seed: 0 }.constraint_count();
    let bytes = constraints * ((values * values).div_ceil(8) + 64);
    if bytes > MAX_INSTANCE_BYTES {
        return fail(format!(
            "an instance with {variables} variables, {values} values and density {density} is too large for the lab"
        ));
    }
    Ok(())
}

/// Why a sweep stopped.
#[derive(Debug)]
pub enum SweepFailure {
    /// Parameters that describe no sweep.
    Usage(SweepError),
    /// Algorithms disagreed, or one returned a wrong solution: a bug.
    Bug(CompareError),
}

impl From<CompareError> for SweepFailure {
    fn from(error: CompareError) -> Self {
        match error {
            CompareError::Solver { .. } => SweepFailure::Usage(SweepError(error.to_string())),
            error => SweepFailure::Bug(error),
        }
    }
}

/// The seed of sample `sample` at tightness index `point` of a sweep seeded
/// with `seed`: SplitMix64 (Steele, Lea & Flood 2014) applied in turn to the
/// seed, the point and the sample, so that every instance has its own stream
/// and a sweep's instances do not depend on how many threads ran it.
pub fn instance_seed(seed: u64, point: usize, sample: usize) -> u64 {
    let mixed = splitmix64(splitmix64(seed).wrapping_add(point as u64));
    splitmix64(mixed.wrapping_add(sample as u64))
}

/// The SplitMix64 output for the state `x`: the first number of the engine's
/// generator ([`Rng`], SplitMix64 itself) whose state starts at `x`. `Rng::new`
/// mixes its seed into the state with [`RNG_SEED_MIX`], so that mix is undone
/// first. This keeps the lab's instances (and every number docs/compare.md
/// shows) what they were when the lab had a SplitMix64 of its own; the test
/// `instance_seeds_are_those_of_the_published_sweeps` pins them.
fn splitmix64(x: u64) -> u64 {
    Rng::new(x ^ RNG_SEED_MIX).next_u64()
}

/// What `csp::rng::Rng::new` XORs its seed with (its state is `seed ^ RNG_SEED_MIX`).
const RNG_SEED_MIX: u64 = 0x5DEE_CE66_D1CE_4E5B;

/// The fewest decimals, between `min` and `max`, that write every value exactly.
fn decimals(values: impl Iterator<Item = f64>, min: usize, max: usize) -> usize {
    let exact = |x: f64, d: usize| {
        let scale = 10f64.powi(d as i32);
        ((x * scale).round() / scale - x).abs() < 1e-9
    };
    values.map(|x| (min..=max).find(|&d| exact(x, d)).unwrap_or(max)).max().unwrap_or(min)
}

fn median(values: &[u64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let mid = sorted.len() / 2;
    if sorted.len() % 2 == 1 { sorted[mid] as f64 } else { (sorted[mid - 1] as f64 + sorted[mid] as f64) / 2.0 }
}

fn mean(values: &[u64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.iter().map(|&v| v as f64).sum::<f64>() / values.len() as f64
}

/// One instance under every algorithm.
struct InstanceOutcome {
    point: usize,
    seed: u64,
    /// `None` when every run was stopped by a limit.
    satisfiable: Option<bool>,
    runs: Vec<Run>,
}

struct Run {
    checks: u64,
    nodes: u64,
    complete: bool,
    time: Duration,
}

/// One algorithm at one tightness, over the samples.
#[derive(Clone, Debug, PartialEq)]
pub struct Cost {
    /// The median of the constraint checks.
    pub median_checks: f64,
    /// The mean of the constraint checks.
    pub mean_checks: f64,
    /// The median of the nodes.
    pub median_nodes: f64,
    /// The mean of the nodes.
    pub mean_nodes: f64,
    /// Runs a limit stopped (their counts are lower bounds).
    pub limited: usize,
    /// The time of all its runs (not deterministic; not in the tables).
    pub time: Duration,
}

/// One tightness.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// `p2`.
    pub tightness: f64,
    /// Instances run.
    pub instances: usize,
    /// Instances found satisfiable.
    pub satisfiable: usize,
    /// Instances on which every algorithm was stopped by a limit.
    pub undecided: usize,
    /// Per algorithm, in the sweep's order.
    pub costs: Vec<Cost>,
}

impl Point {
    /// The fraction of the decided instances that are satisfiable (0 when none was decided).
    pub fn satisfiable_fraction(&self) -> f64 {
        let decided = self.instances - self.undecided;
        if decided == 0 { 0.0 } else { self.satisfiable as f64 / decided as f64 }
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
    /// The tightness and seed of the first such instance.
    pub example: Option<(f64, u64)>,
}

/// The result of a sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepResult {
    /// What was run.
    pub sweep: Sweep,
    /// The predicted phase transition.
    pub critical_tightness: f64,
    /// One per tightness, in order.
    pub points: Vec<Point>,
    /// The backjumping checks.
    pub twins: Vec<TwinCheck>,
}

/// Which statistic a table shows.
#[derive(Clone, Copy)]
enum Statistic {
    MedianChecks,
    MeanChecks,
    MedianNodes,
    MeanNodes,
}

impl Statistic {
    fn of(self, cost: &Cost) -> f64 {
        match self {
            Statistic::MedianChecks => cost.median_checks,
            Statistic::MeanChecks => cost.mean_checks,
            Statistic::MedianNodes => cost.median_nodes,
            Statistic::MeanNodes => cost.mean_nodes,
        }
    }

    fn title(self) -> &'static str {
        match self {
            Statistic::MedianChecks => "median constraint checks",
            Statistic::MeanChecks => "mean constraint checks",
            Statistic::MedianNodes => "median nodes",
            Statistic::MeanNodes => "mean nodes",
        }
    }
}

impl SweepResult {
    /// A one-line description of the instances.
    pub fn description(&self) -> String {
        let s = &self.sweep;
        format!(
            "model B <n={}, d={}, p1={}>, {} instances per tightness, seed {}; predicted phase transition p2 = {:.3}",
            s.variables, s.values, s.density, s.samples, s.seed, self.critical_tightness
        )
    }

    /// Decimals that show every tightness exactly (at least 2, at most 6).
    fn tightness_decimals(&self) -> usize {
        decimals(self.points.iter().map(|p| p.tightness), 2, 6)
    }

    /// Decimals that show every satisfiable fraction exactly, or to 3 places.
    fn fraction_decimals(&self) -> usize {
        decimals(self.points.iter().map(Point::satisfiable_fraction), 2, 3)
    }

    fn table(&self, statistic: Statistic) -> Table {
        let mut columns = vec!["p2".to_string(), "sat".to_string()];
        columns.extend(self.sweep.algorithms.iter().map(|a| a.name.clone()));
        let mut table = Table::new(columns).with_title(format!("{}: {}", statistic.title(), self.description()));
        for point in &self.points {
            let mut row = vec![
                Cell::Float(point.tightness, self.tightness_decimals()),
                Cell::Float(point.satisfiable_fraction(), self.fraction_decimals()),
            ];
            row.extend(point.costs.iter().map(|cost| Cell::Float(statistic.of(cost), 1)));
            table.push(row);
        }
        table
    }

    /// The chart: median checks and median nodes per algorithm against the
    /// tightness (log scale), the satisfiable fraction on the right axis, and
    /// the predicted phase transition.
    pub fn chart(&self) -> CurveChart {
        let series = |statistic: Statistic| -> Vec<Series> {
            self.sweep
                .algorithms
                .iter()
                .enumerate()
                .map(|(a, algorithm)| Series {
                    name: algorithm.name.clone(),
                    points: self.points.iter().map(|p| (p.tightness, statistic.of(&p.costs[a]))).collect(),
                    dashed: algorithm.config.backjumping(),
                    lower_bounds: Vec::new(),
                })
                .collect()
        };
        let first = self.points.first().map_or(0.0, |p| p.tightness);
        let last = self.points.last().map_or(1.0, |p| p.tightness);
        let pad = ((last - first) * 0.03).max(0.01);
        let s = &self.sweep;
        CurveChart {
            title: format!(
                "Random binary CSPs <n={}, d={}, p1={}>, {} instances per point, seed {}",
                s.variables, s.values, s.density, s.samples, s.seed
            ),
            x_axis: "tightness p2".into(),
            x_range: ((first - pad).max(0.0), (last + pad).min(1.0)),
            panels: vec![
                CurvePanel { axis: "median constraint checks".into(), series: series(Statistic::MedianChecks) },
                CurvePanel { axis: "median nodes".into(), series: series(Statistic::MedianNodes) },
            ],
            fraction: Some((
                "fraction satisfiable".into(),
                Series {
                    name: "satisfiable".into(),
                    points: self.points.iter().map(|p| (p.tightness, p.satisfiable_fraction())).collect(),
                    dashed: true,
                    lower_bounds: Vec::new(),
                },
            )),
            marker: Some((self.critical_tightness, format!("predicted p2 = {:.3}", self.critical_tightness))),
        }
    }
}

impl Report for SweepResult {
    fn tables(&self) -> Vec<Table> {
        [Statistic::MedianChecks, Statistic::MeanChecks, Statistic::MedianNodes, Statistic::MeanNodes]
            .into_iter()
            .map(|statistic| self.table(statistic))
            .collect()
    }

    fn records(&self) -> Table {
        let mut table = Table::new([
            "tightness",
            "algorithm",
            "config",
            "instances",
            "satisfiable",
            "sat_fraction",
            "limited",
            "median_checks",
            "mean_checks",
            "median_nodes",
            "mean_nodes",
        ]);
        for point in &self.points {
            for (algorithm, cost) in self.sweep.algorithms.iter().zip(&point.costs) {
                table.push(vec![
                    Cell::Float(point.tightness, self.tightness_decimals()),
                    Cell::text(algorithm.name.clone()),
                    Cell::text(algorithm.config.to_string()),
                    Cell::Int(point.instances as u64),
                    Cell::Int(point.satisfiable as u64),
                    Cell::Float(point.satisfiable_fraction(), self.fraction_decimals()),
                    Cell::Int(cost.limited as u64),
                    Cell::Float(cost.median_checks, 1),
                    Cell::Float(cost.mean_checks, 1),
                    Cell::Float(cost.median_nodes, 1),
                    Cell::Float(cost.mean_nodes, 1),
                ]);
            }
        }
        table
    }

    fn json(&self) -> serde_json::Value {
        let s = &self.sweep;
        let names: Vec<&str> = s.algorithms.iter().map(|a| a.name.as_str()).collect();
        let points: Vec<serde_json::Value> = self
            .points
            .iter()
            .map(|point| {
                let costs: Vec<serde_json::Value> = names
                    .iter()
                    .zip(&point.costs)
                    .map(|(name, cost)| {
                        serde_json::json!({
                            "algorithm": name,
                            "median_checks": cost.median_checks,
                            "mean_checks": cost.mean_checks,
                            "median_nodes": cost.median_nodes,
                            "mean_nodes": cost.mean_nodes,
                            "limited": cost.limited,
                        })
                    })
                    .collect();
                serde_json::json!({
                    "tightness": point.tightness,
                    "instances": point.instances,
                    "satisfiable": point.satisfiable,
                    "undecided": point.undecided,
                    "sat_fraction": point.satisfiable_fraction(),
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
                    "backjumping": names[t.backjumping],
                    "chronological": names[t.chronological],
                    "compared": t.compared,
                    "more_nodes": t.more_nodes,
                })
            })
            .collect();
        serde_json::json!({
            "variables": s.variables,
            "values": s.values,
            "density": s.density,
            "samples": s.samples,
            "seed": s.seed,
            "node_limit": s.limits.nodes,
            "timeout_s": s.limits.time.map(|t| t.as_secs_f64()),
            "critical_tightness": self.critical_tightness,
            "algorithms": algorithms,
            "points": points,
            "backjumping_checks": twins,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_and_means() {
        assert_eq!(median(&[5, 1, 3]), 3.0);
        assert_eq!(median(&[4, 1, 3, 2]), 2.5);
        assert_eq!(mean(&[1, 2, 3, 6]), 3.0);
        assert_eq!(median(&[]), 0.0);
    }

    #[test]
    fn decimals_show_values_exactly() {
        assert_eq!(decimals([0.05, 0.1, 0.95].into_iter(), 2, 6), 2);
        assert_eq!(decimals([0.05, 0.375].into_iter(), 2, 6), 3);
        assert_eq!(decimals([1.0 / 3.0].into_iter(), 2, 3), 3);
        assert_eq!(decimals(std::iter::empty(), 2, 3), 2);
    }

    /// The seeds of the sweeps whose numbers docs/compare.md publishes, as the
    /// lab's own SplitMix64 computed them before it used the engine's `Rng`.
    #[test]
    fn instance_seeds_are_those_of_the_published_sweeps() {
        for (seed, point, sample, expected) in [
            (1, 0, 0, 0xB18A_02F4_6D8D_86C3),
            (1, 0, 1, 0x6C57_95E1_4B3B_7E33),
            (1, 18, 49, 0x00ED_92E8_1B7C_7766),
            (7, 3, 2, 0x8490_C52F_93C7_DF65),
            (0, 0, 0, 0x2382_75BC_38FC_BE91),
        ] {
            assert_eq!(instance_seed(seed, point, sample), expected, "({seed}, {point}, {sample})");
        }
    }

    #[test]
    fn instance_seeds_differ_by_point_and_sample() {
        let mut seeds: Vec<u64> = (0..20).flat_map(|p| (0..50).map(move |s| instance_seed(1, p, s))).collect();
        seeds.sort_unstable();
        seeds.dedup();
        assert_eq!(seeds.len(), 1000);
        assert_ne!(instance_seed(1, 0, 1), instance_seed(1, 1, 0));
        assert_ne!(instance_seed(1, 0, 0), instance_seed(2, 0, 0));
    }
}
