//! Binary constraints: `x == y + c`, `x != y + c`, `x + c <= y` (so `x < y`
//! and `x <= y`), each domain consistent, and each reifiable: the negation of
//! one is another (`x ≠ y + c` of `x = y + c`, `y + 1 - c ≤ x` of `x + c ≤ y`).
//!
//! Values and offsets may each be `±2^62`, so sums are checked (or taken in
//! `i128`): a sum beyond `i64` is no value of any domain.

use crate::constraint::PropagatorOptions;
use crate::constraint::{Constraint, Inequality, Propagator};
use crate::ids::{Atom, VarId};
use crate::kernel::PropagationResult;
use crate::kernel::{Context, Event, Explained, Explanation};

use super::reified::{Enforce, Reifiable, ReifiableRelation};

/// A bound in `i128`, clamped to `i64`: beyond `i64` it is beyond every value
/// too, and removes nothing or everything, as the `i64` end does.
#[inline]
pub(crate) fn clamp_bound(bound: i128) -> i64 {
    bound.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

/// `x == y + offset` (the offset is 0 unless built with [`Equal::with_offset`]).
#[derive(Clone, Debug)]
pub struct Equal {
    scope: [VarId; 2],
    offset: i64,
}

impl Equal {
    /// `x == y`.
    pub fn new(x: VarId, y: VarId) -> Equal {
        Equal { scope: [x, y], offset: 0 }
    }

    /// `x == y + offset`.
    pub fn with_offset(x: VarId, y: VarId, offset: i64) -> Equal {
        Equal { scope: [x, y], offset }
    }
}

impl Constraint for Equal {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        i128::from(values[0]) == i128::from(values[1]) + i128::from(self.offset)
    }

    fn kind(&self) -> &str {
        "equal"
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(Enforce(self)))
    }

    /// `x - y <= offset` and `y - x <= -offset`.
    fn inequalities(&self, _: &dyn Fn(VarId) -> Option<i64>, out: &mut Vec<Inequality>) -> Option<VarId> {
        let [x, y] = self.scope;
        let offset = i128::from(self.offset);
        out.push(Inequality { terms: vec![(1, x), (-1, y)], rhs: offset });
        out.push(Inequality { terms: vec![(1, y), (-1, x)], rhs: -offset });
        None
    }
}

impl Reifiable for Equal {
    fn enforce(&self, ctx: &mut Context<'_>) -> PropagationResult {
        let [x, y] = self.scope;
        let offset = self.offset;
        if ctx.is_interval(x) || ctx.is_interval(y) {
            return equal_bounds(ctx, x, y, offset);
        }
        // Each domain becomes the (shifted) intersection; one pass reaches the
        // fixpoint. A shifted value beyond `i64` is no value.
        let drop_x: smallvec::SmallVec<[i64; 16]> =
            ctx.values(x).filter(|&v| !v.checked_sub(offset).is_some_and(|w| ctx.contains(y, w))).collect();
        let drop_y: smallvec::SmallVec<[i64; 16]> =
            ctx.values(y).filter(|&w| !w.checked_add(offset).is_some_and(|v| ctx.contains(x, v))).collect();
        ctx.count_checks(2);
        for v in drop_x {
            ctx.remove(x, v)?;
        }
        for w in drop_y {
            ctx.remove(y, w)?;
        }
        Ok(())
    }

    fn may_hold(&self, ctx: &Context<'_>) -> bool {
        let [x, y] = self.scope;
        let offset = i128::from(self.offset);
        let (lo, hi) = (i128::from(ctx.min(y)) + offset, i128::from(ctx.max(y)) + offset);
        if i128::from(ctx.max(x)) < lo || i128::from(ctx.min(x)) > hi {
            return false;
        }
        match (ctx.is_interval(x), ctx.is_interval(y)) {
            // Intervals have no holes, and the bounds overlap.
            (true, true) => true,
            // Walk the bitset side only.
            (true, false) => ctx.values(y).any(|w| w.checked_add(self.offset).is_some_and(|v| ctx.contains(x, v))),
            _ => ctx.values(x).any(|v| v.checked_sub(self.offset).is_some_and(|w| ctx.contains(y, w))),
        }
    }

    fn negation(&self) -> ReifiableRelation {
        ReifiableRelation::NotEqual(NotEqual::new(self.scope[0], self.scope[1], self.offset))
    }

    fn events(&self) -> Event {
        Event::Domain
    }

