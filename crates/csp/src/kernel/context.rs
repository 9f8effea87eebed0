//! What a propagator sees: the current domains, and the operations that narrow them.

use super::domains::{Change, Event, State};
use super::history::Cause;
use super::queue::{Cost, Queue, Watchers};
use super::trail::ReversibleInt;
use crate::ids::{ConstraintId, VarId};
use crate::observer::{Observer, SearchEvent};

/// Where a small domain's word is kept in the solver ([`Context::word_slot`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WordSlot(usize);

/// A constraint's propagator found that no solution extends the current domains.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Conflict;

/// The result of propagation.
pub type PropagationResult = Result<(), Conflict>;

/// Which variables count as assigned.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Assigned<'a> {
    /// Every fixed variable (arc consistency, and the root).
    Fixed,
    /// Only the variables the search decided (forward checking, plain backtracking).
    Decided(&'a [bool]),
}

/// One step's change of a one-word domain, written at the end of the
/// propagator's call with the others ([`Context::narrow_in_steps`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    pub(crate) var: u32,
    /// The constraint whose work the step was.
    pub(crate) constraint: u32,
    /// The variable's word before the step and after it.
    pub(crate) before: u64,
    pub(crate) after: u64,
}

/// The propagators to wake when a domain changes (under arc consistency only).
pub(crate) struct Wake<'a> {
    pub watchers: &'a Watchers,
    pub queue: &'a mut Queue,
    /// Whether the running propagator reaches its own fixpoint, so its own changes
    /// need not wake it.
    pub idempotent: bool,
}

/// The domains as one propagator sees them, with the operations that narrow them.
///
/// Every change goes through the context so that it is trailed (undone on
/// backtrack), counted, shown to observers and, under arc consistency, wakes the
/// propagators that watch the variable. An operation that empties a domain returns
/// `Err(Conflict)`: return it from [`Propagator::propagate`](crate::Propagator::propagate)
/// at once (the `?` operator does).
pub struct Context<'a> {
    pub(crate) state: &'a mut State,
    pub(crate) assigned: Assigned<'a>,
    pub(crate) wake: Option<Wake<'a>>,
    /// The constraint whose work this is: what pruning and failures are
    /// attributed to. A propagator of several constraints sets it as it goes.
    pub(crate) constraint: u32,
    /// The running propagator (its own changes do not wake it if idempotent).
    pub(crate) propagator: u32,
    pub(crate) model: u32,
    /// The run's counts of values removed and of constraint checks
    /// ([`Stats::pruned`](crate::Stats::pruned), [`Stats::checks`](crate::Stats::checks)).
    pub(crate) pruned: &'a mut u64,
    pub(crate) checks: &'a mut u64,
    /// Values removed, per constraint (pruning attribution).
    pub(crate) pruned_by: &'a mut [u64],
    pub(crate) observer: Option<&'a mut dyn Observer>,
    /// The variable whose domain this propagator emptied, if any.
    pub(crate) wiped: Option<u32>,
    /// Under forward checking, the decision that triggered this call: the only
    /// variable that became assigned since the propagator's previous call.
    pub(crate) decision: Option<u32>,
    /// Set by [`Context::reschedule`].
    pub(crate) reschedule: Option<Cost>,
    /// Conflict-directed backjumping: the variables this call pruned.
    pub(crate) pruned_log: Option<&'a mut Vec<u32>>,
    /// With the history on: the nogood doing this work (instead of the
    /// propagator), and when a narrowing of an interval failed, the bounds
    /// it asked for (what the conflict's explanation explains).
    pub(crate) nogood: Option<u32>,
    pub(crate) wiped_bounds: Option<(i64, i64)>,
    /// Whether this call may skip its expensive reasoning (see
    /// [`Context::is_cheap`]).
    pub(crate) cheap: bool,
}

impl std::fmt::Debug for Context<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context").field("constraint", &self.constraint).finish_non_exhaustive()
    }
}

impl<'a> Context<'a> {
    /// A context for the work of constraint `constraint` (also the running
    /// propagator), counting its removals and checks into the given counters.
    /// Nothing is woken, observed or logged until the caller sets
    /// [`wake`](Context::wake), [`observer`](Context::observer),
    /// [`decision`](Context::decision) or [`pruned_log`](Context::pruned_log).
    #[inline]
    pub(crate) fn new(
        state: &'a mut State,
        model: u32,
        constraint: u32,
        assigned: Assigned<'a>,
        pruned: &'a mut u64,
        checks: &'a mut u64,
        pruned_by: &'a mut [u64],
    ) -> Context<'a> {
        Context {
            state,
            assigned,
            wake: None,
            constraint,
            propagator: constraint,
            model,
            pruned,
            checks,
            pruned_by,
            observer: None,
            wiped: None,
            decision: None,
            reschedule: None,
            pruned_log: None,
            nogood: None,
            wiped_bounds: None,
            cheap: false,
        }
    }
}

