//! Explanations of the arithmetic relations under learning (see
//! [`Explanation`]), from the relation itself, whichever reasoning
//! (enumeration or intervals) removed the values: for `z = |x|`, `z` loses
//! `w` because `x` has neither `w` nor `-w` (a bound of `z` by the bounds of
//! `x`), and `x` loses `v` because `z` lacks `|v|` (a bound of `x` by its
//! own bound before and `z`'s missing magnitudes). For `z = x * y`,
//! `x div y`, `x mod y` and `x ^ y` (a variable or a constant exponent), the
//! fewest bounds of the three (and a moved bound's old one) under which no
//! tuple with the values left out fits, when the bounds suffice
//! ([`by_bounds`]): for `times` no product of the sign parts' corners; for the
//! others an exact enumeration of a box of at most 64 operand pairs, else
//! the propagation's own interval reasoning (`bounds.rs`) run on the box.
//! A hole of `div`, `mod` or `pow` that only the support enumeration saw
//! ([`by_supports`]): the other operands' bounds and, for each tuple within
//! them that a value left out would have needed, one of the values it
//! lacked (`times` keeps the generic answer there). The same variable twice
//! keeps the generic answer.

use super::bounds::{Interval, dividends_of, divisor_limit, quotients, remainder_dividends, remainders};
use super::{Operation, saturating_power};
use crate::ids::{Atom, VarId};
use crate::kernel::{Explained, Explanation};

/// `z = |x|` (`x` and `z` distinct): adds why it did what it did to `why`,
/// or `false` (nothing added) for the generic answer.
pub(super) fn abs(why: &mut Explanation<'_>, x: VarId, z: VarId) -> bool {
    if x == z {
        return false;
    }
    let mut atoms: Vec<Atom> = Vec::new();
    let explained = match why.explained() {
        Explained::Failure => false,
        Explained::Removed(var) if var == z => {
            let values: Vec<i64> = why.removed_values().collect();
            values.into_iter().filter(|&w| w >= 0).all(|w| x_lacks_magnitudes(why, x, w, w, &mut atoms))
        }
        // z ≥ b: x has no value in (-b, b).
        Explained::AtLeast(var, b) if var == z => b <= 0 || x_lacks_magnitudes(why, x, 0, b - 1, &mut atoms),
        // z ≤ b: x within -b..=b.
        Explained::AtMost(var, b) if var == z => {
            let holds = b >= 0 && why.min(x) >= -b && why.max(x) <= b;
            if holds {
                atoms.extend([Atom::AtLeast(x, -b), Atom::AtMost(x, b)]);
            }
            holds
        }
        Explained::Removed(_) => {
            let values: Vec<i64> = why.removed_values().collect();
            values.into_iter().all(|v| {
                let w = i128::from(v).abs();
                z_lacks(why, z, w, w, &mut atoms)
            })
        }
        // x ≥ b from x ≥ its old minimum: z lacks the magnitudes of old..b.
        Explained::AtLeast(_, b) => {
            let old = why.min(x);
            atoms.push(Atom::AtLeast(x, old));
            let (lo, hi) = magnitudes(i128::from(old), i128::from(b) - 1);
            z_lacks(why, z, lo, hi, &mut atoms)
        }
        Explained::AtMost(_, b) => {
            let old = why.max(x);
            atoms.push(Atom::AtMost(x, old));
            let (lo, hi) = magnitudes(i128::from(b) + 1, i128::from(old));
            z_lacks(why, z, lo, hi, &mut atoms)
        }
    };
    if explained {
        why.because_each(atoms);
    }
    explained
}

/// The smallest and largest `|v|` for `v` in `lo..=hi` (`lo <= hi`).
fn magnitudes(lo: i128, hi: i128) -> (i128, i128) {
    if lo <= 0 && hi >= 0 { (0, lo.abs().max(hi)) } else { (lo.abs().min(hi.abs()), lo.abs().max(hi.abs())) }
}

