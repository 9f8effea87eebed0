//! Bounds propagation for arithmetic by interval reasoning in `i128`: each
//! variable's bounds are narrowed to the hull of what the other variables'
//! bounds allow. Divisions by an interval go through its negative and positive
//! parts, without 0 (an integer divisor is never between -1 and 1), and round
//! inward. Sound, and cheap enough for any domain size; see the module docs of
//! `arithmetic` for what each operation achieves.

use super::{Operation, saturating_power};
use crate::ids::VarId;
use crate::kernel::Context;
use crate::kernel::{Conflict, PropagationResult};

/// The bounds of a variable, widened for exact arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Interval {
    pub(super) lo: i128,
    pub(super) hi: i128,
}

impl Interval {
    fn of(ctx: &Context<'_>, var: VarId) -> Interval {
        Interval { lo: i128::from(ctx.min(var)), hi: i128::from(ctx.max(var)) }
    }

    pub(super) fn contains_zero(self) -> bool {
        self.lo <= 0 && 0 <= self.hi
    }

    /// The largest magnitude.
    pub(super) fn max_abs(self) -> i128 {
        self.lo.abs().max(self.hi.abs())
    }

    /// The smallest magnitude.
    pub(super) fn min_abs(self) -> i128 {
        if self.contains_zero() { 0 } else { self.lo.abs().min(self.hi.abs()) }
    }

    /// The negative part and the positive part, each if not empty (0 is in neither).
    pub(super) fn nonzero_parts(self) -> impl Iterator<Item = Interval> {
        let negative = (self.lo <= -1).then(|| Interval { lo: self.lo, hi: self.hi.min(-1) });
        let positive = (self.hi >= 1).then(|| Interval { lo: self.lo.max(1), hi: self.hi });
        negative.into_iter().chain(positive)
    }

    /// The negative part, zero and the positive part, each if not empty.
    pub(super) fn sign_parts(self) -> impl Iterator<Item = Interval> {
        let zero = self.contains_zero().then_some(Interval { lo: 0, hi: 0 });
        let mut nonzero = self.nonzero_parts().peekable();
        let negative = nonzero.next_if(|part| part.hi < 0);
        negative.into_iter().chain(zero).chain(nonzero)
    }

    /// The four products of an end of `self` and an end of `other`.
    pub(super) fn corner_products(self, other: Interval) -> [i128; 4] {
        [self.lo * other.lo, self.lo * other.hi, self.hi * other.lo, self.hi * other.hi]
    }
}

/// The smallest interval holding both (`None` stands for the empty interval).
fn hull(a: Option<(i128, i128)>, lo: i128, hi: i128) -> Option<(i128, i128)> {
    if lo > hi {
        return a;
    }
    Some(match a {
        Some((a_lo, a_hi)) => (a_lo.min(lo), a_hi.max(hi)),
        None => (lo, hi),
    })
}

/// `floor(a / b)` for `b != 0`.
fn floor_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && ((a < 0) != (b < 0)) { q - 1 } else { q }
}

/// `ceil(a / b)` for `b != 0`.
fn ceil_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && ((a < 0) == (b < 0)) { q + 1 } else { q }
}

/// Narrows `var` to `lo..=hi` (a conflict when that is empty).
fn narrow(ctx: &mut Context<'_>, var: VarId, lo: i128, hi: i128) -> PropagationResult {
    if lo > hi {
        return Err(Conflict);
    }
    // A bound beyond every value changes nothing: clamping to i64 is exact.
    let clamp = |b: i128| b.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
    ctx.set_min(var, clamp(lo))?;
    ctx.set_max(var, clamp(hi))?;
    Ok(())
}

/// Narrows `var` to `range`, `None` being the empty set.
fn narrow_to(ctx: &mut Context<'_>, var: VarId, range: Option<(i128, i128)>) -> PropagationResult {
    match range {
        Some((lo, hi)) => narrow(ctx, var, lo, hi),
        None => Err(Conflict),
    }
}

