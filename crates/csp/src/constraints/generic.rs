//! Generic support checking: propagation for a constraint that only knows how to
//! check a tuple.
//!
//! Under arc consistency, each value of each scope variable is kept only if some
//! tuple of the other variables' current values satisfies the constraint
//! together with it (the revise step of AC-3, Mackworth 1977, generalised to any
//! arity). The number of tuples to try grows as the product of the domain sizes,
//! so when it exceeds `TUPLE_BUDGET` (2^20) the propagator falls back to what forward
//! checking does: filter the last unassigned variable, and check the constraint
//! once everything is assigned. Under forward checking it always works that way
//! (nFC0, Bessière, Meseguer, Freuder & Larrosa 2002).
//!
//! On a binary constraint the support search can be AC-2001's (Bessière &
//! Régin 2001) instead of AC-3's: each value remembers the position of its last
//! support in the other domain, in a reversible integer so that backtracking
//! restores it, and a search resumes after it. The values examined are a subset
//! of AC-3's, and both remove the same values at each revision, so the two reach
//! the same fixpoint along the same queue with AC-2001 never checking more.
//!
//! **Textbook counts.** The engine queues constraints, but over distinct
//! variables with bitset domains the propagator revises as Mackworth's
//! arc-oriented AC-3 does: the arc `(x, c)` (the values of `x` against the
//! others of `c`) only when another variable of `c` changed since this
//! propagator last ran (it keeps each domain's size then, in reversible
//! integers; along a branch domains only shrink, so an equal size is an equal
//! domain), and never again for its own removals: a value removed for lack
//! of a support belongs to no allowed tuple, so it supported nothing, and one
//! call reaches the constraint's fixpoint (it is idempotent). Under forward
//! checking the last decided variable of such a scope was filtered when the
//! one before it was decided, so the full check that follows is not made
//! (classic forward checking tests a decision against the future variables
//! only). With repeated variables or an interval domain (whose inner values
//! cannot be removed) every call revises every position, and forward checking
//! checks the full tuple.

use crate::constraint::{Constraint, Propagator};
use crate::ids::VarId;
use crate::kernel::ReversibleInt;
use crate::kernel::{Assigned, Context};
use crate::kernel::{Conflict, Cost, PropagationResult};

/// How generic support checking seeks supports on a binary constraint.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ArcConsistency {
    /// AC-3 (Mackworth 1977): each revision searches the other domain for a
    /// support from its first value.
    #[default]
    Ac3,
    /// AC-2001 (Bessière & Régin 2001): each value remembers its last support
    /// (restored on backtrack) and the search resumes after it.
    Ac2001,
}

/// The largest number of tuples one support search may enumerate.
pub(crate) const TUPLE_BUDGET: u128 = 1 << 20;

pub(crate) struct Generic<'c> {
    constraint: &'c dyn Constraint,
    scope: &'c [VarId],
    /// The current values of each scope variable, in compressed rows.
    values: Vec<i64>,
    start: Vec<usize>,
    tuple: Vec<i64>,
    odometer: Vec<usize>,
    algorithm: ArcConsistency,
    /// AC-2001 on a binary constraint: for each side and each position of its
    /// initial domain, the position of the last support found in the other
    /// side's domain (-1 before the first search).
    last: [Vec<ReversibleInt>; 2],
    /// Whether the scope holds two or more distinct variables, all bitsets
    /// (known once initialised): then revisions are arc-oriented, the
    /// propagator is idempotent and forward checking skips the redundant
    /// full check (see the module documentation).
    exact: bool,
    /// Under `exact`: each scope variable's domain size when the propagator
    /// last revised (-1 before its first revision).
    seen_sizes: Vec<ReversibleInt>,
}

