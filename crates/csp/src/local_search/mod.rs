//! Min-conflicts local search (Minton, Johnston, Philips & Laird 1992), an
//! alternative to backtracking for finding one solution of a large model: the
//! algorithm ([`LocalSearch`], with the scoring of candidate values in
//! `scoring`), the [`ViolationCounter`] trait that counts a constraint's
//! violation incrementally (`counter`: the extension through which local
//! search knows constraints, off the [`Constraint`](crate::Constraint) trait),
//! and the all-different's counter (`all_different`).

use std::fmt;
use std::time::Instant;

use crate::ids::ConstraintId;
use crate::model::{Model, ModelError, Solution};
use crate::rng::Rng;

mod all_different;
mod config;
mod counter;
mod scoring;

pub use config::{LocalSearchConfig, LocalSearchOutcome, LocalSearchStats};
pub use counter::{ValueList, ViolationCounter};

use counter::Recompute;

/// Makes a violation counter for one constraint (see [`LocalSearch::with_counter`]).
type CounterFactory<'m> = Box<dyn Fn() -> Box<dyn ViolationCounter + 'm> + 'm>;

/// Steps (or greedy placements) between two looks at the clock.
const CLOCK_EVERY: u64 = 256;

/// Min-conflicts local search (Minton, Johnston, Philips & Laird 1992): an
/// alternative to backtracking for finding one solution of a large model.
///
/// Give the variables values one by one, each the value with the fewest
/// conflicts with those placed before it (ties at random): the greedy start of
/// Minton et al., which leaves few conflicts. Then, again and again, pick a
/// variable in conflict (it takes part in a violated constraint) at random and
/// give it the value that minimises the total violation, ties at random; moves
/// that keep the total (sideways moves) are allowed. When every other value is
/// worse the variable is stuck: with some probability it then takes a random
/// value anyway (a random walk, as in WalkSAT, Selman, Kautz & Cohen 1994), and
/// when the best total has not improved for a while the search starts again.
/// Local search never proves that a model has no solution: it stops at its step
/// or time limit.
///
/// ```
/// use csp::{LocalSearch, LocalSearchConfig, Model};
///
/// // Sixty-four queens, one per row.
/// let n = 64;
/// let mut model = Model::new();
/// let q = model.new_vars(n, 0..n as i64).unwrap();
/// let up: Vec<i64> = (0..n as i64).collect();
/// let down: Vec<i64> = (0..n as i64).map(|i| -i).collect();
/// model.all_different(&q).unwrap();
/// model.all_different_offset(&q, &up).unwrap();
/// model.all_different_offset(&q, &down).unwrap();
///
/// let config = LocalSearchConfig { max_steps: Some(100_000), ..LocalSearchConfig::default() };
/// let mut search = LocalSearch::new(&model, config);
/// let solution = search.solve().into_solution().expect("64 queens are placed quickly");
/// assert!(model.is_solution(solution.values()));
/// println!("{}", search.stats());
/// ```
///
/// # Counting conflicts incrementally
///
/// Each step looks at many candidate values, so the change of violation of a
/// move must be cheap to compute. Each constraint is counted by a
/// [`ViolationCounter`] that keeps whatever state makes that cheap:
/// `all_different`'s keeps, per value, how many variables take it, so a move's
/// change is two array reads and a whole range of candidate values is scored
/// by one pass over a slice. Any other constraint is counted by recomputing
/// its violation over its scope (how far a linear sum is from its bound, 1 for
/// another violated constraint), which is correct but costs a pass over the
/// scope per candidate (and counts nothing until its whole scope has values).
/// A counter of your own for a constraint of yours is registered with
/// [`LocalSearch::with_counter`].
///
/// Domains stay as the model has them (a range of a million values is two
/// numbers): candidate values are read with [`Domain::nth`](crate::Domain::nth), never widened into
/// bitsets.
///
/// # Finding good values in large domains
///
/// A step scores a window of consecutive domain values starting at a random
/// place, and widens the window fourfold (16, 64, 256, ... values) until it
/// has found an improving value (the best in the windows scored: one that
/// leaves the variable without conflicts if there is one there), or a sideways
/// one after 1,024 values, or has scored the whole domain (or 2^22
/// values). Domains of up to 16 values are thus scored whole, as in plain
/// min-conflicts; in large ones, early on, when free values abound, a step costs
/// a few dozen array reads, and only a variable with nothing better than a
/// worsening move scans its whole domain. Before that, when a counter keeps the
/// few values that are free for it ([`ViolationCounter::free_values`]: the
/// empty columns of N-queens), the step tries those first: placing the last
/// queens of the greedy start then costs a handful of reads, not a scan of the
/// board.
pub struct LocalSearch<'m> {
    model: &'m Model,
    config: LocalSearchConfig,
    counters: Vec<Box<dyn ViolationCounter + 'm>>,
    /// Per constraint, the counters registered with
    /// [`with_counter`](LocalSearch::with_counter) (empty when there are none).
    custom: Vec<Option<CounterFactory<'m>>>,
    /// For variable `x`, `incidence[start[x]..start[x + 1]]` are the
    /// `(counter, scope position)` pairs it appears in (once per counter).
    start: Vec<usize>,
    incidence: Vec<(u32, u32)>,
    /// The current value of every variable.
    values: Vec<i64>,
    /// The sum of the counters' violations.
    total: u64,
    /// Variables that may be in conflict, as a list plus a membership bitset. Every
    /// variable in conflict is here; the ones found not in conflict are dropped
    /// when drawn.
    suspects: Vec<u32>,
    is_suspect: Vec<u64>,
    rng: Rng,
    scores: Vec<i64>,
    /// Scratch for [`ViolationCounter::apply`].
    newly_conflicted: Vec<usize>,
    stats: LocalSearchStats,
}

