//! Arithmetic: `z = x * y`, `z = x div y`, `z = x mod y`, `z = x ^ y`,
//! `z = x ^ k` for a constant `k`, and `z = |x|`, with MiniZinc's semantics
//! (`int_times`, `int_div`, `int_mod`, `int_pow`, `int_abs`).
//!
//! - `div` truncates toward zero and `mod` takes the sign of `x` (Rust's `/`
//!   and `%`); both require `y != 0`, as part of the constraint.
//! - `pow` with a negative exponent is `1 div x^-y` (so 0 for `|x| >= 2`), and
//!   undefined (never satisfied) for `x = 0`; `x^0 = 1`, `0^0` included.
//! - Every value is computed in `i128`, so no product or power overflows: a
//!   result outside `-2^62..=2^62` simply has no variable value to equal.
//!
//! Strength (see [`ArithmeticStrength`]): **domain consistent** while a support
//! enumeration is small: the pairs of values of `x` and `y` for a binary
//! operation, the values of `x` for a unary one, at most `SUPPORT_LIMIT`
//! (4096); each call enumerates them and keeps the values of every variable
//! that appear in a satisfying tuple (`support.rs`). Beyond that, and always
//! with [`ArithmeticStrength::Bounds`], **bounds propagation** by interval
//! arithmetic (`bounds.rs`): `z`'s bounds are those of `f` over the box of
//! `x`'s and `y`'s bounds (exact for `times` and `pow`: a corner attains
//! them), and `x`'s and `y`'s bounds are those of the inverse relation
//! (bounds(R) consistency for `times`; for `div`, the exact hull of the
//! dividends, and a sound bound on the divisor; for `mod`, signs and
//! magnitudes). A
//! constant-exponent `pow` with `k < 0` and `abs` need no enumeration for
//! their strongest reasoning on `z`; a variable exponent on large domains
//! waits until the exponent is fixed. Whatever the strength, once `x` and `y`
//! are fixed `z` is fixed to their result, so a violated constraint is always
//! detected.

mod bounds;
mod explain;
mod support;

use explain::Term;

use crate::constraint::{Constraint, Propagator, PropagatorOptions};
use crate::ids::VarId;
use crate::kernel::{Context, Explanation, PropagationResult};

/// The largest support enumeration that domain-consistent arithmetic makes per
/// call: pairs of values for a binary operation, values for a unary one.
pub(crate) const SUPPORT_LIMIT: u64 = 4096;

/// How strongly arithmetic constraints propagate (Gecode's bounds versus
/// domain consistency).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ArithmeticStrength {
    /// Interval reasoning on the bounds only, whatever the domains.
    Bounds,
    /// Domain consistency by enumerating supports while they are at most 4096
    /// (pairs of operand values, or values of a unary operation's operand);
    /// bounds reasoning beyond.
    #[default]
    Domain,
}

/// What an arithmetic constraint computes from its operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Operation {
    /// `x * y`
    Times,
    /// `x / y`, truncated toward zero; undefined for `y = 0`.
    Div,
    /// `x % y`, with the sign of `x`; undefined for `y = 0`.
    Mod,
    /// `x ^ y`, MiniZinc's integer power.
    Pow,
    /// `|x|` (unary).
    Abs,
    /// `x ^ k` for the constant `k` (unary).
    PowConstant(i64),
}

impl Operation {
    fn is_unary(self) -> bool {
        matches!(self, Operation::Abs | Operation::PowConstant(_))
    }

    fn kind(self) -> &'static str {
        match self {
            Operation::Times => "times",
            Operation::Div => "div",
            Operation::Mod => "mod",
            Operation::Pow | Operation::PowConstant(_) => "pow",
            Operation::Abs => "abs",
        }
    }

    /// The result for the operands `x` and `y` (`y` is ignored by a unary
    /// operation), or `None` where the operation is undefined.
    pub(crate) fn apply(self, x: i64, y: i64) -> Option<i128> {
        let (a, b) = (i128::from(x), i128::from(y));
        match self {
            Operation::Times => Some(a * b),
            // In i64 (an i128 division is a library call): only
            // `i64::MIN / -1` overflows, to `-x`, with remainder 0.
            Operation::Div => (y != 0).then(|| x.checked_div(y).map_or(-a, i128::from)),
            Operation::Mod => (y != 0).then(|| x.checked_rem(y).map_or(0, i128::from)),
            Operation::Pow => power(x, y),
            Operation::Abs => Some(a.abs()),
            Operation::PowConstant(k) => power(x, k),
        }
    }
}

