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
        Some(Box::new(Pairwise { constraint: self, bounds: Vec::new() }))
    }
}

/// One rectangle's bounds, read once per call: the least and largest values
/// of `x`, `y`, `dx`, `dy`, and whether each size can be 0.
#[derive(Clone, Copy, Default)]
struct Bounds {
    lo: [i128; 4],
    hi: [i128; 4],
    empty: [bool; 2],
}

impl Bounds {
    fn read(rectangle: &[Operand; 4], ctx: &Context<'_>) -> Bounds {
        let mut bounds = Bounds::default();
        for (k, operand) in rectangle.iter().enumerate() {
            bounds.lo[k] = i128::from(operand.min(ctx));
            bounds.hi[k] = i128::from(operand.max(ctx));
        }
        for (k, size) in rectangle[2..].iter().enumerate() {
            bounds.empty[k] = match *size {
                Operand::Var(var) => ctx.contains(var, 0),
                Operand::Const(value) => value == 0,
            };
        }
        bounds
    }

    /// Whether this rectangle can end before `other` starts on `axis` (0: x, 1: y).
    fn can_precede(&self, other: &Bounds, axis: usize) -> bool {
        self.lo[axis] + self.lo[axis + 2] <= other.hi[axis]
    }
}

struct Pairwise<'c> {
    constraint: &'c Diffn,
    /// Scratch: each rectangle's bounds, kept up to date within a call.
    bounds: Vec<Bounds>,
}

/// A bound computed in 128 bits, as a value to write into a domain: beyond
/// the 64-bit range it is clamped, which still empties a domain.
fn clamp(value: i128) -> i64 {
    value.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

/// One way a pair `(a, b)` can be apart.
#[derive(Clone, Copy)]
enum Disjunct {
    /// Rectangle `first` ends before `second` starts on `axis`.
    Precedes { first: usize, second: usize, axis: usize },
    /// A size of `rectangle` is 0 (`axis` 0: its width); non-strict only.
    Empty { rectangle: usize, axis: usize },
}

impl Pairwise<'_> {
    fn allowed(&self, disjunct: Disjunct) -> bool {
        match disjunct {
            Disjunct::Precedes { first, second, axis } => self.bounds[first].can_precede(&self.bounds[second], axis),
            Disjunct::Empty { rectangle, axis } => self.bounds[rectangle].empty[axis],
        }
    }

    /// Makes the disjunct hold, on the bounds, and rereads the rectangles it moved.
    fn enforce(&mut self, ctx: &mut Context<'_>, disjunct: Disjunct) -> PropagationResult {
        let rectangles = &self.constraint.rectangles;
        match disjunct {
            Disjunct::Precedes { first, second, axis } => {
                let (origin, size, other) =
                    (rectangles[first][axis], rectangles[first][axis + 2], rectangles[second][axis]);
                let (origin_min, size_min) = (i128::from(origin.min(ctx)), i128::from(size.min(ctx)));
                other.set_min(ctx, clamp(origin_min + size_min))?;
                let other_max = i128::from(other.max(ctx));
                origin.set_max(ctx, clamp(other_max - size_min))?;
                size.set_max(ctx, clamp(other_max - origin_min))?;
                self.bounds[first] = Bounds::read(&rectangles[first], ctx);
                self.bounds[second] = Bounds::read(&rectangles[second], ctx);
            }
            Disjunct::Empty { rectangle, axis } => {
                match rectangles[rectangle][axis + 2] {
                    Operand::Var(var) => {
                        ctx.fix(var, 0)?;
                    }
                    Operand::Const(value) if value != 0 => return Err(Conflict),
                    Operand::Const(_) => {}
                }
                self.bounds[rectangle] = Bounds::read(&rectangles[rectangle], ctx);
            }
        }
        Ok(())
    }
}

impl Propagator for Pairwise<'_> {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let c = self.constraint;
        let n = c.rectangles.len();
        self.bounds.clear();
        self.bounds.extend(c.rectangles.iter().map(|rectangle| Bounds::read(rectangle, ctx)));
        for a in 0..n {
            for b in a + 1..n {
                let all = [
                    Disjunct::Precedes { first: a, second: b, axis: 0 },
                    Disjunct::Precedes { first: a, second: b, axis: 1 },
                    Disjunct::Precedes { first: b, second: a, axis: 0 },
                    Disjunct::Precedes { first: b, second: a, axis: 1 },
                    Disjunct::Empty { rectangle: a, axis: 0 },
                    Disjunct::Empty { rectangle: a, axis: 1 },
                    Disjunct::Empty { rectangle: b, axis: 0 },
                    Disjunct::Empty { rectangle: b, axis: 1 },
                ];
                let candidates = if c.nonstrict { &all[..] } else { &all[..4] };
                let mut allowed = candidates.iter().filter(|&&d| self.allowed(d));
                match (allowed.next(), allowed.next()) {
                    (None, _) => return Err(Conflict),
                    (Some(&only), None) => self.enforce(ctx, only)?,
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
