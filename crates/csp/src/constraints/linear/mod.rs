//! `sum(a_i * x_i) (=, ≠, <, <=, >, >=) k`.
//!
//! The inequalities are propagated on bounds to a fixpoint: every term is at
//! most `k` minus the smallest the other terms can be. The values of one
//! variable that have a support form a prefix or a suffix of its domain, so
//! this is domain consistent for `<`, `<=`, `>`, `>=`; for `=` it is bounds
//! consistent. `≠` waits until one variable is left open, and then removes
//! the one value that would make the sum equal (domain consistent). Each
//! relation is reifiable, its negation being the complementary relation.
//!
//! Sums are taken in `i128`: the model refuses terms whose sums could come
//! near its limits (`ModelError::LinearOverflow`). The right-hand side is an
//! `i128` too and may lie beyond `±2^62` (a sum of values near `2^62` reaches
//! it); the model clamps it to just past the sum's reach, where it means the
//! same.
//!
//! A sum posted plain with many terms keeps its sums' bounds from call to
//! call ([`incremental`]), so that a call costs what changed since the last
//! one; short sums, `≠` and reified sums recompute them over every term.

use std::fmt;

use crate::constraint::PropagatorOptions;
use crate::constraint::{Constraint, Inequality, Propagator};
use crate::ids::{Atom, VarId};
use crate::kernel::Context;
use crate::kernel::{Conflict, PropagationResult};
use crate::kernel::{Cost, Event};
use crate::kernel::{Explained, Explanation, HeldBounds};

use super::binary::clamp_bound;
use super::reified::{Enforce, Reifiable, ReifiableRelation};

mod incremental;

use incremental::LongSum;

/// How a linear sum compares to its right-hand side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// `sum == k`
    Eq,
    /// `sum <= k`
    Le,
    /// `sum >= k`
    Ge,
    /// `sum != k`
    Ne,
    /// `sum < k`
    Lt,
    /// `sum > k`
    Gt,
}

impl Relation {
    /// The relation that holds exactly when this one does not (`<=` for `>`).
    pub fn negation(self) -> Relation {
        match self {
            Relation::Eq => Relation::Ne,
            Relation::Ne => Relation::Eq,
            Relation::Le => Relation::Gt,
            Relation::Gt => Relation::Le,
            Relation::Ge => Relation::Lt,
            Relation::Lt => Relation::Ge,
        }
    }

    /// The same comparison with its two sides swapped (`>=` for `<=`).
    pub fn swapped(self) -> Relation {
        match self {
            Relation::Eq | Relation::Ne => self,
            Relation::Le => Relation::Ge,
            Relation::Ge => Relation::Le,
            Relation::Lt => Relation::Gt,
            Relation::Gt => Relation::Lt,
        }
    }

    /// Whether `left relation right`.
    pub fn holds(self, left: i128, right: i128) -> bool {
        match self {
            Relation::Eq => left == right,
            Relation::Ne => left != right,
            Relation::Le => left <= right,
            Relation::Lt => left < right,
            Relation::Ge => left >= right,
            Relation::Gt => left > right,
        }
    }

    /// The relation on whole numbers as bounds `sum >= lower` and
    /// `sum <= upper` (`<` is `<= k - 1`), or `None` for `!=`.
    pub(crate) fn bounds(self, k: i128) -> Option<(Option<i128>, Option<i128>)> {
        match self {
            Relation::Eq => Some((Some(k), Some(k))),
            Relation::Le => Some((None, Some(k))),
            Relation::Lt => Some((None, Some(k - 1))),
            Relation::Ge => Some((Some(k), None)),
            Relation::Gt => Some((Some(k + 1), None)),
            Relation::Ne => None,
        }
    }
}

impl fmt::Display for Relation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Relation::Eq => "=",
            Relation::Le => "<=",
            Relation::Ge => ">=",
            Relation::Ne => "!=",
            Relation::Lt => "<",
            Relation::Gt => ">",
        })
    }
}

/// Rounds of bounds reasoning one call makes before it checks that an
/// equation's open terms can reach its right-hand side at all, then leaves
/// the rest to a later call through the queue, whose clock honours the time
/// limit: on an equation without integer solutions, `3x - 3y = 1` over wide
/// domains, each round moves the bounds by one.
const ROUNDS: u32 = 64;

