//! Element: `array[index - first] = value`, indexing an array by a variable,
//! for an array of constants (MiniZinc's `array_int_element`,
//! `array_bool_element`) or of variables (`array_var_int_element`,
//! `array_var_bool_element`). `first` is the index of the array's first entry
//! (1 for MiniZinc), so that no shifted copy is needed.
//!
//! Strength: domain consistent.
//!
//! - Constant array: an index stays when its entry is in `value`'s domain, and a
//!   value when some index left has it; one pass over the index's domain.
//! - Variable array (the standard propagation, as Gecode's and Chuffed's): an
//!   index stays when its variable's domain meets `value`'s, `value` keeps the
//!   values of the union of the remaining indices' domains, and once a single
//!   index is left its variable and `value` share their domains. That is domain
//!   consistent on every variable when the index, the value and the array's
//!   variables are distinct: an array variable other than the one indexed is
//!   free. When a variable appears twice the same reasoning is a sound
//!   relaxation, and the constraint is checked once everything is fixed.
//!
//! Over interval domains (ranges wider than the bitset limit, kept as their
//! bounds) the index is first narrowed to the array's positions, so it is
//! never walked beyond them; the value and the array's variables are read
//! value by value only where one side is a bitset. Where both are intervals
//! their bounds stand for them: the value within the hull of the remaining
//! variables' bounds, and, once the index is fixed, the indexed variable and
//! the value equal on bounds. That is bounds consistent on the interval
//! variables (and domain consistent on the rest).

use crate::constraint::{Constraint, Propagator, PropagatorOptions};
use crate::constraints::binary::equal_bounds;
use crate::constraints::in_set::retain_in;
use crate::constraints::relaxed::{check_when_fixed, has_repeats};
use crate::ids::{Atom, VarId};
use crate::kernel::{Conflict, Context, Cost, Explained, Explanation, PropagationResult};

/// The array position of `index`, if it has one.
fn position(index: i64, first: i64, len: usize) -> Option<usize> {
    let k = i128::from(index) - i128::from(first);
    usize::try_from(k).ok().filter(|&k| k < len)
}

/// Narrows `index` to the array's indices `first..first + len`.
fn narrow_to_indices(ctx: &mut Context<'_>, index: VarId, first: i64, len: usize) -> PropagationResult {
    if len == 0 {
        return Err(Conflict); // no index has an entry
    }
    let last = i128::from(first) + len as i128 - 1;
    ctx.set_min(index, first)?;
    ctx.set_max(index, i64::try_from(last).unwrap_or(i64::MAX))?;
    Ok(())
}

/// Keeps the values of `var` found in `values` (sorted, without repeats,
/// each a value of `var`'s domain: the same size means the same set).
fn retain_listed(ctx: &mut Context<'_>, var: VarId, values: &[i64]) -> PropagationResult {
    if values.is_empty() || ctx.size(var) > values.len() { retain_in(ctx, var, values) } else { Ok(()) }
}

/// `array[index - first] = value`, for an array of constants; domain consistent.
#[derive(Clone, Debug)]
pub struct Element {
    /// `[index, value]`.
    scope: [VarId; 2],
    array: Vec<i64>,
    first: i64,
}

impl Element {
    /// The constraint. Prefer [`Model::element`](crate::Model::element), which
    /// checks the array and the indices.
    pub fn new(index: VarId, array: Vec<i64>, value: VarId, first: i64) -> Element {
        Element { scope: [index, value], array, first }
    }
}

impl Constraint for Element {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        position(values[0], self.first, self.array.len()).is_some_and(|k| self.array[k] == values[1])
    }

    fn kind(&self) -> &str {
        "element"
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(ElementPropagator {
            constraint: self,
            indices: Vec::new(),
            values: Vec::new(),
            by_value: Vec::new(),
        }))
    }
}

struct ElementPropagator<'c> {
    constraint: &'c Element,
    /// The indices left, in increasing order, and their entries.
    indices: Vec<i64>,
    values: Vec<i64>,
    /// The entries and their indices sorted by entry (built once, when
    /// first needed), for explanations and to list many entries left.
    by_value: Vec<(i64, i64)>,
}

