//! `nvalue`: `n` is the number of distinct values the variables take.

use crate::constraint::{Constraint, Propagator, PropagatorOptions};
use crate::constraints::in_set::retain_in;
use crate::constraints::relaxed::{check_when_fixed, has_repeats};
use crate::ids::VarId;
use crate::kernel::{Context, Cost, PropagationResult};

/// `n = #{xs[i]}` (MiniZinc's `fzn_nvalue(n, xs)`).
///
/// Strength: bounds on `n`. The lower bound is the fewest values that meet
/// every variable's interval (a greedy over the intervals sorted by their
/// upper ends is exact for intervals; Beldiceanu 2001), the upper bound the
/// number of values in the union of the domains (and of variables). When `n`
/// can be no larger than the number of distinct values already fixed, the
/// other variables must take one of those. No interval domain is walked:
/// a domain of as many values as there are variables bounds the union
/// without it, and the restriction to the fixed values moves an interval's
/// bounds.
#[derive(Clone, Debug)]
pub struct NValue {
    /// `[n, xs...]`.
    scope: Vec<VarId>,
}

impl NValue {
    /// The constraint. Prefer [`Model::nvalue`](crate::Model::nvalue).
    pub fn new(n: VarId, xs: &[VarId]) -> NValue {
        NValue { scope: std::iter::once(n).chain(xs.iter().copied()).collect() }
    }
}

impl Constraint for NValue {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        let mut xs = values[1..].to_vec();
        xs.sort_unstable();
        xs.dedup();
        xs.len() as i64 == values[0]
    }

    fn kind(&self) -> &str {
        "nvalue"
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(NValuePropagator {
            constraint: self,
            repeats: has_repeats(&self.scope),
            intervals: Vec::new(),
            values: Vec::new(),
            tuple: Vec::new(),
        }))
    }
}

struct NValuePropagator<'c> {
    constraint: &'c NValue,
    repeats: bool,
    intervals: Vec<(i64, i64)>,
    values: Vec<i64>,
    tuple: Vec<i64>,
}

impl Propagator for NValuePropagator<'_> {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let (n, xs) = self.constraint.scope.split_first().expect("a scope of n and the xs");
        // Lower bound: points that meet every interval, placed greedily at the
        // upper end of the interval that ends first among those not yet met.
        self.intervals.clear();
        self.intervals.extend(xs.iter().map(|&x| (ctx.max(x), ctx.min(x))));
        self.intervals.sort_unstable();
        let mut lower = 0i64;
        let mut last = None;
        for &(high, low) in &self.intervals {
            if last.is_none_or(|point| low > point) {
                lower += 1;
                last = Some(high);
            }
        }
        // Upper bound: the values of the union, and the variables. A domain
        // of as many values as there are variables settles it unwalked (an
        // interval's values are never walked).
        let upper = if xs.iter().any(|&x| ctx.size(x) >= xs.len()) {
            xs.len()
        } else {
            self.values.clear();
            for &x in xs {
                self.values.extend(ctx.values(x));
            }
            self.values.sort_unstable();
            self.values.dedup();
            self.values.len().min(xs.len())
        } as i64;
        ctx.count_checks(xs.len() as u64);
        ctx.set_min(*n, lower)?;
        ctx.set_max(*n, upper)?;
        // With no room for a value not yet fixed, the free variables take fixed ones.
        self.values.clear();
        self.values.extend(xs.iter().filter_map(|&x| ctx.fixed_value(x)));
        self.values.sort_unstable();
        self.values.dedup();
        if ctx.max(*n) <= self.values.len() as i64 {
            let fixed = &self.values;
            for &x in xs {
                retain_in(ctx, x, fixed)?;
            }
        }
        if self.repeats {
            check_when_fixed(ctx, self.constraint, &mut self.tuple)?;
        }
        Ok(())
    }

    fn cost(&self) -> Cost {
        Cost::Expensive
    }
}