impl<'c> Generic<'c> {
    pub(crate) fn new(constraint: &'c dyn Constraint, algorithm: ArcConsistency) -> Self {
        let scope = constraint.scope();
        Generic {
            constraint,
            scope,
            values: Vec::new(),
            start: Vec::with_capacity(scope.len() + 1),
            tuple: vec![0; scope.len()],
            odometer: vec![0; scope.len()],
            algorithm,
            last: [Vec::new(), Vec::new()],
            exact: false,
            seen_sizes: Vec::new(),
        }
    }

    /// Whether AC-2001's last supports are kept (a binary constraint on two
    /// distinct variables).
    fn uses_last_supports(&self) -> bool {
        !self.last[0].is_empty()
    }

    /// AC-2001's support search for the value at position `pos` of side `k`:
    /// the last support if still there, else the next one after it.
    fn has_support_2001(&mut self, ctx: &mut Context<'_>, k: usize, pos: u32, checks: &mut u64) -> bool {
        let other = 1 - k;
        let cell = self.last[k][pos as usize];
        let last = ctx.get(cell);
        let y = self.scope[other].index;
        let state = ctx.state();
        if last >= 0 && state.contains_pos(y, last as u32) {
            return true;
        }
        self.tuple[k] = state.value(self.scope[k].index, pos);
        let mut next = state.next_pos(y, (last + 1) as u32);
        while let Some(b) = next {
            self.tuple[other] = state.value(y, b);
            *checks += 1;
            if self.constraint.is_satisfied(&self.tuple) {
                ctx.set(cell, i64::from(b));
                return true;
            }
            next = state.next_pos(y, b + 1);
        }
        false
    }

    fn load(&mut self, ctx: &Context<'_>) {
        self.values.clear();
        self.start.clear();
        for &var in self.scope {
            self.start.push(self.values.len());
            self.values.extend(ctx.values(var));
        }
        self.start.push(self.values.len());
    }

    fn size(&self, k: usize) -> usize {
        self.start[k + 1] - self.start[k]
    }

    /// Whether some tuple with `value` at position `k` satisfies the constraint,
    /// counting one check per tuple tried.
    fn has_support(&mut self, k: usize, value: i64, checks: &mut u64) -> bool {
        let n = self.scope.len();
        for j in 0..n {
            self.odometer[j] = 0;
            self.tuple[j] = if j == k { value } else { self.values[self.start[j]] };
        }
        loop {
            *checks += 1;
            if self.constraint.is_satisfied(&self.tuple) {
                return true;
            }
            // Advance the odometer over every position but `k`, last position fastest.
            let mut j = n;
            loop {
                if j == 0 {
                    return false;
                }
                j -= 1;
                if j == k {
                    continue;
                }
                self.odometer[j] += 1;
                if self.odometer[j] < self.size(j) {
                    self.tuple[j] = self.values[self.start[j] + self.odometer[j]];
                    break;
                }
                self.odometer[j] = 0;
                self.tuple[j] = self.values[self.start[j]];
            }
        }
    }

    /// Arc consistency: removes every value without a support, position by
    /// position. Under `exact`, only the positions with another position
    /// whose domain changed since the last revision (all of them the first
    /// time): the arcs an arc-oriented AC-3 queue would hold.
    fn revise(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        // Bit `k`: position `k` changed since the last revision (every bit on
        // the first one, or without `exact`). Scopes wider than 64 positions
        // are revised in full.
        let mut changed = u64::MAX;
        if self.exact && self.scope.len() <= 64 {
            changed = 0;
            for (k, &var) in self.scope.iter().enumerate() {
                if ctx.get(self.seen_sizes[k]) != ctx.size(var) as i64 {
                    changed |= 1 << k;
                }
            }
        }
        self.load(ctx);
        let mut checks = 0;
        for k in 0..self.scope.len() {
            // Revise `k` when another position changed.
            let others = if k < 64 { changed & !(1u64 << k) } else { changed };
            if others == 0 {
                continue;
            }
            // Index relative to the position's start: a removal reloads the values.
            let mut r = 0;
            while r < self.size(k) {
                let value = self.values[self.start[k] + r];
                let supported = if self.uses_last_supports() {
                    let pos = ctx.state().position(self.scope[k].index, value).expect("a value of the domain");
                    self.has_support_2001(ctx, k, pos, &mut checks)
                } else {
                    self.has_support(k, value, &mut checks)
                };
                if supported {
                    r += 1;
                    continue;
                }
                ctx.count_checks(std::mem::take(&mut checks));
                if ctx.remove(self.scope[k], value)? {
                    self.load(ctx);
                } else {
                    // An interval keeps its inner values: move on.
                    r += 1;
                }
            }
        }
        ctx.count_checks(checks);
        if self.exact {
            for (k, &var) in self.scope.iter().enumerate() {
                let size = ctx.size(var) as i64;
                ctx.set(self.seen_sizes[k], size);
            }
        }
        Ok(())
    }

