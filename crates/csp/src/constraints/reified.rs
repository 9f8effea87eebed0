//! Reification: `b <-> C` (reified) and `b -> C` (half-reified), one
//! propagator for every relation `C` that knows its negation and can tell
//! from the domains that it can no longer hold.
//!
//! The relations that can be reified implement [`Reifiable`]: their own
//! propagation ([`Reifiable::enforce`], which their plain constraint runs
//! too, through [`Enforce`]), their negation, and a test that no tuple of the
//! current domains satisfies them ([`Reifiable::may_hold`]). The generic
//! propagator of [`Reified`] then, for the literal `b`:
//!
//! - `b` true: enforces `C`;
//! - `b` false: enforces `not C` (nothing for `b -> C`);
//! - `b` open: fixes `b` false when `C` cannot hold, and true when `not C`
//!   cannot hold (only for `b <-> C`).
//!
//! Strength: with `b` open every value of `C`'s variables has a support (any
//! tuple satisfies `C` or its negation), so the reified constraint is domain
//! consistent exactly when `C` and `not C` are and `may_hold` is exact. That
//! holds for `x = y + c`, `x ≠ y + c`, `x + c ≤ y`, `x ∈ S`, `x ∉ S`, linear
//! `≤ ≥ < >` and parity. A linear `=` is propagated on bounds (its `may_hold`
//! looks at bounds too), so reified linear `=` and `≠` (whose negation it is)
//! are only sound; half-reified `≠` is domain consistent, and so are both
//! over booleans with unit coefficients (`a = b`, "exactly two of"), whose
//! bounds are exact: such a sum takes every value between them. (Half-reification
//! after Feydy, Somogyi and Stuckey, "Half reification and flattening", CP 2011.)

use crate::constraint::{Constraint, Inequality, Propagator, PropagatorOptions};
use crate::ids::{Atom, Lit, VarId};
use crate::kernel::{Context, Event, Explained, Explanation, PropagationResult};

use super::binary::{Equal, Less, NotEqual};
use super::in_set::InSet;
use super::linear::Linear;
use super::logic::Xor;

/// A relation that can be reified: it propagates itself, knows its negation,
/// and tells when it can no longer hold.
pub(crate) trait Reifiable: Constraint {
    /// Narrows the domains to the relation's supports (the relation's own
    /// propagator). Must fail when the scope is fixed to a violating tuple.
    fn enforce(&self, ctx: &mut Context<'_>) -> PropagationResult;

    /// `false` only if no tuple of the current domains satisfies the relation
    /// (exactly then, for the relations reified with domain consistency).
    fn may_hold(&self, ctx: &Context<'_>) -> bool;

    /// The relation that holds exactly when this one does not.
    fn negation(&self) -> ReifiableRelation;

    /// The domain changes that [`enforce`](Reifiable::enforce) and
    /// [`may_hold`](Reifiable::may_hold) react to.
    fn events(&self) -> Event;

    /// Whether one call of [`enforce`](Reifiable::enforce) reaches its fixpoint.
    fn is_idempotent(&self) -> bool {
        true
    }

    /// Why [`enforce`](Reifiable::enforce) did what `why` asks
    /// ([`Propagator::explain`]); `false` for the generic answer.
    fn explain(&self, why: &mut Explanation<'_>) -> bool {
        let _ = why;
        false
    }
}

/// The plain constraint's propagator: [`Reifiable::enforce`].
pub(crate) struct Enforce<'c, R>(pub(crate) &'c R);

impl<R: Reifiable> Propagator for Enforce<'_, R> {
    #[inline]
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        self.0.enforce(ctx)
    }

    fn interest(&self) -> Event {
        self.0.events()
    }

    fn is_idempotent(&self) -> bool {
        self.0.is_idempotent()
    }

    fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
        self.0.explain(why)
    }
}