    /// A value of one side removed because its partner was not in the other
    /// side: beyond its bounds (then those bounds), or, between two bitsets,
    /// gone from it (then its absence). A failure (for reification): the
    /// bounds apart.
    fn explain(&self, why: &mut Explanation<'_>) -> bool {
        let [x, y] = self.scope;
        let offset = i128::from(self.offset);
        // `var` and its partner `other`, and the shift from `var`'s values to
        // the partner's.
        if x == y {
            return false;
        }
        let (var, other, shift) = match why.explained() {
            Explained::Failure => return explain_apart(why, x, y, offset),
            Explained::Removed(var) | Explained::AtLeast(var, _) | Explained::AtMost(var, _) => {
                if var == x {
                    (x, y, -offset)
                } else {
                    (y, x, offset)
                }
            }
        };
        let removed: smallvec::SmallVec<[i128; 8]> = match why.explained() {
            Explained::Removed(_) => why.removed_values().map(|v| i128::from(v) + shift).collect(),
            Explained::AtLeast(_, bound) => smallvec::smallvec![i128::from(bound) - 1 + shift],
            Explained::AtMost(_, bound) => smallvec::smallvec![i128::from(bound) + 1 + shift],
            Explained::Failure => return false,
        };
        if !why.is_interval(var) && !why.is_interval(other) {
            // Each partner absent (a partner beyond `i64` is no value).
            for partner in removed {
                if let Ok(partner) = i64::try_from(partner) {
                    why.because(Atom::NotEqual(other, partner));
                }
            }
            return true;
        }
        // Bounds: the partners below the other side's smallest value need
        // it above the largest of them, those above its largest, below the
        // smallest of them.
        let (min, max) = (i128::from(why.min(other)), i128::from(why.max(other)));
        let below = removed.iter().filter(|&&p| p < min).max();
        let above = removed.iter().filter(|&&p| p > max).min();
        if removed.iter().any(|&p| (min..=max).contains(&p)) {
            return false;
        }
        if let Some(&p) = below {
            why.because(Atom::AtLeast(other, clamp_bound(p + 1)));
        }
        if let Some(&p) = above {
            why.because(Atom::AtMost(other, clamp_bound(p - 1)));
        }
        true
    }
}

/// Why `x = y + offset` cannot hold: `x`'s bounds and `y`'s apart (false if
/// they were not).
fn explain_apart(why: &mut Explanation<'_>, x: VarId, y: VarId, offset: i128) -> bool {
    if i128::from(why.max(x)) < i128::from(why.min(y)) + offset {
        why.because_upper_bound(x);
        why.because_lower_bound(y);
    } else if i128::from(why.min(x)) > i128::from(why.max(y)) + offset {
        why.because_lower_bound(x);
        why.because_upper_bound(y);
    } else {
        return false;
    }
    true
}

/// `x == y + offset` where a side is an interval (bounds only): both get
/// the (shifted) intersection of the bounds, to a fixpoint.
pub(crate) fn equal_bounds(ctx: &mut Context<'_>, x: VarId, y: VarId, offset: i64) -> PropagationResult {
    let offset = i128::from(offset);
    loop {
        ctx.count_checks(2);
        let lo = i128::from(ctx.min(x)).max(i128::from(ctx.min(y)) + offset);
        let hi = i128::from(ctx.max(x)).min(i128::from(ctx.max(y)) + offset);
        let mut changed = ctx.set_min(x, clamp_bound(lo))? | ctx.set_max(x, clamp_bound(hi))?;
        changed |= ctx.set_min(y, clamp_bound(lo - offset))? | ctx.set_max(y, clamp_bound(hi - offset))?;
        if !changed {
            return Ok(());
        }
    }
}

/// `x != y + offset`.
#[derive(Clone, Debug)]
pub struct NotEqual {
    scope: [VarId; 2],
    offset: i64,
}

impl NotEqual {
    /// `x != y + offset`.
    pub fn new(x: VarId, y: VarId, offset: i64) -> NotEqual {
        NotEqual { scope: [x, y], offset }
    }
}

impl Constraint for NotEqual {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        i128::from(values[0]) != i128::from(values[1]) + i128::from(self.offset)
    }

    fn kind(&self) -> &str {
        "not_equal"
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(Enforce(self)))
    }
}

impl Reifiable for NotEqual {
    fn enforce(&self, ctx: &mut Context<'_>) -> PropagationResult {
        let [x, y] = self.scope;
        // A value of one side loses its only support when the other side is a
        // single value; otherwise every value has a support. A shifted value
        // beyond `i64` is no value.
        if let Some(v) = ctx.assigned_value(x) {
            ctx.count_checks(1);
            if let Some(w) = v.checked_sub(self.offset) {
                ctx.remove(y, w)?;
            }
        }
        if let Some(w) = ctx.assigned_value(y) {
            ctx.count_checks(1);
            if let Some(v) = w.checked_add(self.offset) {
                ctx.remove(x, v)?;
            }
        }
        Ok(())
    }

    fn may_hold(&self, ctx: &Context<'_>) -> bool {
        let [x, y] = self.scope;
        match (ctx.fixed_value(x), ctx.fixed_value(y)) {
            (Some(v), Some(w)) => self.is_satisfied(&[v, w]),
            _ => true,
        }
    }

    fn negation(&self) -> ReifiableRelation {
        ReifiableRelation::Equal(Equal::with_offset(self.scope[0], self.scope[1], self.offset))
    }

