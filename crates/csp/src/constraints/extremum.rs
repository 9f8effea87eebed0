//! `m = min(xs)` and `m = max(xs)`: MiniZinc's `int_min`, `int_max`,
//! `array_int_minimum` and `array_int_maximum`.
//!
//! Strength: domain consistent (when `m` is not one of the `xs`), in time
//! linear in the sizes of the domains. Written for the minimum; the maximum is
//! the same reasoning on negated values ("keys"). With `G` the smallest of the
//! `xs`' largest values, and `G_i` the same without `x_i`:
//!
//! - `m = w` has a support iff `w <= G` (every `x` can be at least `w`) and
//!   some `x_j` can be `w`;
//! - `x_i = v` has a support iff `m` can be `v` with `v <= G_i` (`x_i` is the
//!   minimum), or `v >= L_i`, the smallest value of `m` at most `G_i` that
//!   another `x_j` can take (`x_j` is the minimum, `x_i` above it).
//!
//! `L_i` is the same for every `i` but the one owner of the smallest candidate
//! (when only one `x` can take it), so one scan of `m`'s values finds them all.
//!
//! Over interval domains (a range wider than the bitset limit, kept as its
//! bounds), and over large bitsets (more than `SCAN_LIMIT`, 4096, values in the
//! scope's domains together), nothing is scanned: the propagator reasons on
//! bounds alone, bounds consistent, as Gecode's `max` does. A scan costs a
//! walk of every value of every domain at each call: on the MiniZinc
//! Challenge's `tower_challenge`, fifteen `xs` of up to 27,000 values each
//! made the maximum more than half of the solver's time (BENCHMARKS.md).
//! Bounds consistency: `m` between the
//! smallest lower bound and the smallest upper bound of the `xs`, each `x` at
//! least `min(m)`, and the one `x` that can still be at most `max(m)`, if
//! only one can, at most `max(m)`.

use crate::constraint::{Constraint, Inequality, Propagator, PropagatorOptions};
use crate::constraints::relaxed::{check_when_fixed, has_repeats};
use crate::ids::{Atom, VarId};
use crate::kernel::Context;
use crate::kernel::{Conflict, PropagationResult};
use crate::kernel::{Explained, Explanation};

/// The largest number of values, in the scope's domains together, that the
/// propagator scans for domain consistency; above it, bounds consistency.
const SCAN_LIMIT: usize = 4096;

/// `m = min(xs)` or `m = max(xs)`, domain consistent (when `m` is not one of
/// the `xs`) in time linear in the domains' sizes, when they hold at most
/// 4096 values together; bounds consistent otherwise.
#[derive(Clone, Debug)]
pub struct Extremum {
    /// `[m, xs...]`.
    scope: Vec<VarId>,
    maximum: bool,
}

impl Extremum {
    /// `m = min(xs)`. Prefer [`Model::minimum`](crate::Model::minimum), which
    /// checks that `xs` is not empty.
    pub fn minimum(m: VarId, xs: &[VarId]) -> Extremum {
        Extremum { scope: std::iter::once(m).chain(xs.iter().copied()).collect(), maximum: false }
    }

    /// `m = max(xs)`. Prefer [`Model::maximum`](crate::Model::maximum).
    pub fn maximum(m: VarId, xs: &[VarId]) -> Extremum {
        Extremum { maximum: true, ..Extremum::minimum(m, xs) }
    }
}

impl Constraint for Extremum {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        let Some((m, xs)) = values.split_first() else { return false };
        let extreme = if self.maximum { xs.iter().max() } else { xs.iter().min() };
        extreme == Some(m)
    }

    fn kind(&self) -> &str {
        if self.maximum { "maximum" } else { "minimum" }
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(ExtremumPropagator {
            constraint: self,
            repeats: has_repeats(&self.scope),
            m_keys: Vec::new(),
            count: Vec::new(),
            owner: Vec::new(),
            tuple: Vec::new(),
        }))
    }

    /// `x <= m` for each `x` of a maximum, `m <= x` of a minimum (the other
    /// half, `m` at most the largest `x`, is no linear inequality).
    fn inequalities(&self, _: &dyn Fn(VarId) -> Option<i64>, out: &mut Vec<Inequality>) -> Option<VarId> {
        let m = self.scope[0];
        let sign = if self.maximum { 1 } else { -1 };
        for &x in &self.scope[1..] {
            out.push(Inequality { terms: vec![(sign, x), (-sign, m)], rhs: 0 });
        }
        None
    }
}

