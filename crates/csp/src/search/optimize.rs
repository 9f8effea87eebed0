//! Branch and bound (Land & Doig 1960, as CP solvers run it): the search for
//! a solution, then for a better one, until none is left.
//!
//! After each solution, every later node must beat it: when minimising,
//! `objective <= best - 1` (`>= best + 1` when maximising). The bound is not
//! a constraint of the model (the model does not change while it is solved)
//! but a narrowing of the objective's domain that the search imposes itself,
//! before each variable choice and whenever a frame is undone (see the
//! sibling module `dfs`): bounds only tighten, so a state that satisfies the
//! latest satisfies every earlier one. Under `mac` the narrowing wakes the
//! objective's propagators like any other change; under forward checking and
//! plain backtracking it only narrows the domain, so the objective's value,
//! once decided, is within the bound, and its constraints are checked or
//! propagated from the decisions as always. The same loop runs under every
//! level, branching, ordering, backjumping (the bound holds at every level,
//! as if imposed at the root) and restarts (which keep the bound, and unlike
//! enumeration go on after solutions: none can be found twice).
//!
//! In a portfolio (the sibling module `portfolio`) the bound imposed is the
//! best objective value any worker has found (a shared atomic), where it
//! beats this worker's own: the same narrowing, at the same places, so a
//! worker that exhausts its tree has proved that no solution beats the
//! portfolio's best.

use super::Solver;
use super::dfs::Step;
use super::outcome::{Improvement, OptimizationOutcome, Status};
use super::propagate::Failure;
use crate::kernel::{Cause, Change};
use crate::model::Sense;
use crate::observer::SearchEvent;

/// Branch and bound's state in a run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BranchAndBound {
    /// The objective's variable and sense; `None` for a model without an
    /// objective, whose objective is the constant 0.
    objective: Option<(u32, Sense)>,
    /// The objective value of the best solution so far.
    best: Option<i64>,
    /// In a portfolio, the best objective value of every worker's solutions
    /// when the bound was last imposed (`None` outside a portfolio).
    shared: Option<i64>,
    /// The objective's best bound after the root's propagation (its
    /// greatest value when maximising): how far the best solution may go.
    far: Option<i64>,
    /// Whether the last improvement was tiny against the range left
    /// between the best solution and `far`: the search then bisects that
    /// range (see [`Solver::wide_objective`]).
    bisecting: bool,
}

/// How many improvements of the last one's size the range left to the
/// objective must hold for the search to bisect it (see
/// [`Solver::wide_objective`]): 2^16, so that it never does on the way to
/// an optimum that improving as before reaches in fewer solutions.
/// [`Solver::bisect_after_steps`] changes it for a test.
pub(super) const STEPS_BEFORE_BISECTION: u64 = 1 << 16;

impl BranchAndBound {
    /// The objective value the bound excludes from: the best solution so
    /// far, or in a portfolio a better one of another worker.
    #[cfg(feature = "testing")]
    pub(crate) fn best(&self) -> Option<i64> {
        self.bound().map(|(_, _, best)| best)
    }

    /// The objective's variable and sense, and the value the bound
    /// excludes from (see [`best`](BranchAndBound::best)), once there is a
    /// bound.
    pub(crate) fn bound(&self) -> Option<(u32, Sense, i64)> {
        let (x, sense) = self.objective?;
        let best = match (self.best, self.shared) {
            (Some(own), Some(shared)) => match sense {
                Sense::Minimize => own.min(shared),
                Sense::Maximize => own.max(shared),
            },
            (own, shared) => own.or(shared)?,
        };
        Some((x, sense, best))
    }
}

