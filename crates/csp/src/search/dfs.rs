//! Depth-first search over an explicit stack of frames (Gecode's
//! `DFS::next`): runs, steps, frames, backtracking and backjumping.
//!
//! One loop for both branchings. Each [`Frame`] holds a decision variable,
//! the trail mark taken before its first value, and a cursor over the values
//! still to try. With d-way branching the frame tries `x = v1`, then
//! `x = v2`, ..., each time from the state restored to the mark, so a node
//! is one assignment, as in the textbook algorithms the propagation levels
//! are named after; with binary branching it is one decision `x = v`,
//! refuted in its parent's state once its subtree is exhausted. A variable
//! with an interval domain, too wide to enumerate, is split instead, whatever
//! the branching: `x <= mid`, then `x > mid`, each from the frame's state.
//!
//! Under branch and bound (see the sibling module `optimize`) every node
//! must beat the best solution so far: the bound on the objective is imposed
//! before each variable choice and again whenever a frame is undone, which
//! also moves the frame's mark past it so that its other alternatives start
//! from the bounded state.

use std::time::Instant;

use super::Solver;
use super::clock::Clock;
use super::config::{Branching, Jumps, Limit, ValueOrder};
use super::optimize::BranchAndBound;
use super::outcome::Status;
use super::propagate::Failure;
use super::stats::Stats;
use crate::ids::VarId;
use crate::kernel::{Mark, ReversibleInt};
use crate::observer::SearchEvent;
use crate::rng::Rng;

/// How a frame splits its node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FrameKind {
    /// A d-way choice point: its values, one after the other.
    Enumerate,
    /// A binary decision: `x = v`, then `x ≠ v` in the parent's state.
    Binary,
    /// An interval split at `at`: `x <= at` and `x > at`, each from the
    /// frame's state.
    Split {
        /// The largest value of the lower half.
        at: i64,
        /// Whether the upper half goes first.
        upper_first: bool,
    },
}

/// One decision level.
#[derive(Clone, Copy, Debug)]
pub(super) struct Frame {
    pub(super) kind: FrameKind,
    pub(super) var: u32,
    /// The state before the first value was tried (under branch and bound,
    /// moved past the bound imposed once the frame is undone).
    pub(super) mark: Mark,
    /// Ascending: the next position to look at. Descending: one past it.
    /// Buffered orders: the index into [`Tree::orders`] of the next value.
    /// A split: the halves tried.
    pub(super) cursor: u32,
    /// Buffered orders: where this frame's values start and end in `orders`.
    /// A split: its number of halves in `end` (1 when the interval is a
    /// single value).
    pub(super) start: u32,
    pub(super) end: u32,
    /// Whether a value of this frame is currently assigned, and which (the
    /// last one tried, once it is undone; for a split, 1 for the upper half).
    pub(super) assigned: bool,
    pub(super) value: u32,
    /// The value order (the configuration's, or the variable's search phase's).
    pub(super) order: ValueOrder,
}

/// Where a run is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    /// Built or reset; the root has not been propagated.
    Fresh,
    /// Searching; `descend` says whether to pick a new variable (true) or try the
    /// next value of the top frame (false).
    Searching { descend: bool },
    /// Done; further steps report the same.
    Done(Status),
}

/// What a frame tries next.
enum Alternative {
    /// Its variable takes the value at this position.
    Value(u32),
    /// Binary branching: its decision, at this position, is refuted (in the
    /// parent's state).
    Refute(u32),
    /// A split frame tries its lower half (`false`) or its upper half.
    Half(bool),
    /// A d-way or split frame has tried every value.
    Exhausted,
}

/// What one step of the search found.
pub(super) enum Step {
    Solution,
    Exhausted,
    Limit(Limit),
}

