//! `global_cardinality`: for each value of a cover, the number of variables
//! that take it is a count variable or within constant bounds; closed, no
//! variable takes a value outside the cover.

use super::explain::{Counting, Region, explain_count_var, removed};
use super::{Counted, Tally, propagate_among};
use crate::constraint::{Constraint, Propagator, PropagatorOptions};
use crate::constraints::in_set::retain_in;
use crate::constraints::relaxed::{check_when_fixed, has_repeats};
use crate::ids::{Atom, VarId};
use crate::kernel::{Conflict, Context, Explanation, PropagationResult};

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

    /// The answer of one cover value's among reasoning, or of several for
    /// the values removed one by one, or of the sum of the counts (see the
    /// sibling module `explain`); a value outside a closed cover needs no
    /// reason. A scope with a variable twice is left to the generic answer.
    fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
        if self.repeats {
            return false;
        }
        let constraint = self.constraint;
        let xs = &constraint.scope[..constraint.len];
        let mut atoms = Vec::new();
        let explained = match removed(why) {
            None => {
                let mut amongs = constraint.cover.iter().zip(&constraint.tallies);
                amongs.any(|(&v, &tally)| self.among(v).no_count(why, None, 0, tally, &mut atoms))
                    || self.sum_failure(why, &mut atoms)
            }
            Some((var, region, own)) => match constraint.tallies.iter().position(|&t| t == Tally::Var(var)) {
                Some(j) => self.explain_count(why, j, &mut atoms),
                None => xs.iter().position(|&x| x == var).is_some_and(|i| {
                    atoms.extend(own);
                    self.explain_x(why, i, &region, &mut atoms)
                }),
            },
        };
        if explained {
            why.because_each(atoms);
        }
        explained
    }
}

