//! Counting-based search (Pesant, Quimper & Zanarini, "Counting-Based
//! Search: Branching Heuristics for Constraint Satisfaction Problems",
//! JAIR 43, 2012; Zanarini & Pesant, CP 2007): [`VarOrder::MaxSd`] and
//! [`VarOrder::MaxRelSd`] decide the variable-value pair `x = v` with the
//! highest solution density over the model's all-differents, the fraction
//! of a constraint's solutions in which `x = v`.
//!
//! A density is estimated from the Brégman-Minc upper bound on the
//! permanent of the constraint's variable-value matrix,
//! `UB = prod_j (|D_j|!)^(1/|D_j|)`: the density of `x = v` is
//! `UB(x = v) / sum_w UB(x = w)`, where `UB(x = v)` is the bound once `v`
//! has left the other variables' domains. Only the factors of the variables
//! whose domain holds `v` change, so `UB(x = v)` is, up to a factor common
//! to all of `x`'s values, the product `w(v)` over the other variables `j`
//! holding `v` of `f(|D_j| - 1) / f(|D_j|)`, with `f(d) = (d!)^(1/d)`; a
//! value fixed for another variable (a domain `{v}`) makes it 0. One pass
//! over the constraint's domains gives every `w(v)`, a second every
//! variable's densities: O(n d) a constraint, with the ratios precomputed.
//! With more values than variables the bound would count padding variables
//! with full domains (Zanarini & Pesant); they hold every value, so their
//! factors are common to all pairs and cancel in the normalisation.
//!
//! An all-different is estimated when its variables are distinct, at most
//! 64, bitsets of at most 64 positions, and their values (plus the
//! constraint's offsets) span at most 64 together; the others, and every other constraint,
//! are ignored. When no estimated constraint has a candidate left the
//! choice falls back to dom/wdeg (and the configuration's value order).

use std::any::Any;
use std::cell::Cell;

use super::Solver;
use super::config::{ValueOrder, VarOrder};
use crate::constraint::Constraint;
use crate::constraints::AllDifferent;
use crate::ids::VarId;
use crate::kernel::State;
use crate::rng::Rng;

/// The largest domain size the precomputed ratios cover (one word).
const MAX_SIZE: usize = 64;

/// An all-different whose densities can be estimated: its variables, and
/// per variable how its positions, plus the constraint's offset, land on a
/// common word of values.
#[derive(Debug)]
pub(super) struct Estimated {
    /// The constraint's index in the model.
    pub(super) constraint: u32,
    pub(super) vars: Vec<u32>,
    pub(super) layouts: Vec<Layout>,
}

/// Where a variable's positions land in its constraint's word of values.
#[derive(Debug)]
pub(super) enum Layout {
    /// Consecutive values: position `p` is bit `p + shift`.
    Shift(u32),
    /// A sparse domain: position `p` is bit `bits[p]`.
    Map(Vec<u8>),
}

impl Layout {
    /// The values of the domain word `word`, as bits of the constraint's word.
    #[inline]
    pub(super) fn values(&self, word: u64) -> u64 {
        match self {
            Layout::Shift(shift) => word << shift,
            Layout::Map(bits) => {
                let mut values = 0u64;
                let mut rest = word;
                while rest != 0 {
                    values |= 1 << bits[rest.trailing_zeros() as usize];
                    rest &= rest - 1;
                }
                values
            }
        }
    }

    /// The position of the value at bit `v` (one the domain holds).
    pub(super) fn position(&self, v: u32) -> u32 {
        match self {
            Layout::Shift(shift) => v - shift,
            Layout::Map(bits) => bits.iter().position(|&b| u32::from(b) == v).expect("a value of the domain") as u32,
        }
    }
}

/// The all-differents whose values fit one word, which the orderings that
/// decide a pair `x = v` read (counting-based search here, the places of a
/// value in `places.rs`), the ratios of the densities, and the pair chosen.
#[derive(Debug)]
pub(super) struct WordAllDifferents {
    pub(super) estimated: Vec<Estimated>,
    /// `ratio[d] = f(d - 1) / f(d)` with `f(d) = (d!)^(1/d)`, for `d >= 2`:
    /// the factor a variable of `d` values holding `v` puts on `w(v)`.
    ratio: [f64; MAX_SIZE + 1],
    /// The pair the last choice decided, as (variable, position): what the
    /// frame opened for it tries first.
    pub(super) chosen: Cell<Option<(u32, u32)>>,
}

