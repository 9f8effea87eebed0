//! Régin's all-different propagation on bitsets, for value spaces of at most
//! 64 values: the fast path of the matching strength.

use crate::ids::VarId;
use crate::kernel::Context;
use crate::kernel::ReversibleInt;
use crate::kernel::{Conflict, PropagationResult};

/// Régin's algorithm on bitsets, for value spaces of at most 64 values (sudoku
/// up to 64 x 64, N-queens columns up to 64): a domain is one `u64` of local
/// value ids, so the matching, the reachability and the pruning are word
/// operations on fixed-size arrays.
///
/// Collapse each variable into its matched value: in the oriented graph of
/// the matching propagator, a value `a` in the domain of a variable matched to `b` gives
/// the edge `a -> b`. A non-matching value `a` of that variable is supported
/// iff `b` reaches `a` (the edge closes an alternating cycle) or `a` is
/// reachable from a free value (an alternating path from a free value). With
/// the components of that value graph as bitsets, the pruning of a variable is
/// one mask.
#[derive(Debug)]
pub(super) struct SmallMatching {
    /// `value id = position + shift[p]` for variable `p`.
    shift: [u8; 64],
    /// Where each variable's one domain word lives in the state.
    address: [usize; 64],
    /// The domains as read (the core holds them as narrowed).
    before: [u64; 64],
    core: Core,
    /// 1 when the next call is the complete (matching) pass.
    pub(super) complete_next: Option<ReversibleInt>,
}

/// The algorithm itself, on domains already read into `dom` (local value ids,
/// at most 64 variables): [`SmallMatching`] reads them from the state, and the
/// system of all-differents ([`super::system`]) from its own copy
/// of the domains.
#[derive(Clone, Debug)]
pub(super) struct Core {
    /// The number of variables.
    pub(super) n: usize,
    /// The domains, narrowed in place.
    pub(super) dom: [u64; 64],
    /// Matched value of each variable and variable of each value (`SMALL_NONE` if none).
    pub(super) var_match: [u8; 64],
    pub(super) val_match: [u8; 64],
    /// The edges between values (see above), backwards: `pred[b]` the
    /// values with an edge to `b`, a matched value (one of the free
    /// variables'); and the strongly connected component of each value as
    /// a mask.
    pred: [u64; 64],
    component: [u64; 64],
}

const SMALL_NONE: u8 = u8::MAX;

/// The lowest set bit's index, and the word without it.
#[inline(always)]
fn pop_lowest(bits: &mut u64) -> usize {
    let i = bits.trailing_zeros() as usize;
    *bits &= *bits - 1;
    i
}

impl SmallMatching {
    pub(super) fn new(vars: &[VarId], offsets: &[i64], ctx: &Context<'_>) -> Option<Box<SmallMatching>> {
        let state = ctx.state();
        let bases: Vec<i64> = vars.iter().map(|v| state.dense_base(v.index)).collect::<Option<_>>()?;
        if vars.iter().any(|v| state.num_words(v.index) != 1) || vars.len() > 64 {
            return None;
        }
        // In i128: a value and an offset may each be 2^62.
        let shifted = |value: i64, offset: i64| i128::from(value) + i128::from(offset);
        let lo = bases.iter().zip(offsets).map(|(&b, &o)| shifted(b, o)).min()?;
        let hi = vars.iter().zip(offsets).map(|(v, &o)| shifted(ctx.max(*v), o)).max()?;
        if hi - lo >= 64 {
            return None;
        }
        let mut small = Box::new(SmallMatching {
            shift: [0; 64],
            address: [0; 64],
            before: [0; 64],
            core: Core::new(vars.len()),
            complete_next: None,
        });
        for (p, (b, o)) in bases.iter().zip(offsets).enumerate() {
            small.shift[p] = (shifted(*b, *o) - lo) as u8;
            small.address[p] = state.word_address(vars[p].index);
        }
        Some(small)
    }

    /// Reads the domains into `before` and the core.
    #[inline]
    fn load(&mut self, ctx: &Context<'_>) {
        let state = ctx.state();
        for p in 0..self.core.n {
            let word = state.word_at(self.address[p]) << self.shift[p];
            self.before[p] = word;
            self.core.dom[p] = word;
        }
    }