impl Context<'_> {
    // ---- reading domains ----

    /// The number of values left in `var`'s domain (for an interval domain,
    /// every value between its bounds; saturated at `usize::MAX`).
    #[inline]
    pub fn size(&self, var: VarId) -> usize {
        usize::try_from(self.state.size_u64(var.index)).unwrap_or(usize::MAX)
    }

    /// Whether `var`'s domain is an interval: a range wider than the
    /// solver's bitset limit ([`SolveConfig::bitset_limit`](crate::SolveConfig::bitset_limit)),
    /// kept as its two bounds. Removing an inner value from it does nothing,
    /// and [`values`](Context::values) walks every value between its bounds, so
    /// a propagator should reason on [`min`](Context::min) and
    /// [`max`](Context::max) there.
    #[inline]
    pub fn is_interval(&self, var: VarId) -> bool {
        self.state.is_interval(var.index)
    }

    /// The smallest value left. (During propagation no domain is empty.)
    #[inline]
    pub fn min(&self, var: VarId) -> i64 {
        self.state.value(var.index, self.state.min_pos(var.index))
    }

    /// The largest value left.
    #[inline]
    pub fn max(&self, var: VarId) -> i64 {
        self.state.value(var.index, self.state.max_pos(var.index))
    }

    /// Whether `value` is still in `var`'s domain (for an interval domain:
    /// between its bounds).
    #[inline]
    pub fn contains(&self, var: VarId, value: i64) -> bool {
        match self.state.position(var.index, value) {
            Some(pos) => self.state.contains_pos(var.index, pos),
            None => self.state.is_interval(var.index) && (self.min(var)..=self.max(var)).contains(&value),
        }
    }

    /// Whether `var`'s domain is a single value.
    #[inline]
    pub fn is_fixed(&self, var: VarId) -> bool {
        self.state.size(var.index) == 1
    }

    /// The value of a fixed variable.
    #[inline]
    pub fn fixed_value(&self, var: VarId) -> Option<i64> {
        self.is_fixed(var).then(|| self.min(var))
    }

    /// Whether `var` counts as assigned at this propagation level: under arc
    /// consistency every fixed variable is assigned; under forward checking and
    /// plain backtracking only the variables the search decided are, so that
    /// propagation reasons from decisions alone, as the textbook algorithms do.
    #[inline]
    pub fn is_assigned(&self, var: VarId) -> bool {
        match self.assigned {
            Assigned::Fixed => self.state.size(var.index) == 1,
            Assigned::Decided(decided) => decided[var.index()],
        }
    }

    /// The value of an assigned variable (see [`is_assigned`](Context::is_assigned)).
    #[inline]
    pub fn assigned_value(&self, var: VarId) -> Option<i64> {
        self.is_assigned(var).then(|| self.min(var))
    }

    /// A domain of consecutive values that fits one machine word, as
    /// `(value of bit 0, bits)`: bit `i` is set when `base + i` is in the domain.
    /// `None` for larger or sparse domains. Propagators over small domains can
    /// then combine domains with bit operations instead of iterating values.
    #[inline]
    pub fn small_domain(&self, var: VarId) -> Option<(i64, u64)> {
        let base = self.state.dense_base(var.index)?;
        (self.state.num_words(var.index) == 1).then(|| (base, self.state.word(var.index, 0)))
    }

    /// Where the word of a domain that [`small_domain`](Context::small_domain)
    /// reads is kept, for a propagator that reads the same variables on every
    /// call: find the slot once (in [`Propagator::initialise`](crate::Propagator::initialise)
    /// or on the first call), then [`read_slot`](Context::read_slot) reads the
    /// word with one load. `None` for a domain that is not small. A slot
    /// belongs to the solver it was found in and stays valid for its life.
    #[inline]
    pub fn word_slot(&self, var: VarId) -> Option<WordSlot> {
        self.small_domain(var)?;
        Some(WordSlot(self.state.word_address(var.index)))
    }

    /// The word at `slot`: the bits [`small_domain`](Context::small_domain)
    /// returns for the variable the slot was found for.
    #[inline(always)]
    pub fn read_slot(&self, slot: WordSlot) -> u64 {
        self.state.word_at(slot.0)
    }

    /// Narrows a domain read with [`small_domain`](Context::small_domain) to the
    /// values whose bits are set in `keep` (bit `i` stands for `base + i`).
    /// `Ok(true)` if the domain changed.
    #[inline]
    pub fn retain_small(&mut self, var: VarId, keep: u64) -> Result<bool, Conflict> {
        debug_assert!(self.small_domain(var).is_some(), "retain_small on a domain that is not small");
        let x = var.index;
        if self.state.num_words(x) != 1 {
            return Ok(false);
        }
        let old = self.state.word(x, 0);
        if old & !keep == 0 {
            return Ok(false);
        }
        self.narrow_single_word(x, old & keep)
    }

    /// The values left in `var`'s domain, in increasing order. For an
    /// interval domain ([`is_interval`](Context::is_interval)) that is every
    /// value between its bounds, which may be 2^63 of them: read its bounds
    /// instead.
    pub fn values(&self, var: VarId) -> impl Iterator<Item = i64> + '_ {
        self.state.values(var.index)
    }

    /// Asks the engine to call this propagator again, at `cost`, once every
    /// propagator of lower cost has run (Gecode's rescheduling). A propagator
    /// with a cheap partial pass and an expensive complete one runs the cheap
    /// pass first and reschedules itself as expensive, so that the complete
    /// pass runs once after the cheap cascades instead of once per wave. Under
    /// forward checking, which runs each propagator once, nothing is
    /// rescheduled: see [`can_reschedule`](Context::can_reschedule).
    pub fn reschedule(&mut self, cost: Cost) {
        if self.wake.is_some() {
            self.reschedule = Some(cost);
        }
    }

    /// Whether [`reschedule`](Context::reschedule) will be honoured (propagation
    /// to a fixpoint) or ignored (forward checking, a single pass).
    pub fn can_reschedule(&self) -> bool {
        self.wake.is_some()
    }

    /// Whether this call may skip the expensive part of its reasoning (the
    /// matching of a domain-consistent all-different): the propagation of
    /// a probe under cheap probing
    /// ([`SolveConfig::cheap_probes`](crate::SolveConfig::cheap_probes)),
    /// which is undone and only asks whether the assumption fails. What a
    /// propagator does then must still be sound; it need not reach its own
    /// fixpoint, and a propagator that keeps state between calls must not
    /// take what a cheap call leaves for the fixpoint of its full
    /// reasoning. Nodes always propagate in full.
    #[inline]
    pub fn is_cheap(&self) -> bool {
        self.cheap
    }

    /// Adds `n` to the run's count of constraint checks.
    #[inline]
    pub fn count_checks(&mut self, n: u64) {
        *self.checks += n;
    }

    // ---- reversible integers ----

    /// Allocates an integer that is restored on backtrack (call it from
    /// [`Propagator::initialise`](crate::Propagator::initialise)).
    pub fn new_reversible_int(&mut self, initial: i64) -> ReversibleInt {
        self.state.new_int(initial)
    }

    /// The current value of a reversible integer.
    #[inline]
    pub fn get(&self, cell: ReversibleInt) -> i64 {
        self.state.int(cell)
    }

    /// Sets a reversible integer; the old value comes back on backtrack.
    #[inline]
    pub fn set(&mut self, cell: ReversibleInt, value: i64) {
        self.state.set_int(cell, value);
    }

    // ---- narrowing domains ----

    /// Removes `value` from `var`'s domain. `Ok(true)` if the domain changed.
    /// From an interval domain only a bound can be removed: an inner value
    /// stays (`Ok(false)`), which is sound.
    #[inline]
    pub fn remove(&mut self, var: VarId, value: i64) -> Result<bool, Conflict> {
        match self.state.position(var.index, value) {
            Some(pos) => self.remove_pos(var.index, pos),
            None if self.state.is_interval(var.index) => self.remove_from_interval(var.index, value),
            None => Ok(false),
        }
    }

    /// Reduces `var`'s domain to `value`. `Ok(true)` if the domain changed;
    /// a conflict if `value` is not in the domain.
    pub fn fix(&mut self, var: VarId, value: i64) -> Result<bool, Conflict> {
        match self.state.position(var.index, value) {
            Some(pos) => self.fix_pos(var.index, pos),
            None if self.contains(var, value) => self.narrow_interval(var.index, value, value),
            None => self.wipe_interval(var.index, value, value),
        }
    }

    /// Removes every value below `bound`. `Ok(true)` if the domain changed.
    pub fn set_min(&mut self, var: VarId, bound: i64) -> Result<bool, Conflict> {
        let x = var.index;
        if bound <= self.min(var) {
            return Ok(false);
        }
        if bound > self.max(var) {
            return self.wipe_interval(x, bound, i64::MAX);
        }
        if self.state.is_interval(x) {
            return self.narrow_interval(x, bound, i64::MAX);
        }
        let pos = self.state.first_position_at_least(x, bound);
        self.remove_below_pos(x, pos)
    }

    /// Removes every value above `bound`. `Ok(true)` if the domain changed.
    pub fn set_max(&mut self, var: VarId, bound: i64) -> Result<bool, Conflict> {
        let x = var.index;
        if bound >= self.max(var) {
            return Ok(false);
        }
        if bound < self.min(var) {
            return self.wipe_interval(x, i64::MIN, bound);
        }
        if self.state.is_interval(x) {
            return self.narrow_interval(x, i64::MIN, bound);
        }
        let pos = self.state.last_position_at_most(x, bound);
        self.remove_above_pos(x, pos)
    }

    /// Keeps only the values for which `keep` returns true. `Ok(true)` if the
    /// domain changed. On an interval domain it tests values from each end,
    /// moving the bounds inward, and stops after 64 from each end: the inner
    /// values stay unchecked (sound; the constraint's check catches them once
    /// the variables are fixed).
    pub fn retain(&mut self, var: VarId, mut keep: impl FnMut(i64) -> bool) -> Result<bool, Conflict> {
        let x = var.index;
        if self.state.is_interval(x) {
            return self.retain_interval(x, keep);
        }
        let words = self.state.num_words(x);
        let mut changed = false;
        for w in 0..words {
            let mut bits = self.state.word(x, w);
            let mut drop = 0u64;
            while bits != 0 {
                let bit = bits.trailing_zeros();
                bits &= bits - 1;
                if !keep(self.state.value(x, w * 64 + bit)) {
                    drop |= 1u64 << bit;
                }
            }
            if drop != 0 {
                changed |= self.remove_mask(x, w, drop)?;
            }
        }
        Ok(changed)
    }

    // ---- position-level operations for the built-in propagators ----

    #[inline]
    pub(crate) fn state(&self) -> &State {
        self.state
    }

    fn wipe(&mut self, x: u32) -> Result<bool, Conflict> {
        self.wiped = Some(x);
        if self.state.has_history() {
            // The history explains the domains as it recorded them: a
            // narrowing that emptied a domain half-way is taken back.
            self.state.discard_unrecorded();
        }
        Err(Conflict)
    }

    /// A narrowing of interval `x` to `lo..=hi` (either end may be
    /// unbounded) found no value: fails, keeping what was asked.
    pub(super) fn wipe_interval(&mut self, x: u32, lo: i64, hi: i64) -> Result<bool, Conflict> {
        self.wiped_bounds = Some((lo, hi));
        self.wipe(x)
    }

    /// Records the change just made (the history is on), as the work of the
    /// nogood or of the running propagator for its current constraint.
    #[inline(never)]
    fn record_change(&mut self) {
        let cause = self.cause();
        self.state.record(cause);
    }

    /// What the changes made now are the work of: the nogood, or the running
    /// propagator for its current constraint.
    #[inline]
    fn cause(&self) -> Cause {
        match self.nogood {
            Some(clause) => Cause::Nogood(clause),
            None => Cause::Propagator { propagator: self.propagator, constraint: self.constraint },
        }
    }

    #[inline]
    pub(crate) fn remove_pos(&mut self, x: u32, pos: u32) -> Result<bool, Conflict> {
        let change = self.state.remove_pos(x, pos);
        if change != Change::None {
            self.attribute(self.constraint, 1);
            if self.observer.is_some() {
                self.emit_removed(x, pos);
            }
        }
        self.apply(x, change)
    }

    /// Removes each `(variable, position)`; returns how many were present. With
    /// nobody to tell (no observer, no propagators to wake, no backjumping log),
    /// as under forward checking, the removals skip the per-removal bookkeeping.
    pub(crate) fn remove_many(&mut self, removals: &[(u32, u32)]) -> Result<u64, Conflict> {
        if self.observer.is_some() || self.wake.is_some() || self.pruned_log.is_some() {
            let mut removed = 0;
            for &(x, pos) in removals {
                removed += u64::from(self.remove_pos(x, pos)?);
            }
            return Ok(removed);
        }
        let mut removed = 0;
        let mut result = Ok(());
        for &(x, pos) in removals {
            match self.state.remove_pos(x, pos) {
                Change::None => {}
                Change::Changed(_) => removed += 1,
                Change::Wipeout => {
                    removed += 1;
                    self.wiped = Some(x);
                    result = Err(Conflict);
                    break;
                }
            }
        }
        self.attribute(self.constraint, removed);
        result.map(|()| removed)
    }

    pub(crate) fn fix_pos(&mut self, x: u32, pos: u32) -> Result<bool, Conflict> {
        if !self.state.contains_pos(x, pos) {
            return self.wipe(x);
        }
        self.remove_positions(x, |p| p != pos, |state| state.fix_pos(x, pos))
    }

    pub(crate) fn remove_below_pos(&mut self, x: u32, pos: u32) -> Result<bool, Conflict> {
        self.remove_positions(x, |p| p < pos, |state| state.remove_below(x, pos))
    }

    pub(crate) fn remove_above_pos(&mut self, x: u32, pos: u32) -> Result<bool, Conflict> {
        self.remove_positions(x, |p| p > pos, |state| state.remove_above(x, pos))
    }

    /// Removes from `x` the positions `gone` selects, by `narrow` (the
    /// state's narrowing that removes exactly those): each is shown to the
    /// observer, and they are counted.
    #[inline]
    fn remove_positions(
        &mut self,
        x: u32,
        gone: impl Fn(u32) -> bool,
        narrow: impl FnOnce(&mut State) -> Change,
    ) -> Result<bool, Conflict> {
        let before = self.state.size(x);
        if self.observer.is_some() {
            let gone: Vec<u32> = self.state.positions(x).filter(|&p| gone(p)).collect();
            for p in gone {
                self.emit_removed(x, p);
            }
        }
        let change = narrow(self.state);
        let removed = u64::from(before - self.state.size(x));
        self.attribute(self.constraint, removed);
        self.apply(x, change)
    }

    /// Narrows the one-word domain of `x` to the positions set in `new` (a
    /// subset of the current word).
    #[inline]
    pub(crate) fn narrow_single_word(&mut self, x: u32, new: u64) -> Result<bool, Conflict> {
        let old = self.state.word(x, 0);
        let removed = old & !new;
        if removed == 0 {
            return Ok(false);
        }
        if self.observer.is_some() {
            self.emit_removed_bits(x, 0, removed);
        }
        self.attribute(self.constraint, u64::from(removed.count_ones()));
        if self.state.has_history() {
            return self.narrow_single_word_recorded(x, new, removed);
        }
        match self.state.narrow_single_word(x, new) {
            Change::Changed(event) => self.changed(x, event, |_| {}),
            change => self.apply(x, change),
        }
    }

    /// [`narrow_single_word`](Context::narrow_single_word)'s narrowing with
    /// the history on, of the positions `removed`: the change is known, so
    /// it is recorded as it is, without reading it back from the trail as
    /// `apply` does.
    #[inline(never)]
    fn narrow_single_word_recorded(&mut self, x: u32, new: u64, removed: u64) -> Result<bool, Conflict> {
        let before = self.state.trail_len();
        match self.state.narrow_single_word(x, new) {
            Change::Changed(event) => self.changed(x, event, |cx| {
                let cause = cx.cause();
                cx.state.record_removed(x, 0, removed, before, cause);
            }),
            change => self.apply(x, change),
        }
    }

    /// Writes what a propagator did in `steps` to one-word domains during its
    /// call, at the end of it: everything is left as
    /// [`narrow_single_word`](Context::narrow_single_word) of each step's word,
    /// made when the step was done under its constraint, would leave it (the
    /// domains, the history's entries one per step in their order, the
    /// counts, the observer's events, the propagators woken in order by each
    /// step's event), but each variable is narrowed and trailed once, by the
    /// positions `removed` has for it (each variable there once: what all its
    /// steps removed). No step empties a domain, and nothing reads the
    /// domains between the steps (the propagator works on its own copy).
    pub(crate) fn narrow_in_steps(&mut self, removed: impl IntoIterator<Item = (u32, u64)>, steps: &[Step]) {
        if self.state.has_history() && !self.state.history_is_complete() {
            // (As `record_removed` does: what is unrecorded is this work.)
            self.record_change();
        }
        for (x, gone) in removed {
            let change = self.state.narrow_single_word(x, self.state.word(x, 0) & !gone);
            debug_assert!(matches!(change, Change::Changed(_)), "x{x}: the steps change the domain, never empty it");
        }
        self.state.record_steps(self.propagator, steps);
        for step in steps {
            let removed = step.before & !step.after;
            if self.observer.is_some() {
                self.constraint = step.constraint;
                self.emit_removed_bits(step.var, 0, removed);
            }
            self.attribute(step.constraint, u64::from(removed.count_ones()));
            self.log_pruned(step.var);
            self.notify(step.var, State::word_event(step.before, step.after));
        }
    }

    /// [`narrow_single_word`](Context::narrow_single_word) without counting the
    /// removed values: for a propagator of several constraints that counts
    /// them per constraint ([`attribute`](Context::attribute)). No observer
    /// sees these removals.
    #[inline]
    pub(crate) fn narrow_unattributed(&mut self, x: u32, new: u64) -> Result<bool, Conflict> {
        let change = self.state.narrow_single_word(x, new);
        self.apply(x, change)
    }

    /// Counts `removed` values as removed by `constraint`.
    #[inline]
    pub(crate) fn attribute(&mut self, constraint: u32, removed: u64) {
        *self.pruned += removed;
        self.pruned_by[constraint as usize] += removed;
    }

    /// Removes the positions `word * 64 + bit` for every bit set in `mask`.
    #[inline]
    pub(crate) fn remove_mask(&mut self, x: u32, word: u32, mask: u64) -> Result<bool, Conflict> {
        let present = self.state.word(x, word) & mask;
        if present == 0 {
            return Ok(false);
        }
        if self.observer.is_some() {
            self.emit_removed_bits(x, word * 64, present);
        }
        let removed = u64::from(present.count_ones());
        self.attribute(self.constraint, removed);
        let change = self.state.remove_mask(x, word, present);
        self.apply(x, change)
    }

    // Always inlined, as `notify`: they are on every removal's path, and
    // LLVM's own choice flips with unrelated changes elsewhere in the crate
    // (out of line, they cost map colouring under forward checking 10% and
    // N-queens under MAC 2% more instructions, callgrind).
    #[inline(always)]
    pub(super) fn apply(&mut self, x: u32, change: Change) -> Result<bool, Conflict> {
        match change {
            Change::None => Ok(false),
            Change::Changed(event) => self.changed(x, event, |cx| {
                if cx.state.has_history() {
                    cx.record_change();
                }
            }),
            Change::Wipeout => {
                self.log_pruned(x);
                self.wipe(x)
            }
        }
    }

    /// What follows every narrowing that changed `x`'s domain (`event`)
    /// without emptying it: the backjumping log, the history's record
    /// (`record` makes it, when the history is on), and the propagators to
    /// wake.
    #[inline(always)]
    fn changed(&mut self, x: u32, event: Event, record: impl FnOnce(&mut Self)) -> Result<bool, Conflict> {
        self.log_pruned(x);
        record(self);
        self.notify(x, event);
        Ok(true)
    }

    /// Notes for conflict-directed backjumping that this call pruned `x`.
    #[inline(always)]
    fn log_pruned(&mut self, x: u32) {
        if let Some(log) = &mut self.pruned_log {
            log.push(x);
        }
    }

    #[inline(always)]
    fn notify(&mut self, x: u32, event: Event) {
        if let Some(wake) = &mut self.wake {
            for watch in wake.watchers.waking(x) {
                if event.wakes(watch.interest) && (watch.propagator != self.propagator || !wake.idempotent) {
                    wake.queue.push(watch.propagator);
                }
            }
        }
    }

    #[cold]
    fn emit_removed(&mut self, x: u32, pos: u32) {
        let value = self.state.value(x, pos);
        let event = SearchEvent::Removed {
            var: VarId { index: x, model: self.model },
            value,
            constraint: self.nogood.is_none().then_some(ConstraintId { index: self.constraint, model: self.model }),
        };
        if let Some(observer) = &mut self.observer {
            observer.on_event(&event);
        }
    }

    /// [`emit_removed`](Context::emit_removed) for the positions `base + bit`
    /// of the bits set in `bits`.
    fn emit_removed_bits(&mut self, x: u32, base: u32, mut bits: u64) {
        while bits != 0 {
            let bit = bits.trailing_zeros();
            bits &= bits - 1;
            self.emit_removed(x, base + bit);
        }
    }
}