/// Removes the values strictly between `-magnitude` and `magnitude`, as far as
/// the bounds can tell: when every value of one sign is in that gap, the
/// variable has the other sign.
fn exclude_gap(ctx: &mut Context<'_>, var: VarId, magnitude: i128) -> PropagationResult {
    let bounds = Interval::of(ctx, var);
    if bounds.lo > -magnitude {
        narrow(ctx, var, magnitude, bounds.hi)?;
    } else if bounds.hi < magnitude {
        narrow(ctx, var, bounds.lo, -magnitude)?;
    }
    Ok(())
}

/// One round of interval reasoning for `z = operation(x, y)`, then, once the
/// operands are fixed, `z` fixed to their result.
pub(super) fn propagate(
    ctx: &mut Context<'_>,
    operation: Operation,
    x: VarId,
    y: VarId,
    z: VarId,
) -> PropagationResult {
    match operation {
        Operation::Times => times(ctx, x, y, z)?,
        Operation::Div => div(ctx, x, y, z)?,
        Operation::Mod => modulo(ctx, x, y, z)?,
        Operation::Pow => match ctx.fixed_value(y) {
            Some(exponent) => pow_constant(ctx, x, exponent, z)?,
            None => pow_exponent(ctx, x, y, z)?,
        },
        Operation::PowConstant(exponent) => pow_constant(ctx, x, exponent, z)?,
        Operation::Abs => abs(ctx, x, z)?,
    }
    if let (Some(a), Some(b)) = (ctx.fixed_value(x), ctx.fixed_value(y)) {
        let result = operation.apply(a, b).and_then(|r| i64::try_from(r).ok()).ok_or(Conflict)?;
        ctx.fix(z, result)?;
    }
    Ok(())
}

/// The dividends `x` with `x / divisor = quotient` (truncated), for `divisor != 0`.
fn dividends(quotient: i128, divisor: i128) -> (i128, i128) {
    // x / -d = -(x / d): a negative divisor is a positive one with the quotient negated.
    let (q, d) = if divisor < 0 { (-quotient, -divisor) } else { (quotient, divisor) };
    match q {
        0 => (1 - d, d - 1),
        1.. => (q * d, q * d + d - 1),
        _ => (q * d - d + 1, q * d),
    }
}

/// The integers `q` such that `q * d = n` for some real `n` in `numerator`
/// and integer `d != 0` in `divisor`, as an interval; `None` for "any".
fn quotient(numerator: Interval, divisor: Interval) -> Option<Option<(i128, i128)>> {
    if numerator.contains_zero() && divisor.contains_zero() {
        return None; // d = 0 and n = 0 allow every q.
    }
    let mut range = None;
    for part in divisor.nonzero_parts() {
        let corners =
            [(numerator.lo, part.lo), (numerator.lo, part.hi), (numerator.hi, part.lo), (numerator.hi, part.hi)];
        let lo = corners.iter().map(|&(a, b)| ceil_div(a, b)).min().expect("four corners");
        let hi = corners.iter().map(|&(a, b)| floor_div(a, b)).max().expect("four corners");
        range = hull(range, lo, hi);
    }
    Some(range)
}

/// `z = x * y`: `z` within the corner products, `x` and `y` within the
/// quotients of `z` by the other.
fn times(ctx: &mut Context<'_>, x: VarId, y: VarId, z: VarId) -> PropagationResult {
    if x == y {
        // A square: with the two factors apart, each quotient step narrows the
        // other factor by a little only (`x * x = 2^62` took millions of
        // propagations), while the root bounds it at once.
        return pow_constant(ctx, x, 2, z);
    }
    let products = Interval::of(ctx, x).corner_products(Interval::of(ctx, y));
    let lo = *products.iter().min().expect("four corners");
    let hi = *products.iter().max().expect("four corners");
    narrow(ctx, z, lo, hi)?;
    if let Some(range) = quotient(Interval::of(ctx, z), Interval::of(ctx, y)) {
        narrow_to(ctx, x, range)?;
    }
    if let Some(range) = quotient(Interval::of(ctx, z), Interval::of(ctx, x)) {
        narrow_to(ctx, y, range)?;
    }
    Ok(())
}

