//! Statistics of a solver run.

use std::fmt;
use std::time::Duration;

/// What a run of the solver did. Every field but `elapsed` is deterministic: the
/// same model, configuration and seed give the same numbers.
///
/// The counts are the textbook ones, so that a table can be set beside the
/// literature's (docs/compare.md, "What the numbers count", has the same
/// definitions with hand-worked examples):
///
/// - a **node** is a decision the search makes, `x = v` tried (or, for an
///   interval domain, one half of a split). Plain backtracking and forward
///   checking decide every variable, one whose domain was pruned to a single
///   value too, so a soluble instance solved without a dead end takes as
///   many nodes as variables. Under `mac` a variable that propagation
///   reduced to one value is assigned without a decision and is no node:
///   the same instance may take fewer nodes than it has variables, or none.
///   With binary branching a refutation `x ≠ v` is no node either.
/// - a **check** is one evaluation of a constraint on a tuple of values.
///   Plain backtracking checks a decision against the earlier decisions
///   from the first, each constraint once its scope is decided, and stops at
///   the first conflict (Prosser 1993). Forward checking checks the decided
///   value against each value of every future variable it shares a
///   constraint with, and never against the past ones (Haralick & Elliott
///   1980). Under `mac`, generic support checking revises arcs as
///   Mackworth's AC-3 does, one check per value pair examined in a support
///   search, only the arcs towards variables that changed (or AC-2001's
///   resumed searches). These are the classic counts for constraints
///   propagated by generic support checking (model B, model RB, any
///   constraint without a propagator of its own). A built-in propagator
///   with an algorithm of its own (all-different, linear, element,
///   not-equal...) adds a *nominal* count instead, about one check per
///   variable it revises: comparable between configurations on the same
///   model, not with the binary checks of the literature.
/// - a **failure** is a node (or the root, or a refutation) at which a check
///   or propagation found a conflict: a violated constraint or an emptied
///   domain.
/// - a **backtrack** undoes one decision whose subtree failed or was
///   exhausted (a jump over several levels counts one per level undone);
///   a **backjump** is a return that skipped at least one level.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Decisions: the `var = value` assignments the search tried (see above:
    /// under `mac`, a variable fixed by propagation is not decided).
    pub nodes: u64,
    /// Decisions undone because their subtree failed or was exhausted.
    pub backtracks: u64,
    /// Returns that skipped at least one level (backjumping).
    pub backjumps: u64,
    /// Failed nodes: propagation or a check found a conflict (usually a wiped-out domain).
    pub failures: u64,
    /// Constraint checks, counted as above: the classic count for generic
    /// support checking, a nominal one for propagators with their own algorithm.
    pub checks: u64,
    /// Propagator calls.
    pub propagations: u64,
    /// Values removed from domains by propagation (not counting the decisions
    /// themselves). Under [`Probing`](crate::Probing) this includes what the
    /// probes' propagation removed before it was undone.
    ///
    /// A call that fails counts what it wrote before failing. So the count
    /// depends on when a propagator writes: the merged all-different system
    /// writes its removals at the end of a successful call, except under
    /// learning or an observer, where it writes each one as it is found (to
    /// give it a reason); there its failed calls' removals count too.
    pub pruned: u64,
    /// Times the search started over from the root ([`Restarts`](crate::Restarts)).
    pub restarts: u64,
    /// Nogoods learnt from conflicts ([`Search::Learning`](crate::Search::Learning)),
    /// or recorded from restarts
    /// ([`SolveConfig::restart_nogoods`](crate::SolveConfig::restart_nogoods)).
    pub learnt: u64,
    /// The literals of those nogoods, all together (over `learnt`, their
    /// mean length).
    pub learnt_literals: u64,
    /// Reductions of the learnt nogoods' database (the first after 2,000
    /// conflicts, then at growing intervals; see
    /// [`SolveConfig::nogood_tiers`](crate::SolveConfig::nogood_tiers)).
    pub reductions: u64,
    /// Learnt nogoods deleted by those reductions, all together.
    pub nogoods_deleted: u64,
    /// Learnt (deletable) nogoods alive just after the last reduction; 0
    /// before the first. Summed by [`Stats::accumulate`].
    pub nogoods_alive: u64,
    /// Of those, the glue ones (literal block distance two or less, as
    /// learnt or as lowered by a recount): the part the reductions keep for
    /// good unless [`SolveConfig::expiring_glue`](crate::SolveConfig::expiring_glue)
    /// or [`SolveConfig::glue_cap`](crate::SolveConfig::glue_cap) bounds it.
    /// Summed by [`Stats::accumulate`].
    pub glue_alive: u64,
    /// Times a recount lowered a learnt nogood's literal block distance
    /// ([`SolveConfig::dynamic_lbd`](crate::SolveConfig::dynamic_lbd)).
    pub lbd_lowered: u64,
    /// The facts vivification removed from the learnt nogoods (assumed
    /// fact by fact at restarts,
    /// [`SolveConfig::vivify_nogoods`](crate::SolveConfig::vivify_nogoods)),
    /// saturating. (A `u32` beside `max_depth`, in what was its padding:
    /// `Stats` is no longer for it, and the tools copy it with each
    /// puzzle's record; 17clue under callgrind moved +0.2% with two `u64`.)
    pub vivify_removed: u32,
    /// Nogoods this worker of a portfolio shared with the others
    /// ([`Portfolio::with_sharing`](crate::portfolio::Portfolio::with_sharing)).
    pub nogoods_exported: u64,
    /// Nogoods of the other workers this one added at its root (those not
    /// already satisfied there).
    pub nogoods_imported: u64,
    /// Probes: temporary assumptions `x = v` propagated and undone
    /// ([`Probing`](crate::Probing)); no nodes.
    pub probes: u64,
    /// Values removed because their probe failed (what each removal then
    /// propagates is counted in `pruned`); under learning, the probes that
    /// failed, each a conflict analysed to a learnt nogood (also counted in
    /// `failures` and `learnt`).
    pub probe_removals: u64,
    /// Decisions a long backjump skipped that were made again before any
    /// other ([`SolveConfig::chrono`](crate::SolveConfig::chrono)); counted
    /// in `nodes` too.
    pub replayed: u64,
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
        self.learnt_literals += other.learnt_literals;
        self.reductions += other.reductions;
        self.nogoods_deleted += other.nogoods_deleted;
        self.nogoods_alive += other.nogoods_alive;
        self.glue_alive += other.glue_alive;
        self.lbd_lowered += other.lbd_lowered;
        self.vivify_removed = self.vivify_removed.saturating_add(other.vivify_removed);
        self.nogoods_exported += other.nogoods_exported;
        self.nogoods_imported += other.nogoods_imported;
        self.probes += other.probes;
        self.probe_removals += other.probe_removals;
        self.replayed += other.replayed;
        self.max_depth = self.max_depth.max(other.max_depth);
        self.solutions += other.solutions;
        self.elapsed += other.elapsed;
    }
}

