//! How local search counts a constraint's violation: the [`ViolationCounter`]
//! trait, the engine's counters for its own constraints (found by their type,
//! so that the [`Constraint`] trait knows nothing of local search), and the
//! counter that recomputes a violation over the scope.

use std::any::Any;
use std::collections::HashMap;

use super::all_different::{AllDifferentCounter, equal_pairs};
use crate::constraint::Constraint;
use crate::constraints::{AllDifferent, Linear};
use crate::ids::VarId;
use crate::model::Model;

/// An incremental count of a constraint's violation, for local search.
///
/// Positions index the constraint's scope (a counter is only used for scopes
/// without repeated variables). A position is unassigned or holds a value. The
/// search starts with [`clear`](ViolationCounter::clear), which unassigns all of
/// them, and from then on asks about and makes moves of one position at a time,
/// from `None` (unassigned) or from its current value to a value of its domain.
///
/// The numbers must agree with the constraint: once every position holds a
/// value, [`violation`](ViolationCounter::violation) is 0 exactly when
/// [`Constraint::is_satisfied`] holds, and while it is positive, some position
/// has [`conflicts`](ViolationCounter::conflicts) above 0. (How large a
/// violation is, is the counter's to say: the local search minimises the sum.)
/// Before that, the violation should count the conflicts among the positions
/// that have values, as far as the constraint can tell (0 is allowed: it only
/// makes the greedy start blind to the constraint). So that the search can pick
/// conflicted variables without scanning them all, [`apply`](ViolationCounter::apply)
/// names the positions a move may have put into conflict.
pub trait ViolationCounter {
    /// Unassigns every position: the violation becomes 0. `model` gives the
    /// domains, for counters that size their tables by them.
    fn clear(&mut self, model: &Model);

    /// The current violation.
    fn violation(&self) -> u64;

    /// How much of the violation involves `position`, which holds `value`: the
    /// violation would fall by this much if the position took a value clashing
    /// with nothing. 0 when the position is not in conflict.
    fn conflicts(&self, position: usize, value: i64) -> u64;

    /// The change of violation if `position` moved from `from` (its current
    /// value, or `None` if it has none) to `to`, everything else staying. 0 when
    /// `from == Some(to)`.
    fn delta(&mut self, position: usize, from: Option<i64>, to: i64) -> i64;

    /// Adds to `scores[k]` the [`delta`](ViolationCounter::delta) of moving
    /// `position` from `from` to `first + k`, for every `k < scores.len()` (the
    /// values are consecutive; they may include `from`). Override it when a range
    /// of values can be scored faster than one by one.
    fn add_deltas(&mut self, position: usize, from: Option<i64>, first: i64, scores: &mut [i64]) {
        for (k, score) in scores.iter_mut().enumerate() {
            *score += self.delta(position, from, first + k as i64);
        }
    }

    /// The values that would leave `position` without conflicts in this
    /// constraint, when the counter keeps them at hand and they are few (an
    /// `all_different` whose variables nearly fill its values keeps its free
    /// values). The search tries them before scanning the domain, which near
    /// the end of a large search saves scanning it all. They may include values
    /// outside the position's domain; the search skips those.
    fn free_values(&self, position: usize) -> Option<ValueList<'_>> {
        let _ = position;
        None
    }

    /// Records the move of `position` from `from` to `to`, and pushes onto
    /// `newly_conflicted` every other position that had no conflicts before the
    /// move and may have some now (pushing more is allowed, only slower).
    fn apply(&mut self, position: usize, from: Option<i64>, to: i64, newly_conflicted: &mut Vec<usize>);
}

/// A list of values, `base + offsets[k]`, as [`ViolationCounter::free_values`]
/// gives them (borrowed from the counter's own tables, in no particular order).
#[derive(Clone, Copy, Debug)]
pub struct ValueList<'a> {
    /// The value that offset 0 stands for.
    pub base: i64,
    /// The values, relative to `base`.
    pub offsets: &'a [u32],
}

impl ValueList<'_> {
    /// The number of values.
    pub fn len(&self) -> usize {
        self.offsets.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.offsets.is_empty()
    }

    /// The `k`-th value (`k < len()`).
    pub fn get(&self, k: usize) -> i64 {
        self.base + i64::from(self.offsets[k])
    }
}

