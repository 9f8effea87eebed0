//! CHB, the conflict history-based branching heuristic (Liang, Ganesh,
//! Poupart & Czarnecki, "Exponential Recency Weighted Average Branching
//! Heuristic for SAT Solvers", AAAI 2016).
//!
//! Each variable has a score `Q`, an exponential recency weighted average
//! of the rewards it received: after each propagation (a decision's, or a
//! nogood's assertion), every variable it narrowed (or fixed) receives the
//! reward `multiplier / (conflicts - last_conflict + 1)`, where
//! `last_conflict` is the latest conflict whose analysis met the variable
//! and the multiplier is 1.0 when the propagation ended in a conflict and
//! 0.9 otherwise; `Q` moves towards it by the step size `alpha`, which
//! starts at 0.4 and falls by 10^-6 per conflict to 0.06. A variable
//! narrowed near recent conflicts, or by a propagation that failed, scores
//! high. Under search that learns, the history says which variables a
//! propagation narrowed (each is rewarded once per propagation); without
//! learning there is no history, and each failure rewards the failing
//! constraint's variables as a conflict's (multiplier 1.0).

use super::Solver;
use crate::ids::VarId;
use crate::kernel::Entry;

/// How much the step size falls per conflict.
const ALPHA_DECAY: f64 = 1e-6;
/// The smallest step size.
const ALPHA_END: f64 = 0.06;

/// The step size of an exponential recency weighted average, CHB's and
/// LRB's (the sibling module `lrb`): 0.4 at the start of a run, falling by
/// 10^-6 per conflict to 0.06.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct StepSize(pub(super) f64);

impl Default for StepSize {
    fn default() -> StepSize {
        StepSize(0.4)
    }
}

impl StepSize {
    /// One conflict more.
    #[inline]
    pub(super) fn fall(&mut self) {
        self.0 = (self.0 - ALPHA_DECAY).max(ALPHA_END);
    }

    /// The average `q` moved towards `target` by the step size.
    #[inline]
    pub(super) fn towards(self, q: f64, target: f64) -> f64 {
        (1.0 - self.0) * q + self.0 * target
    }
}
/// The reward multiplier of a propagation that ended in a conflict.
const CONFLICT_MULTIPLIER: f64 = 1.0;
/// The reward multiplier of a propagation that did not.
const QUIET_MULTIPLIER: f64 = 0.9;

/// The scores, per variable (empty when no ordering reads them).
#[derive(Clone, Debug, Default)]
pub(super) struct Chb {
    q: Vec<f64>,
    /// Per variable, the latest conflict whose analysis met it (0: none).
    last_conflict: Vec<u64>,
    /// The conflicts of the run so far.
    conflicts: u64,
    alpha: StepSize,
    /// Per variable, the reward round it was last rewarded in, so that a
    /// propagation rewards a variable once however many entries it made.
    rewarded: Vec<u32>,
    round: u32,
}

impl Chb {
    /// Scores for `num_vars` variables when `on`, none otherwise.
    pub(super) fn new(num_vars: usize, on: bool) -> Chb {
        let n = if on { num_vars } else { 0 };
        Chb {
            q: vec![0.0; n],
            last_conflict: vec![0; n],
            conflicts: 0,
            alpha: StepSize::default(),
            rewarded: vec![0; n],
            round: 0,
        }
    }

    /// Whether an ordering reads the scores.
    #[inline]
    pub(super) fn is_on(&self) -> bool {
        !self.q.is_empty()
    }

    /// Forgets everything, for a new run.
    pub(super) fn reset(&mut self) {
        if !self.is_on() {
            return;
        }
        self.q.iter_mut().for_each(|q| *q = 0.0);
        self.last_conflict.iter_mut().for_each(|c| *c = 0);
        self.rewarded.iter_mut().for_each(|r| *r = 0);
        (self.conflicts, self.alpha, self.round) = (0, StepSize::default(), 0);
    }

    #[inline]
    pub(super) fn score(&self, var: u32) -> f64 {
        self.q[var as usize]
    }

    /// A conflict whose analysis met `vars`: they are its latest, and the
    /// step size falls.
    pub(super) fn conflict(&mut self, vars: impl IntoIterator<Item = u32>) {
        self.conflicts += 1;
        for var in vars {
            self.last_conflict[var as usize] = self.conflicts;
        }
        self.alpha.fall();
    }

    /// Rewards `var` with `multiplier`, unless this round already did.
    #[inline]
    fn reward(&mut self, var: u32, multiplier: f64) {
        let v = var as usize;
        if self.rewarded[v] == self.round {
            return;
        }
        self.rewarded[v] = self.round;
        let reward = multiplier / (self.conflicts - self.last_conflict[v] + 1) as f64;
        self.q[v] = self.alpha.towards(self.q[v], reward);
    }

    /// Opens a round: each variable is rewarded at most once in it.
    fn next_round(&mut self) {
        self.round = self.round.wrapping_add(1);
        if self.round == 0 {
            self.rewarded.iter_mut().for_each(|r| *r = 0);
            self.round = 1;
        }
    }

