//! Running the same models under several configurations, side by side.
//!
//! [`compare`] solves every instance under every configuration (repeating
//! each run to take the median time), collects the statistics, and checks that
//! the configurations agree: the same satisfiability, the same number of
//! solutions, or the same set of solutions, depending on the [`Goal`]. A
//! disagreement is a bug in a propagator or in the search, so it is an error,
//! never a row of a table.
//!
//! ```
//! use csp_cli::report::compare::{compare, CompareOptions, Goal};
//! use csp::{Model, SolveConfig};
//!
//! let mut model = Model::new();
//! let q = model.new_vars(6, 0..=5).unwrap();
//! model.all_different(&q).unwrap();
//! model.all_different_offset(&q, &[0, 1, 2, 3, 4, 5]).unwrap();
//! model.all_different_offset(&q, &[0, -1, -2, -3, -4, -5]).unwrap();
//! let configs: Vec<SolveConfig> = ["bt+input", "fc+mrv", "mac+domwdeg"].iter().map(|c| c.parse().unwrap()).collect();
//! let options = CompareOptions { goal: Goal::Count, ..CompareOptions::default() };
//! let comparison = compare(&[("6-queens", &model)], &configs, &options).unwrap();
//! assert!(comparison.rows.iter().all(|row| row.solutions == 4));
//! ```

use std::time::Duration;

use cpu_time::ThreadTime;
use csp::{Effect, Limit, Limits, Model, SolveConfig, SolveError, Solver, Stats, Status};

/// What each run looks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Goal {
    /// The first solution; configurations must agree on satisfiability.
    #[default]
    First,
    /// Count every solution; configurations must agree on the count.
    Count,
    /// Enumerate every solution; configurations must agree on the set.
    All,
    /// The optimum of the model's objective, by branch and bound
    /// (`Solver::optimize`); configurations must agree on its value (a model
    /// without an objective has the constant objective 0).
    Optimize,
}

/// How often each configuration runs on each instance to time it. The
/// statistics come from the first run (every run is the same search); the
/// times reported are the medians of the timed runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Repeats {
    /// As many runs as a stable time needs. The first run of a search is
    /// slower than the next identical ones (caches, page faults and the
    /// allocator are cold: up to 45 times the steady state on small sudokus),
    /// so a first run shorter than [`AUTO_ONE_RUN`] is a warm-up, left
    /// untimed, and timed runs follow until there are [`AUTO_MIN_RUNS`] and
    /// they took [`AUTO_BUDGET`] together, at most [`AUTO_MAX_RUNS`]. A
    /// longer first run, or one a time limit stopped, is the only run: its
    /// cold start is lost in its length.
    #[default]
    Auto,
    /// Exactly this many timed runs (at least one), without a warm-up.
    Exactly(usize),
}

/// With [`Repeats::Auto`], a first run at least this long is timed alone.
pub const AUTO_ONE_RUN: Duration = Duration::from_millis(100);
/// With [`Repeats::Auto`], the fewest timed runs after the warm-up.
pub const AUTO_MIN_RUNS: usize = 3;
/// With [`Repeats::Auto`], the timed runs go on until they took this long together.
pub const AUTO_BUDGET: Duration = Duration::from_millis(20);
/// With [`Repeats::Auto`], the most timed runs.
pub const AUTO_MAX_RUNS: usize = 1000;

impl std::fmt::Display for Repeats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Repeats::Auto => f.write_str("auto"),
            Repeats::Exactly(n) => write!(f, "{n}"),
        }
    }
}

impl std::str::FromStr for Repeats {
    type Err = String;

    fn from_str(text: &str) -> Result<Repeats, String> {
        if text.trim().eq_ignore_ascii_case("auto") {
            return Ok(Repeats::Auto);
        }
        match text.trim().parse::<usize>() {
            Ok(n @ 1..=1000) => Ok(Repeats::Exactly(n)),
            _ => Err(format!("'{text}' is neither 'auto' nor a number of runs from 1 to 1000")),
        }
    }
}

