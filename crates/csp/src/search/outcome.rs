//! How a search ended: outcomes, statuses and counts, the outcome of an
//! optimisation and its improving solutions, and what each constraint did
//! (pruning attribution).

use std::time::Duration;

use super::config::Limit;
use crate::model::{Model, Solution};

/// How a search for one solution ended. Unsatisfiable is an outcome, not an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome<'m> {
    /// A solution.
    Solved(Solution<'m>),
    /// The search space was exhausted without (another) solution.
    Unsatisfiable,
    /// A limit stopped the search first.
    LimitReached(Limit),
}

impl<'m> Outcome<'m> {
    /// Whether a solution was found.
    pub fn is_solved(&self) -> bool {
        matches!(self, Outcome::Solved(_))
    }

    /// The solution, if one was found.
    pub fn solution(&self) -> Option<&Solution<'m>> {
        match self {
            Outcome::Solved(solution) => Some(solution),
            _ => None,
        }
    }

    /// The solution, if one was found.
    pub fn into_solution(self) -> Option<Solution<'m>> {
        match self {
            Outcome::Solved(solution) => Some(solution),
            _ => None,
        }
    }
}

/// How a search for the best solution ended (see
/// [`Solver::optimize`](crate::Solver::optimize)). Unsatisfiable is an
/// outcome, not an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptimizationOutcome<'m> {
    /// The best solution, proved optimal: the search space was exhausted
    /// looking for a better one.
    Optimal {
        /// The solution.
        solution: Solution<'m>,
        /// Its objective value.
        objective: i64,
    },
    /// The best solution found before a limit stopped the search; a better
    /// one may exist.
    BestFound {
        /// The solution.
        solution: Solution<'m>,
        /// Its objective value.
        objective: i64,
        /// The limit that stopped the search.
        limit: Limit,
    },
    /// The model has no solution.
    Unsatisfiable,
    /// A limit stopped the search before any solution was found.
    LimitReached(Limit),
}

impl<'m> OptimizationOutcome<'m> {
    /// Whether the solution is proved optimal.
    pub fn is_optimal(&self) -> bool {
        matches!(self, OptimizationOutcome::Optimal { .. })
    }

    /// The best solution found, if any.
    pub fn solution(&self) -> Option<&Solution<'m>> {
        match self {
            OptimizationOutcome::Optimal { solution, .. } | OptimizationOutcome::BestFound { solution, .. } => {
                Some(solution)
            }
            _ => None,
        }
    }

    /// The best solution found, if any.
    pub fn into_solution(self) -> Option<Solution<'m>> {
        match self {
            OptimizationOutcome::Optimal { solution, .. } | OptimizationOutcome::BestFound { solution, .. } => {
                Some(solution)
            }
            _ => None,
        }
    }

    /// The best objective value found, if any.
    pub fn objective(&self) -> Option<i64> {
        match self {
            OptimizationOutcome::Optimal { objective, .. } | OptimizationOutcome::BestFound { objective, .. } => {
                Some(*objective)
            }
            _ => None,
        }
    }
}

/// A solution better than every earlier one of its run (see
/// [`Solver::improvements`](crate::Solver::improvements)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Improvement<'m> {
    /// The solution.
    pub solution: Solution<'m>,
    /// Its objective value.
    pub objective: i64,
    /// The wall-clock time from the start of the run to this solution.
    pub elapsed: Duration,
}

/// How a run ended, whatever it was looking for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The run has not finished (a solution iterator not yet drained).
    Running,
    /// The whole search space was explored.
    Complete,
    /// A limit stopped the search.
    LimitReached(Limit),
}

/// The result of counting solutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Count {
    /// Solutions found.
    pub solutions: u64,
    /// Whether the count is exact ([`Status::Complete`]) or a lower bound.
    pub status: Status,
}

impl Count {
    /// Whether every solution was counted.
    pub fn is_complete(&self) -> bool {
        self.status == Status::Complete
    }

    /// Exactly one solution.
    pub fn is_unique(&self) -> bool {
        self.solutions == 1 && self.is_complete()
    }
}

/// What one constraint (or one kind of constraint) did in a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Effect {
    /// Values it removed from domains.
    pub pruned: u64,
    /// Failures it caused: domains it wiped out, or checks it failed.
    pub failures: u64,
}

/// Pruning attribution: what each constraint did in a run. See
/// [`Solver::attribution`](crate::Solver::attribution).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Attribution {
    /// Indexed by [`ConstraintId::index`](crate::ConstraintId::index).
    pub by_constraint: Vec<Effect>,
}

impl Attribution {
    /// The effects summed per constraint kind ([`Constraint::kind`](crate::Constraint::kind)),
    /// in order of first appearance in the model.
    pub fn by_kind(&self, model: &Model) -> Vec<(String, Effect)> {
        let mut kinds: indexmap::IndexMap<String, Effect> = indexmap::IndexMap::new();
        for ((_, constraint), effect) in model.constraints().zip(&self.by_constraint) {
            let total = kinds.entry(constraint.kind().to_string()).or_default();
            total.pruned += effect.pruned;
            total.failures += effect.failures;
        }
        kinds.into_iter().collect()
    }
}