/// The most values a term may have to count as narrow in
/// [`Linear::reachable`]'s remainders (its values are enumerated).
const NARROW: usize = 4096;

/// The most steps [`Linear::reachable`] takes to enumerate the remainders
/// of the narrow terms' sums (remainders reached times a term's distinct
/// remainders, summed over the terms) before it gives up and answers that
/// the remainder may be reached.
const REMAINDER_BUDGET: usize = 1 << 18;

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// `sum(coefficient * variable) relation rhs`.
#[derive(Clone, Debug)]
pub struct Linear {
    vars: Vec<VarId>,
    coefficients: Vec<i64>,
    relation: Relation,
    rhs: i128,
}

impl Linear {
    /// The constraint. Prefer [`Model::linear`](crate::Model::linear), which checks
    /// the arguments and merges repeated variables. The right-hand side may be
    /// wider than `i64`; built by hand, it must leave room in `i128` for the
    /// sums the propagator takes (the model keeps it within `±(2^125 + 1)`).
    pub fn new(terms: Vec<(i64, VarId)>, relation: Relation, rhs: impl Into<i128>) -> Linear {
        let (coefficients, vars) = terms.into_iter().unzip();
        Linear { vars, coefficients, relation, rhs: rhs.into() }
    }

    /// The relation.
    pub fn relation(&self) -> Relation {
        self.relation
    }

    /// The right-hand side.
    pub(crate) fn rhs(&self) -> i128 {
        self.rhs
    }

    /// How far the sum of `values` is from satisfying the relation (0 when it
    /// does; 1 for an equal sum under `!=`): what local search minimises.
    pub(crate) fn distance(&self, values: &[i64]) -> u64 {
        let sum = self.sum(values);
        let distance = match self.relation.bounds(self.rhs) {
            Some((lower, upper)) => {
                let below = lower.map_or(0, |lower| (lower - sum).max(0));
                let above = upper.map_or(0, |upper| (sum - upper).max(0));
                (below + above).unsigned_abs()
            }
            None => u128::from(sum == self.rhs),
        };
        u64::try_from(distance).unwrap_or(u64::MAX)
    }

    fn sum(&self, values: &[i64]) -> i128 {
        values.iter().zip(&self.coefficients).map(|(&v, &a)| i128::from(v) * i128::from(a)).sum()
    }

