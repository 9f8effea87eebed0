//! Min-conflicts local search (Minton, Johnston, Philips & Laird 1992): an
//! alternative to backtracking for finding one solution of a large model.
//!
//! Give the variables values one by one, each the value with the fewest
//! conflicts with those placed before it (ties at random): the greedy start of
//! Minton et al., which leaves few conflicts. Then, again and again, pick a
//! variable in conflict (it takes part in a violated constraint) at random and
//! give it the value that minimises the total violation, ties at random; moves
//! that keep the total (sideways moves) are allowed. When every other value is
//! worse the variable is stuck: with some probability it then takes a random
//! value anyway (a random walk, as in WalkSAT, Selman, Kautz & Cohen 1994), and
//! when the best total has not improved for a while the search starts again.
//! Local search never proves that a model has no solution: it stops at its step
//! or time limit.
//!
//! ```
//! use csp::{LocalSearch, LocalSearchConfig, Model};
//!
//! // Sixty-four queens, one per row.
//! let n = 64;
//! let mut model = Model::new();
//! let q = model.new_vars(n, 0..n as i64).unwrap();
//! let up: Vec<i64> = (0..n as i64).collect();
//! let down: Vec<i64> = (0..n as i64).map(|i| -i).collect();
//! model.all_different(&q).unwrap();
//! model.all_different_offset(&q, &up).unwrap();
//! model.all_different_offset(&q, &down).unwrap();
//!
//! let config = LocalSearchConfig { max_steps: Some(100_000), ..LocalSearchConfig::default() };
//! let mut search = LocalSearch::new(&model, config);
//! let solution = search.solve().into_solution().expect("64 queens are placed quickly");
//! assert!(model.is_solution(solution.values()));
//! println!("{}", search.stats());
//! ```
//!
//! # Counting conflicts incrementally
//!
//! Each step looks at many candidate values, so the change of violation of a
//! move must be cheap to compute. A constraint can offer a [`ViolationCounter`]
//! ([`Constraint::violation_counter`]) that keeps whatever state makes that
//! cheap: `all_different` keeps, per value, how many variables take it, so a
//! move's change is two array reads and a whole range of candidate values is
//! scored by one pass over a slice. A constraint without a counter is scored by
//! recomputing [`Constraint::violation`] over its scope, which is correct but
//! costs a pass over the scope per candidate (and counts nothing until its whole
//! scope has values).
//!
//! Domains stay as the model has them (a range of a million values is two
//! numbers): candidate values are read with [`Domain::nth`], never widened into
//! bitsets.
//!
//! # Finding good values in large domains
//!
//! A step scores a window of consecutive domain values starting at a random
//! place, and widens the window fourfold (16, 64, 256, ... values) until it
//! has found an improving value (the best in the windows scored: one that
//! leaves the variable without conflicts if there is one there), or a sideways
//! one after 1,024 values, or has scored the whole domain (or [`MAX_SCAN`]
//! values). Domains of up to 16 values are thus scored whole, as in plain
//! min-conflicts; in large ones, early on, when free values abound, a step costs
//! a few dozen array reads, and only a variable with nothing better than a
//! worsening move scans its whole domain. Before that, when a counter keeps the
//! few values that are free for it ([`ViolationCounter::free_values`]: the
//! empty columns of N-queens), the step tries those first: placing the last
//! queens of the greedy start then costs a handful of reads, not a scan of the
//! board.

use std::collections::HashMap;
use std::fmt;
use std::time::{Duration, Instant};

use crate::constraint::Constraint;
use crate::domain::Domain;
use crate::ids::{ConstraintId, VarId};
use crate::model::Model;
use crate::model::Solution;
use crate::rng::Rng;

/// The most candidate values one step scores. Larger domains are sampled, in
/// windows starting at random places.
pub const MAX_SCAN: u64 = 1 << 22;

/// The first window of candidate values a step scores.
const FIRST_WINDOW: u64 = 16;

/// A step accepts a sideways move (one that keeps the total) once it has scored
/// this many values without finding a better one.
const SIDEWAYS_AFTER: u64 = 1024;

/// Values are scored in chunks of this many (the size of the score buffer).
const CHUNK: usize = 4096;

/// Steps (or greedy placements) between two looks at the clock.
const CLOCK_EVERY: u64 = 256;