impl Propagator for ElementPropagator<'_> {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let Element { scope: [index, value], array, first } = self.constraint;
        let (index, value, first) = (*index, *value, *first);
        narrow_to_indices(ctx, index, first, array.len())?;
        // When the index is also the value, the entry must equal its index.
        let same = index == value;
        ctx.count_checks(ctx.size(index) as u64);
        let entry = |i: i64| position(i, first, array.len()).map(|k| array[k]);
        let (indices, values) = (&mut self.indices, &mut self.values);
        indices.clear();
        indices.extend(
            ctx.values(index).filter(|&i| entry(i).is_some_and(|a| (!same || a == i) && ctx.contains(value, a))),
        );
        retain_listed(ctx, index, indices)?;
        values.clear();
        // The entries left, sorted: sorting them costs k log k for k
        // indices left, reading every entry in order of value costs the
        // array's length; the cheaper of the two. (A bitset index holds
        // exactly the indices left now; an interval may hold more.)
        if indices.len() * SORT_FACTOR > array.len() && !ctx.is_interval(index) {
            let by_value = sorted_entries(&mut self.by_value, array, first);
            values.extend(by_value.iter().filter(|&&(_, i)| ctx.contains(index, i)).map(|&(a, _)| a));
        } else {
            values.extend(indices.iter().filter_map(|&i| entry(i)));
            values.sort_unstable();
        }
        values.dedup();
        retain_listed(ctx, value, values)
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    /// An index removed because its entry was not a value of `value` (an
    /// index beyond the array needs no reason); a value removed because
    /// every index whose entry it is was gone. A bound moved past several
    /// values is explained by its own bound and each of them.
    fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
        let Element { scope: [index, value], array, first } = self.constraint;
        let (index, value, first) = (*index, *value, *first);
        if index == value {
            return false;
        }
        let Some((var, asked)) = asked_ranges(why) else { return false };
        // The asked ranges are sorted and disjoint (a word's removed values
        // in increasing order, or one bound's range): the answer lists its
        // atoms by increasing index either way.
        let atoms: smallvec::SmallVec<[Atom; 8]> = if var == index {
            // Each asked index's own entry, read directly.
            let positions = asked.iter().flat_map(|&(lo, hi)| positions_within(lo, hi, first, array.len()));
            positions.map(|k| Atom::NotEqual(value, array[k])).collect()
        } else {
            // The indices whose entry is asked, found in the entries sorted
            // by value, then put back in increasing order.
            let by_value = sorted_entries(&mut self.by_value, array, first);
            let mut indices: smallvec::SmallVec<[i64; 8]> = asked
                .iter()
                .flat_map(|&(lo, hi)| {
                    let start = by_value.partition_point(|&(a, _)| a < lo);
                    let end = by_value.partition_point(|&(a, _)| a <= hi);
                    by_value[start..end.max(start)].iter().map(|&(_, i)| i)
                })
                .collect();
            indices.sort_unstable();
            indices.into_iter().map(|i| Atom::NotEqual(index, i)).collect()
        };
        atoms.into_iter().for_each(|atom| why.because(atom));
        true
    }
}

/// Above this many indices left per entry of the array, the propagator
/// reads the entries in order of value rather than sort those left (the
/// logarithm of a sort of a few thousand).
const SORT_FACTOR: usize = 12;

/// The array's entries with their indices (an index beyond `i64` is none),
/// sorted by entry then index, in `by_value`: built at the first call.
fn sorted_entries<'v>(by_value: &'v mut Vec<(i64, i64)>, array: &[i64], first: i64) -> &'v [(i64, i64)] {
    if by_value.is_empty() {
        by_value.extend(
            array
                .iter()
                .enumerate()
                .filter_map(|(k, &a)| i64::try_from(i128::from(first) + k as i128).ok().map(|i| (a, i))),
        );
        by_value.sort_unstable();
    }
    by_value
}

/// The array positions whose indices are in `lo..=hi`, in increasing order.
fn positions_within(lo: i64, hi: i64, first: i64, len: usize) -> impl Iterator<Item = usize> {
    let start = (i128::from(lo) - i128::from(first)).max(0);
    let end = (i128::from(hi) - i128::from(first) + 1).min(len as i128);
    (start..end.max(start)).map(|k| k as usize)
}

/// `xs[index - first] = value`, for an array of variables; domain consistent
/// when the index, the value and the array's variables are distinct.
#[derive(Clone, Debug)]
pub struct ElementVar {
    /// `[index, value, xs...]`.
    scope: Vec<VarId>,
    first: i64,
}

impl ElementVar {
    /// The constraint. Prefer [`Model::element_var`](crate::Model::element_var),
    /// which checks the array and the indices.
    pub fn new(index: VarId, xs: &[VarId], value: VarId, first: i64) -> ElementVar {
        ElementVar { scope: [index, value].into_iter().chain(xs.iter().copied()).collect(), first }
    }

    fn xs(&self) -> &[VarId] {
        &self.scope[2..]
    }
}

impl Constraint for ElementVar {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        let xs = &values[2..];
        position(values[0], self.first, xs.len()).is_some_and(|k| xs[k] == values[1])
    }

    fn kind(&self) -> &str {
        "element"
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(ElementVarPropagator {
            constraint: self,
            repeats: has_repeats(&self.scope),
            supported: Vec::new(),
            union: Vec::new(),
            tuple: Vec::new(),
        }))
    }
}

