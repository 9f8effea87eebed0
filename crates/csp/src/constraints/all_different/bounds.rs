//! Bounds consistency for all-different (López-Ortiz, Quimper, Tromp & van
//! Beek 2003, "A fast and simple algorithm for bounds consistency of the
//! alldifferent constraint"): the strength for interval domains.
//!
//! A set of variables whose shifted domains all lie within an interval of as
//! many values as there are variables (a Hall interval) takes every value of
//! it, so every other variable's bounds leave it. The algorithm finds all such
//! intervals in O(n log n): sort the domains by their lower and by their upper
//! bounds, number the distinct bounds, and sweep the domains by increasing
//! upper bound, keeping for each bound how many values are still free to its
//! left in a union-find-like forest (`t`, with path compression), and the
//! Hall intervals found so far in a second one (`h`); the sweep by decreasing
//! lower bound moves the upper bounds. Every bound left then has a support in
//! the relaxation where each domain is its interval; on interval domains this
//! is the hull of domain consistency, the best an interval can hold.
//!
//! The bounds are computed in `i128`: a value and an offset may each be
//! `±2^62`, so a shifted value needs 64 bits and a little room.

use crate::constraint::Propagator;
use crate::ids::VarId;
use crate::kernel::{Conflict, Context, Event, Explanation, PropagationResult};

use super::pairwise::{self, Done};

/// Bounds-consistent all-different over `vars[i] + offsets[i]`.
pub(super) struct BoundsConsistency<'c> {
    vars: &'c [VarId],
    offsets: &'c [i64],
    /// Per variable: its shifted bounds (`hi` one past the largest value) and
    /// their ranks among the distinct bounds.
    lo: Vec<i128>,
    hi: Vec<i128>,
    min_rank: Vec<usize>,
    max_rank: Vec<usize>,
    /// The variables by increasing `lo` and by increasing `hi`.
    by_min: Vec<usize>,
    by_max: Vec<usize>,
    /// The distinct bounds, with a sentinel at each end; `count` of them.
    bounds: Vec<i128>,
    count: usize,
    /// The forests of the sweep: free-value links, their capacities, Hall links.
    t: Vec<usize>,
    d: Vec<i128>,
    h: Vec<usize>,
    /// The positions plain backtracking has checked (see [`pairwise::check_partial`]).
    checked: Done,
}

impl<'c> BoundsConsistency<'c> {
    pub(super) fn new(vars: &'c [VarId], offsets: &'c [i64]) -> Self {
        let n = vars.len();
        BoundsConsistency {
            vars,
            offsets,
            lo: vec![0; n],
            hi: vec![0; n],
            min_rank: vec![0; n],
            max_rank: vec![0; n],
            by_min: (0..n).collect(),
            by_max: (0..n).collect(),
            bounds: vec![0; 2 * n + 2],
            count: 0,
            t: vec![0; 2 * n + 2],
            d: vec![0; 2 * n + 2],
            h: vec![0; 2 * n + 2],
            checked: Done::new(n),
        }
    }

    /// Reads the shifted bounds, sorts them and ranks the distinct ones.
    fn load(&mut self, ctx: &Context<'_>) {
        for (p, (&var, &offset)) in self.vars.iter().zip(self.offsets).enumerate() {
            self.lo[p] = i128::from(ctx.min(var)) + i128::from(offset);
            self.hi[p] = i128::from(ctx.max(var)) + i128::from(offset) + 1;
        }
        let (lo, hi) = (&self.lo, &self.hi);
        self.by_min.sort_unstable_by_key(|&p| lo[p]);
        self.by_max.sort_unstable_by_key(|&p| hi[p]);
        let n = self.vars.len();
        let mut min = lo[self.by_min[0]];
        let mut max = hi[self.by_max[0]];
        let mut last = min - 2;
        let mut count = 0;
        self.bounds[0] = last;
        let (mut i, mut j) = (0, 0);
        // Merge the two sorted sequences; a lower bound equal to an upper one
        // goes first, so both get the same rank.
        loop {
            if i < n && min <= max {
                if min != last {
                    count += 1;
                    last = min;
                    self.bounds[count] = min;
                }
                self.min_rank[self.by_min[i]] = count;
                i += 1;
                if i < n {
                    min = lo[self.by_min[i]];
                }
            } else {
                if max != last {
                    count += 1;
                    last = max;
                    self.bounds[count] = max;
                }
                self.max_rank[self.by_max[j]] = count;
                j += 1;
                if j == n {
                    break;
                }
                max = hi[self.by_max[j]];
            }
        }
        self.count = count;
        self.bounds[count + 1] = self.bounds[count] + 2;
    }

