//! The propagation levels, as scheduling policies over the same propagators:
//! plain backtracking only checks (a constraint once its scope is decided,
//! and the partial checks of those that stand for several, as all-different
//! for its not-equals); forward checking runs each constraint of the decided
//! variable once, treating only decided variables as assigned; maintained arc
//! consistency runs the queue to a fixpoint, cheap propagators first. Here
//! too: decisions and refutations, and what a failure records.

use super::Solver;
use super::config::Propagation;
use crate::ids::ConstraintId;
use crate::kernel::{Assigned, Cause, Change, Context, Literal, NONE, Wake};
use crate::observer::{Observer, SearchEvent};

/// The propagator calls (beyond four a propagator) a fixpoint makes before
/// its queue turns to sweeps.
const SLOW_FIXPOINT: u64 = 1 << 14;

/// A constraint failed: which one, and which variable it wiped out (if any).
#[derive(Clone, Copy, Debug)]
pub(super) struct Failure {
    /// The constraint to blame, or [`NONE`] (a nogood, the bound of branch
    /// and bound).
    pub(super) constraint: u32,
    pub(super) wiped: Option<u32>,
    /// What the analysis of the conflict starts from, when the search learns.
    pub(super) origin: Origin,
}

/// Where a conflict came from, for its analysis.
#[derive(Clone, Copy, Debug)]
pub(super) enum Origin {
    /// A propagator failed; when it was narrowing an interval, the bounds it
    /// asked for.
    Propagator { propagator: u32, bounds: Option<(i64, i64)> },
    /// A nogood has every literal false.
    Nogood(u32),
    /// The objective has no value better than the bound branch and bound
    /// imposes (a fact of the root): this literal, which holds, says so.
    Bound(Literal),
    /// A check of plain backtracking (never analysed).
    Check,
    /// A cycle of linear constraints whose sum fails (`search/cycle.rs`):
    /// the facts it used are kept in the solver's `Cycles`.
    Cycle,
}

impl Failure {
    /// A failure of constraint `constraint`'s check.
    fn check(constraint: u32) -> Failure {
        Failure { constraint, wiped: None, origin: Origin::Check }
    }
}

/// A [`Context`] for the work of constraint `$c`, borrowing the solver's
/// state and counters field by field (which a method borrowing the whole
/// solver could not, while a propagator of the solver runs).
macro_rules! context {
    ($solver:ident, $c:expr, $assigned:expr) => {
        Context::new(
            &mut $solver.state,
            $solver.program.model.id(),
            $c,
            $assigned,
            &mut $solver.run.stats.pruned,
            &mut $solver.run.stats.checks,
            &mut $solver.run.pruned_by,
        )
    };
}

/// A context (see `context!`) that wakes the propagators watching what it
/// changes and shows its removals to the observer: for the work of
/// constraint `$c` by propagator `$p` (whose own changes do not wake it
/// when `$idempotent`; [`NONE`] for a nogood's work).
macro_rules! waking_context {
    ($solver:ident, $c:expr, $p:expr, $idempotent:expr) => {{
        let mut ctx = context!($solver, $c, Assigned::Fixed);
        ctx.propagator = $p;
        ctx.cheap = $solver.cheap;
        ctx.wake =
            Some(Wake { watchers: &$solver.program.watchers, queue: &mut $solver.queue, idempotent: $idempotent });
        ctx.observer = $solver.observer.as_deref_mut().map(|o| o as &mut dyn Observer);
        ctx
    }};
}

