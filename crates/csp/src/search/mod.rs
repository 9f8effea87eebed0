//! Backtracking search with propagation: the [`Solver`] facade over the
//! concerns of a search, one module each.
//!
//! - `program`: what a solver compiles from a model and a configuration, once
//!   (the state, the propagators, the all-different system, the watches);
//! - `dfs`: the explicit-stack depth-first search, its frames and runs;
//! - `propagate`: the three propagation levels (checks, forward checking,
//!   propagation to a fixpoint), decisions and refutations;
//! - `var_order` and `value_order`: the orderings, with `activity` (VSIDS
//!   activities and saved phases), `density` (counting-based search) and
//!   `places` (exact cover's choice);
//! - `restart` and `backjump`: restarts and backjumping (Gaschnig's,
//!   graph-based, conflict-directed); `nld`: nogoods recorded from restarts;
//! - `learning`: search that learns nogoods from its conflicts (`mac+learn`),
//!   with `reasons`, the propagators' explanations it and observers ask for;
//! - `cycle`: slow-convergence cycles of linear inequalities cut by a sum;
//! - `probe`: probing (singleton consistency) inside a node;
//! - `optimize`: branch and bound, its outcome and its improving solutions;
//! - `clock`: the time limit and the stop signal, read at a bounded cost;
//! - [`portfolio`]: workers of different configurations on one model, in
//!   threads, the first answer wins;
//! - `config` and `spelling`: the configuration and its one-line spelling;
//! - `outcome` and `stats`: what a run found and did.

use std::time::Instant;

use crate::domain::Domain;
use crate::ids::VarId;
use crate::kernel::{Queue, State};
use crate::model::{Model, ModelError, Solution};
use crate::observer::Observer;

mod activity;
mod backjump;
mod chb;
mod choice_queue;
mod clock;
mod config;
mod cycle;
mod density;
mod dfs;
mod learning;
mod lrb;
mod nld;
mod optimize;
mod outcome;
mod places;
pub mod portfolio;
mod probe;
mod program;
mod propagate;
mod reasons;
mod restart;
mod spelling;
mod stats;
mod value_order;
mod var_order;
mod wdeg;

pub use clock::StopSignal;
pub use config::{
    Backjumping, Branching, Jumps, Limit, Limits, Probing, Propagation, Search, SearchPhase, SolveConfig, ValueOrder,
    VarOrder,
};
pub use optimize::Improvements;
pub use outcome::{Attribution, Count, Effect, Improvement, OptimizationOutcome, Outcome, Status};
pub use restart::Restarts;
pub use spelling::{ConfigSyntaxError, UnknownOption};
pub use stats::Stats;

use activity::Activity;
use backjump::ConflictSets;
use dfs::{Assumptions, Phase, Run, Step, Tree};
use learning::Learning;
use program::Program;
use restart::RestartClock;
use var_order::Scratch;

/// Why a solver cannot be built for a model.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SolveError {
    /// Backtracking search keeps a domain given as a list of values, and a
    /// range up to [`SolveConfig::bitset_limit`], as a bitset; this one (or all
    /// of them together) would take more than 2 GiB.
    #[error(
        "the domain of variable {var} has {size} values, too many for the bitsets of backtracking search (ranges wider than the bitset limit are kept as intervals; local search keeps every domain as a range)"
    )]
    DomainTooLarge {
        /// The variable's name.
        var: String,
        /// Its domain size.
        size: u64,
    },
    /// A [`SearchPhase`] of the configuration names a variable that is not
    /// the model's.
    #[error("search phase {phase} names a variable of another model")]
    PhaseVariable {
        /// The phase's index in [`SolveConfig::phases`].
        phase: usize,
    },
    /// The configuration combines options the engine does not implement
    /// together (the one-line spelling rejects them as
    /// [`ConfigSyntaxError::Unsupported`]; this is for configurations built
    /// field by field), e.g. [`Probing`] with learning.
    #[error("the configuration asks for {what}, which is not implemented ({instead})")]
    Unsupported {
        /// The combination.
        what: &'static str,
        /// What is implemented instead.
        instead: &'static str,
    },
    /// A [`Portfolio`](crate::portfolio::Portfolio) was given no configuration.
    #[error("a portfolio needs at least one worker's configuration")]
    NoWorkers,
}

