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
//! again after the bounds it moved. Under learning, a bound moved (or a size
//! fixed to 0) is explained by why the pair's other disjuncts were ruled
//! out (each by the bounds that rule it out: `x[i] ≥ lo`, `dx[i] ≥ lo`,
//! `x[j] ≤ lo + lo - 1`, or a size's `≠ 0`) and the bounds the enforced one
//! used; a failure, by why all of a pair's disjuncts were ruled out.

use crate::constraint::{Constraint, Propagator, PropagatorOptions};
use crate::constraints::operand::{Operand, OperandScope, Slot};
use crate::ids::{Atom, VarId};
use crate::kernel::{Conflict, Context, Event, Explained, Explanation, PropagationResult};

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
        Bounds::read_with(rectangle, |var| (ctx.min(var), ctx.max(var), ctx.contains(var, 0)))
    }

    /// The bounds as an explanation shows them (as they were).
    fn read_before(rectangle: &[Operand; 4], why: &Explanation<'_>) -> Bounds {
        Bounds::read_with(rectangle, |var| (why.min(var), why.max(var), why.contains(var, 0)))
    }

    /// The bounds, from each variable's least and largest values and whether it has 0.
    fn read_with(rectangle: &[Operand; 4], domain: impl Fn(VarId) -> (i64, i64, bool)) -> Bounds {
        let mut bounds = Bounds::default();
        for (k, operand) in rectangle.iter().enumerate() {
            let (lo, hi, zero) = match *operand {
                Operand::Var(var) => domain(var),
                Operand::Const(value) => (value, value, value == 0),
            };
            bounds.lo[k] = i128::from(lo);
            bounds.hi[k] = i128::from(hi);
            if k >= 2 {
                bounds.empty[k - 2] = zero;
            }
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
#[derive(Clone, Copy, PartialEq, Eq)]
enum Disjunct {
    /// Rectangle `first` ends before `second` starts on `axis`.
    Precedes { first: usize, second: usize, axis: usize },
    /// A size of `rectangle` is 0 (`axis` 0: its width); non-strict only.
    Empty { rectangle: usize, axis: usize },
}

/// The disjuncts of pair `(a, b)`: the four precedences, and in the
/// non-strict form the four sizes at 0.
fn disjuncts(a: usize, b: usize, nonstrict: bool) -> impl Iterator<Item = Disjunct> {
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
    all.into_iter().take(if nonstrict { 8 } else { 4 })
}

/// Adds `operand ≥ value` (`≤` when `upper`) for a variable; a constant needs nothing.
fn bound_atom(atoms: &mut Vec<Atom>, operand: Operand, value: i128, upper: bool) {
    if let Operand::Var(var) = operand {
        atoms.push(if upper { Atom::AtMost(var, clamp(value)) } else { Atom::AtLeast(var, clamp(value)) });
    }
}

/// What enforcing a disjunct says of one variable.
#[derive(Clone, Copy)]
enum Fact {
    AtLeast(i128),
    AtMost(i128),
}

impl Pairwise<'_> {
    /// Adds why `disjunct` was ruled out on `bounds` (it was).
    fn ruled_out(&self, bounds: &[Bounds], disjunct: Disjunct, atoms: &mut Vec<Atom>) {
        let rectangles = &self.constraint.rectangles;
        match disjunct {
            Disjunct::Precedes { first, second, axis } => {
                let (origin, size) = (bounds[first].lo[axis], bounds[first].lo[axis + 2]);
                bound_atom(atoms, rectangles[first][axis], origin, false);
                bound_atom(atoms, rectangles[first][axis + 2], size, false);
                // Lifted: the other's origin before the first's least end.
                bound_atom(atoms, rectangles[second][axis], origin + size - 1, true);
            }
            Disjunct::Empty { rectangle, axis } => {
                if let Operand::Var(var) = rectangles[rectangle][axis + 2] {
                    atoms.push(Atom::NotEqual(var, 0));
                }
            }
        }
    }

    /// What enforcing `disjunct` on `bounds` says of `var`, with the atoms
    /// it used: each bound it moves (a size fixed to 0 is both bounds).
    fn enforced(&self, bounds: &[Bounds], disjunct: Disjunct, var: VarId) -> Vec<(Fact, Vec<Atom>)> {
        let rectangles = &self.constraint.rectangles;
        let mut facts = Vec::new();
        match disjunct {
            Disjunct::Precedes { first, second, axis } => {
                let (origin, size, other) =
                    (rectangles[first][axis], rectangles[first][axis + 2], rectangles[second][axis]);
                let (origin_min, size_min) = (bounds[first].lo[axis], bounds[first].lo[axis + 2]);
                let other_max = bounds[second].hi[axis];
                let mut atoms = Vec::new();
                if other == Operand::Var(var) {
                    bound_atom(&mut atoms, origin, origin_min, false);
                    bound_atom(&mut atoms, size, size_min, false);
                    facts.push((Fact::AtLeast(origin_min + size_min), std::mem::take(&mut atoms)));
                }
                if origin == Operand::Var(var) {
                    bound_atom(&mut atoms, other, other_max, true);
                    bound_atom(&mut atoms, size, size_min, false);
                    facts.push((Fact::AtMost(other_max - size_min), std::mem::take(&mut atoms)));
                }
                if size == Operand::Var(var) {
                    bound_atom(&mut atoms, other, other_max, true);
                    bound_atom(&mut atoms, origin, origin_min, false);
                    facts.push((Fact::AtMost(other_max - origin_min), atoms));
                }
            }
            Disjunct::Empty { rectangle, axis } => {
                if rectangles[rectangle][axis + 2] == Operand::Var(var) {
                    facts.push((Fact::AtLeast(0), Vec::new()));
                    facts.push((Fact::AtMost(0), Vec::new()));
                }
            }
        }
        facts
    }

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
                let mut allowed = disjuncts(a, b, c.nonstrict).filter(|&d| self.allowed(d));
                match (allowed.next(), allowed.next()) {
                    (None, _) => return Err(Conflict),
                    (Some(only), None) => self.enforce(ctx, only)?,
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

    fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
        let c = self.constraint;
        // The propagator's scratch, stale between calls, holds the bounds as they were.
        let mut bounds = std::mem::take(&mut self.bounds);
        bounds.clear();
        bounds.extend(c.rectangles.iter().map(|r| Bounds::read_before(r, why)));
        let answered = self.explain_on(&bounds, why);
        self.bounds = bounds;
        answered
    }

    fn is_idempotent(&self) -> bool {
        // A bound moved for one pair can decide an earlier pair.
        false
    }
}

impl Pairwise<'_> {
    /// [`Propagator::explain`] on the rectangles' bounds as they were.
    fn explain_on(&self, bounds: &[Bounds], why: &mut Explanation<'_>) -> bool {
        let c = self.constraint;
        let ruled_out = |d: Disjunct| match d {
            Disjunct::Precedes { first, second, axis } => !bounds[first].can_precede(&bounds[second], axis),
            Disjunct::Empty { rectangle, axis } => !bounds[rectangle].empty[axis],
        };
        // What is to be explained, as a test of what a disjunct says of a variable.
        let (var, implies): (Option<VarId>, Box<dyn Fn(Fact) -> bool>) = match why.explained() {
            Explained::Failure => (None, Box::new(|_| false)),
            Explained::AtLeast(var, v) => {
                (Some(var), Box::new(move |f| matches!(f, Fact::AtLeast(x) if x >= i128::from(v))))
            }
            Explained::AtMost(var, v) => {
                (Some(var), Box::new(move |f| matches!(f, Fact::AtMost(y) if y <= i128::from(v))))
            }
            Explained::Removed(var) => {
                let (lo, hi) = why.removed_values().fold((i64::MAX, i64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
                let implies = move |f| match f {
                    Fact::AtLeast(x) => x > i128::from(hi),
                    Fact::AtMost(y) => y < i128::from(lo),
                };
                (Some(var), Box::new(implies))
            }
        };
        let zero_gone = matches!(why.explained(), Explained::Removed(_)) && {
            let var = var.expect("a variable");
            !why.removed_values().any(|v| v == 0) && why.contains(var, 0)
        };
        let n = c.rectangles.len();
        // A pair answers for a variable only through a disjunct on one of
        // its two rectangles: the pairs without the variable are skipped.
        let has_var = |r: usize| var.is_some_and(|var| c.rectangles[r].contains(&Operand::Var(var)));
        for a in 0..n {
            for b in a + 1..n {
                if var.is_some() && !has_var(a) && !has_var(b) {
                    continue;
                }
                let open: smallvec::SmallVec<[Disjunct; 8]> =
                    disjuncts(a, b, c.nonstrict).filter(|&d| !ruled_out(d)).collect();
                let mut atoms = Vec::new();
                let Some(var) = var else {
                    if open.is_empty() {
                        disjuncts(a, b, c.nonstrict).for_each(|d| self.ruled_out(bounds, d, &mut atoms));
                        why.because_each(atoms);
                        return true;
                    }
                    continue;
                };
                if open.len() > 1 {
                    continue;
                }
                for forced in disjuncts(a, b, c.nonstrict) {
                    if open.first().is_some_and(|&d| d != forced) {
                        continue;
                    }
                    let empties = matches!(forced, Disjunct::Empty { rectangle, axis }
                        if c.rectangles[rectangle][axis + 2] == Operand::Var(var));
                    let used = self.enforced(bounds, forced, var).into_iter().find(|&(f, _)| implies(f));
                    let Some((_, used)) =
                        used.or_else(|| (zero_gone && empties).then(|| (Fact::AtLeast(0), Vec::new())))
                    else {
                        continue;
                    };
                    atoms.extend(used);
                    disjuncts(a, b, c.nonstrict)
                        .filter(|&d| d != forced)
                        .for_each(|d| self.ruled_out(bounds, d, &mut atoms));
                    why.because_each(atoms);
                    return true;
                }
            }
        }
        false
    }
}
