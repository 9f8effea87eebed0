//! Counting constraints: how many variables take some values.
//!
//! | constraint | MiniZinc | strength |
//! | --- | --- | --- |
//! | [`Count`] `c = #{i : xs[i] = y}` | `fzn_count_eq` | domain consistent (distinct variables) |
//! | [`Among`] `#{i : xs[i] in S}` in a count | `fzn_among`, `at_least`, `at_most`, `exactly` | domain consistent (distinct variables) |
//! | [`GlobalCardinality`] | `fzn_global_cardinality` (`_closed`, `_low_up`, `_low_up_closed`) | an `among` per cover value, plus the sum of the counts |
//! | [`NValue`] `n = #distinct(xs)` | `fzn_nvalue` | bounds on `n`; the `xs` restricted when `n` allows no new value |
//!
//! The reasoning for one set of values (`among.rs`, after Bessière, Hebrard,
//! Hnich, Kiziltan & Walsh, "Among, common and disjoint constraints", 2005):
//! with `lower` the variables that must take a value of the set and `upper`
//! those that can, every count in `lower..=upper` is reachable, and a
//! variable that can go either way can enter the set iff a count in
//! `lower + 1..=upper` is allowed, and stay out of it iff one in
//! `lower..=upper - 1` is. `count` with a variable `y` applies the same
//! reasoning to each value `y` can take.
//!
//! `among` and a `count` whose `y` is fixed from the start keep `lower` and
//! `upper` from call to call over a long array (`incremental.rs`), brought
//! up to date from the variables changed since: a call costs the changes,
//! not a pass, and narrows as the recomputation would.
//!
//! Under learning they explain by the same reasoning (`explain.rs`): the
//! variables that had to be counted or could not be, and the count's bounds
//! or holes; `nvalue` by the intervals, union or fixed values its bounds
//! used (`nvalue.rs`).
//!
//! When a variable appears twice (the count among the `xs`, say), the same
//! reasoning is a sound relaxation and the constraint is checked once its
//! variables are fixed.

mod among;
mod cardinality;
mod count;
mod explain;
mod incremental;
mod nvalue;

pub use among::Among;
pub use cardinality::GlobalCardinality;
pub use count::Count;
pub use nvalue::NValue;

use crate::constraints::in_set::{retain_in, retain_out};
use crate::ids::VarId;
use crate::kernel::Context;
use crate::kernel::{Conflict, PropagationResult};

/// How many variables may be counted: the values of a variable, or a range of
/// constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tally {
    /// The count is this variable.
    Var(VarId),
    /// The count is in `low..=high`.
    Between(i64, i64),
}

impl Tally {
    /// Whether `count` satisfies the tally, `var_value` being the variable's value.
    fn holds(self, count: i64, var_value: Option<i64>) -> bool {
        match self {
            Tally::Var(_) => var_value == Some(count),
            Tally::Between(low, high) => (low..=high).contains(&count),
        }
    }

    /// The smallest and largest counts allowed.
    fn bounds(self, ctx: &Context<'_>) -> (i64, i64) {
        match self {
            Tally::Var(var) => (ctx.min(var), ctx.max(var)),
            Tally::Between(low, high) => (low, high),
        }
    }

    /// Narrows the count to `low..=high`: a conflict when no count there is allowed.
    fn narrow(self, ctx: &mut Context<'_>, low: i64, high: i64) -> PropagationResult {
        match self {
            Tally::Var(var) => {
                ctx.set_min(var, low)?;
                ctx.set_max(var, high)?;
                Ok(())
            }
            Tally::Between(min, max) if low.max(min) <= high.min(max) => Ok(()),
            Tally::Between(..) => Err(Conflict),
        }
    }

    /// Whether some count in `low..=high` is allowed. (After
    /// [`narrow`](Tally::narrow) a count variable has at most one value per
    /// variable counted, so the scan is short.)
    fn allows_any(self, ctx: &Context<'_>, low: i64, high: i64) -> bool {
        match self {
            Tally::Var(var) => low <= high && ctx.values(var).find(|&v| v >= low).is_some_and(|v| v <= high),
            Tally::Between(min, max) => low.max(min) <= high.min(max),
        }
    }
}

/// The values a variable is counted for: one value or a sorted set.
#[derive(Clone, Copy, Debug)]
enum Counted<'a> {
    One(i64),
    Set(&'a [i64]),
}

impl Counted<'_> {
    /// The counted values, sorted.
    fn values(&self) -> &[i64] {
        match self {
            Counted::One(value) => std::slice::from_ref(value),
            Counted::Set(set) => set,
        }
    }

    /// Whether `var` can take a counted value, and whether it can take another.
    fn classify(self, ctx: &Context<'_>, var: VarId) -> (bool, bool) {
        let size = ctx.size(var);
        let inside = match self {
            Counted::One(v) => usize::from(ctx.contains(var, v)),
            Counted::Set(set) if set.len() <= size => set.iter().filter(|&&v| ctx.contains(var, v)).count(),
            Counted::Set(set) => ctx.values(var).filter(|v| set.binary_search(v).is_ok()).count(),
        };
        (inside > 0, inside < size)
    }
}

/// The number of `xs` in the counted values is in `tally`: domain consistent
/// on `tally` and the `xs` (for distinct variables).
fn propagate_among(ctx: &mut Context<'_>, xs: &[VarId], counted: Counted<'_>, tally: Tally) -> PropagationResult {
    let (mut lower, mut upper) = (0i64, 0i64);
    for &x in xs {
        let (can_in, can_out) = counted.classify(ctx, x);
        upper += i64::from(can_in);
        lower += i64::from(!can_out);
    }
    ctx.count_checks(xs.len() as u64);
    settle(ctx, xs, counted, tally, lower, upper)
}

/// The among reasoning once `lower` of `xs` must be counted and `upper` can
/// be: the tally narrowed to `lower..=upper`, and when it allows only
/// `upper` (or only `lower`) the undecided `xs` counted (or not). `xs` may
/// list a variable once for all its entries (the decided ones are skipped).
fn settle(
    ctx: &mut Context<'_>,
    xs: &[VarId],
    counted: Counted<'_>,
    tally: Tally,
    lower: i64,
    upper: i64,
) -> PropagationResult {
    tally.narrow(ctx, lower, upper)?;
    if lower == upper {
        return Ok(());
    }
    let may_enter = tally.allows_any(ctx, lower + 1, upper);
    let may_stay_out = tally.allows_any(ctx, lower, upper - 1);
    if may_enter && may_stay_out {
        return Ok(());
    }
    for &x in xs {
        if let (true, true) = counted.classify(ctx, x) {
            // Undecided: it goes where the count allows.
            if may_enter {
                retain_in(ctx, x, counted.values())?;
            } else {
                retain_out(ctx, x, counted.values())?;
            }
        }
    }
    Ok(())
}
