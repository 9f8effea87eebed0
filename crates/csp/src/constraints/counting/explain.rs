//! Explanations of the counting constraints under learning (see
//! [`Explanation`]), from the among reasoning on the domains as they were.
//!
//! Of the variables counted, the *musts* had only counted values and the
//! *cannots* had none. The count is at least `k` when `k` musts are there,
//! at most `k` when `n - k` cannots are; so a count variable loses `k` by
//! `k + 1` musts or `n - k + 1` cannots. A variable `x` loses a value when
//! the count it would make (counted or not, with the others' musts and
//! cannots) is allowed by no value of the tally: the tally is named by the
//! bound or the holes that leave out that range, and only as many of the
//! others' musts or cannots as the range's ends need. A must is named by
//! its value (`x = v`) or the absence of its uncounted values, a cannot by
//! the absence of the counted ones (an interval by its bounds).
//!
//! `count` with a variable `y` gives that answer for every value `y` had
//! (and names `y`'s absent values); `global_cardinality` the answer of one
//! cover value, or of several for the values removed one by one, or of the
//! sum of the counts.

use super::{Counted, Tally};
use crate::ids::{Atom, VarId};
use crate::kernel::{Explained, Explanation};

/// The most values of a range explained one by one.
const RANGE_LIMIT: i64 = 4096;

/// The values a request removed from a variable: some values of a bitset,
/// or a range of an interval's.
pub(super) enum Region {
    Values(Vec<i64>),
    Range(i64, i64),
}

impl Region {
    /// Whether `v` was removed.
    pub(super) fn contains(&self, v: i64) -> bool {
        match *self {
            Region::Values(ref values) => values.contains(&v),
            Region::Range(lo, hi) => (lo..=hi).contains(&v),
        }
    }

    /// Whether a value other than `v` was removed (of `within`, sorted, when given).
    pub(super) fn has_other(&self, v: i64, within: Option<&[i64]>) -> bool {
        let listed = |w: i64| within.is_none_or(|set| set.binary_search(&w).is_ok());
        match *self {
            Region::Values(ref values) => values.iter().any(|&w| w != v && listed(w)),
            Region::Range(lo, hi) => match within {
                None => lo < hi || (lo == hi && lo != v),
                Some(set) => {
                    let (a, b) = (set.partition_point(|&s| s < lo), set.partition_point(|&s| s <= hi));
                    b > a + usize::from((lo..=hi).contains(&v) && set[a..b].binary_search(&v).is_ok())
                }
            },
        }
    }

    /// Whether a value of `set` (sorted) was removed.
    pub(super) fn meets(&self, set: &[i64]) -> bool {
        match *self {
            Region::Values(ref values) => values.iter().any(|w| set.binary_search(w).is_ok()),
            Region::Range(lo, hi) => set.get(set.partition_point(|&s| s < lo)).is_some_and(|&s| s <= hi),
        }
    }

    /// Whether every value removed is in `set` (sorted).
    fn within(&self, set: &[i64]) -> bool {
        match *self {
            Region::Values(ref values) => values.iter().all(|w| set.binary_search(w).is_ok()),
            Region::Range(lo, hi) => run_around(set, lo, hi).is_some(),
        }
    }

    /// The values removed, unless too many.
    pub(super) fn values(&self) -> Option<Vec<i64>> {
        match *self {
            Region::Values(ref values) => Some(values.clone()),
            Region::Range(lo, hi) if i128::from(hi) - i128::from(lo) < i128::from(RANGE_LIMIT) => {
                Some((lo..=hi).collect())
            }
            Region::Range(..) => None,
        }
    }
}

/// Why a count variable lost what the request says it lost: a moved bound
/// `b` by `at_least(b)` or `at_most(b)` (why the count was so), or else (a
/// narrowing that emptied it) by `excludes` for each value it left out and
/// the variable's old bound; removed values each by `excludes`. `false`,
/// adding nothing, if that does not explain it.
pub(super) fn explain_count_var(
    why: &Explanation<'_>,
    atoms: &mut Vec<Atom>,
    at_least: impl FnOnce(i64, &mut Vec<Atom>) -> bool,
    at_most: impl FnOnce(i64, &mut Vec<Atom>) -> bool,
    mut excludes: impl FnMut(i64, &mut Vec<Atom>) -> bool,
) -> bool {
    let by_bound = match why.explained() {
        Explained::AtLeast(_, b) => at_least(b, atoms),
        Explained::AtMost(_, b) => at_most(b, atoms),
        Explained::Removed(_) => return why.removed_values().all(|k| excludes(k, atoms)),
        Explained::Failure => return false,
    };
    if by_bound {
        return true;
    }
    let Some((_, region, old_bound)) = removed(why) else { return false };
    let start = atoms.len();
    let explained = region.values().is_some_and(|values| values.into_iter().all(|k| excludes(k, atoms)));
    if explained {
        atoms.extend(old_bound);
    } else {
        atoms.truncate(start);
    }
    explained
}