struct ElementVarPropagator<'c> {
    constraint: &'c ElementVar,
    repeats: bool,
    /// The indices left, in increasing order.
    supported: Vec<i64>,
    /// The values of `value` that some remaining index's variable can take.
    union: Vec<i64>,
    tuple: Vec<i64>,
}

/// Whether the domains of `a` and `b` share a value (scanning the smaller;
/// two intervals, which have no holes, share one when their bounds overlap).
fn intersects(ctx: &Context<'_>, a: VarId, b: VarId) -> bool {
    if ctx.is_interval(a) && ctx.is_interval(b) {
        return ctx.min(a).max(ctx.min(b)) <= ctx.max(a).min(ctx.max(b));
    }
    let (small, large) = if ctx.size(a) <= ctx.size(b) { (a, b) } else { (b, a) };
    ctx.values(small).any(|v| ctx.contains(large, v))
}

impl ElementVarPropagator<'_> {
    /// The rest of a call where `value` and a remaining variable are
    /// intervals (the index already narrowed to `supported`): their bounds
    /// stand for them, see the module docs.
    fn propagate_bounds(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let constraint = self.constraint;
        let (index, value, first, xs) = (constraint.scope[0], constraint.scope[1], constraint.first, constraint.xs());
        let at = |i: i64| xs[position(i, first, xs.len()).expect("an index within the array")];
        let low = self.supported.iter().map(|&i| ctx.min(at(i))).min();
        let high = self.supported.iter().map(|&i| ctx.max(at(i))).max();
        let (Some(low), Some(high)) = (low, high) else { return Err(Conflict) };
        ctx.set_min(value, low)?;
        ctx.set_max(value, high)?;
        if let Some(i) = ctx.fixed_value(index) {
            equal_bounds(ctx, at(i), value, 0)?;
        }
        if self.repeats {
            check_when_fixed(ctx, constraint, &mut self.tuple)?;
        }
        Ok(())
    }
}

impl Propagator for ElementVarPropagator<'_> {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let constraint = self.constraint;
        let (index, value, first, xs) = (constraint.scope[0], constraint.scope[1], constraint.first, constraint.xs());
        narrow_to_indices(ctx, index, first, xs.len())?;
        let at = |i: i64| xs[position(i, first, xs.len()).expect("an index within the array")];
        self.supported.clear();
        self.supported.extend(ctx.values(index).filter(|&i| intersects(ctx, at(i), value)));
        ctx.count_checks(ctx.size(index) as u64);
        retain_listed(ctx, index, &self.supported)?;
        if ctx.is_interval(value) && self.supported.iter().any(|&i| ctx.is_interval(at(i))) {
            return self.propagate_bounds(ctx);
        }
        // value keeps the union of the remaining variables' domains: built from
        // whichever side is cheaper to scan (not an interval: see above).
        let spread = self.supported.iter().map(|&i| ctx.size(at(i))).fold(0, usize::saturating_add);
        self.union.clear();
        if spread <= ctx.size(value).saturating_mul(self.supported.len()) {
            for &i in &self.supported {
                self.union.extend(ctx.values(at(i)).filter(|&v| ctx.contains(value, v)));
            }
            self.union.sort_unstable();
            self.union.dedup();
        } else {
            let supported = &self.supported;
            self.union.extend(ctx.values(value).filter(|&v| supported.iter().any(|&i| ctx.contains(at(i), v))));
        }
        retain_listed(ctx, value, &self.union)?;
        if let Some(i) = ctx.fixed_value(index) {
            // The indexed variable is the value.
            // `value` already holds the values of `x` it allows.
            retain_in(ctx, at(i), &self.union)?;
        }
        if self.repeats {
            check_when_fixed(ctx, constraint, &mut self.tuple)?;
        }
        Ok(())
    }

    fn cost(&self) -> Cost {
        if self.constraint.scope.len() > 34 { Cost::Expensive } else { Cost::Cheap }
    }

    /// An index removed because its variable and `value` had no value in
    /// common; a value of `value` (or a bound) because each index either
    /// was gone or its variable lacked it; the indexed variable's values (or
    /// bound) because the index was fixed and `value` lacked them; a
    /// failure because each index was gone or met `value` nowhere.
    fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
        let constraint = self.constraint;
        if self.repeats {
            return false;
        }
        let (index, value, first, xs) = (constraint.scope[0], constraint.scope[1], constraint.first, constraint.xs());
        // The array's indices (an index beyond `i64` is none) and their variables.
        let entries = || {
            xs.iter().enumerate().filter_map(|(k, &x)| Some((i64::try_from(i128::from(first) + k as i128).ok()?, x)))
        };
        let Some((var, asked)) = asked_ranges(why) else {
            // A failure: no index left whose variable met `value`.
            let gone: smallvec::SmallVec<[(i64, VarId); 8]> = entries().collect();
            return gone.into_iter().all(|(i, x)| gone_or(why, index, i, |why| because_disjoint(why, x, value)));
        };
        let asked = &asked[..];
        if var == index {
            let asked_entries: smallvec::SmallVec<[VarId; 8]> = entries()
                .filter(|&(i, _)| asked.iter().any(|&(lo, hi)| (lo..=hi).contains(&i)))
                .map(|(_, x)| x)
                .collect();
            asked_entries.into_iter().all(|x| because_disjoint(why, x, value))
        } else if var == value {
            let all: smallvec::SmallVec<[(i64, VarId); 8]> = entries().collect();
            all.into_iter().all(|(i, x)| {
                gone_or(why, index, i, |why| asked.iter().all(|&(lo, hi)| because_none_in(why, x, lo, hi)))
            })
        } else {
            // The indexed variable: the index was fixed to it.
            let Some(i) = why.fixed_value(index) else { return false };
            if entries().find(|&(j, _)| j == i).map(|(_, x)| x) != Some(var) {
                return false;
            }
            why.because(Atom::Equal(index, i));
            asked.iter().all(|&(lo, hi)| because_none_in(why, value, lo, hi))
        }
    }

    fn is_idempotent(&self) -> bool {
        !self.repeats
    }
}