impl fmt::Debug for LocalSearch<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LocalSearch")
            .field("config", &self.config)
            .field("total", &self.total)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

/// Why a run stopped before a solution.
enum Stop {
    Steps,
    Time,
}

impl<'m> LocalSearch<'m> {
    /// Prepares a search: one violation counter per constraint and the
    /// variable-to-constraint incidence. Nothing is proportional to the domain
    /// sizes.
    pub fn new(model: &'m Model, config: LocalSearchConfig) -> LocalSearch<'m> {
        let n = model.num_vars();
        let mut degree = vec![0u32; n];
        // `seen[x]` is the last constraint whose scope had `x`, to count each once.
        let mut seen = vec![u32::MAX; n];
        for (id, constraint) in model.constraints() {
            for &var in constraint.scope() {
                if seen[var.index()] != id.index {
                    seen[var.index()] = id.index;
                    degree[var.index()] += 1;
                }
            }
        }
        let mut start = Vec::with_capacity(n + 1);
        let mut sum = 0usize;
        for &d in &degree {
            start.push(sum);
            sum += d as usize;
        }
        start.push(sum);
        drop(degree);
        let mut fill = start.clone();
        let mut incidence = vec![(0u32, 0u32); sum];
        seen.iter_mut().for_each(|s| *s = u32::MAX);
        for (id, constraint) in model.constraints() {
            for (position, &var) in constraint.scope().iter().enumerate() {
                if seen[var.index()] != id.index {
                    seen[var.index()] = id.index;
                    incidence[fill[var.index()]] = (id.index, position as u32);
                    fill[var.index()] += 1;
                }
            }
        }
        LocalSearch {
            model,
            rng: Rng::new(config.seed),
            config,
            counters: Self::counters(model, &[]),
            custom: Vec::new(),
            start,
            incidence,
            values: Vec::new(),
            total: 0,
            suspects: Vec::new(),
            is_suspect: Vec::new(),
            scores: Vec::new(),
            newly_conflicted: Vec::new(),
            stats: LocalSearchStats::default(),
        }
    }

    /// One violation counter per constraint: the one registered for it, the
    /// engine's own for a built-in that has one, or one that recomputes the
    /// violation (always for a scope with a repeated variable). Counters
    /// allocate their tables when cleared, not here.
    fn counters(model: &'m Model, custom: &[Option<CounterFactory<'m>>]) -> Vec<Box<dyn ViolationCounter + 'm>> {
        let mut seen = vec![u32::MAX; model.num_vars()];
        model
            .constraints()
            .map(|(id, constraint)| {
                let mut repeats = false;
                for &var in constraint.scope() {
                    repeats |= seen[var.index()] == id.index;
                    seen[var.index()] = id.index;
                }
                match custom.get(id.index()) {
                    _ if repeats => Box::new(Recompute::new(constraint)),
                    Some(Some(make)) => make(),
                    _ => counter::builtin(constraint),
                }
            })
            .collect()
    }

    /// Counts the violation of `constraint` (one of yours) with counters made
    /// by `make`, instead of recomputing it over the scope for every candidate
    /// move. `make` is called for every counter the search needs (one now, a
    /// fresh one after each solution); a scope with a repeated variable is
    /// always recomputed.
    ///
    /// ```
    /// use csp::{LocalSearch, LocalSearchConfig, Model, ViolationCounter};
    ///
    /// /// Counts `x != y` (scope `[x, y]`): 1 when both have the same value.
    /// #[derive(Default)]
    /// struct Differ([Option<i64>; 2]);
    ///
    /// impl ViolationCounter for Differ {
    ///     fn clear(&mut self, _: &Model) {
    ///         self.0 = [None; 2];
    ///     }
    ///     fn violation(&self) -> u64 {
    ///         u64::from(self.0[0].is_some() && self.0[0] == self.0[1])
    ///     }
    ///     fn conflicts(&self, _: usize, _: i64) -> u64 {
    ///         self.violation()
    ///     }
    ///     fn delta(&mut self, position: usize, from: Option<i64>, to: i64) -> i64 {
    ///         let other = self.0[1 - position];
    ///         i64::from(other == Some(to)) - i64::from(from.is_some() && other == from)
    ///     }
    ///     fn apply(&mut self, position: usize, _: Option<i64>, to: i64, newly: &mut Vec<usize>) {
    ///         let before = self.violation();
    ///         self.0[position] = Some(to);
    ///         if before == 0 && self.violation() == 1 {
    ///             newly.push(1 - position);
    ///         }
    ///     }
    /// }
    ///
    /// let mut model = Model::new();
    /// let x = model.new_vars(3, 0..=2).unwrap();
    /// let mut ids = Vec::new();
    /// for (a, b) in [(0, 1), (1, 2), (0, 2)] {
    ///     ids.push(model.predicate(&[x[a], x[b]], |v| v[0] != v[1]).unwrap());
    /// }
    /// let mut search = LocalSearch::new(&model, LocalSearchConfig::default());
    /// for id in ids {
    ///     search = search.with_counter(id, || Box::new(Differ::default())).unwrap();
    /// }
    /// let solution = search.solve().into_solution().expect("a triangle is 3-colourable");
    /// assert!(model.is_solution(solution.values()));
    /// ```
    pub fn with_counter(
        mut self,
        constraint: ConstraintId,
        make: impl Fn() -> Box<dyn ViolationCounter + 'm> + 'm,
    ) -> Result<Self, ModelError> {
        if constraint.index() >= self.model.num_constraints() {
            return Err(ModelError::UnknownConstraint { id: constraint });
        }
        if self.custom.is_empty() {
            self.custom.resize_with(self.model.num_constraints(), || None);
        }
        self.custom[constraint.index()] = Some(Box::new(make));
        self.counters = Self::counters(self.model, &self.custom);
        Ok(self)
    }

    /// The configuration.
    pub fn config(&self) -> &LocalSearchConfig {
        &self.config
    }

    /// The statistics of the last run.
    pub fn stats(&self) -> &LocalSearchStats {
        &self.stats
    }

    /// The current assignment: one value per variable, or none before the first
    /// run and after a solution (the values went into it).
    pub fn values(&self) -> &[i64] {
        &self.values
    }

    /// The current total violation, as the counters see it.
    pub fn violation(&self) -> u64 {
        self.total
    }

    /// Searches for a solution. Each call starts a new run with fresh statistics;
    /// the random sequence goes on from where the last run left it.
    pub fn solve(&mut self) -> LocalSearchOutcome<'m> {
        let began = Instant::now();
        self.stats = LocalSearchStats::default();
        let outcome = match self.run(began) {
            Ok(outcome) => outcome,
            Err(Stop::Steps) => LocalSearchOutcome::StepLimit,
            Err(Stop::Time) => LocalSearchOutcome::TimeLimit,
        };
        self.stats.elapsed = began.elapsed();
        outcome
    }

    fn run(&mut self, began: Instant) -> Result<LocalSearchOutcome<'m>, Stop> {
        let n = self.model.num_vars();
        let restart_after = self.config.restart_after.unwrap_or((n as u64).saturating_mul(100).max(100_000)).max(1);
        self.greedy_start(began)?;
        self.stats.initial_violation = self.total;
        self.stats.best_violation = self.total;
        let mut best = self.total;
        let mut stalled = 0u64;
        // Loop invariant: `values` is a complete assignment within the domains,
        // the counters count it, `total` is the sum of their violations, and every
        // variable in conflict is a suspect.
        loop {
            if self.total == 0 {
                return Ok(self.verified());
            }
            if self.config.max_steps.is_some_and(|limit| self.stats.steps >= limit) {
                return Err(Stop::Steps);
            }
            if self.stats.steps % CLOCK_EVERY == 0 {
                self.check_clock(began)?;
            }
            if stalled >= restart_after {
                self.stats.restarts += 1;
                self.greedy_start(began)?;
                best = self.total;
                stalled = 0;
                continue;
            }
            let Some(x) = self.draw_conflicted() else {
                // No variable is in conflict although the violation is positive:
                // a counter breaks its contract. Name the first violated constraint.
                let culprit = self.counters.iter().position(|c| c.violation() > 0).unwrap_or(0);
                return Ok(LocalSearchOutcome::InconsistentCounter(
                    self.model.constraint_at(culprit).expect("a constraint of the model"),
                ));
            };
            self.stats.steps += 1;
            let from = self.values[x];
            let mut choice = self.best_value(x, Some(from)).filter(|&(_, delta)| delta <= 0).map(|(value, _)| value);
            if choice.is_none() && self.config.walk_probability > 0.0 && self.rng.unit() < self.config.walk_probability
            {
                self.stats.random_walks += 1;
                choice = self.random_value(x);
            }
            if let Some(value) = choice {
                self.make_move(x, Some(from), value);
            }
            if self.total < best {
                best = self.total;
                stalled = 0;
                self.stats.best_violation = self.stats.best_violation.min(best);
            } else {
                stalled += 1;
            }
        }
    }

    fn check_clock(&self, began: Instant) -> Result<(), Stop> {
        match self.config.time_limit {
            Some(limit) if began.elapsed() >= limit => Err(Stop::Time),
            _ => Ok(()),
        }
    }

    /// The current assignment as a solution, after checking it against every
    /// constraint's `is_satisfied`. The counters' tables are freed first (they are
    /// rebuilt by the next run), so that checking a large model needs no more
    /// memory than searching it.
    fn verified(&mut self) -> LocalSearchOutcome<'m> {
        self.stats.best_violation = 0;
        self.counters = Self::counters(self.model, &self.custom);
        self.suspects = Vec::new();
        self.is_suspect = Vec::new();
        match self.model.violated(&self.values).first() {
            None => LocalSearchOutcome::Solved(Solution::new(self.model, std::mem::take(&mut self.values))),
            Some(&culprit) => LocalSearchOutcome::InconsistentCounter(culprit),
        }
    }

    /// The greedy start (Minton et al. 1992): the variables in creation order,
    /// each given the value with the fewest conflicts with the ones before it,
    /// ties at random. Then the suspects are the variables in conflict.
    fn greedy_start(&mut self, began: Instant) -> Result<(), Stop> {
        let model = self.model;
        for counter in &mut self.counters {
            counter.clear(model);
        }
        self.total = 0;
        self.values.clear();
        self.values.extend(model.domains().iter().map(|domain| domain.min().expect("domains are not empty")));
        for x in 0..self.values.len() {
            if x as u64 % (CLOCK_EVERY * 16) == 0 {
                self.check_clock(began)?;
            }
            let (value, _) = self.best_value(x, None).expect("a domain has a value");
            self.make_move(x, None, value);
        }
        let n = self.values.len();
        self.suspects.clear();
        self.is_suspect.clear();
        self.is_suspect.resize(n.div_ceil(64), 0);
        for x in 0..n {
            if self.conflicts(x) > 0 {
                self.add_suspect(x);
            }
        }
        Ok(())
    }

    /// The violation involving variable `x` at its current value.
    fn conflicts(&self, x: usize) -> u64 {
        let value = self.values[x];
        self.incidence[self.start[x]..self.start[x + 1]]
            .iter()
            .map(|&(c, p)| self.counters[c as usize].conflicts(p as usize, value))
            .sum()
    }

    /// A random suspect that is in conflict, dropping the ones that are not. When
    /// the suspects run out, every variable is looked at once more (a safety net
    /// for a counter that forgets to name a newly conflicted position); `None` if
    /// none is in conflict.
    fn draw_conflicted(&mut self) -> Option<usize> {
        let mut rescanned = false;
        loop {
            if self.suspects.is_empty() {
                if rescanned {
                    return None;
                }
                rescanned = true;
                for x in 0..self.values.len() {
                    if self.conflicts(x) > 0 {
                        self.add_suspect(x);
                    }
                }
                continue;
            }
            let i = self.rng.below(self.suspects.len() as u64) as usize;
            let x = self.suspects[i] as usize;
            if self.conflicts(x) > 0 {
                return Some(x);
            }
            self.suspects.swap_remove(i);
            self.is_suspect[x / 64] &= !(1 << (x % 64));
        }
    }

    fn add_suspect(&mut self, x: usize) {
        if self.is_suspect[x / 64] >> (x % 64) & 1 == 0 {
            self.is_suspect[x / 64] |= 1 << (x % 64);
            self.suspects.push(x as u32);
        }
    }

    /// Moves `x` from `from` (`None`: no value yet) to `value`, updating the
    /// counters, the total and the suspects.
    fn make_move(&mut self, x: usize, from: Option<i64>, value: i64) {
        if from == Some(value) {
            return;
        }
        let mut total = self.total as i128;
        let mut newly_conflicted = std::mem::take(&mut self.newly_conflicted);
        let searching = !self.is_suspect.is_empty() && from.is_some();
        for i in self.start[x]..self.start[x + 1] {
            let (c, p) = self.incidence[i];
            let counter = &mut self.counters[c as usize];
            let before = counter.violation();
            newly_conflicted.clear();
            counter.apply(p as usize, from, value, &mut newly_conflicted);
            total += counter.violation() as i128 - before as i128;
            if searching {
                let scope = self
                    .model
                    .constraint_at(c as usize)
                    .and_then(|id| self.model.constraint(id))
                    .expect("a constraint of the model")
                    .scope();
                for &q in &newly_conflicted {
                    self.add_suspect(scope[q].index());
                }
            }
        }
        self.newly_conflicted = newly_conflicted;
        self.total = total as u64;
        self.values[x] = value;
        if searching {
            self.stats.moves += 1;
            // The moved variable may be in conflict now; it stays a suspect.
            self.add_suspect(x);
        }
    }
}