/// What the request removed from which variable, and the atom on its own
/// bound that a moved bound needs (`None` for a failure).
pub(super) fn removed(why: &Explanation<'_>) -> Option<(VarId, Region, Option<Atom>)> {
    match why.explained() {
        Explained::Failure => None,
        Explained::Removed(var) => Some((var, Region::Values(why.removed_values().collect()), None)),
        Explained::AtLeast(var, b) => {
            let old = why.min(var);
            Some((var, Region::Range(old, b - 1), Some(Atom::AtLeast(var, old))))
        }
        Explained::AtMost(var, b) => {
            let old = why.max(var);
            Some((var, Region::Range(b + 1, old), Some(Atom::AtMost(var, old))))
        }
    }
}

/// The largest run of consecutive values of `set` (sorted, distinct) that
/// holds `lo..=hi`, if one does.
fn run_around(set: &[i64], lo: i64, hi: i64) -> Option<(i64, i64)> {
    let at = set.binary_search(&lo).ok()?;
    let end = at.checked_add(usize::try_from(i128::from(hi) - i128::from(lo)).ok()?)?;
    if set.get(end) != Some(&hi) {
        return None;
    }
    let first = (0..at).rev().take_while(|&k| set[k] + 1 == set[k + 1]).last().unwrap_or(at);
    let last = (end + 1..set.len()).take_while(|&k| set[k - 1] + 1 == set[k]).last().unwrap_or(end);
    Some((set[first], set[last]))
}

/// The variables counted and the values counted: one among, as the
/// explanations see it.
#[derive(Clone, Copy)]
pub(super) struct Counting<'a> {
    pub(super) xs: &'a [VarId],
    pub(super) counted: Counted<'a>,
}