struct ExtremumPropagator<'c> {
    constraint: &'c Extremum,
    /// Whether a variable appears twice (then the reasoning is a relaxation).
    repeats: bool,
    /// `m`'s values as keys, ascending.
    m_keys: Vec<i64>,
    /// Per key of `m`: how many `xs` can take it (up to 2), and the last of them.
    count: Vec<u8>,
    owner: Vec<u32>,
    tuple: Vec<i64>,
}

impl ExtremumPropagator<'_> {
    /// A value as a key: itself for a minimum, negated for a maximum, so that
    /// the reasoning is always about a minimum.
    fn key(&self, value: i64) -> i64 {
        if self.constraint.maximum { -value } else { value }
    }

    /// The largest key of `var`'s values.
    fn key_max(&self, ctx: &Context<'_>, var: VarId) -> i64 {
        if self.constraint.maximum { -ctx.min(var) } else { ctx.max(var) }
    }
}

impl ExtremumPropagator<'_> {
    /// The smallest key of `var`'s values.
    fn key_min(&self, ctx: &Context<'_>, var: VarId) -> i64 {
        if self.constraint.maximum { -ctx.max(var) } else { ctx.min(var) }
    }

    /// Removes the values of `var` whose keys are below `key`.
    fn set_key_min(&self, ctx: &mut Context<'_>, var: VarId, key: i64) -> Result<bool, Conflict> {
        if self.constraint.maximum { ctx.set_max(var, -key) } else { ctx.set_min(var, key) }
    }

    /// Removes the values of `var` whose keys are above `key`.
    fn set_key_max(&self, ctx: &mut Context<'_>, var: VarId, key: i64) -> Result<bool, Conflict> {
        if self.constraint.maximum { ctx.set_min(var, -key) } else { ctx.set_max(var, key) }
    }

    /// Bounds consistency, for scopes with an interval domain (see the module
    /// docs), to a fixpoint. Keys are values or their negations, within
    /// `-2^62..=2^62`: no overflow.
    fn propagate_bounds(&self, ctx: &mut Context<'_>, m: VarId, xs: &[VarId]) -> PropagationResult {
        loop {
            ctx.count_checks(xs.len() as u64);
            // No x (a constraint built by hand): no minimum to equal.
            let Some(lowest) = xs.iter().map(|&x| self.key_min(ctx, x)).min() else { return Err(Conflict) };
            let highest = xs.iter().map(|&x| self.key_max(ctx, x)).min().unwrap_or(i64::MAX);
            let mut changed = self.set_key_min(ctx, m, lowest)? | self.set_key_max(ctx, m, highest)?;
            let (m_low, m_high) = (self.key_min(ctx, m), self.key_max(ctx, m));
            for &x in xs {
                changed |= self.set_key_min(ctx, x, m_low)?;
            }
            // The minimum is one of the xs that can be at most max(m).
            let mut candidates = xs.iter().filter(|&&x| self.key_min(ctx, x) <= m_high);
            match (candidates.next(), candidates.next()) {
                (None, _) => return Err(Conflict),
                (Some(&only), None) => changed |= self.set_key_max(ctx, only, m_high)?,
                _ => {}
            }
            if !changed {
                return Ok(());
            }
        }
    }
}

