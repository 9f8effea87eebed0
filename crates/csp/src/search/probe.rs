//! Probing (singleton consistency, see [`Probing`]) inside a node: once the
//! node's propagation has reached its fixpoint, each value of the probed
//! variables is assumed at a scratch mark, propagated and undone; a value
//! whose assumption fails is removed at the node, as a refutation would be,
//! and the removal propagated. Sweeps repeat until one removes nothing.

use super::Solver;
use super::config::Probing;
use super::propagate::{Failure, Origin};
use crate::kernel::{Cause, Change, NONE};
use crate::observer::SearchEvent;

impl Solver<'_> {
    /// Probes the node's state, a propagated fixpoint, until a sweep removes
    /// nothing. `Err` when a removal's propagation fails or a variable loses
    /// its last value (a failure without a constraint to blame). When the
    /// time limit expires it stops: the caller's loop sees the clock.
    pub(super) fn probe(&mut self) -> Result<(), Failure> {
        let probing = self.program.config.probing;
        loop {
            let mut removed = false;
            for x in 0..self.state.num_vars() as u32 {
                let size = self.state.size(x);
                if size <= 1 || self.state.is_interval(x) || (probing == Probing::Bivalue && size != 2) {
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

    /// Whether assuming `x` = the value at `pos` fails under propagation.
    /// Everything the probe did is undone; the observer (and its reasons)
    /// sees none of it.
    fn probe_fails(&mut self, x: u32, pos: u32) -> bool {
        self.run.stats.probes += 1;
        let mark = self.state.mark();
        let observer = self.observer.take();
        let reasons = std::mem::replace(&mut self.reasons, false);
        let point = self.nld_point();
        if self.state.fix_pos(x, pos) != Change::None {
            self.wake_watchers(x);
        }
        self.state.record(Cause::Decision);
        self.nld_changed(point);
        let failed = self.propagate_queue(None).is_err();
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
