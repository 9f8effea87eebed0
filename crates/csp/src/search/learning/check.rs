//! The debug check of learning (feature `testing`): every learnt nogood is
//! checked against the brute-force solutions of the model.
//!
//! At a run's first nogood the check enumerates every assignment of the
//! domains as root propagation left them (sound propagation removes no
//! solution, so every solution of the model and the run's assumptions lies
//! within them), when there are at most [`LIMIT`] of them, and keeps those
//! that [`Model::is_solution`](crate::Model::is_solution) accepts. Each learnt
//! clause must then hold for each of them that the search may still reach:
//! not yet found (enumeration), or better than the best so far (branch and
//! bound). A nogood that excludes one is an engine bug: the check panics,
//! naming the nogood and the solution. So is an explanation that some
//! solution satisfies without satisfying what it explains: each answer a
//! propagator gives of its own ([`Propagator::explain`](crate::Propagator::explain))
//! is checked the same way, against every solution.

use super::super::Solver;
use crate::kernel::{Literal, Request, State};
use crate::model::{Model, Sense};

/// The most assignments the check enumerates; a larger model goes unchecked.
pub(super) const LIMIT: u64 = 1 << 20;

/// The solutions a run's nogoods must not exclude.
#[derive(Debug, Default)]
pub(in crate::search) struct Check {
    /// The model's solutions within the root domains, once enumerated
    /// (`None` before the run's first nogood, or for a model too large).
    solutions: Option<Vec<Vec<i64>>>,
    /// Whether the run is past its first nogood.
    started: bool,
    /// The solutions the search found so far.
    found: Vec<Vec<i64>>,
}

impl Check {
    /// Forgets the last run's solutions.
    pub(in crate::search) fn reset(&mut self) {
        *self = Check::default();
    }

    /// The model's solutions within the domains as the root left them
    /// (before entry `root_end` of the history; without one, the domains
    /// now, which must be the root's), if there are few enough assignments.
    fn enumerate(model: &Model, state: &State, root_end: Option<u32>) -> Option<Vec<Vec<i64>>> {
        let history = match root_end {
            Some(end) => Some((state.history()?, end)),
            None => None,
        };
        let mut domains: Vec<Vec<i64>> = Vec::with_capacity(state.num_vars());
        let mut product: u64 = 1;
        for x in 0..state.num_vars() as u32 {
            let values: Vec<i64> = if state.is_interval(x) {
                let bounds = match history {
                    Some((history, end)) => state.interval_before(history, x, end),
                    None => state.interval(x),
                };
                let width = (i128::from(bounds.max) - i128::from(bounds.min) + 1).max(0);
                if width > i128::from(LIMIT) {
                    return None;
                }
                (bounds.min..=bounds.max).collect()
            } else {
                (0..state.num_words(x))
                    .flat_map(|k| {
                        let word = match history {
                            Some((history, end)) => state.word_before(history, x, k, end),
                            None => state.word(x, k),
                        };
                        (0..64).filter(move |bit| word >> bit & 1 != 0).map(move |bit| state.value(x, k * 64 + bit))
                    })
                    .collect()
            };
            product = product.saturating_mul(values.len() as u64);
            if product > LIMIT {
                return None;
            }
            domains.push(values);
        }
        let mut solutions = Vec::new();
        if domains.iter().any(Vec::is_empty) {
            return Some(solutions);
        }
        let mut odometer = vec![0usize; domains.len()];
        loop {
            let values: Vec<i64> = odometer.iter().zip(&domains).map(|(&i, d)| d[i]).collect();
            if model.is_solution(&values) {
                solutions.push(values);
            }
            let mut k = domains.len();
            loop {
                if k == 0 {
                    return Some(solutions);
                }
                k -= 1;
                odometer[k] += 1;
                if odometer[k] < domains[k].len() {
                    break;
                }
                odometer[k] = 0;
            }
        }
    }

    /// The search found the solution the domains are fixed to.
    pub(super) fn found(&mut self, state: &State) {
        self.found.push((0..state.num_vars() as u32).map(|x| state.value(x, state.min_pos(x))).collect());
    }