    /// Writes the core's domains back to the state.
    #[inline]
    fn store(&self, vars: &[VarId], ctx: &mut Context<'_>) -> PropagationResult {
        // Which variables changed, without a branch per variable; then only those.
        let mut changed = 0u64;
        for p in 0..self.core.n {
            changed |= u64::from(self.core.dom[p] != self.before[p]) << p;
        }
        while changed != 0 {
            let p = pop_lowest(&mut changed);
            ctx.narrow_single_word(vars[p].index, self.core.dom[p] >> self.shift[p])?;
        }
        Ok(())
    }

    /// The cheap pass ([`Core::cheap`]) on the variables' domains. Returns
    /// whether the matching pass can still remove something.
    pub(super) fn cheap(&mut self, vars: &[VarId], ctx: &mut Context<'_>) -> Result<bool, Conflict> {
        ctx.count_checks(self.core.n as u64);
        self.load(ctx);
        let needs_matching = self.core.cheap()?;
        self.store(vars, ctx)?;
        Ok(needs_matching)
    }

    /// The complete pass ([`Core::matching`]) on the variables' domains.
    pub(super) fn propagate(&mut self, vars: &[VarId], ctx: &mut Context<'_>) -> PropagationResult {
        ctx.count_checks(self.core.n as u64);
        self.load(ctx);
        self.core.matching()?;
        self.store(vars, ctx)
    }
}

impl Core {
    /// A core for `n` variables (at most 64), with no matching yet.
    pub(super) fn new(n: usize) -> Core {
        Core {
            n,
            dom: [0; 64],
            var_match: [SMALL_NONE; 64],
            val_match: [SMALL_NONE; 64],
            pred: [0; 64],
            component: [0; 64],
        }
    }

    /// Tries to match variable `p`, depth first over values not yet `visited`.
    fn augment(&mut self, p: usize, visited: &mut u64) -> bool {
        let mut options = self.dom[p] & !*visited;
        while options != 0 {
            let a = pop_lowest(&mut options);
            *visited |= 1u64 << a;
            let owner = self.val_match[a];
            if owner == SMALL_NONE || self.augment(owner as usize, visited) {
                self.var_match[p] = a as u8;
                self.val_match[a] = p as u8;
                return true;
            }
        }
        false
    }

    fn unmatch(&mut self, p: usize) {
        let a = self.var_match[p];
        if a != SMALL_NONE {
            self.val_match[a as usize] = SMALL_NONE;
            self.var_match[p] = SMALL_NONE;
        }
    }

    /// Removes the values of fixed variables from the others until nothing
    /// changes; returns the unfixed variables and the values taken by fixed
    /// ones. With `matching`, fixed variables are also matched to their values.
    #[inline]
    fn eliminate(&mut self, matching: bool) -> Result<(u64, u64), Conflict> {
        let n = self.n;
        let mut taken = 0u64;
        let mut free_vars = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        loop {
            let mut newly = 0u64;
            let mut rest = free_vars;
            while rest != 0 {
                let p = pop_lowest(&mut rest);
                let d = self.dom[p] & !taken;
                self.dom[p] = d;
                if d & d.wrapping_sub(1) == 0 {
                    // Empty, or fixed: two fixed variables on one value is a conflict.
                    if d == 0 || newly & d != 0 {
                        return Err(Conflict);
                    }
                    newly |= d;
                    free_vars &= !(1u64 << p);
                }
            }
            if newly == 0 {
                break;
            }
            taken |= newly;
        }
        if matching {
            self.match_fixed(!free_vars & if n == 64 { u64::MAX } else { (1u64 << n) - 1 });
        }
        Ok((free_vars, taken))
    }

    /// Matches the variables of `fixed` (each with one value) to their values.
    #[inline]
    fn match_fixed(&mut self, mut fixed: u64) {
        while fixed != 0 {
            let p = pop_lowest(&mut fixed);
            let a = self.dom[p].trailing_zeros() as usize;
            if self.var_match[p] as usize != a {
                self.unmatch(p);
                let owner = self.val_match[a];
                if owner != SMALL_NONE {
                    self.unmatch(owner as usize);
                }
                self.var_match[p] = a as u8;
                self.val_match[a] = p as u8;
            }
        }
    }

