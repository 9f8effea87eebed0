//! The among reasoning's counts kept from call to call: one call costs what
//! changed since the previous one, not a pass over the variables.
//!
//! For a fixed set of counted values (`among`, `at_least`, `at_most`,
//! `exactly`, and `count` whose `y` is fixed from the start) the propagator
//! keeps, in reversible integers, each distinct variable's class (whether it
//! can take a counted value, and whether it can take another) and the two
//! sums the reasoning reads: `lower`, the variables that must be counted,
//! and `upper`, those that can be, each with its multiplicity in the array
//! (so that they are the sums over the array's entries that
//! [`propagate_among`](super::propagate_among) computes). A backtrack
//! restores them with the domains.
//!
//! A call first brings them up to date with the variables changed since the
//! previous call on the branch, read off the trail from the point that call
//! kept ([`Fixpoints`], one [`TrailPoint`] each; every change of a bitset
//! domain is on the trail, and the few interval domains, whose trail folds
//! changes, are read at every call); then it narrows as the recomputation
//! does ([`settle`](super::settle)), with the same sums, so the search is
//! the same. A call that narrows nothing costs O(changes); one that fixes
//! the undecided variables a pass over them, as before.
//!
//! The point is kept after the catch-up and before the call narrows: the
//! kept classes are those of the domains at that point, and the next call
//! reads this call's own changes too (a class is brought to the domain's,
//! so a variable listed twice, or one unchanged, costs a read and nothing
//! more). Debug builds and the `checks` feature check after each catch-up
//! that the kept values are the recomputed ones.

use super::{Counted, Tally, propagate_among, settle};
use crate::ids::VarId;
use crate::kernel::{Context, Fixpoints, PropagationResult, ReversibleInt, Slots, TrailPoint};

/// The fewest variables for which the counts are kept: below it,
/// recomputing them is as cheap. The `checks` feature keeps them from two
/// on, so that the brute-force tests of small models run this code; not
/// debug builds, whose statistics (the checks counted) must be release's,
/// as the documented commands' outputs are.
pub(super) const LONG: usize = if cfg!(feature = "checks") { 2 } else { 32 };

/// A class: bit 0 when the variable can take a counted value, bit 1 when
/// it can take another.
const CAN_IN: i64 = 1;
const CAN_OUT: i64 = 2;

/// The reversible integers of the kept counts.
#[derive(Clone, Copy, Debug)]
struct Cells {
    /// The first class: variable `i`'s at `classes + i`.
    classes: u32,
    lower: ReversibleInt,
    upper: ReversibleInt,
}

/// The counts of an among over a fixed set of values, kept from call to call.
#[derive(Debug)]
pub(super) struct Kept {
    /// The distinct variables, in the order they first appear, and how many
    /// times each appears.
    vars: Vec<VarId>,
    weights: Vec<i64>,
    /// The slot of each variable.
    slots: Slots,
    /// The slots over interval domains, whose changes the word trail does not list.
    intervals: Vec<u32>,
    /// `None` before `initialise`.
    cells: Option<Cells>,
    /// The trail where each call on the branch read the domains.
    points: Fixpoints<TrailPoint>,
    /// The slots the trail lists since the last call (a buffer).
    changed: Vec<u32>,
}

impl Kept {
    /// The kept counts of `xs`, if there are at least [`LONG`] and their
    /// variables are close enough in the model to be mapped to their slots.
    pub(super) fn new(xs: &[VarId]) -> Option<Kept> {
        if xs.len() < LONG {
            return None;
        }
        let mut slots = Slots::new(xs, xs.len())?;
        let (mut vars, mut weights) = (Vec::new(), Vec::new());
        for &x in xs {
            let slot = slots.slot_mut(x);
            if *slot == u32::MAX {
                *slot = vars.len() as u32;
                vars.push(x);
                weights.push(0);
            }
            weights[*slot as usize] += 1;
        }
        if !slots.fits(vars.len()) {
            return None;
        }
        // At most `4n + 64` points a branch, as the long sum keeps: past
        // them (a bound pushed one at a time in a slow cycle) a call reads
        // every change since the last one kept.
        let points = Fixpoints::with_most(1, 4 * vars.len() + 64);
        Some(Kept { vars, weights, slots, intervals: Vec::new(), cells: None, points, changed: Vec::new() })
    }

    /// Allocates the reversible integers, with the classes of the domains now.
    pub(super) fn initialise(&mut self, ctx: &mut Context<'_>, counted: Counted<'_>) {
        self.intervals = (0..self.vars.len()).filter(|&i| ctx.is_interval(self.vars[i])).map(|i| i as u32).collect();
        let classes: Vec<i64> = self.vars.iter().map(|&x| class(ctx, counted, x)).collect();
        let cells: Vec<ReversibleInt> = classes.iter().map(|&k| ctx.new_reversible_int(k)).collect();
        let (lower, upper) = sums(&classes, &self.weights);
        self.cells = Some(Cells {
            classes: cells[0].0,
            lower: ctx.new_reversible_int(lower),
            upper: ctx.new_reversible_int(upper),
        });
        self.points.initialise(ctx);
    }

