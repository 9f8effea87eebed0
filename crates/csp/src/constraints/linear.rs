//! `sum(a_i * x_i) (=, <=, >=) k`, with bounds propagation.

use std::fmt;

use crate::constraint::PropagatorOptions;
use crate::constraint::{Constraint, Propagator};
use crate::ids::VarId;
use crate::kernel::Context;
use crate::kernel::Event;
use crate::kernel::{Conflict, PropagationResult};

/// How a linear sum compares to its right-hand side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// `sum == k`
    Eq,
    /// `sum <= k`
    Le,
    /// `sum >= k`
    Ge,
}

impl fmt::Display for Relation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Relation::Eq => "=",
            Relation::Le => "<=",
            Relation::Ge => ">=",
        })
    }
}

/// `sum(coefficient * variable) relation rhs`.
#[derive(Clone, Debug)]
pub struct Linear {
    vars: Vec<VarId>,
    coefficients: Vec<i64>,
    relation: Relation,
    rhs: i64,
}

impl Linear {
    /// The constraint. Prefer [`Model::linear`](crate::Model::linear), which checks
    /// the arguments and merges repeated variables.
    pub fn new(terms: Vec<(i64, VarId)>, relation: Relation, rhs: i64) -> Linear {
        let (coefficients, vars) = terms.into_iter().unzip();
        Linear { vars, coefficients, relation, rhs }
    }

    /// How far the sum of `values` is from satisfying the relation (0 when it
    /// does): what local search minimises.
    pub(crate) fn distance(&self, values: &[i64]) -> u64 {
        let gap = self.sum(values) - i128::from(self.rhs);
        let distance = match self.relation {
            Relation::Eq => gap.unsigned_abs(),
            Relation::Le => gap.max(0).unsigned_abs(),
            Relation::Ge => gap.min(0).unsigned_abs(),
        };
        u64::try_from(distance).unwrap_or(u64::MAX)
    }

    fn sum(&self, values: &[i64]) -> i128 {
        values.iter().zip(&self.coefficients).map(|(&v, &a)| i128::from(v) * i128::from(a)).sum()
    }
}

impl Constraint for Linear {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        let sum = self.sum(values);
        let k = i128::from(self.rhs);
        match self.relation {
            Relation::Eq => sum == k,
            Relation::Le => sum <= k,
            Relation::Ge => sum >= k,
        }
    }

    fn kind(&self) -> &str {
        "linear"
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(LinearPropagator { constraint: self }))
    }
}

struct LinearPropagator<'c> {
    constraint: &'c Linear,
}

/// `floor(a / b)` for `b > 0`.
fn div_floor(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && a < 0 { q - 1 } else { q }
}

/// `ceil(a / b)` for `b > 0`.
fn div_ceil(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && a > 0 { q + 1 } else { q }
}

/// Clamps a bound to `i64`. Values lie in `-2^62..=2^62`, so a bound beyond
/// `i64` is beyond every value and acts as the `i64` end does: it removes
/// nothing, or everything. (Clamping nearer, to `±(2^63 - 1) / 2`, would cut
/// off the value `2^62` itself.)
fn clamp(bound: i128) -> i64 {
    bound.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

impl Propagator for LinearPropagator<'_> {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let c = self.constraint;
        let k = i128::from(c.rhs);
        let upper = matches!(c.relation, Relation::Eq | Relation::Le);
        let lower = matches!(c.relation, Relation::Eq | Relation::Ge);
        // Bounds reasoning to a fixpoint: for `sum <= k`, every term is at most
        // k minus the smallest the other terms can be; symmetrically for `>=`.
        loop {
            let mut min_sum: i128 = 0;
            let mut max_sum: i128 = 0;
            for (&var, &a) in c.vars.iter().zip(&c.coefficients) {
                let (lo, hi) = term_bounds(ctx, var, a);
                min_sum += lo;
                max_sum += hi;
            }
            ctx.count_checks(c.vars.len() as u64);
            if (upper && min_sum > k) || (lower && max_sum < k) {
                return Err(Conflict);
            }
            let mut changed = false;
            for (&var, &a) in c.vars.iter().zip(&c.coefficients) {
                if a == 0 {
                    continue;
                }
                let (lo, hi) = term_bounds(ctx, var, a);
                let a = i128::from(a);
                if upper {
                    // a * x <= k - (min_sum - lo)
                    let slack = k - (min_sum - lo);
                    changed |= if a > 0 {
                        ctx.set_max(var, clamp(div_floor(slack, a)))?
                    } else {
                        ctx.set_min(var, clamp(div_ceil(-slack, -a)))?
                    };
                }
                if lower {
                    // a * x >= k - (max_sum - hi)
                    let need = k - (max_sum - hi);
                    changed |= if a > 0 {
                        ctx.set_min(var, clamp(div_ceil(need, a)))?
                    } else {
                        ctx.set_max(var, clamp(div_floor(-need, -a)))?
                    };
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }

    fn interest(&self) -> Event {
        Event::Bounds
    }

    fn is_idempotent(&self) -> bool {
        true
    }
}

/// The smallest and largest values of `a * x`.
fn term_bounds(ctx: &Context<'_>, var: VarId, a: i64) -> (i128, i128) {
    let a = i128::from(a);
    let lo = a * i128::from(ctx.min(var));
    let hi = a * i128::from(ctx.max(var));
    if a >= 0 { (lo, hi) } else { (hi, lo) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_rounds_the_right_way() {
        assert_eq!(div_floor(7, 2), 3);
        assert_eq!(div_floor(-7, 2), -4);
        assert_eq!(div_ceil(7, 2), 4);
        assert_eq!(div_ceil(-7, 2), -3);
        assert_eq!(div_ceil(-8, 2), -4);
    }
}
