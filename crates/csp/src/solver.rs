//! Depth-first search with propagation.
//!
//! The search is an explicit-stack loop (Gecode's `DFS::next`): each [`Frame`]
//! holds a decision variable, the trail mark taken before its first value, and
//! a cursor over the values still to try. Branching is d-way: the frame tries
//! `x = v1`, then `x = v2`, ..., each time from the state restored to the mark,
//! so a node is one assignment, as in the textbook algorithms the propagation
//! levels are named after.

use std::any::Any;
use std::time::Instant;

use crate::backjump::Backjumping;
use crate::config::{Branching, Limit, Propagation, SolveConfig, ValueOrder, VarOrder};
use crate::constraint::{AllDifferentStrength, Constraint, Propagator, PropagatorOptions};
use crate::constraints::AllDifferent;
use crate::constraints::generic::Generic;
use crate::constraints::system::{Merged, System};
use crate::domain::Domain;
use crate::ids::{ConstraintId, VarId};
use crate::kernel::{Assigned, Context, Wake};
use crate::kernel::{Change, Mark, ReversibleInt, Snapshot, State};
use crate::kernel::{Queue, Watch, Watchers};
use crate::model::Solution;
use crate::model::{Model, ModelError};
use crate::observer::{Observer, SearchEvent};
use crate::rng::Rng;
use crate::solution::{Count, Outcome, Status};
use crate::stats::Stats;

/// Why a solver cannot be built for a model.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SolveError {
    /// Backtracking search keeps every domain as a bitset; this one (or all of
    /// them together) would be too large.
    #[error(
        "the domain of variable {var} has {size} values, too many for backtracking search (local search keeps domains as ranges)"
    )]
    DomainTooLarge {
        /// The variable's name.
        var: String,
        /// Its domain size.
        size: u64,
    },
    /// Options that do not go together.
    #[error("{0}")]
    Unsupported(&'static str),
}

/// A convenience of the model, defined here so that the model does not
/// depend on the search.
impl Model {
    /// Solves the model with the default configuration: the first solution, or
    /// `None` when there is none.
    pub fn solve(&self) -> Result<Option<Solution<'_>>, SolveError> {
        let mut solver = Solver::new(self, SolveConfig::default())?;
        Ok(solver.solve().into_solution())
    }
}

/// The all-different system of `model`, when the configuration allows one
/// (see [`SolveConfig::separate_all_different`]): under maintained arc
/// consistency, at least two `all_different`s of matching strength, without
/// offsets, each of at most 64 distinct variables ([`System::new`] then
/// checks their domains).
fn merge_all_different(
    model: &Model,
    config: &SolveConfig,
    options: &PropagatorOptions,
    state: &State,
) -> Option<System> {
    if config.propagation != Propagation::Mac || config.separate_all_different {
        return None;
    }
    // One `stamp` per constraint finds a repeated variable.
    let mut stamp = vec![u32::MAX; model.num_vars()];
    let (constraints, scopes): (Vec<u32>, Vec<&[VarId]>) = model
        .constraints()
        .filter_map(|(id, c)| {
            let all_different = (c as &dyn Any).downcast_ref::<AllDifferent>()?;
            let matching = all_different.strength(options) == AllDifferentStrength::Matching;
            let scope = c.scope();
            let distinct = scope.iter().all(|var| std::mem::replace(&mut stamp[var.index()], id.0) != id.0);
            (matching && all_different.is_plain() && scope.len() <= 64 && distinct).then_some((id.0, scope))
        })
        .unzip();
    if constraints.len() < 2 {
        return None;
    }
    System::new(constraints, &scopes, model.num_vars(), state, config.all_different_intersections)
}

/// An empty snapshot, replaced as soon as the propagators are initialised.
fn state_placeholder() -> Snapshot {
    State::new(&[]).expect("an empty model").snapshot()
}

/// One decision level.
#[derive(Clone, Copy, Debug)]
struct Frame {
    var: u32,
    /// The state before the first value was tried.
    mark: Mark,
    /// Ascending: the next position to look at. Descending: one past it.
    /// Buffered orders: the index into `Solver::orders` of the next value.
    cursor: u32,
    /// Buffered orders: where this frame's values start and end in `orders`.
    start: u32,
    end: u32,
    /// Whether a value of this frame is currently assigned.
    assigned: bool,
}

/// Where a run is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Built or reset; the root has not been propagated.
    Fresh,
    /// Searching; `descend` says whether to pick a new variable (true) or try the
    /// next value of the top frame (false).
    Searching { descend: bool },
    /// Done; further steps report the same.
    Done(Status),
}

/// What one step of the search found.
enum Step {
    Solution,
    Exhausted,
    Limit(Limit),
}

/// A constraint failed: which one, and which variable it wiped out (if any).
#[derive(Clone, Copy, Debug)]
struct Failure {
    constraint: u32,
    wiped: Option<u32>,
}

/// A [`Context`] for propagator `constraint`, borrowing the solver's state.
macro_rules! context {
    ($solver:ident, constraint: $c:expr, assigned: $assigned:expr, wake: $wake:expr, observer: $observer:expr, decision: $decision:expr) => {
        Context {
            state: &mut $solver.state,
            assigned: $assigned,
            wake: $wake,
            constraint: $c,
            propagator: $c,
            model: $solver.model.id(),
            pruned: &mut $solver.stats.pruned,
            checks: &mut $solver.stats.checks,
            pruned_by: &mut $solver.pruned_by,
            observer: $observer,
            wiped: None,
            decision: $decision,
            reschedule: None,
            pruned_log: None,
        }
    };
}

