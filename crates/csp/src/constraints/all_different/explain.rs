//! Why an all-different removed a value or failed, as Hall sets (Katsirelos
//! & Bacchus 2005, "Generalized nogoods in CSPs"), on bitsets: at most 64
//! variables, each domain a `u64` of local value ids.
//!
//! Every removal of a sound all-different propagator, whatever its
//! strength, has a Hall set behind it: a set `S` of variables, not holding
//! the variable that lost value `a`, whose domains together hold exactly
//! `|S|` values, `a` among them. The values are all taken by `S`, so no
//! other variable can take one. A value taken by a fixed variable is the
//! smallest case (`S = {y}`, `y = a`); a hidden single of a constraint with
//! as many values as variables is the largest (`S` is every other variable,
//! which together lost the value); naked and hidden sets and every removal
//! of Régin's matching lie between. A failure has a set `S` with fewer values
//! than variables (Hall's theorem). The answer is, for each variable of `S`,
//! "its domain lies within the set's values": the values it lost outside
//! them, a fact that holds on every branch where the set stays one.
//!
//! The sets are found on the domains as they were when the propagator acted
//! (the question's domains): a maximum matching that avoids the removed
//! edges, then the variables reachable from the removed values' partners by
//! alternating paths (Katsirelos's construction); a failed augmenting search
//! leaves a set with too few values. The answers are reported as `(index,
//! allowed)`: the variable at `index` had only values of `allowed`.

use smallvec::SmallVec;

use super::bitset::BitIndices;
use crate::ids::{Atom, VarId};
use crate::kernel::{Explained, Explanation};

/// No partner.
const FREE: u8 = u8::MAX;

/// A maximum matching of the variables with domains `dom` into their values.
struct Matcher<'a> {
    dom: &'a [u64],
    var_match: [u8; 64],
    val_match: [u8; 64],
    /// The values matched (a bit per value).
    taken: u64,
}

impl Matcher<'_> {
    /// Matches every variable, or returns a set of variables (a bit per
    /// index) whose domains hold fewer values than it has variables.
    fn complete(dom: &[u64]) -> Result<Matcher<'_>, u64> {
        debug_assert!(dom.len() <= 64);
        let mut matcher = Matcher { dom, var_match: [FREE; 64], val_match: [FREE; 64], taken: 0 };
        // Fixed variables first: their partners are forced.
        for pass in 0..2 {
            for (p, &d) in dom.iter().enumerate() {
                let fixed = d & d.wrapping_sub(1) == 0;
                if (pass == 0) != fixed || matcher.var_match[p] != FREE {
                    continue;
                }
                // A free value, as `augment` would take first, without the call.
                let free = d & !matcher.taken;
                if free != 0 {
                    matcher.pair(p, free.trailing_zeros() as usize);
                    continue;
                }
                let (mut visited, mut explored) = (0u64, 0u64);
                if !matcher.augment(p, &mut visited, &mut explored) {
                    return Err(explored);
                }
            }
        }
        Ok(matcher)
    }

    /// Looks for an augmenting path from variable `p` over values not yet
    /// `visited`; `explored` collects the variables it went through. When
    /// none is found, every explored variable's values are visited and
    /// matched to another explored variable: too few values.
    fn augment(&mut self, p: usize, visited: &mut u64, explored: &mut u64) -> bool {
        *explored |= 1u64 << p;
        let mut options = self.dom[p] & !*visited;
        // A free value ends the path at once (the commonest case, without
        // going down the paths of the matched values before it).
        let free = options & !self.taken;
        if free != 0 {
            self.pair(p, free.trailing_zeros() as usize);
            return true;
        }
        while options != 0 {
            let a = options.trailing_zeros() as usize;
            options &= options - 1;
            *visited |= 1u64 << a;
            // Every value left is matched (none was free).
            let owner = self.val_match[a];
            if self.augment(owner as usize, visited, explored) {
                self.pair(p, a);
                return true;
            }
        }
        false
    }

    /// Matches variable `p` with value `a`.
    #[inline]
    fn pair(&mut self, p: usize, a: usize) {
        self.var_match[p] = a as u8;
        self.val_match[a] = p as u8;
        self.taken |= 1u64 << a;
    }
}

