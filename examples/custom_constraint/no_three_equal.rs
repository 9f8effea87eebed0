//! A constraint of our own, "no three equal": no value occurs three times or more
//! among the variables. In a grid puzzle it says that no digit appears three times in
//! a line.
//!
//! It comes in the two forms the tutorial (`docs/modeling.md`) walks through:
//!
//! - [`NoThreeEqualCheck`] is the constraint defined by its check alone. The engine
//!   propagates it by generic support checking, so it works at once under every
//!   propagation level; but seeking supports enumerates tuples, which gets slow as
//!   lines get longer.
//! - [`NoThreeEqual`] is the same relation with a real [`Propagator`]: a value taken
//!   twice is removed from the other variables, three times is a conflict, and a
//!   pigeonhole count fails early when the free variables cannot all be placed.
//!
//! This file depends on `csp` alone, so that the benchmark `benches/custom_constraint.rs`
//! can include it as it is; the example `custom_constraint` (`main.rs` beside it)
//! posts it on the lines of a grid.

use csp::{Conflict, Constraint, Context, Event, PropagationResult, Propagator, PropagatorOptions, VarId};

/// The relation itself: no value occurs three times in `values`.
pub(crate) fn no_three_equal(values: &[i64]) -> bool {
    values.iter().enumerate().all(|(i, v)| values[i + 1..].iter().filter(|w| *w == v).count() < 2)
}

/// No value three times among the variables, defined by its check only.
#[derive(Clone, Debug)]
pub(crate) struct NoThreeEqualCheck {
    vars: Vec<VarId>,
}

impl NoThreeEqualCheck {
    /// The constraint on `vars`.
    pub(crate) fn new(vars: Vec<VarId>) -> Self {
        NoThreeEqualCheck { vars }
    }
}

impl Constraint for NoThreeEqualCheck {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        no_three_equal(values)
    }

    fn kind(&self) -> &str {
        "no_three_equal (check only)"
    }
}

/// No value three times among the variables, with its own propagator.
#[derive(Clone, Debug)]
pub(crate) struct NoThreeEqual {
    vars: Vec<VarId>,
}

impl NoThreeEqual {
    /// The constraint on `vars`.
    pub(crate) fn new(vars: Vec<VarId>) -> Self {
        NoThreeEqual { vars }
    }
}

impl Constraint for NoThreeEqual {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        no_three_equal(values)
    }

    fn kind(&self) -> &str {
        "no_three_equal"
    }

    fn propagator(&self, _options: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(NoThreeEqualPropagator { vars: &self.vars, counts: Vec::new(), free: Vec::new() }))
    }
}

/// The propagator of [`NoThreeEqual`]. It reasons from the assigned variables
/// ([`Context::is_assigned`]), so that under forward checking it uses the decisions
/// only, as the textbook algorithm does.
#[derive(Debug)]
struct NoThreeEqualPropagator<'c> {
    vars: &'c [VarId],
    /// Scratch: `(value, how many assigned variables take it)`.
    counts: Vec<(i64, u32)>,
    /// Scratch: the values left to the unassigned variables.
    free: Vec<i64>,
}

impl NoThreeEqualPropagator<'_> {
    /// Counts the values of the assigned variables; a value taken three times is a
    /// conflict.
    fn count_assigned(&mut self, ctx: &Context<'_>) -> PropagationResult {
        self.counts.clear();
        for &var in self.vars {
            if let Some(value) = ctx.assigned_value(var) {
                match self.counts.iter_mut().find(|(v, _)| *v == value) {
                    Some((_, count)) if *count == 2 => return Err(Conflict),
                    Some((_, count)) => *count += 1,
                    None => self.counts.push((value, 1)),
                }
            }
        }
        Ok(())
    }

    fn taken(&self, value: i64) -> u32 {
        self.counts.iter().find(|(v, _)| *v == value).map_or(0, |&(_, count)| count)
    }
}

impl Propagator for NoThreeEqualPropagator<'_> {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        ctx.count_checks(1);
        self.count_assigned(ctx)?;
        // A value taken twice is gone from every other variable.
        for i in 0..self.counts.len() {
            let (value, count) = self.counts[i];
            if count == 2 {
                for &var in self.vars {
                    if !ctx.is_assigned(var) {
                        ctx.remove(var, value)?;
                    }
                }
            }
        }
        // Pigeonhole: each value has room for `2 - taken` more variables; if the
        // values the free variables can still take have too little room in all,
        // no assignment of them works.
        self.free.clear();
        let mut unassigned = 0;
        for &var in self.vars {
            if !ctx.is_assigned(var) {
                unassigned += 1;
                self.free.extend(ctx.values(var));
            }
        }
        self.free.sort_unstable();
        self.free.dedup();
        let room: u32 = self.free.iter().map(|&value| 2u32.saturating_sub(self.taken(value))).sum();
        if room < unassigned { Err(Conflict) } else { Ok(()) }
    }

    /// Only assignments change what the propagator can conclude about values taken
    /// twice; the pigeonhole count is re-done then too.
    fn interest(&self) -> Event {
        Event::Fixed
    }

    /// Under plain backtracking, fail as soon as three decisions agree.
    fn check_partial(&mut self, ctx: &mut Context<'_>) -> bool {
        self.count_assigned(ctx).is_ok()
    }

    fn has_partial_check(&self) -> bool {
        true
    }
}
