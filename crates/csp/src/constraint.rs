//! The constraint and propagator traits, and what a propagator may be chosen
//! by. Built on the kernel (a propagator narrows domains through a [`Context`]).

use std::any::Any;

use crate::ids::VarId;
use crate::kernel::{Context, Cost, Event, Explanation, PropagationResult};

/// A relation over some variables.
///
/// # How to write a constraint
///
/// 1. **Write the check.** Implement [`Constraint`] with its two required methods:
///    [`scope`](Constraint::scope), the variables it constrains, and
///    [`is_satisfied`](Constraint::is_satisfied), a plain test of one value per scope
///    variable. That is a complete constraint: under plain backtracking the engine
///    calls the check once the scope is assigned, and under forward checking and
///    arc consistency it seeks supports for values by calling the check on tuples
///    (generic support checking). Your first model works under every propagation
///    level.
/// 2. **Test it for soundness.** Compare the solutions the engine finds with
///    brute-force enumeration on small domains (the soundness harness of the
///    `testing` feature, `csp::testing::Harness`, does it for you).
/// 3. **Add propagation.** Generic support checking enumerates tuples and gets
///    slow for wide scopes or large domains. Return a [`Propagator`] from
///    [`Constraint::propagator`]: it reads and narrows domains through a
///    [`Context`], reports a conflict with `Err(Conflict)`, and need not reach a
///    fixpoint (the engine calls it again while its variables keep changing). It
///    must be *sound* (never remove a value that belongs to a solution of the
///    constraint) and must detect a violation once all its variables are fixed.
/// 4. **Benchmark it** against the generic version to see what it bought.
///
/// ```
/// use csp::{Constraint, Model, SolveConfig, Solver};
///
/// /// No three of the variables take the same value.
/// struct NoThreeEqual(Vec<csp::VarId>);
///
/// impl Constraint for NoThreeEqual {
///     fn scope(&self) -> &[csp::VarId] {
///         &self.0
///     }
///     fn is_satisfied(&self, values: &[i64]) -> bool {
///         values.iter().all(|v| values.iter().filter(|w| *w == v).count() < 3)
///     }
/// }
///
/// let mut model = Model::new();
/// let xs = model.new_vars(4, 1..=2).unwrap();
/// model.post(NoThreeEqual(xs)).unwrap();
/// let count = Solver::new(&model, SolveConfig::default()).unwrap().count(None).solutions;
/// assert_eq!(count, 6); // the arrangements of two 1s and two 2s
/// ```
///
/// # The trait
///
/// Only [`scope`](Constraint::scope) and [`is_satisfied`](Constraint::is_satisfied)
/// are required; the other methods have defaults. The trait is object safe: a
/// model stores its constraints as `Box<dyn Constraint>`. It is a subtrait of
/// [`Any`], so that the engine can recognise its own constraints (the solver
/// merges all-differents, local search counts their violations); a constraint
/// of yours needs nothing for that.
pub trait Constraint: Any + Send + Sync {
    /// The constrained variables. A variable may not appear twice unless the
    /// constraint says otherwise; the order is the order of `is_satisfied`'s values.
    fn scope(&self) -> &[VarId];

    /// Whether the values (one per scope variable, in scope order) satisfy the
    /// constraint. This is the constraint's definition: the solver checks every
    /// propagator against it in the tests.
    fn is_satisfied(&self, values: &[i64]) -> bool;

    /// A short name of the constraint's kind (`"all_different"`, `"linear"`, ...),
    /// used in traces and pruning statistics.
    fn kind(&self) -> &str {
        "custom"
    }

    /// A propagator for this constraint, or `None` for generic support checking
    /// built from [`is_satisfied`](Constraint::is_satisfied). `options` holds
    /// what a propagator may be chosen by; the propagation level is not among
    /// them, because levels are scheduling policies over the same propagators.
    fn propagator(&self, options: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        let _ = options;
        None
    }

    /// The linear inequalities the constraint enforces now, appended to
    /// `out`, for the search's cut of slow-convergence cycles (two bound
    /// propagators pushing each other's bounds by one per call): it sums the
    /// inequalities of a cycle and fails the node when the sum cannot hold.
    /// `fixed` gives the value of a variable fixed at the node.
    ///
    /// Every inequality appended must hold in every solution of the
    /// constraint below the node (with the variables `fixed` reports fixed at
    /// their values); appending fewer is always sound. Returns the variable
    /// whose fixed value the answer depended on (a reified constraint's
    /// literal), which the search adds to the cut's explanation. The default
    /// appends nothing and returns `None`; the built-in linear comparisons,
    /// `x = y + c`, `x + c <= y`, `min` / `max` and reified forms of those
    /// answer.
    fn inequalities(&self, fixed: &dyn Fn(VarId) -> Option<i64>, out: &mut Vec<Inequality>) -> Option<VarId> {
        let _ = (fixed, out);
        None
    }
}

/// `sum(coefficient * variable) <= rhs`: one of the linear inequalities a
/// constraint enforces ([`Constraint::inequalities`]), as the search sums
/// them to cut a slow-convergence cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inequality {
    /// The terms `(coefficient, variable)`; a variable may appear more than once.
    pub terms: Vec<(i64, VarId)>,
    /// The right-hand side.
    pub rhs: i128,
}

/// What a constraint's [`propagator`](Constraint::propagator) may be chosen
/// by: the solver's options that concern propagators, and nothing else.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct PropagatorOptions {
    /// The strength of `all_different` constraints posted without one of their
    /// own ([`SolveConfig::all_different`](crate::SolveConfig::all_different)).
    pub all_different: AllDifferentStrength,
    /// Tests only: [`SolveConfig::long_sums_from`](crate::SolveConfig::long_sums_from).
    #[doc(hidden)]
    pub long_sums_from: Option<usize>,
}

