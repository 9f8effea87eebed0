//! `nvalue`: `n` is the number of distinct values the variables take.

use crate::constraint::{Constraint, Propagator, PropagatorOptions};
use crate::constraints::in_set::retain_in;
use crate::constraints::relaxed::{check_when_fixed, has_repeats};
use crate::ids::{Atom, VarId};
use crate::kernel::{Context, Cost, Explained, Explanation, PropagationResult};

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
///
/// Explanations: `n`'s lower bound by the bounds of as many pairwise
/// disjoint intervals as it counts (the greedy's); its upper bound by the
/// absence from each variable of the values outside the union (nothing when
/// it is the number of variables); a variable's value by `n`'s upper bound
/// and one variable fixed to each fixed value.
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

    /// See the struct's docs.
    fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
        if self.repeats {
            return false;
        }
        let n = self.constraint.scope[0];
        let mut atoms = Vec::new();
        let answered = match why.explained() {
            Explained::Failure => false,
            Explained::AtLeast(var, bound) if var == n => self.explain_lower(why, bound, &mut atoms),
            Explained::AtMost(var, bound) if var == n => self.explain_upper(why, bound, &mut atoms),
            Explained::Removed(var) if var == n => {
                // Values below the greedy's count, and values above the union's.
                let lower = self.lower(why).len() as i64;
                let removed: Vec<i64> = why.removed_values().collect();
                let below = removed.iter().filter(|&&v| v < lower).max();
                let above = removed.iter().filter(|&&v| v >= lower).min();
                below.is_none_or(|&v| self.explain_lower(why, v + 1, &mut atoms))
                    && above.is_none_or(|&v| self.explain_upper(why, v - 1, &mut atoms))
            }
            Explained::Removed(var) => {
                let removed: Vec<i64> = why.removed_values().collect();
                self.explain_fixed(why, var, &removed, &mut atoms)
            }
            Explained::AtLeast(var, bound) => {
                atoms.push(Atom::AtLeast(var, why.min(var)));
                self.explain_fixed_range(why, var, (why.min(var), bound - 1), &mut atoms)
            }
            Explained::AtMost(var, bound) => {
                atoms.push(Atom::AtMost(var, why.max(var)));
                self.explain_fixed_range(why, var, (bound + 1, why.max(var)), &mut atoms)
            }
        };
        if answered {
            why.because_each(atoms);
        }
        answered
    }
}

impl NValuePropagator<'_> {
    /// The greedy's intervals, pairwise disjoint: as many as the fewest
    /// values that meet every variable's interval (see the struct's docs).
    fn lower(&self, why: &Explanation<'_>) -> Vec<VarId> {
        let xs = &self.constraint.scope[1..];
        let mut intervals: Vec<(i64, i64, VarId)> = xs.iter().map(|&x| (why.max(x), why.min(x), x)).collect();
        intervals.sort_unstable();
        let mut chosen = Vec::new();
        let mut last = None;
        for (high, low, x) in intervals {
            if last.is_none_or(|point| low > point) {
                chosen.push(x);
                last = Some(high);
            }
        }
        chosen
    }

    /// Why `n >= bound`: the bounds of `bound` pairwise disjoint intervals.
    fn explain_lower(&self, why: &Explanation<'_>, bound: i64, atoms: &mut Vec<Atom>) -> bool {
        let chosen = self.lower(why);
        if (chosen.len() as i64) < bound {
            return false;
        }
        for &x in chosen.iter().take(bound.max(0) as usize) {
            atoms.push(Atom::AtLeast(x, why.min(x)));
            atoms.push(Atom::AtMost(x, why.max(x)));
        }
        true
    }

    /// Why `n <= bound`: nothing when the variables are no more than that,
    /// else each variable's absent values outside the union of the domains
    /// (an interval's bounds).
    fn explain_upper(&self, why: &Explanation<'_>, bound: i64, atoms: &mut Vec<Atom>) -> bool {
        let xs = &self.constraint.scope[1..];
        if xs.len() as i64 <= bound {
            return true;
        }
        if xs.iter().any(|&x| why.size(x) >= xs.len() as u64) {
            return false;
        }
        let mut union: Vec<i64> = xs.iter().flat_map(|&x| why.values(x)).collect();
        union.sort_unstable();
        union.dedup();
        if union.len() as i64 > bound {
            return false;
        }
        for &x in xs {
            if why.is_interval(x) {
                atoms.push(Atom::AtLeast(x, why.min(x)));
                atoms.push(Atom::AtMost(x, why.max(x)));
            } else {
                let outside = why.initial_values(x).filter(|v| union.binary_search(v).is_err());
                atoms.extend(outside.map(|v| Atom::NotEqual(x, v)));
            }
        }
        true
    }

    /// The fixed values then, each with one variable fixed to it.
    fn fixed(&self, why: &Explanation<'_>) -> Vec<(i64, VarId)> {
        let mut fixed: Vec<(i64, VarId)> =
            self.constraint.scope[1..].iter().filter_map(|&x| why.fixed_value(x).map(|v| (v, x))).collect();
        fixed.sort_unstable();
        fixed.dedup_by_key(|&mut (v, _)| v);
        fixed
    }

    /// Why `x` lost `removed`, none of them a fixed value: `n` could count
    /// no more than the fixed values.
    fn explain_fixed(&self, why: &Explanation<'_>, x: VarId, removed: &[i64], atoms: &mut Vec<Atom>) -> bool {
        let fixed = self.fixed(why);
        let n = self.constraint.scope[0];
        if why.fixed_value(x).is_some()
            || why.max(n) > fixed.len() as i64
            || removed.iter().any(|v| fixed.binary_search_by_key(v, |&(w, _)| w).is_ok())
        {
            return false;
        }
        atoms.push(Atom::AtMost(n, fixed.len() as i64));
        atoms.extend(fixed.iter().map(|&(v, y)| Atom::Equal(y, v)));
        true
    }

    /// [`explain_fixed`](Self::explain_fixed) for the values `lo..=hi` of an interval.
    fn explain_fixed_range(
        &self,
        why: &Explanation<'_>,
        x: VarId,
        (lo, hi): (i64, i64),
        atoms: &mut Vec<Atom>,
    ) -> bool {
        let inside: Vec<i64> = self.fixed(why).iter().map(|&(v, _)| v).filter(|v| (lo..=hi).contains(v)).collect();
        inside.is_empty() && self.explain_fixed(why, x, &[], atoms)
    }
}