    /// The terms `(variable, coefficient)`.
    pub(crate) fn terms(&self) -> impl Iterator<Item = (VarId, i64)> + '_ {
        self.vars.iter().copied().zip(self.coefficients.iter().copied())
    }

    /// The smallest and largest sums over the current domains.
    fn sum_bounds(&self, ctx: &Context<'_>) -> (i128, i128) {
        self.terms().fold((0, 0), |(lo, hi), (var, a)| {
            let (l, h) = term_bounds(ctx, var, a);
            (lo + l, hi + h)
        })
    }

    /// Bounds reasoning to a fixpoint: for `sum <= upper`, every term is at
    /// most `upper` minus the smallest the other terms can be; symmetrically
    /// for `sum >= lower`. Each round reads the sums' bounds from `sums`
    /// and narrows every term with them (a term no wider than the room the
    /// sums leave either side cannot move, and a round is skipped when
    /// `sums` knows that no term is wider than that).
    fn propagate_bounds<S: Sums>(
        &self,
        ctx: &mut Context<'_>,
        lower: Option<i128>,
        upper: Option<i128>,
        sums: &mut S,
    ) -> PropagationResult {
        // The one sum an equation allows, for the remainders' check.
        let equal_to = if lower == upper { lower } else { None };
        let mut rounds = 0u32;
        loop {
            let (min_sum, max_sum) = sums.sums(self, ctx);
            if upper.is_some_and(|k| min_sum > k) || lower.is_some_and(|k| max_sum < k) {
                return Err(Conflict);
            }
            let room = room(lower, upper, min_sum, max_sum);
            let changed = sums.widest(ctx) > room && self.narrow_terms(ctx, lower, upper, (min_sum, max_sum), sums)?;
            if !changed {
                // At a fixpoint over an interval, the search would split it
                // without end if the remainders cannot be reached: checked
                // here too, not only after [`ROUNDS`] rounds.
                if let Some(k) = equal_to
                    && sums.has_interval(self, ctx)
                    && !self.reachable(ctx, k)
                {
                    return Err(Conflict);
                }
                return Ok(());
            }
            rounds += 1;
            if rounds % ROUNDS == 0 {
                if let Some(k) = equal_to
                    && !self.reachable(ctx, k)
                {
                    return Err(Conflict);
                }
                if ctx.can_reschedule() {
                    ctx.reschedule(Cost::Cheap);
                    return Ok(());
                }
            }
        }
    }

    /// One round of bounds reasoning with the sums' bounds `(min_sum,
    /// max_sum)` taken before it: every term wider than the room they leave
    /// is narrowed to it. Tells `sums` of each term narrowed and, at the end,
    /// of the widest term's span. Whether a domain changed.
    fn narrow_terms<S: Sums>(
        &self,
        ctx: &mut Context<'_>,
        lower: Option<i128>,
        upper: Option<i128>,
        (min_sum, max_sum): (i128, i128),
        sums: &mut S,
    ) -> Result<bool, Conflict> {
        let room = room(lower, upper, min_sum, max_sum);
        let (mut changed, mut widest) = (false, 0i128);
        for (i, (var, a)) in self.terms().enumerate() {
            let (lo, hi) = term_bounds(ctx, var, a);
            if hi - lo <= room {
                // Within the room either side: nothing to narrow (and `a == 0`).
                widest = widest.max(hi - lo);
                continue;
            }
            let c = i128::from(a);
            let mut moved = false;
            if let Some(k) = upper {
                // c * x <= k - (min_sum - lo)
                let slack = k - (min_sum - lo);
                moved |= if c > 0 {
                    ctx.set_max(var, clamp_bound(div_floor(slack, c)))?
                } else {
                    ctx.set_min(var, clamp_bound(div_ceil(-slack, -c)))?
                };
            }
            if let Some(k) = lower {
                // c * x >= k - (max_sum - hi)
                let need = k - (max_sum - hi);
                moved |= if c > 0 {
                    ctx.set_min(var, clamp_bound(div_ceil(need, c)))?
                } else {
                    ctx.set_max(var, clamp_bound(div_floor(-need, -c)))?
                };
            }
            let (lo, hi) = if moved {
                sums.narrowed(ctx, i);
                term_bounds(ctx, var, a)
            } else {
                (lo, hi)
            };
            widest = widest.max(hi - lo);
            changed |= moved;
        }
        sums.passed(ctx, widest);
        Ok(changed)
    }

    /// Whether the open terms can sum to what the fixed ones leave of `k`:
    /// only if the greatest common divisor of their coefficients divides it,
    /// and, modulo the divisor `g` of the wide terms' coefficients alone
    /// (those of more than [`NARROW`] values), only if the narrow terms can
    /// reach that remainder: the wide terms' sum is a multiple of `g`. That
    /// is what `10x - 90y - z = 5` with `z` over `0..9` but `5` needs, and
    /// `5000x - 5000y - z = 1` with `z` over `0..99`: the bounds of `x` and
    /// `y` would otherwise move by a few values a round. The remainders are
    /// enumerated whatever `g` (a set of at most [`REMAINDER_BUDGET`] steps'
    /// worth; beyond it the answer is that they may be reached).
    fn reachable(&self, ctx: &Context<'_>, k: i128) -> bool {
        let (mut divisor, mut wide, mut rest) = (0u64, 0u64, k);
        for (var, a) in self.terms() {
            match ctx.fixed_value(var) {
                Some(value) => rest -= i128::from(a) * i128::from(value),
                None => {
                    divisor = gcd(divisor, a.unsigned_abs());
                    if ctx.size(var) > NARROW {
                        wide = gcd(wide, a.unsigned_abs());
                    }
                }
            }
        }
        if divisor != 0 && rest % i128::from(divisor) != 0 {
            return false;
        }
        if wide <= 1 {
            return true;
        }
        // The remainders modulo `wide` the narrow terms can sum to, one
        // term at a time, as a sorted set.
        let modulus = i128::from(wide);
        let mut reached: Vec<u64> = vec![0];
        let mut budget = REMAINDER_BUDGET;
        for (var, a) in self.terms() {
            if ctx.is_fixed(var) || ctx.size(var) > NARROW || a.unsigned_abs() % wide == 0 {
                continue;
            }
            let mut steps: Vec<u64> =
                ctx.values(var).map(|v| (i128::from(a) * i128::from(v)).rem_euclid(modulus) as u64).collect();
            steps.sort_unstable();
            steps.dedup();
            let work = reached.len().saturating_mul(steps.len());
            if work > budget {
                return true;
            }
            budget -= work;
            let mut next: Vec<u64> = reached
                .iter()
                .flat_map(|&r| {
                    steps.iter().map(move |&step| ((u128::from(r) + u128::from(step)) % u128::from(wide)) as u64)
                })
                .collect();
            next.sort_unstable();
            next.dedup();
            reached = next;
        }
        reached.binary_search(&(rest.rem_euclid(modulus) as u64)).is_ok()
    }

    /// `sum != k`: once one variable is left open, it loses the value that
    /// would make the sum `k`; with none left open, the sum is checked.
    fn propagate_not_equal(&self, ctx: &mut Context<'_>, k: i128) -> PropagationResult {
        let mut open = None;
        let mut fixed_sum: i128 = 0;
        for (var, a) in self.terms() {
            if a == 0 {
                continue;
            }
            match ctx.fixed_value(var) {
                Some(value) => fixed_sum += i128::from(a) * i128::from(value),
                None if open.is_some() => return Ok(()),
                None => open = Some((var, i128::from(a))),
            }
        }
        ctx.count_checks(self.vars.len() as u64);
        match open {
            None if fixed_sum == k => Err(Conflict),
            None => Ok(()),
            Some((var, a)) => {
                let rest = k - fixed_sum;
                if rest % a == 0 {
                    if let Ok(value) = i64::try_from(rest / a) {
                        ctx.remove(var, value)?;
                    }
                }
                Ok(())
            }
        }
    }
}

