//! The future degrees and dom/wdeg's weights (Boussemart, Hemery, Lecoutre
//! & Sais 2004), kept current from one variable choice to the next instead
//! of weighed at each: a choice then costs one pass over the free
//! variables, not one over each free variable's constraints.
//!
//! A constraint counts toward a variable's future degree, and its weight
//! (one plus the failures it caused in this run) toward the variable's
//! weighted degree, while its scope holds two distinct free variables or
//! more. Per constraint, the number of its distinct variables in the free
//! list is kept; it changes only as the free list does, so each choice
//! brings it up to date with the variables that came back since the last
//! choice (a backtrack: the free list is a sparse set whose count is
//! trailed, so they follow the ones still counted) and those dropped by
//! this choice's compaction. A constraint whose count crosses two changes
//! the sums of its variables; a failure adds one to them while it counts.
//! The sums are exact: the choices, ties included, are those of weighing
//! every constraint at each choice (checked so in debug builds and under
//! the `checks` feature at every choice).

use super::Solver;

/// Per variable, the number of constraints on it with two distinct free
/// variables or more and the sum of their weights, as of the last choice.
#[derive(Debug)]
pub(super) struct FutureDegrees {
    /// Per variable, the constraints whose scope holds it, each once:
    /// `constraints[var_starts[x]..var_starts[x + 1]]`.
    var_starts: Vec<u32>,
    constraints: Vec<u32>,
    /// Per constraint, the distinct variables of its scope:
    /// `vars[scope_starts[c]..scope_starts[c + 1]]`.
    scope_starts: Vec<u32>,
    vars: Vec<u32>,
    /// Per constraint, its distinct variables in the counted free list.
    free_in: Vec<u32>,
    /// Per variable (free or not), the constraints on it that count and
    /// the sum of their weights.
    degree: Vec<u64>,
    weight: Vec<u64>,
    /// The free list's prefix counted: `free[..counted]`.
    counted: usize,
    /// When a queue of choices keeps the ratios (the sibling module
    /// `choice_queue`), the variables whose degree and weight rose since it
    /// last took them (a variable once per rise): their ratios fell.
    raised: Option<Vec<u32>>,
    /// The recount's scratch, per constraint: not asked yet, or whether it
    /// has two free variables (kept, so that the check does not allocate).
    #[cfg(any(debug_assertions, feature = "checks"))]
    asked: std::cell::RefCell<Vec<Option<bool>>>,
}

impl FutureDegrees {
    /// The tables of a model's scopes, nothing counted yet.
    pub(super) fn new(num_vars: usize, scopes: &[&[crate::ids::VarId]]) -> FutureDegrees {
        // The constraint that last listed each variable, to list it once.
        let mut listed_by = vec![u32::MAX; num_vars];
        let mut scope_starts = Vec::with_capacity(scopes.len() + 1);
        let mut vars = Vec::new();
        let mut var_starts = vec![0u32; num_vars + 1];
        scope_starts.push(0);
        for (c, scope) in scopes.iter().enumerate() {
            for var in *scope {
                let x = var.index();
                if std::mem::replace(&mut listed_by[x], c as u32) != c as u32 {
                    vars.push(x as u32);
                    var_starts[x + 1] += 1;
                }
            }
            scope_starts.push(vars.len() as u32);
        }
        for x in 0..num_vars {
            var_starts[x + 1] += var_starts[x];
        }
        let mut fill = var_starts.clone();
        let mut constraints = vec![0u32; vars.len()];
        for c in 0..scopes.len() {
            for &x in &vars[scope_starts[c] as usize..scope_starts[c + 1] as usize] {
                constraints[fill[x as usize] as usize] = c as u32;
                fill[x as usize] += 1;
            }
        }
        FutureDegrees {
            var_starts,
            constraints,
            scope_starts,
            vars,
            free_in: vec![0; scopes.len()],
            degree: vec![0; num_vars],
            weight: vec![0; num_vars],
            counted: 0,
            raised: None,
            #[cfg(any(debug_assertions, feature = "checks"))]
            asked: std::cell::RefCell::new(vec![None; scopes.len()]),
        }
    }

    /// Notes from now on the variables whose sums rise, for a queue of
    /// choices to take ([`FutureDegrees::take_raised`]).
    pub(super) fn note_raises(&mut self) {
        self.raised = Some(Vec::new());
    }