/// A magnitude beyond every value (`2^62`) that powers saturate at, so that
/// they never overflow `i128`.
const BEYOND: i128 = 1 << 64;

/// `base^exponent` with MiniZinc's semantics: `1 div base^-exponent` for a
/// negative exponent (undefined for base 0), saturated at `±BEYOND`.
pub(crate) fn power(base: i64, exponent: i64) -> Option<i128> {
    if exponent < 0 {
        return match base {
            0 => None,
            1 => Some(1),
            -1 => Some(if exponent % 2 == 0 { 1 } else { -1 }),
            _ => Some(0),
        };
    }
    Some(saturating_power(i128::from(base), exponent.unsigned_abs()))
}

/// `base^exponent` for `exponent >= 0`, saturated at `±BEYOND`.
pub(crate) fn saturating_power(base: i128, exponent: u64) -> i128 {
    let magnitude = base.saturating_abs();
    let mut result: i128 = if exponent == 0 { 1 } else { magnitude.min(BEYOND) };
    // 0 and 1 stay where they are: no need to loop `exponent` times.
    if magnitude > 1 {
        for _ in 1..exponent {
            match result.checked_mul(magnitude) {
                Some(product) if product < BEYOND => result = product,
                _ => {
                    result = BEYOND;
                    break;
                }
            }
        }
    }
    if base < 0 && exponent % 2 == 1 { -result } else { result }
}

/// `z = f(x, y)` or `z = f(x)`: one of MiniZinc's integer arithmetic builtins.
///
/// Domain consistent while the operands have at most 4096 pairs of values (a
/// unary operation: values), by enumerating them; beyond that, bounds
/// propagation by interval arithmetic in `i128` (see [`ArithmeticStrength`]).
/// `div` and `mod` truncate toward zero and require `y != 0`; `pow` with a
/// negative exponent is `1 div x^-y` and requires `x != 0`.
///
/// Build it with the [`Model`](crate::Model) methods (`times`, `div`, `modulo`,
/// `pow`, `pow_constant`, `abs`), or with the constructors here and
/// [`with_strength`](Arithmetic::with_strength) for bounds propagation only.
#[derive(Clone, Debug)]
pub struct Arithmetic {
    /// `[x, y, z]`, or `[x, z]` for a unary operation.
    scope: Vec<VarId>,
    /// The operands and the result (`y == x` for a unary operation).
    operands: (VarId, VarId, VarId),
    operation: Operation,
    strength: ArithmeticStrength,
}

impl Arithmetic {
    fn new(operation: Operation, scope: Vec<VarId>) -> Arithmetic {
        let operands = match scope[..] {
            [x, y, z] => (x, y, z),
            [x, z] => (x, x, z),
            _ => (scope[0], scope[0], scope[0]),
        };
        Arithmetic { scope, operands, operation, strength: ArithmeticStrength::default() }
    }

    /// `z = x * y`.
    pub fn times(x: VarId, y: VarId, z: VarId) -> Arithmetic {
        Arithmetic::new(Operation::Times, vec![x, y, z])
    }

    /// `z = x / y`, truncated toward zero, and `y != 0`.
    pub fn div(x: VarId, y: VarId, z: VarId) -> Arithmetic {
        Arithmetic::new(Operation::Div, vec![x, y, z])
    }

    /// `z = x % y` (the remainder of the truncated division: the sign of `x`),
    /// and `y != 0`.
    pub fn modulo(x: VarId, y: VarId, z: VarId) -> Arithmetic {
        Arithmetic::new(Operation::Mod, vec![x, y, z])
    }

    /// `z = x ^ y`: for `y < 0`, `1 div x^-y`, and `x != 0`.
    pub fn pow(x: VarId, y: VarId, z: VarId) -> Arithmetic {
        Arithmetic::new(Operation::Pow, vec![x, y, z])
    }

    /// `z = x ^ exponent` for a constant exponent (negative ones as in [`pow`](Arithmetic::pow)).
    pub fn pow_constant(x: VarId, exponent: i64, z: VarId) -> Arithmetic {
        Arithmetic::new(Operation::PowConstant(exponent), vec![x, z])
    }

    /// `z = |x|`.
    pub fn abs(x: VarId, z: VarId) -> Arithmetic {
        Arithmetic::new(Operation::Abs, vec![x, z])
    }

    /// The same constraint, propagated with the given strength.
    pub fn with_strength(mut self, strength: ArithmeticStrength) -> Arithmetic {
        self.strength = strength;
        self
    }
}

