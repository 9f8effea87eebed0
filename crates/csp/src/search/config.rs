//! How to solve: propagation level, orderings, strengths, limits. (How a
//! configuration is written is the sibling module `spelling`'s.)

use std::fmt;
use std::time::Duration;

use super::restart::Restarts;

use crate::constraint::AllDifferentStrength;
use crate::constraints::ArcConsistency;

/// How much reasoning the solver does after each decision. The levels run the
/// same constraints with different scheduling, so they find the same solutions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Propagation {
    /// Plain chronological backtracking: a constraint is only checked once the
    /// decisions cover its scope (`all_different` is checked pair by pair, as the
    /// clique of not-equal constraints it stands for). Domains are never pruned.
    None,
    /// Forward checking (Haralick & Elliott 1980): after each decision, every
    /// constraint on the decided variable runs its propagator once, treating only
    /// decided variables as assigned; what it prunes is not propagated further.
    ForwardChecking,
    /// Maintained arc consistency: after each decision the propagators run to a
    /// fixpoint, driven by an AC-3 style queue of constraints (Mackworth 1977),
    /// and variables fixed by propagation count as assigned.
    #[default]
    Mac,
}

/// Which unassigned variable the search decides next. Ties go to the variable
/// created first, so every ordering is deterministic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VarOrder {
    /// The order in which the variables were created.
    Input,
    /// Minimum remaining values: the smallest current domain first (the
    /// fail-first principle of Haralick & Elliott 1980).
    #[default]
    Mrv,
    /// MRV, ties broken by the largest number of constraints shared with other
    /// unassigned variables (Brélaz 1979).
    MrvDegree,
    /// Smallest ratio of domain size to the number of constraints shared with
    /// unassigned variables (Bessière & Régin 1996).
    DomDeg,
    /// Smallest ratio of domain size to weighted degree, where a constraint's weight
    /// counts the failures it caused (Boussemart, Hemery, Lecoutre & Sais 2004).
    DomWdeg,
}

/// In which order the search tries the values of the chosen variable.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ValueOrder {
    /// Smallest value first.
    #[default]
    Ascending,
    /// Largest value first.
    Descending,
    /// A pseudo-random order drawn from [`SolveConfig::seed`].
    Random,
    /// Least-constraining value first: each value is tried by propagation and the
    /// ones that prune the fewest values from other variables go first (ties by value).
    LeastConstraining,
}

/// How the search splits a node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Branching {
    /// One child per value of the chosen variable, tried in the value order
    /// (d-way branching, the textbook backtracking search).
    #[default]
    Enumerate,
    /// Two children: `x = v`, then `x ≠ v` (2-way branching, as in most CP
    /// solvers). After the refutation is propagated the search chooses again,
    /// so it may go on with another variable: what a failed value taught
    /// (its removal, and what propagation draws from it) steers the next
    /// choice. Counts one node per `x = v` tried.
    Binary,
}

/// When the solver stops before the search is complete.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Limits {
    /// Stop after this many decisions.
    pub nodes: Option<u64>,
    /// Stop after this many solutions.
    pub solutions: Option<u64>,
    /// Stop after this much wall-clock time (checked every few nodes).
    pub time: Option<Duration>,
}

/// Which limit stopped a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// [`Limits::nodes`].
    Nodes,
    /// [`Limits::solutions`] (or the `k` of a count).
    Solutions,
    /// [`Limits::time`].
    Time,
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Limit::Nodes => "node limit",
            Limit::Solutions => "solution limit",
            Limit::Time => "time limit",
        })
    }
}

/// Everything the solver can be told about how to search.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SolveConfig {
    /// The propagation level.
    pub propagation: Propagation,
    /// Establish arc consistency at the root before search, whatever the level.
    /// (Under [`Propagation::Mac`] the root is always made arc consistent.)
    pub root_arc_consistency: bool,
    /// The variable ordering.
    pub var_order: VarOrder,
    /// The value ordering.
    pub value_order: ValueOrder,
    /// The seed of [`ValueOrder::Random`] and of anything else random.
    pub seed: u64,
    /// The strength of `all_different` constraints posted without one of their own.
    pub all_different: AllDifferentStrength,
    /// The arc-consistency algorithm of generic support checking on binary
    /// constraints (under [`Propagation::Mac`] and at the root).
    pub arc_consistency: ArcConsistency,
    /// Propagate every `all_different` on its own even where the solver would
    /// merge them. By default, under [`Propagation::Mac`] with
    /// [`AllDifferentStrength::Matching`], the solver propagates the
    /// `all_different`s without offsets over one space of at most 64 values
    /// (sudoku units, Latin square rows and columns) as one system: the same
    /// pruning (each constraint domain consistent, to the common fixpoint, so
    /// the same search tree and solutions), one propagator call per wave
    /// instead of a cascade of calls and wake-ups. Pruning and failures are
    /// still attributed to the constraint that caused them. Set this to study
    /// the cascade itself (the `propagations` statistic counts calls).
    pub separate_all_different: bool,
    /// Where two merged all-differents over as many values as variables
    /// share two or more variables (a sudoku box and a line), a value whose
    /// places in one of them all lie in the shared part leaves the rest of
    /// the other ("pointing" and "claiming"). Stronger than the constraints'
    /// own domain consistency, so fewer nodes; it only acts within the
    /// merged system (under [`Propagation::Mac`] with matching strength,
    /// not with [`separate_all_different`](SolveConfig::separate_all_different)).
    pub all_different_intersections: bool,
    /// Conflict-directed backjumping (Prosser 1993): with [`Propagation::None`]
    /// this is BT-CBJ, with [`Propagation::ForwardChecking`] FC-CBJ. It cannot be
    /// combined with [`Propagation::Mac`] ([`Solver::new`](crate::Solver::new)
    /// rejects it).
    pub backjumping: bool,
    /// How a node is split: one child per value, or `x = v` then `x ≠ v`.
    pub branching: Branching,
    /// Whether the search restarts from the root after a number of failures.
    pub restarts: Restarts,
    /// Limits on nodes, solutions and time.
    pub limits: Limits,
}

impl SolveConfig {
    /// The default configuration with another propagation level.
    pub fn with_propagation(mut self, propagation: Propagation) -> Self {
        self.propagation = propagation;
        self
    }

    /// This configuration with another variable ordering.
    pub fn with_var_order(mut self, order: VarOrder) -> Self {
        self.var_order = order;
        self
    }

    /// This configuration with another value ordering.
    pub fn with_value_order(mut self, order: ValueOrder) -> Self {
        self.value_order = order;
        self
    }

    /// This configuration with another `all_different` strength.
    pub fn with_all_different(mut self, strength: AllDifferentStrength) -> Self {
        self.all_different = strength;
        self
    }

    /// This configuration with another seed.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// This configuration with another restart policy.
    pub fn with_restarts(mut self, restarts: Restarts) -> Self {
        self.restarts = restarts;
        self
    }

    /// This configuration with other limits.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }
}