/// Adds why `x` had no value of magnitude `lo..=hi` (`0 <= lo <= hi`): its
/// bounds, or, for a bitset, each such value absent. `false` if it had one.
fn x_lacks_magnitudes(why: &Explanation<'_>, x: VarId, lo: i64, hi: i64, atoms: &mut Vec<Atom>) -> bool {
    let (min, max) = (why.min(x), why.max(x));
    if min > hi || max < -hi {
        // Beyond the whole band -hi..=hi on one side.
        atoms.push(if min > hi { Atom::AtLeast(x, hi + 1) } else { Atom::AtMost(x, -hi - 1) });
        return true;
    }
    if min > -lo && max < lo {
        // Strictly inside the gap -lo..lo.
        atoms.extend([Atom::AtLeast(x, -lo + 1), Atom::AtMost(x, lo - 1)]);
        return true;
    }
    if why.is_interval(x) {
        return false;
    }
    let band: Vec<i64> = why.initial_values(x).filter(|v| (lo..=hi).contains(&v.abs())).collect();
    if band.iter().any(|&v| why.contains(x, v)) {
        return false;
    }
    atoms.extend(band.into_iter().map(|v| Atom::NotEqual(x, v)));
    true
}

/// Adds why `z` had no value in `lo..=hi`: a bound, or, for a bitset, each
/// such value absent. `false` if it had one.
fn z_lacks(why: &Explanation<'_>, z: VarId, lo: i128, hi: i128, atoms: &mut Vec<Atom>) -> bool {
    let (min, max) = (i128::from(why.min(z)), i128::from(why.max(z)));
    if min > hi {
        atoms.push(Atom::AtLeast(z, min as i64));
        return true;
    }
    if max < lo {
        atoms.push(Atom::AtMost(z, max as i64));
        return true;
    }
    if why.is_interval(z) {
        return false;
    }
    let band: Vec<i64> = why.initial_values(z).filter(|&v| (lo..=hi).contains(&i128::from(v))).collect();
    if band.iter().any(|&v| why.contains(z, v)) {
        return false;
    }
    atoms.extend(band.into_iter().map(|v| Atom::NotEqual(z, v)));
    true
}

/// Every value is within `±2^62`: a bound left out of an answer is that.
const LIMIT: i128 = 1 << 62;

/// A box of bounds: `[x, y, z]`.
type Boxes = [Interval; 3];

/// An operand of a relation explained by bounds: a variable, or a constant
/// (`pow`'s fixed exponent), whose box is never widened nor named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Term {
    Var(VarId),
    Constant(i64),
}

/// `z = x * y`, by the bounds the interval reasoning used (see [`by_bounds`]).
pub(super) fn times(why: &mut Explanation<'_>, x: VarId, y: VarId, z: VarId) -> bool {
    by_bounds(why, [Term::Var(x), Term::Var(y), Term::Var(z)], no_product)
}

/// `z = operation(x, y)` for `div`, `mod` and `pow` (a constant exponent as
/// [`Term::Constant`]), by the bounds under which no tuple of the values left
/// out is possible (see [`by_bounds`] and [`no_tuple`]).
pub(super) fn by_relation(why: &mut Explanation<'_>, operation: Operation, terms: [Term; 3]) -> bool {
    by_bounds(why, terms, |boxes| no_tuple(operation, boxes))
}