/// One of the relations that can be reified.
#[derive(Clone, Debug)]
pub(crate) enum ReifiableRelation {
    /// `x = y + c`.
    Equal(Equal),
    /// `x ≠ y + c`.
    NotEqual(NotEqual),
    /// `x + c ≤ y`.
    Less(Less),
    /// `x ∈ S` or `x ∉ S`.
    InSet(InSet),
    /// A linear comparison.
    Linear(Linear),
    /// The parity of some literals.
    Xor(Xor),
}

/// Calls `$body` with `$r` bound to the relation inside `$relation`.
macro_rules! dispatch {
    ($relation:expr, $r:ident => $body:expr) => {
        match $relation {
            ReifiableRelation::Equal($r) => $body,
            ReifiableRelation::NotEqual($r) => $body,
            ReifiableRelation::Less($r) => $body,
            ReifiableRelation::InSet($r) => $body,
            ReifiableRelation::Linear($r) => $body,
            ReifiableRelation::Xor($r) => $body,
        }
    };
}

impl ReifiableRelation {
    /// Appends the linear inequalities the relation stands for (those of
    /// `=`, `<=` between two variables or a linear comparison; the others
    /// have none).
    fn inequalities(&self, fixed: &dyn Fn(VarId) -> Option<i64>, out: &mut Vec<Inequality>) {
        dispatch!(self, r => Constraint::inequalities(r, fixed, out));
    }

    fn scope(&self) -> &[VarId] {
        dispatch!(self, r => r.scope())
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        dispatch!(self, r => r.is_satisfied(values))
    }

    fn kind(&self) -> &str {
        dispatch!(self, r => r.kind())
    }

    fn enforce(&self, ctx: &mut Context<'_>) -> PropagationResult {
        dispatch!(self, r => r.enforce(ctx))
    }

    fn may_hold(&self, ctx: &Context<'_>) -> bool {
        dispatch!(self, r => r.may_hold(ctx))
    }

    pub(crate) fn negation(&self) -> ReifiableRelation {
        dispatch!(self, r => r.negation())
    }

    fn events(&self) -> Event {
        dispatch!(self, r => r.events())
    }

    fn is_idempotent(&self) -> bool {
        dispatch!(self, r => Reifiable::is_idempotent(r))
    }

    fn explain(&self, why: &mut Explanation<'_>) -> bool {
        dispatch!(self, r => Reifiable::explain(r, why))
    }

    /// The relation as a plain constraint.
    pub(crate) fn into_constraint(self) -> Box<dyn Constraint> {
        dispatch!(self, r => Box::new(r))
    }
}

/// `b <-> C` (reified) or `b -> C` (half-reified), for a literal `b` and a
/// reifiable relation `C`. Build it with [`Model::reify`](crate::Model::reify)
/// or [`Model::implies`](crate::Model::implies), which choose the relation.
#[derive(Clone, Debug)]
pub struct Reified {
    literal: Lit,
    /// `b -> C` only (half-reified).
    implication: bool,
    condition: ReifiableRelation,
    negation: ReifiableRelation,
    /// The literal's variable, then the relation's scope.
    scope: Vec<VarId>,
}

impl Reified {
    /// `literal <-> condition`, or `literal -> condition` when `implication`.
    pub(crate) fn new(literal: Lit, condition: ReifiableRelation, implication: bool) -> Reified {
        let negation = condition.negation();
        let scope = std::iter::once(literal.var()).chain(condition.scope().iter().copied()).collect();
        Reified { literal, implication, condition, negation, scope }
    }

    /// The literal.
    pub fn literal(&self) -> Lit {
        self.literal
    }

    /// Whether only `b -> C` is required (half reification), not `b <-> C`.
    pub fn is_implication(&self) -> bool {
        self.implication
    }

    /// The kind of the relation `C` (`"linear"`, `"equal"`, ...).
    pub fn relation_kind(&self) -> &str {
        self.condition.kind()
    }