impl Propagator for ExtremumPropagator<'_> {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let (m, xs) = self.constraint.scope.split_first().expect("a scope of m and the xs");
        let mut values = 0usize;
        let scan = self.constraint.scope.iter().all(|&var| {
            values = values.saturating_add(ctx.size(var));
            !ctx.is_interval(var) && values <= SCAN_LIMIT
        });
        if !scan {
            self.propagate_bounds(ctx, *m, xs)?;
            if self.repeats {
                check_when_fixed(ctx, self.constraint, &mut self.tuple)?;
            }
            return Ok(());
        }
        // G and G_i: the smallest largest key, and the second smallest for the
        // variable that has the smallest.
        let (mut smallest, mut second, mut argmin) = (i64::MAX, i64::MAX, usize::MAX);
        for (j, &x) in xs.iter().enumerate() {
            let key = self.key_max(ctx, x);
            if key < smallest {
                (second, smallest, argmin) = (smallest, key, j);
            } else if key < second {
                second = key;
            }
        }
        let limit = |i: usize| if i == argmin { second } else { smallest };

        let mut m_keys = std::mem::take(&mut self.m_keys);
        m_keys.clear();
        m_keys.extend(ctx.values(*m).map(|v| self.key(v)));
        if self.constraint.maximum {
            m_keys.reverse();
        }
        self.count.clear();
        self.count.resize(m_keys.len(), 0);
        self.owner.clear();
        self.owner.resize(m_keys.len(), u32::MAX);
        for (j, &x) in xs.iter().enumerate() {
            for value in ctx.values(x) {
                let key = self.key(value);
                if key <= second {
                    if let Ok(at) = m_keys.binary_search(&key) {
                        self.count[at] = (self.count[at] + 1).min(2);
                        self.owner[at] = j as u32;
                    }
                } else if !self.constraint.maximum {
                    // The minimum's keys ascend with the values: none left at most `second`.
                    break;
                }
            }
        }
        ctx.count_checks(xs.len() as u64);

        // L_i: the first key of m that another x can take, at most G_i.
        let first = (0..m_keys.len()).find(|&at| m_keys[at] <= smallest && self.count[at] > 0);
        let Some(first) = first else {
            self.m_keys = m_keys;
            return Err(Conflict);
        };
        let shared = self.count[first] >= 2;
        let owner = self.owner[first] as usize;
        let owner_bound = if shared {
            m_keys[first]
        } else {
            (first + 1..m_keys.len())
                .take_while(|&at| m_keys[at] <= limit(owner))
                .find(|&at| self.count[at] >= 2 || (self.count[at] == 1 && self.owner[at] as usize != owner))
                .map_or(i64::MAX, |at| m_keys[at])
        };
        let lowest = |i: usize| if shared || i != owner { m_keys[first] } else { owner_bound };

        // m keeps the keys at most G that some x can take.
        let result = (|| {
            let keep_m = |v: i64| {
                let key = self.key(v);
                key <= smallest && m_keys.binary_search(&key).is_ok_and(|at| self.count[at] > 0)
            };
            // m's keys are `m_keys`: when each is kept, nothing to read again.
            if !(0..m_keys.len()).all(|at| m_keys[at] <= smallest && self.count[at] > 0) {
                ctx.retain(*m, keep_m)?;
            }
            for (i, &x) in xs.iter().enumerate() {
                let (bound, low) = (limit(i), lowest(i));
                if self.key_min(ctx, x) >= low {
                    // Every key at least `low`: all kept, no value to read.
                    continue;
                }
                ctx.retain(x, |v| {
                    let key = self.key(v);
                    key >= low || (key <= bound && m_keys.binary_search(&key).is_ok())
                })?;
            }
            Ok(())
        })();
        self.m_keys = m_keys;
        result?;
        if self.repeats {
            check_when_fixed(ctx, self.constraint, &mut self.tuple)?;
        }
        Ok(())
    }

    fn is_idempotent(&self) -> bool {
        !self.repeats
    }

    fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
        if self.repeats {
            return false;
        }
        let (&m, xs) = self.constraint.scope.split_first().expect("a scope of m and the xs");
        let maximum = self.constraint.maximum;
        // The values gone, as keys (a bound flips side for the maximum).
        let (var, gone) = match why.explained() {
            Explained::Failure => {
                let mut atoms = Vec::new();
                if !self.explain_failure(why, m, xs, &mut atoms) {
                    return false;
                }
                why.because_each(atoms);
                return true;
            }
            Explained::Removed(var) => (var, Gone::Keys(why.removed_values().map(|v| self.key(v)).collect())),
            Explained::AtLeast(var, b) if maximum => (var, Gone::Above(-b)),
            Explained::AtLeast(var, b) => (var, Gone::Below(b)),
            Explained::AtMost(var, b) if maximum => (var, Gone::Below(-b)),
            Explained::AtMost(var, b) => (var, Gone::Above(b)),
        };
        let mut atoms = Vec::new();
        let explained = if var == m {
            self.explain_m(why, xs, &gone, &mut atoms)
        } else {
            match xs.iter().position(|&x| x == var) {
                Some(i) => self.explain_x(why, m, xs, i, &gone, &mut atoms),
                None => false,
            }
        };
        if explained {
            why.because_each(atoms);
        }
        explained
    }
}