impl WordAllDifferents {
    /// The estimable all-differents of `constraints` (with their scopes),
    /// over the domains of `state` as built.
    pub(super) fn new(constraints: &[&dyn Constraint], state: &State) -> WordAllDifferents {
        let mut estimated = Vec::new();
        for (index, constraint) in constraints.iter().enumerate() {
            let Some(all_different) = (*constraint as &dyn Any).downcast_ref::<AllDifferent>() else { continue };
            if let Some(e) = estimable(index as u32, constraint.scope(), all_different.offsets(), state) {
                estimated.push(e);
            }
        }
        WordAllDifferents { estimated, ratio: ratios(), chosen: Cell::new(None) }
    }

    /// Whether some constraint is estimated.
    pub(super) fn is_empty(&self) -> bool {
        self.estimated.is_empty()
    }
}

/// `ln(d!) / d` for `d` in `0..=MAX_SIZE` (0 for `d = 0`).
fn log_root_factorials() -> [f64; MAX_SIZE + 1] {
    let mut g = [0.0; MAX_SIZE + 1];
    let mut log_factorial = 0.0f64;
    for (d, slot) in g.iter_mut().enumerate().skip(1) {
        log_factorial += (d as f64).ln();
        *slot = log_factorial / d as f64;
    }
    g
}

/// `f(d - 1) / f(d)` for `d` in `2..=MAX_SIZE` (see [`WordAllDifferents::ratio`]).
fn ratios() -> [f64; MAX_SIZE + 1] {
    let g = log_root_factorials();
    let mut ratio = [1.0; MAX_SIZE + 1];
    for d in 2..=MAX_SIZE {
        ratio[d] = (g[d - 1] - g[d]).exp();
    }
    ratio
}

/// The layouts of an all-different over `scope` with `offsets` (empty:
/// none) if its variables are distinct bitsets of one word whose values,
/// offset, fit one word together.
fn estimable(constraint: u32, scope: &[VarId], offsets: &[i64], state: &State) -> Option<Estimated> {
    if scope.is_empty() || scope.len() > MAX_SIZE {
        return None;
    }
    let vars: Vec<u32> = scope.iter().map(|v| v.index).collect();
    let mut sorted = vars.clone();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != vars.len() {
        return None;
    }
    // Per variable, the values of its positions (the highest position a
    // domain can ever hold is its highest now: domains only shrink).
    let mut values: Vec<Vec<i64>> = Vec::with_capacity(vars.len());
    for (i, &x) in vars.iter().enumerate() {
        if state.num_words(x) != 1 {
            return None;
        }
        let offset = offsets.get(i).copied().unwrap_or(0);
        let width = 64 - state.word(x, 0).leading_zeros();
        values.push((0..width).map(|p| state.value(x, p).checked_add(offset)).collect::<Option<_>>()?);
    }
    let low = values.iter().flatten().copied().min()?;
    let high = values.iter().flatten().copied().max()?;
    if high.checked_sub(low)? >= 64 {
        return None;
    }
    let layouts = vars
        .iter()
        .zip(&values)
        .map(|(&x, values)| {
            let bit = |value: i64| (value - low) as u8;
            match state.dense_base(x) {
                Some(_) => Layout::Shift(values.first().map_or(0, |&v| u32::from(bit(v)))),
                None => Layout::Map(values.iter().map(|&v| bit(v)).collect()),
            }
        })
        .collect();
    Some(Estimated { constraint, vars, layouts })
}

/// `w(v)` for every value `v` of the word (see the module's doc) of an
/// all-different whose variables hold the values `masks`: 0 for a value no
/// variable holds or one held by a variable with no other value.
fn value_weights(masks: &[u64], ratio: &[f64; MAX_SIZE + 1]) -> [f64; 64] {
    let mut w = [1.0f64; 64];
    let mut fixed = 0u64;
    let mut held = 0u64;
    for &mask in masks {
        held |= mask;
        let d = mask.count_ones() as usize;
        if d == 1 {
            fixed |= mask;
            continue;
        }
        let r = ratio[d];
        let mut bits = mask;
        while bits != 0 {
            w[bits.trailing_zeros() as usize] *= r;
            bits &= bits - 1;
        }
    }
    let mut dead = fixed | !held;
    while dead != 0 {
        w[dead.trailing_zeros() as usize] = 0.0;
        dead &= dead - 1;
    }
    w
}

/// The densities of the values `mask` of one variable of an all-different
/// with weights `w` (the most dense and its value, and their sum), or `None`
/// when every weight is 0. A variable that holds `v` counts itself in
/// `w(v)` once for each of its values: a factor common to them, which the
/// normalisation cancels; so does a fixed variable's exclusion of its own value.
#[inline]
fn densest_value(mask: u64, w: &[f64; 64]) -> Option<(u32, f64)> {
    let mut sum = 0.0;
    let mut best = (0u32, -1.0f64);
    let mut bits = mask;
    while bits != 0 {
        let v = bits.trailing_zeros();
        let weight = w[v as usize];
        sum += weight;
        if weight > best.1 {
            best = (v, weight);
        }
        bits &= bits - 1;
    }
    (sum > 0.0).then(|| (best.0, best.1 / sum))
}

