//! How a search ended: outcomes, statuses and counts, and what each
//! constraint did (pruning attribution).

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