/// An incremental count of a constraint's violation, for local search.
///
/// Positions index the constraint's scope (a counter is only used for scopes
/// without repeated variables). A position is unassigned or holds a value. The
/// search starts with [`clear`](ViolationCounter::clear), which unassigns all of
/// them, and from then on asks about and makes moves of one position at a time,
/// from `None` (unassigned) or from its current value to a value of its domain.
///
/// The numbers must agree with [`Constraint::violation`]: once every position
/// holds a value, [`violation`](ViolationCounter::violation) equals `violation`
/// of the values, and is 0 exactly when `is_satisfied` holds; while it is
/// positive, some position has [`conflicts`](ViolationCounter::conflicts) above 0.
/// Before that, the violation should count the conflicts among the positions
/// that have values, as far as the constraint can tell (0 is allowed: it only
/// makes the greedy start blind to the constraint). So that the search can pick
/// conflicted variables without scanning them all, [`apply`](ViolationCounter::apply)
/// names the positions a move may have put into conflict.
pub trait ViolationCounter {
    /// Unassigns every position: the violation becomes 0. `model` gives the
    /// domains, for counters that size their tables by them.
    fn clear(&mut self, model: &Model);

    /// The current violation.
    fn violation(&self) -> u64;

    /// How much of the violation involves `position`, which holds `value`: the
    /// violation would fall by this much if the position took a value clashing
    /// with nothing. 0 when the position is not in conflict.
    fn conflicts(&self, position: usize, value: i64) -> u64;

    /// The change of violation if `position` moved from `from` (its current
    /// value, or `None` if it has none) to `to`, everything else staying. 0 when
    /// `from == Some(to)`.
    fn delta(&mut self, position: usize, from: Option<i64>, to: i64) -> i64;

    /// Adds to `scores[k]` the [`delta`](ViolationCounter::delta) of moving
    /// `position` from `from` to `first + k`, for every `k < scores.len()` (the
    /// values are consecutive; they may include `from`). Override it when a range
    /// of values can be scored faster than one by one.
    fn add_deltas(&mut self, position: usize, from: Option<i64>, first: i64, scores: &mut [i64]) {
        for (k, score) in scores.iter_mut().enumerate() {
            *score += self.delta(position, from, first + k as i64);
        }
    }

    /// The values that would leave `position` without conflicts in this
    /// constraint, when the counter keeps them at hand and they are few (an
    /// `all_different` whose variables nearly fill its values keeps its free
    /// values). The search tries them before scanning the domain, which near
    /// the end of a large search saves scanning it all. They may include values
    /// outside the position's domain; the search skips those.
    fn free_values(&self, position: usize) -> Option<ValueList<'_>> {
        let _ = position;
        None
    }

    /// Records the move of `position` from `from` to `to`, and pushes onto
    /// `newly_conflicted` every other position that had no conflicts before the
    /// move and may have some now (pushing more is allowed, only slower).
    fn apply(&mut self, position: usize, from: Option<i64>, to: i64, newly_conflicted: &mut Vec<usize>);
}

/// A list of values, `base + offsets[k]`, as [`ViolationCounter::free_values`]
/// gives them (borrowed from the counter's own tables, in no particular order).
#[derive(Clone, Copy, Debug)]
pub struct ValueList<'a> {
    /// The value that offset 0 stands for.
    pub base: i64,
    /// The values, relative to `base`.
    pub offsets: &'a [u32],
}

impl ValueList<'_> {
    /// The number of values.
    pub fn len(&self) -> usize {
        self.offsets.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.offsets.is_empty()
    }

    /// The `k`-th value (`k < len()`).
    pub fn get(&self, k: usize) -> i64 {
        self.base + i64::from(self.offsets[k])
    }
}

/// How to run a [`LocalSearch`].
#[derive(Clone, Debug, PartialEq)]
pub struct LocalSearchConfig {
    /// The seed of every random choice: equal seeds give equal runs (but for the
    /// time, and for where a time limit stops them).
    pub seed: u64,
    /// Stop after this many steps (a step examines one conflicted variable). `None`
    /// runs until a solution or the time limit: a model without solutions then
    /// never stops.
    pub max_steps: Option<u64>,
    /// Stop after this much wall-clock time.
    pub time_limit: Option<Duration>,
    /// The probability that a stuck step (every other value of the chosen variable
    /// is worse) is a random walk: the variable takes a random value anyway. It
    /// lets the search leave local minima. Walks are kept to stuck steps because a
    /// random value in a nearly solved large model costs an expensive repair.
    pub walk_probability: f64,
    /// Start again (a new greedy assignment) when the best total violation of the
    /// current try has not improved for this many steps. `None` means 100 times
    /// the number of variables, at least 100,000: restarts throw progress away, so
    /// they are a last resort (3-colouring 10,000 nodes of degree 4 took 3 to 13
    /// million steps with a tenth of that, about a million without).
    pub restart_after: Option<u64>,
}

impl Default for LocalSearchConfig {
    fn default() -> Self {
        LocalSearchConfig { seed: 0, max_steps: None, time_limit: None, walk_probability: 0.1, restart_after: None }
    }
}

