//! Explanations of the arithmetic relations under learning (see
//! [`Explanation`]), from the relation itself, whichever reasoning
//! (enumeration or intervals) removed the values: for `z = |x|`, `z` loses
//! `w` because `x` has neither `w` nor `-w` (a bound of `z` by the bounds of
//! `x`), and `x` loses `v` because `z` lacks `|v|` (a bound of `x` by its
//! own bound before and `z`'s missing magnitudes). The others keep the
//! generic answer.

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
        atoms.sort_unstable();
        atoms.dedup();
        atoms.into_iter().for_each(|atom| why.because(atom));
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