/// Solves a [`Model`] under a [`SolveConfig`].
///
/// Each of [`solve`](Solver::solve), [`solutions`](Solver::solutions) and
/// [`count`](Solver::count) starts a new run from the root, with fresh
/// statistics; the same model and configuration always give the same
/// solutions in the same order and the same statistics (but for the time).
///
/// ```
/// use csp::{Model, SolveConfig, Solver};
///
/// let mut model = Model::new();
/// let q = model.new_vars(6, 0..=5).unwrap();
/// let up: Vec<i64> = (0..6).collect();
/// let down: Vec<i64> = (0..6).map(|i| -i).collect();
/// model.all_different(&q).unwrap();
/// model.all_different_offset(&q, &up).unwrap();
/// model.all_different_offset(&q, &down).unwrap();
///
/// let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
/// assert_eq!(solver.count(None).solutions, 4);
/// let first = solver.solve().into_solution().unwrap();
/// assert!(model.is_solution(first.values()));
/// assert_eq!(solver.solutions().count(), 4);
/// ```
pub struct Solver<'m> {
    model: &'m Model,
    config: SolveConfig,
    scopes: Vec<&'m [VarId]>,
    constraints: Vec<&'m dyn Constraint>,
    /// Which propagators check partial assignments (plain backtracking).
    partial_checks: Vec<bool>,
    state: State,
    propagators: Vec<Box<dyn Propagator + 'm>>,
    idempotent: Vec<bool>,
    watchers: Watchers,
    queue: Queue,
    decided: Vec<bool>,
    stats: Stats,
    /// Per constraint: values it removed and failures it caused in this run.
    pruned_by: Vec<u64>,
    failed_by: Vec<u64>,
    frames: Vec<Frame>,
    orders: Vec<u32>,
    rng: Rng,
    observer: Option<&'m mut dyn Observer>,
    phase: Phase,
    /// The variables not known to be assigned, as a sparse set (see `compact_free`).
    free: Vec<u32>,
    free_count: ReversibleInt,
    /// Per constraint, the propagator that does its work: its own, or the
    /// all-different system's (see `System::merge`).
    runs_in: Vec<u32>,
    /// Conflict-directed backjumping, when configured.
    backjumping: Option<Box<Backjumping>>,
    /// Per constraint, unassigned variables found while choosing a variable.
    live: Live,
    /// Marks constraints already visited in a pass over a variable's watchers.
    seen: Stamps,
    /// Scratch for ordering values, and for the attribution LCV probes must not change.
    scores: Vec<(u64, u32)>,
    saved_attribution: Vec<u64>,
    started: Instant,
    /// The state as built, before any assumption.
    initial: Snapshot,
    /// Variables fixed to a position, and positions removed, at the root of every run.
    assumptions: Vec<(u32, u32)>,
    exclusions: Vec<(u32, u32)>,
    /// An assumption asked for a value the variable does not have.
    assumption_failed: bool,
    /// Failures since the last restart, and how many the current one may have.
    failures_since_restart: u64,
    restart_cutoff: Option<u64>,
}

impl std::fmt::Debug for Solver<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver")
            .field("config", &self.config)
            .field("phase", &self.phase)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

impl<'m> Solver<'m> {
    /// Builds a solver: widens the domains into bitsets and creates a
    /// propagator for every constraint.
    pub fn new(model: &'m Model, config: SolveConfig) -> Result<Solver<'m>, SolveError> {
        if config.backjumping && config.propagation == Propagation::Mac {
            return Err(SolveError::Unsupported(
                "conflict-directed backjumping combines with plain backtracking (bt-cbj) and forward checking (fc-cbj), not with mac",
            ));
        }
        if config.backjumping && config.branching == Branching::Binary {
            return Err(SolveError::Unsupported(
                "conflict-directed backjumping works with d-way branching, not binary",
            ));
        }
        let state = State::new(model.domains()).map_err(|e| SolveError::DomainTooLarge {
            var: model.display_name(model.var_at(e.var).expect("a variable of the model")).into_owned(),
            size: e.size,
        })?;
        let scopes: Vec<&'m [VarId]> = model.constraints().map(|(_, c)| c.scope()).collect();
        let constraints: Vec<&'m dyn Constraint> = model.constraints().map(|(_, c)| c).collect();
        let mut pairs: Vec<(u32, Watch)> = Vec::new();
        let n_constraints = scopes.len();
        let mut state = state;
        let free_count = state.new_int(model.num_vars() as i64);
        let mut solver = Solver {
            model,
            free: (0..model.num_vars() as u32).collect(),
            runs_in: Vec::new(),
            backjumping: config.backjumping.then(|| Box::new(Backjumping::new(model.num_vars()))),
            free_count,
            rng: Rng::new(config.seed),
            config,
            scopes,
            constraints,
            partial_checks: Vec::with_capacity(n_constraints),
            state,
            propagators: Vec::with_capacity(n_constraints),
            idempotent: Vec::with_capacity(n_constraints),
            watchers: Watchers::default(),
            queue: Queue::default(),
            decided: vec![false; model.num_vars()],
            stats: Stats::default(),
            pruned_by: vec![0; n_constraints],
            failed_by: vec![0; n_constraints],
            frames: Vec::new(),
            orders: Vec::new(),
            observer: None,
            phase: Phase::Fresh,
            seen: Stamps::new(n_constraints),
            live: Live::default(),
            scores: Vec::new(),
            saved_attribution: Vec::new(),
            started: Instant::now(),
            initial: state_placeholder(),
            assumptions: Vec::new(),
            exclusions: Vec::new(),
            assumption_failed: false,
            failures_since_restart: 0,
            restart_cutoff: None,
        };
        let options = PropagatorOptions { all_different: solver.config.all_different };
        // All-differents over small domains may be propagated as one system,
        // run by the first of them; the others' propagators never run.
        let mut system = merge_all_different(model, &solver.config, &options, &solver.state);
        let mut runs_in: Vec<u32> = (0..n_constraints as u32).collect();
        if let Some(system) = &system {
            let leader = system.constraints()[0];
            for &c in system.constraints() {
                runs_in[c as usize] = leader;
            }
        }
        for (id, constraint) in model.constraints() {
            let propagator: Box<dyn Propagator + 'm> = if runs_in[id.0 as usize] != id.0 {
                Box::new(Merged)
            } else if system.as_ref().is_some_and(|s| s.constraints()[0] == id.0) {
                Box::new(system.take().expect("the system is taken once"))
            } else {
                match constraint.propagator(&options) {
                    Some(p) => p,
                    None => Box::new(Generic::new(constraint, solver.config.arc_consistency)),
                }
            };
            let interest = propagator.interest();
            for var in constraint.scope() {
                pairs.push((var.index, Watch { constraint: id.0, interest, propagator: runs_in[id.0 as usize] }));
            }
            solver.idempotent.push(propagator.is_idempotent());
            solver.partial_checks.push(propagator.has_partial_check());
            solver.propagators.push(propagator);
        }
        solver.runs_in = runs_in;
        solver.watchers = Watchers::new(model.num_vars(), &pairs);
        solver.initialise_propagators();
        // A propagator may choose its cost once it has seen the domains.
        let costs = solver.propagators.iter().map(|p| p.cost()).collect();
        solver.queue = Queue::new(costs);
        solver.initial = solver.state.snapshot();
        Ok(solver)
    }

