//! The sweep: for each value of one generator parameter (the tightness, by
//! default), `samples` random instances solved under every algorithm, and
//! every run kept, so that the report can give quantiles and per-instance
//! records.

use std::fmt;
use std::time::Duration;

use csp::rng::Rng;
use csp::{Limits, SolveConfig};
use rayon::prelude::*;

use super::generator::Generator;
use crate::report::compare::{CompareError, CompareOptions, Goal, Measurement, Repeats, check_agreement, measure};

pub use super::sweep_report::{Cost, Point, SweepResult, TwinCheck};

/// The largest number of instances a sweep may ask for (points x samples).
pub const MAX_INSTANCES: usize = 1_000_000;

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

impl Algorithm {
    /// This algorithm's learning twin, whose configuration is `twin`, under a
    /// name that parses back to `twin`: `NAME+learn` when that spelling means
    /// it (`mac+learn`); else the name without its `binary` word, since
    /// learning always branches binary (`mac+binary` gives `mac+learn`, not
    /// `mac+binary+learn`, which is refused); else the twin's full spelling.
    pub fn learning_twin(&self, twin: SolveConfig) -> Algorithm {
        let means_twin = |name: &str| name.parse::<SolveConfig>().is_ok_and(|config| config == twin);
        let appended = format!("{}+learn", self.name);
        let d_way: Vec<&str> =
            self.name.split('+').filter(|word| !word.trim().eq_ignore_ascii_case("binary")).collect();
        let without_binary = format!("{}+learn", d_way.join("+"));
        let name = [appended, without_binary].into_iter().find(|name| means_twin(name));
        Algorithm { name: name.unwrap_or_else(|| twin.to_string()), config: twin }
    }
}

/// What a sweep runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    /// The generator, with the parameters that stay fixed.
    pub generator: Generator,
    /// The parameter that varies (`p2` for model B).
    pub parameter: &'static str,
    /// Its values, in order: the points of the sweep.
    pub values: Vec<f64>,
    /// Instances per point.
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
    /// The generator at point `point` (its parameter set to the point's value).
    pub fn generator_at(&self, point: usize) -> Result<Generator, SweepError> {
        self.generator.with(self.parameter, self.values[point]).map_err(SweepError)
    }

    /// The predicted critical value of the swept parameter, with its legend words.
    pub fn critical(&self) -> Option<(f64, &'static str)> {
        self.generator.critical(self.parameter)
    }

    /// Checks the parameters, so that no instance fails to build.
    pub fn validate(&self) -> Result<(), SweepError> {
        let fail = |message: String| Err(SweepError(message));
        if self.values.is_empty() {
            return fail(format!("there is no value of {} to sweep", self.parameter));
        }
        for point in 0..self.values.len() {
            self.generator_at(point)?.check().map_err(SweepError)?;
        }
        if self.samples == 0 {
            return fail("--samples must be at least 1".to_string());
        }
        if self.algorithms.is_empty() {
            return fail("--algorithms names no algorithm".to_string());
        }
        if self.values.len().saturating_mul(self.samples) > MAX_INSTANCES {
            return fail(format!(
                "{} values x {} samples is more than {MAX_INSTANCES} instances",
                self.values.len(),
                self.samples
            ));
        }
        Ok(())
    }

    /// Runs the sweep on the current rayon thread pool: every instance under
    /// every algorithm, in parallel over instances; `done` is called with
    /// each instance as it finishes (and its algorithms agree), from the
    /// thread that ran it, in the order they finish (for a progress bar, and
    /// the records written as they come). The result does not depend on the
    /// number of threads (but for the times). A disagreement between
    /// algorithms, or a wrong solution, stops the sweep with the error.
    pub fn run(&self, done: &(dyn Fn(&InstanceOutcome) + Sync)) -> Result<SweepResult, SweepFailure> {
        self.validate().map_err(SweepFailure::Usage)?;
        let options = CompareOptions { goal: Goal::First, repeats: Repeats::Exactly(1), limits: self.limits };
        // One instance per rayon job: instances differ in cost by orders of
        // magnitude, and rayon's default splitting leaves runs of dozens of
        // instances to one thread, which the other cannot steal from; with
        // the hard instances in one run, a sweep used a single core.
        let mut outcomes: Vec<InstanceOutcome> = job_order(self.values.len(), self.samples)
            .par_iter()
            .with_max_len(1)
            .map(|&(point, sample)| {
                let outcome = self.run_instance(point, sample, &options);
                if let Ok(outcome) = &outcome {
                    done(outcome);
                }
                outcome
            })
            .collect::<Result<_, _>>()?;
        outcomes.sort_by_key(|o| (o.point, o.sample));
        Ok(SweepResult::new(self.clone(), outcomes))
    }

    fn run_instance(
        &self,
        point: usize,
        sample: usize,
        options: &CompareOptions,
    ) -> Result<InstanceOutcome, SweepFailure> {
        let generator = self.generator_at(point).map_err(SweepFailure::Usage)?;
        let seed = instance_seed(self.seed, point, sample);
        let model = generator
            .generate(seed)
            .map_err(|e| SweepFailure::Usage(SweepError(format!("{generator} seed {seed}: {e}"))))?;
        let name = format!("{generator} seed {seed} (point {point}, sample {sample})");
        let measurements: Vec<Measurement> = self
            .algorithms
            .iter()
            .map(|algorithm| measure(&name, &model, &algorithm.config, options))
            .collect::<Result<_, _>>()
            .map_err(SweepFailure::from)?;
        check_agreement(&name, Goal::First, &measurements).map_err(SweepFailure::from)?;
        let satisfiable = measurements.iter().find(|m| m.is_complete()).map(|m| m.solved);
        let flawed = generator.family.may_be_flawed().then(|| csp::random::flaws(&model).has_flawed_variable());
        Ok(InstanceOutcome {
            point,
            sample,
            seed,
            satisfiable,
            flawed,
            runs: measurements
                .iter()
                .map(|m| Run {
                    solved: m.solved,
                    complete: m.is_complete(),
                    nodes: m.stats.nodes,
                    checks: m.stats.checks,
                    failures: m.stats.failures,
                    backtracks: m.stats.backtracks,
                    learnt: m.stats.learnt,
                    time: m.time,
                    cpu_time: m.cpu_time,
                })
                .collect(),
        })
    }
}