impl Constraint for Arithmetic {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        let (x, y, z) = match values {
            [x, y, z] => (*x, *y, *z),
            [x, z] => (*x, 0, *z),
            _ => return false,
        };
        self.operation.apply(x, y) == Some(i128::from(z))
    }

    fn kind(&self) -> &str {
        self.operation.kind()
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(ArithmeticPropagator::new(self)))
    }
}

/// Support enumeration on small domains, interval reasoning beyond.
struct ArithmeticPropagator<'c> {
    constraint: &'c Arithmetic,
    x: VarId,
    y: VarId,
    z: VarId,
    scratch: support::Scratch,
}

impl<'c> ArithmeticPropagator<'c> {
    fn new(constraint: &'c Arithmetic) -> Self {
        let (x, y, z) = constraint.operands;
        ArithmeticPropagator { constraint, x, y, z, scratch: support::Scratch::default() }
    }

    /// The size of the support enumeration on the current domains.
    fn enumeration(&self, ctx: &Context<'_>) -> u64 {
        let (x, y) = (ctx.size(self.x) as u64, ctx.size(self.y) as u64);
        if self.constraint.operation.is_unary() || self.x == self.y { x } else { x.saturating_mul(y) }
    }
}

impl Propagator for ArithmeticPropagator<'_> {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let operation = self.constraint.operation;
        let small = self.constraint.strength == ArithmeticStrength::Domain;
        if small && self.enumeration(ctx) <= SUPPORT_LIMIT {
            return support::propagate(ctx, operation, self.x, self.y, self.z, &mut self.scratch);
        }
        bounds::propagate(ctx, operation, self.x, self.y, self.z)?;
        // Interval reasoning may shrink the domains enough for the enumeration.
        if small && self.enumeration(ctx) <= SUPPORT_LIMIT {
            return support::propagate(ctx, operation, self.x, self.y, self.z, &mut self.scratch);
        }
        Ok(())
    }

    fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
        match self.constraint.operation {
            Operation::Abs => explain::abs(why, self.x, self.z),
            Operation::Times => explain::times(why, self.x, self.y, self.z),
            Operation::Div | Operation::Mod | Operation::Pow => {
                let terms = [Term::Var(self.x), Term::Var(self.y), Term::Var(self.z)];
                explain::by_relation(why, self.constraint.operation, terms)
                    || explain::by_supports(why, self.constraint.operation, terms)
            }
            Operation::PowConstant(k) => {
                let terms = [Term::Var(self.x), Term::Constant(k), Term::Var(self.z)];
                explain::by_relation(why, Operation::Pow, terms) || explain::by_supports(why, Operation::Pow, terms)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_follow_minizinc() {
        assert_eq!(Operation::Div.apply(-7, 2), Some(-3));
        assert_eq!(Operation::Div.apply(7, -2), Some(-3));
        assert_eq!(Operation::Div.apply(7, 0), None);
        assert_eq!(Operation::Mod.apply(-7, 2), Some(-1));
        assert_eq!(Operation::Mod.apply(7, -2), Some(1));
        assert_eq!(Operation::Mod.apply(7, 0), None);
        assert_eq!(Operation::Div.apply(i64::MIN, -1), Some(1i128 << 63));
        assert_eq!(Operation::Mod.apply(i64::MIN, -1), Some(0));
        assert_eq!(Operation::Div.apply(i64::MIN, 1), Some(i128::from(i64::MIN)));
        assert_eq!(Operation::Mod.apply(i64::MIN, 2), Some(0));
        assert_eq!(Operation::Mod.apply(i64::MAX, -2), Some(1));
        assert_eq!(Operation::Pow.apply(-2, 3), Some(-8));
        assert_eq!(Operation::Pow.apply(0, 0), Some(1));
        assert_eq!(Operation::Pow.apply(0, -1), None);
        assert_eq!(Operation::Pow.apply(-1, -3), Some(-1));
        assert_eq!(Operation::Pow.apply(2, -1), Some(0));
        assert_eq!(Operation::Pow.apply(2, 200), Some(BEYOND));
        assert_eq!(Operation::Pow.apply(-2, 201), Some(-BEYOND));
        assert_eq!(Operation::Pow.apply(1, i64::MAX), Some(1));
        assert_eq!(Operation::Pow.apply(-1, i64::MAX), Some(-1));
        assert_eq!(Operation::Pow.apply(0, 5), Some(0));
        assert_eq!(Operation::Abs.apply(-(1 << 62), 0), Some(1 << 62));
        let big = 1i64 << 62;
        assert_eq!(Operation::Times.apply(big, -big), Some(-(1i128 << 124)));
    }
}