    fn initialise_propagators(&mut self) {
        for (c, propagator) in self.propagators.iter_mut().enumerate() {
            let mut ctx = context!(self, constraint: c as u32, assigned: Assigned::Fixed, wake: None, observer: None, decision: None);
            propagator.initialise(&mut ctx);
        }
    }

    /// Sends every search event of later runs to `observer`.
    pub fn observe(&mut self, observer: &'m mut dyn Observer) {
        self.observer = Some(observer);
    }

    /// The configuration.
    pub fn config(&self) -> &SolveConfig {
        &self.config
    }

    /// The model.
    pub fn model(&self) -> &'m Model {
        self.model
    }

    /// The statistics of the current (or last) run.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// How the current (or last) run ended.
    pub fn status(&self) -> Status {
        match self.phase {
            Phase::Done(status) => status,
            _ => Status::Running,
        }
    }

    /// What each constraint did in the current (or last) run: the values it
    /// removed and the failures it caused (pruning attribution).
    pub fn attribution(&self) -> Attribution {
        Attribution {
            by_constraint: self
                .pruned_by
                .iter()
                .zip(&self.failed_by)
                .map(|(&pruned, &failures)| Effect { pruned, failures })
                .collect(),
        }
    }

    /// Finds the first solution.
    pub fn solve(&mut self) -> Outcome<'m> {
        self.start_run();
        match self.step(None) {
            Step::Solution => Outcome::Solved(self.solution()),
            Step::Exhausted => Outcome::Unsatisfiable,
            Step::Limit(limit) => Outcome::LimitReached(limit),
        }
    }

    /// Iterates over all solutions (up to the configured limits). After the
    /// iterator is drained, [`status`](Solver::status) says whether the search
    /// was complete.
    pub fn solutions(&mut self) -> Solutions<'_, 'm> {
        self.start_run();
        Solutions { solver: self }
    }

    /// Counts solutions, stopping at `limit` if given (a count with limit 2
    /// answers "is the solution unique?").
    pub fn count(&mut self, limit: Option<u64>) -> Count {
        self.start_run();
        loop {
            match self.step(limit) {
                Step::Solution => continue,
                Step::Exhausted => {
                    return Count { solutions: self.stats.solutions, status: Status::Complete };
                }
                Step::Limit(limit) => {
                    return Count { solutions: self.stats.solutions, status: Status::LimitReached(limit) };
                }
            }
        }
    }

    /// Propagates at the root only (arc consistency whatever the level) and
    /// returns the narrowed domains, or `None` when propagation alone proves the
    /// model unsatisfiable. Starts a new run; the statistics count this work.
    pub fn root_domains(&mut self) -> Option<Vec<Domain>> {
        self.start_run();
        let begin = Instant::now();
        self.queue_all();
        let result = self.propagate_queue();
        self.stats.elapsed += begin.elapsed();
        if let Err(failure) = result {
            self.record_failure(failure);
            self.phase = Phase::Done(Status::Complete);
            return None;
        }
        // The search may still run from here: the root is propagated.
        self.phase = Phase::Searching { descend: true };
        Some(self.current_domains())
    }

    /// The current domain of every variable.
    fn current_domains(&self) -> Vec<Domain> {
        (0..self.state.num_vars() as u32)
            .map(|x| Domain::values(self.state.positions(x).map(|p| self.state.value(x, p))))
            .collect()
    }

    // ---- runs ----

    /// Puts the solver back at the root of a fresh run: the domains and the
    /// propagators' reversible state come back from the snapshot taken when the
    /// solver was built (a block copy, cheaper than undoing a long trail), the
    /// assumptions are applied again, and the rest is reset here.
    fn start_run(&mut self) {
        self.state.restore(&self.initial);
        let mut failed = self.assumption_failed;
        for &(var, pos) in &self.assumptions {
            failed |= self.state.fix_pos(var, pos) == Change::Wipeout;
        }
        for &(var, pos) in &self.exclusions {
            failed |= self.state.remove_pos(var, pos) == Change::Wipeout;
        }
        self.frames.clear();
        self.orders.clear();
        self.decided.iter_mut().for_each(|d| *d = false);
        self.pruned_by.iter_mut().for_each(|n| *n = 0);
        self.failed_by.iter_mut().for_each(|n| *n = 0);
        self.queue.clear();
        self.rng = Rng::new(self.config.seed);
        if let Some(bj) = &mut self.backjumping {
            bj.reset();
        }
        self.stats = Stats::default();
        self.failures_since_restart = 0;
        self.restart_cutoff = self.config.restarts.cutoff(0);
        self.started = Instant::now();
        self.phase = if failed { Phase::Done(Status::Complete) } else { Phase::Fresh };
    }

    /// Fixes `var` to `value` at the root of every later run, until
    /// [`clear_assumptions`](Solver::clear_assumptions): the givens of a puzzle,
    /// say. One solver then serves many instances of the same model without
    /// being rebuilt. A value outside the variable's domain makes later runs
    /// unsatisfiable.
    ///
    /// ```
    /// use csp::{Model, SolveConfig, Solver};
    /// let mut model = Model::new();
    /// let x = model.new_var(1..=3).unwrap();
    /// let y = model.new_var(1..=3).unwrap();
    /// model.less_than(x, y).unwrap();
    /// let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
    /// solver.assume(y, 2).unwrap();
    /// assert_eq!(solver.count(None).solutions, 1);
    /// solver.clear_assumptions();
    /// solver.assume(x, 3).unwrap();
    /// assert_eq!(solver.count(None).solutions, 0);
    /// solver.clear_assumptions();
    /// solver.assume_not(y, 3).unwrap();
    /// assert_eq!(solver.count(None).solutions, 1); // x = 1, y = 2
    /// ```
    pub fn assume(&mut self, var: VarId, value: i64) -> Result<(), ModelError> {
        if var.model != self.model.id() || var.index() >= self.state.num_vars() {
            return Err(ModelError::ForeignVariable { constraint: "assume".to_string(), position: 0, var });
        }
        match self.state.position(var.index, value) {
            Some(pos) => self.assumptions.push((var.index, pos)),
            None => self.assumption_failed = true,
        }
        self.phase = Phase::Fresh;
        Ok(())
    }

    /// Removes `value` from `var`'s domain at the root of every later run, until
    /// [`clear_assumptions`](Solver::clear_assumptions): "is there a solution in
    /// which this cell is not 5?", without building another model.
    pub fn assume_not(&mut self, var: VarId, value: i64) -> Result<(), ModelError> {
        if var.model != self.model.id() || var.index() >= self.state.num_vars() {
            return Err(ModelError::ForeignVariable { constraint: "assume_not".to_string(), position: 0, var });
        }
        if let Some(pos) = self.state.position(var.index, value) {
            self.exclusions.push((var.index, pos));
        }
        self.phase = Phase::Fresh;
        Ok(())
    }

    /// Drops every assumption: later runs start from the model's domains again.
    pub fn clear_assumptions(&mut self) {
        self.assumptions.clear();
        self.exclusions.clear();
        self.assumption_failed = false;
        self.phase = Phase::Fresh;
    }

    fn solution(&self) -> Solution<'m> {
        let values: Vec<i64> =
            (0..self.state.num_vars() as u32).map(|x| self.state.value(x, self.state.min_pos(x))).collect();
        debug_assert!(self.model.is_solution(&values), "the search produced a non-solution: {values:?}");
        Solution::new(self.model, values)
    }

    /// Runs the search until the next solution, the end, or a limit.
    fn step(&mut self, count_limit: Option<u64>) -> Step {
        let begin = Instant::now();
        let step = self.step_inner(count_limit);
        self.stats.elapsed += begin.elapsed();
        step
    }

    /// Where a step starts: whether to descend (the root propagated on a
    /// fresh run) and the solution limit, or the step's answer when the run
    /// is over.
    fn resume(&mut self, count_limit: Option<u64>) -> Result<(bool, Option<u64>), Step> {
        let descend = match self.phase {
            Phase::Done(Status::LimitReached(limit)) => return Err(Step::Limit(limit)),
            Phase::Done(_) => return Err(Step::Exhausted),
            Phase::Fresh => match self.propagate_root() {
                Ok(()) => true,
                Err(_) => return Err(self.finish(Status::Complete)),
            },
            Phase::Searching { descend } => descend,
        };
        let solution_limit = match (self.config.limits.solutions, count_limit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Ok((descend, solution_limit))
    }

    fn step_inner(&mut self, count_limit: Option<u64>) -> Step {
        if self.config.branching == Branching::Binary {
            return self.step_binary(count_limit);
        }
        let (mut descend, solution_limit) = match self.resume(count_limit) {
            Ok(resumed) => resumed,
            Err(step) => return step,
        };
        // Loop invariant: the state is the propagated state of the decisions of
        // `frames` (each frame with `assigned` holds its current value); when
        // `descend` is false the top frame's current value, if any, must be
        // undone and its next value tried.
        loop {
            if descend {
                match self.select_var() {
                    None => return self.found_solution(solution_limit),
                    Some(var) => {
                        self.push_frame(var);
                        if let Some(bj) = &mut self.backjumping {
                            bj.enter(self.frames.len() as u32);
                        }
                    }
                }
            }
            let Some(&frame) = self.frames.last() else {
                return self.finish(Status::Complete);
            };
            let level = self.frames.len() as u32;
            if frame.assigned {
                self.retract(frame, level);
            }
            let Some(pos) = self.next_value() else {
                if self.backjumping.is_some() {
                    match self.backjump(frame, level) {
                        Some(()) => {}
                        None => return self.finish(Status::Complete),
                    }
                } else {
                    let frame = self.frames.pop().expect("a frame");
                    self.orders.truncate(frame.start as usize);
                }
                descend = false;
                continue;
            };
            if let Some(limit) = self.limit_reached() {
                self.frames.last_mut().expect("a frame").assigned = false;
                return self.finish(Status::LimitReached(limit));
            }
            self.frames.last_mut().expect("a frame").assigned = true;
            self.stats.nodes += 1;
            self.stats.max_depth = self.stats.max_depth.max(level);
            if self.observer.is_some() {
                let value = self.state.value(frame.var, pos);
                self.emit(SearchEvent::Decision { var: self.var_id(frame.var), value, depth: level });
            }
            descend = match self.decide(frame.var, pos) {
                Ok(()) => true,
                Err(failure) => {
                    self.record_failure(failure);
                    if let Some(bj) = &mut self.backjumping {
                        bj.explain(level, self.scopes[failure.constraint as usize]);
                    }
                    self.restart_if_due()
                }
            };
        }
    }

    /// Every variable is assigned: counts and reports the solution; the next
    /// step goes on from it unless `solution_limit` is reached.
    fn found_solution(&mut self, solution_limit: Option<u64>) -> Step {
        self.stats.solutions += 1;
        let count = self.stats.solutions;
        if let Some(bj) = &mut self.backjumping {
            bj.solution_found(self.frames.len() as u32);
        }
        self.emit(SearchEvent::Solution { count });
        self.phase = Phase::Searching { descend: false };
        if solution_limit.is_some_and(|k| count >= k) {
            self.phase = Phase::Done(Status::LimitReached(Limit::Solutions));
        }
        Step::Solution
    }

    /// `step_inner` for 2-way branching: each frame is one decision `x = v`;
    /// when its subtree is exhausted the frame is popped and `x ≠ v` is
    /// propagated in its parent's state, from where the search chooses again.
    fn step_binary(&mut self, count_limit: Option<u64>) -> Step {
        let (mut descend, solution_limit) = match self.resume(count_limit) {
            Ok(resumed) => resumed,
            Err(step) => return step,
        };
        // Loop invariant: the state is the propagated state of the decisions
        // of `frames` and of the refutations made since; when `descend` is
        // false the top frame's decision failed or its subtree is exhausted.
        loop {
            if !descend {
                let Some(frame) = self.frames.pop() else {
                    return self.finish(Status::Complete);
                };
                let level = self.frames.len() as u32 + 1;
                self.retract(frame, level);
                self.orders.truncate(frame.start as usize);
                descend = match self.refute(frame.var, frame.cursor) {
                    Ok(()) => true,
                    Err(Some(failure)) => {
                        self.record_failure(failure);
                        self.restart_if_due()
                    }
                    Err(None) => false,
                };
                continue;
            }
            let Some(var) = self.select_var() else {
                return self.found_solution(solution_limit);
            };
            if let Some(limit) = self.limit_reached() {
                return self.finish(Status::LimitReached(limit));
            }
            self.push_frame(var);
            let pos = self.next_value().expect("an unassigned variable has a value");
            let frame = self.frames.last_mut().expect("a frame");
            frame.cursor = pos;
            frame.assigned = true;
            let level = self.frames.len() as u32;
            self.stats.nodes += 1;
            self.stats.max_depth = self.stats.max_depth.max(level);
            if self.observer.is_some() {
                let value = self.state.value(var, pos);
                self.emit(SearchEvent::Decision { var: self.var_id(var), value, depth: level });
            }
            descend = match self.decide(var, pos) {
                Ok(()) => true,
                Err(failure) => {
                    self.record_failure(failure);
                    self.restart_if_due()
                }
            };
        }
    }

    /// Removes position `pos` from `var` (a refuted decision) and propagates at
    /// the configured level. `Err(None)` when that empties the domain: the
    /// variable has no value left to try, which no constraint is to blame for.
    fn refute(&mut self, var: u32, pos: u32) -> Result<(), Option<Failure>> {
        if self.observer.is_some() {
            let value = self.state.value(var, pos);
            self.emit(SearchEvent::Removed { var: self.var_id(var), value, constraint: None });
        }
        match self.state.remove_pos(var, pos) {
            Change::Wipeout => Err(None),
            Change::None => Ok(()),
            _ if self.config.propagation != Propagation::Mac => Ok(()),
            _ => {
                self.wake_watchers(var);
                self.propagate_queue().map_err(Some)
            }
        }
    }

    /// After a failure: when the restart policy's cutoff is reached and this
    /// run has no solution yet, drops every decision and returns true (the
    /// search descends again from the root).
    fn restart_if_due(&mut self) -> bool {
        let Some(cutoff) = self.restart_cutoff else {
            return false;
        };
        self.failures_since_restart += 1;
        // After the first solution the search must finish its tree: another
        // restart would find that solution again.
        if self.failures_since_restart < cutoff || self.stats.solutions > 0 {
            return false;
        }
        let Some(root) = self.frames.first().map(|frame| frame.mark) else {
            return false;
        };
        self.state.undo_to(root);
        for frame in &self.frames {
            self.decided[frame.var as usize] = false;
        }
        self.frames.clear();
        self.orders.clear();
        if let Some(bj) = &mut self.backjumping {
            bj.reset();
        }
        self.stats.restarts += 1;
        self.failures_since_restart = 0;
        self.restart_cutoff = self.config.restarts.cutoff(self.stats.restarts);
        let count = self.stats.restarts;
        self.emit(SearchEvent::Restart { count });
        true
    }

    /// Undoes the current value of `frame`, the decision at `level`.
    fn retract(&mut self, frame: Frame, level: u32) {
        self.state.undo_to(frame.mark);
        self.decided[frame.var as usize] = false;
        if let Some(bj) = &mut self.backjumping {
            bj.unassign(frame.var, level);
        }
        self.stats.backtracks += 1;
        self.emit(SearchEvent::Backtrack { var: self.var_id(frame.var), depth: level });
    }

    /// Conflict-directed backjumping from the exhausted top `frame` at `level`:
    /// pops every level above the one its conflicts point to. `None` when no
    /// level is left to go back to.
    fn backjump(&mut self, frame: Frame, level: u32) -> Option<()> {
        let target = self.backjumping.as_mut().expect("backjumping is on").jump_from(level, frame.var)?;
        if target + 1 < level {
            self.stats.backjumps += 1;
        }
        let top = self.frames.pop().expect("a frame");
        self.orders.truncate(top.start as usize);
        while self.frames.len() as u32 > target {
            let depth = self.frames.len() as u32;
            let popped = self.frames.pop().expect("a frame");
            if popped.assigned {
                self.retract(popped, depth);
            }
            self.orders.truncate(popped.start as usize);
        }
        Some(())
    }

    fn finish(&mut self, status: Status) -> Step {
        self.phase = Phase::Done(status);
        match status {
            Status::LimitReached(limit) => Step::Limit(limit),
            _ => Step::Exhausted,
        }
    }

    fn limit_reached(&self) -> Option<Limit> {
        let limits = &self.config.limits;
        if limits.nodes.is_some_and(|n| self.stats.nodes >= n) {
            return Some(Limit::Nodes);
        }
        // Reading the clock costs about as much as a small node; look every 64 nodes.
        if let Some(time) = limits.time {
            if self.stats.nodes % 64 == 0 && self.started.elapsed() >= time {
                return Some(Limit::Time);
            }
        }
        None
    }

    fn record_failure(&mut self, failure: Failure) {
        self.stats.failures += 1;
        self.failed_by[failure.constraint as usize] += 1;
        if self.observer.is_some() {
            let var = failure.wiped.map(|x| self.var_id(x));
            self.emit(SearchEvent::WipeOut { var, constraint: ConstraintId(failure.constraint) });
        }
    }

    #[inline]
    fn emit(&mut self, event: SearchEvent) {
        if let Some(observer) = &mut self.observer {
            observer.on_event(&event);
        }
    }

    #[inline]
    fn var_id(&self, index: u32) -> VarId {
        VarId { index, model: self.model.id() }
    }

    // ---- propagation ----

    fn propagate_root(&mut self) -> Result<(), Failure> {
        if self.config.propagation == Propagation::Mac || self.config.root_arc_consistency {
            self.queue_all();
            if let Err(failure) = self.propagate_queue() {
                self.record_failure(failure);
                return Err(failure);
            }
        }
        Ok(())
    }

    /// Queues every propagator that runs (not those merged into another).
    fn queue_all(&mut self) {
        for c in 0..self.propagators.len() as u32 {
            if self.runs_in[c as usize] == c {
                self.queue.push(c);
            }
        }
    }

    /// Queues the propagators watching `var` (after a decision or a refutation).
    fn wake_watchers(&mut self, var: u32) {
        for watch in self.watchers.of(var) {
            self.queue.push(watch.propagator);
        }
    }

    /// Runs queued propagators to a fixpoint (arc consistency).
    fn propagate_queue(&mut self) -> Result<(), Failure> {
        while let Some(c) = self.queue.pop() {
            self.stats.propagations += 1;
            let mut ctx = context!(self, constraint: c, assigned: Assigned::Fixed, wake: Some(Wake {
                    watchers: &self.watchers,
                    queue: &mut self.queue,
                    idempotent: self.idempotent[c as usize],
                }), observer: self.observer.as_deref_mut().map(|o| o as &mut dyn Observer), decision: None);
            if self.propagators[c as usize].propagate(&mut ctx).is_err() {
                // The constraint the propagator last acted for: itself, or a
                // constraint of a merged system.
                let (constraint, wiped) = (ctx.constraint, ctx.wiped);
                self.queue.clear();
                return Err(Failure { constraint, wiped });
            }
            if let Some(cost) = ctx.reschedule {
                self.queue.push_at(c, cost);
            }
        }
        Ok(())
    }

    /// Forward checking: runs each constraint on `var` once, reasoning from the
    /// decided variables only.
    fn forward_check(&mut self, var: u32, record: bool) -> Result<(), Failure> {
        self.seen.clear();
        let level = self.frames.len() as u32;
        for i in 0..self.watchers.of(var).len() {
            let c = self.watchers.of(var)[i].constraint;
            if !self.seen.insert(c as usize) {
                continue;
            }
            self.stats.propagations += 1;
            let mut ctx = context!(self, constraint: c, assigned: Assigned::Decided(&self.decided), wake: None, observer: self.observer.as_deref_mut().map(|o| o as &mut dyn Observer), decision: Some(var));
            if record {
                ctx.pruned_log = self.backjumping.as_mut().map(|bj| &mut bj.log);
            }
            let result = self.propagators[c as usize].propagate(&mut ctx);
            let wiped = ctx.wiped;
            if record {
                if let Some(bj) = &mut self.backjumping {
                    bj.record_prunings(level, self.scopes[c as usize]);
                }
            }
            if result.is_err() {
                return Err(Failure { constraint: c, wiped });
            }
        }
        Ok(())
    }

    /// Plain backtracking: checks each constraint on `var` against the decisions.
    fn check(&mut self, var: u32) -> Result<(), Failure> {
        self.seen.clear();
        let mut tuple: smallvec::SmallVec<[i64; 8]> = smallvec::SmallVec::new();
        for i in 0..self.watchers.of(var).len() {
            let c = self.watchers.of(var)[i].constraint;
            if !self.seen.insert(c as usize) {
                continue;
            }
            let scope = self.scopes[c as usize];
            let ok = if let [x, y] = *scope {
                // Binary constraints, the classic case: no tuple to build.
                if self.decided[x.index()] && self.decided[y.index()] {
                    let values = [self.fixed_value(x.index), self.fixed_value(y.index)];
                    self.stats.checks += 1;
                    self.constraints[c as usize].is_satisfied(&values)
                } else {
                    true
                }
            } else if scope.iter().all(|v| self.decided[v.index()]) {
                tuple.clear();
                tuple.extend(scope.iter().map(|v| self.state.value(v.index, self.state.min_pos(v.index))));
                self.stats.checks += 1;
                self.constraints[c as usize].is_satisfied(&tuple)
            } else if self.partial_checks[c as usize] {
                let mut ctx = context!(self, constraint: c, assigned: Assigned::Decided(&self.decided), wake: None, observer: None, decision: None);
                self.propagators[c as usize].check_partial(&mut ctx)
            } else {
                true
            };
            if !ok {
                return Err(Failure { constraint: c, wiped: None });
            }
        }
        Ok(())
    }

    /// The value of a variable with one value left.
    #[inline]
    fn fixed_value(&self, x: u32) -> i64 {
        self.state.value(x, self.state.min_pos(x))
    }

    /// Assigns `var` to position `pos` and propagates at the configured level.
    fn decide(&mut self, var: u32, pos: u32) -> Result<(), Failure> {
        self.decided[var as usize] = true;
        if let Some(bj) = &mut self.backjumping {
            bj.assign(var, self.frames.len() as u32);
        }
        let change = self.state.fix_pos(var, pos);
        match self.config.propagation {
            Propagation::None => self.check(var),
            Propagation::ForwardChecking => self.forward_check(var, true),
            Propagation::Mac => {
                if change != Change::None {
                    self.wake_watchers(var);
                }
                self.propagate_queue()
            }
        }
    }

    // ---- variable ordering ----

    #[inline]
    fn is_unassigned(&self, x: u32) -> bool {
        match self.config.propagation {
            Propagation::Mac => self.state.size(x) > 1,
            _ => !self.decided[x as usize],
        }
    }

    /// The number of constraints on `x` with another unassigned variable, and
    /// the sum of their weights. `live` caches, per constraint, two of its
    /// unassigned variables for the current choice.
    fn future_degree(&self, live: &mut Live, x: u32) -> (u64, u64) {
        let mut degree = 0;
        let mut weight = 0;
        let mut previous = u32::MAX;
        for watch in self.watchers.of(x) {
            let c = watch.constraint;
            if c == previous {
                continue;
            }
            previous = c;
            let [a, b] = live.two_unassigned(c, || {
                let mut two = [NONE; 2];
                for v in self.scopes[c as usize] {
                    if v.index != two[0] && self.is_unassigned(v.index) {
                        if two[0] == NONE {
                            two[0] = v.index;
                        } else {
                            two[1] = v.index;
                            break;
                        }
                    }
                }
                two
            });
            // Another than `x`: `b` differs from `a`, so one of them is not `x`
            // when both exist.
            if (a != NONE && a != x) || b != NONE {
                degree += 1;
                // dom/wdeg's weight: one plus the failures the constraint caused.
                weight += self.failed_by[c as usize] + 1;
            }
        }
        (degree, weight)
    }

    /// Drops the variables that became assigned from the free list, which is
    /// a sparse set: `free[..count]` are the candidates and only `count` is
    /// trailed, so a backtrack brings the dropped ones back.
    fn compact_free(&mut self) -> usize {
        let mut count = self.state.int(self.free_count) as usize;
        let mut i = 0;
        while i < count {
            let x = self.free[i];
            if self.is_unassigned(x) {
                i += 1;
            } else {
                count -= 1;
                self.free.swap(i, count);
            }
        }
        self.state.set_int(self.free_count, count as i64);
        count
    }

    /// The next variable to decide, or `None` when all are assigned. Ties go to
    /// the smallest index, whatever the free list's order.
    fn select_var(&mut self) -> Option<u32> {
        let count = self.compact_free();
        let mut live = std::mem::take(&mut self.live);
        live.next_choice(self.scopes.len());
        let chosen = self.select_among(count, &mut live);
        self.live = live;
        chosen
    }

    fn select_among(&self, count: usize, live: &mut Live) -> Option<u32> {
        let free = &self.free[..count];
        match self.config.var_order {
            VarOrder::Input => free.iter().copied().min(),
            VarOrder::Mrv => free.iter().copied().min_by_key(|&x| (self.state.size(x), x)),
            VarOrder::MrvDegree => {
                let min_size = free.iter().map(|&x| self.state.size(x)).min()?;
                free.iter()
                    .copied()
                    .filter(|&x| self.state.size(x) == min_size)
                    .min_by_key(|&x| (std::cmp::Reverse(self.future_degree(live, x).0), x))
            }
            VarOrder::DomDeg | VarOrder::DomWdeg => {
                let weighted = self.config.var_order == VarOrder::DomWdeg;
                // Smallest size / degree, compared exactly by cross-multiplying.
                let mut best: Option<(u32, u64, u64)> = None;
                for &x in free {
                    let size = u64::from(self.state.size(x));
                    let (degree, weight) = self.future_degree(live, x);
                    let denominator = if weighted { weight } else { degree }.max(1);
                    let better = match best {
                        None => true,
                        Some((y, s, d)) => {
                            let (left, right) =
                                (u128::from(size) * u128::from(d), u128::from(s) * u128::from(denominator));
                            left < right || (left == right && x < y)
                        }
                    };
                    if better {
                        best = Some((x, size, denominator));
                    }
                }
                best.map(|(x, _, _)| x)
            }
        }
    }

    // ---- value ordering ----

    fn push_frame(&mut self, var: u32) {
        let mark = self.state.mark();
        let start = self.orders.len() as u32;
        let cursor = match self.config.value_order {
            ValueOrder::Ascending => 0,
            ValueOrder::Descending => self.state.max_pos(var) + 1,
            ValueOrder::Random => {
                let begin = self.orders.len();
                let state = &self.state;
                self.orders.extend(state.positions(var));
                self.rng.shuffle(&mut self.orders[begin..]);
                start
            }
            ValueOrder::LeastConstraining => {
                self.order_least_constraining(var);
                start
            }
        };
        let end = self.orders.len() as u32;
        self.frames.push(Frame { var, mark, cursor, start, end, assigned: false });
    }

    fn next_value(&mut self) -> Option<u32> {
        let frame = self.frames.last_mut().expect("a frame");
        match self.config.value_order {
            ValueOrder::Ascending => {
                let pos = self.state.next_pos(frame.var, frame.cursor)?;
                frame.cursor = pos + 1;
                Some(pos)
            }
            ValueOrder::Descending => {
                let pos = self.state.prev_pos(frame.var, frame.cursor.checked_sub(1)?)?;
                frame.cursor = pos;
                Some(pos)
            }
            ValueOrder::Random | ValueOrder::LeastConstraining => {
                let pos = *self.orders.get(frame.cursor as usize).filter(|_| frame.cursor < frame.end)?;
                frame.cursor += 1;
                Some(pos)
            }
        }
    }

    /// Orders `var`'s values by how many values of other variables each one
    /// prunes when tried (fewest first, ties by value; failing values last).
    fn order_least_constraining(&mut self, var: u32) {
        let mut scores = std::mem::take(&mut self.scores);
        scores.clear();
        // Probes are not part of the search: no events, and the prunings they make
        // are not counted (the checks and propagator calls they cost are).
        let observer = self.observer.take();
        let mut attribution = std::mem::take(&mut self.saved_attribution);
        attribution.clear();
        attribution.extend_from_slice(&self.pruned_by);
        let positions: smallvec::SmallVec<[u32; 32]> = self.state.positions(var).collect();
        for pos in positions {
            let mark = self.state.mark();
            let pruned = self.stats.pruned;
            self.decided[var as usize] = true;
            self.state.fix_pos(var, pos);
            let result = match self.config.propagation {
                Propagation::Mac => {
                    self.wake_watchers(var);
                    self.propagate_queue()
                }
                _ => self.forward_check(var, false),
            };
            let score = if result.is_ok() { self.stats.pruned - pruned } else { u64::MAX };
            self.stats.pruned = pruned;
            self.state.undo_to(mark);
            self.decided[var as usize] = false;
            scores.push((score, pos));
        }
        self.observer = observer;
        self.pruned_by.copy_from_slice(&attribution);
        self.saved_attribution = attribution;
        scores.sort_unstable();
        self.orders.extend(scores.iter().map(|&(_, pos)| pos));
        self.scores = scores;
    }
}