impl Constraint for Linear {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        self.relation.holds(self.sum(values), self.rhs)
    }

    fn kind(&self) -> &str {
        "linear"
    }

    /// A long sum keeps its sums from call to call (`LongSum`); a short
    /// one, and `!=`, recomputes them.
    fn propagator(&self, options: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        match LongSum::new(self, options.long_sums_from.unwrap_or(incremental::LONG)) {
            Some(long) => Some(Box::new(long)),
            None => Some(Box::new(Enforce(self))),
        }
    }

    /// The inequalities the relation enforces (none for `!=`).
    fn inequalities(&self, _: &dyn Fn(VarId) -> Option<i64>, out: &mut Vec<Inequality>) -> Option<VarId> {
        let (lower, upper) = self.relation.bounds(self.rhs)?;
        if let Some(k) = upper {
            out.push(Inequality { terms: self.terms().map(|(x, a)| (a, x)).collect(), rhs: k });
        }
        if let Some(k) = lower {
            // sum >= k  <=>  -sum <= -k (coefficients are within ±2^62).
            out.push(Inequality { terms: self.terms().map(|(x, a)| (-a, x)).collect(), rhs: -k });
        }
        None
    }
}

impl Reifiable for Linear {
    fn enforce(&self, ctx: &mut Context<'_>) -> PropagationResult {
        let k = self.rhs;
        match self.relation.bounds(k) {
            Some((lower, upper)) => self.propagate_bounds(ctx, lower, upper, &mut Recompute),
            None => self.propagate_not_equal(ctx, k),
        }
    }

    fn may_hold(&self, ctx: &Context<'_>) -> bool {
        let (min_sum, max_sum) = self.sum_bounds(ctx);
        let k = self.rhs;
        match self.relation.bounds(k) {
            Some((lower, upper)) => lower.is_none_or(|k| max_sum >= k) && upper.is_none_or(|k| min_sum <= k),
            // Any open variable (with a coefficient) can move the sum off `k`.
            None => min_sum != max_sum || min_sum != k,
        }
    }

    fn negation(&self) -> ReifiableRelation {
        ReifiableRelation::Linear(Linear { relation: self.relation.negation(), ..self.clone() })
    }