/// How to run a comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompareOptions {
    /// What each run looks for.
    pub goal: Goal,
    /// How often each run is repeated to time it.
    pub repeats: Repeats,
    /// Limits for every run (added to each configuration's own).
    pub limits: Limits,
}

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions { goal: Goal::First, repeats: Repeats::Auto, limits: Limits::none() }
    }
}

/// One configuration on one instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Measurement {
    /// The configuration.
    pub config: SolveConfig,
    /// Whether a solution was found.
    pub solved: bool,
    /// Solutions found (at most 1 for [`Goal::First`]).
    pub solutions: u64,
    /// Whether the run finished or a limit stopped it.
    pub status: Status,
    /// The statistics of the run (the first repeat; all repeats are deterministic).
    pub stats: Stats,
    /// The median wall-clock time over the timed runs.
    pub time: Duration,
    /// The median CPU time of the solving thread over the timed runs (`None`
    /// where the platform has no thread CPU clock). Under load, the wall
    /// clock also counts the time other processes had the core.
    pub cpu_time: Option<Duration>,
    /// How many runs were timed (a warm-up run is not counted).
    pub timed_runs: usize,
    /// The shortest and the longest wall-clock time of the timed runs (both
    /// the one time of a single run).
    pub time_range: (Duration, Duration),
    /// The shortest and the longest CPU time of the timed runs (`None`
    /// without a thread CPU clock).
    pub cpu_time_range: Option<(Duration, Duration)>,
    /// For [`Goal::All`]: every solution, sorted. For [`Goal::First`]: the
    /// solution found, if any. Empty for [`Goal::Count`].
    pub answers: Vec<Vec<i64>>,
    /// Pruning attribution per constraint kind (values removed, failures
    /// caused), in order of first appearance in the model.
    pub pruning: Vec<(String, Effect)>,
    /// For [`Goal::Optimize`]: the objective value of the best solution found.
    pub objective: Option<i64>,
}

impl Measurement {
    /// Whether a limit stopped the run (its counts are then lower bounds).
    pub fn is_limited(&self) -> bool {
        matches!(self.status, Status::LimitReached(_))
    }

    /// Whether the run explored everything it had to (no limit stopped it).
    pub fn is_complete(&self) -> bool {
        match self.status {
            Status::Complete => true,
            // A first-solution run that found one is complete for its goal
            // (an optimisation is complete only when the optimum is proved).
            _ => self.objective.is_none() && self.solved && self.answers.len() == 1 && self.solutions == 1,
        }
    }
}

/// One configuration over all instances: the sums of the measurements, and
/// the sum of the median times.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The configuration.
    pub config: SolveConfig,
    /// Instances run.
    pub instances: usize,
    /// Instances solved.
    pub solved: usize,
    /// Instances on which a limit stopped the search.
    pub limited: usize,
    /// Solutions found in total.
    pub solutions: u64,
    /// The statistics summed over the instances (the maximum depth is the largest).
    pub stats: Stats,
    /// The median times summed over the instances.
    pub time: Duration,
    /// The median CPU times summed over the instances (`None` without a thread CPU clock).
    pub cpu_time: Option<Duration>,
    /// Pruning attribution per constraint kind, summed over the instances, in
    /// order of first appearance.
    pub pruning: Vec<(String, Effect)>,
}

/// The result of [`compare`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// The instances' names, in input order.
    pub instances: Vec<String>,
    /// Per configuration (in input order), per instance (in input order).
    pub measurements: Vec<Vec<Measurement>>,
    /// Per configuration, the totals.
    pub rows: Vec<Row>,
}