/// No variable.
const NONE: u32 = u32::MAX;

/// Marks on the indices `0..n`, all cleared at once by moving to a new stamp.
#[derive(Debug, Default)]
struct Stamps {
    stamp: u32,
    marks: Vec<u32>,
}

impl Stamps {
    fn new(n: usize) -> Stamps {
        Stamps { stamp: 1, marks: vec![0; n] }
    }

    fn len(&self) -> usize {
        self.marks.len()
    }

    /// Unmarks every index.
    fn clear(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.marks.iter_mut().for_each(|m| *m = 0);
            self.stamp = 1;
        }
    }

    /// Marks `i`; true when it was not marked.
    #[inline]
    fn insert(&mut self, i: usize) -> bool {
        let fresh = self.marks[i] != self.stamp;
        self.marks[i] = self.stamp;
        fresh
    }
}

/// Per constraint, up to two distinct unassigned variables of its scope,
/// found at most once per variable choice (the degree heuristics ask for
/// every free variable's constraints, and most constraints have several).
#[derive(Debug, Default)]
struct Live {
    found: Stamps,
    two: Vec<[u32; 2]>,
}

impl Live {
    /// Forgets what the previous choice found.
    fn next_choice(&mut self, constraints: usize) {
        if self.found.len() != constraints {
            self.found = Stamps::new(constraints);
            self.two = vec![[NONE; 2]; constraints];
        }
        self.found.clear();
    }