    fn events(&self) -> Event {
        if self.relation == Relation::Ne { Event::Fixed } else { Event::Bounds }
    }

    fn explain(&self, why: &mut Explanation<'_>) -> bool {
        let k = self.rhs;
        match self.relation.bounds(k) {
            Some((lower, upper)) => self.explain_bounds(why, lower, upper),
            None => self.explain_not_equal(why),
        }
    }
}

impl Linear {
    /// Bounds reasoning: a term's values beyond what the other terms' bounds
    /// leave (because of those bounds), a failure (because of every bound).
    ///
    /// Each term's bounds as they were are read once (from the history, the
    /// costly part), and both the sums and the answer come from them.
    fn explain_bounds(&self, why: &mut Explanation<'_>, lower: Option<i128>, upper: Option<i128>) -> bool {
        let bounds: smallvec::SmallVec<[HeldBounds; 64]> = self.vars.iter().map(|&var| why.bounds(var)).collect();
        // Term `i` at its smallest (`low`) or largest: from the smallest
        // value if `a >= 0` and `low`, or `a < 0` and not.
        let term = |i: usize, low: bool| {
            let (a, HeldBounds { min, max, .. }) = (self.coefficients[i], bounds[i]);
            i128::from(a) * i128::from(if (a >= 0) == low { min } else { max })
        };
        // The sums of every term at their smallest and largest.
        let (min_sum, max_sum) =
            (0..self.vars.len()).fold((0i128, 0i128), |(lo, hi), i| (lo + term(i, true), hi + term(i, false)));
        // Adds the other terms' bounds on one side (`low`: those that make
        // them smallest).
        let because = |why: &mut Explanation<'_>, skip: Option<usize>, low: bool| {
            for (i, (var, a)) in self.terms().enumerate() {
                if Some(i) != skip && a != 0 {
                    why.because_bound(var, bounds[i], (a >= 0) == low);
                }
            }
        };
        let explained = why.explained();
        let var = match explained {
            Explained::Failure => {
                if upper.is_some_and(|k| min_sum > k) {
                    because(why, None, true);
                    return true;
                }
                if lower.is_some_and(|k| max_sum < k) {
                    because(why, None, false);
                    return true;
                }
                return false;
            }
            Explained::Removed(var) | Explained::AtLeast(var, _) | Explained::AtMost(var, _) => var,
        };
        let Some(i) = self.vars.iter().position(|&v| v == var) else { return false };
        let a = i128::from(self.coefficients[i]);
        // The sums of the other terms.
        let (others_min, others_max) = (min_sum - term(i, true), max_sum - term(i, false));
        // Which side excludes value `v` of the term.
        let by_upper = |v: i128| upper.is_some_and(|k| a * v + others_min > k);
        let by_lower = |v: i128| lower.is_some_and(|k| a * v + others_max < k);
        let (mut low, mut high) = (false, false);
        let mut side = |v: i128| {
            if by_upper(v) {
                low = true;
            } else if by_lower(v) {
                high = true;
            } else {
                return false;
            }
            true
        };
        let ok = match explained {
            Explained::Removed(_) => {
                let values: smallvec::SmallVec<[i64; 8]> = why.removed_values().collect();
                values.into_iter().all(|v| side(i128::from(v)))
            }
            // The values below the bound (the largest of them is the hardest for
            // a side that grows with the value, the smallest for the other).
            Explained::AtLeast(_, b) => {
                let edge = i128::from(b) - 1;
                if a > 0 { by_lower(edge) && side(edge) } else { by_upper(edge) && side(edge) }
            }
            Explained::AtMost(_, b) => {
                let edge = i128::from(b) + 1;
                if a > 0 { by_upper(edge) && side(edge) } else { by_lower(edge) && side(edge) }
            }
            _ => false,
        };
        if !ok {
            return false;
        }
        if low {
            because(why, Some(i), true);
        }
        if high {
            because(why, Some(i), false);
        }
        true
    }

    /// `≠`: the one open variable's value removed because the others were
    /// fixed; a failure because all were.
    fn explain_not_equal(&self, why: &mut Explanation<'_>) -> bool {
        let skip = match why.explained() {
            Explained::Removed(var) => Some(var),
            Explained::Failure => None,
            _ => return false,
        };
        let mut atoms: smallvec::SmallVec<[Atom; 8]> = smallvec::SmallVec::new();
        for (var, a) in self.terms() {
            if a == 0 || Some(var) == skip {
                continue;
            }
            match why.fixed_value(var) {
                Some(value) => atoms.push(Atom::Equal(var, value)),
                None => return false,
            }
        }
        atoms.into_iter().for_each(|atom| why.because(atom));
        true
    }
}