/// What a local search run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LocalSearchStats {
    /// Steps: conflicted variables examined (the greedy start is not counted).
    pub steps: u64,
    /// Steps that changed a value (improving, sideways or random moves).
    pub moves: u64,
    /// Stuck steps that became random walks.
    pub random_walks: u64,
    /// Candidate values scored, in the greedy start and in the steps.
    pub evaluations: u64,
    /// Restarts: greedy starts after the first.
    pub restarts: u64,
    /// The total violation after the first greedy start.
    pub initial_violation: u64,
    /// The smallest total violation seen (0 when solved).
    pub best_violation: u64,
    /// Wall-clock time (not deterministic).
    pub elapsed: Duration,
}

impl fmt::Display for LocalSearchStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "steps {}, moves {}, random walks {}, evaluations {}, restarts {}, initial violation {}, \
             best violation {}, time {:.3} ms",
            self.steps,
            self.moves,
            self.random_walks,
            self.evaluations,
            self.restarts,
            self.initial_violation,
            self.best_violation,
            self.elapsed.as_secs_f64() * 1e3
        )
    }
}

/// How a local search run ended. It never proves unsatisfiability.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LocalSearchOutcome<'m> {
    /// A solution, checked with [`Model::violated`] (every constraint's
    /// `is_satisfied`).
    Solved(Solution<'m>),
    /// [`LocalSearchConfig::max_steps`] ran out first.
    StepLimit,
    /// [`LocalSearchConfig::time_limit`] ran out first.
    TimeLimit,
    /// The counters said the violation is 0 but this constraint is not
    /// satisfied, or the reverse: its [`ViolationCounter`] disagrees with its
    /// `is_satisfied` (a bug in that constraint).
    InconsistentCounter(ConstraintId),
}

impl<'m> LocalSearchOutcome<'m> {
    /// Whether a solution was found.
    pub fn is_solved(&self) -> bool {
        matches!(self, LocalSearchOutcome::Solved(_))
    }

    /// The solution, if one was found.
    pub fn into_solution(self) -> Option<Solution<'m>> {
        match self {
            LocalSearchOutcome::Solved(solution) => Some(solution),
            _ => None,
        }
    }
}

/// Min-conflicts local search over a [`Model`]. See the [module docs](self).
pub struct LocalSearch<'m> {
    model: &'m Model,
    config: LocalSearchConfig,
    counters: Vec<Box<dyn ViolationCounter + 'm>>,
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

/// The best candidate seen so far in a step.
struct Best {
    delta: i64,
    value: Option<i64>,
    /// How many candidates share `delta`.
    ties: u64,
}

/// Why a run stopped before a solution.
enum Stop {
    Steps,
    Time,
}