impl Solver<'_> {
    /// Counts a failure, for the attribution and dom/wdeg, and reports it.
    pub(super) fn record_failure(&mut self, failure: Failure) {
        self.run.stats.failures += 1;
        if failure.constraint == NONE {
            return;
        }
        self.run.failed_by[failure.constraint as usize] += 1;
        if let Some(future) = &mut self.future {
            future.bump(failure.constraint);
        }
        let vsids = self.program.config.var_order == super::config::VarOrder::Vsids || self.program.literal_activity;
        if vsids && !self.program.config.learning() {
            self.activity.bump_scope(&self.state, self.program.scopes[failure.constraint as usize]);
        }
        if self.chb.is_on() && !self.program.config.learning() {
            self.chb.failure(self.program.scopes[failure.constraint as usize]);
        }
        if self.lrb.is_on() && !self.program.config.learning() {
            self.lrb.failure(self.program.scopes[failure.constraint as usize]);
        }
        if self.observer.is_some() {
            let var = failure.wiped.map(|x| self.var_id(x));
            self.emit(SearchEvent::WipeOut {
                var,
                constraint: ConstraintId { index: failure.constraint, model: self.program.model.id() },
            });
        }
    }

    /// The root: under `mac` (or with root arc consistency) every propagator
    /// runs to the fixpoint; the other levels start from the model's domains.
    pub(super) fn propagate_root(&mut self) -> Result<(), Failure> {
        if self.program.propagation == Propagation::Mac || self.program.config.root_arc_consistency {
            self.queue_all();
            if let Err(failure) = self.propagate_queue(None) {
                self.record_failure(failure);
                return Err(failure);
            }
        }
        Ok(())
    }

    /// Queues every propagator that runs (not those merged into another).
    pub(super) fn queue_all(&mut self) {
        for c in 0..self.program.propagators.len() as u32 {
            if self.program.runs_in[c as usize] == c {
                self.queue.push(c);
            }
        }
    }

    /// Queues the propagators watching `var` (after a decision or a refutation).
    pub(super) fn wake_watchers(&mut self, var: u32) {
        for watch in self.program.watchers.waking(var) {
            self.queue.push(watch.propagator);
        }
    }

    /// Runs queued propagators to a fixpoint (arc consistency). When the
    /// time limit expires on the way it stops, the queue emptied and the
    /// state no fixpoint: the caller's loop sees the expired clock and ends
    /// the run. With `record` and backjumping (MAC-CBJ), each propagator's
    /// prunings are recorded with their reasons, undone with the decision of
    /// that level.
    pub(super) fn propagate_queue(&mut self, record: Option<u32>) -> Result<(), Failure> {
        let record = record.filter(|_| self.backjumping.is_some());
        self.state.start_pushes();
        self.nld_fixpoint_starts();
        // Slow convergence: past this many calls (four a propagator, and
        // some), the queue runs by sweeps (`kernel/queue.rs`).
        let calls =
            self.program.config.slow_fixpoint.unwrap_or(SLOW_FIXPOINT + 4 * self.program.propagators.len() as u64);
        let slow = self.run.stats.propagations + calls;
        loop {
            // Nogoods first: unit propagation is cheaper than any propagator.
            if self.learning.is_some() {
                self.propagate_nogoods()?;
            }
            let Some(c) = self.queue.pop() else {
                // The nogoods from restarts read the trail: once per fixpoint.
                if self.nld.is_some() && self.propagate_restart_nogoods()? {
                    continue;
                }
                return Ok(());
            };
            self.run.stats.propagations += 1;
            if self.run.stats.propagations == slow {
                self.queue.sweep();
            }
            let work = self.run.work();
            if self.run.clock.tick(work) {
                self.queue.clear();
                return Ok(());
            }
            let idempotent = self.program.idempotent[c as usize];
            let reasons = self.reasons_start();
            let mut ctx = waking_context!(self, c, c, idempotent);
            if record.is_some() {
                ctx.pruned_log = self.backjumping.as_mut().map(|bj| &mut bj.log);
            }
            let result = self.program.propagators[c as usize].propagate(&mut ctx);
            // The constraint the propagator last acted for: itself, or a
            // constraint of a merged system (never under backjumping).
            let (constraint, wiped, bounds) = (ctx.constraint, ctx.wiped, ctx.wiped_bounds);
            let reschedule = ctx.reschedule;
            if let (Some(level), Some(bj)) = (record, &mut self.backjumping) {
                bj.record_prunings(level, self.program.scopes[c as usize], &self.tree.level_of);
            }
            if self.reasons {
                self.emit_reasons(reasons);
            }
            if result.is_err() {
                self.queue.clear();
                return Err(Failure { constraint, wiped, origin: Origin::Propagator { propagator: c, bounds } });
            }
            if let Some(cost) = reschedule {
                self.queue.push_at(c, cost);
            }
            if self.state.pushes_traced()
                && let Some(failure) = self.cut_cycle()
            {
                self.queue.clear();
                return Err(failure);
            }
        }
    }

    /// A context that wakes the propagators watching what it changes and
    /// shows its removals to the observer: for the work of `constraint` by
    /// `propagator` (whose own changes do not wake it when `idempotent`), or
    /// by a nogood when `propagator` is [`NONE`].
    pub(super) fn waking_context(&mut self, constraint: u32, propagator: u32, idempotent: bool) -> Context<'_> {
        waking_context!(self, constraint, propagator, idempotent)
    }

    /// Forward checking: runs each constraint on `var` once, reasoning from the
    /// decided variables only. With `record`, backjumping learns what pruned what.
    /// `var` is the decision just made, or a variable a split narrowed
    /// without fixing it (which the propagators are then not told of as a
    /// decision: nothing new is assigned).
    pub(super) fn forward_check(&mut self, var: u32, record: bool) -> Result<(), Failure> {
        self.scratch.seen.clear();
        let level = self.tree.frames.len() as u32;
        for i in 0..self.program.watchers.of(var).len() {
            let c = self.program.watchers.of(var)[i].constraint;
            if !self.scratch.seen.insert(c as usize) {
                continue;
            }
            self.run.stats.propagations += 1;
            let reasons = self.reasons_start();
            let mut ctx = context!(self, c, Assigned::Decided(&self.tree.decided));
            ctx.observer = self.observer.as_deref_mut().map(|o| o as &mut dyn Observer);
            ctx.decision = self.tree.decided[var as usize].then_some(var);
            if record {
                ctx.pruned_log = self.backjumping.as_mut().map(|bj| &mut bj.log);
            }
            let result = self.program.propagators[c as usize].propagate(&mut ctx);
            let wiped = ctx.wiped;
            if self.reasons {
                self.emit_reasons(reasons);
            }
            if record {
                if let Some(bj) = &mut self.backjumping {
                    bj.record_prunings(level, self.program.scopes[c as usize], &self.tree.level_of);
                }
            }
            if result.is_err() {
                return Err(Failure { constraint: c, wiped, origin: Origin::Check });
            }
        }
        Ok(())
    }

    /// Plain backtracking: checks each constraint on `var` against the
    /// decisions, as the textbook algorithm does (Prosser 1993): against the
    /// earlier decisions from the first, so that a failing value's first
    /// conflict is its shallowest, the one Gaschnig's backjumping and CBJ
    /// blame. A constraint's turn is the deepest level among its other
    /// decided variables (ties by posting order).
    fn check(&mut self, var: u32) -> Result<(), Failure> {
        let mut order = std::mem::take(&mut self.scratch.checks);
        order.clear();
        self.scratch.seen.clear();
        let decided = &self.tree.decided;
        for watch in self.program.watchers.of(var) {
            let c = watch.constraint;
            if !self.scratch.seen.insert(c as usize) {
                continue;
            }
            let scope = self.program.scopes[c as usize];
            if self.program.partial_checks[c as usize] || scope.iter().all(|v| decided[v.index()]) {
                let turn = scope.iter().filter(|v| v.index != var).map(|v| self.tree.level_of[v.index()]).max();
                order.push((turn.unwrap_or(0), c));
            }
        }
        order.sort_unstable();
        let mut result = Ok(());
        let mut tuple: smallvec::SmallVec<[i64; 8]> = smallvec::SmallVec::new();
        for &(_, c) in &order {
            let scope = self.program.scopes[c as usize];
            let decided = &self.tree.decided;
            let ok = if let [x, y] = *scope
                && decided[x.index()]
                && decided[y.index()]
            {
                // Binary constraints, the classic case: no tuple to build.
                let values = [self.fixed_value(x.index), self.fixed_value(y.index)];
                self.run.stats.checks += 1;
                self.program.constraints[c as usize].is_satisfied(&values)
            } else if scope.iter().all(|v| decided[v.index()]) {
                tuple.clear();
                tuple.extend(scope.iter().map(|v| self.fixed_value(v.index)));
                self.run.stats.checks += 1;
                self.program.constraints[c as usize].is_satisfied(&tuple)
            } else {
                let mut ctx = context!(self, c, Assigned::Decided(&self.tree.decided));
                self.program.propagators[c as usize].check_partial(&mut ctx)
            };
            if !ok {
                result = Err(Failure::check(c));
                break;
            }
        }
        self.scratch.checks = order;
        result
    }

    /// The value of a variable with one value left.
    #[inline]
    fn fixed_value(&self, x: u32) -> i64 {
        self.state.value(x, self.state.min_pos(x))
    }

    /// Assigns `var` to position `pos` and propagates at the configured level.
    pub(super) fn decide(&mut self, var: u32, pos: u32) -> Result<(), Failure> {
        let level = self.tree.frames.len() as u32;
        self.tree.decided[var as usize] = true;
        self.tree.level_of[var as usize] = level;
        let point = self.nld_point();
        let change = self.state.fix_pos(var, pos);
        self.state.record(Cause::Decision);
        if !self.program.config.learning() {
            self.activity.save_phase(var, pos);
        }
        match self.program.propagation {
            Propagation::None => self.check(var),
            Propagation::ForwardChecking => self.forward_check(var, true),
            Propagation::Mac => {
                if change != Change::None {
                    self.wake_watchers(var);
                }
                self.nld_changed(point);
                self.propagate_queue(Some(level))
            }
        }
    }

    /// Narrows the interval of `var` to one half of its split at `at` (`var >
    /// at` when `upper`, else `var <= at`) and propagates at the configured
    /// level, as a decision would: plain backtracking checks the constraints
    /// once the half fixes the variable (which is then decided); forward
    /// checking runs the variable's constraints once; `mac` propagates to the
    /// fixpoint. `Err(None)` when the half is empty.
    pub(super) fn split(&mut self, var: u32, at: i64, upper: bool) -> Result<(), Option<Failure>> {
        let (lo, hi) = if upper { (at + 1, i64::MAX) } else { (i64::MIN, at) };
        let change = self.state.narrow_bounds(var, lo, hi);
        if change == Change::Wipeout {
            self.state.discard_unrecorded();
            return Err(None);
        }
        self.state.record(Cause::Decision);
        let level = self.tree.frames.len() as u32;
        if let Some(bj) = &mut self.backjumping {
            bj.record_split(level, var);
        }
        if self.state.size(var) == 1 {
            self.tree.decided[var as usize] = true;
            self.tree.level_of[var as usize] = level;
        }
        match self.program.propagation {
            Propagation::None if self.tree.decided[var as usize] => self.check(var).map_err(Some),
            Propagation::ForwardChecking => self.forward_check(var, true).map_err(Some),
            Propagation::Mac if change != Change::None => {
                self.wake_watchers(var);
                self.propagate_queue(Some(level)).map_err(Some)
            }
            _ => Ok(()),
        }
    }

    /// Removes position `pos` from `var` (a refuted decision) and propagates at
    /// the configured level. `Err(None)` when that empties the domain: the
    /// variable has no value left to try, which no constraint is to blame for.
    pub(super) fn refute(&mut self, var: u32, pos: u32) -> Result<(), Option<Failure>> {
        if self.observer.is_some() {
            let value = self.state.value(var, pos);
            self.emit(SearchEvent::Removed { var: self.var_id(var), value, constraint: None });
        }
        let point = self.nld_point();
        let change = self.state.remove_pos(var, pos);
        if change == Change::Wipeout {
            self.state.discard_unrecorded();
            return Err(None);
        }
        self.state.record(Cause::Decision);
        match change {
            Change::Wipeout => Err(None),
            Change::None => Ok(()),
            _ if self.program.propagation != Propagation::Mac => Ok(()),
            _ => {
                self.nld_changed(point);
                self.wake_watchers(var);
                self.propagate_queue(None).map_err(Some)
            }
        }
    }
}
