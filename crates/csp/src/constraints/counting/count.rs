//! `count`: the number of variables equal to a variable `y` is a variable `c`.
//!
//! When `y` is an interval domain (a range wider than the bitset limit, kept as
//! its bounds) with more values than there are `xs`, its values are not
//! walked: `c` is bounded by the `xs` whose bounds meet `y`'s (sound, weaker),
//! and the constraint is checked once `y` is fixed.

use super::explain::{Counting, Region, removed};
use super::incremental::Kept;
use super::{Counted, Tally, propagate_among};
use crate::constraint::{Constraint, Propagator, PropagatorOptions};
use crate::constraints::relaxed::{check_when_fixed, has_repeats};
use crate::ids::{Atom, VarId};
use crate::kernel::{Context, Explained, Explanation, PropagationResult};

/// `c = #{i : xs[i] = y}` (MiniZinc's `fzn_count_eq(xs, y, c)`); domain
/// consistent when the variables are distinct.
#[derive(Clone, Debug)]
pub struct Count {
    /// `[xs..., y, c]`.
    scope: Vec<VarId>,
}

impl Count {
    /// The constraint. Prefer [`Model::count`](crate::Model::count).
    pub fn new(xs: &[VarId], y: VarId, c: VarId) -> Count {
        Count { scope: xs.iter().copied().chain([y, c]).collect() }
    }

    fn parts(&self) -> (&[VarId], VarId, VarId) {
        let n = self.scope.len() - 2;
        (&self.scope[..n], self.scope[n], self.scope[n + 1])
    }
}

impl Constraint for Count {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        let n = values.len() - 2;
        let (y, c) = (values[n], values[n + 1]);
        values[..n].iter().filter(|&&v| v == y).count() as i64 == c
    }

    fn kind(&self) -> &str {
        "count"
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(CountPropagator {
            constraint: self,
            repeats: has_repeats(&self.scope),
            kept: None,
            ys: Vec::new(),
            lower: Vec::new(),
            upper: Vec::new(),
            counts: Vec::new(),
            keep: Vec::new(),
            tuple: Vec::new(),
        }))
    }
}

struct CountPropagator<'c> {
    constraint: &'c Count,
    repeats: bool,
    /// When `y` is fixed from the start: its value, and the counts kept
    /// from call to call (a long array).
    kept: Option<(i64, Kept)>,
    /// `y`'s values, and for each the number of `xs` fixed to it and the
    /// number that can take it.
    ys: Vec<i64>,
    lower: Vec<i64>,
    upper: Vec<i64>,
    /// `c`'s values.
    counts: Vec<i64>,
    /// Per value of `y`: whether a count of it is allowed.
    keep: Vec<bool>,
    tuple: Vec<i64>,
}

impl CountPropagator<'_> {
    /// Whether `c` allows a count in `low..=high`.
    fn allows(&self, low: i64, high: i64) -> bool {
        let at = self.counts.partition_point(|&k| k < low);
        low <= high && self.counts.get(at).is_some_and(|&k| k <= high)
    }
}

