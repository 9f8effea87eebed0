//! The bounds reasoning of a long sum, kept from call to call: one call
//! costs what changed since the previous one, not the sum's length.
//!
//! As Chuffed's and Pumpkin's `linear_less_or_equal` do, the propagator keeps
//! the sums of its terms' smallest and largest values, and each term's
//! bounds that went into them, in reversible integers: a backtrack restores
//! them with the domains. A call first brings them up to date with the terms
//! whose bounds moved since, which it reads off the trail (every change of a
//! bitset domain is recorded there; the few interval domains, whose trail
//! folds changes, are read at every call), and then narrows with the
//! ordinary rounds of [`Linear::propagate_bounds`], which skip a round when
//! no term is wider than the room the sums leave (the widest term's span is
//! kept too, an upper bound that a round over every term makes exact).
//!
//! So a call that narrows nothing costs O(changes), not O(n); a round that
//! narrows costs O(n) as before. The narrowing is the same at every call
//! as the recomputation's: debug builds and the `checks` feature check after each call
//! that the kept sums are the recomputed ones and, at a fixpoint, that no
//! term is wider than the room.
//!
//! Where the trail point of the previous call comes from: a stack of the
//! calls' end points along the branch, indexed by a reversible integer
//! (`depth`) that grows by one at each call, so that after a backtrack it
//! names the point of the last call before it, whose changes since are all
//! still on the trail. A point the trail cannot answer for (the domains came
//! back from the root's snapshot) makes the call read every term.

use crate::constraint::Propagator;
use crate::ids::VarId;
use crate::kernel::{Context, Event, Explanation, PropagationResult, ReversibleInt, Slots, TrailPoint};

use super::{Linear, Relation, Sums, room, term_bounds};

/// The fewest terms for which a plain `<`, `<=`, `=`, `>=`, `>` sum keeps
/// its sums from call to call: below it, recomputing them is as cheap.
/// The `checks` feature keeps them from two terms on, so that the
/// brute-force tests of small models run this propagator (and the
/// recomputation still, for single terms and reified sums); not debug
/// builds, whose statistics (the checks counted) must be release's, as the
/// documented commands' outputs are.
pub(super) const LONG: usize = if cfg!(feature = "checks") { 2 } else { 32 };

/// The largest sum of the terms' magnitudes for which the kept values are
/// `i64`: a sum and a term's value are within it, a span within twice it,
/// and a sum while one term's bound moves within three times it (checked
/// over the domains the solver starts from, which only narrow).
const KEPT_LIMIT: i128 = 1 << 61;

/// The reversible integers of a [`LongSum`].
#[derive(Clone, Copy, Debug)]
struct Cells {
    /// The first of the terms' bounds: term `i`'s smallest value at
    /// `bounds + 2i`, its largest at `bounds + 2i + 1`.
    bounds: u32,
    min_sum: ReversibleInt,
    max_sum: ReversibleInt,
    /// At least every term's span.
    widest: ReversibleInt,
    /// The index in [`LongSum::points`] of the point the kept values are
    /// those of.
    depth: ReversibleInt,
}

/// The propagator of a long linear sum posted plain (not `!=`).
#[derive(Debug)]
pub(crate) struct LongSum<'c> {
    linear: &'c Linear,
    lower: Option<i128>,
    upper: Option<i128>,
    /// The term of each variable.
    term_of: Slots,
    /// The terms over interval domains, whose changes the word trail does not list.
    intervals: Vec<u32>,
    /// `None` when the sums could leave `i64` (the recomputation then runs).
    cells: Option<Cells>,
    /// The trail at the end of each call along the branch (`None`: a call
    /// that failed, whose kept values are not those of any point). At most
    /// `4n + 64` of them: beyond, on a branch of more calls (bounds pushed
    /// by one at a time in a slow-convergence cycle), each call recomputes
    /// the sums until a backtrack, so that neither this stack nor the trail
    /// of the reversible integers grows with the calls.
    points: Vec<Option<TrailPoint>>,
    /// The terms the trail lists since the last call (a buffer).
    changed: Vec<u32>,
}