/// Why a comparison has no table.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CompareError {
    /// Two configurations that both finished gave different answers: a bug.
    #[error(
        "configurations disagree on instance '{instance}': {first_config} found {first_answer}, but {second_config} found {second_answer} (this is a bug in a propagator or in the search)"
    )]
    Disagreement {
        /// The instance.
        instance: String,
        /// One configuration and its answer.
        first_config: String,
        /// Its answer, in words.
        first_answer: String,
        /// Another configuration and its answer.
        second_config: String,
        /// Its answer, in words.
        second_answer: String,
    },
    /// A configuration returned a solution that violates the model.
    #[error("configuration {config} returned a non-solution on instance '{instance}': {values:?}")]
    WrongSolution {
        /// The instance.
        instance: String,
        /// The configuration.
        config: String,
        /// The values it returned.
        values: Vec<i64>,
    },
    /// A solver could not be built.
    #[error("instance '{instance}' under {config}: {source}")]
    Solver {
        /// The instance.
        instance: String,
        /// The configuration.
        config: String,
        /// Why.
        source: SolveError,
    },
}

/// Runs `model` under `config` for `options.goal`, `options.repeats` times,
/// and checks every solution returned against the model.
pub fn measure(
    name: &str,
    model: &Model,
    config: &SolveConfig,
    options: &CompareOptions,
) -> Result<Measurement, CompareError> {
    let mut config_run = config.clone();
    config_run.limits = config.limits.tighter(options.limits);
    let mut solver = Solver::new(model, config_run).map_err(|source| CompareError::Solver {
        instance: name.to_string(),
        config: config.to_string(),
        source,
    })?;
    let mut times: Vec<(Duration, Option<Duration>)> = Vec::new();
    let mut first: Option<Measurement> = None;
    let mut warm_up = false;
    loop {
        let started = ThreadTime::try_now().ok();
        let mut objective = None;
        let (solutions, answers) = match options.goal {
            Goal::First => {
                let outcome = solver.solve();
                let answers: Vec<Vec<i64>> = outcome.into_solution().map(|s| s.into_values()).into_iter().collect();
                (answers.len() as u64, answers)
            }
            Goal::Count => (solver.count(None).solutions, Vec::new()),
            Goal::All => {
                let mut answers: Vec<Vec<i64>> = solver.solutions().map(|s| s.into_values()).collect();
                answers.sort_unstable();
                (answers.len() as u64, answers)
            }
            Goal::Optimize => {
                let outcome = solver.optimize();
                objective = outcome.objective();
                let answers: Vec<Vec<i64>> = outcome.into_solution().map(|s| s.into_values()).into_iter().collect();
                (answers.len() as u64, answers)
            }
        };
        let cpu = started.and_then(|start| start.try_elapsed().ok());
        for values in &answers {
            if !model.is_solution(values) {
                return Err(CompareError::WrongSolution {
                    instance: name.to_string(),
                    config: config.to_string(),
                    values: values.clone(),
                });
            }
        }
        let wall = solver.stats().elapsed;
        if first.is_none() {
            let status = match (options.goal, solver.status()) {
                (Goal::First, Status::Running) => Status::Complete,
                (_, status) => status,
            };
            warm_up = options.repeats == Repeats::Auto
                && wall < AUTO_ONE_RUN
                && !matches!(status, Status::LimitReached(Limit::Time | Limit::CpuTime));
            first = Some(Measurement {
                config: config.clone(),
                solved: solutions > 0,
                solutions,
                status,
                stats: solver.stats().clone(),
                time: Duration::ZERO,
                cpu_time: None,
                timed_runs: 0,
                time_range: (Duration::ZERO, Duration::ZERO),
                cpu_time_range: None,
                answers,
                pruning: solver.attribution().by_kind(model),
                objective,
            });
            if warm_up {
                continue;
            }
        }
        times.push((wall, cpu));
        let enough = match options.repeats {
            Repeats::Exactly(n) => times.len() >= n.max(1),
            Repeats::Auto if !warm_up => true,
            Repeats::Auto => {
                let spent: Duration = times.iter().map(|(wall, _)| *wall).sum();
                times.len() >= AUTO_MAX_RUNS || (times.len() >= AUTO_MIN_RUNS && spent >= AUTO_BUDGET)
            }
        };
        if enough {
            break;
        }
    }
    let mut measurement = first.expect("at least one run");
    measurement.timed_runs = times.len();
    measurement.time = median_duration(times.iter().map(|(wall, _)| *wall));
    measurement.time_range = duration_range(times.iter().map(|(wall, _)| *wall));
    let cpu: Option<Vec<Duration>> = times.iter().map(|(_, cpu)| *cpu).collect();
    measurement.cpu_time = cpu.as_ref().map(|cpu| median_duration(cpu.iter().copied()));
    measurement.cpu_time_range = cpu.map(|cpu| duration_range(cpu.into_iter()));
    Ok(measurement)
}

