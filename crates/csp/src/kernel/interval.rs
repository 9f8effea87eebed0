//! Interval domains: a range too wide for a bitset, kept as its two bounds.
//!
//! A variable over `0..=2^62` cannot be a bitset, and one over `0..=10^7`
//! should not be: every decision and every bound change would walk (and
//! trail) its words. Above the solver's bitset limit
//! ([`SolveConfig::bitset_limit`](crate::SolveConfig::bitset_limit)) a range
//! domain is an interval: a constant 16 bytes of bounds, each change one trail
//! entry, its size read in O(1) from the slot like a bitset's.
//!
//! An interval keeps no holes. Removing an inner value does nothing, which is
//! sound: a propagator may leave values that have no support, as long as it
//! detects a violated constraint once its variables are fixed (the engine's
//! contract, see [`Propagator`](crate::Propagator)). Removing a bound moves it
//! by one. [`Context::retain`] tests values from each end only, and the search
//! splits an interval (`x <= mid`, then `x > mid`) instead of enumerating it.

use super::context::{Conflict, Context};
use super::domains::{Change, Event, Interval, State, ValueMap};
use crate::ids::{ConstraintId, VarId};
use crate::observer::SearchEvent;

/// How many values [`Context::retain`] tests from each end of an interval
/// before it keeps the rest unchecked.
pub(crate) const RETAIN_PROBES: u32 = 64;

/// Interval narrowings a fixpoint makes before the next ones are traced
/// ([`Pushes`]); doubled each time a trace shows no cycle to cut.
pub(crate) const PUSHES_BEFORE_TRACE: u64 = 1 << 14;

/// How many narrowings a trace holds before the search reads it.
pub(crate) const TRACE: usize = 1 << 12;

/// One traced narrowing: `var`'s upper bound (`upper`) or lower bound moved,
/// by constraint `constraint`'s propagator (`u32::MAX` for a nogood).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Push {
    pub(crate) var: u32,
    pub(crate) upper: bool,
    pub(crate) constraint: u32,
}

/// Slow convergence (a cycle of propagators moving bounds by one per call,
/// `x >= y + 1` and `y >= x + 1` over wide domains) is watched for at no
/// cost until it happens: interval narrowings are counted, and once a
/// fixpoint (`State::start_pushes`) has made [`PUSHES_BEFORE_TRACE`], the
/// next [`TRACE`] are traced (who moved which bound), for the search to look
/// for a cycle of linear constraints among them (`search/cycle.rs`). Bitset
/// domains never come here.
#[derive(Clone, Debug)]
pub(crate) struct Pushes {
    /// Interval narrowings so far.
    count: u64,
    /// The count from which narrowings are traced (`u64::MAX`: none, as
    /// outside a fixpoint's propagation).
    from: u64,
    /// How many narrowings the current fixpoint makes before tracing next.
    gap: u64,
    /// [`PUSHES_BEFORE_TRACE`] and [`TRACE`], or less in tests that reach
    /// the tracing on small domains.
    pub(crate) first: u64,
    pub(crate) window: usize,
    /// The traced narrowings.
    pub(crate) trace: Vec<Push>,
}

impl Default for Pushes {
    fn default() -> Pushes {
        Pushes {
            count: 0,
            from: u64::MAX,
            gap: PUSHES_BEFORE_TRACE,
            first: PUSHES_BEFORE_TRACE,
            window: TRACE,
            trace: Vec::new(),
        }
    }
}

impl State {
    /// A fixpoint's propagation starts: its narrowings are traced once it
    /// has made [`PUSHES_BEFORE_TRACE`].
    #[inline]
    pub(crate) fn start_pushes(&mut self) {
        let pushes = &mut self.pushes;
        pushes.gap = pushes.first;
        pushes.from = pushes.count + pushes.gap;
        pushes.trace.clear();
    }

    /// Whether a full trace waits to be read.
    #[inline]
    pub(crate) fn pushes_traced(&self) -> bool {
        self.pushes.trace.len() >= self.pushes.window
    }

    /// The trace was read and showed nothing to cut: trace again after
    /// twice as many narrowings.
    pub(crate) fn skip_pushes(&mut self) {
        let pushes = &mut self.pushes;
        pushes.gap = pushes.gap.saturating_mul(2);
        pushes.from = pushes.count.saturating_add(pushes.gap);
        pushes.trace.clear();
    }

    /// Ends the tracing until the next fixpoint starts.
    pub(crate) fn stop_pushes(&mut self) {
        self.pushes.from = u64::MAX;
        self.pushes.trace.clear();
    }
}