/// `z = x / y` (truncated), `y != 0`.
fn div(ctx: &mut Context<'_>, x: VarId, y: VarId, z: VarId) -> PropagationResult {
    ctx.remove(y, 0)?;
    narrow_to(ctx, z, quotients(Interval::of(ctx, x), Interval::of(ctx, y)))?;
    narrow_to(ctx, x, dividends_of(Interval::of(ctx, z), Interval::of(ctx, y)))?;
    if let Some(limit) = divisor_limit(Interval::of(ctx, x), Interval::of(ctx, z)) {
        narrow(ctx, y, -limit, limit)?;
    }
    Ok(())
}

/// The hull of `x / y` (truncated) for `x` in `bx` and `y != 0` in `by`
/// (`None`: no such pair). Truncation is monotone, so the extremes over the
/// box (`y` keeping one sign) are at its corners.
pub(super) fn quotients(bx: Interval, by: Interval) -> Option<(i128, i128)> {
    let mut range = None;
    for part in by.nonzero_parts() {
        let corners = [(bx.lo, part.lo), (bx.lo, part.hi), (bx.hi, part.lo), (bx.hi, part.hi)];
        let quotients = corners.map(|(a, b)| a / b);
        range = hull(range, *quotients.iter().min().expect("four"), *quotients.iter().max().expect("four"));
    }
    range
}

/// The hull of the dividends `x` with `x / y` (truncated) in `bz` for some
/// `y != 0` in `by` (`None`: none). The dividends of a quotient by a divisor
/// form an interval whose ends are monotone in each while it keeps its sign:
/// the hull over the box is at its corners, part by part.
pub(super) fn dividends_of(bz: Interval, by: Interval) -> Option<(i128, i128)> {
    let mut range = None;
    for part in by.nonzero_parts() {
        for quotients in bz.sign_parts() {
            for (q, d) in
                [(quotients.lo, part.lo), (quotients.lo, part.hi), (quotients.hi, part.lo), (quotients.hi, part.hi)]
            {
                let (lo, hi) = dividends(q, d);
                range = hull(range, lo, hi);
            }
        }
    }
    range
}

/// The largest `|y|` with `x / y` in `bz` for `x` in `bx`, when `bz` lacks 0:
/// `|z| >= 1` means `|x| >= |y| * |z|`.
pub(super) fn divisor_limit(bx: Interval, bz: Interval) -> Option<i128> {
    (!bz.contains_zero()).then(|| bx.max_abs() / bz.min_abs())
}

/// `z = x % y` (the sign of `x`), `y != 0`.
fn modulo(ctx: &mut Context<'_>, x: VarId, y: VarId, z: VarId) -> PropagationResult {
    ctx.remove(y, 0)?;
    let (bx, by) = (Interval::of(ctx, x), Interval::of(ctx, y));
    let (lo, hi) = remainders(bx, by);
    narrow(ctx, z, lo, hi)?;
    let bz = Interval::of(ctx, z);
    let (lo, hi) = remainder_dividends(bx, bz);
    narrow(ctx, x, lo, hi)?;
    if !bz.contains_zero() {
        exclude_gap(ctx, y, bz.min_abs() + 1)?;
    }
    Ok(())
}

/// The hull of `x % y` for `x` in `bx` and `y` in `by`: `|z| < |y|`,
/// `|z| <= |x|`, and `z` has `x`'s sign.
pub(super) fn remainders(bx: Interval, by: Interval) -> (i128, i128) {
    let below = by.max_abs() - 1;
    ((-below).max(bx.lo.min(0)), below.min(bx.hi.max(0)))
}