/// What an explanation request removed, in keys (see
/// [`ExtremumPropagator::key`]): some keys, or every key below or above a bound.
enum Gone {
    Keys(smallvec::SmallVec<[i64; 8]>),
    Below(i64),
    Above(i64),
}

/// Explanations, in keys (so written for the minimum): `m` loses a key
/// above the smallest largest key of the `xs` by that `x`'s bound, a key
/// below every `x`'s smallest by their bounds, a key no `x` can take by its
/// absence from each; an `x` loses a key below `m`'s smallest by `m`'s
/// bound, a key above `m`'s largest, when no other `x` can go that low, by
/// `m`'s bound and theirs, and any other key by why neither it nor a
/// smaller one can be the minimum (see `explain_x_key`). A scope with a
/// variable twice is left to the generic answer.
impl ExtremumPropagator<'_> {
    fn key_atom_at_least(&self, var: VarId, key: i64) -> Atom {
        if self.constraint.maximum { Atom::AtMost(var, -key) } else { Atom::AtLeast(var, key) }
    }

    fn key_atom_at_most(&self, var: VarId, key: i64) -> Atom {
        if self.constraint.maximum { Atom::AtLeast(var, -key) } else { Atom::AtMost(var, key) }
    }

    fn was_key_min(&self, why: &Explanation<'_>, var: VarId) -> i64 {
        if self.constraint.maximum { -why.max(var) } else { why.min(var) }
    }

    fn was_key_max(&self, why: &Explanation<'_>, var: VarId) -> i64 {
        if self.constraint.maximum { -why.min(var) } else { why.max(var) }
    }

    /// Whether `var` could take the value of `key`.
    fn had_key(&self, why: &Explanation<'_>, var: VarId, key: i64) -> bool {
        why.contains(var, self.key(key))
    }

    /// Why `m` lost `key` (or the keys beyond a bound), into `atoms`.
    fn explain_m(&self, why: &Explanation<'_>, xs: &[VarId], gone: &Gone, atoms: &mut Vec<Atom>) -> bool {
        let lowest_max = xs.iter().map(|&x| (self.was_key_max(why, x), x)).min();
        let Some((smallest, argmin)) = lowest_max else { return false };
        let below = |key: i64, atoms: &mut Vec<Atom>| {
            // No x can go as low: each x's smallest key.
            if xs.iter().all(|&x| self.was_key_min(why, x) > key) {
                atoms.extend(xs.iter().map(|&x| self.key_atom_at_least(x, key + 1)));
                return true;
            }
            false
        };
        match gone {
            Gone::Above(bound) if smallest <= *bound => atoms.push(self.key_atom_at_most(argmin, smallest)),
            Gone::Below(bound) => return below(bound - 1, atoms),
            Gone::Keys(keys) => {
                for &key in keys {
                    if key > smallest {
                        atoms.push(self.key_atom_at_most(argmin, smallest));
                    } else if !below(key, atoms) {
                        if xs.iter().any(|&x| self.had_key(why, x, key)) {
                            return false;
                        }
                        atoms.extend(xs.iter().map(|&x| Atom::NotEqual(x, self.key(key))));
                    }
                }
            }
            Gone::Above(_) => return false,
        }
        true
    }

    /// Why `xs[i]` lost `key` (or the keys beyond a bound), into `atoms`.
    fn explain_x(
        &self,
        why: &Explanation<'_>,
        m: VarId,
        xs: &[VarId],
        i: usize,
        gone: &Gone,
        atoms: &mut Vec<Atom>,
    ) -> bool {
        let (m_low, m_high) = (self.was_key_min(why, m), self.was_key_max(why, m));
        // Above m's largest key, and no other x can go that low.
        let above = |key: i64, atoms: &mut Vec<Atom>| {
            let others = xs.iter().enumerate().filter(|&(j, _)| j != i);
            if key > m_high && others.clone().all(|(_, &x)| self.was_key_min(why, x) > m_high) {
                atoms.push(self.key_atom_at_most(m, m_high));
                atoms.extend(others.map(|(_, &x)| self.key_atom_at_least(x, m_high + 1)));
                return true;
            }
            false
        };
        match *gone {
            Gone::Below(bound) if bound <= m_low => atoms.push(self.key_atom_at_least(m, bound)),
            Gone::Below(_) => return false,
            Gone::Above(bound) => return above(bound + 1, atoms),
            Gone::Keys(ref keys) => {
                for &key in keys {
                    if key < m_low {
                        atoms.push(self.key_atom_at_least(m, key + 1));
                    } else if !above(key, atoms) && !self.explain_x_key(why, m, xs, i, key, atoms) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Why `xs[i]` cannot take `key` at least `m`'s smallest, over bitset
    /// domains: it cannot be the minimum (`m` lacks the key, or another `x`
    /// lies below it), and no smaller key of `m` can be (each is absent
    /// from `m`, or from every other `x`, or above another `x`).
    fn explain_x_key(
        &self,
        why: &Explanation<'_>,
        m: VarId,
        xs: &[VarId],
        i: usize,
        key: i64,
        atoms: &mut Vec<Atom>,
    ) -> bool {
        if why.is_interval(m) {
            return false;
        }
        let others = || xs.iter().enumerate().filter(move |&(j, _)| j != i).map(|(_, &x)| x);
        let lowest_other = others().map(|x| (self.was_key_max(why, x), x)).min();
        // The smallest largest key of the others (none: no bound).
        let limit = lowest_other.map_or(i64::MAX, |(k, _)| k);
        let mut bound_used = false;
        if !self.had_key(why, m, key) {
            atoms.push(Atom::NotEqual(m, self.key(key)));
        } else if key > limit {
            bound_used = true;
        } else {
            return false;
        }
        atoms.push(self.key_atom_at_least(m, self.was_key_min(why, m)));
        let m_low = self.was_key_min(why, m);
        let keys: Vec<i64> = why.initial_values(m).map(|v| self.key(v)).filter(|&k| k >= m_low && k < key).collect();
        for w in keys {
            if !self.had_key(why, m, w) {
                atoms.push(Atom::NotEqual(m, self.key(w)));
            } else if others().all(|x| !self.had_key(why, x, w)) {
                atoms.extend(others().map(|x| Atom::NotEqual(x, self.key(w))));
            } else if w > limit {
                bound_used = true;
            } else {
                return false;
            }
        }
        if bound_used {
            let (k, x) = lowest_other.expect("a bound below a key");
            atoms.push(self.key_atom_at_most(x, k));
        }
        true
    }

    /// Why no key of `m` could be the minimum (bounds: no `x` can go as
    /// low as `m`'s largest key; bitsets: each key of `m` is above an `x`'s
    /// largest or taken by no `x`).
    fn explain_failure(&self, why: &mut Explanation<'_>, m: VarId, xs: &[VarId], atoms: &mut Vec<Atom>) -> bool {
        let m_high = self.was_key_max(why, m);
        if xs.iter().all(|&x| self.was_key_min(why, x) > m_high) {
            atoms.push(self.key_atom_at_most(m, m_high));
            atoms.extend(xs.iter().map(|&x| self.key_atom_at_least(x, m_high + 1)));
            return true;
        }
        if why.is_interval(m) {
            return false;
        }
        let Some((smallest, argmin)) = xs.iter().map(|&x| (self.was_key_max(why, x), x)).min() else { return false };
        let keys: Vec<i64> = why.values(m).map(|v| self.key(v)).collect();
        for key in keys {
            if key > smallest {
                atoms.push(self.key_atom_at_most(argmin, smallest));
            } else if xs.iter().all(|&x| !self.had_key(why, x, key)) {
                atoms.extend(xs.iter().map(|&x| Atom::NotEqual(x, self.key(key))));
            } else {
                return false;
            }
        }
        why.because_domain(m);
        true
    }
}