/// The shortest and the longest of some durations (zero for none).
fn duration_range(times: impl Iterator<Item = Duration>) -> (Duration, Duration) {
    times
        .fold(None, |range: Option<(Duration, Duration)>, time| {
            Some(range.map_or((time, time), |(low, high)| (low.min(time), high.max(time))))
        })
        .unwrap_or_default()
}

/// The median of some durations (the upper one of the middle two).
fn median_duration(times: impl Iterator<Item = Duration>) -> Duration {
    let mut times: Vec<Duration> = times.collect();
    times.sort_unstable();
    times.get(times.len() / 2).copied().unwrap_or_default()
}

/// The answer of a complete measurement, in words, for agreement checks and
/// error messages.
fn answer(goal: Goal, measurement: &Measurement) -> String {
    match goal {
        Goal::First if measurement.solved => "a solution".to_string(),
        Goal::First => "no solution".to_string(),
        Goal::Count => format!("{} solutions", measurement.solutions),
        Goal::All => format!("{} solutions {:?}", measurement.solutions, measurement.answers),
        Goal::Optimize => match measurement.objective {
            Some(value) if measurement.solved => format!("the optimum {value}"),
            _ => "no solution".to_string(),
        },
    }
}

/// Checks that every complete measurement of one instance gives the same answer.
pub fn check_agreement(name: &str, goal: Goal, measurements: &[Measurement]) -> Result<(), CompareError> {
    let mut complete = measurements.iter().filter(|m| m.is_complete());
    let Some(reference) = complete.next() else { return Ok(()) };
    let expected = answer(goal, reference);
    for other in complete {
        if answer(goal, other) != expected {
            return Err(CompareError::Disagreement {
                instance: name.to_string(),
                first_config: reference.config.to_string(),
                first_answer: expected,
                second_config: other.config.to_string(),
                second_answer: answer(goal, other),
            });
        }
    }
    Ok(())
}

/// Runs every instance under every configuration and checks that they agree.
pub fn compare(
    instances: &[(&str, &Model)],
    configs: &[SolveConfig],
    options: &CompareOptions,
) -> Result<Comparison, CompareError> {
    let comparison = compare_each(instances, configs, options, &mut |_, _| true)?;
    Ok(comparison.expect("a comparison that is never stopped is complete"))
}

/// [`compare`], handing each measurement to `each` (with its instance's name)
/// as soon as its run is done and agrees with the complete runs of its
/// instance before it: instance by instance, configuration by configuration,
/// the order of the CSV records, so that a caller can write each record at
/// once and a run killed part way keeps what it did. A run that disagrees is
/// never handed over: the comparison stops with the error. `each` returns
/// whether to go on; `Ok(None)` when it stopped the comparison.
pub fn compare_each(
    instances: &[(&str, &Model)],
    configs: &[SolveConfig],
    options: &CompareOptions,
    each: &mut dyn FnMut(&str, &Measurement) -> bool,
) -> Result<Option<Comparison>, CompareError> {
    let mut measurements: Vec<Vec<Measurement>> = vec![Vec::with_capacity(instances.len()); configs.len()];
    for &(name, model) in instances {
        let mut column = Vec::with_capacity(configs.len());
        for config in configs {
            column.push(measure(name, model, config, options)?);
            // Agreement of a prefix: the first complete run is the reference
            // of the whole column too, so the error is the one a check of the
            // whole column would give.
            check_agreement(name, options.goal, &column)?;
            if !each(name, column.last().expect("just pushed")) {
                return Ok(None);
            }
        }
        for (row, measurement) in measurements.iter_mut().zip(column) {
            row.push(measurement);
        }
    }
    let rows = configs.iter().zip(&measurements).map(|(config, row)| summarize(config, row)).collect();
    let instances = instances.iter().map(|(name, _)| name.to_string()).collect();
    Ok(Some(Comparison { instances, measurements, rows }))
}