/// `bx` narrowed to the dividends of a remainder in `bz`: a positive
/// remainder needs `x` at least it, a negative one `x` at most it.
pub(super) fn remainder_dividends(bx: Interval, bz: Interval) -> (i128, i128) {
    if bz.lo > 0 {
        (bx.lo.max(bz.lo), bx.hi)
    } else if bz.hi < 0 {
        (bx.lo, bx.hi.min(bz.hi))
    } else {
        (bx.lo, bx.hi)
    }
}

/// `z = |x|`.
fn abs(ctx: &mut Context<'_>, x: VarId, z: VarId) -> PropagationResult {
    let bx = Interval::of(ctx, x);
    narrow(ctx, z, bx.min_abs(), bx.max_abs())?;
    let bz = Interval::of(ctx, z);
    narrow(ctx, x, -bz.hi, bz.hi)?;
    if bz.lo > 0 {
        exclude_gap(ctx, x, bz.lo)?;
    }
    Ok(())
}

/// `z = x ^ exponent`.
fn pow_constant(ctx: &mut Context<'_>, x: VarId, exponent: i64, z: VarId) -> PropagationResult {
    let bx = Interval::of(ctx, x);
    match exponent {
        ..0 => negative_power(ctx, x, exponent, z),
        0 => narrow(ctx, z, 1, 1),
        1 => {
            narrow(ctx, z, bx.lo, bx.hi)?;
            let bz = Interval::of(ctx, z);
            narrow(ctx, x, bz.lo, bz.hi)
        }
        _ if exponent % 2 == 0 => {
            let k = exponent.unsigned_abs();
            narrow(ctx, z, saturating_power(bx.min_abs(), k), saturating_power(bx.max_abs(), k))?;
            let bz = Interval::of(ctx, z);
            let root = floor_root(bz.hi, k);
            narrow(ctx, x, -root, root)?;
            if bz.lo > 0 {
                exclude_gap(ctx, x, ceil_root(bz.lo, k))?;
            }
            Ok(())
        }
        _ => {
            // An odd power is increasing.
            let k = exponent.unsigned_abs();
            narrow(ctx, z, saturating_power(bx.lo, k), saturating_power(bx.hi, k))?;
            let bz = Interval::of(ctx, z);
            let lo = if bz.lo >= 0 { ceil_root(bz.lo, k) } else { -floor_root(-bz.lo, k) };
            let hi = if bz.hi >= 0 { floor_root(bz.hi, k) } else { -ceil_root(-bz.hi, k) };
            narrow(ctx, x, lo, hi)
        }
    }
}

/// `z = x ^ y` with `y` not fixed: for a base of magnitude at least 2, a
/// non-negative exponent `y` gives `|z| >= 2^y`, so `y <= log2(max |z|)`, and a
/// negative one gives 0, so `y >= 0` when `z` cannot be 0. Without it an
/// exponent over a wide range was only ever decided by the search
/// (`int_pow(2, y, 2^62)`: hundreds of thousands of nodes without an answer).
fn pow_exponent(ctx: &mut Context<'_>, x: VarId, y: VarId, z: VarId) -> PropagationResult {
    if (-1..=1).any(|small| ctx.contains(x, small)) {
        return Ok(());
    }
    let bz = Interval::of(ctx, z);
    let largest = match bz.max_abs() {
        0 => -1,
        magnitude => i128::from(127 - magnitude.leading_zeros()),
    };
    let by = Interval::of(ctx, y);
    let lowest = if bz.contains_zero() { by.lo } else { 0 };
    narrow(ctx, y, lowest, largest)
}

