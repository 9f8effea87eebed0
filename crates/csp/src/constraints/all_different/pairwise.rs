//! Pairwise value elimination: `all_different` as the clique of not-equals it
//! stands for (value consistency).

use crate::constraint::Propagator;
use crate::ids::VarId;
use crate::kernel::{Conflict, Context, Event, Explanation, PropagationResult, ReversibleInt};

use super::NONE;

/// Pairwise value elimination, the propagation of the clique of `x_i + o_i !=
/// x_j + o_j`: when a variable is assigned, its shifted value is removed from
/// the others.
///
/// The assigned positions already propagated are kept in a [`Done`] set, so
/// that scans touch only the others.
pub(super) struct Pairwise<'c> {
    vars: &'c [VarId],
    offsets: &'c [i64],
    done: Done,
    /// When every variable's values are consecutive: `offsets[p]` plus the value
    /// of `p`'s position 0, so that a shifted value maps to a position by one
    /// subtraction; and each variable's number of positions. Only when every
    /// shifted value lies strictly within `±2^62`, so that the subtraction
    /// cannot overflow.
    dense: Option<(Vec<i64>, Vec<u32>)>,
    /// The scope position of each model variable from `first_var` on (`NONE`
    /// if not in the scope), when the scope's variables are close together.
    first_var: u32,
    position_of: Vec<u32>,
    /// Scratch: the `(variable, value position)` pairs to remove.
    hits: Vec<(u32, u32)>,
    /// Whether the scope is model variables `k, k+1, ...` in a word-major state.
    consecutive: bool,
    /// Whether a variable of the scope is an interval, which cannot lose a
    /// value between its bounds: a done position's value may then still be
    /// in another's domain (see [`Pairwise::eliminate`]).
    intervals: bool,
}

/// The positions of an all-different whose assignment is accounted for
/// ("done": propagated, or checked against the others), as a sparse set:
/// `order[..done]` are done, `index[p]` is where `p` sits in `order`, and only
/// `done` is trailed (swaps inside `order[done..]` need no undo). The
/// positions not done are also threaded, in scope order, on a doubly linked
/// list (Knuth's dancing links): a done position is unlinked, and after a
/// backtrack the positions that are no longer done are linked back in reverse
/// order. Scans walk that list, so they touch only the positions not done, in
/// the order their domains lie in memory.
#[derive(Debug)]
pub(super) struct Done {
    order: Vec<u32>,
    index: Vec<u32>,
    cell: Option<ReversibleInt>,
    /// The list of positions not done: `next`/`prev` with the head at index `n`.
    next: Vec<u32>,
    prev: Vec<u32>,
    /// How many positions are unlinked: exactly `order[..unlinked]`.
    unlinked: usize,
}

impl Done {
    /// No position done, over a scope of `n`.
    pub(super) fn new(n: usize) -> Done {
        let n = n as u32;
        Done {
            order: (0..n).collect(),
            index: (0..n).collect(),
            cell: None,
            // A circular list through the head `n`: 0, 1, ..., n-1.
            next: (1..=n).chain(std::iter::once(0)).collect(),
            prev: std::iter::once(n).chain(0..n).collect(),
            unlinked: 0,
        }
    }

    /// Allocates the trailed count (from [`Propagator::initialise`]).
    pub(super) fn initialise(&mut self, ctx: &mut Context<'_>) {
        self.cell = Some(ctx.new_reversible_int(0));
    }

    /// The number of positions done, with the list brought up to date after
    /// a backtrack.
    #[inline]
    pub(super) fn load(&mut self, ctx: &Context<'_>) -> usize {
        let done = ctx.get(self.cell.expect("initialised")) as usize;
        self.sync(done);
        done
    }

    /// Records the number of positions done.
    #[inline]
    pub(super) fn store(&self, ctx: &mut Context<'_>, done: usize) {
        ctx.set(self.cell.expect("initialised"), done as i64);
    }

    /// Whether position `p` is among the first `done`.
    #[inline]
    pub(super) fn contains(&self, p: usize, done: usize) -> bool {
        (self.index[p] as usize) < done
    }

    /// Links back the positions a backtrack made not done (`done` fell below
    /// `unlinked`), in the reverse of the order they were unlinked.
    fn sync(&mut self, done: usize) {
        while self.unlinked > done {
            self.unlinked -= 1;
            let p = self.order[self.unlinked] as usize;
            let (before, after) = (self.prev[p] as usize, self.next[p] as usize);
            self.next[before] = p as u32;
            self.prev[after] = p as u32;
        }
    }