/// A relation `z = f(x, y)` over distinct variables (and constants), by the
/// bounds its interval reasoning used: adds the fewest of the other
/// variables' bounds (and, for a moved bound, the explained variable's old
/// one) under which `impossible` (sound: no tuple within the boxes) holds
/// for the values left out, or `false` (nothing added) when the bounds do
/// not suffice (a hole that only the support enumeration saw).
fn by_bounds(why: &mut Explanation<'_>, terms: [Term; 3], impossible: impl Fn(&Boxes) -> bool) -> bool {
    let var_at = |k: usize| if let Term::Var(v) = terms[k] { Some(v) } else { None };
    if (0..3).any(|i| var_at(i).is_some() && (0..i).any(|j| var_at(j) == var_at(i))) {
        return false;
    }
    let mut boxes: Boxes = terms.map(|term| match term {
        Term::Var(var) => Interval { lo: i128::from(why.min(var)), hi: i128::from(why.max(var)) },
        Term::Constant(c) => Interval { lo: i128::from(c), hi: i128::from(c) },
    });
    let at = |var: VarId| (0..3).find(|&k| var_at(k) == Some(var));
    let single = |v: i64| Interval { lo: i128::from(v), hi: i128::from(v) };
    // The explained variable's boxes: each value removed, or the range a bound
    // left out (its far end the variable's old bound).
    let (explained, regions): (Option<usize>, Vec<Interval>) = match why.explained() {
        Explained::Failure => (None, Vec::new()),
        Explained::Removed(var) => (at(var), why.removed_values().map(single).collect()),
        Explained::AtLeast(var, b) => (at(var), vec![Interval { lo: i128::from(why.min(var)), hi: i128::from(b) - 1 }]),
        Explained::AtMost(var, b) => (at(var), vec![Interval { lo: i128::from(b) + 1, hi: i128::from(why.max(var)) }]),
    };
    let bound_request = matches!(why.explained(), Explained::AtLeast(..) | Explained::AtMost(..));
    let impossible = |boxes: &Boxes, regions: &[Interval]| match explained {
        None => impossible(boxes),
        Some(at) => regions.iter().all(|&region| {
            let mut boxes = *boxes;
            boxes[at] = region;
            impossible(&boxes)
        }),
    };
    if why.explained() != Explained::Failure && explained.is_none() {
        return false;
    }
    if !impossible(&boxes, &regions) {
        return false;
    }
    // Leave out each bound that the answer does not need (the explained
    // variable's own only for a moved bound: its old bound, the region's far end).
    let mut regions = regions;
    let mut own = bound_request;
    if own {
        let mut wider = regions.clone();
        match why.explained() {
            Explained::AtLeast(..) => wider[0].lo = -LIMIT,
            _ => wider[0].hi = LIMIT,
        }
        if impossible(&boxes, &wider) {
            regions = wider;
            own = false;
        }
    }
    let mut atoms = Vec::new();
    for k in (0..3).filter(|&k| Some(k) != explained) {
        let Some(var) = var_at(k) else { continue };
        for low in [true, false] {
            let mut wider = boxes;
            if low {
                wider[k].lo = -LIMIT;
            } else {
                wider[k].hi = LIMIT;
            }
            if impossible(&wider, &regions) {
                boxes = wider;
            } else if low {
                atoms.push(Atom::AtLeast(var, boxes[k].lo as i64));
            } else {
                atoms.push(Atom::AtMost(var, boxes[k].hi as i64));
            }
        }
    }
    if own {
        let var = var_at(explained.expect("a bound explained")).expect("a variable explained");
        atoms.push(match why.explained() {
            Explained::AtLeast(..) => Atom::AtLeast(var, why.min(var)),
            _ => Atom::AtMost(var, why.max(var)),
        });
    }
    why.because_each(atoms);
    true
}

/// The most tuples [`by_supports`] enumerates.
const SUPPORTS: i128 = 1 << 16;