    /// Everything reachable from `start` along the edges whose reverse is
    /// `pred` (every edge ends at one of `targets`, a mask) without leaving
    /// `within`. Each round asks only the targets not reached yet.
    #[inline]
    fn forward(pred: &[u64; 64], targets: u64, start: u64, within: u64) -> u64 {
        let mut seen = start;
        let mut frontier = start;
        while frontier != 0 {
            let mut next = 0u64;
            let mut rest = targets & within & !seen;
            while rest != 0 {
                let b = pop_lowest(&mut rest);
                next |= u64::from(pred[b] & frontier != 0) << b;
            }
            frontier = next;
            seen |= frontier;
        }
        seen
    }

    /// Everything reachable from `start` along `edges` without leaving `within`.
    #[inline]
    fn closure(edges: &[u64; 64], start: u64, within: u64) -> u64 {
        let mut seen = start;
        let mut frontier = start;
        while frontier != 0 {
            let mut next = 0u64;
            while frontier != 0 {
                next |= edges[pop_lowest(&mut frontier)];
            }
            frontier = next & within & !seen;
            seen |= frontier;
        }
        seen
    }

    /// The cheap pass: value elimination and hidden singles (a value that only
    /// one variable can still take goes to it), to their fixpoint. Linear in the
    /// scope; the matching then runs once the cheap cascades are over.
    ///
    /// Returns whether the matching pass can still remove something. It cannot
    /// once at most two variables are unfixed (each with two values or more, any
    /// value extends to a matching), nor with three when every value must be
    /// taken (a Hall set of two would leave the third variable a value nobody
    /// else holds: a hidden single, already assigned).
    pub(super) fn cheap(&mut self) -> Result<bool, Conflict> {
        let needs_matching = loop {
            let (free_vars, taken) = self.eliminate(false)?;
            let (mut once, mut twice) = (0u64, 0u64);
            let mut rest = free_vars;
            while rest != 0 {
                let d = self.dom[pop_lowest(&mut rest)];
                twice |= once & d;
                once |= d;
            }
            let available = (once | taken).count_ones() as usize;
            if available < self.n {
                return Err(Conflict);
            }
            // Only when there are exactly as many values as variables must every
            // value be taken, and a value only one variable holds go to it.
            let tight = available == self.n;
            let singles = if tight { once & !twice } else { 0 };
            if singles == 0 {
                let dom = &self.dom;
                break hall_set_possible(BitIndices(free_vars).map(|p| dom[p].count_ones()), tight);
            }
            let mut rest = free_vars;
            while rest != 0 {
                let p = pop_lowest(&mut rest);
                let mine = self.dom[p] & singles;
                if mine != 0 {
                    if mine & (mine - 1) != 0 {
                        // Two values that must both be taken, and only by this variable.
                        return Err(Conflict);
                    }
                    self.dom[p] = mine;
                }
            }
        };
        Ok(needs_matching)
    }

    /// The complete pass: Régin's domain consistency, on `dom`.
    pub(super) fn matching(&mut self) -> PropagationResult {
        // Value elimination first, as Gecode does before the matching: the
        // values of fixed variables leave the others, repeatedly. What remains
        // for the matching is the unfixed variables and their values, which
        // late in a search is a small graph.
        let (free_vars, taken) = self.eliminate(true)?;
        self.match_free(free_vars, taken).map(|_| ())
    }

    /// The complete pass when value elimination has nothing to do: the
    /// variables outside `free_vars` are fixed, to distinct values (`taken`),
    /// and none of `free_vars` holds one of those (the caller knows it, as
    /// the system of all-differents does after its first tier). Returns
    /// whether it narrowed a domain, so that a caller without one need not
    /// compare them. Always inlined into its one caller, the system's
    /// matching tier: LLVM's own choice flips with unrelated changes (out
    /// of line, this and `hall_set_possible` each cost the system's default
    /// run on a 25x25 sudoku 2% more instructions, callgrind).
    #[inline(always)]
    pub(super) fn matching_after_elimination(&mut self, free_vars: u64, taken: u64) -> Result<bool, Conflict> {
        let all = if self.n == 64 { u64::MAX } else { (1u64 << self.n) - 1 };
        self.match_fixed(!free_vars & all);
        self.match_free(free_vars, taken)
    }