    /// Moves position `p` to the end of the done part, and off the list.
    pub(super) fn insert(&mut self, p: usize, done: &mut usize) {
        let at = self.index[p] as usize;
        let other = self.order[*done] as usize;
        self.order.swap(at, *done);
        self.index[other] = at as u32;
        self.index[p] = *done as u32;
        *done += 1;
        debug_assert_eq!(self.unlinked + 1, *done);
        let (before, after) = (self.prev[p] as usize, self.next[p] as usize);
        self.next[before] = after as u32;
        self.prev[after] = before as u32;
        self.unlinked = *done;
    }

    /// The first `done` positions done, in the order they were done.
    #[inline]
    pub(super) fn positions(&self, done: usize) -> &[u32] {
        &self.order[..done]
    }

    /// The positions not done, in scope order, starting after `from` (the head
    /// `n` for the first).
    #[inline]
    pub(super) fn after(&self, from: usize) -> usize {
        self.next[from] as usize
    }
}

/// Plain backtracking's check of an all-different (every strength's: the
/// level decides what runs, not the propagator): compare each newly assigned
/// variable with the assigned ones before it, pair by pair, as the binary
/// decomposition would. `done` holds the positions already checked.
pub(super) fn check_partial(vars: &[VarId], offsets: &[i64], done_set: &mut Done, ctx: &mut Context<'_>) -> bool {
    let mut done = done_set.load(ctx);
    let head = vars.len();
    let mut p = done_set.after(head);
    while p != head {
        let following = done_set.after(p);
        if !ctx.is_assigned(vars[p]) {
            p = following;
            continue;
        }
        let target = i128::from(ctx.assigned_value(vars[p]).expect("an assigned variable")) + i128::from(offsets[p]);
        // In scope order, so the checks counted do not depend on `order`.
        for q in (0..vars.len()).filter(|&q| done_set.contains(q, done)) {
            ctx.count_checks(1);
            // Done positions are fixed: decided, or fixed by root propagation.
            let other = ctx.fixed_value(vars[q]).expect("done positions are fixed");
            if i128::from(other) + i128::from(offsets[q]) == target {
                return false;
            }
        }
        done_set.insert(p, &mut done);
        p = following;
    }
    done_set.store(ctx, done);
    true
}

impl<'c> Pairwise<'c> {
    pub(super) fn new(vars: &'c [VarId], offsets: &'c [i64]) -> Self {
        Pairwise {
            vars,
            offsets,
            done: Done::new(vars.len()),
            dense: None,
            first_var: 0,
            position_of: Vec::new(),
            hits: Vec::new(),
            consecutive: false,
            intervals: false,
        }
    }

    /// The scope position of model variable `x`, if the lookup table covers it.
    fn position(&self, x: u32) -> Option<usize> {
        let p = *self.position_of.get(x.checked_sub(self.first_var)? as usize)?;
        (p != NONE).then_some(p as usize)
    }