/// `z = operation(x, y)` over distinct variables (and `pow`'s constant
/// exponent), for a hole that only the support enumeration saw: every
/// tuple within the other operands' bounds that would have given a value
/// left out a support lacked one of its values. The answer: those bounds
/// (and a moved bound's old one), and for each such tuple one value it
/// lacked (`x ≠ a`, `y ≠ b`, `z ≠ r`, or `z`'s bound for a result beyond
/// it): one already named, else `z`'s, which many tuples share. `false`
/// (nothing added) for the generic answer: a variable twice, more than
/// [`SUPPORTS`] tuples, or a tuple that lacked nothing.
pub(super) fn by_supports(why: &mut Explanation<'_>, operation: Operation, terms: [Term; 3]) -> bool {
    let var_at = |k: usize| if let Term::Var(v) = terms[k] { Some(v) } else { None };
    if (0..3).any(|i| var_at(i).is_some() && (0..i).any(|j| var_at(j) == var_at(i))) {
        return false;
    }
    let boxes: Boxes = terms.map(|term| match term {
        Term::Var(var) => Interval { lo: i128::from(why.min(var)), hi: i128::from(why.max(var)) },
        Term::Constant(c) => Interval { lo: i128::from(c), hi: i128::from(c) },
    });
    let at = |var: VarId| (0..3).find(|&k| var_at(k) == Some(var));
    let single = |v: i64| Interval { lo: i128::from(v), hi: i128::from(v) };
    let mut atoms = Vec::new();
    // The explained variable's values left out, as in `by_bounds`.
    let (explained, region): (Option<usize>, Vec<Interval>) = match why.explained() {
        Explained::Failure => (None, Vec::new()),
        Explained::Removed(var) => (at(var), why.removed_values().map(single).collect()),
        Explained::AtLeast(var, b) => {
            atoms.push(Atom::AtLeast(var, why.min(var)));
            (at(var), vec![Interval { lo: i128::from(why.min(var)), hi: i128::from(b) - 1 }])
        }
        Explained::AtMost(var, b) => {
            atoms.push(Atom::AtMost(var, why.max(var)));
            (at(var), vec![Interval { lo: i128::from(b) + 1, hi: i128::from(why.max(var)) }])
        }
    };
    if why.explained() != Explained::Failure && explained.is_none() {
        return false;
    }
    // The operands' values enumerated: the explained ones, else the box.
    let span = |k: usize| if explained == Some(k) { region.clone() } else { vec![boxes[k]] };
    let (xs, ys) = (span(0), span(1));
    let count = |parts: &[Interval]| parts.iter().map(|p| (p.hi - p.lo + 1).max(0)).sum::<i128>();
    if count(&xs).saturating_mul(count(&ys)) > SUPPORTS {
        return false;
    }
    // Whether each other variable had a value, read once.
    let had: [Option<Had>; 3] =
        std::array::from_fn(|k| var_at(k).filter(|_| explained != Some(k)).map(|var| Had::of(why, var)));
    let lacks = |k: usize, value: i128| had[k].as_ref().is_some_and(|had| !had.contains(value));
    let bz = boxes[2];
    // Each tuple that would have given a value left out a support, with
    // what it lacked: bit 0 `x`'s value, bit 1 `y`'s, bit 2 `z`'s (beyond
    // its bounds or a hole).
    let mut tuples: Vec<(i128, i128, i128, u8)> = Vec::new();
    for a in xs.iter().flat_map(|p| p.lo..=p.hi) {
        for b in ys.iter().flat_map(|p| p.lo..=p.hi) {
            let Some(r) = operation.apply(a as i64, b as i64) else { continue };
            if explained == Some(2) && !region.iter().any(|p| p.lo <= r && r <= p.hi) {
                continue;
            }
            let z_lacks = had[2].is_some() && (r < bz.lo || r > bz.hi || lacks(2, r));
            let lacked = u8::from(lacks(0, a)) | u8::from(lacks(1, b)) << 1 | u8::from(z_lacks) << 2;
            if lacked == 0 {
                return false;
            }
            tuples.push((a, b, r, lacked));
        }
    }
    // The values named: those a tuple lacked alone, then for each tuple
    // not yet answered its `z` value (else its `x` or `y` value).
    let mut named: [Vec<i128>; 3] = Default::default();
    let values = |(a, b, r, _): (i128, i128, i128, u8)| [a, b, r];
    for &tuple in tuples.iter().filter(|tuple| tuple.3.count_ones() == 1) {
        let k = tuple.3.trailing_zeros() as usize;
        named[k].push(values(tuple)[k]);
    }
    named.iter_mut().for_each(|named| {
        named.sort_unstable();
        named.dedup();
    });
    for &tuple in &tuples {
        let answered = (0..3).any(|k| tuple.3 & 1 << k != 0 && named[k].binary_search(&values(tuple)[k]).is_ok());
        if !answered {
            let k = [2, 0, 1].into_iter().find(|&k| tuple.3 & 1 << k != 0).expect("a value lacked");
            if let Err(at) = named[k].binary_search(&values(tuple)[k]) {
                named[k].insert(at, values(tuple)[k]);
            }
        }
    }
    // A constant operand lacks nothing: its list is empty.
    for (k, values) in named.iter().enumerate().filter(|(_, values)| !values.is_empty()) {
        let var = var_at(k).expect("only a variable lacks a value");
        for &v in values {
            atoms.push(match v {
                _ if k == 2 && v < bz.lo => Atom::AtLeast(var, bz.lo as i64),
                _ if k == 2 && v > bz.hi => Atom::AtMost(var, bz.hi as i64),
                _ => Atom::NotEqual(var, v as i64),
            });
        }
    }
    for k in (0..2).filter(|&k| Some(k) != explained) {
        if let Some(var) = var_at(k) {
            atoms.extend([Atom::AtLeast(var, boxes[k].lo as i64), Atom::AtMost(var, boxes[k].hi as i64)]);
        }
    }
    why.because_each(atoms);
    true
}

/// The values a variable had, read once from the domains as they were (an
/// interval had every value within its bounds).
struct Had {
    interval: Option<Interval>,
    values: Vec<i64>,
}

impl Had {
    fn of(why: &Explanation<'_>, var: VarId) -> Had {
        if why.is_interval(var) {
            let interval = Interval { lo: i128::from(why.min(var)), hi: i128::from(why.max(var)) };
            return Had { interval: Some(interval), values: Vec::new() };
        }
        Had { interval: None, values: why.values(var).collect() }
    }

    fn contains(&self, value: i128) -> bool {
        match self.interval {
            Some(bounds) => bounds.lo <= value && value <= bounds.hi,
            None => i64::try_from(value).is_ok_and(|v| self.values.binary_search(&v).is_ok()),
        }
    }
}