/// The totals of one configuration's measurements.
pub fn summarize(config: &SolveConfig, measurements: &[Measurement]) -> Row {
    let mut stats = Stats::default();
    let mut pruning: indexmap::IndexMap<&str, Effect> = indexmap::IndexMap::new();
    for m in measurements {
        stats.accumulate(&m.stats);
        for (kind, effect) in &m.pruning {
            let total = pruning.entry(kind.as_str()).or_default();
            total.pruned += effect.pruned;
            total.failures += effect.failures;
        }
    }
    Row {
        config: config.clone(),
        instances: measurements.len(),
        solved: measurements.iter().filter(|m| m.solved).count(),
        limited: measurements.iter().filter(|m| m.is_limited()).count(),
        solutions: measurements.iter().map(|m| m.solutions).sum(),
        stats,
        time: measurements.iter().map(|m| m.time).sum(),
        cpu_time: measurements.iter().map(|m| m.cpu_time).sum(),
        pruning: pruning.into_iter().map(|(kind, effect)| (kind.to_string(), effect)).collect(),
    }
}

/// Models for the tests of the comparisons: N-queens (and, from
/// [`csp::testing::PlantedBug`], a deliberately wrong constraint: the report
/// must refuse to tabulate configurations that disagree).
#[cfg(test)]
pub(crate) mod test_models {
    use csp::Model;

    /// N-queens with the plain engine API: a variable per row, three all-differents.
    pub(crate) fn queens(n: i64) -> Model {
        let mut model = Model::new();
        let q = model.new_vars(n as usize, 0..n).unwrap();
        model.all_different(&q).unwrap();
        model.all_different_offset(&q, &(0..n).collect::<Vec<_>>()).unwrap();
        model.all_different_offset(&q, &(0..n).map(|i| -i).collect::<Vec<_>>()).unwrap();
        model
    }
}

#[cfg(test)]
mod tests {
    use super::test_models::queens;
    use super::*;

    fn configs() -> Vec<SolveConfig> {
        ["bt+input", "bt-cbj+input", "fc+mrv", "fc-cbj+mrv", "mac+domwdeg+lcv", "mac/ac2001+mrv+pairwise"]
            .iter()
            .map(|c| c.parse().unwrap())
            .collect()
    }

    #[test]
    fn every_goal_agrees_on_queens() {
        let four = queens(4);
        let six = queens(6);
        let instances = [("4-queens", &four), ("6-queens", &six)];
        for goal in [Goal::First, Goal::Count, Goal::All] {
            let options = CompareOptions { goal, repeats: Repeats::Exactly(3), ..CompareOptions::default() };
            let comparison = compare(&instances, &configs(), &options).unwrap();
            for row in &comparison.rows {
                assert_eq!(row.instances, 2);
                assert_eq!(row.solved, 2);
                let expected = if goal == Goal::First { 2 } else { 6 };
                assert_eq!(row.solutions, expected, "{goal:?} {}", row.config);
            }
        }
    }

    #[test]
    fn every_configuration_agrees_on_the_optimum() {
        // The largest sum of the first two rows' columns over the four 6-queens solutions: 2 + 5.
        let mut six = queens(6);
        let first_two = csp::LinearExpr::sum(six.vars().take(2));
        six.maximize(first_two).unwrap();
        let options =
            CompareOptions { goal: Goal::Optimize, repeats: Repeats::Exactly(1), ..CompareOptions::default() };
        let comparison = compare(&[("6-queens", &six)], &configs(), &options).unwrap();
        for measurement in comparison.measurements.iter().flatten() {
            assert_eq!(measurement.objective, Some(7), "{}", measurement.config);
            assert!(measurement.is_complete() && measurement.solved);
        }
        // A limit that stops the proof leaves the run incomplete, even with a solution.
        let limits = Limits::none().with_nodes(1);
        let options = CompareOptions { limits, ..options };
        let comparison = compare(&[("6-queens", &six)], &configs(), &options).unwrap();
        assert!(comparison.measurements.iter().flatten().all(|m| !m.is_complete()));
    }

