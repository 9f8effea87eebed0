//! The search's events and the hook that receives them. A leaf module: the
//! kernel's context reports removals as they happen, the search everything else.

use crate::ids::{Atom, ConstraintId, VarId};

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

    /// Whether this observer wants the [`Reason`] of every narrowing a
    /// propagator makes ([`on_reason`](Observer::on_reason)). Asked once,
    /// by [`Solver::observe`](crate::Solver::observe); `false` by default.
    /// Saying yes turns on the domains' history (what learning keeps) and
    /// asks the propagators to explain each change as it is made: the
    /// search runs a few times slower. Nobody asking costs nothing.
    fn wants_reasons(&self) -> bool {
        false
    }

    /// Called, when [`wants_reasons`](Observer::wants_reasons) says so, after
    /// each propagator's run with the reason of each narrowing it made, in
    /// order, after the [`SearchEvent::Removed`] (or
    /// [`SearchEvent::Narrowed`]) events of its values.
    fn on_reason(&mut self, reason: &Reason<'_>) {
        let _ = reason;
    }
}

/// Why a propagator narrowed a domain: what became true of one variable
/// (`facts`: `x ≠ v` for each value removed, or a bound of an interval)
/// because of what held before (`because`), with the constraint that acted.
/// The atoms of `because` are the propagator's explanation
/// ([`Propagator::explain`](crate::Propagator::explain)), or, for one with
/// no explanation of its own, the generic one: the domains of its scope as
/// they were (for the all-different system sudoku runs, of every variable
/// it holds). Together with the constraint they imply the facts.
///
/// ```
/// use csp::{Atom, Model, Observer, Reason, SearchEvent, SolveConfig, Solver};
///
/// /// Keeps every reason as text.
/// #[derive(Default)]
/// struct Why(Vec<String>);
/// impl Observer for Why {
///     fn on_event(&mut self, _: &SearchEvent) {}
///     fn wants_reasons(&self) -> bool {
///         true
///     }
///     fn on_reason(&mut self, reason: &Reason<'_>) {
///         let because: Vec<String> = reason.because.iter().map(Atom::to_string).collect();
///         self.0.push(format!("{:?} because {}", reason.facts, because.join(", ")));
///     }
/// }
///
/// let mut model = Model::new();
/// let x = model.new_var(1..=3).unwrap();
/// let y = model.new_var(1..=3).unwrap();
/// model.not_equal(x, y).unwrap();
/// let mut why = Why::default();
/// let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
/// solver.observe(&mut why);
/// assert!(solver.solve().is_solved());
/// drop(solver);
/// // x = 1 is decided; then y loses 1 because x = 1.
/// assert_eq!(why.0, [format!("[NotEqual({y:?}, 1)] because x0 = 1")]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Reason<'a> {
    /// What became true of one variable: `x ≠ v` for every value removed
    /// (in increasing order), or `x ≥ v` / `x ≤ v` for an interval's bounds.
    pub facts: &'a [Atom],
    /// The constraint the propagator acted for.
    pub constraint: ConstraintId,
    /// What held before, and with the constraint implies the facts.
    pub because: &'a [Atom],
}

impl Reason<'_> {
    /// The variable the facts are about.
    pub fn var(&self) -> Option<VarId> {
        self.facts.first().map(|atom| atom.var())
    }
}

impl<F: FnMut(&SearchEvent)> Observer for F {
    fn on_event(&mut self, event: &SearchEvent) {
        self(event)
    }
}