impl Counting<'_> {
    /// Whether `x` had a counted value, and whether it had another.
    fn classify(&self, why: &Explanation<'_>, x: VarId) -> (bool, bool) {
        let (min, max) = (why.min(x), why.max(x));
        match self.counted {
            Counted::One(v) => (why.contains(x, v), min != v || max != v),
            Counted::Set(set) if why.is_interval(x) => {
                let can_in = set.get(set.partition_point(|&s| s < min)).is_some_and(|&s| s <= max);
                (can_in, run_around(set, min, max).is_none())
            }
            Counted::Set(set) => {
                let size = why.size(x);
                let inside = if set.len() as u64 <= size {
                    set.iter().filter(|&&s| why.contains(x, s)).count()
                } else {
                    why.values(x).filter(|v| set.binary_search(v).is_ok()).count()
                } as u64;
                (inside > 0, inside < size)
            }
        }
    }

    /// Why `x` had only counted values.
    fn must_atoms(&self, why: &Explanation<'_>, x: VarId, atoms: &mut Vec<Atom>) {
        match self.counted {
            Counted::One(v) => atoms.push(Atom::Equal(x, v)),
            Counted::Set(set) if why.is_interval(x) => {
                let (lo, hi) = run_around(set, why.min(x), why.max(x)).expect("a must within the set");
                atoms.extend([Atom::AtLeast(x, lo), Atom::AtMost(x, hi)]);
            }
            Counted::Set(set) => {
                let (first, last) = (set[0], set[set.len() - 1]);
                atoms.extend([Atom::AtLeast(x, first), Atom::AtMost(x, last)]);
                let holes = why.initial_values(x).filter(|&w| first < w && w < last && set.binary_search(&w).is_err());
                atoms.extend(holes.map(|w| Atom::NotEqual(x, w)));
            }
        }
    }

    /// Why `x` had no counted value.
    fn cannot_atoms(&self, why: &Explanation<'_>, x: VarId, atoms: &mut Vec<Atom>) {
        match self.counted {
            Counted::One(v) => atoms.push(Atom::NotEqual(x, v)),
            Counted::Set(set) if why.is_interval(x) => {
                // The gap of the set that held x's bounds.
                let at = set.partition_point(|&s| s < why.min(x));
                if at > 0 {
                    atoms.push(Atom::AtLeast(x, set[at - 1] + 1));
                }
                if let Some(&next) = set.get(at) {
                    atoms.push(Atom::AtMost(x, next - 1));
                }
            }
            Counted::Set(set) => atoms.extend(set.iter().map(|&s| Atom::NotEqual(x, s))),
        }
    }

    /// Adds why `k` of the `xs` (all but the `skip`th) had only counted
    /// values (`must`) or none; `false`, adding nothing, if fewer had.
    fn some(&self, why: &Explanation<'_>, skip: Option<usize>, must: bool, k: i64, atoms: &mut Vec<Atom>) -> bool {
        let start = atoms.len();
        let mut left = k;
        for (i, &x) in self.xs.iter().enumerate() {
            if left <= 0 {
                break;
            }
            if Some(i) == skip {
                continue;
            }
            let (can_in, can_out) = self.classify(why, x);
            if must && !can_out {
                self.must_atoms(why, x, atoms);
                left -= 1;
            } else if !must && !can_in {
                self.cannot_atoms(why, x, atoms);
                left -= 1;
            }
        }
        if left > 0 {
            atoms.truncate(start);
        }
        left <= 0
    }

    /// Why the count was at least `b`.
    fn at_least(&self, why: &Explanation<'_>, b: i64, atoms: &mut Vec<Atom>) -> bool {
        self.some(why, None, true, b, atoms)
    }

    /// Why the count was at most `b`.
    fn at_most(&self, why: &Explanation<'_>, b: i64, atoms: &mut Vec<Atom>) -> bool {
        self.some(why, None, false, self.xs.len() as i64 - b, atoms)
    }

    /// Why the count could not be `k`.
    pub(super) fn excludes(&self, why: &Explanation<'_>, k: i64, atoms: &mut Vec<Atom>) -> bool {
        self.at_least(why, k.saturating_add(1), atoms) || self.at_most(why, k.saturating_sub(1), atoms)
    }

    /// Why the count variable lost what the request says it lost
    /// ([`explain_count_var`], by this count's bounds).
    pub(super) fn explain_tally(&self, why: &Explanation<'_>, atoms: &mut Vec<Atom>) -> bool {
        explain_count_var(
            why,
            atoms,
            |b, atoms| self.at_least(why, b, atoms),
            |b, atoms| self.at_most(why, b, atoms),
            |k, atoms| self.excludes(why, k, atoms),
        )
    }

    /// Adds why the count of the `xs` but the `skip`th, plus `plus`, was
    /// allowed by no value of `tally`: the tally's bound or holes that leave
    /// the reachable range out, and the musts and cannots that bound the
    /// range as far as that needs. `false`, adding nothing, if it was allowed.
    pub(super) fn no_count(
        &self,
        why: &Explanation<'_>,
        skip: Option<usize>,
        plus: i64,
        tally: Tally,
        atoms: &mut Vec<Atom>,
    ) -> bool {
        let (mut lower, mut upper) = (0i64, 0i64);
        for (i, &x) in self.xs.iter().enumerate() {
            if Some(i) != skip {
                let (can_in, can_out) = self.classify(why, x);
                upper += i64::from(can_in);
                lower += i64::from(!can_out);
            }
        }
        let others = self.xs.len() as i64 - i64::from(skip.is_some());
        let (lo, hi) = (lower + plus, upper + plus);
        // The tally's nearest allowed counts below and above lo..=hi.
        let start = atoms.len();
        let (below, above) = match tally {
            Tally::Between(_, high) if high < lo => (Some(high), None),
            Tally::Between(low, _) if low > hi => (None, Some(low)),
            Tally::Between(..) => return false,
            Tally::Var(c) if why.is_interval(c) => {
                let (min, max) = (why.min(c), why.max(c));
                if max < lo {
                    atoms.push(Atom::AtMost(c, max));
                    (Some(max), None)
                } else if min > hi {
                    atoms.push(Atom::AtLeast(c, min));
                    (None, Some(min))
                } else {
                    return false;
                }
            }
            Tally::Var(c) => {
                let (mut below, mut above) = (None, None);
                for k in why.values(c) {
                    if k < lo {
                        below = Some(k);
                    } else if k <= hi {
                        return false;
                    } else {
                        above = Some(k);
                        break;
                    }
                }
                match (below, above) {
                    (Some(l), None) => atoms.push(Atom::AtMost(c, l)),
                    (None, Some(u)) => atoms.push(Atom::AtLeast(c, u)),
                    (Some(l), Some(u)) => {
                        atoms.extend(why.initial_values(c).filter(|&k| l < k && k < u).map(|k| Atom::NotEqual(c, k)))
                    }
                    (None, None) => return false,
                }
                (below, above)
            }
        };
        // At least l + 1 counted, at most u - 1: values within ±2^62, no overflow.
        let enough = below.is_none_or(|l| self.some(why, skip, true, l + 1 - plus, atoms))
            && above.is_none_or(|u| self.some(why, skip, false, others - (u - 1 - plus), atoms));
        if !enough {
            atoms.truncate(start);
        }
        enough
    }

    /// Adds why the `i`th variable lost the `region`: each value counted
    /// would have made a count the tally does not allow, and so would each
    /// value not counted.
    pub(super) fn explain_x(
        &self,
        why: &Explanation<'_>,
        i: usize,
        region: &Region,
        tally: Tally,
        atoms: &mut Vec<Atom>,
    ) -> bool {
        let values = self.counted.values();
        let (on, off) = (region.meets(values), !region.within(values));
        self.explain_x_sides(why, i, on, off, tally, atoms)
    }

    /// Adds why the `i`th variable could not be counted (`on`) and why it
    /// could not stay uncounted (`off`).
    pub(super) fn explain_x_sides(
        &self,
        why: &Explanation<'_>,
        i: usize,
        on: bool,
        off: bool,
        tally: Tally,
        atoms: &mut Vec<Atom>,
    ) -> bool {
        let start = atoms.len();
        let explained = (!on || self.no_count(why, Some(i), 1, tally, atoms))
            && (!off || self.no_count(why, Some(i), 0, tally, atoms));
        if !explained {
            atoms.truncate(start);
        }
        explained
    }
}