    /// The matching pass once value elimination is done: the variables
    /// outside `free_vars` are fixed, matched to their values (`taken`), and
    /// no variable of `free_vars` has one of those ([`Core::match_fixed`]).
    /// Returns whether it narrowed a domain.
    fn match_free(&mut self, free_vars: u64, taken: u64) -> Result<bool, Conflict> {
        if free_vars.count_ones() <= 2 {
            // Two unfixed variables, each with two values or more, always have
            // a matching through any of their values: nothing more to remove.
            return Ok(false);
        }
        // Match the free variables (keeping the matched edges still present).
        let (mut values, mut used, mut unmatched) = (0u64, 0u64, 0u64);
        let mut rest = free_vars;
        while rest != 0 {
            let p = pop_lowest(&mut rest);
            values |= self.dom[p];
            let a = self.var_match[p];
            if a != SMALL_NONE && self.dom[p] & (1u64 << a) != 0 {
                used |= 1u64 << a;
            } else {
                self.unmatch(p);
                unmatched |= 1u64 << p;
            }
        }
        if values.count_ones() < free_vars.count_ones() {
            return Err(Conflict);
        }
        // A value no free variable is matched to, when there is one, before
        // any augmenting path (their search is most of the work otherwise).
        let mut rest = unmatched;
        while rest != 0 {
            let p = pop_lowest(&mut rest);
            let spare = self.dom[p] & !used;
            if spare != 0 {
                let a = spare.trailing_zeros() as usize;
                used |= 1u64 << a;
                self.var_match[p] = a as u8;
                self.val_match[a] = p as u8;
            }
        }
        let mut rest = unmatched;
        while rest != 0 {
            let p = pop_lowest(&mut rest);
            let mut visited = taken;
            if self.var_match[p] == SMALL_NONE && !self.augment(p, &mut visited) {
                return Err(Conflict);
            }
        }
        // Edges a -> b between the free variables' values, kept backwards
        // (`pred`): the forward closure asks each matched value it has not
        // reached yet whether an edge from the frontier reaches it, a loop
        // without a branch on the edges rather than one over each value's
        // edges.
        let mut rows = values;
        while rows != 0 {
            self.pred[pop_lowest(&mut rows)] = 0;
        }
        let mut matched = 0u64;
        let mut rest = free_vars;
        while rest != 0 {
            let p = pop_lowest(&mut rest);
            let b = self.var_match[p];
            matched |= 1u64 << b;
            self.pred[b as usize] |= self.dom[p] & !(1u64 << b);
        }
        let targets = matched;
        // Values reachable from a free value (free values included).
        let free_values = values & !matched;
        let from_free = if free_values == 0 { 0 } else { Self::forward(&self.pred, targets, free_values, values) };
        // Most calls remove nothing, and two closures say so: every value is
        // reachable from a free value, or (no free value) the value graph is
        // one strongly connected component. Every edge is then supported.
        if from_free == values {
            return Ok(false);
        }
        if free_values == 0 {
            let start = values & values.wrapping_neg();
            if Self::forward(&self.pred, targets, start, values) == values
                && Self::closure(&self.pred, start, values) == values
            {
                return Ok(false);
            }
        }
        // Strongly connected components by forward-backward search on bitsets:
        // the component of `v` is what `v` reaches and what reaches `v`.
        let mut remaining = values;
        while remaining != 0 {
            let v = remaining.trailing_zeros() as usize;
            let start = 1u64 << v;
            let forward = Self::forward(&self.pred, targets, start, remaining);
            let backward = Self::closure(&self.pred, start, remaining);
            let component = forward & backward;
            let mut members = component;
            while members != 0 {
                self.component[pop_lowest(&mut members)] = component;
            }
            remaining &= !component;
        }
        // A value stays if it is matched, in the component of the matched value
        // (an even alternating cycle), or reachable from a free value.
        let (mut rest, mut removed) = (free_vars, 0u64);
        while rest != 0 {
            let p = pop_lowest(&mut rest);
            let b = self.var_match[p] as usize;
            let kept = (1u64 << b) | self.component[b] | from_free;
            removed |= self.dom[p] & !kept;
            self.dom[p] &= kept;
        }
        Ok(removed != 0)
    }
}