    /// Whether one propagator call reaches its fixpoint: the relation's
    /// propagation does, and the literal's variable is not also in the relation.
    fn is_idempotent(&self) -> bool {
        self.condition.is_idempotent()
            && self.negation.is_idempotent()
            && !self.scope[1..].contains(&self.literal.var())
    }
}

impl Constraint for Reified {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        let literal = self.literal.is_true_at(values[0]);
        let holds = self.condition.is_satisfied(&values[1..]);
        if self.implication { !literal || holds } else { literal == holds }
    }

    fn kind(&self) -> &str {
        if self.implication { "implied" } else { "reified" }
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(ReifiedPropagator { constraint: self }))
    }

    /// Once the literal is fixed, the inequalities of the relation it was
    /// fixed to (none for a half-reified one fixed false); the answer
    /// depends on the literal's variable.
    fn inequalities(&self, fixed: &dyn Fn(VarId) -> Option<i64>, out: &mut Vec<Inequality>) -> Option<VarId> {
        let literal = self.literal;
        match fixed(literal.var()).map(|value| literal.is_true_at(value))? {
            true => self.condition.inequalities(fixed, out),
            false if self.implication => {}
            false => self.negation.inequalities(fixed, out),
        }
        Some(literal.var())
    }
}

struct ReifiedPropagator<'c> {
    constraint: &'c Reified,
}

impl Propagator for ReifiedPropagator<'_> {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let c = self.constraint;
        let literal = c.literal;
        ctx.count_checks(1);
        match ctx.fixed_value(literal.var()).map(|value| literal.is_true_at(value)) {
            Some(true) => c.condition.enforce(ctx),
            Some(false) if c.implication => Ok(()),
            Some(false) => c.negation.enforce(ctx),
            None => {
                if !c.condition.may_hold(ctx) {
                    ctx.fix(literal.var(), literal.value_for(false))?;
                } else if !c.implication && !c.negation.may_hold(ctx) {
                    ctx.fix(literal.var(), literal.value_for(true))?;
                }
                // Fixing the literal leaves nothing to enforce: the relation
                // (or its negation) it was fixed to holds in every tuple left.
                // (Unless the literal's variable is also in the relation: then
                // the propagator is not idempotent, and runs again.)
                Ok(())
            }
        }
    }

    fn interest(&self) -> Event {
        self.constraint.condition.events().max(self.constraint.negation.events())
    }

    fn is_idempotent(&self) -> bool {
        self.constraint.is_idempotent()
    }

    /// With the literal fixed, the relation (or its negation) explains what
    /// it enforced, and the literal's value is added; a literal fixed by the
    /// propagator is explained by why the other side could not hold (the
    /// relation's answer to a failure).
    fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
        let c = self.constraint;
        let b = c.literal.var();
        if let Some(value) = why.fixed_value(b) {
            let truth = c.literal.is_true_at(value);
            if !truth && c.implication {
                return false;
            }
            let relation = if truth { &c.condition } else { &c.negation };
            if !relation.explain(why) {
                return false;
            }
            why.because(Atom::Equal(b, value));
            return true;
        }
        // The literal was open: the propagator fixed it (a boolean), to the
        // value whose removal, or bound, is asked about.
        if why.min(b) < 0 || why.max(b) > 1 {
            return false;
        }
        let fixed_to = match why.explained() {
            Explained::Removed(var) if var == b => match why.removed_values().next() {
                Some(removed) => 1 - removed,
                None => return false,
            },
            Explained::AtLeast(var, bound) | Explained::AtMost(var, bound) if var == b => bound,
            _ => return false,
        };
        // Made false because the relation could not hold, true because its negation could not.
        if c.implication && c.literal.is_true_at(fixed_to) {
            return false;
        }
        let impossible = if c.literal.is_true_at(fixed_to) { &c.negation } else { &c.condition };
        why.as_failure(|why| impossible.explain(why))
    }
}