/// Whether a box is empty.
fn is_empty(boxes: &Boxes) -> bool {
    boxes.iter().any(|b| b.lo > b.hi)
}

/// Whether no integers `x`, `y`, `z` within the boxes have `x * y = z`: the
/// products of each sign part of `x`'s box with each of `y`'s (an integer
/// part bounded away from 0, or 0 itself) make an interval that misses `z`'s.
fn no_product(boxes: &Boxes) -> bool {
    let [bx, by, bz] = *boxes;
    if is_empty(boxes) {
        return true;
    }
    bx.sign_parts().all(|px| {
        by.sign_parts().all(|py| {
            let corners = px.corner_products(py);
            let (lo, hi) = (corners.iter().min().copied(), corners.iter().max().copied());
            lo.zip(hi).is_none_or(|(lo, hi)| hi < bz.lo || lo > bz.hi)
        })
    })
}

/// The most operand pairs [`no_tuple`] enumerates.
const ENUMERATION: i128 = 64;

/// Whether no integers within the boxes satisfy `z = operation(x, y)`: by
/// enumerating the operand pairs of a small box (exactly), else by interval
/// reasoning on each sign part of `y` (soundly: `false` when unsure).
fn no_tuple(operation: Operation, boxes: &Boxes) -> bool {
    if is_empty(boxes) {
        return true;
    }
    let [bx, by, bz] = *boxes;
    if (bx.hi - bx.lo + 1).saturating_mul(by.hi - by.lo + 1) <= ENUMERATION {
        // Within ±2^62: every bound is an i64.
        return !(bx.lo as i64..=bx.hi as i64).any(|a| {
            (by.lo as i64..=by.hi as i64).any(|b| operation.apply(a, b).is_some_and(|r| bz.lo <= r && r <= bz.hi))
        });
    }
    no_tuple_by_rules(operation, boxes)
}

/// Whether the interval rules show that no integers within the (non-empty)
/// boxes satisfy `z = operation(x, y)`, on each sign part of `y`.
fn no_tuple_by_rules(operation: Operation, boxes: &Boxes) -> bool {
    let [bx, by, bz] = *boxes;
    match operation {
        Operation::Div => by.nonzero_parts().all(|py| no_quotient(bx, py, bz)),
        Operation::Mod => by.nonzero_parts().all(|py| no_remainder(bx, py, bz)),
        Operation::Pow => by.sign_parts().all(|py| no_power(bx, py, bz)),
        _ => false,
    }
}

/// Intersects `a` with the hull `b` (`None`: empty), `None` if that is empty.
fn meet(a: Interval, b: Option<(i128, i128)>) -> Option<Interval> {
    let (lo, hi) = b?;
    let (lo, hi) = (a.lo.max(lo), a.hi.min(hi));
    (lo <= hi).then_some(Interval { lo, hi })
}

/// Rounds of narrowing a box before deciding it may hold a tuple.
const ROUNDS: usize = 4;

/// `x / y = z` has no solution in the boxes, `y` of one sign: the bounds
/// reasoning (`bounds::quotients`, `dividends_of`, `divisor_limit`) to a
/// fixpoint or a few rounds, whichever comes first, empties one of them.
fn no_quotient(mut bx: Interval, mut by: Interval, mut bz: Interval) -> bool {
    for _ in 0..ROUNDS {
        let before = (bx, by, bz);
        let Some(z) = meet(bz, quotients(bx, by)) else { return true };
        let Some(x) = meet(bx, dividends_of(z, by)) else { return true };
        let limit = divisor_limit(x, z).map_or((by.lo, by.hi), |limit| (-limit, limit));
        let Some(y) = meet(by, Some(limit)) else { return true };
        (bx, by, bz) = (x, y, z);
        if (bx, by, bz) == before {
            break;
        }
    }
    false
}

