//! The search's events and the hook that receives them. A leaf module: the
//! kernel's context reports removals as they happen, the search everything else.

use crate::ids::{ConstraintId, VarId};

/// One step of the search, as seen by an [`Observer`]. New kinds of events
/// may be added: match with a wildcard arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SearchEvent {
    /// The search tries `var = value`.
    Decision {
        /// The variable decided.
        var: VarId,
        /// The value it tries.
        value: i64,
        /// The decisions on the current branch, from 1 for the first.
        depth: u32,
    },
    /// Propagation removed `value` from `var`'s domain.
    Removed {
        /// The variable.
        var: VarId,
        /// The value removed.
        value: i64,
        /// The constraint whose reasoning removed it; `None` when the removal
        /// is the refutation of a value the search already tried, the bound
        /// branch and bound puts on the objective after a solution, or the
        /// work of a learnt nogood.
        constraint: Option<ConstraintId>,
    },
    /// The search splits an interval domain (one too wide to enumerate, see
    /// [`Context::is_interval`](crate::Context::is_interval)), or any domain
    /// under [`ValueOrder::Split`](crate::ValueOrder::Split) and
    /// [`ValueOrder::ReverseSplit`](crate::ValueOrder::ReverseSplit): it
    /// tries `var <= at`, or `var > at` when `upper`.
    Split {
        /// The variable split.
        var: VarId,
        /// Where it is split.
        at: i64,
        /// Whether this is the upper half (`var > at`).
        upper: bool,
        /// The decisions on the current branch, from 1 for the first.
        depth: u32,
    },
    /// Propagation narrowed an interval domain to `min..=max` (its values are
    /// not reported one by one).
    Narrowed {
        /// The variable.
        var: VarId,
        /// Its new smallest value.
        min: i64,
        /// Its new largest value.
        max: i64,
        /// The constraint whose reasoning narrowed it; `None` for the bound
        /// on the objective that branch and bound adds after each solution.
        constraint: Option<ConstraintId>,
    },
    /// `constraint` found a conflict.
    WipeOut {
        /// The variable whose domain it emptied; `None` when the constraint
        /// failed without emptying a particular domain, as a plain check does.
        var: Option<VarId>,
        /// The constraint.
        constraint: ConstraintId,
    },
    /// The search undid a decision to try something else.
    Backtrack {
        /// The variable of the decision.
        var: VarId,
        /// Its depth (as in [`SearchEvent::Decision`]).
        depth: u32,
    },
    /// The search dropped every decision and starts over from the root (see
    /// [`Restarts`](crate::Restarts)).
    Restart {
        /// Restarts in this run so far, this one included.
        count: u64,
    },
    /// The search learnt a nogood from a conflict ([`Search::Learning`](crate::Search::Learning))
    /// and jumps back to `level`, where it says something new.
    Learnt {
        /// The number of atoms in the nogood.
        atoms: usize,
        /// The decision level the search goes back to (0: the root).
        level: u32,
    },
    /// A solution was found. Its values are those of the current domains, all
    /// fixed; read them from the solution the solver returns.
    Solution {
        /// Solutions in this run so far, this one included.
        count: u64,
    },
    /// Branch and bound found a solution better than every earlier one
    /// (sent just after its [`SearchEvent::Solution`]); the rest of the search
    /// looks for a better one still.
    Improvement {
        /// The objective's value in this solution.
        objective: i64,
        /// Improving solutions in this run so far, this one included.
        count: u64,
    },
}

/// Receives the search's events. Implement it for a type of your own; `FnMut`
/// closures taking a `&SearchEvent` implement it already.
///
/// Attach an [`Observer`] with [`Solver::observe`](crate::Solver::observe) to receive
/// every [`SearchEvent`]: decisions and splits, values removed (and by which
/// constraint), wipe-outs, backtracks, restarts, solutions and improvements.
/// The sudoku trace and animation are built on this hook. When no observer is
/// attached the solver pays one predictable branch per event site and builds
/// no event.
///
/// ```
/// use csp::{Model, SearchEvent, SolveConfig, Solver};
/// let mut model = Model::new();
/// let x = model.new_var(1..=3).unwrap();
/// let y = model.new_var(1..=3).unwrap();
/// model.less_than(x, y).unwrap();
/// let mut decisions = 0;
/// let mut count = |event: &SearchEvent| {
///     if matches!(event, SearchEvent::Decision { .. }) {
///         decisions += 1;
///     }
/// };
/// let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
/// solver.observe(&mut count);
/// assert!(solver.solve().is_solved());
/// drop(solver);
/// assert!(decisions >= 1);
/// ```
pub trait Observer {
    /// Called for every event, in the order the search produces them.
    fn on_event(&mut self, event: &SearchEvent);
}

impl<F: FnMut(&SearchEvent)> Observer for F {
    fn on_event(&mut self, event: &SearchEvent) {
        self(event)
    }
}