impl<'m> Solver<'m> {
    /// Finds the best solution of the model's objective
    /// ([`Model::minimize`](crate::Model::minimize),
    /// [`Model::maximize`](crate::Model::maximize)) by branch and bound, and
    /// proves it optimal unless a limit stops the search first. A model without
    /// an objective has the constant objective 0: its first solution is optimal.
    ///
    /// ```
    /// use csp::{Model, OptimizationOutcome, SolveConfig, Solver};
    ///
    /// // The largest x + y with x < y over 0..=9, x + y odd: 8 + 9.
    /// let mut model = Model::new();
    /// let x = model.new_var(0..=9).unwrap();
    /// let y = model.new_var(0..=9).unwrap();
    /// model.less_than(x, y).unwrap();
    /// model.predicate(&[x, y], |v| (v[0] + v[1]) % 2 == 1).unwrap();
    /// model.maximize(x + y).unwrap();
    /// let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
    /// let outcome = solver.optimize();
    /// assert!(outcome.is_optimal());
    /// assert_eq!(outcome.objective(), Some(17));
    /// ```
    pub fn optimize(&mut self) -> OptimizationOutcome<'m> {
        let mut best = None;
        for improvement in self.improvements() {
            best = Some(improvement);
        }
        match (best, self.status()) {
            (Some(Improvement { solution, objective, .. }), Status::LimitReached(limit)) => {
                OptimizationOutcome::BestFound { solution, objective, limit }
            }
            (Some(Improvement { solution, objective, .. }), _) => OptimizationOutcome::Optimal { solution, objective },
            (None, Status::LimitReached(limit)) => OptimizationOutcome::LimitReached(limit),
            (None, _) => OptimizationOutcome::Unsatisfiable,
        }
    }

    /// Iterates over the improving solutions of a branch and bound run, each
    /// better than the one before, with its objective value and the time it
    /// took. Once the iterator is drained, [`status`](Solver::status) says
    /// whether the last one is proved optimal ([`Status::Complete`]) or which
    /// limit stopped the search. [`Stats::solutions`](crate::Stats::solutions)
    /// counts the improving solutions, and an observer sees
    /// [`SearchEvent::Improvement`] for each.
    ///
    /// ```
    /// use csp::{Model, SolveConfig, Solver, Status};
    ///
    /// let mut model = Model::new();
    /// let x = model.new_var(1..=5).unwrap();
    /// model.maximize(x).unwrap();
    /// let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
    /// let objectives: Vec<i64> = solver.improvements().map(|i| i.objective).collect();
    /// assert_eq!(objectives, [1, 2, 3, 4, 5]); // ascending values, each better
    /// assert_eq!(solver.status(), Status::Complete); // 5 is optimal
    /// ```
    pub fn improvements(&mut self) -> Improvements<'_, 'm> {
        self.start_run();
        let objective = self.program.model.objective().map(|o| (o.var.index, o.sense));
        self.run.optimizing = Some(BranchAndBound { objective, best: None, shared: None, far: None, bisecting: false });
        Improvements { solver: self }
    }

    /// A solution was found under branch and bound: records its objective
    /// value as the best and reports it. True when the model has no objective
    /// variable: the solution is then optimal.
    pub(super) fn improved(&mut self, count: u64) -> bool {
        let Some(bb) = &mut self.run.optimizing else { return false };
        let objective = bb.objective.map_or(0, |(x, _)| self.state.value(x, self.state.min_pos(x)));
        debug_assert!(
            match (bb.objective, bb.best) {
                (Some((_, Sense::Minimize)), Some(best)) => objective < best,
                (Some((_, Sense::Maximize)), Some(best)) => objective > best,
                _ => true,
            },
            "branch and bound found a solution that is no better"
        );
        // Objective values lie within -2^62..=2^62: differences fit a u64.
        bb.bisecting = match (bb.best, bb.far) {
            (Some(best), Some(far)) => {
                best.abs_diff(objective).saturating_mul(self.bisection_steps) < objective.abs_diff(far)
            }
            _ => false,
        };
        bb.best = Some(objective);
        let last = bb.objective.is_none();
        self.emit(SearchEvent::Improvement { objective, count });
        last
    }

    /// Under branch and bound, after a solution: narrows the objective to the
    /// values that beat it, and propagates that under `mac`. `Ok(true)` if the
    /// state changed; `Err` when no better solution extends the state, with
    /// the failure when propagation found it (`None` when the objective's own
    /// domain has no better value).
    ///
    /// Under backjumping, what propagation prunes is recorded as undone with
    /// the decision of `level` (see [`ConflictSets::record_prunings`]).
    ///
    /// [`ConflictSets::record_prunings`]: super::backjump::ConflictSets::record_prunings
    pub(super) fn impose_bound(&mut self, level: u32) -> Result<bool, Option<Failure>> {
        self.read_shared_best();
        let Some((x, sense, best)) = self.run.optimizing.and_then(|bb| bb.bound()) else {
            return Ok(false);
        };
        // The objective lies within -2^62..=2^62, so `best ± 1` does not overflow.
        let (lo, hi) = match sense {
            Sense::Minimize => (i64::MIN, best - 1),
            Sense::Maximize => (best + 1, i64::MAX),
        };
        let (min, max) = (self.state.value(x, self.state.min_pos(x)), self.state.value(x, self.state.max_pos(x)));
        if lo <= min && max <= hi {
            return Ok(false);
        }
        if self.observer.is_some() && !self.state.is_interval(x) {
            let gone: Vec<i64> = self.state.values(x).filter(|v| !(lo..=hi).contains(v)).collect();
            let var = self.var_id(x);
            for value in gone {
                self.emit(SearchEvent::Removed { var, value, constraint: None });
            }
        }
        let change = self.state.narrow_bounds(x, lo, hi);
        if change == Change::Wipeout {
            self.state.discard_unrecorded();
            return Err(None);
        }
        // A fact of the root for search that learns: every later node
        // satisfies it.
        self.state.record(Cause::Root);
        if self.observer.is_some() && self.state.is_interval(x) {
            let bounds = self.state.interval(x);
            let var = self.var_id(x);
            self.emit(SearchEvent::Narrowed { var, min: bounds.min, max: bounds.max, constraint: None });
        }
        if self.program.propagation == super::config::Propagation::Mac {
            self.wake_watchers(x);
            self.propagate_queue(Some(level)).map_err(Some)?;
        }
        Ok(true)
    }

    /// In a portfolio, takes the best of every worker's solutions as a
    /// bound of this one's search, as its own would be: read only when one
    /// is attached.
    #[inline]
    pub(super) fn read_shared_best(&mut self) {
        if let Some(incumbent) = &self.incumbent
            && let Some(bb) = &mut self.run.optimizing
        {
            bb.shared = incumbent.get();
        }
    }

    /// The objective's variable, when this run optimises one.
    pub(super) fn objective_var(&self) -> Option<u32> {
        self.run.optimizing.and_then(|bb| bb.objective).map(|(x, _)| x)
    }

    /// Whether a split of `var` tries the half toward the best bound first
    /// (the upper half when maximising): `Some` when `var` is the
    /// objective and no search phase gives it a value order. Branch and
    /// bound then bisects toward the best bound, as Gecode's FlatZinc
    /// front end branches on the objective with its best value first,
    /// instead of walking up from the worst end one improvement at a time.
    pub(super) fn objective_split(&self, var: u32) -> Option<bool> {
        let (x, sense) = self.run.optimizing?.objective?;
        let annotated = matches!(self.program.phase_value_order.get(var as usize), Some(Some(_)));
        (x == var && !annotated).then_some(sense == Sense::Maximize)
    }

    /// After a solution: whether the search is to bisect the objective's
    /// range from the root (see [`Solver::wide_objective`]), with decisions
    /// to drop. Complete, as every restart of branch and bound is: the bound
    /// excludes every solution found, and at most one such restart follows
    /// each improvement.
    pub(super) fn bisection_restart(&self) -> bool {
        let bisecting = self.run.optimizing.is_some_and(|bb| bb.bisecting);
        bisecting && !self.tree.frames.is_empty() && self.wide_objective().is_some()
    }

    /// Under branch and bound, the root is propagated: notes the
    /// objective's best bound there, the far end of the range the search
    /// may bisect.
    pub(super) fn note_root_bound(&mut self) {
        let Some(BranchAndBound { objective: Some((x, sense)), .. }) = self.run.optimizing else { return };
        let far = match sense {
            Sense::Minimize => self.state.value(x, self.state.min_pos(x)),
            Sense::Maximize => self.state.value(x, self.state.max_pos(x)),
        };
        if let Some(bb) = &mut self.run.optimizing {
            bb.far = Some(far);
        }
    }

    /// Under branch and bound, an objective that is an interval domain
    /// (wider than the bitset limit) and still open is decided before the
    /// free variables (after the search phases), its halves toward the best
    /// bound first (see [`Solver::objective_split`]), while the last
    /// improvement was tiny against what is left: the range between it and
    /// the root's best bound holds more than [`STEPS_BEFORE_BISECTION`]
    /// steps of its size. The search then bisects that range, in as many
    /// levels as it has bits, where a search that fixes another wide
    /// variable first (`x <= y + 3`, `y` at its least) would improve by one
    /// at a time, each improvement the next value of that variable.
    /// Improvements that are large against the range left (a tour's length
    /// cut by a good part, as on the MiniZinc Challenge's instances) leave
    /// the search as it is: deciding the objective first there asks for a
    /// solution far better than the last, which may be hard to find or to
    /// refute.
    ///
    /// The bisection starts from the root: after an improvement that sets
    /// it, the search restarts (see [`Solver::bisection_restart`]), as the
    /// decisions above the solution (`y` at its least) would otherwise keep
    /// the objective below them.
    ///
    /// The objective's variable when that rule applies to it, whether or
    /// not it is still open (the caller asks that).
    pub(super) fn wide_objective(&self) -> Option<u32> {
        let BranchAndBound { objective: Some((x, _)), bisecting: true, .. } = self.run.optimizing? else {
            return None;
        };
        self.state.is_interval(x).then_some(x)
    }
}

