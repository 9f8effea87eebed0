//! `x ∈ S` and `x ∉ S` for a constant set `S`: the values of `x` outside
//! (inside) `S` are removed, which is domain consistent. Reifiable, each
//! being the other's negation; `x = k`, `x ≠ k`, `x ≤ k` and `x ≥ k` are the
//! cases of a single value and of a range.
//!
//! Over an interval domain (a range wider than the bitset limit, kept as its
//! bounds) the bounds move to the nearest values allowed, which is bounds
//! consistent, and nothing walks the interval: a step from a bound is taken
//! only past a member of `S` ([`retain_out`]), and whether the relation can
//! still hold is decided by comparing sizes before any value is read. The
//! same two narrowings ([`retain_in`], [`retain_out`]) serve the counting
//! constraints.

use crate::constraint::{Constraint, Propagator, PropagatorOptions};
use crate::domain::Domain;
use crate::ids::{Atom, VarId};
use crate::kernel::{Conflict, Context, Event, Explained, Explanation, PropagationResult};

use super::reified::{Enforce, Reifiable, ReifiableRelation};

/// `x ∈ S` (or `x ∉ S`) for a constant set `S`.
#[derive(Clone, Debug)]
pub struct InSet {
    scope: [VarId; 1],
    set: Domain,
    negated: bool,
}

impl InSet {
    /// `x ∈ set`.
    pub fn new(x: VarId, set: impl Into<Domain>) -> InSet {
        InSet { scope: [x], set: set.into(), negated: false }
    }

    /// `x ∉ set`.
    pub fn not_in(x: VarId, set: impl Into<Domain>) -> InSet {
        InSet { scope: [x], set: set.into(), negated: true }
    }

    /// The set.
    pub fn set(&self) -> &Domain {
        &self.set
    }

    /// Whether the constraint is `x ∉ S`.
    pub fn is_negated(&self) -> bool {
        self.negated
    }
}

impl Constraint for InSet {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        self.set.contains(values[0]) != self.negated
    }

    fn kind(&self) -> &str {
        if self.negated { "not_in_set" } else { "in_set" }
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(Enforce(self)))
    }
}

impl Reifiable for InSet {
    fn enforce(&self, ctx: &mut Context<'_>) -> PropagationResult {
        let x = self.scope[0];
        ctx.count_checks(1);
        match (self.set.sparse_values(), self.set.min(), self.set.max()) {
            (Some(values), ..) if self.negated => retain_out(ctx, x, values),
            (Some(values), ..) => retain_in(ctx, x, values),
            // A range: two bound moves, or what is left around it.
            (None, Some(min), Some(max)) if self.negated => {
                if (min..=max).contains(&ctx.min(x)) {
                    ctx.set_min(x, max.saturating_add(1))?;
                }
                if (min..=max).contains(&ctx.max(x)) {
                    ctx.set_max(x, min.saturating_sub(1))?;
                }
                if !ctx.is_interval(x) && ctx.min(x) < min && max < ctx.max(x) {
                    ctx.retain(x, |v| !(min..=max).contains(&v))?;
                }
                Ok(())
            }
            (None, Some(min), Some(max)) => {
                ctx.set_min(x, min)?;
                ctx.set_max(x, max)?;
                Ok(())
            }
            // Every value is outside the empty set; none is inside it.
            _ if self.negated => Ok(()),
            _ => Err(Conflict),
        }
    }

    fn may_hold(&self, ctx: &Context<'_>) -> bool {
        let x = self.scope[0];
        let (Some(min), Some(max)) = (self.set.min(), self.set.max()) else {
            return self.negated;
        };
        let (low, high) = (ctx.min(x), ctx.max(x));
        if self.negated {
            return match self.set.sparse_values() {
                // x has no holes between its bounds that S could fill.
                None => low < min || max < high,
                // More values than S has, or one outside it: the walk reads
                // at most |S| + 1 values.
                Some(values) => ctx.size(x) > values.len() || ctx.values(x).any(|v| !self.set.contains(v)),
            };
        }
        if high < min || max < low {
            return false;
        }
        match self.set.sparse_values() {
            // A range that meets x's bounds meets an interval.
            None if ctx.is_interval(x) => true,
            // Walk the smaller of the two.
            Some(values) if values.len() < ctx.size(x) => values.iter().any(|&v| ctx.contains(x, v)),
            _ => ctx.values(x).any(|v| self.set.contains(v)),
        }
    }

    fn negation(&self) -> ReifiableRelation {
        ReifiableRelation::InSet(InSet { negated: !self.negated, ..self.clone() })
    }

    fn events(&self) -> Event {
        Event::Domain
    }

    /// A removed value needs no reason (the set alone removes it); a bound
    /// moved by the set from the bound it had; a failure (for reification:
    /// the relation could not hold) of a bitset by the absence of each
    /// value that would have satisfied it, of an interval by its bounds.
    fn explain(&self, why: &mut Explanation<'_>) -> bool {
        let x = self.scope[0];
        match why.explained() {
            Explained::Removed(_) => {}
            Explained::AtLeast(..) => why.because_lower_bound(x),
            Explained::AtMost(..) => why.because_upper_bound(x),
            Explained::Failure if why.is_interval(x) => why.because_domain(x),
            Explained::Failure => {
                let satisfying: smallvec::SmallVec<[i64; 16]> =
                    why.initial_values(x).filter(|&v| self.set.contains(v) != self.negated).collect();
                satisfying.into_iter().for_each(|v| why.because(Atom::NotEqual(x, v)));
            }
        }
        true
    }
}

/// Keeps the values of `x` that are in `set` (sorted, without repeats). A
/// bitset loses every other value; an interval's bounds move to the nearest
/// members of `set` (bounds consistent; its inner values stay).
pub(crate) fn retain_in(ctx: &mut Context<'_>, x: VarId, set: &[i64]) -> PropagationResult {
    let (Some(&first), Some(&last)) = (set.first(), set.last()) else {
        return Err(Conflict);
    };
    ctx.set_min(x, first)?;
    ctx.set_max(x, last)?;
    if !ctx.is_interval(x) {
        return ctx.retain(x, |v| set.binary_search(&v).is_ok()).map(drop);
    }
    // Within first..=last now: a member at least min(x) and one at most max(x) exist.
    let low = set[set.partition_point(|&v| v < ctx.min(x))];
    let high = set[set.partition_point(|&v| v <= ctx.max(x)) - 1];
    ctx.set_min(x, low)?;
    ctx.set_max(x, high)?;
    Ok(())
}

/// Removes the values of `x` that are in `set` (sorted, without repeats). A
/// bitset loses them all; an interval's bounds step past the members of
/// `set` at its ends (at most `set.len()` steps; bounds consistent).
pub(crate) fn retain_out(ctx: &mut Context<'_>, x: VarId, set: &[i64]) -> PropagationResult {
    if !ctx.is_interval(x) {
        return ctx.retain(x, |v| set.binary_search(&v).is_err()).map(drop);
    }
    // Values are within -2^62..=2^62: a step past one cannot overflow.
    let mut low = ctx.min(x);
    let mut at = set.partition_point(|&v| v < low);
    while set.get(at) == Some(&low) {
        low += 1;
        at += 1;
    }
    let mut high = ctx.max(x);
    let mut at = set.partition_point(|&v| v <= high);
    while at > 0 && set[at - 1] == high {
        high -= 1;
        at -= 1;
    }
    ctx.set_min(x, low)?;
    ctx.set_max(x, high)?;
    Ok(())
}
