//! Binary constraints: `x == y`, `x != y + c`, `x < y`, `x <= y`.

use crate::constraint::PropagatorOptions;
use crate::constraint::{Constraint, Propagator};
use crate::ids::VarId;
use crate::kernel::Context;
use crate::kernel::Event;
use crate::kernel::PropagationResult;

/// `x == y`.
#[derive(Clone, Debug)]
pub struct Equal {
    scope: [VarId; 2],
}

impl Equal {
    /// `x == y`.
    pub fn new(x: VarId, y: VarId) -> Equal {
        Equal { scope: [x, y] }
    }
}

impl Constraint for Equal {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        values[0] == values[1]
    }

    fn kind(&self) -> &str {
        "equal"
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(EqualPropagator { x: self.scope[0], y: self.scope[1] }))
    }
}

struct EqualPropagator {
    x: VarId,
    y: VarId,
}

impl Propagator for EqualPropagator {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let (x, y) = (self.x, self.y);
        if ctx.is_interval(x) || ctx.is_interval(y) {
            return equal_bounds(ctx, x, y);
        }
        // Each domain becomes the intersection; one pass reaches the fixpoint.
        let drop_x: smallvec::SmallVec<[i64; 16]> = ctx.values(x).filter(|&v| !ctx.contains(y, v)).collect();
        let drop_y: smallvec::SmallVec<[i64; 16]> = ctx.values(y).filter(|&v| !ctx.contains(x, v)).collect();
        ctx.count_checks(2);
        for v in drop_x {
            ctx.remove(x, v)?;
        }
        for v in drop_y {
            ctx.remove(y, v)?;
        }
        Ok(())
    }

    fn is_idempotent(&self) -> bool {
        true
    }
}

/// `x == y` where a domain is an interval, whose inner values cannot go:
/// each domain's bounds move to the other's until they agree, which leaves
/// a bitset side domain consistent (all its values lie within the interval)
/// and the interval the hull of the intersection.
fn equal_bounds(ctx: &mut Context<'_>, x: VarId, y: VarId) -> PropagationResult {
    loop {
        ctx.count_checks(2);
        let (lo, hi) = (ctx.min(x).max(ctx.min(y)), ctx.max(x).min(ctx.max(y)));
        let mut changed = ctx.set_min(x, lo)? | ctx.set_max(x, hi)?;
        changed |= ctx.set_min(y, lo)? | ctx.set_max(y, hi)?;
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
        values[0] as i128 != values[1] as i128 + self.offset as i128
    }

    fn kind(&self) -> &str {
        "not_equal"
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(NotEqualPropagator { x: self.scope[0], y: self.scope[1], offset: self.offset }))
    }
}

struct NotEqualPropagator {
    x: VarId,
    y: VarId,
    offset: i64,
}

impl Propagator for NotEqualPropagator {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        // A value of one side loses its only support when the other side is a
        // single value; otherwise every value has a support.
        if let Some(v) = ctx.assigned_value(self.x) {
            ctx.count_checks(1);
            ctx.remove(self.y, v - self.offset)?;
        }
        if let Some(w) = ctx.assigned_value(self.y) {
            ctx.count_checks(1);
            ctx.remove(self.x, w + self.offset)?;
        }
        Ok(())
    }

    fn interest(&self) -> Event {
        Event::Fixed
    }

    fn is_idempotent(&self) -> bool {
        true
    }
}

/// `x < y` (strict) or `x <= y`.
#[derive(Clone, Debug)]
pub struct Less {
    scope: [VarId; 2],
    strict: bool,
}

impl Less {
    /// `x < y` when `strict`, else `x <= y`.
    pub fn new(x: VarId, y: VarId, strict: bool) -> Less {
        Less { scope: [x, y], strict }
    }
}

impl Constraint for Less {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        if self.strict { values[0] < values[1] } else { values[0] <= values[1] }
    }

    fn kind(&self) -> &str {
        if self.strict { "less_than" } else { "less_or_equal" }
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(LessPropagator { x: self.scope[0], y: self.scope[1], gap: i64::from(self.strict) }))
    }
}

struct LessPropagator {
    x: VarId,
    y: VarId,
    /// `x + gap <= y`.
    gap: i64,
}

impl Propagator for LessPropagator {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        // x <= max(y) - gap and y >= min(x) + gap. Moving x's upper bound does not
        // change min(x), and moving y's lower bound does not change max(y), so one
        // pass reaches the fixpoint; it is domain consistent because the relation
        // is monotone.
        ctx.count_checks(2);
        let max_y = ctx.max(self.y);
        ctx.set_max(self.x, max_y - self.gap)?;
        let min_x = ctx.min(self.x);
        ctx.set_min(self.y, min_x + self.gap)?;
        Ok(())
    }

    fn interest(&self) -> Event {
        Event::Bounds
    }

    fn is_idempotent(&self) -> bool {
        // `x < x` narrows one domain from both ends, one value per call, until it
        // is empty: the engine must call it again.
        self.x != self.y
    }
}
