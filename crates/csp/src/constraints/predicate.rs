//! A constraint of any arity defined by a closure.

use std::fmt;

use crate::constraint::Constraint;
use crate::ids::VarId;

/// The scope's values satisfy a closure. Propagated by generic support checking.
pub struct Predicate<F> {
    vars: Vec<VarId>,
    check: F,
}

impl<F> Predicate<F>
where
    F: Fn(&[i64]) -> bool + Send + Sync,
{
    /// The constraint `check(values of vars)`.
    pub fn new(vars: Vec<VarId>, check: F) -> Self {
        Predicate { vars, check }
    }
}

impl<F> fmt::Debug for Predicate<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Predicate").field("vars", &self.vars).finish_non_exhaustive()
    }
}

impl<F> Constraint for Predicate<F>
where
    F: Fn(&[i64]) -> bool + Send + Sync + 'static,
{
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        (self.check)(values)
    }

    fn kind(&self) -> &str {
        "predicate"
    }
}
