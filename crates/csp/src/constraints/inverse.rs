//! `inverse`: two arrays of variables are inverse functions of each other,
//! MiniZinc's `inverse(f, invf)`: `f[i] = j` exactly when `invf[j] = i`.
//! Each array has an index base (MiniZinc's arrays count from 1): `f`'s
//! positions are `f_base, f_base + 1, ...`, and those are the values `invf`
//! may take, and the other way round.
//!
//! Strength: the channeling propagator here is domain consistent on the
//! binary relations `f[i] = j <=> invf[j] = i` (both directions, and the values
//! outside the other array's positions removed). The whole constraint is a
//! bijection, whose domain consistency also needs the pigeonhole reasoning of
//! a matching: [`Model::inverse`](crate::Model::inverse) therefore posts an
//! `all_different` of matching strength on `f` next to this one, and the two
//! together are domain consistent on `inverse` (a value `f[i] = j` has a support
//! when the edge `(i, j)` is in a perfect matching, which Régin's propagator
//! decides, and channeling carries it over to `invf`). Positions are compared
//! in 128-bit arithmetic, so no base or value overflows.
//!
//! A variable is first narrowed to the other array's positions, so an interval
//! domain (a range wider than the bitset limit, kept as its bounds) is walked
//! over at most that many values; its inner removals are no-ops, so over
//! intervals the channeling is sound and moves bounds only.

use crate::constraint::{Constraint, Propagator, PropagatorOptions};
use crate::constraints::in_set::retain_in;
use crate::ids::{Atom, VarId};
use crate::kernel::{Conflict, Context, Explained, Explanation, PropagationResult};

/// `f[i] = j <=> invf[j] = i`, over the positions `f_base..` of `f` and
/// `invf_base..` of `invf`; the scope is `f` then `invf`.
#[derive(Clone, Debug)]
pub struct Inverse {
    scope: Vec<VarId>,
    /// The length of `f`.
    split: usize,
    f_base: i64,
    invf_base: i64,
}

impl Inverse {
    /// The constraint. Prefer [`Model::inverse`](crate::Model::inverse), which
    /// checks the arguments and adds the all-different that makes it domain
    /// consistent.
    pub fn new(f: &[VarId], f_base: i64, invf: &[VarId], invf_base: i64) -> Inverse {
        Inverse { scope: [f, invf].concat(), split: f.len(), f_base, invf_base }
    }
}

/// The index into an array of `len` positions starting at `base` that `value`
/// names, if any.
fn index(value: i64, base: i64, len: usize) -> Option<usize> {
    let offset = i128::from(value) - i128::from(base);
    (0..len as i128).contains(&offset).then_some(offset as usize)
}

/// The value that names index `i` of an array starting at `base`. Model time
/// checks that every such value is within `-2^62..=2^62`; a constraint built
/// by hand beyond that saturates instead of overflowing (no domain holds
/// such a value, so nothing can take it).
fn position(i: usize, base: i64) -> i64 {
    base.saturating_add(i64::try_from(i).unwrap_or(i64::MAX))
}

impl Constraint for Inverse {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        let (f, invf) = values.split_at(self.split);
        let maps = |from: &[i64], from_base: i64, to: &[i64], to_base: i64| {
            from.iter()
                .enumerate()
                .all(|(i, &value)| index(value, to_base, to.len()).is_some_and(|j| to[j] == position(i, from_base)))
        };
        maps(f, self.f_base, invf, self.invf_base) && maps(invf, self.invf_base, f, self.f_base)
    }

    fn kind(&self) -> &str {
        "inverse"
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        let (f, invf) = self.scope.split_at(self.split);
        let mut sorted = self.scope.clone();
        sorted.sort_unstable();
        let distinct = sorted.windows(2).all(|w| w[0] != w[1]);
        Some(Box::new(Channel { f, invf, f_base: self.f_base, invf_base: self.invf_base, distinct, keep: Vec::new() }))
    }
}

/// Channeling both ways: each value of `f[i]` names an `invf[j]` that can
/// take `i`, and each value of `invf[j]` names an `f[i]` that can take `j`.
struct Channel<'c> {
    f: &'c [VarId],
    invf: &'c [VarId],
    f_base: i64,
    invf_base: i64,
    /// Whether no variable appears twice (then one call is a fixpoint).
    distinct: bool,
    /// Scratch: the values of the variable being filtered that stay.
    keep: Vec<i64>,
}

