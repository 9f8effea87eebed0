//! `x ∈ S` and `x ∉ S` for a constant set `S`: the values of `x` outside
//! (inside) `S` are removed, which is domain consistent. Reifiable, each
//! being the other's negation; `x = k`, `x ≠ k`, `x ≤ k` and `x ≥ k` are the
//! cases of a single value and of a range.

use crate::constraint::{Constraint, Propagator, PropagatorOptions};
use crate::domain::Domain;
use crate::ids::VarId;
use crate::kernel::{Conflict, Context, Event, PropagationResult};

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
        if self.negated {
            return ctx.retain(x, |v| !self.set.contains(v)).map(drop);
        }
        match (self.set.min(), self.set.max()) {
            // A range: two bound moves.
            (Some(min), Some(max)) if self.set.sparse_values().is_none() => {
                ctx.set_min(x, min)?;
                ctx.set_max(x, max)?;
                Ok(())
            }
            (Some(_), Some(_)) => ctx.retain(x, |v| self.set.contains(v)).map(drop),
            // Nothing is in the empty set.
            _ => Err(Conflict),
        }
    }

    fn may_hold(&self, ctx: &Context<'_>) -> bool {
        let x = self.scope[0];
        if self.negated {
            return ctx.values(x).any(|v| !self.set.contains(v));
        }
        match (self.set.min(), self.set.max()) {
            (Some(min), Some(max)) if ctx.max(x) >= min && ctx.min(x) <= max => {
                ctx.values(x).any(|v| self.set.contains(v))
            }
            _ => false,
        }
    }

    fn negation(&self) -> ReifiableRelation {
        ReifiableRelation::InSet(InSet { negated: !self.negated, ..self.clone() })
    }

    fn events(&self) -> Event {
        Event::Domain
    }
}