    fn events(&self) -> Event {
        Event::Fixed
    }

    /// A side's value removed because the other side was fixed (and, for an
    /// interval's bound, because the bound was at that value); a failure
    /// (for reification) because both were: their values.
    fn explain(&self, why: &mut Explanation<'_>) -> bool {
        if !why.because_fixed(self.scope) {
            return false;
        }
        // An interval's bound moved past the value removed: it was at that value.
        match why.explained() {
            Explained::AtLeast(var, _) => why.because_lower_bound(var),
            Explained::AtMost(var, _) => why.because_upper_bound(var),
            _ => {}
        }
        true
    }
}

/// `x + gap <= y`: `x < y` (gap 1), `x <= y` (gap 0), or any other gap.
#[derive(Clone, Debug)]
pub struct Less {
    scope: [VarId; 2],
    gap: i64,
}

impl Less {
    /// `x < y` when `strict`, else `x <= y`.
    pub fn new(x: VarId, y: VarId, strict: bool) -> Less {
        Less { scope: [x, y], gap: i64::from(strict) }
    }

    /// `x + gap <= y`.
    pub fn with_gap(x: VarId, y: VarId, gap: i64) -> Less {
        Less { scope: [x, y], gap }
    }
}

impl Constraint for Less {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        i128::from(values[0]) + i128::from(self.gap) <= i128::from(values[1])
    }

    fn kind(&self) -> &str {
        if self.gap == 1 { "less_than" } else { "less_or_equal" }
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(Enforce(self)))
    }

    /// `x - y <= -gap`.
    fn inequalities(&self, _: &dyn Fn(VarId) -> Option<i64>, out: &mut Vec<Inequality>) -> Option<VarId> {
        let [x, y] = self.scope;
        out.push(Inequality { terms: vec![(1, x), (-1, y)], rhs: -i128::from(self.gap) });
        None
    }
}

impl Reifiable for Less {
    fn enforce(&self, ctx: &mut Context<'_>) -> PropagationResult {
        // x <= max(y) - gap and y >= min(x) + gap. Moving x's upper bound does not
        // change min(x), and moving y's lower bound does not change max(y), so one
        // pass reaches the fixpoint; it is domain consistent because the relation
        // is monotone.
        let [x, y] = self.scope;
        let gap = i128::from(self.gap);
        ctx.count_checks(2);
        let max_y = i128::from(ctx.max(y));
        ctx.set_max(x, clamp_bound(max_y - gap))?;
        let min_x = i128::from(ctx.min(x));
        ctx.set_min(y, clamp_bound(min_x + gap))?;
        Ok(())
    }

    fn may_hold(&self, ctx: &Context<'_>) -> bool {
        let [x, y] = self.scope;
        i128::from(ctx.min(x)) + i128::from(self.gap) <= i128::from(ctx.max(y))
    }

    fn negation(&self) -> ReifiableRelation {
        // not (x + gap <= y)  <=>  y < x + gap  <=>  y + (1 - gap) <= x.
        let gap = 1 - i128::from(self.gap);
        ReifiableRelation::Less(Less::with_gap(self.scope[1], self.scope[0], clamp_bound(gap)))
    }

    fn events(&self) -> Event {
        Event::Bounds
    }

    /// `x`'s values above `max(y) - gap` removed because `y` was at most
    /// the least of them plus `gap` less one (the weakest bound that removes
    /// them all), `y`'s below `min(x) + gap` likewise; a failure (for
    /// reification) because `min(x) + gap > max(y)`.
    fn explain(&self, why: &mut Explanation<'_>) -> bool {
        let [x, y] = self.scope;
        let gap = i128::from(self.gap);
        if x == y {
            return false;
        }
        match why.explained() {
            Explained::Failure if i128::from(why.min(x)) + gap > i128::from(why.max(y)) => {
                why.because_lower_bound(x);
                why.because_upper_bound(y);
            }
            Explained::Removed(var) if var == x => {
                let Some(least) = why.removed_values().next() else { return false };
                why.because(Atom::AtMost(y, clamp_bound(i128::from(least) + gap - 1)));
            }
            Explained::AtMost(var, bound) if var == x => {
                why.because(Atom::AtMost(y, clamp_bound(i128::from(bound) + gap)))
            }
            Explained::Removed(var) if var == y => {
                let Some(greatest) = why.removed_values().last() else { return false };
                why.because(Atom::AtLeast(x, clamp_bound(i128::from(greatest) - gap + 1)));
            }
            Explained::AtLeast(var, bound) if var == y => {
                why.because(Atom::AtLeast(x, clamp_bound(i128::from(bound) - gap)))
            }
            _ => return false,
        }
        true
    }

    fn is_idempotent(&self) -> bool {
        // `x < x` narrows one domain from both ends, one value per call, until it
        // is empty: the engine must call it again.
        self.scope[0] != self.scope[1]
    }
}