/// Ranges of values, each `(lo, hi)`.
type Ranges = smallvec::SmallVec<[(i64, i64); 8]>;

/// The variable whose values are explained and the ranges of them asked
/// about (each removed value, or the values a bound moved past, whose own
/// bound it adds); `None` for a failure.
fn asked_ranges(why: &mut Explanation<'_>) -> Option<(VarId, Ranges)> {
    match why.explained() {
        Explained::Removed(var) => Some((var, why.removed_values().map(|v| (v, v)).collect())),
        Explained::AtLeast(var, bound) => {
            why.because_lower_bound(var);
            Some((var, smallvec::smallvec![(why.min(var), bound - 1)]))
        }
        Explained::AtMost(var, bound) => {
            why.because_upper_bound(var);
            Some((var, smallvec::smallvec![(bound + 1, why.max(var))]))
        }
        Explained::Failure => None,
    }
}

/// Adds `index ≠ i` if it held, else what `otherwise` adds; `false` when that fails.
fn gone_or(
    why: &mut Explanation<'_>,
    index: VarId,
    i: i64,
    otherwise: impl FnOnce(&mut Explanation<'_>) -> bool,
) -> bool {
    if why.contains(index, i) {
        otherwise(why)
    } else {
        why.because(Atom::NotEqual(index, i));
        true
    }
}

/// Adds that `x` had no value in `lo..=hi` (for an interval, the bound
/// beyond it; for a bitset, each value gone); `false` if it had one.
fn because_none_in(why: &mut Explanation<'_>, x: VarId, lo: i64, hi: i64) -> bool {
    if lo > hi {
        return true;
    }
    if why.is_interval(x) {
        if why.min(x) > hi {
            why.because(Atom::AtLeast(x, hi + 1));
        } else if why.max(x) < lo {
            why.because(Atom::AtMost(x, lo - 1));
        } else {
            return false;
        }
        return true;
    }
    why.because_none_of(x, lo, hi)
}

/// Adds that `a` and `b` had no value in common: two intervals' bounds
/// apart, else for each value a bitset side started with, its absence from
/// that side or from the other; `false` if they shared one.
fn because_disjoint(why: &mut Explanation<'_>, a: VarId, b: VarId) -> bool {
    let (a_interval, b_interval) = (why.is_interval(a), why.is_interval(b));
    if a_interval && b_interval {
        let (low, high) = if why.max(a) < why.min(b) { (a, b) } else { (b, a) };
        let at = why.max(low);
        if at >= why.min(high) {
            return false;
        }
        why.because(Atom::AtMost(low, at));
        why.because(Atom::AtLeast(high, at + 1));
        return true;
    }
    // Walk the bitset side that started smaller.
    let walk = |x: VarId| if why.is_interval(x) { usize::MAX } else { why.initial_values(x).count() };
    let (bits, other) = if walk(a) <= walk(b) { (a, b) } else { (b, a) };
    let values: smallvec::SmallVec<[i64; 16]> = why.initial_values(bits).collect();
    values.into_iter().all(|v| {
        if why.contains(bits, v) {
            because_none_in(why, other, v, v)
        } else {
            why.because(Atom::NotEqual(bits, v));
            true
        }
    })
}
