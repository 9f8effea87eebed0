//! How a search ended: outcomes, statuses and counts.

use crate::config::Limit;
use crate::model::Solution;

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