/// Explanations (see [`Propagator::explain`] above).
impl CardinalityPropagator<'_> {
    fn among(&self, value: i64) -> Counting<'_> {
        Counting { xs: &self.constraint.scope[..self.constraint.len], counted: Counted::One(value) }
    }

    /// Why the `i`th variable lost the `region`: by one cover value's among
    /// for all of it, or value by value.
    fn explain_x(&self, why: &Explanation<'_>, i: usize, region: &Region, atoms: &mut Vec<Atom>) -> bool {
        let constraint = self.constraint;
        let within = constraint.closed.then_some(&self.sorted_cover[..]);
        if within.is_some_and(|cover| !region.meets(cover)) {
            return true; // outside a closed cover
        }
        let amongs = || constraint.cover.iter().copied().zip(constraint.tallies.iter().copied());
        for (v, tally) in amongs() {
            let (on, off) = (region.contains(v), region.has_other(v, within));
            if self.among(v).explain_x_sides(why, i, on, off, tally, atoms) {
                return true;
            }
        }
        let Some(values) = region.values() else { return false };
        let start = atoms.len();
        let each = values
            .into_iter()
            .filter(|w| within.is_none_or(|cover| cover.binary_search(w).is_ok()))
            .all(|w| amongs().any(|(v, tally)| self.among(v).explain_x_sides(why, i, v == w, v != w, tally, atoms)));
        if !each {
            atoms.truncate(start);
        }
        each
    }

    /// Why count `j` lost what the request says: by its among, or by the
    /// sum of the counts, bound by bound or value by value.
    fn explain_count(&self, why: &Explanation<'_>, j: usize, atoms: &mut Vec<Atom>) -> bool {
        let among = self.among(self.constraint.cover[j]);
        if among.explain_tally(why, atoms) {
            return true;
        }
        explain_count_var(
            why,
            atoms,
            |b, atoms| self.sum_at_least(why, Some(j), b, atoms),
            |b, atoms| self.sum_at_most(why, Some(j), b, atoms),
            |k, atoms| {
                among.excludes(why, k, atoms)
                    || self.sum_at_most(why, Some(j), k.saturating_sub(1), atoms)
                    || self.sum_at_least(why, Some(j), k.saturating_add(1), atoms)
            },
        )
    }

    /// A count's bounds, within `0..=n` whatever the tally says, and the
    /// atoms that name them (none for constant bounds).
    fn count_bounds(&self, why: &Explanation<'_>, tally: Tally) -> ((i128, Option<Atom>), (i128, Option<Atom>)) {
        let n = self.constraint.len as i128;
        match tally {
            Tally::Var(c) => {
                let (low, high) = (why.min(c), why.max(c));
                let (low_atom, high_atom) = (Atom::AtLeast(c, low), Atom::AtMost(c, high));
                ((i128::from(low).max(0), Some(low_atom)), (i128::from(high).min(n), Some(high_atom)))
            }
            Tally::Between(low, high) => ((i128::from(low).max(0), None), (i128::from(high).min(n), None)),
        }
    }

    /// Why the counts but the `skip`th were, together, at least `target`
    /// (their lower bounds, the largest first); `false`, adding nothing, if not.
    fn lows_reach(&self, why: &Explanation<'_>, skip: Option<usize>, target: i128, atoms: &mut Vec<Atom>) -> bool {
        let mut sum = 0i128;
        let mut named: Vec<(i128, Atom)> = Vec::new();
        for (k, &tally) in self.constraint.tallies.iter().enumerate() {
            if Some(k) != skip {
                match self.count_bounds(why, tally).0 {
                    (low, None) => sum += low,
                    (low, Some(atom)) if low > 0 => named.push((low, atom)),
                    _ => {}
                }
            }
        }
        named.sort_unstable_by_key(|&(saved, _)| std::cmp::Reverse(saved));
        let mut used = 0;
        while sum < target && used < named.len() {
            sum += named[used].0;
            used += 1;
        }
        let reached = sum >= target;
        if reached {
            atoms.extend(named[..used].iter().map(|&(_, atom)| atom));
        }
        reached
    }

    /// Why the counts but the `skip`th were, together, at most `target`
    /// (a count is at most `n` unnamed; the bounds that save most first).
    fn highs_within(&self, why: &Explanation<'_>, skip: Option<usize>, target: i128, atoms: &mut Vec<Atom>) -> bool {
        let n = self.constraint.len as i128;
        let mut sum = 0i128;
        let mut named: Vec<(i128, Atom)> = Vec::new();
        for (k, &tally) in self.constraint.tallies.iter().enumerate() {
            if Some(k) != skip {
                match self.count_bounds(why, tally).1 {
                    (high, None) => sum += high,
                    (high, Some(atom)) => {
                        sum += n;
                        if high < n {
                            named.push((n - high, atom));
                        }
                    }
                }
            }
        }
        named.sort_unstable_by_key(|&(saved, _)| std::cmp::Reverse(saved));
        let mut used = 0;
        while sum > target && used < named.len() {
            sum -= named[used].0;
            used += 1;
        }
        let within = sum <= target;
        if within {
            atoms.extend(named[..used].iter().map(|&(_, atom)| atom));
        }
        within
    }

    /// Why count `j` was at most `b`: the others took at least `n - b`.
    fn sum_at_most(&self, why: &Explanation<'_>, j: Option<usize>, b: i64, atoms: &mut Vec<Atom>) -> bool {
        self.lows_reach(why, j, self.constraint.len as i128 - i128::from(b), atoms)
    }

    /// Why count `j` was at least `b` (closed): the others took at most `n - b`.
    fn sum_at_least(&self, why: &Explanation<'_>, j: Option<usize>, b: i64, atoms: &mut Vec<Atom>) -> bool {
        self.constraint.closed && self.highs_within(why, j, self.constraint.len as i128 - i128::from(b), atoms)
    }

    /// Why the counts could not add up: more than `n` at least, or (closed)
    /// less than `n` at most.
    fn sum_failure(&self, why: &Explanation<'_>, atoms: &mut Vec<Atom>) -> bool {
        let n = self.constraint.len as i128;
        self.lows_reach(why, None, n + 1, atoms)
            || (self.constraint.closed && self.highs_within(why, None, n - 1, atoms))
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
