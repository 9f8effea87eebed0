//! How to run a local search, and what a run did and found.

use std::fmt;
use std::time::Duration;

use crate::ids::ConstraintId;
use crate::model::Solution;

/// How to run a [`LocalSearch`](crate::LocalSearch).
#[derive(Clone, Debug, PartialEq)]
pub struct LocalSearchConfig {
    /// The seed of every random choice: equal seeds give equal runs (but for the
    /// time, and for where a time limit stops them).
    pub seed: u64,
    /// Stop after this many steps (a step examines one conflicted variable). `None`
    /// runs until a solution or the time limit: a model without solutions then
    /// never stops.
    pub max_steps: Option<u64>,
    /// Stop after this much wall-clock time.
    pub time_limit: Option<Duration>,
    /// The probability that a stuck step (every other value of the chosen variable
    /// is worse) is a random walk: the variable takes a random value anyway. It
    /// lets the search leave local minima. Walks are kept to stuck steps because a
    /// random value in a nearly solved large model costs an expensive repair.
    pub walk_probability: f64,
    /// Start again (a new greedy assignment) when the best total violation of the
    /// current try has not improved for this many steps. `None` means 100 times
    /// the number of variables, at least 100,000: restarts throw progress away, so
    /// they are a last resort (3-colouring 10,000 nodes of degree 4 took 3 to 13
    /// million steps with a tenth of that, about a million without).
    pub restart_after: Option<u64>,
}

impl Default for LocalSearchConfig {
    fn default() -> Self {
        LocalSearchConfig { seed: 0, max_steps: None, time_limit: None, walk_probability: 0.1, restart_after: None }
    }
}

/// What a local search run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LocalSearchStats {
    /// Steps: conflicted variables examined (the greedy start is not counted).
    pub steps: u64,
    /// Steps that changed a value (improving, sideways or random moves).
    pub moves: u64,
    /// Stuck steps that became random walks.
    pub random_walks: u64,
    /// Candidate values scored, in the greedy start and in the steps.
    pub evaluations: u64,
    /// Restarts: greedy starts after the first.
    pub restarts: u64,
    /// The total violation after the first greedy start.
    pub initial_violation: u64,
    /// The smallest total violation seen (0 when solved).
    pub best_violation: u64,
    /// Wall-clock time (not deterministic).
    pub elapsed: Duration,
}

impl fmt::Display for LocalSearchStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "steps {}, moves {}, random walks {}, evaluations {}, restarts {}, initial violation {}, \
             best violation {}, time {:.3} ms",
            self.steps,
            self.moves,
            self.random_walks,
            self.evaluations,
            self.restarts,
            self.initial_violation,
            self.best_violation,
            self.elapsed.as_secs_f64() * 1e3
        )
    }
}

/// How a local search run ended. It never proves unsatisfiability.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LocalSearchOutcome<'m> {
    /// A solution, checked with [`Model::violated`](crate::Model::violated) (every constraint's
    /// `is_satisfied`).
    Solved(Solution<'m>),
    /// [`LocalSearchConfig::max_steps`] ran out first.
    StepLimit,
    /// [`LocalSearchConfig::time_limit`] ran out first.
    TimeLimit,
    /// The counters said the violation is 0 but this constraint is not
    /// satisfied, or the reverse: its [`ViolationCounter`](crate::ViolationCounter) disagrees with its
    /// `is_satisfied` (a bug in that constraint).
    InconsistentCounter(ConstraintId),
}

impl<'m> LocalSearchOutcome<'m> {
    /// Whether a solution was found.
    pub fn is_solved(&self) -> bool {
        matches!(self, LocalSearchOutcome::Solved(_))
    }

    /// The solution, if one was found.
    pub fn into_solution(self) -> Option<Solution<'m>> {
        match self {
            LocalSearchOutcome::Solved(solution) => Some(solution),
            _ => None,
        }
    }
}