/// What a run did so far, and where it is.
#[derive(Debug)]
pub(super) struct Run {
    pub(super) stats: Stats,
    /// Per constraint: values it removed and failures it caused in this run
    /// (pruning attribution; dom/wdeg's weights are one plus the failures).
    pub(super) pruned_by: Vec<u64>,
    pub(super) failed_by: Vec<u64>,
    pub(super) phase: Phase,
    pub(super) started: Instant,
    /// The time limit's clock.
    pub(super) clock: Clock,
    /// The random sequence of this run (random value order), from the seed.
    pub(super) rng: Rng,
    /// Branch and bound's state, when this run optimises.
    pub(super) optimizing: Option<BranchAndBound>,
    /// The values of the run's last solution, by variable (empty before
    /// the first): what [`ValueOrder::SolutionGuided`](super::config::ValueOrder::SolutionGuided) tries first.
    pub(super) last_solution: Vec<i64>,
    /// The explanations conflict analysis asked for: work for the clock.
    pub(super) explanations: u64,
}

impl Run {
    pub(super) fn new(constraints: usize, seed: u64) -> Run {
        let started = Instant::now();
        Run {
            stats: Stats::default(),
            // One more slot: the values the nogoods remove (search that learns).
            pruned_by: vec![0; constraints + 1],
            failed_by: vec![0; constraints],
            phase: Phase::Fresh,
            started,
            clock: Clock::start(started, None, None, None),
            rng: Rng::new(seed),
            optimizing: None,
            last_solution: Vec::new(),
            explanations: 0,
        }
    }

    /// The work the time limit's clock counts: nodes, propagator calls and
    /// the explanations conflict analysis asks for.
    #[inline]
    pub(super) fn work(&self) -> u64 {
        self.stats.nodes + self.stats.propagations + self.explanations
    }
}

/// The decisions of the search.
#[derive(Debug)]
pub(super) struct Tree {
    pub(super) frames: Vec<Frame>,
    /// The value orders of the frames that buffer one (random, least constraining).
    pub(super) orders: Vec<u32>,
    /// Which variables the search decided.
    pub(super) decided: Vec<bool>,
    /// The level at which each variable was decided (0: not decided).
    pub(super) level_of: Vec<u32>,
    /// The variables not known to be assigned, as a sparse set (see
    /// `Solver::compact_free`): `free[..free_count]`, only the count trailed.
    pub(super) free: Vec<u32>,
    pub(super) free_count: ReversibleInt,
}

impl Tree {
    pub(super) fn new(num_vars: usize, free_count: ReversibleInt) -> Tree {
        Tree {
            frames: Vec::new(),
            orders: Vec::new(),
            decided: vec![false; num_vars],
            level_of: vec![0; num_vars],
            free: (0..num_vars as u32).collect(),
            free_count,
        }
    }
}

/// What every run assumes at the root (see [`Solver::assume`]).
#[derive(Debug, Default)]
pub(super) struct Assumptions {
    /// Variables fixed to a position, and positions removed.
    pub(super) fixed: Vec<(u32, u32)>,
    pub(super) excluded: Vec<(u32, u32)>,
    /// The same for interval domains, by value (only a bound can be removed).
    pub(super) fixed_values: Vec<(u32, i64)>,
    pub(super) excluded_values: Vec<(u32, i64)>,
    /// An assumption asked for a value the variable does not have.
    pub(super) failed: bool,
}

