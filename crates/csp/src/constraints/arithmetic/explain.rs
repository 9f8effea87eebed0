//! Explanations of the arithmetic relations under learning (see
//! [`Explanation`]), from the relation itself, whichever reasoning
//! (enumeration or intervals) removed the values: for `z = |x|`, `z` loses
//! `w` because `x` has neither `w` nor `-w` (a bound of `z` by the bounds of
//! `x`), and `x` loses `v` because `z` lacks `|v|` (a bound of `x` by its
//! own bound before and `z`'s missing magnitudes). For `z = x * y`, the
//! fewest bounds of the three (and a moved bound's old one) under which no
//! product of the values left out fits, when the bounds suffice. Div, mod
//! and pow keep the generic answer.

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

/// A box of bounds: `[x, y, z]`, each `(lo, hi)`.
type Boxes = [(i128, i128); 3];

/// `z = x * y` (`x`, `y` and `z` distinct), by the bounds the interval
/// reasoning used: adds the fewest of the other variables' bounds (and,
/// for a moved bound, the explained variable's old one) under which no
/// product of the values left out is possible, or `false` (nothing added)
/// for the generic answer (a hole that only the support enumeration saw).
pub(super) fn times(why: &mut Explanation<'_>, x: VarId, y: VarId, z: VarId) -> bool {
    if x == y || x == z || y == z {
        return false;
    }
    let vars = [x, y, z];
    let bounds = |var: VarId| (i128::from(why.min(var)), i128::from(why.max(var)));
    let mut boxes: Boxes = [bounds(x), bounds(y), bounds(z)];
    // The explained variable's boxes: each value removed, or the range a bound
    // left out (its far end the variable's old bound).
    let (explained, regions): (Option<usize>, Vec<(i128, i128)>) = match why.explained() {
        Explained::Failure => (None, Vec::new()),
        Explained::Removed(var) => {
            let at = vars.iter().position(|&v| v == var);
            (at, why.removed_values().map(|v| (i128::from(v), i128::from(v))).collect())
        }
        Explained::AtLeast(var, b) => {
            let at = vars.iter().position(|&v| v == var);
            (at, vec![(i128::from(why.min(var)), i128::from(b) - 1)])
        }
        Explained::AtMost(var, b) => {
            let at = vars.iter().position(|&v| v == var);
            (at, vec![(i128::from(b) + 1, i128::from(why.max(var)))])
        }
    };
    let bound_request = matches!(why.explained(), Explained::AtLeast(..) | Explained::AtMost(..));
    let impossible = |boxes: &Boxes, regions: &[(i128, i128)]| match explained {
        None => no_product(boxes),
        Some(at) => regions.iter().all(|&region| {
            let mut boxes = *boxes;
            boxes[at] = region;
            no_product(&boxes)
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
            Explained::AtLeast(..) => wider[0].0 = -LIMIT,
            _ => wider[0].1 = LIMIT,
        }
        if impossible(&boxes, &wider) {
            regions = wider;
            own = false;
        }
    }
    let mut atoms = Vec::new();
    for k in (0..3).filter(|&k| Some(k) != explained) {
        for low in [true, false] {
            let mut wider = boxes;
            if low {
                wider[k].0 = -LIMIT;
            } else {
                wider[k].1 = LIMIT;
            }
            if impossible(&wider, &regions) {
                boxes = wider;
            } else if low {
                atoms.push(Atom::AtLeast(vars[k], boxes[k].0 as i64));
            } else {
                atoms.push(Atom::AtMost(vars[k], boxes[k].1 as i64));
            }
        }
    }
    if own {
        let var = vars[explained.expect("a bound explained")];
        atoms.push(match why.explained() {
            Explained::AtLeast(..) => Atom::AtLeast(var, why.min(var)),
            _ => Atom::AtMost(var, why.max(var)),
        });
    }
    why.because_each(atoms);
    true
}

/// Whether no integers `x`, `y`, `z` within the boxes have `x * y = z`: the
/// products of each sign part of `x`'s box with each of `y`'s (an integer
/// part bounded away from 0, or 0 itself) make an interval that misses `z`'s.
fn no_product(boxes: &Boxes) -> bool {
    let [bx, by, (z_lo, z_hi)] = *boxes;
    if bx.0 > bx.1 || by.0 > by.1 || z_lo > z_hi {
        return true;
    }
    sign_parts(bx).all(|(a, b)| {
        sign_parts(by).all(|(c, d)| {
            let corners = [a * c, a * d, b * c, b * d];
            let (lo, hi) = (corners.iter().min().copied(), corners.iter().max().copied());
            lo.zip(hi).is_none_or(|(lo, hi)| hi < z_lo || lo > z_hi)
        })
    })
}

/// The negative part, zero and the positive part of `lo..=hi`, each if not empty.
fn sign_parts((lo, hi): (i128, i128)) -> impl Iterator<Item = (i128, i128)> {
    let negative = (lo <= -1).then(|| (lo, hi.min(-1)));
    let zero = (lo <= 0 && 0 <= hi).then_some((0, 0));
    let positive = (hi >= 1).then(|| (lo.max(1), hi));
    negative.into_iter().chain(zero).chain(positive)
}