/// The union of the domains of the variables `set`.
fn values_of(dom: &[u64], set: u64) -> u64 {
    BitIndices(set).fold(0, |values, p| values | dom[p])
}

/// Why variable `x` cannot take the values `removed` (local ids it had)
/// among variables with domains `dom` (as they were, `x`'s with those
/// values): `answer(index, allowed)` for each variable of the Hall sets.
/// `false`, with nothing answered, when no Hall set explains it (the removal
/// did not come from this all-different alone). `dom` is worked on in
/// place, and is as it was on return.
pub(crate) fn removal_of(dom: &mut [u64], x: usize, removed: u64, mut answer: impl FnMut(usize, u64)) -> bool {
    let mut answers: SmallVec<[(usize, u64); 8]> = SmallVec::new();
    // A value taken by a fixed variable: the commonest answer, and the shortest.
    let mut rest = removed;
    for a in BitIndices(removed) {
        let bit = 1u64 << a;
        if let Some(y) = (0..dom.len()).find(|&y| y != x && dom[y] == bit) {
            answers.push((y, bit));
            rest &= !bit;
        }
    }
    let hall = if rest == 0 {
        None
    } else {
        let Some(found) = hall_set(dom, x, rest) else { return false };
        Some(found)
    };
    for (index, allowed) in answers {
        answer(index, allowed);
    }
    if let Some((set, values)) = hall {
        BitIndices(set).for_each(|p| answer(p, values));
    }
    true
}

/// [`removal_of`] of values `rest` that no fixed variable but `x` had
/// (the caller looked): the Hall sets alone.
pub(crate) fn hall_removal(dom: &mut [u64], x: usize, rest: u64, mut answer: impl FnMut(usize, u64)) -> bool {
    let Some((set, values)) = hall_set(dom, x, rest) else { return false };
    BitIndices(set).for_each(|p| answer(p, values));
    true
}

/// The Hall sets that take the values `rest` from `x`, as one set of
/// variables (a bit per index) and the values their domains lie within;
/// the domains without `rest` in `x`'s are worked on in place of `dom`'s.
fn hall_set(dom: &mut [u64], x: usize, rest: u64) -> Option<(u64, u64)> {
    let had = dom[x];
    dom[x] &= !rest;
    let found = hall_set_without(dom, x, rest);
    dom[x] = had;
    found
}

/// [`hall_set`] on the domains `without` the values `rest` in `x`'s.
fn hall_set_without(without: &[u64], x: usize, rest: u64) -> Option<(u64, u64)> {
    let matcher = match Matcher::complete(without) {
        Ok(matcher) => matcher,
        // Too few values already, without `x`: that failure implies anything.
        Err(set) if set & 1u64 << x == 0 => return Some((set, values_of(without, set))),
        // Only `x`'s lost values would have saved the set: no Hall set.
        Err(_) => return None,
    };
    // The variables reachable from the partners of the removed values, by
    // alternating paths: a Hall set, unless a path reaches a free value or
    // `x` (then some removed value had a support).
    let mut set = 0u64;
    for a in BitIndices(rest) {
        match matcher.val_match[a] {
            FREE => return None,
            owner => set |= 1u64 << owner,
        }
    }
    let mut frontier = set;
    let mut values = 0u64;
    while frontier != 0 {
        let fresh = values_of(without, frontier) & !values;
        values |= fresh;
        let mut next = 0u64;
        for a in BitIndices(fresh) {
            match matcher.val_match[a] {
                FREE => return None,
                owner => next |= 1u64 << owner,
            }
        }
        frontier = next & !set;
        set |= next;
    }
    if set & 1u64 << x != 0 {
        return None;
    }
    Some((set, values))
}