/// Where [`Linear::propagate_bounds`] reads the sums' bounds, and what it
/// tells of its narrowing: [`Recompute`] for short sums and reification,
/// [`LongSum`] for a long sum posted plain.
trait Sums {
    /// The smallest and largest sums over the current domains.
    fn sums(&mut self, linear: &Linear, ctx: &mut Context<'_>) -> (i128, i128);

    /// At least every term's span (largest less smallest value).
    fn widest(&self, ctx: &Context<'_>) -> i128;

    /// Whether a variable of the sum has an interval domain.
    fn has_interval(&self, linear: &Linear, ctx: &Context<'_>) -> bool;

    /// Term `i`'s domain was narrowed.
    fn narrowed(&mut self, ctx: &mut Context<'_>, i: usize);

    /// A round ended with no term's span above `widest`.
    fn passed(&mut self, ctx: &mut Context<'_>, widest: i128);
}

/// The sums' bounds recomputed over every term at each round.
struct Recompute;

impl Sums for Recompute {
    fn sums(&mut self, linear: &Linear, ctx: &mut Context<'_>) -> (i128, i128) {
        ctx.count_checks(linear.vars.len() as u64);
        linear.sum_bounds(ctx)
    }

    fn widest(&self, _: &Context<'_>) -> i128 {
        i128::MAX
    }

    fn has_interval(&self, linear: &Linear, ctx: &Context<'_>) -> bool {
        linear.vars.iter().any(|&var| ctx.is_interval(var))
    }

    fn narrowed(&mut self, _: &mut Context<'_>, _: usize) {}

    fn passed(&mut self, _: &mut Context<'_>, _: i128) {}
}

/// The room the sums' bounds leave a term to move in: a term whose span is
/// at most this cannot be narrowed by either side.
fn room(lower: Option<i128>, upper: Option<i128>, min_sum: i128, max_sum: i128) -> i128 {
    let below = upper.map_or(i128::MAX, |k| k - min_sum);
    let above = lower.map_or(i128::MAX, |k| max_sum - k);
    below.min(above)
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

    #[test]
    fn local_search_measures_the_distance_of_every_relation() {
        let x = VarId { index: 0, model: 0 };
        let distance = |relation, value| Linear::new(vec![(2, x)], relation, 4).distance(&[value]);
        // 2x against 4: x = 1 is 2 below, x = 2 equal, x = 3 is 2 above.
        let expected = [
            (Relation::Eq, [2, 0, 2]),
            (Relation::Ne, [0, 1, 0]),
            (Relation::Le, [0, 0, 2]),
            (Relation::Lt, [0, 1, 3]),
            (Relation::Ge, [2, 0, 0]),
            (Relation::Gt, [3, 1, 0]),
        ];
        for (relation, distances) in expected {
            assert_eq!([1, 2, 3].map(|v| distance(relation, v)), distances, "{relation}");
            for v in 1..=3 {
                let satisfied = Linear::new(vec![(2, x)], relation, 4).is_satisfied(&[v]);
                assert_eq!(distance(relation, v) == 0, satisfied, "{relation} at {v}");
            }
        }
    }

    #[test]
    fn relations_negate_and_swap() {
        for relation in [Relation::Eq, Relation::Ne, Relation::Le, Relation::Lt, Relation::Ge, Relation::Gt] {
            assert_eq!(relation.negation().negation(), relation);
            assert_eq!(relation.swapped().swapped(), relation);
            for (a, b) in [(1, 2), (2, 2), (3, 2)] {
                assert_eq!(relation.negation().holds(a, b), !relation.holds(a, b), "{relation} on {a}, {b}");
                assert_eq!(relation.swapped().holds(b, a), relation.holds(a, b), "{relation} on {a}, {b}");
            }
        }
    }
}