impl Propagator for CountPropagator<'_> {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let constraint = self.constraint;
        let (xs, y, c) = constraint.parts();
        if let Some(value) = ctx.fixed_value(y) {
            // A fixed y: among with one value.
            match &mut self.kept {
                Some((kept_value, kept)) if *kept_value == value => {
                    kept.propagate(ctx, xs, Counted::One(value), Tally::Var(c))?;
                }
                _ => propagate_among(ctx, xs, Counted::One(value), Tally::Var(c))?,
            }
        } else if ctx.is_interval(y) && ctx.size(y) > xs.len() {
            // Too many values of y to walk, and among them one that no x is
            // fixed to: the count is anywhere from 0 up to the xs that y can meet.
            let meet = xs.iter().filter(|&&x| ctx.min(x) <= ctx.max(y) && ctx.min(y) <= ctx.max(x)).count();
            ctx.count_checks(xs.len() as u64);
            ctx.set_min(c, 0)?;
            ctx.set_max(c, meet as i64)?;
        } else {
            self.propagate_variable_value(ctx, xs, y, c)?;
        }
        // Kept counts tell when a variable is still undecided (so unfixed).
        let undecided = self.kept.as_ref().is_some_and(|(_, kept)| !kept.all_decided(ctx));
        if self.repeats && !undecided {
            check_when_fixed(ctx, constraint, &mut self.tuple)?;
        }
        Ok(())
    }

    fn is_idempotent(&self) -> bool {
        false
    }

    fn initialise(&mut self, ctx: &mut Context<'_>) {
        let (xs, y, _) = self.constraint.parts();
        if let Some(value) = ctx.fixed_value(y) {
            self.kept = Kept::new(xs).map(|mut kept| {
                kept.initialise(ctx, Counted::One(value));
                (value, kept)
            });
        }
    }

    /// The among reasoning's answer for every value `y` had, with `y`'s
    /// absent values (see the sibling module `explain`); over a wide
    /// interval `y`, `c`'s upper bound by the `xs` that could not meet `y`.
    /// A scope with a variable twice is left to the generic answer.
    fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
        if self.repeats {
            return false;
        }
        let (xs, y, c) = self.constraint.parts();
        let mut atoms = Vec::new();
        let wide = why.is_interval(y) && why.size(y) > xs.len() as u64;
        let explained = match removed(why) {
            None => false,
            Some((var, ..)) if wide => var == c && explain_wide(why, xs, y, &mut atoms),
            Some((var, region, own)) => {
                explain_by_values(why, xs, y, c, var, &region, &mut atoms).is_some_and(|y_domain| {
                    atoms.extend(own);
                    if y_domain && why.is_interval(y) {
                        atoms.extend([Atom::AtLeast(y, why.min(y)), Atom::AtMost(y, why.max(y))]);
                    } else if y_domain {
                        why.because_domain(y);
                    }
                    true
                })
            }
        };
        if explained {
            why.because_each(atoms);
        }
        explained
    }
}

/// Why `var` lost the `region`, for every value `v` `y` had: by the among
/// reasoning on `v`. `Some(true)` when the answer needs `y`'s absent values
/// too (`y` had no other), `None` if some value had no answer.
fn explain_by_values(
    why: &Explanation<'_>,
    xs: &[VarId],
    y: VarId,
    c: VarId,
    var: VarId,
    region: &Region,
    atoms: &mut Vec<Atom>,
) -> Option<bool> {
    let counting = |v: i64| Counting { xs, counted: Counted::One(v) };
    if var == y {
        // y = v: v's count, no value of c.
        let values = region.values()?;
        return values.into_iter().all(|v| counting(v).no_count(why, None, 0, Tally::Var(c), atoms)).then_some(false);
    }
    let ys: Vec<i64> = why.values(y).collect();
    let explained = if var == c {
        ys.into_iter().all(|v| counting(v).explain_tally(why, atoms))
    } else {
        let i = xs.iter().position(|&x| x == var)?;
        // x = w with y = v: counted for v = w, not for the others.
        ys.into_iter().all(|v| {
            let (on, off) = (region.contains(v), region.has_other(v, None));
            counting(v).explain_x_sides(why, i, on, off, Tally::Var(c), atoms)
        })
    };
    explained.then_some(true)
}

/// Why `c` was at most the number of `xs` whose bounds met `y`'s, or at
/// least 0: the others' bounds beyond `y`'s.
fn explain_wide(why: &Explanation<'_>, xs: &[VarId], y: VarId, atoms: &mut Vec<Atom>) -> bool {
    let at_most = |b: i64, atoms: &mut Vec<Atom>| {
        let (low, high) = (why.min(y), why.max(y));
        let mut need = xs.len() as i64 - b;
        for &x in xs {
            if need <= 0 {
                break;
            }
            if why.min(x) > high {
                atoms.extend([Atom::AtLeast(x, high + 1), Atom::AtMost(y, high)]);
                need -= 1;
            } else if why.max(x) < low {
                atoms.extend([Atom::AtMost(x, low - 1), Atom::AtLeast(y, low)]);
                need -= 1;
            }
        }
        need <= 0
    };
    match why.explained() {
        Explained::AtLeast(_, b) => b <= 0,
        Explained::AtMost(_, b) => at_most(b, atoms),
        Explained::Removed(_) => why.removed_values().all(|k| k < 0 || at_most(k - 1, atoms)),
        Explained::Failure => false,
    }
}

