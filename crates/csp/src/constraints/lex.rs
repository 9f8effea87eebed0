//! `lex_less` and `lex_lesseq`: one vector of variables is lexicographically
//! smaller than (or equal to) another, MiniZinc's `lex_less` / `lex_lesseq` for
//! integers and booleans (0/1 variables). The vectors may differ in length:
//! as for Rust's slices, a proper prefix is smaller than the longer vector.
//!
//! Strength: domain consistent (on vectors without a repeated variable).
//! Over interval domains (ranges wider than the bitset limit, kept as their
//! bounds) it reads and moves bounds only, so it is bounds consistent there.
//! Algorithm: Frisch, Hnich, Kiziltan, Miguel and Walsh, "Global constraints
//! for lexicographic orderings" (CP 2002), with its two pointers: `alpha`, the
//! first position whose two variables are not fixed to one value, and `beta`,
//! the first position from which the rest of `x` must be greater than the rest
//! of `y` even with `x` at its minima and `y` at its maxima. Only position
//! `alpha` is ever pruned: `x[alpha] <= y[alpha]`, strictly when `beta` is the
//! next position; every value elsewhere has a support. `alpha` only grows
//! going down the search tree, so it is kept in a reversible integer; `beta`
//! is recomputed, in one pass over the positions from `alpha`.
//!
//! Comparing vectors of different lengths reduces to their common prefix:
//! `x <= y` is `x[..m] <= y[..m]` when `x` is not the longer one and
//! `x[..m] < y[..m]` otherwise (`m` the shorter length), and likewise for `<`.
//!
//! Explanations (the standard ones of lazy clause generation): a bound of
//! `x[k]` or `y[k]` by `x[i] >= c_i`, `y[i] <= c_i` for each position `i`
//! before `k` (the prefix could not already be ordered) and the other
//! variable's bound at `k`; when the step is strict, also by the positions
//! after `k` that order the rest of `x` above the rest of `y` (ties up to
//! one with `x` above, or to the end for a strict order). A failure by the
//! same from the first position.

use crate::constraint::{Constraint, Propagator, PropagatorOptions};
use crate::ids::{Atom, VarId};
use crate::kernel::{Conflict, Context, Event, Explained, Explanation, PropagationResult, ReversibleInt};

/// `x < y` (strict) or `x <= y` in lexicographic order; the scope is `x` then `y`.
#[derive(Clone, Debug)]
pub struct Lex {
    scope: Vec<VarId>,
    /// The length of `x`.
    split: usize,
    strict: bool,
}

impl Lex {
    /// `x < y` when `strict`, else `x <= y`. Prefer
    /// [`Model::lex_less`](crate::Model::lex_less) and
    /// [`Model::lex_lesseq`](crate::Model::lex_lesseq), which check the arguments.
    pub fn new(x: &[VarId], y: &[VarId], strict: bool) -> Lex {
        Lex { scope: [x, y].concat(), split: x.len(), strict }
    }

    /// The common prefix's two vectors, and whether the prefix of `x` must be
    /// strictly smaller (see the module docs).
    fn prefix(&self) -> (&[VarId], &[VarId], bool) {
        let (x, y) = self.scope.split_at(self.split);
        let m = x.len().min(y.len());
        let strict = if self.strict { x.len() >= y.len() } else { x.len() > y.len() };
        (&x[..m], &y[..m], strict)
    }
}

impl Constraint for Lex {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        let (x, y) = values.split_at(self.split);
        if self.strict { x < y } else { x <= y }
    }

    fn kind(&self) -> &str {
        if self.strict { "lex_less" } else { "lex_lesseq" }
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        let (x, y, strict) = self.prefix();
        let mut sorted = self.scope.clone();
        sorted.sort_unstable();
        let distinct = sorted.windows(2).all(|w| w[0] != w[1]);
        Some(Box::new(LexPropagator { x, y, strict, alpha: None, distinct }))
    }
}

struct LexPropagator<'c> {
    x: &'c [VarId],
    y: &'c [VarId],
    strict: bool,
    /// Every position before it has both variables fixed to one value.
    alpha: Option<ReversibleInt>,
    distinct: bool,
}

/// Where the rest of the vectors can no longer be ordered.
enum Beta {
    /// Nowhere: from `alpha` on, `x` at its minima is below `y` at its maxima.
    Never,
    /// From this position on, `x` at its minima is above `y` at its maxima.
    At(usize),
}

