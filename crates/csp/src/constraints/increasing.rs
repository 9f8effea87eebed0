//! `increasing`: `x[0] <= x[1] <= ... <= x[n-1]`, or `<` throughout when strict
//! (MiniZinc's `increasing` and `strictly_increasing`; the decreasing forms are
//! the same relation over the reversed variables).
//!
//! Strength: domain consistent (on distinct variables). Over interval
//! domains (ranges kept as their bounds) the same passes are bounds consistent. Algorithm: a forward
//! pass raises each lower bound to its predecessor's (plus one when strict), a
//! backward pass lowers each upper bound to its successor's. Every value left
//! then has a support: the smallest values before it and the largest after it,
//! which are ordered by the two passes. The backward pass moves no lower bound
//! (it only removes values from the top of a domain), so one call reaches the
//! fixpoint. The gap of one is added to values within `-2^62..=2^62`: no
//! overflow.

use crate::constraint::{Constraint, Propagator, PropagatorOptions};
use crate::ids::{Atom, VarId};
use crate::kernel::{Context, Event, Explained, Explanation, PropagationResult};

/// The variables are in increasing order: non-strict (`<=`) or strict (`<`).
#[derive(Clone, Debug)]
pub struct Increasing {
    vars: Vec<VarId>,
    strict: bool,
}

impl Increasing {
    /// The constraint. Prefer [`Model::increasing`](crate::Model::increasing) and
    /// its siblings, which check the arguments.
    pub fn new(vars: Vec<VarId>, strict: bool) -> Increasing {
        Increasing { vars, strict }
    }
}

impl Constraint for Increasing {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        if self.strict { values.windows(2).all(|w| w[0] < w[1]) } else { values.windows(2).all(|w| w[0] <= w[1]) }
    }

    fn kind(&self) -> &str {
        if self.strict { "strictly_increasing" } else { "increasing" }
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        let distinct = {
            let mut sorted = self.vars.clone();
            sorted.sort_unstable();
            sorted.windows(2).all(|w| w[0] != w[1])
        };
        Some(Box::new(IncreasingPropagator { vars: &self.vars, gap: i64::from(self.strict), distinct }))
    }
}

struct IncreasingPropagator<'c> {
    vars: &'c [VarId],
    /// `x[i] + gap <= x[i + 1]`.
    gap: i64,
    /// Whether no variable appears twice (then one call is a fixpoint).
    distinct: bool,
}

impl Propagator for IncreasingPropagator<'_> {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let vars = self.vars;
        ctx.count_checks(2 * vars.len() as u64);
        for pair in vars.windows(2) {
            let low = ctx.min(pair[0]) + self.gap;
            ctx.set_min(pair[1], low)?;
        }
        for pair in vars.windows(2).rev() {
            let high = ctx.max(pair[1]) - self.gap;
            ctx.set_max(pair[0], high)?;
        }
        Ok(())
    }

    fn interest(&self) -> Event {
        Event::Bounds
    }

    fn is_idempotent(&self) -> bool {
        // A variable that appears twice links bounds the two passes do not
        // revisit: the engine must call again.
        self.distinct
    }

    /// A value below the predecessor's smallest (plus the gap) by that
    /// bound, one above the successor's largest (less the gap) by that one.
    fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
        let (var, low, high) = match why.explained() {
            Explained::Failure => return false,
            Explained::Removed(var) => {
                let values: Vec<i64> = why.removed_values().collect();
                (var, values, Vec::new())
            }
            Explained::AtLeast(var, b) => (var, vec![b - 1], Vec::new()),
            Explained::AtMost(var, b) => (var, Vec::new(), vec![b + 1]),
        };
        let Some(k) = self.vars.iter().position(|&x| x == var) else { return false };
        if !self.distinct {
            return false;
        }
        let before = k.checked_sub(1).map(|j| self.vars[j]);
        let after = self.vars.get(k + 1).copied();
        // Each value goes below (the predecessor's bound) or above (the successor's).
        let floor = before.map_or(i64::MIN, |p| why.min(p) + self.gap);
        let ceiling = after.map_or(i64::MAX, |q| why.max(q) - self.gap);
        let values = low.into_iter().chain(high);
        let (mut below, mut above) = (None::<i64>, None::<i64>);
        for v in values {
            if v < floor {
                below = Some(below.map_or(v, |b| b.max(v)));
            } else if v > ceiling {
                above = Some(above.map_or(v, |a| a.min(v)));
            } else {
                return false;
            }
        }
        if let (Some(v), Some(p)) = (below, before) {
            why.because(Atom::AtLeast(p, v + 1 - self.gap));
        }
        if let (Some(v), Some(q)) = (above, after) {
            why.because(Atom::AtMost(q, v - 1 + self.gap));
        }
        true
    }
}