/// The deepest a branch can go: one decision per bitset variable, and up to
/// 65 per interval (64 halvings take any interval to one value, and a variable
/// that propagation fixed is still decided once at the levels that wait for
/// decisions). When the value orders split domains (`splits`), a bitset of
/// `n` values takes up to one more than the bits of `n` halvings.
fn max_depth(state: &State, splits: bool) -> usize {
    let bitset = |x: u32| if splits { 1 + (32 - state.size(x).leading_zeros()) as usize } else { 1 };
    (0..state.num_vars() as u32).map(|x| if state.is_interval(x) { 65 } else { bitset(x) }).sum()
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
    /// What was compiled from the model and the configuration.
    program: Program<'m>,
    /// The domains, the trail and the reversible integers.
    state: State,
    /// The propagators waiting to run (under `mac`).
    queue: Queue,
    /// What this run did so far, and where it is.
    run: Run,
    /// The decisions: frames, the values they try, the free variables.
    tree: Tree,
    /// Buffers the orderings and propagation reuse from node to node.
    scratch: Scratch,
    /// Failures towards the next restart.
    restarts: RestartClock,
    /// The slow-convergence cycles cut by a sum, and the facts of the latest.
    cycles: cycle::Cycles,
    /// Backjumping's conflict sets, when configured.
    backjumping: Option<Box<ConflictSets>>,
    /// The nogoods and the analysis of search that learns, when configured.
    learning: Option<Box<Learning>>,
    /// The nogoods recorded from restarts, when configured.
    nld: Option<Box<nld::Nld>>,
    /// VSIDS activities and saved phases.
    activity: Activity,
    /// CHB's scores, when an ordering reads them.
    chb: chb::Chb,
    /// LRB's scores, when an ordering reads them.
    lrb: lrb::Lrb,
    /// The future degrees and dom/wdeg's weights, when an ordering reads them.
    future: Option<Box<wdeg::FutureDegrees>>,
    /// dom/wdeg's or dom/ddeg's choices by a heap, on models large enough
    /// (`var_order::QUEUE_MIN_VARS`) and in debug and `testing` builds.
    choices: Option<Box<choice_queue::ChoiceQueue>>,
    /// What every run assumes at the root.
    assumptions: Assumptions,
    observer: Option<&'m mut dyn Observer>,
    /// Whether the observer wants the reasons of the propagators' narrowings.
    reasons: bool,
    /// Whether the propagation running is a probe's under cheap probing
    /// (what [`Context::is_cheap`] says).
    cheap: bool,
    /// The sweeps of touched probing.
    sweeps: probe::Sweeps,
    /// Branch and bound bisects a wide objective's range once the last
    /// improvement is smaller than this fraction of what is left (see
    /// `Solver::wide_objective`).
    bisection_steps: u64,
    /// The signal that stops every run, when one is watched (see
    /// [`Solver::stop_on`]).
    stop: Option<StopSignal>,
    /// The best objective value of a portfolio's workers, which branch and
    /// bound imposes as its own (see the sibling module `portfolio`).
    incumbent: Option<std::sync::Arc<portfolio::Incumbent>>,
    /// A learning worker's side of a portfolio's shared nogoods (see the
    /// module `portfolio::share`), when they are shared.
    share: Option<Box<portfolio::share::Exchange>>,
}

impl std::fmt::Debug for Solver<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver")
            .field("config", &self.program.config)
            .field("phase", &self.run.phase)
            .field("stats", &self.run.stats)
            .finish_non_exhaustive()
    }
}

