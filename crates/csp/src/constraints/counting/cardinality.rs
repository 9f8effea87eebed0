//! `global_cardinality`: for each value of a cover, the number of variables
//! that take it is a count variable or within constant bounds; closed, no
//! variable takes a value outside the cover.

use super::{Counted, Tally, propagate_among};
use crate::constraint::{Constraint, Propagator, PropagatorOptions};
use crate::constraints::in_set::retain_in;
use crate::constraints::relaxed::{check_when_fixed, has_repeats};
use crate::ids::VarId;
use crate::kernel::{Conflict, Context, PropagationResult};

/// For every `j`, `#{i : xs[i] = cover[j]}` is `counts[j]` (or within
/// `low[j]..=up[j]`); when closed, every `xs[i]` is in the cover.
///
/// Strength: counting propagation, the conjunction of a domain-consistent
/// [`Among`](crate::constraints::Among) per cover value, plus the sum of the
/// counts (at most the number of variables, exactly that when closed). It is
/// not domain consistent on the whole (Régin's flow-based propagator would be).
#[derive(Clone, Debug)]
pub struct GlobalCardinality {
    /// The `xs`, then the count variables, if any.
    scope: Vec<VarId>,
    len: usize,
    cover: Vec<i64>,
    tallies: Vec<Tally>,
    closed: bool,
}

impl GlobalCardinality {
    /// Counts as variables (MiniZinc's `fzn_global_cardinality`, or `_closed`).
    /// Prefer [`Model::global_cardinality`](crate::Model::global_cardinality),
    /// which checks the arguments.
    pub fn new(xs: &[VarId], cover: &[i64], counts: &[VarId], closed: bool) -> GlobalCardinality {
        GlobalCardinality {
            scope: xs.iter().chain(counts).copied().collect(),
            len: xs.len(),
            cover: cover.to_vec(),
            tallies: counts.iter().map(|&c| Tally::Var(c)).collect(),
            closed,
        }
    }

    /// Counts within constant bounds (`fzn_global_cardinality_low_up`, or
    /// `_closed`). Prefer
    /// [`Model::global_cardinality_low_up`](crate::Model::global_cardinality_low_up).
    pub fn low_up(xs: &[VarId], cover: &[i64], low: &[i64], up: &[i64], closed: bool) -> GlobalCardinality {
        GlobalCardinality {
            scope: xs.to_vec(),
            len: xs.len(),
            cover: cover.to_vec(),
            tallies: low.iter().zip(up).map(|(&l, &u)| Tally::Between(l, u)).collect(),
            closed,
        }
    }
}

impl Constraint for GlobalCardinality {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        let xs = &values[..self.len];
        if self.closed && xs.iter().any(|v| !self.cover.contains(v)) {
            return false;
        }
        // Count variables, when there are some, follow the xs in cover order.
        self.cover.iter().zip(&self.tallies).enumerate().all(|(j, (&value, tally))| {
            let count = xs.iter().filter(|&&v| v == value).count() as i64;
            tally.holds(count, values.get(self.len + j).copied())
        })
    }

    fn kind(&self) -> &str {
        "global_cardinality"
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        let mut sorted_cover = self.cover.clone();
        sorted_cover.sort_unstable();
        Some(Box::new(CardinalityPropagator {
            constraint: self,
            repeats: has_repeats(&self.scope),
            sorted_cover,
            tuple: Vec::new(),
        }))
    }
}

struct CardinalityPropagator<'c> {
    constraint: &'c GlobalCardinality,
    repeats: bool,
    sorted_cover: Vec<i64>,
    tuple: Vec<i64>,
}

impl Propagator for CardinalityPropagator<'_> {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let constraint = self.constraint;
        let xs = &constraint.scope[..constraint.len];
        if constraint.closed {
            let cover = &self.sorted_cover;
            for &x in xs {
                retain_in(ctx, x, cover)?;
            }
        }
        for (&value, &tally) in constraint.cover.iter().zip(&constraint.tallies) {
            propagate_among(ctx, xs, Counted::One(value), tally)?;
        }
        self.propagate_sum(ctx)?;
        if self.repeats {
            check_when_fixed(ctx, constraint, &mut self.tuple)?;
        }
        Ok(())
    }

    fn is_idempotent(&self) -> bool {
        false
    }
}

impl CardinalityPropagator<'_> {
    /// The counts add up to at most the number of variables, and to exactly
    /// that when the cover is closed: bounds reasoning on their sum.
    fn propagate_sum(&self, ctx: &mut Context<'_>) -> PropagationResult {
        let constraint = self.constraint;
        let n = constraint.len as i128;
        // A count is between 0 and the number of variables, whatever its bounds say.
        let bounds = |ctx: &Context<'_>, tally: &Tally| {
            let (low, high) = tally.bounds(ctx);
            (i128::from(low.max(0)), i128::from(high).min(n))
        };
        let low_sum: i128 = constraint.tallies.iter().map(|t| bounds(ctx, t).0).sum();
        let high_sum: i128 = constraint.tallies.iter().map(|t| bounds(ctx, t).1).sum();
        if low_sum > n || (constraint.closed && high_sum < n) {
            return Err(Conflict);
        }
        for tally in &constraint.tallies {
            let (low, high) = bounds(ctx, tally);
            if let Tally::Var(count) = *tally {
                // The others need at least `low_sum - low` variables.
                let most = n - (low_sum - low);
                ctx.set_max(count, most as i64)?;
                if constraint.closed {
                    let least = n - (high_sum - high);
                    ctx.set_min(count, least as i64)?;
                }
            }
        }
        Ok(())
    }
}