impl PropagatorOptions {
    /// These options with another default `all_different` strength.
    pub fn with_all_different(mut self, strength: AllDifferentStrength) -> Self {
        self.all_different = strength;
        self
    }
}

/// The strength of the `all_different` propagator (Gecode's value, bounds and
/// domain consistency). All are sound and detect every violation of a full
/// assignment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AllDifferentStrength {
    /// Pairwise value elimination: an assigned variable's value is removed from the
    /// others. As strong as the clique of binary not-equal constraints.
    Pairwise,
    /// Domain consistency by bipartite matching (Régin 1994): every value left has
    /// a support in some complete assignment of the constraint. It also finds
    /// hidden singles, naked pairs and every other pigeonhole argument. Over
    /// interval domains (ranges wider than
    /// [`SolveConfig::bitset_limit`](crate::SolveConfig::bitset_limit)) it is
    /// bounds consistency, the hull of domain consistency there, so that
    /// no call walks their values; over a graph of more than 2^20
    /// variable-value edges (10^4 variables over 10^4 values: 10^8) it is
    /// bounds consistency and pairwise value elimination, weaker than domain
    /// consistency but not a walk of every edge at every call.
    #[default]
    Matching,
    /// Bounds consistency (López-Ortiz, Quimper, Tromp & van Beek 2003): every
    /// variable's smallest and largest value have a support when each domain is
    /// taken as the interval between its bounds (Hall intervals), in
    /// O(n log n) per call. Values inside a domain are not removed.
    Bounds,
    /// Unit propagation on the exact-cover SAT encoding: pairwise value
    /// elimination and, when the initial domains hold exactly as many values
    /// as there are variables (a permutation, as every sudoku unit), "each value
    /// needs a place": a value only one variable can take is fixed there (a
    /// hidden single), a value none can take is a failure. Explained by the
    /// other variables' `≠ v`, as the SAT solver's clause would be. Otherwise
    /// (more values, interval domains) it is pairwise.
    Cover,
}

/// The search-time half of a constraint: narrows domains.
///
/// A propagator is created for each solver from its [`Constraint`], so it may keep
/// mutable state of its own. State that must follow the search up and down the
/// tree belongs in reversible integers ([`Context::new_reversible_int`]); anything
/// else must be re-validated against the domains at each call.
pub trait Propagator {
    /// Narrows domains. Called when a variable of the scope changed in a way that
    /// matches [`interest`](Propagator::interest), after a decision on a scope
    /// variable (forward checking), and once at the root.
    ///
    /// It must never remove a value that has a support (soundness), and it must
    /// return `Err(Conflict)` when all scope variables are fixed to values that do
    /// not satisfy the constraint.
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult;

    /// Which changes wake the propagator (under [`Propagation::Mac`]):
    /// [`Event::Fixed`] for a propagator that only acts when variables become
    /// fixed, [`Event::Bounds`] for bound reasoning, [`Event::Domain`] for any change.
    ///
    /// [`Propagation::Mac`]: crate::Propagation::Mac
    fn interest(&self) -> Event {
        Event::Domain
    }

    /// How expensive one call is (asked once, after [`initialise`](Propagator::initialise)).
    fn cost(&self) -> Cost {
        Cost::Cheap
    }

    /// Whether one call always reaches the propagator's own fixpoint, so that its
    /// own changes need not wake it again (asked once, after
    /// [`initialise`](Propagator::initialise)).
    fn is_idempotent(&self) -> bool {
        false
    }

    /// Called once when the solver is built, before any propagation; the place to
    /// allocate reversible integers. Domains must not be changed here.
    fn initialise(&mut self, ctx: &mut Context<'_>) {
        let _ = ctx;
    }

    /// Plain backtracking's check of a partial assignment: `false` if the variables
    /// assigned so far (see [`Context::is_assigned`]) already violate the
    /// constraint. The engine itself calls [`Constraint::is_satisfied`] once every
    /// scope variable is assigned; this earlier check is for constraints that stand
    /// for a conjunction of smaller ones, as `all_different` stands for not-equals.
    /// It is only called when [`has_partial_check`](Propagator::has_partial_check)
    /// says so.
    fn check_partial(&mut self, ctx: &mut Context<'_>) -> bool {
        let _ = ctx;
        true
    }

    /// Explains, after the fact, what this propagator did: why it removed
    /// values, moved a bound, or failed ([`Explanation::explained`]), as atoms
    /// that held when it acted ([`Explanation::because`]); the domains as they
    /// were then are the explanation's to read. Returns whether it answered.
    ///
    /// Search that learns from failures ([`Search::Learning`](crate::Search::Learning))
    /// asks this of the propagators behind every conflict, and so does the
    /// trace when it says why a value left a domain. The default answers
    /// nothing, and the engine then uses the answer that is right for every
    /// sound propagator that reads only its scope: the scope's domains as
    /// they were. That is always correct but says more than the reasoning
    /// used; a sharper answer (`x ≠ 3` because `y = 3`) makes the nogoods
    /// learnt from it prune more. An answer must be implied: with the
    /// constraint, the atoms must imply what is explained (the tests check
    /// the built-ins' answers against brute force).
    fn explain(&mut self, explanation: &mut Explanation<'_>) -> bool {
        let _ = explanation;
        false
    }

    /// Whether [`check_partial`](Propagator::check_partial) is implemented. Plain
    /// backtracking checks every constraint of every decision, so it skips the
    /// call for the constraints that have nothing to check before their scope is
    /// complete.
    fn has_partial_check(&self) -> bool {
        false
    }
}