/// The number of values of `min..=max`, saturated at `u32::MAX` (what a
/// slot holds).
#[inline]
pub(super) fn saturated_width(min: i64, max: i64) -> u32 {
    u32::try_from(width(min, max)).unwrap_or(u32::MAX)
}

/// The number of values of `min..=max` (0 when `min > max`). Values lie in
/// `-2^62..=2^62`, so the width fits a `u64`.
#[inline]
fn width(min: i64, max: i64) -> u64 {
    (i128::from(max) - i128::from(min) + 1).clamp(0, i128::from(u64::MAX)) as u64
}

impl State {
    /// Whether `var`'s domain is an interval (bounds only).
    #[inline]
    pub(crate) fn is_interval(&self, var: u32) -> bool {
        matches!(self.maps[var as usize], ValueMap::Interval(_))
    }

    /// The bounds of an interval domain.
    #[inline]
    fn interval_index(&self, var: u32) -> usize {
        match self.maps[var as usize] {
            ValueMap::Interval(i) => i as usize,
            _ => unreachable!("variable {var} is not an interval"),
        }
    }

    /// The bounds of an interval domain.
    #[inline]
    pub(crate) fn interval(&self, var: u32) -> Interval {
        self.intervals[self.interval_index(var)]
    }

    /// The number of values of `var`'s domain, exact for an interval too.
    #[inline]
    pub(crate) fn size_u64(&self, var: u32) -> u64 {
        let size = self.slots[var as usize].size;
        if size == u32::MAX && self.is_interval(var) {
            let Interval { min, max } = self.interval(var);
            return width(min, max);
        }
        u64::from(size)
    }

    /// Narrows an interval domain to `min..=max` (intersected with the current
    /// bounds), trailing the old bounds (without a history, only if it was
    /// not trailed since the latest mark: undoing to any mark still alive
    /// restores the bounds that record holds). An empty result changes
    /// nothing and is a wipe-out.
    pub(crate) fn narrow_interval(&mut self, var: u32, min: i64, max: i64) -> Change {
        let i = self.interval_index(var);
        let old = self.intervals[i];
        let new = Interval { min: min.max(old.min), max: max.min(old.max) };
        if new == old {
            return Change::None;
        }
        if new.min > new.max {
            return Change::Wipeout;
        }
        let at = self.interval_trailed[i];
        // Without a history: trailed once since the latest mark; with one:
        // folded into its latest entry once the level has many of them.
        let trailed = if self.history.is_none() {
            at >= self.interval_floor.get() && self.interval_trail.get(at).is_some_and(|&(v, _)| v == var)
        } else {
            self.fold_slow(var, new)
        };
        if !trailed {
            self.interval_trailed[i] = self.interval_trail.len();
            self.interval_trail.push((var, old));
        }
        self.intervals[i] = new;
        self.slots[var as usize].size = saturated_width(new.min, new.max);
        Change::Changed(if new.min == new.max { Event::Fixed } else { Event::Bounds })
    }

    /// Undoes the interval changes trailed after the first `len`.
    pub(super) fn undo_intervals(&mut self, len: usize) {
        while self.interval_trail.len() > len {
            let (var, old) = self.interval_trail.pop().expect("the trail is longer than the mark");
            let i = self.interval_index(var);
            self.intervals[i] = old;
            self.slots[var as usize].size = saturated_width(old.min, old.max);
        }
    }
}