/// `x % y = z` has no solution in the boxes, `y` of one sign: the bounds
/// reasoning (`bounds::remainders`, `remainder_dividends`, `|y| > |z|`, and
/// `z = x` when `|x| < |y|`) to a fixpoint or a few rounds empties one of them.
fn no_remainder(mut bx: Interval, mut by: Interval, mut bz: Interval) -> bool {
    for _ in 0..ROUNDS {
        let before = (bx, by, bz);
        let Some(z) = meet(bz, Some(remainders(bx, by))) else { return true };
        let Some(x) = meet(bx, Some(remainder_dividends(bx, z))) else { return true };
        // A remainder's magnitude is below the divisor's.
        let gap = z.min_abs();
        let y = if by.lo > 0 { meet(by, Some((gap + 1, LIMIT))) } else { meet(by, Some((-LIMIT, -gap - 1))) };
        let Some(y) = y else { return true };
        // A dividend smaller than every divisor is its own remainder.
        let (x, z) = if x.max_abs() < y.min_abs() {
            let Some(both) = meet(x, Some((z.lo, z.hi))) else { return true };
            (both, both)
        } else {
            (x, z)
        };
        (bx, by, bz) = (x, y, z);
        if (bx, by, bz) == before {
            break;
        }
    }
    false
}

/// `x ^ y = z` has no solution in the boxes, `y` within one sign part (all
/// negative, 0, or all positive): the hull of the powers of each sign part
/// of `x` misses `z`'s box (for negative exponents, each of 1, -1 and 0).
fn no_power(bx: Interval, by: Interval, bz: Interval) -> bool {
    let hits = |lo: i128, hi: i128| lo <= bz.hi && bz.lo <= hi;
    // The smallest and largest exponents of a parity within `by`.
    let parity = |odd: bool| {
        let lo = if (by.lo % 2 != 0) == odd { by.lo } else { by.lo + 1 };
        let hi = if (by.hi % 2 != 0) == odd { by.hi } else { by.hi - 1 };
        (lo <= hi).then_some((lo, hi))
    };
    let (even, odd) = (parity(false), parity(true));
    if by.hi < 0 {
        // 1 div x^-y: 1 from 1 (or -1 to an even power), -1 from -1 to an
        // odd one, 0 from |x| >= 2; x = 0 is undefined.
        let has = |v: i128| bx.lo <= v && v <= bx.hi;
        let one = has(1) || (even.is_some() && has(-1));
        let minus_one = odd.is_some() && has(-1);
        let zero = bx.lo <= -2 || bx.hi >= 2;
        return !((one && hits(1, 1)) || (minus_one && hits(-1, -1)) || (zero && hits(0, 0)));
    }
    if by.lo == 0 {
        // x^0 = 1, 0^0 included.
        return !hits(1, 1);
    }
    let power = |base: i128, exponent: i128| saturating_power(base, exponent as u64);
    bx.sign_parts().all(|px| {
        if px.lo == 0 {
            return !hits(0, 0);
        }
        if px.lo > 0 {
            // Increasing in the base and (for a base >= 1) in the exponent.
            return !hits(power(px.lo, by.lo), power(px.hi, by.hi));
        }
        // A negative base: even exponents from |hi|^min to |lo|^max, odd ones
        // their negations.
        let even_hits = even.is_some_and(|(lo, hi)| hits(power(-px.hi, lo), power(-px.lo, hi)));
        let odd_hits = odd.is_some_and(|(lo, hi)| hits(-power(-px.lo, hi), -power(-px.hi, lo)));
        !even_hits && !odd_hits
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The interval rules never call a box empty that holds a tuple, and
    /// the enumeration is exact: every box within `-3..=3` (with a wider `z`
    /// for `pow`), against brute force.
    #[test]
    fn the_rules_are_sound_on_small_boxes() {
        let ranges = |lo: i128, hi: i128| {
            (lo..=hi).flat_map(move |a| (a..=hi).map(move |b| Interval { lo: a, hi: b })).collect::<Vec<_>>()
        };
        for operation in [Operation::Div, Operation::Mod, Operation::Pow] {
            let zs = if operation == Operation::Pow { ranges(-9, 9) } else { ranges(-3, 3) };
            let mut empty_by_rules = 0;
            for &bx in &ranges(-3, 3) {
                for &by in &ranges(-3, 3) {
                    for &bz in &zs {
                        let boxes = [bx, by, bz];
                        let exists = (bx.lo..=bx.hi).any(|a| {
                            (by.lo..=by.hi)
                                .any(|b| operation.apply(a as i64, b as i64).is_some_and(|r| bz.lo <= r && r <= bz.hi))
                        });
                        assert_eq!(no_tuple(operation, &boxes), !exists, "{operation:?} over {boxes:?}");
                        if no_tuple_by_rules(operation, &boxes) {
                            assert!(!exists, "{operation:?}'s rules over {boxes:?}");
                            empty_by_rules += 1;
                        }
                    }
                }
            }
            assert!(empty_by_rules > 1000, "{operation:?}: the rules showed little: {empty_by_rules}");
        }
    }
}