    /// Calls `f` with each variable whose sums rose since the last call
    /// (a variable once per rise), and forgets them.
    pub(super) fn take_raised(&mut self, mut f: impl FnMut(u32, (u64, u64))) {
        let Some(mut raised) = self.raised.take() else { return };
        for &x in &raised {
            f(x, self.of(x));
        }
        raised.clear();
        self.raised = Some(raised);
    }

    /// Counts nothing: at the start of a run (the weights start again).
    pub(super) fn reset(&mut self) {
        self.free_in.iter_mut().for_each(|n| *n = 0);
        self.degree.iter_mut().for_each(|n| *n = 0);
        self.weight.iter_mut().for_each(|n| *n = 0);
        self.counted = 0;
        if let Some(raised) = &mut self.raised {
            raised.clear();
        }
    }

    /// The future degree and the weighted degree of a free variable `x`.
    #[inline]
    pub(super) fn of(&self, x: u32) -> (u64, u64) {
        (self.degree[x as usize], self.weight[x as usize])
    }

    /// Counts the variables of `free` (the free list before this choice's
    /// compaction) that came back since the last choice.
    pub(super) fn restore(&mut self, free: &[u32], failed_by: &[u64]) {
        if free.len() < self.counted {
            // Not reached: the count only comes back to earlier values,
            // none smaller than the last choice's. Counted again, to stay exact.
            debug_assert!(false, "the free list shrank between choices");
            self.reset();
        }
        for &x in &free[self.counted..] {
            self.add(x, failed_by);
        }
        self.counted = free.len();
    }

    /// Uncounts `dropped`, the variables this choice's compaction took
    /// from the end of the counted free list.
    pub(super) fn drop_all(&mut self, dropped: &[u32], failed_by: &[u64]) {
        for &x in dropped {
            self.remove(x, failed_by);
        }
        self.counted -= dropped.len();
    }

    /// Constraint `c` caused one more failure: its weight grew by one.
    pub(super) fn bump(&mut self, c: u32) {
        if self.free_in[c as usize] >= 2 {
            self.shift(c, |(degree, weight)| (degree, weight + 1));
            self.note_raised(c);
        }
    }

    fn add(&mut self, x: u32, failed_by: &[u64]) {
        for i in self.var_starts[x as usize]..self.var_starts[x as usize + 1] {
            let c = self.constraints[i as usize];
            self.free_in[c as usize] += 1;
            if self.free_in[c as usize] == 2 {
                let w = failed_by[c as usize] + 1;
                self.shift(c, |(degree, weight)| (degree + 1, weight + w));
                self.note_raised(c);
            }
        }
    }

    fn remove(&mut self, x: u32, failed_by: &[u64]) {
        for i in self.var_starts[x as usize]..self.var_starts[x as usize + 1] {
            let c = self.constraints[i as usize];
            if self.free_in[c as usize] == 2 {
                let w = failed_by[c as usize] + 1;
                self.shift(c, |(degree, weight)| (degree - 1, weight - w));
            }
            self.free_in[c as usize] -= 1;
        }
    }

    /// Notes that the sums of `c`'s variables rose, where a queue asks.
    #[inline]
    fn note_raised(&mut self, c: u32) {
        if let Some(raised) = &mut self.raised {
            let scope = self.scope_starts[c as usize] as usize..self.scope_starts[c as usize + 1] as usize;
            raised.extend_from_slice(&self.vars[scope]);
        }
    }

    /// Applies `f` to the sums of each variable of `c`'s scope.
    #[inline]
    fn shift(&mut self, c: u32, f: impl Fn((u64, u64)) -> (u64, u64)) {
        let scope = self.scope_starts[c as usize] as usize..self.scope_starts[c as usize + 1] as usize;
        for &x in &self.vars[scope] {
            let x = x as usize;
            (self.degree[x], self.weight[x]) = f((self.degree[x], self.weight[x]));
        }
    }
}