impl Context<'_> {
    /// Narrows the interval domain of `x` to `min..=max`: counted as one
    /// pruning, reported to the observer as one [`SearchEvent::Narrowed`].
    pub(super) fn narrow_interval(&mut self, x: u32, min: i64, max: i64) -> Result<bool, Conflict> {
        let traced = self.state.pushes.count >= self.state.pushes.from;
        let before = if traced { self.state.interval(x) } else { Interval { min, max } };
        let change = self.state.narrow_interval(x, min, max);
        if change == Change::None {
            return Ok(false);
        }
        if change == Change::Wipeout {
            return self.wipe_interval(x, min, max);
        }
        self.state.pushes.count += 1;
        if traced {
            self.trace_push(x, before);
        }
        self.attribute(self.constraint, 1);
        if self.observer.is_some() {
            let Interval { min, max } = self.state.interval(x);
            let event = SearchEvent::Narrowed {
                var: VarId { index: x, model: self.model },
                min,
                max,
                constraint: self.nogood.is_none().then_some(ConstraintId { index: self.constraint, model: self.model }),
            };
            if let Some(observer) = &mut self.observer {
                observer.on_event(&event);
            }
        }
        self.apply(x, change)
    }

    /// Traces the narrowing of `x` from `before` (see [`Pushes`]).
    #[cold]
    fn trace_push(&mut self, x: u32, before: Interval) {
        let now = self.state.interval(x);
        let constraint = if self.nogood.is_some() { u32::MAX } else { self.constraint };
        let trace = &mut self.state.pushes.trace;
        if trace.len() >= 2 * self.state.pushes.window {
            // Not read (traced outside a fixpoint's loop): enough.
            return;
        }
        if now.min > before.min {
            trace.push(Push { var: x, upper: false, constraint });
        }
        if now.max < before.max {
            trace.push(Push { var: x, upper: true, constraint });
        }
    }

    /// [`Context::remove`] on an interval: only a bound can go.
    pub(super) fn remove_from_interval(&mut self, x: u32, value: i64) -> Result<bool, Conflict> {
        let Interval { min, max } = self.state.interval(x);
        if value == min {
            self.narrow_interval(x, min.saturating_add(1), max)
        } else if value == max {
            self.narrow_interval(x, min, max.saturating_sub(1))
        } else {
            Ok(false)
        }
    }

    /// [`Context::retain`] on an interval: moves each bound inward past the
    /// values `keep` rejects, testing at most [`RETAIN_PROBES`] from each end.
    pub(super) fn retain_interval(&mut self, x: u32, mut keep: impl FnMut(i64) -> bool) -> Result<bool, Conflict> {
        let Interval { mut min, mut max } = self.state.interval(x);
        let mut probes = 0;
        while min <= max && probes < RETAIN_PROBES && !keep(min) {
            min += 1;
            probes += 1;
        }
        probes = 0;
        while min <= max && probes < RETAIN_PROBES && !keep(max) {
            max -= 1;
            probes += 1;
        }
        if min > max {
            return self.wipe_interval(x, min, max);
        }
        self.narrow_interval(x, min, max)
    }
}

/// The values of a domain in increasing order: a bitset's positions mapped
/// to values, or every value between an interval's bounds.
#[derive(Clone, Debug)]
pub(crate) enum Values<'a> {
    /// A bitset's values.
    Bitset { state: &'a State, var: u32, positions: super::domains::Positions<'a> },
    /// An interval's values: `next..=max`, none once `next > max`.
    Interval { next: i64, max: i64 },
}

impl Iterator for Values<'_> {
    type Item = i64;

    #[inline]
    fn next(&mut self) -> Option<i64> {
        match self {
            Values::Bitset { state, var, positions } => positions.next().map(|p| state.value(*var, p)),
            Values::Interval { next, max } => {
                if *next > *max {
                    return None;
                }
                let value = *next;
                // `max` is at most 2^62: no overflow, and `next > max` ends it.
                *next += 1;
                Some(value)
            }
        }
    }
}

impl State {
    /// The values of `var`'s domain in increasing order (see [`Values`]).
    pub(crate) fn values(&self, var: u32) -> Values<'_> {
        if self.is_interval(var) {
            let Interval { min, max } = self.interval(var);
            Values::Interval { next: min, max }
        } else {
            Values::Bitset { state: self, var, positions: self.positions(var) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Domain;

    #[test]
    fn wide_ranges_are_intervals_and_narrowing_is_undone() {
        let limit = 1 << 16;
        let domains = [Domain::range(0, 1 << 62), Domain::range(1, 9), Domain::range(-(1 << 62), 1 << 62)];
        let mut s = State::new(&domains, limit).unwrap();
        assert!(s.is_interval(0) && !s.is_interval(1) && s.is_interval(2));
        assert_eq!(s.size(0), u32::MAX);
        assert_eq!(s.size_u64(0), (1 << 62) + 1);
        assert_eq!(s.size_u64(2), (1 << 63) + 1);
        assert_eq!((s.value(0, s.min_pos(0)), s.value(0, s.max_pos(0))), (0, 1 << 62));
        let mark = s.mark();
        assert_eq!(s.narrow_interval(0, 10, 12), Change::Changed(Event::Bounds));
        assert_eq!(s.size(0), 3);
        assert_eq!(s.narrow_interval(0, 11, 11), Change::Changed(Event::Fixed));
        assert_eq!(s.narrow_interval(0, 12, 20), Change::Wipeout);
        assert_eq!(s.value(0, s.min_pos(0)), 11);
        assert_eq!(s.values(0).collect::<Vec<_>>(), [11]);
        s.undo_to(mark);
        assert_eq!(s.interval(0), Interval { min: 0, max: 1 << 62 });
        assert_eq!(s.size(0), u32::MAX);
        // Only the bitsets take words: three variables, one word.
        assert_eq!(s.words.len(), 1);
    }
}