/// Why variables with domains `dom` (as they were) cannot all take
/// different values: `answer(index, allowed)` for each variable of a set
/// with fewer values than variables. `false` when there is none.
pub(crate) fn failure(dom: &[u64], mut answer: impl FnMut(usize, u64)) -> bool {
    // Two variables fixed to one value: the commonest answer, and the shortest.
    let mut owner = [FREE; 64];
    for (p, &d) in dom.iter().enumerate() {
        if d == 0 {
            answer(p, 0);
            return true;
        }
        if d & (d - 1) == 0 {
            let a = d.trailing_zeros() as usize;
            if owner[a] != FREE {
                answer(owner[a] as usize, d);
                answer(p, d);
                return true;
            }
            owner[a] = p as u8;
        }
    }
    match Matcher::complete(dom) {
        Ok(_) => false,
        Err(set) => {
            let values = values_of(dom, set);
            for p in BitIndices(set) {
                answer(p, values);
            }
            true
        }
    }
}

/// The answer of an all-different over `vars` (shifted by `offsets`) to
/// `why`, for any of its propagators: each removed value taken by a fixed
/// variable (`x ≠ v` because `y = v`), two fixed variables on one value for
/// a failure, else, when the shifted values span at most 64 and every
/// domain is a bitset, the Hall sets on the domains as they were. `false`
/// when none of these answers (the engine then uses the generic answer).
pub(crate) fn answer(vars: &[VarId], offsets: &[i64], why: &mut Explanation<'_>) -> bool {
    let shifted = |why: &Explanation<'_>, q: usize| {
        why.fixed_value(vars[q]).map(|value| i128::from(value) + i128::from(offsets[q]))
    };
    match why.explained() {
        Explained::Removed(var) => {
            let Some(x) = vars.iter().position(|&v| v == var) else { return false };
            let removed: SmallVec<[i128; 8]> =
                why.removed_values().map(|v| i128::from(v) + i128::from(offsets[x])).collect();
            let mut peers: SmallVec<[Atom; 8]> = SmallVec::new();
            for &value in &removed {
                match (0..vars.len()).find(|&q| q != x && shifted(why, q) == Some(value)) {
                    Some(q) => peers.push(Atom::Equal(vars[q], (value - i128::from(offsets[q])) as i64)),
                    None => return hall(vars, offsets, why, Some((x, &removed))),
                }
            }
            peers.into_iter().for_each(|atom| why.because(atom));
            true
        }
        Explained::Failure => {
            let fixed: SmallVec<[(i128, usize); 16]> =
                (0..vars.len()).filter_map(|q| shifted(why, q).map(|value| (value, q))).collect();
            for (i, &(value, q)) in fixed.iter().enumerate() {
                if let Some(&(_, r)) = fixed[i + 1..].iter().find(|&&(other, _)| other == value) {
                    why.because(Atom::Equal(vars[q], (value - i128::from(offsets[q])) as i64));
                    why.because(Atom::Equal(vars[r], (value - i128::from(offsets[r])) as i64));
                    return true;
                }
            }
            hall(vars, offsets, why, None)
        }
        _ => false,
    }
}