/// Whether unfixed variables with domains of the given sizes (each two values
/// or more, after the cheap pass) may hold a Hall set that the matching pass
/// would act on: `k` variables whose domains together hold only `k` values,
/// for some `2 <= k < m` (`m` the number of unfixed variables; `k < m - 1`
/// when `tight`, every remaining value must be taken).
///
/// The matching pass removes value `a` from `x` only when `x` lies outside
/// such a set and `a` inside its values (Régin 1994; with `k = m` the set is
/// every unfixed variable and removes nothing from them). Its `k` variables
/// each have at most `k` values, so if for no `k` in that range at least `k`
/// variables have at most `k` values, the pass cannot remove anything and is
/// skipped. Early in a sudoku, when domains are wide, this spares most
/// matching passes. Always inlined, as `Core::matching_after_elimination`.
#[inline(always)]
pub(super) fn hall_set_possible(sizes: impl Iterator<Item = u32>, tight: bool) -> bool {
    // How many unfixed variables have each size.
    let mut by_size = [0u8; 65];
    let mut m = 0usize;
    for size in sizes {
        by_size[(size as usize).min(64)] += 1;
        m += 1;
    }
    // When every value must be taken, a Hall set of `m - 1` variables leaves
    // the last value to the last variable alone: a hidden single, which the
    // cheap pass has already assigned.
    let limit = if tight { m.saturating_sub(1) } else { m };
    let mut at_most = 0usize;
    for (k, &count) in by_size.iter().enumerate().take(limit).skip(2) {
        at_most += usize::from(count);
        if at_most >= k {
            return true;
        }
    }
    false
}

/// The indices of the set bits of a word, lowest first.
#[derive(Clone, Copy, Debug)]
pub(super) struct BitIndices(pub(super) u64);