    /// Rewards the variables of the history's entries not rewarded yet
    /// (those of the propagation just over), `conflict` telling whether it
    /// ended in one, and marks them rewarded.
    pub(super) fn reward_propagation(&mut self, entries: &[Entry], conflict: bool) {
        let multiplier = if conflict { CONFLICT_MULTIPLIER } else { QUIET_MULTIPLIER };
        self.next_round();
        for entry in entries {
            self.reward(entry.var, multiplier);
        }
    }

    /// A failure of the constraint on `scope` (search without learning):
    /// a conflict that met its variables, and their reward.
    pub(super) fn failure(&mut self, scope: &[VarId]) {
        self.conflict(scope.iter().map(|v| v.index));
        self.next_round();
        for v in scope {
            self.reward(v.index, CONFLICT_MULTIPLIER);
        }
    }
}

impl Solver<'_> {
    /// The free variable with the highest CHB score; ties to the smallest
    /// domain, then to the smallest index.
    pub(super) fn highest_chb(&self, free: &[u32]) -> Option<u32> {
        self.highest(free, |x, _| Some(self.chb.score(x)))
    }

    /// Under search that learns with CHB on, rewards the variables the
    /// propagation just over narrowed (see [`Chb::reward_propagation`]).
    #[inline]
    pub(super) fn chb_reward(&mut self, conflict: bool) {
        if !self.chb.is_on() {
            return;
        }
        self.chb.reward_propagation(self.state.take_unrewarded(), conflict);
    }
}

#[cfg(test)]
mod tests {
    use super::super::Solver;
    use super::Chb;
    use crate::ids::VarId;
    use crate::model::Model;

    #[test]
    fn the_choice_is_the_highest_score_then_the_smallest_domain() {
        let mut model = Model::new();
        model.new_vars(3, 0..=4).unwrap();
        let mut solver = Solver::new(&model, "mac+chb+phase".parse().unwrap()).unwrap();
        assert!(solver.chb.is_on());
        // No score: the smallest domain, then the first variable.
        solver.state.remove_pos(2, 0);
        assert_eq!(solver.select_var(), Some(2));
        // x1 rewarded after a conflict that met it: the highest score.
        solver.chb.conflict([1]);
        solver.chb.next_round();
        solver.chb.reward(1, 1.0);
        assert_eq!(solver.select_var(), Some(1));
        // In turn with dom/wdeg: dom/wdeg's run first (the smallest domain).
        let mut alternate = Solver::new(&model, "mac+altchb+phase+luby".parse().unwrap()).unwrap();
        alternate.state.remove_pos(2, 0);
        alternate.chb.conflict([1]);
        alternate.chb.next_round();
        alternate.chb.reward(1, 1.0);
        assert_eq!(alternate.select_var(), Some(2));
        alternate.run.stats.restarts = 1;
        assert_eq!(alternate.select_var(), Some(1));
        // Other orderings keep no scores.
        assert!(!Solver::new(&model, "mac+alternate".parse().unwrap()).unwrap().chb.is_on());
    }

    #[test]
    fn rewards_follow_the_paper() {
        let mut chb = Chb::new(3, true);
        // No conflict yet: a quiet propagation's reward is 0.9 / 1.
        chb.next_round();
        chb.reward(0, 0.9);
        assert!((chb.score(0) - 0.4 * 0.9).abs() < 1e-12);
        // Rewarded once per round.
        chb.reward(0, 0.9);
        assert!((chb.score(0) - 0.36).abs() < 1e-12);
        // A conflict that met x1: the step size falls by 1e-6; x1's reward
        // is 1 / (1 - 1 + 1), x2's (never met) 1 / (1 - 0 + 1).
        chb.conflict([1]);
        assert!((chb.alpha.0 - (0.4 - 1e-6)).abs() < 1e-15);
        chb.next_round();
        chb.reward(1, 1.0);
        chb.reward(2, 1.0);
        let alpha = 0.4 - 1e-6;
        assert!((chb.score(1) - alpha).abs() < 1e-12);
        assert!((chb.score(2) - alpha * 0.5).abs() < 1e-12);
        // The average moves towards the reward: x0 again, a later quiet
        // round, two conflicts after it was last met (never: 0).
        chb.conflict([2]);
        chb.next_round();
        chb.reward(0, 0.9);
        let alpha = 0.4 - 2e-6;
        assert!((chb.score(0) - ((1.0 - alpha) * 0.36 + alpha * 0.9 / 3.0)).abs() < 1e-12);
        // The step size stops at 0.06.
        for _ in 0..400_000 {
            chb.conflict([]);
        }
        assert_eq!(chb.alpha.0, 0.06);
        // A failure without learning: its scope met and rewarded 1.0.
        let mut plain = Chb::new(2, true);
        plain.failure(&[VarId { index: 1, model: 0 }]);
        assert!((plain.score(1) - (0.4 - 1e-6)).abs() < 1e-12);
        assert_eq!(plain.score(0), 0.0);
        // Off: no scores.
        assert!(!Chb::new(3, false).is_on());
    }
}