    /// Checks a learnt clause against every solution the search may still
    /// reach (see the module docs); `best` is branch and bound's best
    /// objective value so far. `root_end` is where the root's entries end
    /// in the history; without one the state must be at the root.
    pub(in crate::search) fn check(
        &mut self,
        clause: &[Literal],
        state: &State,
        model: &Model,
        best: Option<i64>,
        root_end: Option<u32>,
    ) {
        if !self.started {
            self.started = true;
            self.solutions = Check::enumerate(model, state, root_end);
        }
        let Some(solutions) = &self.solutions else { return };
        let objective = model.objective();
        for solution in solutions {
            let reachable = match (best, objective) {
                (Some(best), Some(objective)) => {
                    let value = solution[objective.var.index()];
                    match objective.sense {
                        Sense::Minimize => value < best,
                        Sense::Maximize => value > best,
                    }
                }
                _ => !self.found.contains(solution),
            };
            if reachable && !clause.iter().any(|&literal| state.holds_at(literal, solution[literal.var() as usize])) {
                panic!("the learnt nogood {clause:?} excludes the solution {solution:?}");
            }
        }
    }
}

impl Check {
    /// Checks a propagator's answer to `request` (the `literals`, which with
    /// its constraint `constraint` must imply what it explains) against
    /// every solution of the model: none may satisfy the literals and not
    /// what they explain (for a failure: none may satisfy them).
    pub(super) fn explanation(
        &mut self,
        literals: &[Literal],
        request: Request,
        state: &State,
        model: &Model,
        root_end: Option<u32>,
        constraint: u32,
    ) {
        if !self.started {
            self.started = true;
            self.solutions = Check::enumerate(model, state, root_end);
        }
        let Some(solutions) = &self.solutions else { return };
        for solution in solutions {
            if !literals.iter().all(|&literal| state.holds_at(literal, solution[literal.var() as usize])) {
                continue;
            }
            let explained = match request {
                Request::Removed { var, word, mask } => {
                    state.holds_at(Literal::Outside { var, word, mask }, solution[var as usize])
                }
                Request::AtLeast { var, value } => solution[var as usize] >= value,
                Request::AtMost { var, value } => solution[var as usize] <= value,
                Request::Failure => false,
            };
            assert!(
                explained,
                "constraint {constraint}'s explanation {literals:?} of {request:?} admits the solution {solution:?}"
            );
        }
    }
}

impl Solver<'_> {
    /// Checks every nogood the search learns against the brute-force
    /// solutions of the model (a debug mode for tests, on models of at most
    /// 2^20 assignments within the root domains), panicking at one that
    /// excludes a solution the search may still reach. Does nothing unless
    /// the solver learns ([`Search::Learning`](crate::Search::Learning)) or
    /// records nogoods from restarts
    /// ([`SolveConfig::restart_nogoods`](crate::SolveConfig::restart_nogoods)).
    pub fn check_nogoods(&mut self, on: bool) {
        if let Some(learning) = &mut self.learning {
            learning.check = on.then(Box::default);
        }
        if let Some(nld) = &mut self.nld {
            nld.check = on.then(Box::default);
        }
    }

    /// Reduces the learnt nogoods first after `conflicts` conflicts, and
    /// then after each `conflicts` more than the last interval, instead of
    /// after 2,000 and 300 more each time: a test on a small model reaches
    /// the reduction this way (a debug knob; does nothing unless the solver
    /// learns; the nogoods learnt so far are forgotten).
    pub fn reduce_nogoods_after(&mut self, conflicts: u64) {
        if let Some(learning) = &mut self.learning {
            learning.first_reduction = conflicts.max(1);
            learning.reduction_growth = conflicts.max(1);
            learning.reset();
        }
    }

    /// Folds an interval's changes at one decision level into its latest
    /// entry, explained by the decisions, once it has `entries` entries
    /// there, instead of the engine's 16,384: a test on small domains
    /// reaches the folding this way (a debug knob; does nothing unless the
    /// solver learns).
    pub fn fold_after(&mut self, entries: usize) {
        if let Some(history) = self.state.history_mut() {
            history.slow = entries.max(1);
        }
    }
}