    /// The among reasoning over the kept counts: the same narrowing as
    /// [`propagate_among`]'s over `xs` (whose distinct variables these are).
    pub(super) fn propagate(
        &mut self,
        ctx: &mut Context<'_>,
        xs: &[VarId],
        counted: Counted<'_>,
        tally: Tally,
    ) -> PropagationResult {
        let Some(cells) = self.cells else {
            return propagate_among(ctx, xs, counted, tally);
        };
        self.catch_up(ctx, cells, counted);
        if cfg!(any(debug_assertions, feature = "checks")) {
            self.check(ctx, cells, counted);
        }
        let point = ctx.state().trail_point();
        self.points.keep(&[point], ctx);
        let (lower, upper) = (ctx.get(cells.lower), ctx.get(cells.upper));
        settle(ctx, &self.vars, counted, tally, lower, upper)
    }

    /// Whether, at the last call's catch-up, every variable was decided
    /// (counted or not for sure): until then a variable is not fixed, and
    /// a check of the fixed tuple would pass without a look.
    pub(super) fn all_decided(&self, ctx: &Context<'_>) -> bool {
        self.cells.is_none_or(|cells| ctx.get(cells.lower) == ctx.get(cells.upper))
    }

    /// Variable `i`'s kept class brought to its domain's, and the sums with it.
    fn refresh(&self, ctx: &mut Context<'_>, cells: Cells, counted: Counted<'_>, i: usize) {
        let cell = ReversibleInt(cells.classes + i as u32);
        let (old, new) = (ctx.get(cell), class(ctx, counted, self.vars[i]));
        if old != new {
            ctx.set(cell, new);
            let (d_lower, d_upper) =
                (contribution(new).0 - contribution(old).0, contribution(new).1 - contribution(old).1);
            let w = self.weights[i];
            if d_lower != 0 {
                ctx.set(cells.lower, ctx.get(cells.lower) + w * d_lower);
            }
            if d_upper != 0 {
                ctx.set(cells.upper, ctx.get(cells.upper) + w * d_upper);
            }
        }
    }

    /// Brings the kept values up to the domains: the variables the trail
    /// lists since the last call's point, and those over intervals; every
    /// variable when the trail cannot tell.
    fn catch_up(&mut self, ctx: &mut Context<'_>, cells: Cells, counted: Counted<'_>) {
        self.points.forget_undone(ctx);
        let point = self.points.current().map(|kept| kept[0]);
        let listed = point.is_some_and(|point| self.slots.changed_since(ctx.state(), point, &mut self.changed));
        if listed {
            ctx.count_checks((self.changed.len() + self.intervals.len()) as u64);
            for k in 0..self.changed.len() {
                self.refresh(ctx, cells, counted, self.changed[k] as usize);
            }
            for k in 0..self.intervals.len() {
                self.refresh(ctx, cells, counted, self.intervals[k] as usize);
            }
        } else {
            ctx.count_checks(self.vars.len() as u64);
            for i in 0..self.vars.len() {
                self.refresh(ctx, cells, counted, i);
            }
        }
    }

    /// Debug builds and `checks`: the kept classes and sums are the domains'.
    fn check(&self, ctx: &Context<'_>, cells: Cells, counted: Counted<'_>) {
        let classes: Vec<i64> = self.vars.iter().map(|&x| class(ctx, counted, x)).collect();
        for (i, &k) in classes.iter().enumerate() {
            assert_eq!(ctx.get(ReversibleInt(cells.classes + i as u32)), k, "the kept class of {:?}", self.vars[i]);
        }
        assert_eq!((ctx.get(cells.lower), ctx.get(cells.upper)), sums(&classes, &self.weights));
    }
}

/// `x`'s class (see [`CAN_IN`], [`CAN_OUT`]).
fn class(ctx: &Context<'_>, counted: Counted<'_>, x: VarId) -> i64 {
    let (can_in, can_out) = counted.classify(ctx, x);
    i64::from(can_in) * CAN_IN + i64::from(can_out) * CAN_OUT
}

/// What a variable of `class` adds to `lower` (it cannot stay out) and to
/// `upper` (it can be counted).
fn contribution(class: i64) -> (i64, i64) {
    (i64::from(class & CAN_OUT == 0), i64::from(class & CAN_IN != 0))
}

/// `lower` and `upper` over the classes, each variable `weights` times.
fn sums(classes: &[i64], weights: &[i64]) -> (i64, i64) {
    classes.iter().zip(weights).fold((0, 0), |(lower, upper), (&k, &w)| {
        let (l, u) = contribution(k);
        (lower + w * l, upper + w * u)
    })
}