impl Channel<'_> {
    /// Keeps in each `from[i]` the values naming a `to[j]` that can take `i`.
    fn filter(
        &mut self,
        ctx: &mut Context<'_>,
        (from, from_base): (&[VarId], i64),
        (to, to_base): (&[VarId], i64),
    ) -> PropagationResult {
        if to.is_empty() {
            // No position to name: only an empty `from` is satisfied.
            return if from.is_empty() { Ok(()) } else { Err(Conflict) };
        }
        for (i, &var) in from.iter().enumerate() {
            let me = position(i, from_base);
            // The bounds first, so that only values naming a position are
            // visited (a wide domain is not walked value by value).
            ctx.set_min(var, to_base)?;
            ctx.set_max(var, position(to.len() - 1, to_base))?;
            self.keep.clear();
            self.keep.extend(
                ctx.values(var)
                    .filter(|&value| index(value, to_base, to.len()).is_some_and(|j| ctx.contains(to[j], me))),
            );
            ctx.count_checks(ctx.size(var) as u64);
            if self.keep.len() < ctx.size(var) {
                retain_in(ctx, var, &self.keep)?;
            }
        }
        Ok(())
    }
}

impl Propagator for Channel<'_> {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        // After the first pass every value of `f` has its partner in `invf`; the
        // second removes only values of `invf` whose partner in `f` is gone, so
        // no value of `f` loses its partner and the two passes are a fixpoint.
        let (f, invf) = ((self.f, self.f_base), (self.invf, self.invf_base));
        self.filter(ctx, f, invf)?;
        self.filter(ctx, invf, f)
    }

    fn is_idempotent(&self) -> bool {
        self.distinct
    }

    /// A value `j` of `f[i]` by `invf[j] != i`, a value `i` of `invf[j]` by
    /// `f[i] != j`; a value naming no position by nothing; a bound by those
    /// of the values it passed that name a position (and its own bound when
    /// it started within the positions).
    fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
        if !self.distinct {
            return false;
        }
        let (var, low, high) = match why.explained() {
            // The only failure: positions to name on one side, none on the other.
            Explained::Failure => return self.f.is_empty() != self.invf.is_empty(),
            Explained::Removed(var) => (var, None, None),
            Explained::AtLeast(var, bound) => (var, Some(bound), None),
            Explained::AtMost(var, bound) => (var, None, Some(bound)),
        };
        let Some(k) = self.f.iter().chain(self.invf).position(|&x| x == var) else { return false };
        let ((from_base, i), (to, to_base)) = match k.checked_sub(self.f.len()) {
            None => ((self.f_base, k), (self.invf, self.invf_base)),
            Some(j) => ((self.invf_base, j), (self.f, self.f_base)),
        };
        let me = position(i, from_base);
        // The values to explain that name a position, and the explained
        // variable's own bound when it started within the positions.
        let mut atoms: smallvec::SmallVec<[Atom; 8]> = smallvec::SmallVec::new();
        let within = |value: i64| (i128::from(value) - i128::from(to_base)).clamp(-1, to.len() as i128);
        let named: smallvec::SmallVec<[usize; 8]> = match (low, high) {
            (Some(bound), _) => {
                let (from, upto) = (within(why.min(var)), within(bound).min(to.len() as i128));
                if from > 0 {
                    atoms.push(Atom::AtLeast(var, why.min(var)));
                }
                (from.max(0)..upto).map(|j| j as usize).collect()
            }
            (_, Some(bound)) => {
                let last = to.len() as i128 - 1;
                let (from, upto) = (within(bound) + 1, within(why.max(var)));
                if upto < last {
                    atoms.push(Atom::AtMost(var, why.max(var)));
                }
                (from..=upto.min(last)).map(|j| j as usize).collect()
            }
            _ => why.removed_values().filter_map(|value| index(value, to_base, to.len())).collect(),
        };
        for j in named {
            if why.contains(to[j], me) {
                return false;
            }
            atoms.push(Atom::NotEqual(to[j], me));
        }
        atoms.into_iter().for_each(|atom| why.because(atom));
        true
    }
}
