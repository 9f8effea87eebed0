//! Pairwise value elimination: `all_different` as the clique of not-equals it
//! stands for (value consistency).

use crate::constraint::Propagator;
use crate::ids::VarId;
use crate::kernel::{Conflict, Context, Event, PropagationResult, ReversibleInt};

use super::NONE;

/// Pairwise value elimination, the propagation of the clique of `x_i + o_i !=
/// x_j + o_j`: when a variable is assigned, its shifted value is removed from
/// the others.
///
/// The positions are kept in a sparse set: `order[..done]` are assigned and
/// already propagated, `index[p]` is where `p` sits in `order`, and only `done`
/// is trailed (swaps inside `order[done..]` need no undo). The positions not
/// done are also threaded, in scope order, on a doubly linked list (Knuth's
/// dancing links): a done position is unlinked, and after a backtrack the
/// positions that are no longer done are linked back in reverse order. Scans
/// walk that list, so they touch only the positions not done, in the order
/// their domains lie in memory.
pub(super) struct Pairwise<'c> {
    vars: &'c [VarId],
    offsets: &'c [i64],
    order: Vec<u32>,
    index: Vec<u32>,
    done: Option<ReversibleInt>,
    /// When every variable's values are consecutive: `offsets[p]` plus the value
    /// of `p`'s position 0, so that a shifted value maps to a position by one
    /// subtraction; and each variable's number of positions.
    dense: Option<(Vec<i64>, Vec<u32>)>,
    /// The scope position of each model variable from `first_var` on (`NONE`
    /// if not in the scope), when the scope's variables are close together.
    first_var: u32,
    position_of: Vec<u32>,
    /// Scratch: the `(variable, value position)` pairs to remove.
    hits: Vec<(u32, u32)>,
    /// Whether the scope is model variables `k, k+1, ...` in a word-major state.
    consecutive: bool,
    /// The list of positions not done: `next`/`prev` with the head at index `n`.
    next: Vec<u32>,
    prev: Vec<u32>,
    /// How many positions are unlinked: exactly `order[..unlinked]`.
    unlinked: usize,
}

impl<'c> Pairwise<'c> {
    pub(super) fn new(vars: &'c [VarId], offsets: &'c [i64]) -> Self {
        let n = vars.len() as u32;
        Pairwise {
            vars,
            offsets,
            order: (0..n).collect(),
            index: (0..n).collect(),
            done: None,
            dense: None,
            first_var: 0,
            position_of: Vec::new(),
            hits: Vec::new(),
            consecutive: false,
            // A circular list through the head `n`: 0, 1, ..., n-1.
            next: (1..=n).chain(std::iter::once(0)).collect(),
            prev: std::iter::once(n).chain(0..n).collect(),
            unlinked: 0,
        }
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
    fn mark_done(&mut self, p: usize, done: &mut usize) {
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

    /// The positions not done, in scope order, starting after `from` (the head
    /// `n` for the first).
    #[inline]
    fn after(&self, from: usize) -> usize {
        self.next[from] as usize
    }

    /// The scope position of model variable `x`, if the lookup table covers it.
    fn position(&self, x: u32) -> Option<usize> {
        let p = *self.position_of.get(x.checked_sub(self.first_var)? as usize)?;
        (p != NONE).then_some(p as usize)
    }

    /// Marks the assigned position `p` done and removes its value from the
    /// positions not done. Returns whether that assigned another variable.
    fn eliminate(&mut self, ctx: &mut Context<'_>, p: usize, done: &mut usize) -> Result<bool, Conflict> {
        self.mark_done(p, done);
        let done = *done;
        let n = self.vars.len();
        let value = ctx.assigned_value(self.vars[p]).expect("an assigned variable");
        let target = value + self.offsets[p];
        // The positions already done cannot hold `target`: it was removed from
        // `p` when they were done, so only the others need a look.
        ctx.count_checks((n - done) as u64);
        let mut fixed_another = false;
        if let Some((shifts, lens)) = &self.dense {
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
            let mut q = self.after(n);
            while q != n {
                let here = q;
                q = self.after(q);
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
            let mut q = self.after(n);
            while q != n {
                let var = self.vars[q];
                if ctx.remove(var, target - self.offsets[q])? && ctx.is_assigned(var) {
                    fixed_another = true;
                }
                q = self.after(q);
            }
        }
        Ok(fixed_another)
    }
}

impl Propagator for Pairwise<'_> {
    fn initialise(&mut self, ctx: &mut Context<'_>) {
        self.done = Some(ctx.new_reversible_int(0));
        let state = ctx.state();
        let bases: Option<Vec<i64>> = self.vars.iter().map(|v| state.dense_base(v.index)).collect();
        self.dense = bases.map(|bases| {
            let shifts = bases.iter().zip(self.offsets).map(|(b, o)| b + o).collect();
            let lens = self.vars.iter().map(|v| ctx.size(*v) as u32).collect();
            (shifts, lens)
        });
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
        let done_cell = self.done.expect("initialised");
        let mut done = ctx.get(done_cell) as usize;
        self.sync(done);
        // Forward checking: the decision is the only new assignment, and what
        // this propagator prunes assigns nothing (only decisions assign).
        if let Some(p) = ctx.decision.and_then(|x| self.position(x)) {
            if self.index[p] as usize >= done {
                self.eliminate(ctx, p, &mut done)?;
                ctx.set(done_cell, done as i64);
            }
            return Ok(());
        }
        let head = self.vars.len();
        let mut p = self.after(head);
        while p != head {
            let following = self.after(p);
            if ctx.is_assigned(self.vars[p]) {
                let fixed_another = self.eliminate(ctx, p, &mut done)?;
                // A variable fixed by this removal may sit before `p`: look again.
                p = if fixed_another { self.after(head) } else { following };
            } else {
                p = following;
            }
        }
        ctx.set(done_cell, done as i64);
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

    fn check_partial(&mut self, ctx: &mut Context<'_>) -> bool {
        // Plain backtracking: compare each newly assigned variable with the
        // assigned ones before it, pair by pair, as the binary decomposition would.
        let done_cell = self.done.expect("initialised");
        let mut done = ctx.get(done_cell) as usize;
        self.sync(done);
        let head = self.vars.len();
        let mut p = self.after(head);
        while p != head {
            let following = self.after(p);
            if !ctx.is_assigned(self.vars[p]) {
                p = following;
                continue;
            }
            let target = ctx.assigned_value(self.vars[p]).expect("an assigned variable") + self.offsets[p];
            // In scope order, so the checks counted do not depend on `order`.
            for q in (0..self.vars.len()).filter(|&q| (self.index[q] as usize) < done) {
                ctx.count_checks(1);
                // Done positions are fixed: decided, or fixed by root propagation.
                let other = ctx.fixed_value(self.vars[q]).expect("done positions are fixed");
                if other + self.offsets[q] == target {
                    return false;
                }
            }
            self.mark_done(p, &mut done);
            p = following;
        }
        ctx.set(done_cell, done as i64);
        true
    }
}