    /// Raises lower bounds past the Hall intervals below them. `Ok(true)` if
    /// a domain changed.
    fn filter_lower(&mut self, ctx: &mut Context<'_>) -> Result<bool, Conflict> {
        let (t, d, h, bounds) = (&mut self.t, &mut self.d, &mut self.h, &self.bounds);
        for i in 1..=self.count + 1 {
            t[i] = i - 1;
            h[i] = i - 1;
            d[i] = bounds[i] - bounds[i - 1];
        }
        let mut changed = false;
        for &p in &self.by_max {
            let (x, y) = (self.min_rank[p], self.max_rank[p]);
            let mut z = path_max(t, x + 1);
            let j = t[z];
            d[z] -= 1;
            if d[z] == 0 {
                t[z] = z + 1;
                z = path_max(t, t[z]);
                t[z] = j;
            }
            path_set(t, x + 1, z, z);
            if d[z] < bounds[z] - bounds[y] {
                // More variables than values in bounds[y]..bounds[z].
                return Err(Conflict);
            }
            if h[x] > x {
                let w = path_max(h, h[x]);
                changed |= ctx.set_min(self.vars[p], clamp(bounds[w] - i128::from(self.offsets[p])))?;
                path_set(h, x, w, w);
            }
            if d[z] == bounds[z] - bounds[y] {
                // A Hall interval ends at y.
                let start = h[y];
                path_set(h, start, j - 1, y);
                h[y] = j - 1;
            }
        }
        Ok(changed)
    }

    /// Lowers upper bounds below the Hall intervals above them (the mirror
    /// of [`filter_lower`](Self::filter_lower)).
    fn filter_upper(&mut self, ctx: &mut Context<'_>) -> Result<bool, Conflict> {
        let (t, d, h, bounds) = (&mut self.t, &mut self.d, &mut self.h, &self.bounds);
        for i in 0..=self.count {
            t[i] = i + 1;
            h[i] = i + 1;
            d[i] = bounds[i + 1] - bounds[i];
        }
        let mut changed = false;
        for &p in self.by_min.iter().rev() {
            let (x, y) = (self.max_rank[p], self.min_rank[p]);
            let mut z = path_min(t, x - 1);
            let j = t[z];
            d[z] -= 1;
            if d[z] == 0 {
                t[z] = z - 1;
                z = path_min(t, t[z]);
                t[z] = j;
            }
            path_set(t, x - 1, z, z);
            if d[z] < bounds[y] - bounds[z] {
                return Err(Conflict);
            }
            if h[x] < x {
                let w = path_min(h, h[x]);
                changed |= ctx.set_max(self.vars[p], clamp(bounds[w] - 1 - i128::from(self.offsets[p])))?;
                path_set(h, x, w, w);
            }
            if d[z] == bounds[y] - bounds[z] {
                let start = h[y];
                path_set(h, start, j + 1, y);
                h[y] = j + 1;
            }
        }
        Ok(changed)
    }
}

/// Follows the links of `tree` up from `i` (links that grow).
fn path_max(tree: &[usize], mut i: usize) -> usize {
    while tree[i] > i {
        i = tree[i];
    }
    i
}

/// Follows the links of `tree` down from `i` (links that shrink).
fn path_min(tree: &[usize], mut i: usize) -> usize {
    while tree[i] < i {
        i = tree[i];
    }
    i
}

/// Points every link on the path from `start` to `end` at `to` (path compression).
fn path_set(tree: &mut [usize], start: usize, end: usize, to: usize) {
    let mut previous = start;
    while previous != end {
        let next = tree[previous];
        tree[previous] = to;
        previous = next;
    }
}

/// A bound as a value: one beyond every value of the range is as good as the
/// range's end (the domain then empties).
fn clamp(bound: i128) -> i64 {
    bound.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

impl Propagator for BoundsConsistency<'_> {
    fn initialise(&mut self, ctx: &mut Context<'_>) {
        self.checked.initialise(ctx);
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        ctx.count_checks(self.vars.len() as u64);
        // A changed bound can make a new Hall interval: sweep again until none does.
        loop {
            self.load(ctx);
            let lower = self.filter_lower(ctx)?;
            if lower {
                self.load(ctx);
            }
            let upper = self.filter_upper(ctx)?;
            if !lower && !upper {
                return Ok(());
            }
        }
    }

    fn interest(&self) -> Event {
        Event::Bounds
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn has_partial_check(&self) -> bool {
        true
    }

    fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
        super::explain::answer(self.vars, self.offsets, why)
    }

    fn check_partial(&mut self, ctx: &mut Context<'_>) -> bool {
        pairwise::check_partial(self.vars, self.offsets, &mut self.checked, ctx)
    }
}