impl CountPropagator<'_> {
    /// The among reasoning for every value `y` can take: `y = v` stays when a
    /// count of `v` is allowed, `c` keeps the counts some `v` allows, and `x_i
    /// = w` stays when some `v` allows a count with `x_i` equal to `v` or not.
    fn propagate_variable_value(
        &mut self,
        ctx: &mut Context<'_>,
        xs: &[VarId],
        y: VarId,
        c: VarId,
    ) -> PropagationResult {
        self.ys.clear();
        self.ys.extend(ctx.values(y));
        let m = self.ys.len();
        self.lower.clear();
        self.lower.resize(m, 0);
        self.upper.clear();
        self.upper.resize(m, 0);
        for &x in xs {
            if ctx.size(x) <= m {
                for v in ctx.values(x) {
                    if let Ok(at) = self.ys.binary_search(&v) {
                        self.upper[at] += 1;
                    }
                }
            } else {
                for (at, &v) in self.ys.iter().enumerate() {
                    self.upper[at] += i64::from(ctx.contains(x, v));
                }
            }
            if let Some(at) = ctx.fixed_value(x).and_then(|v| self.ys.binary_search(&v).ok()) {
                self.lower[at] += 1;
            }
        }
        ctx.count_checks(xs.len() as u64);
        // c keeps the counts within some value's range.
        let low = self.lower.iter().min().copied().unwrap_or(0);
        let high = self.upper.iter().max().copied().unwrap_or(0);
        ctx.set_min(c, low)?;
        ctx.set_max(c, high)?;
        let (lower, upper) = (&self.lower, &self.upper);
        ctx.retain(c, |k| lower.iter().zip(upper).any(|(&l, &u)| l <= k && k <= u))?;
        self.counts.clear();
        self.counts.extend(ctx.values(c));
        // y keeps the values whose count range meets c.
        let mut keep = std::mem::take(&mut self.keep);
        keep.clear();
        keep.extend((0..m).map(|at| self.allows(self.lower[at], self.upper[at])));
        let ys = &self.ys;
        let result = ctx.retain(y, |v| ys.binary_search(&v).is_ok_and(|at| keep[at])).map(drop);
        let result = result.and_then(|()| self.prune_xs(ctx, xs, &keep));
        self.keep = keep;
        result
    }

    /// `x_i = w` stays when some `v != w` allows a count with `x_i` away from
    /// `v`, or `v = w` allows one with `x_i` on it (`keep`: the values of `y` left).
    fn prune_xs(&self, ctx: &mut Context<'_>, xs: &[VarId], keep: &[bool]) -> PropagationResult {
        let m = self.ys.len();
        for &x in xs {
            let fixed = ctx.fixed_value(x);
            let mut away = [None, None];
            for at in (0..m).filter(|&at| keep[at]) {
                let v = self.ys[at];
                let on = ctx.contains(x, v);
                let lower = self.lower[at] - i64::from(fixed == Some(v));
                let upper = self.upper[at] - i64::from(on);
                if self.allows(lower, upper) {
                    if away[0].is_none() {
                        away[0] = Some(v);
                    } else {
                        away[1] = Some(v);
                        break;
                    }
                }
            }
            if away[1].is_some() {
                continue; // every value of x has a v other than itself
            }
            // x = w counts for y = w: the others give lower..=upper more.
            let stays = |w: i64| {
                self.ys.binary_search(&w).is_ok_and(|at| {
                    let lower = self.lower[at] - i64::from(fixed == Some(w));
                    let upper = self.upper[at] - 1;
                    keep[at] && self.allows(lower + 1, upper + 1)
                })
            };
            match away[0] {
                // Every value of x but v has v: only v itself can go.
                Some(v) => {
                    if ctx.contains(x, v) && !stays(v) {
                        ctx.remove(x, v)?;
                    }
                }
                // x must take a value of y that allows it. The bounds go
                // first: on an interval domain `retain` moves each bound by
                // at most 64 values a call, so a wide x outside y's few
                // values took 2^56 calls to empty (a hang).
                None => {
                    let first = self.ys.iter().copied().find(|&w| stays(w));
                    let last = self.ys.iter().copied().rev().find(|&w| stays(w));
                    match first.zip(last) {
                        Some((first, last)) => {
                            ctx.set_min(x, first)?;
                            ctx.set_max(x, last)?;
                            ctx.retain(x, stays)?;
                        }
                        None => {
                            ctx.set_min(x, ctx.max(x).saturating_add(1))?;
                        }
                    }
                }
            }
        }
        Ok(())
    }
}
