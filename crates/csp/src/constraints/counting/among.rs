//! `among`: the number of variables that take a value of a set is a count
//! variable, or a constant range (`at_least`, `at_most`, `exactly`).

use super::explain::{Counting, removed};
use super::incremental::Kept;
use super::{Counted, Tally, propagate_among};
use crate::constraint::{Constraint, Propagator, PropagatorOptions};
use crate::constraints::relaxed::{check_when_fixed, has_repeats};
use crate::ids::VarId;
use crate::kernel::{Context, Explanation, PropagationResult};

/// `#{i : xs[i] in values}` is `count`, or in a range of constants; domain
/// consistent when the variables are distinct.
#[derive(Clone, Debug)]
pub struct Among {
    /// The `xs`, then the count variable if there is one.
    scope: Vec<VarId>,
    /// The counted values, sorted, without repeats.
    values: Vec<i64>,
    tally: Tally,
}

impl Among {
    /// `#{i : xs[i] in values} = count` (MiniZinc's `among(count, xs, values)`).
    /// Prefer [`Model::among`](crate::Model::among).
    pub fn new(count: VarId, xs: &[VarId], values: &[i64]) -> Among {
        let scope = xs.iter().copied().chain(std::iter::once(count)).collect();
        Among { scope, values: sorted(values), tally: Tally::Var(count) }
    }

    /// `low <= #{i : xs[i] in values} <= high`. Prefer
    /// [`Model::at_least`](crate::Model::at_least),
    /// [`at_most`](crate::Model::at_most) or [`exactly`](crate::Model::exactly).
    pub fn between(low: i64, high: i64, xs: &[VarId], values: &[i64]) -> Among {
        Among { scope: xs.to_vec(), values: sorted(values), tally: Tally::Between(low, high) }
    }

    fn xs(&self) -> &[VarId] {
        match self.tally {
            Tally::Var(_) => &self.scope[..self.scope.len() - 1],
            Tally::Between(..) => &self.scope,
        }
    }

    fn counted(&self) -> Counted<'_> {
        match self.values[..] {
            [one] => Counted::One(one),
            _ => Counted::Set(&self.values),
        }
    }
}

/// The values sorted, without repeats.
fn sorted(values: &[i64]) -> Vec<i64> {
    let mut values = values.to_vec();
    values.sort_unstable();
    values.dedup();
    values
}

impl Constraint for Among {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        let n = self.xs().len();
        let count = values[..n].iter().filter(|v| self.values.binary_search(v).is_ok()).count();
        self.tally.holds(count as i64, values.get(n).copied())
    }

    fn kind(&self) -> &str {
        "among"
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(AmongPropagator {
            constraint: self,
            repeats: has_repeats(&self.scope),
            kept: Kept::new(self.xs()),
            tuple: Vec::new(),
        }))
    }
}

struct AmongPropagator<'c> {
    constraint: &'c Among,
    repeats: bool,
    /// The counts kept from call to call (a long array).
    kept: Option<Kept>,
    tuple: Vec<i64>,
}

impl Propagator for AmongPropagator<'_> {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let constraint = self.constraint;
        let (xs, counted, tally) = (constraint.xs(), constraint.counted(), constraint.tally);
        match &mut self.kept {
            Some(kept) => kept.propagate(ctx, xs, counted, tally)?,
            None => propagate_among(ctx, xs, counted, tally)?,
        }
        // Kept counts tell when a variable is still undecided (so unfixed).
        let undecided = self.kept.as_ref().is_some_and(|kept| !kept.all_decided(ctx));
        if self.repeats && !undecided {
            check_when_fixed(ctx, constraint, &mut self.tuple)?;
        }
        Ok(())
    }

    fn is_idempotent(&self) -> bool {
        !self.repeats
    }

    fn initialise(&mut self, ctx: &mut Context<'_>) {
        if let Some(kept) = &mut self.kept {
            kept.initialise(ctx, self.constraint.counted());
        }
    }

    /// The among reasoning's answer (see the sibling module `explain`); a
    /// scope with a variable twice is left to the generic answer.
    fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
        if self.repeats {
            return false;
        }
        let (xs, tally) = (self.constraint.xs(), self.constraint.tally);
        let counting = Counting { xs, counted: self.constraint.counted() };
        let mut atoms = Vec::new();
        let explained = match removed(why) {
            None => counting.no_count(why, None, 0, tally, &mut atoms),
            Some((var, ..)) if tally == Tally::Var(var) => counting.explain_tally(why, &mut atoms),
            Some((var, region, own)) => xs.iter().position(|&x| x == var).is_some_and(|i| {
                atoms.extend(own);
                counting.explain_x(why, i, &region, tally, &mut atoms)
            }),
        };
        if explained {
            why.because_each(atoms);
        }
        explained
    }
}
