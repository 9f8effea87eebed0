//! Statistics of a solver run.

use std::fmt;
use std::time::Duration;

/// What a run of the solver did. Every field but `elapsed` is deterministic: the
/// same model, configuration and seed give the same numbers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Decisions: the number of `var = value` assignments the search tried.
    pub nodes: u64,
    /// Times the search undid a decision because its subtree was exhausted or failed.
    pub backtracks: u64,
    /// Backtracks that skipped at least one level (conflict-directed backjumping).
    pub backjumps: u64,
    /// Failed nodes: propagation or a check found a conflict (usually a wiped-out domain).
    pub failures: u64,
    /// Constraint checks: evaluations of a constraint on a (partial) tuple, by plain
    /// backtracking and by support-seeking propagators. Bitset-based propagators count
    /// one check per variable they revise.
    pub checks: u64,
    /// Propagator calls.
    pub propagations: u64,
    /// Values removed from domains by propagation (not counting the decisions themselves).
    pub pruned: u64,
    /// Times the search started over from the root ([`Restarts`](crate::Restarts)).
    pub restarts: u64,
    /// Nogoods learnt from conflicts ([`Search::Learning`](crate::Search::Learning)).
    pub learnt: u64,
    /// The deepest decision level reached.
    pub max_depth: u32,
    /// Solutions found (under branch and bound, the improving solutions).
    pub solutions: u64,
    /// Wall-clock time spent in the solver (not deterministic).
    pub elapsed: Duration,
}

impl Stats {
    /// The statistics without the wall-clock time, for comparing two runs.
    pub fn without_time(&self) -> Stats {
        Stats { elapsed: Duration::ZERO, ..self.clone() }
    }

    /// Adds another run's counters to these (the maximum depth is the larger one).
    pub fn accumulate(&mut self, other: &Stats) {
        self.nodes += other.nodes;
        self.backtracks += other.backtracks;
        self.backjumps += other.backjumps;
        self.failures += other.failures;
        self.checks += other.checks;
        self.propagations += other.propagations;
        self.pruned += other.pruned;
        self.restarts += other.restarts;
        self.learnt += other.learnt;
        self.max_depth = self.max_depth.max(other.max_depth);
        self.solutions += other.solutions;
        self.elapsed += other.elapsed;
    }
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "nodes {}, backtracks {}, backjumps {}, failures {}, checks {}, propagations {}, pruned {}, \
             restarts {}, max depth {}, solutions {}, time {:.3} ms",
            self.nodes,
            self.backtracks,
            self.backjumps,
            self.failures,
            self.checks,
            self.propagations,
            self.pruned,
            self.restarts,
            self.max_depth,
            self.solutions,
            self.elapsed.as_secs_f64() * 1e3
        )
    }
}