impl Solver<'_> {
    /// Puts the solver back at the root of a fresh run: the domains and the
    /// propagators' reversible state come back from the snapshot taken when the
    /// solver was built (a block copy, cheaper than undoing a long trail), the
    /// assumptions are applied again, and the rest is reset here.
    pub(super) fn start_run(&mut self) {
        self.state.restore(&self.program.initial);
        let mut failed = self.assumptions.failed;
        for &(var, pos) in &self.assumptions.fixed {
            failed |= self.state.fix_pos(var, pos) == crate::kernel::Change::Wipeout;
        }
        for &(var, pos) in &self.assumptions.excluded {
            failed |= self.state.remove_pos(var, pos) == crate::kernel::Change::Wipeout;
        }
        for &(var, value) in &self.assumptions.fixed_values {
            failed |= self.state.narrow_bounds(var, value, value) == crate::kernel::Change::Wipeout;
        }
        for &(var, value) in &self.assumptions.excluded_values {
            let bounds = self.state.interval(var);
            let change = if value == bounds.min {
                self.state.narrow_bounds(var, value + 1, bounds.max)
            } else if value == bounds.max {
                self.state.narrow_bounds(var, bounds.min, value - 1)
            } else {
                crate::kernel::Change::None
            };
            failed |= change == crate::kernel::Change::Wipeout;
        }
        self.tree.frames.clear();
        self.tree.orders.clear();
        self.tree.decided.iter_mut().for_each(|d| *d = false);
        self.tree.level_of.iter_mut().for_each(|l| *l = 0);
        self.run.pruned_by.iter_mut().for_each(|n| *n = 0);
        self.run.failed_by.iter_mut().for_each(|n| *n = 0);
        if let Some(future) = &mut self.future {
            future.reset();
        }
        if let Some(choices) = &mut self.choices {
            choices.reset();
        }
        self.queue.clear();
        self.run.rng = Rng::new(self.program.config.seed);
        if let Some(bj) = &mut self.backjumping {
            bj.reset();
        }
        self.run.stats = Stats::default();
        self.restart_clock_reset();
        // With the history on, the assumptions are facts of the root; a
        // search that learns starts without nogoods, activities or phases.
        self.state.set_level(0);
        self.state.record(crate::kernel::Cause::Root);
        if let Some(learning) = &mut self.learning {
            learning.reset();
        }
        if let Some(nld) = &mut self.nld {
            nld.reset();
        }
        self.activity.reset();
        self.chb.reset();
        self.lrb.reset();
        self.run.started = Instant::now();
        let limits = &self.program.config.limits;
        self.run.clock = Clock::start(self.run.started, limits.time, limits.cpu_time, self.stop.clone());
        self.run.optimizing = None;
        self.run.last_solution.clear();
        self.run.phase = if failed { Phase::Done(Status::Complete) } else { Phase::Fresh };
    }

    /// Runs the search until the next solution, the end, or a limit.
    pub(super) fn step(&mut self, count_limit: Option<u64>) -> Step {
        let begin = Instant::now();
        let step = if self.learning.is_some() { self.step_learning(count_limit) } else { self.step_inner(count_limit) };
        self.run.stats.elapsed += begin.elapsed();
        step
    }

    /// Where a step starts: whether to descend (the root propagated on a
    /// fresh run) and the solution limit, or the step's answer when the run
    /// is over.
    pub(super) fn resume(&mut self, count_limit: Option<u64>) -> Result<(bool, Option<u64>), Step> {
        let solution_limit = match (self.program.config.limits.solutions, count_limit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let descend = match self.run.phase {
            Phase::Done(Status::LimitReached(limit)) => return Err(Step::Limit(limit)),
            Phase::Done(_) => return Err(Step::Exhausted),
            // A limit of zero solutions is reached before the search starts
            // (the check after each solution comes too late for it).
            _ if solution_limit.is_some_and(|k| self.run.stats.solutions >= k) => {
                return Err(self.finish(Status::LimitReached(Limit::Solutions)));
            }
            Phase::Fresh => match self.propagate_root() {
                _ if self.run.clock.expired() => return Err(self.finish(Status::LimitReached(self.run.clock.limit()))),
                Ok(()) => {
                    self.note_root_bound();
                    true
                }
                Err(_) => return Err(self.finish(Status::Complete)),
            },
            Phase::Searching { descend } => descend,
        };
        Ok((descend, solution_limit))
    }

    /// The search loop, for both branchings: a d-way frame tries its values
    /// one after the other; a binary frame is one decision `x = v`, and its
    /// alternative is `x ≠ v`, propagated in its parent's state once the
    /// frame is popped (the search then chooses again, maybe another variable).
    fn step_inner(&mut self, count_limit: Option<u64>) -> Step {
        let (mut descend, solution_limit) = match self.resume(count_limit) {
            Ok(resumed) => resumed,
            Err(step) => return step,
        };
        if !descend && self.bisection_restart() {
            self.restart_now();
            descend = true;
        }
        // Loop invariant: the state is the propagated state of the decisions
        // of `frames` (each frame with `assigned` holds its current value) and
        // of the refutations made since them; when `descend` is false the top
        // frame's current value, if any, failed or its subtree is exhausted: it
        // must be undone and the frame's next alternative tried. Under branch
        // and bound, a state the search descends from satisfies the bound.
        loop {
            if self.run.clock.expired() {
                // Propagation stopped half-way: the state is no fixpoint.
                return self.finish(Status::LimitReached(self.run.clock.limit()));
            }
            if descend {
                let level = self.tree.frames.len() as u32;
                // The nogoods from restarts failed at the root: no solution.
                if level == 0 && self.nld.as_ref().is_some_and(|nld| nld.failed) {
                    return self.finish(Status::Complete);
                }
                if let Err(failure) = self.impose_bound(level) {
                    self.bound_failed(level, failure);
                    descend = false;
                    continue;
                }
                // Probing strengthens the node's fixpoint; a failure fails
                // the node, as its propagation would have.
                if self.program.config.probing.is_on() {
                    if let Err(failure) = self.probe() {
                        self.record_failure(failure);
                        descend = self.restart_if_due();
                        continue;
                    }
                    if self.run.clock.expired() {
                        continue;
                    }
                }
                if let Some(bj) = &mut self.backjumping {
                    bj.passed(level);
                }
                let Some(var) = self.select_var() else {
                    return self.found_solution(solution_limit);
                };
                // A binary frame is one decision: it is opened (its values
                // ordered) only when the limits allow one more.
                if self.program.branching == Branching::Binary {
                    if let Some(limit) = self.limit_reached() {
                        return self.finish(Status::LimitReached(limit));
                    }
                }
                self.push_frame(var);
                self.enter_backjumping(var);
                if let Some(nld) = &mut self.nld {
                    nld.entered(self.tree.frames.len() as u32);
                }
            }
            let Some(&frame) = self.tree.frames.last() else {
                return self.finish(Status::Complete);
            };
            let level = self.tree.frames.len() as u32;
            let mut exhausted = false;
            if frame.assigned {
                self.retract(frame, level);
                // Under branch and bound, the frame's state may predate the
                // best solution: bound it, once for all its alternatives.
                // What that propagates lasts until the level above is undone.
                match self.impose_bound(level - 1) {
                    Ok(true) => self.tree.frames.last_mut().expect("a frame").mark = self.state.mark(),
                    Ok(false) => {}
                    Err(failure) => {
                        self.bound_failed(level, failure);
                        exhausted = true;
                    }
                }
            }
            let alternative = if exhausted { Alternative::Exhausted } else { self.next_alternative(frame) };
            let pos = match alternative {
                Alternative::Value(pos) => {
                    // A d-way frame's value before this one is done with.
                    if let (Some(nld), true) = (&mut self.nld, frame.assigned) {
                        nld.negative(level - 1, frame.var, frame.value);
                    }
                    pos
                }
                Alternative::Refute(pos) => {
                    let frame = self.tree.frames.pop().expect("a frame");
                    self.tree.orders.truncate(frame.start as usize);
                    if let Some(nld) = &mut self.nld {
                        nld.negative(self.tree.frames.len() as u32, frame.var, pos);
                    }
                    descend = match self.refute(frame.var, pos) {
                        Ok(()) => true,
                        Err(Some(failure)) => {
                            self.record_failure(failure);
                            self.restart_if_due()
                        }
                        Err(None) => false,
                    };
                    continue;
                }
                Alternative::Half(upper) => {
                    if let Some(limit) = self.limit_reached() {
                        self.tree.frames.last_mut().expect("a frame").assigned = false;
                        return self.finish(Status::LimitReached(limit));
                    }
                    descend = self.try_half(frame, level, upper);
                    continue;
                }
                Alternative::Exhausted => {
                    if self.backjumping.is_some() {
                        if self.backjump(frame, level).is_none() {
                            return self.finish(Status::Complete);
                        }
                    } else {
                        let frame = self.tree.frames.pop().expect("a frame");
                        self.tree.orders.truncate(frame.start as usize);
                    }
                    descend = false;
                    continue;
                }
            };
            if let Some(limit) = self.limit_reached() {
                self.tree.frames.last_mut().expect("a frame").assigned = false;
                return self.finish(Status::LimitReached(limit));
            }
            let top = self.tree.frames.last_mut().expect("a frame");
            top.assigned = true;
            top.value = pos;
            self.run.stats.nodes += 1;
            self.run.stats.max_depth = self.run.stats.max_depth.max(level);
            if self.observer.is_some() {
                let value = self.state.value(frame.var, pos);
                self.emit(SearchEvent::Decision { var: self.var_id(frame.var), value, depth: level });
            }
            descend = match self.decide(frame.var, pos) {
                Ok(()) => true,
                Err(failure) => {
                    self.record_failure(failure);
                    if let Some(bj) = &mut self.backjumping {
                        bj.explain(level, self.program.scopes[failure.constraint as usize], &self.tree.level_of);
                    }
                    self.restart_if_due()
                }
            };
        }
    }

    /// Backjumping: a frame was pushed at the top for `var`. Its conflict set
    /// starts empty, or, for graph-based backjumping, with the decisions (and
    /// prunings) of its neighbours in the constraint graph.
    fn enter_backjumping(&mut self, var: u32) {
        let Some(bj) = &mut self.backjumping else { return };
        let level = self.tree.frames.len() as u32;
        bj.enter(level);
        if bj.jumps() == Jumps::GraphBased {
            for watch in self.program.watchers.of(var) {
                bj.blame_neighbours(level, self.program.scopes[watch.constraint as usize], &self.tree.level_of);
            }
        }
    }

    /// Under branch and bound, no better solution extends the state at
    /// `level` (after its value, or, once undone, before it): the failure of
    /// the constraint that found it, or of the objective's own domain
    /// (`None`), is counted and, under backjumping, explained to the level.
    fn bound_failed(&mut self, level: u32, failure: Option<Failure>) {
        if let Some(failure) = failure {
            self.record_failure(failure);
        }
        let objective = self.objective_var().map(|x| [self.var_id(x)]);
        let scope: &[VarId] = match (failure, &objective) {
            (Some(failure), _) => self.program.scopes[failure.constraint as usize],
            (None, Some(var)) => var,
            (None, None) => return,
        };
        if let Some(bj) = &mut self.backjumping {
            bj.explain(level, scope, &self.tree.level_of);
        }
    }

    /// Tries one half of the split `frame` at `level`; whether to descend.
    fn try_half(&mut self, frame: Frame, level: u32, upper: bool) -> bool {
        let FrameKind::Split { at, .. } = frame.kind else { unreachable!("only a split frame has halves") };
        let top = self.tree.frames.last_mut().expect("a frame");
        top.assigned = true;
        top.value = u32::from(upper);
        self.run.stats.nodes += 1;
        self.run.stats.max_depth = self.run.stats.max_depth.max(level);
        if self.observer.is_some() {
            self.emit(SearchEvent::Split { var: self.var_id(frame.var), at, upper, depth: level });
        }
        match self.split(frame.var, at, upper) {
            Ok(()) => true,
            Err(Some(failure)) => {
                self.record_failure(failure);
                if let Some(bj) = &mut self.backjumping {
                    bj.explain(level, self.program.scopes[failure.constraint as usize], &self.tree.level_of);
                }
                self.restart_if_due()
            }
            // The half is empty (the bound of branch and bound took it).
            Err(None) => false,
        }
    }

    /// What the top frame (a copy of it as it was before its value, if any,
    /// was undone) tries next.
    fn next_alternative(&mut self, frame: Frame) -> Alternative {
        match frame.kind {
            FrameKind::Enumerate => self.next_value().map_or(Alternative::Exhausted, Alternative::Value),
            // Tried: `x = v` is done with, `x ≠ v` is next.
            FrameKind::Binary if frame.assigned => Alternative::Refute(frame.value),
            FrameKind::Binary => Alternative::Value(self.next_value().expect("an unassigned variable has a value")),
            FrameKind::Split { upper_first, .. } => {
                if frame.cursor >= frame.end {
                    return Alternative::Exhausted;
                }
                self.tree.frames.last_mut().expect("a frame").cursor += 1;
                Alternative::Half((frame.cursor == 1) != upper_first)
            }
        }
    }

    /// Every variable is assigned: counts and reports the solution; the next
    /// step goes on from it unless `solution_limit` is reached.
    pub(super) fn found_solution(&mut self, solution_limit: Option<u64>) -> Step {
        // Every variable fixed is no solution when the clock stopped the
        // last propagation half-way (the bound's, imposed after the loop's
        // check; a portfolio's stop signal makes that likely): its state is
        // no fixpoint, so the assignment was never checked.
        if self.run.clock.expired() {
            return self.finish(Status::LimitReached(self.run.clock.limit()));
        }
        self.run.stats.solutions += 1;
        let count = self.run.stats.solutions;
        if let Some(bj) = &mut self.backjumping {
            bj.solution_found(self.tree.frames.len() as u32);
        }
        self.emit(SearchEvent::Solution { count });
        if self.program.guided {
            let state = &self.state;
            self.run.last_solution.clear();
            self.run.last_solution.extend((0..state.num_vars() as u32).map(|x| state.value(x, state.min_pos(x))));
        }
        self.run.phase = Phase::Searching { descend: false };
        if self.run.optimizing.is_some() && self.improved(count) {
            // Without an objective variable every solution is as good: the
            // first is optimal.
            self.run.phase = Phase::Done(Status::Complete);
            return Step::Solution;
        }
        if solution_limit.is_some_and(|k| count >= k) {
            self.run.phase = Phase::Done(Status::LimitReached(Limit::Solutions));
        }
        Step::Solution
    }

    /// Undoes the current value of `frame`, the decision at `level`.
    fn retract(&mut self, frame: Frame, level: u32) {
        self.state.undo_to(frame.mark);
        self.tree.decided[frame.var as usize] = false;
        self.tree.level_of[frame.var as usize] = 0;
        if let Some(bj) = &mut self.backjumping {
            bj.unassign(level);
        }
        self.run.stats.backtracks += 1;
        self.emit(SearchEvent::Backtrack { var: self.var_id(frame.var), depth: level });
    }

    /// Backjumping from the exhausted top `frame` at `level`: pops every
    /// level above the one its conflict set points to. `None` when no level
    /// is left to go back to.
    fn backjump(&mut self, frame: Frame, level: u32) -> Option<()> {
        let target = self.backjumping.as_mut().expect("backjumping is on").jump_from(level, frame.var)?;
        if target + 1 < level {
            self.run.stats.backjumps += 1;
        }
        let top = self.tree.frames.pop().expect("a frame");
        self.tree.orders.truncate(top.start as usize);
        while self.tree.frames.len() as u32 > target {
            let depth = self.tree.frames.len() as u32;
            let popped = self.tree.frames.pop().expect("a frame");
            if popped.assigned {
                self.retract(popped, depth);
            }
            self.tree.orders.truncate(popped.start as usize);
        }
        Some(())
    }

    /// Ends the run with `status`.
    pub(super) fn finish(&mut self, status: Status) -> Step {
        self.run.phase = Phase::Done(status);
        match status {
            Status::LimitReached(limit) => Step::Limit(limit),
            _ => Step::Exhausted,
        }
    }

    /// The limit that stops the run before another decision, if any.
    pub(super) fn limit_reached(&mut self) -> Option<Limit> {
        let limits = &self.program.config.limits;
        if limits.nodes.is_some_and(|n| self.run.stats.nodes >= n) {
            return Some(Limit::Nodes);
        }
        let work = self.run.work();
        self.run.clock.tick(work).then(|| self.run.clock.limit())
    }

    /// Sends `event` to the observer, if there is one.
    #[inline]
    pub(super) fn emit(&mut self, event: SearchEvent) {
        if let Some(observer) = &mut self.observer {
            observer.on_event(&event);
        }
    }

    /// The id of the model's variable `index`.
    #[inline]
    pub(super) fn var_id(&self, index: u32) -> VarId {
        VarId { index, model: self.program.model.id() }
    }
}