    /// Marks the assigned position `p` done and removes its value from the
    /// positions not done. Returns whether that assigned another variable.
    fn eliminate(&mut self, ctx: &mut Context<'_>, p: usize, done: &mut usize) -> Result<bool, Conflict> {
        self.done.insert(p, done);
        let done = *done;
        let n = self.vars.len();
        let value = ctx.assigned_value(self.vars[p]).expect("an assigned variable");
        // The positions already done cannot hold the shifted value: it was
        // removed from `p` when they were done, so only the others need a look
        // (unless `p` is an interval that kept it: see `intervals`).
        ctx.count_checks((n - done) as u64);
        let mut fixed_another = false;
        if let Some((shifts, lens)) = &self.dense {
            // `dense` proved that shifted values lie within ±2^62.
            let target = value + self.offsets[p];
            // The hot loop of forward checking on N-queens. First, reading only:
            // one subtraction and a bounds check find the position, one bit test
            // whether it is there. Then the removals, which are fewer.
            // Positions already done cannot hold `target` (nor is `p` to lose it).
            let state = ctx.state();
            // Branch-free compaction: every candidate is written at `found`,
            // which only moves on when the value is present (a coin flip the
            // branch predictor cannot learn).
            // Sized once: resizing after each call's truncation would rewrite
            // the whole buffer, a cost linear in the scope on every call.
            if self.hits.len() < n {
                self.hits.resize(n, (0, 0));
            }
            let mut found = 0;
            let consecutive = self.consecutive;
            let first = self.vars[0].index as usize;
            let mut row: (u32, &[u64]) = (u32::MAX, &[]);
            let mut q = self.done.after(n);
            while q != n {
                let here = q;
                q = self.done.after(q);
                let q = here;
                let pos = target - shifts[q];
                if pos < 0 || pos >= i64::from(lens[q]) {
                    continue;
                }
                let (k, bit) = ((pos / 64) as u32, pos % 64);
                let present = if consecutive {
                    // Word `k` of consecutive variables is contiguous: keep the
                    // row while `k` stays the same (all of the column
                    // constraint, runs of 64 on the diagonals).
                    if row.0 != k {
                        row = (k, state.row(k).expect("word-major layout"));
                    }
                    row.1[first + q] >> bit & 1 != 0
                } else {
                    state.contains_pos(self.vars[q].index, pos as u32)
                };
                self.hits[found] = (self.vars[q].index, pos as u32);
                found += usize::from(present);
            }
            let hits = &self.hits[..found];
            if ctx.decision.is_some() {
                // Forward checking: removals assign nothing (only decisions do).
                ctx.remove_many(hits)?;
            } else {
                for &(x, pos) in hits {
                    ctx.remove_pos(x, pos)?;
                    fixed_another |= ctx.state().size(x) == 1;
                }
            }
        } else {
            let target = i128::from(value) + i128::from(self.offsets[p]);
            // An interval keeps a value between its bounds when it is removed,
            // so a position done before may hold the shifted value: compare.
            if self.intervals {
                for &r in self.done.positions(done - 1) {
                    let other = ctx.fixed_value(self.vars[r as usize]).expect("done positions are fixed");
                    if i128::from(other) + i128::from(self.offsets[r as usize]) == target {
                        return Err(Conflict);
                    }
                }
            }
            let mut q = self.done.after(n);
            while q != n {
                let var = self.vars[q];
                // A value beyond `i64` is no value of `var`.
                if let Ok(value) = i64::try_from(target - i128::from(self.offsets[q])) {
                    if ctx.remove(var, value)? && ctx.is_assigned(var) {
                        fixed_another = true;
                    }
                }
                q = self.done.after(q);
            }
        }
        Ok(fixed_another)
    }
}

impl Propagator for Pairwise<'_> {
    fn initialise(&mut self, ctx: &mut Context<'_>) {
        self.done.initialise(ctx);
        let state = ctx.state();
        let bases: Option<Vec<i64>> = self.vars.iter().map(|v| state.dense_base(v.index)).collect();
        let limit = 1i128 << 62;
        let narrow = self.vars.iter().zip(self.offsets).all(|(&v, &o)| {
            let (lo, hi) = (i128::from(ctx.min(v)) + i128::from(o), i128::from(ctx.max(v)) + i128::from(o));
            -limit < lo && hi < limit
        });
        self.dense = bases.filter(|_| narrow).map(|bases| {
            let shifts = bases.iter().zip(self.offsets).map(|(b, o)| b + o).collect();
            let lens = self.vars.iter().map(|v| ctx.size(*v) as u32).collect();
            (shifts, lens)
        });
        self.intervals = self.vars.iter().any(|&v| ctx.is_interval(v));
        self.consecutive = state.row(0).is_some()
            && self.vars.iter().enumerate().all(|(q, v)| v.index as usize == self.vars[0].index as usize + q);
        let lo = self.vars.iter().map(|v| v.index).min().unwrap_or(0);
        let hi = self.vars.iter().map(|v| v.index).max().unwrap_or(0);
        if ((hi - lo) as usize) < 4 * self.vars.len() + 64 {
            self.first_var = lo;
            self.position_of = vec![NONE; (hi - lo) as usize + 1];
            for (p, v) in self.vars.iter().enumerate() {
                self.position_of[(v.index - lo) as usize] = p as u32;
            }
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let mut done = self.done.load(ctx);
        // Forward checking: the decision is the only new assignment, and what
        // this propagator prunes assigns nothing (only decisions assign).
        if let Some(p) = ctx.decision.and_then(|x| self.position(x)) {
            if !self.done.contains(p, done) {
                self.eliminate(ctx, p, &mut done)?;
                self.done.store(ctx, done);
            }
            return Ok(());
        }
        let head = self.vars.len();
        let mut p = self.done.after(head);
        while p != head {
            let following = self.done.after(p);
            if ctx.is_assigned(self.vars[p]) {
                let fixed_another = self.eliminate(ctx, p, &mut done)?;
                // A variable fixed by this removal may sit before `p`: look again.
                p = if fixed_another { self.done.after(head) } else { following };
            } else {
                p = following;
            }
        }
        self.done.store(ctx, done);
        Ok(())
    }

    fn interest(&self) -> Event {
        Event::Fixed
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
        check_partial(self.vars, self.offsets, &mut self.done, ctx)
    }
}