/// The Hall sets behind a removal from `vars[x]` of the shifted values
/// `removed` (or a failure), on local value masks, when they fit.
fn hall(vars: &[VarId], offsets: &[i64], why: &mut Explanation<'_>, removal: Option<(usize, &[i128])>) -> bool {
    if vars.len() > 64 || vars.iter().any(|&v| why.is_interval(v)) {
        return false;
    }
    let lo = (0..vars.len()).map(|q| i128::from(why.min(vars[q])) + i128::from(offsets[q])).min();
    let hi = (0..vars.len()).map(|q| i128::from(why.max(vars[q])) + i128::from(offsets[q])).max();
    let (Some(lo), Some(hi)) = (lo, hi) else { return false };
    if hi - lo >= 64 {
        return false;
    }
    let mut dom: SmallVec<[u64; 64]> = (0..vars.len())
        .map(|q| why.values(vars[q]).fold(0, |m, v| m | 1u64 << (i128::from(v) + i128::from(offsets[q]) - lo)))
        .collect();
    let mut answers: SmallVec<[(usize, u64); 16]> = SmallVec::new();
    let found = match removal {
        Some((x, removed)) => {
            let mask = removed.iter().fold(0, |m, &v| m | 1u64 << (v - lo));
            removal_of(&mut dom, x, mask, |q, allowed| answers.push((q, allowed)))
        }
        None => failure(&dom, |q, allowed| answers.push((q, allowed))),
    };
    if !found {
        return false;
    }
    // "Within `allowed`": every value the variable had lost outside them.
    for (q, allowed) in answers {
        let gone: SmallVec<[i64; 16]> = why
            .initial_values(vars[q])
            .filter(|&v| {
                let local = i128::from(v) + i128::from(offsets[q]) - lo;
                !(0..64).contains(&local) || allowed & 1u64 << local == 0
            })
            .collect();
        for value in gone {
            why.because(Atom::NotEqual(vars[q], value));
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// Whether the variables with domains `dom` have an all-different
    /// assignment, by brute force.
    fn feasible(dom: &[u64], taken: u64) -> bool {
        match dom.split_first() {
            None => true,
            Some((&first, rest)) => BitIndices(first & !taken).any(|a| feasible(rest, taken | 1 << a)),
        }
    }

    /// Checks that an answer implies what it explains: with every variable
    /// restricted to its allowed values (and `x` to `forbidden`, if any), no
    /// all-different assignment is left.
    fn implies(dom: &[u64], answers: &[(usize, u64)], restrict: Option<(usize, u64)>) -> bool {
        // The answers must have held.
        for &(p, allowed) in answers {
            assert_eq!(dom[p] & !allowed, 0, "variable {p} had values outside {allowed:#b}: {dom:?}");
        }
        // The answer alone (other variables as wide as they started) must do.
        let mut wide: Vec<u64> = vec![u64::MAX >> 58; dom.len()];
        for &(p, allowed) in answers {
            wide[p] &= allowed;
        }
        if let Some((x, values)) = restrict {
            wide[x] &= values;
        }
        !feasible(&wide, 0)
    }

    #[test]
    fn every_answer_is_a_hall_set_that_implies_the_removal_or_failure() {
        let mut rng = Rng::new(18);
        let (mut removals, mut failures) = (0, 0);
        for _ in 0..20_000 {
            let n = 2 + rng.below(5) as usize;
            let dom: Vec<u64> = (0..n).map(|_| rng.next_u64() & 0b11_1111 & rng.next_u64()).collect();
            if dom.contains(&0) {
                continue;
            }
            if !feasible(&dom, 0) {
                let mut answers = Vec::new();
                assert!(failure(&dom, |p, a| answers.push((p, a))), "{dom:?}");
                assert!(implies(&dom, &answers, None), "{dom:?}: {answers:?}");
                failures += 1;
                continue;
            }
            // Each value without a support, as a removal.
            for x in 0..n {
                let mut unsupported = 0u64;
                for a in BitIndices(dom[x]) {
                    let mut fixed = dom.clone();
                    fixed[x] = 1 << a;
                    if !feasible(&fixed, 0) {
                        unsupported |= 1 << a;
                    }
                }
                if unsupported == 0 {
                    continue;
                }
                let mut answers = Vec::new();
                assert!(
                    removal_of(&mut dom.clone(), x, unsupported, |p, a| answers.push((p, a))),
                    "{dom:?} x{x} {unsupported:#b}"
                );
                assert!(answers.iter().all(|&(p, _)| p != x), "{answers:?}");
                for a in BitIndices(unsupported) {
                    assert!(implies(&dom, &answers, Some((x, 1 << a))), "{dom:?} x{x}={a}: {answers:?}");
                }
                removals += 1;
            }
        }
        assert!(removals > 1000 && failures > 1000, "both are exercised: {removals} {failures}");
    }
}
