//! Probing (singleton consistency, see [`Probing`]) inside a node: once the
//! node's propagation has reached its fixpoint, each value of the probed
//! variables is assumed at a scratch mark, propagated and undone; a value
//! whose assumption fails is removed at the node, as a refutation would be,
//! and the removal propagated. Sweeps repeat until one removes nothing.
//!
//! Two ways to make it cheaper, each an option: a probe may propagate
//! cheaply ([`SolveConfig::cheap_probes`](super::SolveConfig::cheap_probes):
//! the propagators are told, [`Context::is_cheap`](crate::Context::is_cheap),
//! and may skip their expensive reasoning), and a sweep may probe only the
//! variables near a change since the last sweep the domains descend from
//! ([`SolveConfig::touched_probes`](super::SolveConfig::touched_probes)).
//! Both only probe less: a removal is still a value whose assumption
//! fails under sound propagation.

use super::Solver;
use super::config::Probing;
use super::propagate::{Failure, Origin};
use crate::kernel::{Cause, Change, NONE, ReversibleInt, TrailPoint};
use crate::observer::SearchEvent;

/// What touched probing keeps between sweeps: the sweeps of the current
/// branch, so that the next one can find what changed since the newest the
/// domains descend from (the pattern of [`Fixpoints`](crate::Fixpoints):
/// ids in a reversible integer that the undo takes back).
#[derive(Debug, Default)]
pub(super) struct Sweeps {
    /// The id of the newest sweep the domains descend from (0 for none);
    /// `None` without touched probing.
    newest: Option<ReversibleInt>,
    /// The sweeps of the current branch, oldest first: each one's id and
    /// the trail when it started.
    started: Vec<(i64, TrailPoint)>,
    /// The next id to give.
    next: i64,
    /// Per variable, whether the sweep probes it (when `filtered`).
    near: Vec<bool>,
    /// Scratch: the variables changed since the last sweep.
    changed: Vec<u32>,
}

impl Sweeps {
    /// Whether the sweep started last probes `x`, when it is filtered.
    pub(super) fn is_near(&self, x: u32) -> bool {
        self.near[x as usize]
    }

    /// The sweeps of a solver of `num_vars` variables; `newest` is the
    /// reversible integer allocated for them, under touched probing.
    pub(super) fn new(num_vars: usize, newest: Option<ReversibleInt>) -> Sweeps {
        match newest {
            None => Sweeps::default(),
            Some(cell) => Sweeps { newest: Some(cell), next: 1, near: vec![false; num_vars], ..Sweeps::default() },
        }
    }
}

impl Solver<'_> {
    /// Probes the node's state, a propagated fixpoint, until a sweep removes
    /// nothing. `Err` when a removal's propagation fails or a variable loses
    /// its last value (a failure without a constraint to blame). When the
    /// time limit expires it stops: the caller's loop sees the clock.
    pub(super) fn probe(&mut self) -> Result<(), Failure> {
        let probing = self.program.config.probing;
        loop {
            let filtered = self.start_sweep();
            let mut removed = false;
            for x in 0..self.state.num_vars() as u32 {
                let size = self.state.size(x);
                if size <= 1 || self.state.is_interval(x) || (probing == Probing::Bivalue && size != 2) {
                    continue;
                }
                if filtered && !self.sweeps.near[x as usize] {
                    continue;
                }
                let mut next = Some(self.state.min_pos(x));
                while let Some(pos) = next {
                    if self.run.clock.expired() {
                        return Ok(());
                    }
                    if self.probe_fails(x, pos) {
                        removed = true;
                        self.remove_probed(x, pos)?;
                    }
                    // The removal's propagation may have fixed `x`: nothing
                    // is left to probe then.
                    next = if self.state.size(x) > 1 { self.state.next_pos(x, pos + 1) } else { None };
                }
            }
            if !removed {
                return Ok(());
            }
        }
    }

    /// Starts a sweep: under touched probing, marks in `sweeps.near` the
    /// variables that share a constraint with one changed since the newest
    /// sweep the domains descend from, and returns whether it did (`false`:
    /// every variable is probed, as without touched probing, or when there
    /// is no such sweep); then notes this sweep's start.
    pub(super) fn start_sweep(&mut self) -> bool {
        let Some(cell) = self.sweeps.newest else { return false };
        let sweeps = &mut self.sweeps;
        let id = self.state.int(cell);
        while sweeps.started.last().is_some_and(|&(top, _)| top > id) {
            sweeps.started.pop();
        }
        let since = sweeps.started.last().filter(|&&(top, _)| top == id && id != 0).map(|&(_, point)| point);
        sweeps.changed.clear();
        let changed = &mut sweeps.changed;
        let filtered = since.is_some_and(|point| self.state.changed_since(point, |x| changed.push(x as u32)));
        if filtered {
            sweeps.near.fill(false);
            for &x in &sweeps.changed {
                for watch in self.program.watchers.of(x) {
                    for var in self.program.scopes[watch.constraint as usize] {
                        sweeps.near[var.index()] = true;
                    }
                }
            }
        }
        let id = sweeps.next;
        sweeps.next += 1;
        self.state.set_int(cell, id);
        sweeps.started.push((id, self.state.trail_point()));
        filtered
    }

    /// Whether assuming `x` = the value at `pos` fails under propagation
    /// (cheap propagation under [`SolveConfig::cheap_probes`](super::SolveConfig::cheap_probes)).
    /// Everything the probe did is undone; the observer (and its reasons)
    /// sees none of it.
    fn probe_fails(&mut self, x: u32, pos: u32) -> bool {
        self.run.stats.probes += 1;
        let mark = self.state.mark();
        let observer = self.observer.take();
        let reasons = std::mem::replace(&mut self.reasons, false);
        self.cheap = self.program.config.cheap_probes;
        let point = self.nld_point();
        if self.state.fix_pos(x, pos) != Change::None {
            self.wake_watchers(x);
        }
        self.state.record(Cause::Decision);
        self.nld_changed(point);
        let failed = self.propagate_queue(None).is_err();
        self.cheap = false;
        self.state.undo_to(mark);
        self.observer = observer;
        self.reasons = reasons;
        failed
    }

    /// Removes the value at `pos` from `x`, its probe having failed, and
    /// propagates the removal to a fixpoint.
    fn remove_probed(&mut self, x: u32, pos: u32) -> Result<(), Failure> {
        self.run.stats.probe_removals += 1;
        if self.observer.is_some() {
            let value = self.state.value(x, pos);
            self.emit(SearchEvent::Removed { var: self.var_id(x), value, constraint: None });
        }
        let point = self.nld_point();
        if self.state.remove_pos(x, pos) == Change::Wipeout {
            self.state.discard_unrecorded();
            return Err(Failure { constraint: NONE, wiped: Some(x), origin: Origin::Check });
        }
        self.state.record(Cause::Decision);
        self.wake_watchers(x);
        self.nld_changed(point);
        self.propagate_queue(None)
    }
}