impl LexPropagator<'_> {
    /// The first position at or after `from` whose two variables are not fixed
    /// to one value.
    fn alpha(&self, ctx: &Context<'_>, from: usize) -> usize {
        let mut i = from;
        while i < self.x.len() {
            match (ctx.fixed_value(self.x[i]), ctx.fixed_value(self.y[i])) {
                (Some(a), Some(b)) if a == b => i += 1,
                _ => break,
            }
        }
        i
    }

    /// `beta`: the start of the run of positions with `min(x) == max(y)` just
    /// before the first position with `min(x) > max(y)` (or before the end,
    /// for a strict order), scanning from `alpha`.
    fn beta(&self, ctx: &Context<'_>, alpha: usize) -> Beta {
        let mut run: Option<usize> = None;
        for i in alpha..self.x.len() {
            let (low, high) = (ctx.min(self.x[i]), ctx.max(self.y[i]));
            if low < high {
                run = None;
            } else if low == high {
                run = run.or(Some(i));
            } else {
                return Beta::At(run.unwrap_or(i));
            }
        }
        if self.strict { Beta::At(run.unwrap_or(self.x.len())) } else { Beta::Never }
    }

    /// Adds why `x[i] >= y[i]` held, `x[i] >= c` and `y[i] <= c`; `false`
    /// when it did not.
    fn tie(&self, why: &Explanation<'_>, i: usize, atoms: &mut Vec<Atom>) -> bool {
        let (low, high) = (why.min(self.x[i]), why.max(self.y[i]));
        atoms.push(Atom::AtLeast(self.x[i], low));
        atoms.push(Atom::AtMost(self.y[i], low));
        low >= high
    }

    /// Adds why `x[from..]` could not be below `y[from..]` (nor equal to
    /// it, for a strict order): ties up to a position where `x` was above,
    /// or to the end; `false` when the domains did not show it.
    fn not_below(&self, why: &Explanation<'_>, from: usize, atoms: &mut Vec<Atom>) -> bool {
        for i in from..self.x.len() {
            let (low, high) = (why.min(self.x[i]), why.max(self.y[i]));
            if low > high {
                atoms.push(Atom::AtLeast(self.x[i], high + 1));
                atoms.push(Atom::AtMost(self.y[i], high));
                return true;
            }
            if !self.tie(why, i, atoms) {
                return false;
            }
        }
        self.strict
    }

    /// Adds why `x[k] <= bound` (`upper`) or `y[k] >= bound`: the prefix's
    /// ties, the other variable's bound at `k`, and for a strict step the
    /// rest that was not below.
    fn step(&self, why: &Explanation<'_>, k: usize, upper: bool, bound: i64, atoms: &mut Vec<Atom>) -> bool {
        if !(0..k).all(|i| self.tie(why, i, atoms)) {
            return false;
        }
        // The other variable's bound, and how far past it the step went.
        let (atom, gap) = if upper {
            let high = why.max(self.y[k]);
            (Atom::AtMost(self.y[k], high.max(bound)), high - bound)
        } else {
            let low = why.min(self.x[k]);
            (Atom::AtLeast(self.x[k], low.min(bound)), bound - low)
        };
        atoms.push(atom);
        gap <= 0 || (gap == 1 && self.not_below(why, k + 1, atoms))
    }
}

impl Propagator for LexPropagator<'_> {
    fn initialise(&mut self, ctx: &mut Context<'_>) {
        self.alpha = Some(ctx.new_reversible_int(0));
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let cell = self.alpha.expect("initialised");
        let mut alpha = ctx.get(cell) as usize;
        loop {
            alpha = self.alpha(ctx, alpha);
            ctx.set(cell, alpha as i64);
            ctx.count_checks((self.x.len() - alpha) as u64 + 1);
            if alpha == self.x.len() {
                // The vectors are equal.
                return if self.strict { Err(Conflict) } else { Ok(()) };
            }
            let gap = match self.beta(ctx, alpha) {
                Beta::At(beta) if beta == alpha => return Err(Conflict),
                Beta::At(beta) if beta == alpha + 1 => 1,
                _ => 0,
            };
            // x[alpha] + gap <= y[alpha]; the values at `alpha` are within
            // -2^62..=2^62, so adding the gap cannot overflow.
            let (x, y) = (self.x[alpha], self.y[alpha]);
            let high = ctx.max(y) - gap;
            ctx.set_max(x, high)?;
            let low = ctx.min(x) + gap;
            ctx.set_min(y, low)?;
            // Pruning at `alpha` moves no bound `beta` depends on; only when it
            // fixed both variables to one value does `alpha` move on.
            if self.alpha(ctx, alpha) == alpha {
                return Ok(());
            }
        }
    }

    fn interest(&self) -> Event {
        Event::Bounds
    }

    fn is_idempotent(&self) -> bool {
        self.distinct
    }

    /// See the module docs: the prefix's ties, the bound at the position
    /// pruned, and the rest when the step was strict.
    fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
        if !self.distinct {
            return false;
        }
        let mut atoms = Vec::new();
        let at = |vars: &[VarId], var: VarId| vars.iter().position(|&v| v == var);
        let answered = match why.explained() {
            Explained::Failure => self.not_below(why, 0, &mut atoms),
            // `x[k]` lost values above some bound, `y[k]` values below one.
            Explained::Removed(var) => match (at(self.x, var), at(self.y, var)) {
                (Some(k), _) => match why.removed_values().next() {
                    Some(lowest) => self.step(why, k, true, lowest - 1, &mut atoms),
                    None => false,
                },
                (_, Some(k)) => match why.removed_values().last() {
                    Some(highest) => self.step(why, k, false, highest + 1, &mut atoms),
                    None => false,
                },
                _ => false,
            },
            Explained::AtMost(var, bound) => {
                at(self.x, var).is_some_and(|k| self.step(why, k, true, bound, &mut atoms))
            }
            Explained::AtLeast(var, bound) => {
                at(self.y, var).is_some_and(|k| self.step(why, k, false, bound, &mut atoms))
            }
        };
        if answered {
            why.because_each(atoms);
        }
        answered
    }
}
