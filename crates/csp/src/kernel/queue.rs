//! Which propagators watch which variables, and the queue of propagators to run.

use std::collections::VecDeque;

use super::domains::Event;

/// A propagator's subscription to one variable.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Watch {
    /// The constraint on the variable (what variable-ordering heuristics count).
    pub constraint: u32,
    pub interest: Event,
    /// The propagator to wake: the constraint's own, or the one that propagates
    /// it together with others (a system of all-differents).
    pub propagator: u32,
}

/// For every variable, the propagators that watch it, in posting order
/// (compressed rows: the watches of variable `x` are `entries[offsets[x]..offsets[x + 1]]`).
#[derive(Clone, Debug, Default)]
pub(crate) struct Watchers {
    offsets: Vec<u32>,
    entries: Vec<Watch>,
    /// The same without the watches that wake nothing more than an earlier
    /// one of their variable (the same propagator, the same interest: the
    /// constraints of a system of all-differents): what waking reads.
    wake_offsets: Vec<u32>,
    wakes: Vec<Watch>,
}

impl Watchers {
    /// Builds the table from `(variable, watch)` pairs given in posting order.
    pub(crate) fn new(num_vars: usize, pairs: &[(u32, Watch)]) -> Watchers {
        let mut offsets = vec![0u32; num_vars + 1];
        for (var, _) in pairs {
            offsets[*var as usize + 1] += 1;
        }
        for i in 0..num_vars {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut entries = vec![Watch { constraint: 0, interest: Event::Domain, propagator: 0 }; pairs.len()];
        for (var, watch) in pairs {
            let slot = &mut fill[*var as usize];
            entries[*slot as usize] = *watch;
            *slot += 1;
        }
        let mut wake_offsets = Vec::with_capacity(num_vars + 1);
        let mut wakes: Vec<Watch> = Vec::with_capacity(entries.len());
        wake_offsets.push(0);
        for var in 0..num_vars {
            let first = wakes.len();
            for watch in &entries[offsets[var] as usize..offsets[var + 1] as usize] {
                let same = |w: &Watch| w.propagator == watch.propagator && w.interest == watch.interest;
                if !wakes[first..].iter().any(same) {
                    wakes.push(*watch);
                }
            }
            wake_offsets.push(wakes.len() as u32);
        }
        Watchers { offsets, entries, wake_offsets, wakes }
    }

    #[inline]
    pub(crate) fn of(&self, var: u32) -> &[Watch] {
        let start = self.offsets[var as usize] as usize;
        let end = self.offsets[var as usize + 1] as usize;
        &self.entries[start..end]
    }

    /// The watches of `var` that waking needs (the field `wakes`): in
    /// the same order, each propagator woken by them as by all of `of(var)`.
    #[inline]
    pub(crate) fn waking(&self, var: u32) -> &[Watch] {
        let start = self.wake_offsets[var as usize] as usize;
        let end = self.wake_offsets[var as usize + 1] as usize;
        &self.wakes[start..end]
    }
}

/// Propagators waiting to run: all cheap ones before any expensive one, each
/// queued at most once, first in first out within a cost class.
///
/// A fixpoint that converges slowly under that order (a chain `x[i] + 1 <=
/// x[i+1]`: first in first out moves the lower bounds along the whole chain
/// in one pass, but each upper bound one step per pass, n^2/2 calls) can
/// switch to sweeps ([`Queue::sweep`]): the cheap propagators queued run in
/// rounds, each round by propagator index, ascending and descending in turn
/// (Gauss-Seidel's symmetric sweeps), so that a change travels a chain
/// posted in either order in one round. The propagators woken during a
/// round that it has already passed wait for the next. The fixpoint is the
/// same (every propagator is monotone); only the order of the calls differs.
#[derive(Clone, Debug, Default)]
pub(crate) struct Queue {
    cheap: VecDeque<u32>,
    expensive: VecDeque<u32>,
    queued: Vec<bool>,
    cost: Vec<Cost>,
    /// Whether the cheap propagators run by sweeps, and their round.
    sweeping: bool,
    sweep: Sweep,
}

/// The round of a [`Queue`] under sweeps (kept between sweeps, so that its
/// buffer is allocated once).
#[derive(Clone, Debug, Default)]
struct Sweep {
    /// The current round, the place in it, and whether the next descends.
    round: Vec<u32>,
    at: usize,
    descending: bool,
}

impl Sweep {
    /// The next cheap propagator: the current round's next, or the first of
    /// the next round, made of the propagators queued in `cheap`.
    fn next(&mut self, cheap: &mut VecDeque<u32>) -> Option<u32> {
        if self.at == self.round.len() {
            self.round.clear();
            self.at = 0;
            self.round.extend(cheap.drain(..));
            if self.descending {
                self.round.sort_unstable_by(|a, b| b.cmp(a));
            } else {
                self.round.sort_unstable();
            }
            self.descending = !self.descending;
        }
        let c = *self.round.get(self.at)?;
        self.at += 1;
        Some(c)
    }
}

impl Queue {
    pub(crate) fn new(cost: Vec<Cost>) -> Queue {
        Queue {
            cheap: VecDeque::with_capacity(cost.len()),
            expensive: VecDeque::with_capacity(cost.len()),
            queued: vec![false; cost.len()],
            cost,
            sweeping: false,
            sweep: Sweep::default(),
        }
    }

    #[inline]
    pub(crate) fn push(&mut self, constraint: u32) {
        let c = constraint as usize;
        if !self.queued[c] {
            self.queued[c] = true;
            match self.cost[c] {
                Cost::Cheap => self.cheap.push_back(constraint),
                Cost::Expensive => self.expensive.push_back(constraint),
            }
        }
    }

    /// Queues `constraint` at `cost` instead of its usual cost (if it is not
    /// queued already).
    pub(crate) fn push_at(&mut self, constraint: u32, cost: Cost) {
        let c = constraint as usize;
        if !self.queued[c] {
            self.queued[c] = true;
            match cost {
                Cost::Cheap => self.cheap.push_back(constraint),
                Cost::Expensive => self.expensive.push_back(constraint),
            }
        }
    }

    /// The next propagator to run; `None` when the queue is empty (which
    /// ends sweeps).
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<u32> {
        let cheap = if self.sweeping { self.sweep.next(&mut self.cheap) } else { self.cheap.pop_front() };
        let Some(c) = cheap.or_else(|| self.expensive.pop_front()) else {
            self.sweeping = false;
            return None;
        };
        self.queued[c as usize] = false;
        Some(c)
    }

    /// Runs the cheap propagators by sweeps (see [`Queue`]) until the queue
    /// is empty or cleared: the first round ascends.
    pub(crate) fn sweep(&mut self) {
        if !self.sweeping {
            self.sweeping = true;
            self.sweep.descending = false;
            self.sweep.round.clear();
            self.sweep.at = 0;
        }
    }

    pub(crate) fn clear(&mut self) {
        self.sweeping = false;
        let at = std::mem::take(&mut self.sweep.at);
        let rest = self.sweep.round.drain(..).skip(at);
        for c in rest.chain(self.cheap.drain(..)).chain(self.expensive.drain(..)) {
            self.queued[c as usize] = false;
        }
    }
}

/// How expensive a propagator is; the engine runs all cheap propagators before
/// an expensive one (Gecode's propagator cost, Pumpkin's priorities).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Cost {
    /// Linear in the scope, or better.
    #[default]
    Cheap,
    /// Anything more: matching, tables, tuple enumeration.
    Expensive,
}