/// The order in which a sweep's jobs `(point, sample)` start: sample by
/// sample, each over every point, so that the instances done at any moment
/// are a fair mix of easy and hard points and the progress bar's rate (and
/// its ETA) is representative. The results are sorted back afterwards.
fn job_order(points: usize, samples: usize) -> Vec<(usize, usize)> {
    (0..samples).flat_map(|s| (0..points).map(move |p| (p, s))).collect()
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

/// One instance under every algorithm.
#[derive(Clone, Debug, PartialEq)]
pub struct InstanceOutcome {
    /// The point (index of the parameter value).
    pub point: usize,
    /// The sample at that point.
    pub sample: usize,
    /// The instance's seed.
    pub seed: u64,
    /// Whether it is satisfiable; `None` when every run was stopped by a limit.
    pub satisfiable: Option<bool>,
    /// Whether some variable has only flawed values (for the families whose
    /// instances may be flawed).
    pub flawed: Option<bool>,
    /// One run per algorithm, in the sweep's order.
    pub runs: Vec<Run>,
}

/// One algorithm on one instance.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// Whether it found a solution.
    pub solved: bool,
    /// Whether it finished (no limit stopped it).
    pub complete: bool,
    /// Decisions.
    pub nodes: u64,
    /// Constraint checks.
    pub checks: u64,
    /// Failed nodes.
    pub failures: u64,
    /// Backtracks.
    pub backtracks: u64,
    /// Nogoods learnt (under `+learn`).
    pub learnt: u64,
    /// Wall-clock time.
    pub time: Duration,
    /// CPU time of the solving thread (`None` without a thread CPU clock).
    pub cpu_time: Option<Duration>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every name the lab, `compare` and `rtd` print parses back to the
    /// configuration it names: the algorithms as given, their learning twins
    /// (the lab's `NAME+learn`, whose `mac+binary+learn` once did not parse),
    /// and the configurations' own spellings (what `compare` and `rtd` print).
    #[test]
    fn every_printed_name_parses_back_to_its_configuration() {
        use csp::{ValueOrder, VarOrder};
        let levels = ["bt", "bt-cbj", "fc", "fc-cbj", "mac", "MAC", "mac/ac2001", "mac-cbj", "mac+learn"];
        let mut extras: Vec<String> = ["", "+binary", "+Binary", "+matching+binary", "+intersect+binary+luby"]
            .iter()
            .chain(&["+sac+binary", "+probe", "+binary+seed=3", "+pairwise", "+glucose", "+luby+binary"])
            .map(|extra| extra.to_string())
            .collect();
        extras.extend(VarOrder::ALL.iter().map(|order| format!("+{}", order.name())));
        extras.extend(VarOrder::ALL.iter().map(|order| format!("+{}+binary", order.name())));
        extras.extend(ValueOrder::ALL.iter().map(|order| format!("+{}+binary", order.name())));
        let (mut names, mut twins) = (0, 0);
        for level in levels {
            for extra in &extras {
                let Ok(algorithm) = format!("{level}{extra}").parse::<Algorithm>() else { continue };
                names += 1;
                let printed = |config: &SolveConfig| config.to_string().parse::<SolveConfig>();
                assert_eq!(printed(&algorithm.config).as_ref(), Ok(&algorithm.config), "{}", algorithm.name);
                let Some(twin) = crate::report::learning_twin(&algorithm.config) else { continue };
                twins += 1;
                assert_eq!(printed(&twin).as_ref(), Ok(&twin), "the twin of {}", algorithm.name);
                let named = algorithm.learning_twin(twin.clone());
                assert_eq!(
                    named.name.parse::<SolveConfig>().as_ref(),
                    Ok(&twin),
                    "{} -> {}",
                    algorithm.name,
                    named.name
                );
            }
        }
        assert!(names > 200 && twins > 50, "{names} names, {twins} twins");
        let named = |name: &str| {
            let algorithm: Algorithm = name.parse().unwrap();
            algorithm.learning_twin(crate::report::learning_twin(&algorithm.config).unwrap()).name
        };
        assert_eq!(named("mac"), "mac+learn");
        assert_eq!(named("mac+binary"), "mac+learn");
        assert_eq!(named("mac+domwdeg+binary+luby"), "mac+domwdeg+luby+learn");
    }

    #[test]
    fn jobs_go_sample_by_sample_so_the_progress_rate_is_representative() {
        // Point by point, the easy points came first and the ETA said 2 s
        // for a sweep of 5 minutes: every run of `points` jobs now covers
        // every point once.
        let order = job_order(19, 50);
        assert_eq!(order.len(), 19 * 50);
        for block in order.chunks(19) {
            let mut points: Vec<usize> = block.iter().map(|&(point, _)| point).collect();
            points.sort_unstable();
            assert_eq!(points, (0..19).collect::<Vec<_>>());
        }
        let mut all = order.clone();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 19 * 50, "each job once");
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
