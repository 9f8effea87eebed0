//! `diffn(x, y, dx, dy)`: rectangle `i`, with its origin at `(x[i], y[i])`
//! and sizes `dx[i]`, `dy[i]`, overlaps no other (MiniZinc's `diffn`, and
//! `diffn_nonstrict` where a rectangle of no width or no height may be
//! anywhere). Sizes may be variables or constants.
//!
//! The relation, as MiniZinc's decompositions (`fzn_diffn.mzn`,
//! `fzn_diffn_nonstrict.mzn`) have it, for every pair `i < j`: one of
//! `x[i] + dx[i] <= x[j]`, `y[i] + dy[i] <= y[j]`, `x[j] + dx[j] <= x[i]`,
//! `y[j] + dy[j] <= y[i]` holds (non-strict: or one of the four sizes is 0).
//! No sign is asked of the sizes: a negative size only makes its disjunct
//! easier.
//!
//! Strength: each pair's disjunction on the bounds. A disjunct that the
//! bounds allow is a candidate; with none the pair fails, with one it is
//! enforced (its linear inequality's bounds, or the size fixed to 0). Sound,
//! and it checks fixed values: with everything fixed, a disjunct is allowed
//! exactly when it holds. One pass over the pairs per call; the engine calls
//! again after the bounds it moved. Explanations are the engine's generic
//! answer (the scope's domains).

use crate::constraint::{Constraint, Propagator, PropagatorOptions};
use crate::constraints::operand::{Operand, OperandScope, Slot};
use crate::ids::VarId;
use crate::kernel::{Conflict, Context, Event, PropagationResult};

/// No two rectangles overlap.
#[derive(Clone, Debug)]
pub struct Diffn {
    /// Per rectangle: `x`, `y`, `dx`, `dy`.
    rectangles: Vec<[Operand; 4]>,
    /// Whether a rectangle of no width or height may be anywhere.
    nonstrict: bool,
    scope: Vec<VarId>,
    slots: Vec<[Slot; 4]>,
}

impl Diffn {
    /// The constraint over rectangles `(x[i], y[i], dx[i], dy[i])` (built by
    /// hand with lists of different lengths, it has the rectangles all four
    /// give). Prefer [`Model::diffn`](crate::Model::diffn), which checks the
    /// arguments.
    pub fn new(x: Vec<VarId>, y: Vec<VarId>, dx: Vec<Operand>, dy: Vec<Operand>, nonstrict: bool) -> Diffn {
        let rectangles: Vec<[Operand; 4]> = x
            .iter()
            .zip(&y)
            .zip(&dx)
            .zip(&dy)
            .map(|(((&x, &y), &dx), &dy)| [Operand::Var(x), Operand::Var(y), dx, dy])
            .collect();
        let mut scope = OperandScope::default();
        let slots = rectangles.iter().map(|r| r.map(|operand| scope.slot(operand))).collect();
        Diffn { rectangles, nonstrict, scope: scope.vars, slots }
    }
}

/// `origin + size <= other` (in 128 bits): the first box ends before the other starts.
fn before(origin: i64, size: i64, other: i64) -> bool {
    i128::from(origin) + i128::from(size) <= i128::from(other)
}

impl Constraint for Diffn {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        let boxes: Vec<[i64; 4]> = self.slots.iter().map(|slots| slots.map(|slot| slot.value(values))).collect();
        boxes.iter().enumerate().all(|(i, a)| {
            boxes[i + 1..].iter().all(|b| {
                (self.nonstrict && (a[2] == 0 || a[3] == 0 || b[2] == 0 || b[3] == 0))
                    || before(a[0], a[2], b[0])
                    || before(a[1], a[3], b[1])
                    || before(b[0], b[2], a[0])
                    || before(b[1], b[3], a[1])
            })
        })
    }

    fn kind(&self) -> &str {
        if self.nonstrict { "diffn_nonstrict" } else { "diffn" }
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(Pairwise { constraint: self }))
    }
}

struct Pairwise<'c> {
    constraint: &'c Diffn,
}

/// One way a pair can be apart.
#[derive(Clone, Copy)]
enum Disjunct {
    /// `origin + size <= other`.
    Before { origin: Operand, size: Operand, other: Operand },
    /// `size = 0` (non-strict only).
    Empty(Operand),
}

/// A bound computed in 128 bits, as a value to write into a domain: beyond
/// the 64-bit range it is clamped, which still empties a domain.
fn clamp(value: i128) -> i64 {
    value.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

impl Disjunct {
    /// Whether the bounds allow it.
    fn allowed(self, ctx: &Context<'_>) -> bool {
        match self {
            Disjunct::Before { origin, size, other } => {
                i128::from(origin.min(ctx)) + i128::from(size.min(ctx)) <= i128::from(other.max(ctx))
            }
            Disjunct::Empty(Operand::Var(var)) => ctx.contains(var, 0),
            Disjunct::Empty(Operand::Const(value)) => value == 0,
        }
    }

    /// Makes it hold, on the bounds.
    fn enforce(self, ctx: &mut Context<'_>) -> PropagationResult {
        match self {
            Disjunct::Before { origin, size, other } => {
                let (origin_min, size_min) = (i128::from(origin.min(ctx)), i128::from(size.min(ctx)));
                other.set_min(ctx, clamp(origin_min + size_min))?;
                let other_max = i128::from(other.max(ctx));
                origin.set_max(ctx, clamp(other_max - size_min))?;
                size.set_max(ctx, clamp(other_max - origin_min))?;
            }
            Disjunct::Empty(Operand::Var(var)) => {
                ctx.fix(var, 0)?;
            }
            Disjunct::Empty(Operand::Const(value)) => {
                if value != 0 {
                    return Err(Conflict);
                }
            }
        }
        Ok(())
    }
}

impl Propagator for Pairwise<'_> {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let c = self.constraint;
        let n = c.rectangles.len();
        for i in 0..n {
            for j in i + 1..n {
                let [xa, ya, wa, ha] = c.rectangles[i];
                let [xb, yb, wb, hb] = c.rectangles[j];
                let all = [
                    Disjunct::Before { origin: xa, size: wa, other: xb },
                    Disjunct::Before { origin: ya, size: ha, other: yb },
                    Disjunct::Before { origin: xb, size: wb, other: xa },
                    Disjunct::Before { origin: yb, size: hb, other: ya },
                    Disjunct::Empty(wa),
                    Disjunct::Empty(ha),
                    Disjunct::Empty(wb),
                    Disjunct::Empty(hb),
                ];
                let candidates = if c.nonstrict { &all[..] } else { &all[..4] };
                let mut allowed = candidates.iter().filter(|d| d.allowed(ctx));
                match (allowed.next(), allowed.next()) {
                    (None, _) => return Err(Conflict),
                    (Some(&only), None) => only.enforce(ctx)?,
                    _ => {}
                }
            }
        }
        ctx.count_checks((n * n.saturating_sub(1) / 2) as u64);
        Ok(())
    }

    fn interest(&self) -> Event {
        Event::Bounds
    }

    fn is_idempotent(&self) -> bool {
        // A bound moved for one pair can decide an earlier pair.
        false
    }
}