/// The estimated densities, by variable and value, of an all-different
/// whose variables hold the values `masks` (bits of one word): what the
/// search reads, whole (for the tests).
#[cfg(test)]
fn densities(masks: &[u64]) -> Vec<[f64; 64]> {
    let w = value_weights(masks, &ratios());
    // A variable fixed to `v` has density 1 there; its own fixing zeroed `w(v)`.
    let mut out = Vec::new();
    for &mask in masks {
        let mut row = [0.0; 64];
        if mask.count_ones() == 1 {
            let v = mask.trailing_zeros() as usize;
            let others_fix = masks.iter().filter(|&&m| m == mask).count() > 1;
            row[v] = if others_fix { 0.0 } else { 1.0 };
        } else {
            let sum: f64 = (0..64).filter(|&v| mask >> v & 1 == 1).map(|v| w[v]).sum();
            for v in (0..64).filter(|&v| mask >> v & 1 == 1) {
                row[v] = if sum > 0.0 { w[v] / sum } else { 0.0 };
            }
        }
        out.push(row);
    }
    out
}

impl Solver<'_> {
    /// maxSD (or with `relative`, maxRelSD: the density minus `1 / |D_x|`,
    /// what the pair gains over a uniform choice) over the unassigned
    /// variables `free` holds; keeps the pair in `WordAllDifferents::chosen`. Ties go
    /// to the smaller domain, then to the variable first by `tie`, then to
    /// the smaller value; under [`ValueOrder::Random`] (the configuration's),
    /// ties of domain size go to a draw instead, from the seed and the
    /// number of the restart run, so each run breaks them its own way.
    /// `None` when no estimated all-different has a candidate (the caller
    /// falls back).
    pub(super) fn densest_pair(&self, free: &[u32], order: VarOrder, tie: impl Fn(u32) -> u32) -> Option<u32> {
        let all_differents = self.program.all_differents.as_ref()?;
        let relative = order == VarOrder::MaxRelSd;
        let config = &self.program.config;
        let salt = (config.value_order == ValueOrder::Random).then(|| {
            Rng::new(config.seed.wrapping_add(self.run.stats.restarts.wrapping_mul(0x9E37_79B9_7F4A_7C15))).next_u64()
        });
        // The draw of a pair (0 when ties are not random): SplitMix64's
        // output for the run's salt and the pair.
        let draw =
            |x: u32, v: u32| salt.map_or(0, |salt| Rng::new(salt ^ (u64::from(x) << 32 | u64::from(v))).next_u64());
        let members = &self.scratch.members;
        members.mark(free);
        // (score, size, draw, tie, variable, position)
        let mut best: Option<(f64, u32, u64, u32, u32, u32)> = None;
        let mut best_layout: Option<&Layout> = None;
        let mut masks = [0u64; MAX_SIZE];
        for e in &all_differents.estimated {
            let n = e.vars.len();
            let mut candidates = false;
            for (i, (&x, layout)) in e.vars.iter().zip(&e.layouts).enumerate() {
                masks[i] = layout.values(self.state.word(x, 0));
                candidates |= members.contains(x);
            }
            if !candidates {
                continue;
            }
            let w = value_weights(&masks[..n], &all_differents.ratio);
            for (i, (&x, layout)) in e.vars.iter().zip(&e.layouts).enumerate() {
                if !members.contains(x) {
                    continue;
                }
                let Some((v, density)) = densest_value(masks[i], &w) else { continue };
                let size = masks[i].count_ones();
                let score = if relative { density - 1.0 / f64::from(size) } else { density };
                let key = (score, size, draw(x, v), tie(x), x, v);
                let better = match best {
                    None => true,
                    Some((s, d, r, t, _, p)) => score > s || (score == s && (size, key.2, key.3, v) < (d, r, t, p)),
                };
                if better {
                    best = Some(key);
                    best_layout = Some(layout);
                }
            }
        }
        let (_, _, _, _, x, v) = best?;
        all_differents.chosen.set(Some((x, best_layout?.position(v))));
        Some(x)
    }
}

/// The candidates of a choice, marked for O(1) membership.
#[derive(Debug, Default)]
pub(super) struct Members {
    stamp: Cell<u32>,
    marks: Vec<Cell<u32>>,
}

impl Members {
    pub(super) fn new(num_vars: usize) -> Members {
        Members { stamp: Cell::new(0), marks: (0..num_vars).map(|_| Cell::new(0)).collect() }
    }