/// How badly values violate a constraint, 0 exactly when they satisfy it: the
/// number of equal pairs of an all-different, the distance of a linear sum
/// from its bound, and 1 for any other violated constraint.
#[derive(Clone, Copy)]
pub(super) enum Measure<'c> {
    Satisfied(&'c dyn Constraint),
    AllDifferent(&'c AllDifferent),
    Linear(&'c Linear),
}

impl<'c> Measure<'c> {
    /// The measure of `constraint`, by its type.
    pub(super) fn of(constraint: &'c dyn Constraint) -> Measure<'c> {
        let any = constraint as &dyn Any;
        if let Some(all_different) = any.downcast_ref::<AllDifferent>() {
            Measure::AllDifferent(all_different)
        } else if let Some(linear) = any.downcast_ref::<Linear>() {
            Measure::Linear(linear)
        } else {
            Measure::Satisfied(constraint)
        }
    }

    /// The violation of `values` (one per scope position).
    pub(super) fn violation(self, values: &[i64]) -> u64 {
        match self {
            Measure::Satisfied(constraint) => u64::from(!constraint.is_satisfied(values)),
            Measure::AllDifferent(all_different) => equal_pairs(all_different.offsets(), values),
            Measure::Linear(linear) => linear.distance(values),
        }
    }
}

/// The engine's counter for `constraint` (whose scope has no repeated
/// variable): the all-different's own, a recomputing one for the others.
pub(super) fn builtin<'c>(constraint: &'c dyn Constraint) -> Box<dyn ViolationCounter + 'c> {
    match Measure::of(constraint) {
        Measure::AllDifferent(all_different) => {
            Box::new(AllDifferentCounter::new(all_different.scope(), all_different.offsets()))
        }
        _ => Box::new(Recompute::new(constraint)),
    }
}

/// The counter of a constraint without one of its own: it keeps the scope's
/// values and recomputes the constraint's [`Measure`] for every question. It
/// counts nothing until every position has a value.
pub(super) struct Recompute<'c> {
    measure: Measure<'c>,
    tuple: Vec<i64>,
    /// Positions without a value.
    missing: usize,
    assigned: Vec<bool>,
    violation: u64,
    /// For a scope with a repeated variable: the next position with the same
    /// variable (a cycle per variable), so that a move sets all of them.
    next_same: Option<Vec<u32>>,
}

impl<'c> Recompute<'c> {
    pub(super) fn new(constraint: &'c dyn Constraint) -> Self {
        let scope = constraint.scope();
        let mut next_same: Option<Vec<u32>> = None;
        let mut last: HashMap<VarId, usize> = HashMap::new();
        for (p, var) in scope.iter().enumerate() {
            if let Some(&q) = last.get(var) {
                let cycle = next_same.get_or_insert_with(|| (0..scope.len() as u32).collect());
                // Insert p after q in q's cycle.
                cycle[p] = cycle[q];
                cycle[q] = p as u32;
            }
            last.insert(*var, p);
        }
        let n = scope.len();
        Recompute {
            measure: Measure::of(constraint),
            tuple: vec![0; n],
            missing: n,
            assigned: vec![false; n],
            violation: 0,
            next_same,
        }
    }

    /// Sets `position` and every position of the same variable to `value`;
    /// returns how many of them had no value.
    fn set(&mut self, position: usize, value: i64) -> usize {
        let mut newly = 0;
        let mut p = position;
        loop {
            self.tuple[p] = value;
            newly += usize::from(!self.assigned[p]);
            self.assigned[p] = true;
            match &self.next_same {
                Some(next) if next[p] as usize != position => p = next[p] as usize,
                _ => return newly,
            }
        }
    }

    /// The positions of the same variable as `position`, itself included.
    fn twins(&self, position: usize) -> usize {
        let mut count = 1;
        if let Some(next) = &self.next_same {
            let mut p = next[position] as usize;
            while p != position {
                count += 1;
                p = next[p] as usize;
            }
        }
        count
    }
}

impl ViolationCounter for Recompute<'_> {
    fn clear(&mut self, _: &Model) {
        self.assigned.iter_mut().for_each(|a| *a = false);
        self.missing = self.tuple.len();
        self.violation = 0;
    }

    fn violation(&self) -> u64 {
        self.violation
    }

    fn conflicts(&self, _: usize, _: i64) -> u64 {
        // Every position takes part in a violation of a check-only constraint.
        self.violation
    }

    fn delta(&mut self, position: usize, from: Option<i64>, to: i64) -> i64 {
        if from == Some(to) {
            return 0;
        }
        let complete_after = match from {
            Some(_) => self.missing == 0,
            None => self.missing == self.twins(position),
        };
        if !complete_after {
            return 0;
        }
        let saved = self.tuple[position];
        let was_assigned = self.assigned[position];
        self.set(position, to);
        let after = self.measure.violation(&self.tuple);
        // Put the position (and its twins) back as they were.
        self.set(position, saved);
        if !was_assigned {
            let mut p = position;
            loop {
                self.assigned[p] = false;
                match &self.next_same {
                    Some(next) if next[p] as usize != position => p = next[p] as usize,
                    _ => break,
                }
            }
        }
        (after as i128 - self.violation as i128).clamp(i64::MIN as i128, i64::MAX as i128) as i64
    }

    fn apply(&mut self, position: usize, _: Option<i64>, to: i64, newly_conflicted: &mut Vec<usize>) {
        self.missing -= self.set(position, to);
        if self.missing > 0 {
            return;
        }
        let before = self.violation;
        self.violation = self.measure.violation(&self.tuple);
        // Every position is in conflict while the constraint is violated.
        if before == 0 && self.violation > 0 {
            newly_conflicted.extend((0..self.tuple.len()).filter(|&p| p != position));
        }
    }
}