impl fmt::Display for Stats {
    /// One line; `learnt` appears only when the search learnt something (with
    /// the database's reductions only when there were some, and the
    /// recounts' lowerings only when there were some), `shared` only when a
    /// portfolio's worker shared or imported nogoods, and `probes` (with the
    /// values they removed) only when the search probed, so the line of a
    /// search without either reads as it always has.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "nodes {}, backtracks {}, backjumps {}, failures {}, checks {}, propagations {}, pruned {}, restarts {}",
            self.nodes,
            self.backtracks,
            self.backjumps,
            self.failures,
            self.checks,
            self.propagations,
            self.pruned,
            self.restarts,
        )?;
        if self.learnt > 0 {
            write!(f, ", learnt {}", self.learnt)?;
        }
        if self.reductions > 0 {
            write!(
                f,
                ", reductions {} (deleted {}, alive {}, glue {})",
                self.reductions, self.nogoods_deleted, self.nogoods_alive, self.glue_alive
            )?;
        }
        if self.lbd_lowered > 0 {
            write!(f, ", lowered {}", self.lbd_lowered)?;
        }
        if self.vivify_removed > 0 {
            write!(f, ", vivification removed {}", self.vivify_removed)?;
        }
        if self.nogoods_exported > 0 || self.nogoods_imported > 0 {
            write!(f, ", shared {} (imported {})", self.nogoods_exported, self.nogoods_imported)?;
        }
        if self.probes > 0 {
            write!(f, ", probes {} (removed {})", self.probes, self.probe_removals)?;
        }
        if self.replayed > 0 {
            write!(f, ", replayed {}", self.replayed)?;
        }
        write!(
            f,
            ", max depth {}, solutions {}, time {:.3} ms",
            self.max_depth,
            self.solutions,
            self.elapsed.as_secs_f64() * 1e3
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_names_learnt_nogoods_only_when_there_are_some() {
        let plain = Stats { nodes: 3, restarts: 1, max_depth: 2, solutions: 1, ..Stats::default() };
        assert_eq!(
            plain.to_string(),
            "nodes 3, backtracks 0, backjumps 0, failures 0, checks 0, propagations 0, pruned 0, \
             restarts 1, max depth 2, solutions 1, time 0.000 ms"
        );
        let learning = Stats { learnt: 7, ..plain };
        assert!(learning.to_string().contains("restarts 1, learnt 7, max depth 2"), "{learning}");
        let reduced = Stats {
            reductions: 2,
            nogoods_deleted: 5,
            nogoods_alive: 4,
            glue_alive: 1,
            lbd_lowered: 3,
            ..learning.clone()
        };
        assert!(
            reduced.to_string().contains("learnt 7, reductions 2 (deleted 5, alive 4, glue 1), lowered 3, max depth 2"),
            "{reduced}"
        );
        let sharing = Stats { nogoods_exported: 4, nogoods_imported: 6, ..learning.clone() };
        assert!(sharing.to_string().contains("learnt 7, shared 4 (imported 6), max depth 2"), "{sharing}");
        let probing = Stats { probes: 9, probe_removals: 2, ..plain };
        assert!(probing.to_string().contains("restarts 1, probes 9 (removed 2), max depth 2"), "{probing}");
    }
}