impl Iterator for BitIndices {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        (self.0 != 0).then(|| pop_lowest(&mut self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// Whether the variables `rows[k..]` can take distinct values, none in `used`.
    fn extends(rows: &[u64], k: usize, used: u64) -> bool {
        k == rows.len() || BitIndices(rows[k] & !used).any(|a| extends(rows, k + 1, used | 1 << a))
    }

    /// The domain consistent domains by brute force: a value stays if some
    /// assignment of distinct values uses it; `None` when there is none.
    /// Loads `rows` as the core's domains, keeping of the last case's
    /// matching only the pairs that are still consistent with each other.
    fn load_rows(core: &mut Core, rows: &[u64]) {
        let n = rows.len();
        core.n = n;
        core.dom[..n].copy_from_slice(rows);
        for k in 0..n {
            if core.var_match[k] != SMALL_NONE && core.val_match[core.var_match[k] as usize] != k as u8 {
                core.var_match[k] = SMALL_NONE;
            }
        }
        for a in 0..64 {
            let p = core.val_match[a];
            if p != SMALL_NONE && (p as usize >= n || core.var_match[p as usize] != a as u8) {
                core.val_match[a] = SMALL_NONE;
            }
        }
    }

    fn brute_force(rows: &[u64]) -> Option<Vec<u64>> {
        let kept: Vec<u64> = (0..rows.len())
            .map(|k| {
                BitIndices(rows[k])
                    .filter(|&a| {
                        let mut rest = rows.to_vec();
                        rest[k] = 1 << a;
                        extends(&rest, 0, 0)
                    })
                    .fold(0, |d, a| d | 1 << a)
            })
            .collect();
        extends(rows, 0, 0).then_some(kept)
    }

    /// The matching pass, its early exit included (most calls remove
    /// nothing), against brute force, on random small all-differents with
    /// fixed variables, tight and loose, from fresh and from stale matchings.
    #[test]
    fn the_matching_pass_is_domain_consistency() {
        let mut rng = Rng::new(11);
        let (mut pruned, mut failed, mut unchanged) = (0, 0, 0);
        let mut core = Core::new(0);
        for case in 0..20_000 {
            let n = 2 + rng.below(8) as usize;
            let values = n + rng.below(3) as usize;
            let rows: Vec<u64> = (0..n)
                .map(|_| match rng.below(6) {
                    0 => 1 << rng.below(values as u64),
                    _ => (rng.next_u64() | rng.next_u64()) & ((1 << values) - 1) | 1 << rng.below(values as u64),
                })
                .collect();
            // Every fourth case starts from the last case's matching.
            if case % 4 != 0 {
                core = Core::new(n);
            }
            load_rows(&mut core, &rows);
            match (core.matching(), brute_force(&rows)) {
                (Ok(()), Some(kept)) => {
                    assert_eq!(core.dom[..n], kept[..], "{rows:?}");
                    if kept == rows { unchanged += 1 } else { pruned += 1 }
                }
                (Err(_), None) => failed += 1,
                (ours, theirs) => panic!("{rows:?}: {ours:?} against {theirs:?}"),
            }
        }
        assert!(pruned > 1000 && failed > 1000 && unchanged > 1000, "{pruned} {failed} {unchanged}");
    }

    /// `hall_set_possible` against its definition, on few and many variables.
    #[test]
    fn hall_set_possible_is_its_definition() {
        let mut rng = Rng::new(13);
        let (mut yes, mut no) = (0, 0);
        for _ in 0..20_000 {
            let most = if rng.below(4) == 0 { 40 } else { 18 };
            let m = 1 + rng.below(most) as usize;
            let wide = 2 + rng.below(63) as u32;
            let sizes: Vec<u32> = (0..m).map(|_| 2 + rng.below(u64::from(wide.min(m as u32 + 3))) as u32).collect();
            let tight = rng.below(2) == 0;
            let limit = if tight { m.saturating_sub(1) } else { m };
            let expected = (2..limit).any(|k| sizes.iter().filter(|&&s| s as usize <= k).count() >= k);
            assert_eq!(hall_set_possible(sizes.iter().copied(), tight), expected, "{sizes:?} {tight}");
            if expected { yes += 1 } else { no += 1 }
        }
        assert!(yes > 2000 && no > 2000, "{yes} {no}");
    }

    /// The pass without its value elimination, on units where that has
    /// nothing to do (fixed variables on distinct values none of the others
    /// hold, as the system's first tier leaves them), against brute force.
    #[test]
    fn the_pass_after_elimination_is_domain_consistency() {
        let mut rng = Rng::new(12);
        let (mut pruned, mut failed, mut unchanged) = (0, 0, 0);
        let mut core = Core::new(0);
        while pruned + failed + unchanged < 10_000 {
            let n = 2 + rng.below(8) as usize;
            let values = n + rng.below(3) as usize;
            let (mut taken, mut free) = (0u64, 0u64);
            let mut rows = Vec::with_capacity(n);
            for k in 0..n {
                let a = rng.below(values as u64);
                if rng.below(4) == 0 && taken & 1 << a == 0 {
                    taken |= 1 << a;
                    rows.push(1 << a);
                } else {
                    free |= 1 << k;
                    let some = 1 << rng.below(values as u64) | 1 << rng.below(values as u64);
                    rows.push((rng.next_u64() & rng.next_u64() | some) & ((1 << values) - 1));
                }
            }
            for k in BitIndices(free) {
                rows[k] &= !taken;
            }
            if BitIndices(free).any(|k| rows[k].count_ones() < 2) {
                continue;
            }
            // Half the cases start from the last case's matching.
            if rng.below(2) == 0 {
                core = Core::new(n);
            }
            load_rows(&mut core, &rows);
            match (core.matching_after_elimination(free, taken), brute_force(&rows)) {
                (Ok(narrowed), Some(kept)) => {
                    assert_eq!(core.dom[..n], kept[..], "{rows:?}");
                    assert_eq!(narrowed, kept != rows, "{rows:?}");
                    if kept == rows { unchanged += 1 } else { pruned += 1 }
                }
                (Err(_), None) => failed += 1,
                (ours, theirs) => panic!("{rows:?}: {ours:?} against {theirs:?}"),
            }
        }
        assert!(pruned > 1000 && failed > 200 && unchanged > 1000, "{pruned} {failed} {unchanged}");
    }
}