impl Solver<'_> {
    /// Checks the counted sums of the free variables `free` against
    /// weighing each one's constraints (its watchers) afresh, as a
    /// choice did before they were counted: per constraint, once, whether
    /// its scope holds two distinct unassigned variables.
    #[cfg(any(debug_assertions, feature = "checks"))]
    pub(super) fn check_future_degrees(&self, free: &[u32]) {
        let Some(future) = &self.future else { return };
        // Per constraint: not asked yet, or whether it has two.
        let mut two = future.asked.borrow_mut();
        two.iter_mut().for_each(|asked| *asked = None);
        for &x in free {
            assert!(self.is_unassigned(x), "variable {x} is free");
            let mut expected = (0, 0);
            let mut previous = u32::MAX;
            for watch in self.program.watchers.of(x) {
                let c = watch.constraint;
                if std::mem::replace(&mut previous, c) == c {
                    continue;
                }
                let has_two = *two[c as usize].get_or_insert_with(|| {
                    let mut unassigned = self.program.scopes[c as usize].iter().filter(|v| self.is_unassigned(v.index));
                    let first = unassigned.next().map(|v| v.index);
                    unassigned.any(|v| Some(v.index) != first)
                });
                if has_two {
                    expected.0 += 1;
                    expected.1 += self.run.failed_by[c as usize] + 1;
                }
            }
            assert_eq!(future.of(x), expected, "the future degree and weight of variable {x}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::FutureDegrees;
    use crate::ids::VarId;
    use crate::rng::Rng;

    /// The sums of every variable, weighed afresh: the constraints on `x`
    /// whose scope holds another free variable.
    fn recount(scopes: &[Vec<VarId>], free: &[u32], failed_by: &[u64], x: u32) -> (u64, u64) {
        let mut sums = (0, 0);
        for (c, scope) in scopes.iter().enumerate() {
            let on_x = scope.iter().any(|v| v.index == x);
            if on_x && scope.iter().any(|v| v.index != x && free.contains(&v.index)) {
                sums.0 += 1;
                sums.1 += failed_by[c] + 1;
            }
        }
        sums
    }

    /// Random scopes (with repeated variables), a free list that loses and
    /// regains variables as the search's does (a sparse set, a stack of
    /// counts) and random failures: the counted sums of the free variables
    /// equal a recount after every step.
    #[test]
    fn the_counted_sums_equal_a_recount_through_descents_backtracks_and_failures() {
        let mut rng = Rng::new(7);
        for _ in 0..50 {
            let n = 1 + rng.below(8) as u32;
            let scopes: Vec<Vec<VarId>> = (0..rng.below(10))
                .map(|_| {
                    (0..1 + rng.below(4)).map(|_| VarId { index: rng.below(u64::from(n)) as u32, model: 0 }).collect()
                })
                .collect();
            let borrowed: Vec<&[VarId]> = scopes.iter().map(Vec::as_slice).collect();
            let mut future = FutureDegrees::new(n as usize, &borrowed);
            let mut failed_by = vec![0u64; scopes.len()];
            let mut free: Vec<u32> = (0..n).collect();
            // The free list's count at each level, the root's first.
            let mut levels = vec![n as usize];
            for _ in 0..60 {
                let count = *levels.last().expect("the root");
                future.restore(&free[..count], &failed_by);
                match rng.below(3) {
                    // A descent: some free variables dropped to the end.
                    0 if count > 0 => {
                        let mut kept = count;
                        for _ in 0..=rng.below(count as u64) {
                            let i = rng.below(kept as u64) as usize;
                            kept -= 1;
                            free.swap(i, kept);
                        }
                        future.drop_all(&free[kept..count], &failed_by);
                        levels.push(kept);
                    }
                    // A backtrack: a level's count undone.
                    1 if levels.len() > 1 => {
                        levels.pop();
                    }
                    _ if !scopes.is_empty() => {
                        let c = rng.below(scopes.len() as u64) as usize;
                        failed_by[c] += 1;
                        future.bump(c as u32);
                    }
                    _ => {}
                }
                let count = *levels.last().expect("the root");
                future.restore(&free[..count], &failed_by);
                for &x in &free[..count] {
                    assert_eq!(future.of(x), recount(&scopes, &free[..count], &failed_by, x));
                }
            }
            future.reset();
            failed_by.iter_mut().for_each(|f| *f = 0);
            future.restore(&free, &failed_by);
            for &x in &free {
                assert_eq!(future.of(x), recount(&scopes, &free, &failed_by, x));
            }
        }
    }
}