/// `z = 1 div x^k` for `k < 0`: `z` is 1, -1 or 0 (for `|x| >= 2`), and `x != 0`.
/// Few enough cases to be domain consistent without enumerating `x`.
fn negative_power(ctx: &mut Context<'_>, x: VarId, exponent: i64, z: VarId) -> PropagationResult {
    ctx.remove(x, 0)?;
    let even = exponent % 2 == 0;
    let one = ctx.contains(x, 1) || (even && ctx.contains(x, -1));
    let minus_one = !even && ctx.contains(x, -1);
    let zero = ctx.min(x) <= -2 || ctx.max(x) >= 2;
    narrow(ctx, z, -1, 1)?;
    for (value, supported) in [(1, one), (-1, minus_one), (0, zero)] {
        if !supported {
            ctx.remove(z, value)?;
        }
    }
    if !ctx.contains(z, 0) {
        narrow(ctx, x, -1, 1)?;
    }
    if !ctx.contains(z, 1) {
        ctx.remove(x, 1)?;
        if even {
            ctx.remove(x, -1)?;
        }
    }
    if !even && !ctx.contains(z, -1) {
        ctx.remove(x, -1)?;
    }
    Ok(())
}

/// The largest `r >= 0` with `r^k <= value`, for `value >= 0` and `k >= 1`.
fn floor_root(value: i128, k: u64) -> i128 {
    // r <= value, and r^2 <= value keeps r below 2^63 for the values in range.
    let (mut lo, mut hi) = (0i128, value.min(1 << 63));
    while lo < hi {
        let mid = lo + (hi - lo + 1) / 2;
        if saturating_power(mid, k) <= value { lo = mid } else { hi = mid - 1 }
    }
    lo
}

/// The smallest `r >= 0` with `r^k >= value`, for `value >= 0` and `k >= 1`.
fn ceil_root(value: i128, k: u64) -> i128 {
    let root = floor_root(value, k);
    if saturating_power(root, k) == value { root } else { root + 1 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divisions_round_the_right_way() {
        for (a, b, floor, ceil) in [(7, 2, 3, 4), (-7, 2, -4, -3), (7, -2, -4, -3), (-7, -2, 3, 4), (6, 3, 2, 2)] {
            assert_eq!((floor_div(a, b), ceil_div(a, b)), (floor, ceil), "{a} / {b}");
        }
    }

    #[test]
    fn roots_are_exact_at_the_ends_of_the_range() {
        let top = 1i128 << 62;
        assert_eq!(floor_root(top, 2), 1 << 31);
        assert_eq!(ceil_root(top - 1, 2), 1 << 31);
        assert_eq!(floor_root(top - 1, 2), (1 << 31) - 1);
        assert_eq!(floor_root(26, 3), 2);
        assert_eq!(ceil_root(26, 3), 3);
        assert_eq!(floor_root(0, 5), 0);
        assert_eq!(floor_root(1, 64), 1);
        assert_eq!(floor_root(top, 62), 2);
        assert_eq!(floor_root(top, 63), 1);
    }

    #[test]
    fn dividends_are_exact() {
        for quotient in -4i128..=4 {
            for divisor in (-5i128..=5).filter(|&d| d != 0) {
                let all: Vec<i128> = (-40..=40).filter(|x| x / divisor == quotient).collect();
                let (lo, hi) = dividends(quotient, divisor);
                assert_eq!((all[0], all[all.len() - 1]), (lo, hi), "{quotient} = x / {divisor}");
                assert_eq!(all.len() as i128, hi - lo + 1);
            }
        }
    }

    #[test]
    fn quotients_leave_out_a_zero_divisor() {
        let interval = |lo, hi| Interval { lo, hi };
        // n in 5..=5, d in -1..=2 (d = 0 impossible): q in {-5} or {5, 2.5}: hull -5..=5.
        assert_eq!(quotient(interval(5, 5), interval(-1, 2)), Some(Some((-5, 5))));
        // d = 0 and n = 0 allow anything.
        assert_eq!(quotient(interval(-1, 1), interval(0, 3)), None);
        // n in 5..=5, d = 2: no integer.
        assert_eq!(quotient(interval(5, 5), interval(2, 2)), Some(None));
        assert_eq!(quotient(interval(5, 5), interval(0, 0)), Some(None));
    }
}