impl<'m> LocalSearch<'m> {
    /// Prepares a search: one violation counter per constraint (its own, or one
    /// that recomputes [`Constraint::violation`]) and the variable-to-constraint
    /// incidence. Nothing is proportional to the domain sizes.
    pub fn new(model: &'m Model, config: LocalSearchConfig) -> LocalSearch<'m> {
        let n = model.num_vars();
        let mut degree = vec![0u32; n];
        // `seen[x]` is the last constraint whose scope had `x`, to count each once.
        let mut seen = vec![u32::MAX; n];
        for (id, constraint) in model.constraints() {
            for &var in constraint.scope() {
                if seen[var.index()] != id.0 {
                    seen[var.index()] = id.0;
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
                if seen[var.index()] != id.0 {
                    seen[var.index()] = id.0;
                    incidence[fill[var.index()]] = (id.0, position as u32);
                    fill[var.index()] += 1;
                }
            }
        }
        LocalSearch {
            model,
            rng: Rng::new(config.seed),
            config,
            counters: Self::counters(model),
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

    /// One violation counter per constraint: its own, or one that recomputes
    /// [`Constraint::violation`] (always for a scope with a repeated variable).
    /// Counters allocate their tables when cleared, not here.
    fn counters(model: &'m Model) -> Vec<Box<dyn ViolationCounter + 'm>> {
        let mut seen = vec![u32::MAX; model.num_vars()];
        model
            .constraints()
            .map(|(id, constraint)| {
                let mut repeats = false;
                for &var in constraint.scope() {
                    repeats |= seen[var.index()] == id.0;
                    seen[var.index()] = id.0;
                }
                let own = if repeats { None } else { constraint.violation_counter() };
                own.unwrap_or_else(|| Box::new(Recompute::new(constraint)) as Box<dyn ViolationCounter + 'm>)
            })
            .collect()
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
                return Ok(LocalSearchOutcome::InconsistentCounter(ConstraintId(culprit as u32)));
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
        self.counters = Self::counters(self.model);
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
        self.values.extend(model.vars().map(|var| model.domain(var).min().expect("domains are not empty")));
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
                let scope = self.model.constraint(ConstraintId(c)).expect("a constraint of the model").scope();
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

    /// A random value of `x`'s domain other than its current one.
    fn random_value(&mut self, x: usize) -> Option<i64> {
        let domain = self.model.domain(self.var(x));
        let size = domain.size();
        if size < 2 {
            return None;
        }
        let current = domain.position(self.values[x]).expect("the value is in the domain");
        let mut pos = self.rng.below(size - 1);
        if pos >= current {
            pos += 1;
        }
        self.stats.evaluations += 1;
        domain.nth(pos)
    }

    fn var(&self, x: usize) -> VarId {
        self.model.var_at(x).expect("a variable of the model")
    }

    /// The min-conflicts choice for `x`, which holds `from` (or nothing yet): the
    /// value other than `from` with the smallest change of violation, ties broken
    /// at random, and that change; scored window by window (see the module docs).
    /// `None` when there is no other value.
    fn best_value(&mut self, x: usize, from: Option<i64>) -> Option<(i64, i64)> {
        let model = self.model;
        let domain = model.domain(self.var(x));
        let size = domain.size();
        let candidates = size - u64::from(from.is_some());
        if candidates == 0 {
            return None;
        }
        // No move can do better than leave `x` without conflicts.
        let perfect = match from {
            Some(_) => -(self.conflicts(x).min(i64::MAX as u64) as i64),
            None => 0,
        };
        let current = from.map(|value| domain.position(value).expect("the value is in the domain"));
        let budget = size.min(MAX_SCAN);
        let mut best = Best { delta: i64::MAX, value: None, ties: 0 };
        if self.try_free_values(x, from, domain, &mut best) <= perfect {
            return best.value.map(|value| (value, best.delta));
        }
        let offset = self.rng.below(size);
        let mut scanned = 0u64;
        let mut window = FIRST_WINDOW;
        if self.scores.len() < CHUNK {
            self.scores.resize(CHUNK, 0);
        }
        while scanned < budget {
            let len = window.min(budget - scanned);
            // Positions `offset + scanned ..` of the domain, wrapping around.
            let mut done = 0;
            while done < len {
                let begin = (offset + scanned + done) % size;
                let chunk = (len - done).min(size - begin).min(CHUNK as u64);
                self.score_chunk(x, from, current, domain, begin, chunk as usize, &mut best);
                done += chunk;
            }
            scanned += len;
            self.stats.evaluations += len;
            // Widen while nothing better than a worsening (or, after a while, a
            // sideways) move is known; stop at once for an improving one.
            if best.delta <= perfect || best.delta < 0 || (best.delta == 0 && scanned >= SIDEWAYS_AFTER) {
                break;
            }
            window = window.saturating_mul(4);
        }
        best.value.map(|value| (value, best.delta))
    }

    /// Scores the shortest list of free values that a counter of `x` offers, if
    /// it is much shorter than the domain, from a random place until a value
    /// leaves `x` without conflicts; returns the best change found (or `i64::MAX`).
    fn try_free_values(&mut self, x: usize, from: Option<i64>, domain: &Domain, best: &mut Best) -> i64 {
        let incident = self.start[x]..self.start[x + 1];
        let mut shortest: Option<(u32, u32, usize)> = None;
        for &(c, p) in &self.incidence[incident.clone()] {
            if let Some(list) = self.counters[c as usize].free_values(p as usize) {
                if (list.len() as u64).saturating_mul(4) < domain.size() && shortest.is_none_or(|s| list.len() < s.2) {
                    shortest = Some((c, p, list.len()));
                }
            }
        }
        let Some((c, p, len)) = shortest else { return i64::MAX };
        let perfect = match from {
            Some(_) => -(self.conflicts(x).min(i64::MAX as u64) as i64),
            None => 0,
        };
        let begin = if len > 0 { self.rng.below(len as u64) as usize } else { 0 };
        for j in 0..len {
            let k = (begin + j) % len;
            let value = self.counters[c as usize].free_values(p as usize).expect("the list is still there").get(k);
            if from == Some(value) || !domain.contains(value) {
                continue;
            }
            let mut delta = 0i64;
            for &(c, p) in &self.incidence[incident.clone()] {
                delta = delta.saturating_add(self.counters[c as usize].delta(p as usize, from, value));
            }
            self.stats.evaluations += 1;
            if delta < best.delta {
                *best = Best { delta, value: Some(value), ties: 1 };
            } else if delta == best.delta {
                best.ties += 1;
                if self.rng.below(best.ties) == 0 {
                    best.value = Some(value);
                }
            }
            if best.delta <= perfect {
                break;
            }
        }
        best.delta
    }

    /// Scores the domain positions `begin .. begin + len` of `x` (without
    /// wrapping), skipping `current`, and keeps the best in `best`.
    #[expect(clippy::too_many_arguments, reason = "one step's state, passed down to its inner loop")]
    fn score_chunk(
        &mut self,
        x: usize,
        from: Option<i64>,
        current: Option<u64>,
        domain: &Domain,
        begin: u64,
        len: usize,
        best: &mut Best,
    ) {
        let scores = &mut self.scores[..len];
        scores.iter_mut().for_each(|s| *s = 0);
        let consecutive = domain.sparse_values().is_none();
        let first = domain.nth(begin).expect("a position within the domain");
        for &(c, p) in &self.incidence[self.start[x]..self.start[x + 1]] {
            let counter = &mut self.counters[c as usize];
            if consecutive {
                counter.add_deltas(p as usize, from, first, scores);
            } else {
                for (k, score) in scores.iter_mut().enumerate() {
                    let to = domain.nth(begin + k as u64).expect("a position within the domain");
                    *score += counter.delta(p as usize, from, to);
                }
            }
        }
        if let Some(current) = current.filter(|c| (begin..begin + len as u64).contains(c)) {
            scores[(current - begin) as usize] = i64::MAX;
        }
        let low = scores.iter().copied().min().unwrap_or(i64::MAX);
        if low == i64::MAX || low > best.delta {
            return;
        }
        // A random one among the chunk's ties, which join the earlier ones (of
        // the same score) by reservoir sampling.
        let tied = scores.iter().filter(|&&s| s == low).count() as u64;
        if low < best.delta {
            *best = Best { delta: low, value: None, ties: 0 };
        }
        let previous = best.ties;
        best.ties += tied;
        let pick = self.rng.below(best.ties);
        if pick >= previous {
            let k = scores
                .iter()
                .enumerate()
                .filter(|&(_, &s)| s == low)
                .nth((pick - previous) as usize)
                .map(|(k, _)| k)
                .expect("a tied position");
            best.value = domain.nth(begin + k as u64);
        }
    }
}

/// The counter of a constraint without one of its own: it keeps the scope's
/// values and recomputes [`Constraint::violation`] for every question. It counts
/// nothing until every position has a value.
struct Recompute<'c> {
    constraint: &'c dyn Constraint,
    tuple: Vec<i64>,
    /// Positions without a value.
    missing: usize,
    assigned: Vec<bool>,
    violation: u64,
    /// For a scope with a repeated variable: the next position with the same
    /// variable (a cycle per variable), so that a move sets all of them.
    next_same: Option<Vec<u32>>,
}

impl<'c> Recompute<'c> {
    fn new(constraint: &'c dyn Constraint) -> Self {
        let scope = constraint.scope();
        let mut next_same: Option<Vec<u32>> = None;
        let mut last: HashMap<VarId, usize> = HashMap::new();
        for (p, var) in scope.iter().enumerate() {
            if let Some(&q) = last.get(var) {
                let cycle = next_same.get_or_insert_with(|| (0..scope.len() as u32).collect());
                // Insert p after q in q's cycle.
                cycle[p] = cycle[q];
                cycle[q] = p as u32;
            }
            last.insert(*var, p);
        }
        let n = scope.len();
        Recompute { constraint, tuple: vec![0; n], missing: n, assigned: vec![false; n], violation: 0, next_same }
    }

    /// Sets `position` and every position of the same variable to `value`;
    /// returns how many of them had no value.
    fn set(&mut self, position: usize, value: i64) -> usize {
        let mut newly = 0;
        let mut p = position;
        loop {
            self.tuple[p] = value;
            newly += usize::from(!self.assigned[p]);
            self.assigned[p] = true;
            match &self.next_same {
                Some(next) if next[p] as usize != position => p = next[p] as usize,
                _ => return newly,
            }
        }
    }

    /// The positions of the same variable as `position`, itself included.
    fn twins(&self, position: usize) -> usize {
        let mut count = 1;
        if let Some(next) = &self.next_same {
            let mut p = next[position] as usize;
            while p != position {
                count += 1;
                p = next[p] as usize;
            }
        }
        count
    }
}

impl ViolationCounter for Recompute<'_> {
    fn clear(&mut self, _: &Model) {
        self.assigned.iter_mut().for_each(|a| *a = false);
        self.missing = self.tuple.len();
        self.violation = 0;
    }

    fn violation(&self) -> u64 {
        self.violation
    }

    fn conflicts(&self, _: usize, _: i64) -> u64 {
        // Every position takes part in a violation of a check-only constraint.
        self.violation
    }

    fn delta(&mut self, position: usize, from: Option<i64>, to: i64) -> i64 {
        if from == Some(to) {
            return 0;
        }
        let complete_after = match from {
            Some(_) => self.missing == 0,
            None => self.missing == self.twins(position),
        };
        if !complete_after {
            return 0;
        }
        let saved = self.tuple[position];
        let was_assigned = self.assigned[position];
        self.set(position, to);
        let after = self.constraint.violation(&self.tuple);
        // Put the position (and its twins) back as they were.
        self.set(position, saved);
        if !was_assigned {
            let mut p = position;
            loop {
                self.assigned[p] = false;
                match &self.next_same {
                    Some(next) if next[p] as usize != position => p = next[p] as usize,
                    _ => break,
                }
            }
        }
        (after as i128 - self.violation as i128).clamp(i64::MIN as i128, i64::MAX as i128) as i64
    }

    fn apply(&mut self, position: usize, _: Option<i64>, to: i64, newly_conflicted: &mut Vec<usize>) {
        self.missing -= self.set(position, to);
        if self.missing > 0 {
            return;
        }
        let before = self.violation;
        self.violation = self.constraint.violation(&self.tuple);
        // Every position is in conflict while the constraint is violated.
        if before == 0 && self.violation > 0 {
            newly_conflicted.extend((0..self.tuple.len()).filter(|&p| p != position));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Relation;

    fn queens(n: usize) -> Model {
        let mut model = Model::new();
        let q = model.new_vars(n, 0..n as i64).unwrap();
        let up: Vec<i64> = (0..n as i64).collect();
        let down: Vec<i64> = (0..n as i64).map(|i| -i).collect();
        model.all_different(&q).unwrap();
        model.all_different_offset(&q, &up).unwrap();
        model.all_different_offset(&q, &down).unwrap();
        model
    }

    fn config(seed: u64, max_steps: u64) -> LocalSearchConfig {
        LocalSearchConfig { seed, max_steps: Some(max_steps), ..LocalSearchConfig::default() }
    }

    fn solve(model: &Model, config: LocalSearchConfig) -> (Option<Vec<i64>>, LocalSearchStats) {
        let mut search = LocalSearch::new(model, config);
        let outcome = search.solve();
        let stats = search.stats().clone();
        (outcome.into_solution().map(Solution::into_values), stats)
    }

    #[test]
    fn queens_are_solved_and_every_answer_is_a_solution() {
        for n in [1, 4, 5, 8, 10, 30, 100, 500] {
            let model = queens(n);
            for seed in 0..3 {
                let (values, stats) = solve(&model, config(seed, 1_000_000));
                let values = values.unwrap_or_else(|| panic!("n = {n}, seed {seed}: not solved; {stats}"));
                assert!(model.is_solution(&values), "n = {n}, seed {seed}: {values:?}");
                assert_eq!(stats.best_violation, 0);
                assert!(stats.steps <= stats.evaluations.max(1) + stats.steps);
            }
        }
    }

    #[test]
    fn unsatisfiable_models_stop_at_the_step_limit_with_restarts() {
        let model = queens(3);
        let config = LocalSearchConfig { restart_after: Some(50), ..config(1, 2_000) };
        let mut search = LocalSearch::new(&model, config);
        assert_eq!(search.solve(), LocalSearchOutcome::StepLimit);
        assert_eq!(search.stats().steps, 2_000);
        // A restart after every 50 steps without a new best (of which the first few improve).
        assert!((2_000 / 100..=2_000 / 50).contains(&search.stats().restarts), "{}", search.stats());
        assert!(search.stats().best_violation > 0);
    }

    #[test]
    fn a_time_limit_stops_an_endless_search() {
        let model = queens(2);
        let config = LocalSearchConfig { time_limit: Some(Duration::from_millis(20)), ..LocalSearchConfig::default() };
        let mut search = LocalSearch::new(&model, config);
        assert_eq!(search.solve(), LocalSearchOutcome::TimeLimit);
        assert!(search.stats().elapsed >= Duration::from_millis(20));
    }

    #[test]
    fn equal_seeds_give_equal_runs() {
        let model = queens(200);
        let (a, sa) = solve(&model, config(42, 1_000_000));
        let (b, sb) = solve(&model, config(42, 1_000_000));
        let (c, _) = solve(&model, config(43, 1_000_000));
        assert_eq!(a, b);
        assert_eq!(
            LocalSearchStats { elapsed: Duration::ZERO, ..sa },
            LocalSearchStats { elapsed: Duration::ZERO, ..sb }
        );
        assert_ne!(a, c);
    }

    /// A graph with a planted 3-colouring: edges only join different colours.
    fn planted_colouring(nodes: usize, edges: usize, seed: u64) -> (Model, Vec<(usize, usize)>) {
        let mut rng = Rng::new(seed);
        let colour: Vec<u64> = (0..nodes).map(|_| rng.below(3)).collect();
        let mut model = Model::new();
        let x = model.new_vars(nodes, 0..=2).unwrap();
        let mut list = Vec::new();
        while list.len() < edges {
            let (a, b) = (rng.below(nodes as u64) as usize, rng.below(nodes as u64) as usize);
            if colour[a] != colour[b] {
                model.not_equal(x[a], x[b]).unwrap();
                list.push((a, b));
            }
        }
        (model, list)
    }

    #[test]
    fn graph_colouring_with_binary_constraints_uses_the_recomputing_counter() {
        // not_equal has no counter of its own: every constraint is recomputed.
        for seed in 0..3 {
            let (model, edges) = planted_colouring(60, 130, seed);
            let (values, stats) = solve(&model, config(seed, 200_000));
            let values = values.unwrap_or_else(|| panic!("seed {seed}: {stats}"));
            assert!(model.is_solution(&values));
            assert!(edges.iter().all(|&(a, b)| values[a] != values[b]));
        }
    }

    #[test]
    fn graph_colouring_with_sparse_domains_and_cliques() {
        // Colours {-5, 2, 40} (not a range), cliques as all_different.
        let mut model = Model::new();
        let x = model.new_vars(12, vec![-5, 2, 40]).unwrap();
        for i in 0..12 {
            for j in [i + 1, i + 2] {
                if j < 12 && (i + j) % 3 != 0 {
                    model.not_equal(x[i], x[j]).unwrap();
                }
            }
        }
        for k in (0..10).step_by(3) {
            model.all_different(&[x[k], x[k + 1], x[k + 2]]).unwrap();
        }
        for seed in 0..5 {
            let (values, stats) = solve(&model, config(seed, 100_000));
            let values = values.unwrap_or_else(|| panic!("seed {seed}: {stats}"));
            assert!(model.is_solution(&values), "{values:?}");
        }
    }

    /// A check-only constraint over a repeated variable: `v[0] + v[1] + v[2]` is
    /// even, with the scope `[x, y, x]`.
    struct EvenSum(Vec<VarId>);

    impl Constraint for EvenSum {
        fn scope(&self) -> &[VarId] {
            &self.0
        }
        fn is_satisfied(&self, values: &[i64]) -> bool {
            values.iter().sum::<i64>() % 2 == 0
        }
    }

    #[test]
    fn check_only_constraints_with_repeated_variables_are_recomputed() {
        let mut model = Model::new();
        let x = model.new_vars(3, 0..=9).unwrap();
        // x + y + x even means y even.
        model.post(EvenSum(vec![x[0], x[1], x[0]])).unwrap();
        model.linear(&[(1, x[0]), (1, x[1]), (1, x[2])], Relation::Eq, 20).unwrap();
        model.all_different(&x).unwrap();
        for seed in 0..10 {
            let (values, stats) = solve(&model, config(seed, 100_000));
            let values = values.unwrap_or_else(|| panic!("seed {seed}: {stats}"));
            assert!(model.is_solution(&values), "{values:?}");
            assert_eq!(values[1] % 2, 0);
            assert_eq!(values.iter().sum::<i64>(), 20);
        }
    }

    #[test]
    fn the_all_different_counter_agrees_with_recounting() {
        // Random moves on a model with offsets; after each, every counter's
        // violation equals the constraint's violation of the current values, and
        // every delta predicted the change.
        let mut model = Model::new();
        let n = 40;
        let x = model.new_vars(n, 0..=15).unwrap();
        let offsets: Vec<i64> = (0..n as i64).map(|i| (i * 7) % 5 - 2).collect();
        model.all_different_offset(&x, &offsets).unwrap();
        model.all_different(&x[..10]).unwrap();
        let mut rng = Rng::new(3);
        let mut values: Vec<i64> = (0..n).map(|_| rng.below(16) as i64).collect();
        let mut counters: Vec<_> =
            model.constraints().map(|(_, c)| c.violation_counter().expect("all_different counts")).collect();
        // Assign the positions one by one from "no value": each insertion's delta
        // is the change, and the partial count is the number of equal pairs so far.
        for ((_, constraint), counter) in model.constraints().zip(&mut counters) {
            counter.clear(&model);
            let mut placed: Vec<i64> = Vec::new();
            for (p, var) in constraint.scope().iter().enumerate() {
                let shifted = values[var.index()] + if constraint.scope().len() == n { offsets[p] } else { 0 };
                let expected = placed.iter().filter(|&&w| w == shifted).count() as i64;
                let mut window = vec![0i64; 20];
                counter.add_deltas(p, None, -2, &mut window);
                assert_eq!(window[(values[var.index()] + 2) as usize], expected);
                assert_eq!(counter.delta(p, None, values[var.index()]), expected);
                let before = counter.violation() as i64;
                counter.apply(p, None, values[var.index()], &mut Vec::new());
                assert_eq!(counter.violation() as i64 - before, expected);
                placed.push(shifted);
            }
        }
        for _ in 0..2_000 {
            let var = rng.below(n as u64) as usize;
            let to = rng.below(16) as i64;
            for ((_, constraint), counter) in model.constraints().zip(&mut counters) {
                let Some(p) = constraint.scope().iter().position(|v| v.index() == var) else { continue };
                let before = counter.violation();
                let predicted = counter.delta(p, Some(values[var]), to);
                let mut window = vec![0i64; 20];
                counter.add_deltas(p, Some(values[var]), -2, &mut window);
                assert_eq!(window[(to + 2) as usize], predicted);
                let mut newly = Vec::new();
                let alone: Vec<bool> = (0..constraint.scope().len())
                    .map(|q| counter.conflicts(q, values[constraint.scope()[q].index()]) == 0)
                    .collect();
                counter.apply(p, Some(values[var]), to, &mut newly);
                let mut after = values.clone();
                after[var] = to;
                for (q, was_alone) in alone.iter().enumerate() {
                    let now = counter.conflicts(q, after[constraint.scope()[q].index()]) > 0;
                    if q != p && *was_alone && now {
                        assert!(newly.contains(&q), "position {q} became conflicted unannounced");
                    }
                }
                assert_eq!(counter.violation() as i64 - before as i64, predicted);
            }
            values[var] = to;
            for ((_, constraint), counter) in model.constraints().zip(&counters) {
                let tuple: Vec<i64> = constraint.scope().iter().map(|v| values[v.index()]).collect();
                assert_eq!(counter.violation(), constraint.violation(&tuple));
                for (p, &value) in tuple.iter().enumerate() {
                    let shared = tuple.iter().enumerate().filter(|&(q, &w)| {
                        let o = |k: usize| if constraint.scope().len() == n { offsets[k] } else { 0 };
                        q != p && w + o(q) == value + o(p)
                    });
                    assert_eq!(counter.conflicts(p, value), shared.count() as u64);
                }
            }
        }
    }

    #[test]
    fn a_tight_all_different_lists_its_free_values() {
        // Twelve variables over 0..=13 (tight enough to keep the list), offsets 3.
        let mut model = Model::new();
        let x = model.new_vars(12, 0..=13).unwrap();
        model.all_different_offset(&x, &[3; 12]).unwrap();
        let (_, constraint) = model.constraints().next().unwrap();
        let mut counter = constraint.violation_counter().unwrap();
        counter.clear(&model);
        let mut rng = Rng::new(9);
        let mut values: Vec<Option<i64>> = vec![None; 12];
        for _ in 0..500 {
            let p = rng.below(12) as usize;
            let to = rng.below(14) as i64;
            counter.apply(p, values[p], to, &mut Vec::new());
            values[p] = Some(to);
            let list = counter.free_values(p).expect("a tight all_different keeps its free values");
            let mut free: Vec<i64> = (0..list.len()).map(|k| list.get(k)).collect();
            free.sort_unstable();
            let expected: Vec<i64> = (0..=13).filter(|v| !values.contains(&Some(*v))).collect();
            assert_eq!(free, expected);
        }
        // A loose one keeps none.
        let mut model = Model::new();
        let x = model.new_vars(4, 0..=13).unwrap();
        model.all_different(&x).unwrap();
        let (_, constraint) = model.constraints().next().unwrap();
        let mut counter = constraint.violation_counter().unwrap();
        counter.clear(&model);
        assert!(counter.free_values(0).is_none());
    }

    #[test]
    fn huge_range_domains_are_sampled_not_widened() {
        // Domains of 2^40 values: all_different falls back to a hash map of
        // counts, and a step scores at most MAX_SCAN values.
        let mut model = Model::new();
        let x = model.new_vars(50, 0..(1i64 << 40)).unwrap();
        model.all_different(&x).unwrap();
        model.linear(&[(1, x[0]), (-1, x[1])], Relation::Le, 0).unwrap();
        let (values, stats) = solve(&model, config(5, 10_000));
        let values = values.unwrap_or_else(|| panic!("{stats}"));
        assert!(model.is_solution(&values));
    }

    #[test]
    fn a_model_without_variables_is_solved_at_once() {
        let model = Model::new();
        let (values, stats) = solve(&model, config(0, 10));
        assert_eq!(values, Some(vec![]));
        assert_eq!(stats.steps, 0);
    }
}