    /// Forward checking: filter the one unassigned position, or check a full assignment.
    fn forward_check(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let mut free = None;
        for (k, &var) in self.scope.iter().enumerate() {
            if !ctx.is_assigned(var) {
                if free.is_some() {
                    return Ok(());
                }
                free = Some(k);
            }
        }
        match free {
            // The decision just made completed the scope: it was taken from a
            // domain filtered when the variable before it was decided.
            None if self.exact && ctx.decision.is_some() => Ok(()),
            None => {
                for (k, &var) in self.scope.iter().enumerate() {
                    self.tuple[k] = ctx.min(var);
                }
                ctx.count_checks(1);
                if self.constraint.is_satisfied(&self.tuple) { Ok(()) } else { Err(Conflict) }
            }
            Some(k) => {
                for (j, &var) in self.scope.iter().enumerate() {
                    if j != k {
                        self.tuple[j] = ctx.min(var);
                    }
                }
                let mut checks = 0;
                let var = self.scope[k];
                let constraint = self.constraint;
                let tuple = &mut self.tuple;
                let result = ctx.retain(var, |value| {
                    checks += 1;
                    tuple[k] = value;
                    constraint.is_satisfied(tuple)
                });
                ctx.count_checks(checks);
                result.map(drop)
            }
        }
    }
}

impl Propagator for Generic<'_> {
    fn initialise(&mut self, ctx: &mut Context<'_>) {
        let distinct = self.scope.iter().enumerate().all(|(k, var)| !self.scope[..k].contains(var));
        self.exact = self.scope.len() >= 2 && distinct && !self.scope.iter().any(|&var| ctx.is_interval(var));
        if self.exact {
            self.seen_sizes = self.scope.iter().map(|_| ctx.new_reversible_int(-1)).collect();
        }
        // Last supports are kept per position: bitsets only.
        let binary = self.scope.len() == 2 && self.exact;
        if self.algorithm == ArcConsistency::Ac2001 && binary {
            for k in 0..2 {
                let size = ctx.state().num_words(self.scope[k].index) as usize * 64;
                self.last[k] = (0..size).map(|_| ctx.new_reversible_int(-1)).collect();
            }
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        if matches!(ctx.assigned, Assigned::Decided(_)) {
            return self.forward_check(ctx);
        }
        let tuples = self.scope.iter().map(|&v| ctx.size(v) as u128).fold(1u128, |a, b| a.saturating_mul(b));
        if tuples > TUPLE_BUDGET {
            return self.forward_check(ctx);
        }
        self.revise(ctx)
    }

    fn cost(&self) -> Cost {
        if self.scope.len() <= 2 { Cost::Cheap } else { Cost::Expensive }
    }

    /// Over distinct bitset variables a revision reaches the constraint's
    /// fixpoint (see the module documentation). With a repeated variable, a
    /// removal at one position can take away a support found through the
    /// other; with an interval, an inner value that should go stays.
    fn is_idempotent(&self) -> bool {
        self.exact
    }
}