#[cfg(feature = "testing")]
impl Solver<'_> {
    /// Bisects the objective's range once the last improvement is smaller
    /// than `1 / steps` of the range left, instead of `1 / 2^16` (see
    /// `Solver::wide_objective`): a test on a small model reaches the
    /// bisection this way, with `steps` 1 after nearly every improvement (a
    /// debug knob; only objectives too wide for a bitset are bisected).
    pub fn bisect_after_steps(&mut self, steps: u64) {
        self.bisection_steps = steps;
    }
}

/// The improving solutions of a branch and bound run. See [`Solver::improvements`].
#[derive(Debug)]
pub struct Improvements<'s, 'm> {
    solver: &'s mut Solver<'m>,
}

impl<'m> Iterator for Improvements<'_, 'm> {
    type Item = Improvement<'m>;

    fn next(&mut self) -> Option<Improvement<'m>> {
        match self.solver.step(None) {
            Step::Solution => {
                let solution = self.solver.solution();
                let objective = self.solver.run.optimizing.and_then(|bb| bb.best).unwrap_or(0);
                Some(Improvement { solution, objective, elapsed: self.solver.run.started.elapsed() })
            }
            Step::Exhausted | Step::Limit(_) => None,
        }
    }
}

impl Improvements<'_, '_> {
    /// The statistics of the run so far.
    pub fn stats(&self) -> &super::Stats {
        self.solver.stats()
    }

    /// How the run ended (or [`Status::Running`] before the end).
    pub fn status(&self) -> Status {
        self.solver.status()
    }
}