impl<'m> Solver<'m> {
    /// Builds a solver: widens the domains into bitsets and creates a
    /// propagator for every constraint.
    pub fn new(model: &'m Model, config: SolveConfig) -> Result<Solver<'m>, SolveError> {
        config.probing.supports(config.search).map_err(|(what, instead)| SolveError::Unsupported { what, instead })?;
        config.restarts.supports(config.search).map_err(|(what, instead)| SolveError::Unsupported { what, instead })?;
        nld::supports(&config).map_err(|(what, instead)| SolveError::Unsupported { what, instead })?;
        let (program, mut state, free_count) = Program::compile(model, config)?;
        let n_constraints = program.propagators.len();
        let splitting = |order: ValueOrder| matches!(order, ValueOrder::Split | ValueOrder::ReverseSplit);
        let splits =
            splitting(program.config.value_order) || program.config.phases.iter().any(|p| splitting(p.value_order));
        let learning = program.config.learning().then(|| {
            state.enable_history();
            Box::new(Learning::new(model.num_vars()))
        });
        let choices = var_order::choice_queue(&program, model.num_vars());
        Ok(Solver {
            queue: Queue::new(program.costs.clone()),
            run: Run::new(n_constraints, program.config.seed),
            tree: Tree::new(model.num_vars(), free_count),
            scratch: Scratch::new(n_constraints).with_density_members(if program.all_differents.is_some() {
                model.num_vars()
            } else {
                0
            }),
            restarts: RestartClock::default(),
            cycles: cycle::Cycles::default(),
            backjumping: program
                .config
                .search
                .jumps()
                .map(|jumps| Box::new(ConflictSets::new(jumps, model.num_vars(), max_depth(&state, splits)))),
            learning,
            nld: program.config.restart_nogoods.then(|| Box::new(nld::Nld::new(model.num_vars()))),
            activity: Activity::new(&state, program.literal_activity).with_targets(&program.config),
            chb: chb::Chb::new(state.num_vars(), program.chb),
            future: program.future_degrees.then(|| {
                let mut future = Box::new(wdeg::FutureDegrees::new(model.num_vars(), &program.scopes));
                if choices.is_some() {
                    future.note_raises();
                }
                future
            }),
            choices,
            lrb: lrb::Lrb::new(state.num_vars(), program.lrb),
            assumptions: Assumptions::default(),
            observer: None,
            reasons: false,
            cheap: false,
            sweeps: probe::Sweeps::new(model.num_vars(), program.newest_sweep),
            bisection_steps: optimize::STEPS_BEFORE_BISECTION,
            stop: None,
            incumbent: None,
            share: None,
            program,
            state,
        })
    }

    /// Sends every search event of later runs to `observer`, and when it
    /// [wants them](Observer::wants_reasons), the reasons of the
    /// propagators' narrowings.
    pub fn observe(&mut self, observer: &'m mut dyn Observer) {
        self.reasons = observer.wants_reasons();
        if self.reasons {
            self.state.enable_history();
        }
        self.observer = Some(observer);
    }

    /// Stops every later run once `signal` is raised, from any thread:
    /// the run ends within about a millisecond of work (the clock's next
    /// reading, as for a time limit) with [`Limit::Stopped`]. Until it is
    /// raised the run is the same as without it (the same tree and
    /// statistics); it only makes the clock read the time.
    pub fn stop_on(&mut self, signal: StopSignal) {
        self.stop = Some(signal);
    }

    /// The configuration.
    pub fn config(&self) -> &SolveConfig {
        &self.program.config
    }

    /// The model.
    pub fn model(&self) -> &'m Model {
        self.program.model
    }

    /// The statistics of the current (or last) run.
    pub fn stats(&self) -> &Stats {
        &self.run.stats
    }

    /// How the current (or last) run ended.
    pub fn status(&self) -> Status {
        match self.run.phase {
            Phase::Done(status) => status,
            _ => Status::Running,
        }
    }

    /// What each constraint did in the current (or last) run: the values it
    /// removed and the failures it caused (pruning attribution).
    pub fn attribution(&self) -> Attribution {
        Attribution {
            by_constraint: self
                .run
                .pruned_by
                .iter()
                .zip(&self.run.failed_by)
                .map(|(&pruned, &failures)| Effect { pruned, failures })
                .collect(),
        }
    }