impl<'c> LongSum<'c> {
    /// The propagator of `linear`, if it has at least `long` terms and its
    /// variables are distinct and close enough in the model to be mapped to
    /// their terms.
    pub(super) fn new(linear: &'c Linear, long: usize) -> Option<LongSum<'c>> {
        let n = linear.vars.len();
        let (lower, upper) = linear.relation.bounds(linear.rhs)?;
        if n < long {
            return None;
        }
        let mut term_of = Slots::new(&linear.vars, n)?;
        for (i, &var) in linear.vars.iter().enumerate() {
            let slot = term_of.slot_mut(var);
            if *slot != u32::MAX {
                // A repeated variable: its changes would move two terms.
                return None;
            }
            *slot = i as u32;
        }
        Some(LongSum {
            linear,
            lower,
            upper,
            term_of,
            intervals: Vec::new(),
            cells: None,
            points: Vec::new(),
            changed: Vec::new(),
        })
    }

    fn var(&self, i: usize) -> (VarId, i64) {
        (self.linear.vars[i], self.linear.coefficients[i])
    }

    /// Term `i`'s kept bounds brought to its domain's, and the sums with them.
    fn refresh(&self, ctx: &mut Context<'_>, cells: Cells, i: usize) {
        let (var, a) = self.var(i);
        let (lo, hi) = term_bounds(ctx, var, a);
        // Within `±KEPT_LIMIT` (checked when the cells were made).
        let (lo, hi) = (lo as i64, hi as i64);
        let at = cells.bounds + 2 * i as u32;
        let (lo_cell, hi_cell) = (ReversibleInt(at), ReversibleInt(at + 1));
        let old = ctx.get(lo_cell);
        if old != lo {
            ctx.set(lo_cell, lo);
            ctx.set(cells.min_sum, ctx.get(cells.min_sum) + lo - old);
        }
        let old = ctx.get(hi_cell);
        if old != hi {
            ctx.set(hi_cell, hi);
            ctx.set(cells.max_sum, ctx.get(cells.max_sum) + hi - old);
        }
    }

    /// Brings the kept values up to the domains: the terms the trail lists
    /// since the point at `depth`, and those over intervals; every term when
    /// the trail cannot tell.
    fn catch_up(&mut self, ctx: &mut Context<'_>, cells: Cells, depth: i64) {
        let point = usize::try_from(depth).ok().and_then(|d| self.points.get(d).copied().flatten());
        let listed = point.is_some_and(|point| self.term_of.changed_since(ctx.state(), point, &mut self.changed));
        if listed {
            ctx.count_checks((self.changed.len() + self.intervals.len()) as u64);
            for k in 0..self.changed.len() {
                self.refresh(ctx, cells, self.changed[k] as usize);
            }
            for k in 0..self.intervals.len() {
                self.refresh(ctx, cells, self.intervals[k] as usize);
            }
        } else {
            let n = self.linear.vars.len();
            ctx.count_checks(n as u64);
            let mut widest = 0;
            for i in 0..n {
                self.refresh(ctx, cells, i);
                let (var, a) = self.var(i);
                let (lo, hi) = term_bounds(ctx, var, a);
                widest = widest.max(hi - lo);
            }
            ctx.set(cells.widest, widest as i64);
        }
    }

    /// Debug builds and `checks`: the kept values are the domains', and at a
    /// fixpoint no term is wider than the room the sums leave.
    fn check(&self, ctx: &Context<'_>, cells: Cells) {
        let (mut min_sum, mut max_sum, mut widest) = (0i128, 0i128, 0i128);
        for i in 0..self.linear.vars.len() {
            let (var, a) = self.var(i);
            let (lo, hi) = term_bounds(ctx, var, a);
            let at = cells.bounds + 2 * i as u32;
            assert_eq!((i128::from(ctx.get(ReversibleInt(at))), i128::from(ctx.get(ReversibleInt(at + 1)))), (lo, hi));
            (min_sum, max_sum, widest) = (min_sum + lo, max_sum + hi, widest.max(hi - lo));
        }
        assert_eq!((i128::from(ctx.get(cells.min_sum)), i128::from(ctx.get(cells.max_sum))), (min_sum, max_sum));
        assert!(widest <= i128::from(ctx.get(cells.widest)), "the widest span kept is below a term's");
        if ctx.reschedule.is_none() {
            let room = room(self.lower, self.upper, min_sum, max_sum);
            assert!(widest <= room, "not at the fixpoint: a term of span {widest} in room {room}");
        }
    }
}

impl Sums for LongSum<'_> {
    fn sums(&mut self, _: &Linear, ctx: &mut Context<'_>) -> (i128, i128) {
        let cells = self.cells.expect("only an incremental sum reads its cells");
        (i128::from(ctx.get(cells.min_sum)), i128::from(ctx.get(cells.max_sum)))
    }