    /// Makes `vars` the members, and only them.
    pub(super) fn mark(&self, vars: &[u32]) {
        let mut stamp = self.stamp.get().wrapping_add(1);
        if stamp == 0 {
            self.marks.iter().for_each(|m| m.set(0));
            stamp = 1;
        }
        self.stamp.set(stamp);
        for &x in vars {
            self.marks[x as usize].set(stamp);
        }
    }

    #[inline]
    pub(super) fn contains(&self, x: u32) -> bool {
        self.marks[x as usize].get() == self.stamp.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mask of the values `values`.
    fn mask(values: &[u32]) -> u64 {
        values.iter().fold(0, |m, &v| m | 1 << v)
    }

    /// The number of solutions of an all-different over domains `masks`
    /// with `x = v` (`None`: any), by enumeration.
    fn count(masks: &[u64], fixed: Option<(usize, u32)>) -> u64 {
        fn go(masks: &[u64], i: usize, used: u64, fixed: Option<(usize, u32)>) -> u64 {
            if i == masks.len() {
                return 1;
            }
            let mut total = 0;
            let mut bits = masks[i] & !used;
            if let Some((_, v)) = fixed.filter(|&(x, _)| x == i) {
                bits &= 1 << v;
            }
            while bits != 0 {
                let v = bits.trailing_zeros();
                total += go(masks, i + 1, used | 1 << v, fixed);
                bits &= bits - 1;
            }
            total
        }
        go(masks, 0, 0, fixed)
    }

    #[test]
    fn the_bound_holds_and_is_exact_on_full_domains() {
        let g = log_root_factorials();
        let bound = |masks: &[u64]| masks.iter().map(|m| g[m.count_ones() as usize]).sum::<f64>().exp();
        // n variables over n values: n! solutions, and the bound is n!.
        let full = vec![mask(&[0, 1, 2, 3, 4]); 5];
        assert!((bound(&full) - 120.0).abs() < 1e-9);
        assert_eq!(count(&full, None), 120);
        // Pseudo-random domains, as many variables as values (the bound is
        // on square matrices): the bound is never below the count.
        let mut seed = 12345u64;
        for _ in 0..300 {
            let masks: Vec<u64> = (0..6)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    (seed >> 33) & 0x3f | 1 << (seed >> 60 & 3)
                })
                .collect();
            assert!(bound(&masks) + 1e-9 >= count(&masks, None) as f64, "{masks:?}");
        }
    }

    #[test]
    fn densities_are_exact_on_full_domains_and_equal_when_symmetric() {
        let full = vec![mask(&[1, 2, 3, 4]); 4];
        for row in densities(&full) {
            for v in 1..=4 {
                assert!((row[v] - 0.25).abs() < 1e-12, "{row:?}");
            }
            assert_eq!(row[0], 0.0);
        }
    }

    #[test]
    fn a_value_fixed_elsewhere_has_density_zero_and_a_forced_value_one() {
        // y = 2: x cannot take 2, so x = 1 is forced.
        let masks = [mask(&[1, 2]), mask(&[2]), mask(&[1, 2, 3])];
        let d = densities(&masks);
        assert_eq!(d[0][2], 0.0);
        assert_eq!(d[0][1], 1.0);
        assert_eq!(d[2][2], 0.0);
        assert!(d[2][1] > 0.0 && d[2][3] > 0.0);
    }

    #[test]
    fn densities_sum_to_one_are_positive_where_solutions_are_and_rank_like_counts() {
        // x0 in {0,1,2}, x1 in {0,1}, x2 in {0,1,2,3}: x0 = 2 is in more
        // solutions (x1, x2 free over {0,1} and {0,1,3}) than x0 = 0.
        let masks = [mask(&[0, 1, 2]), mask(&[0, 1]), mask(&[0, 1, 2, 3])];
        let d = densities(&masks);
        let total = count(&masks, None) as f64;
        for (i, row) in d.iter().enumerate() {
            let sum: f64 = row.iter().sum();
            assert!((sum - 1.0).abs() < 1e-12, "{row:?}");
            for v in 0..4u32 {
                let exact = count(&masks, Some((i, v))) as f64 / total;
                if exact > 0.0 {
                    assert!(row[v as usize] > 0.0, "x{i} = {v}: exact {exact}, estimate {}", row[v as usize]);
                }
            }
        }
        assert!(d[0][2] > d[0][0], "{:?}", d[0]);
        let (v, density) = densest_value(masks[0], &value_weights(&masks, &ratios())).unwrap();
        assert_eq!(v, 2);
        assert!((density - d[0][2]).abs() < 1e-12);
    }
}