    #[test]
    fn a_planted_disagreement_is_an_error() {
        let mut model = Model::new();
        let x = model.new_var(0..=3).unwrap();
        let y = model.new_var(0..=3).unwrap();
        model.post(csp::testing::PlantedBug([x, y])).unwrap();
        let options = CompareOptions { goal: Goal::Count, ..CompareOptions::default() };
        let err = compare(&[("planted", &model)], &configs(), &options).unwrap_err();
        assert!(matches!(err, CompareError::Disagreement { .. }), "{err}");
        assert!(err.to_string().contains("disagree on instance 'planted'"), "{err}");
    }

    #[test]
    fn pruning_is_attributed_by_kind_and_summed_over_instances() {
        let mut model = queens(6);
        let first = model.vars().next().unwrap();
        let x = model.new_var(0..=3).unwrap();
        model.less_than(x, first).unwrap();
        let configs = vec!["fc+mrv".parse().unwrap(), "mac+mrv".parse().unwrap()];
        let options = CompareOptions { goal: Goal::Count, ..CompareOptions::default() };
        let comparison = compare(&[("a", &model), ("b", &model)], &configs, &options).unwrap();
        for (row, measurements) in comparison.rows.iter().zip(&comparison.measurements) {
            let kinds: Vec<&str> = row.pruning.iter().map(|(kind, _)| kind.as_str()).collect();
            assert_eq!(kinds.len(), 2, "{kinds:?}");
            // Every removal is someone's, and the rows sum the instances.
            let pruned: u64 = row.pruning.iter().map(|(_, effect)| effect.pruned).sum();
            assert_eq!(pruned, row.stats.pruned, "{}", row.config);
            for (kind, effect) in &row.pruning {
                let per_instance: u64 = measurements
                    .iter()
                    .flat_map(|m| &m.pruning)
                    .filter(|(k, _)| k == kind)
                    .map(|(_, e)| e.failures)
                    .sum();
                assert_eq!(effect.failures, per_instance);
            }
        }
    }

    #[test]
    fn the_range_of_the_timed_runs_holds_their_median() {
        let six = queens(6);
        let configs = vec!["fc+mrv".parse().unwrap()];
        for repeats in [Repeats::Exactly(1), Repeats::Exactly(5), Repeats::Auto] {
            let options = CompareOptions { goal: Goal::Count, repeats, ..CompareOptions::default() };
            let comparison = compare(&[("6-queens", &six)], &configs, &options).unwrap();
            let m = &comparison.measurements[0][0];
            let (low, high) = m.time_range;
            assert!(low <= m.time && m.time <= high, "{repeats}: {low:?} {:?} {high:?}", m.time);
            if let Some((low, high)) = m.cpu_time_range {
                let cpu = m.cpu_time.unwrap();
                assert!(low <= cpu && cpu <= high, "{repeats}: {low:?} {cpu:?} {high:?}");
            }
            if m.timed_runs == 1 {
                assert_eq!(low, high);
            }
        }
        assert_eq!(duration_range([3, 1, 2].map(Duration::from_millis).into_iter()), (ms(1), ms(3)));
        assert_eq!(duration_range(std::iter::empty()), (Duration::ZERO, Duration::ZERO));
    }

    fn ms(millis: u64) -> Duration {
        Duration::from_millis(millis)
    }

    #[test]
    fn limited_runs_do_not_count_as_disagreeing() {
        let eight = queens(8);
        let tight = Limits::none().with_nodes(10);
        let configs = vec!["bt+input".parse().unwrap(), "fc+mrv".parse().unwrap()];
        let options = CompareOptions { goal: Goal::Count, repeats: Repeats::Exactly(1), limits: tight };
        let comparison = compare(&[("8-queens", &eight)], &configs, &options).unwrap();
        assert!(comparison.rows.iter().all(|row| row.limited == 1));
    }
}