    fn widest(&self, ctx: &Context<'_>) -> i128 {
        self.cells.map_or(i128::MAX, |cells| i128::from(ctx.get(cells.widest)))
    }

    fn has_interval(&self, _: &Linear, _: &Context<'_>) -> bool {
        !self.intervals.is_empty()
    }

    fn narrowed(&mut self, ctx: &mut Context<'_>, i: usize) {
        if let Some(cells) = self.cells {
            self.refresh(ctx, cells, i);
        }
    }

    fn passed(&mut self, ctx: &mut Context<'_>, widest: i128) {
        if let Some(cells) = self.cells {
            // At most a term's span, within twice `KEPT_LIMIT`.
            ctx.set(cells.widest, widest as i64);
        }
    }
}

impl Propagator for LongSum<'_> {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let Some(cells) = self.cells else {
            return self.linear.propagate_bounds(ctx, self.lower, self.upper, &mut super::Recompute);
        };
        // The index of this call's point: one more than the last call's, so
        // that the points of the calls before, which a backtrack may bring
        // back, stay where they are. Beyond the stack's room, -1: the sums
        // are recomputed (and the kept values left as they were) until a
        // backtrack brings back a point.
        let depth = ctx.get(cells.depth);
        let room = 4 * self.linear.vars.len() + 64;
        let Some(at) = usize::try_from(depth).ok().map(|d| d + 1).filter(|&at| at < room) else {
            ctx.set(cells.depth, -1);
            return self.linear.propagate_bounds(ctx, self.lower, self.upper, &mut super::Recompute);
        };
        self.catch_up(ctx, cells, depth);
        let linear = self.linear;
        let result = linear.propagate_bounds(ctx, self.lower, self.upper, self);
        if result.is_ok() && cfg!(any(debug_assertions, feature = "checks")) {
            self.check(ctx, cells);
        }
        self.points.truncate(at);
        self.points.resize(at, None);
        self.points.push(result.ok().map(|()| ctx.state().trail_point()));
        ctx.set(cells.depth, at as i64);
        result
    }

    fn interest(&self) -> Event {
        Event::Bounds
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn initialise(&mut self, ctx: &mut Context<'_>) {
        debug_assert!(self.linear.relation != Relation::Ne);
        let linear = self.linear;
        let terms = || linear.terms();
        self.intervals =
            terms().enumerate().filter(|&(_, (var, _))| ctx.is_interval(var)).map(|(i, _)| i as u32).collect();
        // Every term's values, and so the sums, within `±KEPT_LIMIT`.
        let reach: i128 = terms()
            .map(|(var, a)| {
                let (lo, hi) = term_bounds(ctx, var, a);
                lo.abs().max(hi.abs())
            })
            .sum();
        if reach > KEPT_LIMIT {
            return;
        }
        let bounds: Vec<(i128, i128)> = terms().map(|(var, a)| term_bounds(ctx, var, a)).collect();
        // Two consecutive integers per term.
        let cells: Vec<ReversibleInt> =
            bounds.iter().flat_map(|&(lo, hi)| [lo as i64, hi as i64]).map(|v| ctx.new_reversible_int(v)).collect();
        let first = cells[0];
        let cells = Cells {
            bounds: first.0,
            min_sum: ctx.new_reversible_int(bounds.iter().map(|b| b.0).sum::<i128>() as i64),
            max_sum: ctx.new_reversible_int(bounds.iter().map(|b| b.1).sum::<i128>() as i64),
            widest: ctx.new_reversible_int(bounds.iter().map(|b| b.1 - b.0).max().unwrap_or(0) as i64),
            depth: ctx.new_reversible_int(0),
        };
        self.points = vec![Some(ctx.state().trail_point())];
        self.cells = Some(cells);
    }

    fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
        self.linear.explain_bounds(why, self.lower, self.upper)
    }
}