    /// Finds the first solution. An objective, if the model has one, plays
    /// no part: [`optimize`](Solver::optimize) looks for the best solution.
    pub fn solve(&mut self) -> Outcome<'m> {
        self.start_run();
        match self.step(None) {
            Step::Solution => Outcome::Solved(self.solution()),
            Step::Exhausted => Outcome::Unsatisfiable,
            Step::Limit(limit) => Outcome::LimitReached(limit),
        }
    }

    /// Iterates over all solutions (up to the configured limits), whatever
    /// the model's objective (see [`improvements`](Solver::improvements) for
    /// better and better ones). After the iterator is drained,
    /// [`status`](Solver::status) says whether the search was complete.
    pub fn solutions(&mut self) -> Solutions<'_, 'm> {
        self.start_run();
        Solutions { solver: self }
    }

    /// Counts solutions, stopping at `limit` if given (a count with limit 2
    /// answers "is the solution unique?"). The objective, if any, plays no
    /// part: every solution counts.
    pub fn count(&mut self, limit: Option<u64>) -> Count {
        self.start_run();
        loop {
            match self.step(limit) {
                Step::Solution => continue,
                Step::Exhausted => {
                    return Count { solutions: self.run.stats.solutions, status: Status::Complete };
                }
                Step::Limit(limit) => {
                    return Count { solutions: self.run.stats.solutions, status: Status::LimitReached(limit) };
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
        let result = self.propagate_queue(None);
        self.run.stats.elapsed += begin.elapsed();
        if let Err(failure) = result {
            self.record_failure(failure);
            self.run.phase = Phase::Done(Status::Complete);
            return None;
        }
        // The search may still run from here: the root is propagated.
        self.run.phase = Phase::Searching { descend: true };
        Some(self.current_domains())
    }

    /// The current domain of every variable.
    fn current_domains(&self) -> Vec<Domain> {
        (0..self.state.num_vars() as u32)
            .map(|x| {
                if self.state.is_interval(x) {
                    let bounds = self.state.interval(x);
                    Domain::range(bounds.min, bounds.max)
                } else {
                    Domain::values(self.state.values(x))
                }
            })
            .collect()
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
        if var.model != self.program.model.id() || var.index() >= self.state.num_vars() {
            return Err(ModelError::ForeignVariable { constraint: "assume".to_string(), position: 0, var });
        }
        match self.state.position(var.index, value) {
            Some(pos) => self.assumptions.fixed.push((var.index, pos)),
            None if self.state.is_interval(var.index) => self.assumptions.fixed_values.push((var.index, value)),
            None => self.assumptions.failed = true,
        }
        self.run.phase = Phase::Fresh;
        Ok(())
    }

    /// Removes `value` from `var`'s domain at the root of every later run, until
    /// [`clear_assumptions`](Solver::clear_assumptions): "is there a solution in
    /// which this cell is not 5?", without building another model. From an
    /// interval domain only a bound can be removed: an inner value stays.
    pub fn assume_not(&mut self, var: VarId, value: i64) -> Result<(), ModelError> {
        if var.model != self.program.model.id() || var.index() >= self.state.num_vars() {
            return Err(ModelError::ForeignVariable { constraint: "assume_not".to_string(), position: 0, var });
        }
        if let Some(pos) = self.state.position(var.index, value) {
            self.assumptions.excluded.push((var.index, pos));
        } else if self.state.is_interval(var.index) {
            self.assumptions.excluded_values.push((var.index, value));
        }
        self.run.phase = Phase::Fresh;
        Ok(())
    }

    /// Drops every assumption: later runs start from the model's domains again.
    pub fn clear_assumptions(&mut self) {
        // Cleared in place: a solver re-solved with new givens does not allocate.
        self.assumptions.fixed.clear();
        self.assumptions.excluded.clear();
        self.assumptions.fixed_values.clear();
        self.assumptions.excluded_values.clear();
        self.assumptions.failed = false;
        self.run.phase = Phase::Fresh;
    }

    /// The current assignment, every variable fixed, as a solution.
    pub(super) fn solution(&self) -> Solution<'m> {
        let values: Vec<i64> =
            (0..self.state.num_vars() as u32).map(|x| self.state.value(x, self.state.min_pos(x))).collect();
        debug_assert!(self.program.model.is_solution(&values), "the search produced a non-solution: {values:?}");
        Solution::new(self.program.model, values)
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