    #[inline]
    fn two_unassigned(&mut self, c: u32, find: impl FnOnce() -> [u32; 2]) -> [u32; 2] {
        let c = c as usize;
        if self.found.insert(c) {
            self.two[c] = find();
        }
        self.two[c]
    }
}

/// The solutions of a run, in search order. See [`Solver::solutions`].
#[derive(Debug)]
pub struct Solutions<'s, 'm> {
    solver: &'s mut Solver<'m>,
}

impl<'m> Iterator for Solutions<'_, 'm> {
    type Item = Solution<'m>;

    fn next(&mut self) -> Option<Solution<'m>> {
        match self.solver.step(None) {
            Step::Solution => Some(self.solver.solution()),
            Step::Exhausted | Step::Limit(_) => None,
        }
    }
}

impl Solutions<'_, '_> {
    /// The statistics of the run so far.
    pub fn stats(&self) -> &Stats {
        self.solver.stats()
    }

    /// How the run ended (or [`Status::Running`] before the last solution).
    pub fn status(&self) -> Status {
        self.solver.status()
    }
}

/// What one constraint (or one kind of constraint) did in a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Effect {
    /// Values it removed from domains.
    pub pruned: u64,
    /// Failures it caused: domains it wiped out, or checks it failed.
    pub failures: u64,
}

/// Pruning attribution: what each constraint did in a run. See
/// [`Solver::attribution`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Attribution {
    /// Indexed by [`ConstraintId::index`].
    pub by_constraint: Vec<Effect>,
}

impl Attribution {
    /// The effects summed per constraint kind ([`Constraint::kind`]),
    /// in order of first appearance in the model.
    pub fn by_kind(&self, model: &Model) -> Vec<(String, Effect)> {
        let mut kinds: indexmap::IndexMap<String, Effect> = indexmap::IndexMap::new();
        for ((_, constraint), effect) in model.constraints().zip(&self.by_constraint) {
            let total = kinds.entry(constraint.kind().to_string()).or_default();
            total.pruned += effect.pruned;
            total.failures += effect.failures;
        }
        kinds.into_iter().collect()
    }
}
