//! LRB, the learning rate based branching heuristic (Liang, Ganesh, Poupart
//! & Czarnecki, "Learning Rate Based Branching Heuristic for SAT Solvers",
//! SAT 2016), with the locality extension of the paper (MapleCOMSPS's
//! "anti-exploration").
//!
//! Each variable has a score `Q`, an exponential recency weighted average
//! of its learning rates: when a variable is unassigned, its rate is the
//! number of conflicts whose analysis met it while it was assigned
//! (`participated`) over the conflicts since it was assigned (`interval`),
//! and `Q` moves towards the rate by the step size `alpha`, which starts at
//! 0.4 and falls by 10^-6 per conflict to 0.06 (an interval of no conflict
//! leaves `Q` alone). Locality: while a variable is unassigned, its score
//! decays by 0.95 per conflict (kept lazily: the decay since it was
//! unassigned is applied when it is read or assigned again).
//!
//! What "assigned" means here: a CSP variable is narrowed rather than
//! assigned, so a variable counts as assigned from the first entry of the
//! history that narrows it above the root (at a decision level of one or
//! more: whatever the root took from its domain does not count) until the
//! backtrack that undoes that entry, i.e. while its domain is smaller than
//! at the root. Such a variable may still be free, and a decision can
//! still pick it: its score is then the one its last unassignment left,
//! without the locality decay (deep in a sudoku's tree most free variables
//! are narrowed, so most decisions compare such scores, unlike SAT's). The
//! history is read lazily, from its own read point, before each decision
//! and before each conflict's counts; an assignment undone between two
//! reads spans no conflict and is not seen, as in the paper (an interval
//! of zero). The paper's reason-side rate (the variables of the reasons of
//! the learnt clause's literals) is not kept: our explanations are built by
//! the propagators during the analysis, and the literals' reasons are not
//! at hand after it.
//!
//! Without learning there is no history: each failure is a conflict that
//! the failing constraint's variables participated in, each of them over an
//! interval of one (its `Q` moves towards 1), and there is no locality.

use super::Solver;
use super::chb::StepSize;
use crate::ids::VarId;
use crate::kernel::{History, NONE};

/// The locality decay of an unassigned variable's score per conflict.
const LOCALITY: f64 = 0.95;
/// Past this many conflicts unassigned a score's decay is taken as total.
const LOCALITY_HORIZON: u64 = 20_000;

/// The scores, per variable (empty when no ordering reads them).
#[derive(Clone, Debug, Default)]
pub(super) struct Lrb {
    q: Vec<f64>,
    /// Per variable, the conflicts of the run when it was last assigned.
    assigned_at: Vec<u64>,
    /// Per variable, the conflicts that met it since it was assigned.
    participated: Vec<u32>,
    /// Per variable, the conflicts of the run when it was last unassigned
    /// (the locality decay runs from there).
    unassigned_at: Vec<u64>,
    /// Per variable, whether it is assigned.
    assigned: Vec<bool>,
    /// The assigned variables with the history entry that assigned each,
    /// in the history's order (a backtrack undoes a suffix).
    trail: Vec<(u32, u32)>,
    /// The conflicts of the run so far.
    conflicts: u64,
    alpha: StepSize,
}

impl Lrb {
    /// Scores for `num_vars` variables when `on`, none otherwise.
    pub(super) fn new(num_vars: usize, on: bool) -> Lrb {
        let n = if on { num_vars } else { 0 };
        Lrb {
            q: vec![0.0; n],
            assigned_at: vec![0; n],
            participated: vec![0; n],
            unassigned_at: vec![0; n],
            assigned: vec![false; n],
            trail: Vec::new(),
            conflicts: 0,
            alpha: StepSize::default(),
        }
    }

    /// Whether an ordering reads the scores.
    #[inline]
    pub(super) fn is_on(&self) -> bool {
        !self.q.is_empty()
    }

    /// Forgets everything, for a new run, in place (nothing to forget when
    /// off).
    pub(super) fn reset(&mut self) {
        if !self.is_on() {
            return;
        }
        self.q.iter_mut().for_each(|q| *q = 0.0);
        self.assigned_at.iter_mut().for_each(|c| *c = 0);
        self.participated.iter_mut().for_each(|c| *c = 0);
        self.unassigned_at.iter_mut().for_each(|c| *c = 0);
        self.assigned.iter_mut().for_each(|a| *a = false);
        self.trail.clear();
        (self.conflicts, self.alpha) = (0, StepSize::default());
    }

    /// `var`'s score: `Q`, with the locality decay since it was unassigned
    /// when it is.
    #[inline]
    pub(super) fn score(&self, var: u32) -> f64 {
        let v = var as usize;
        if self.assigned[v] { self.q[v] } else { self.q[v] * self.locality(v) }
    }

    /// The locality factor of unassigned variable `v`: 0.95 per conflict
    /// since it was unassigned.
    #[inline]
    fn locality(&self, v: usize) -> f64 {
        let age = self.conflicts - self.unassigned_at[v];
        if age == 0 {
            1.0
        } else if age > LOCALITY_HORIZON {
            0.0
        } else {
            LOCALITY.powi(age as i32)
        }
    }

    /// `var` is assigned (by history entry `entry`): the decay it took
    /// while unassigned is folded into `Q`, and its counts start.
    fn assign(&mut self, var: u32, entry: u32) {
        let v = var as usize;
        self.q[v] *= self.locality(v);
        self.assigned[v] = true;
        self.assigned_at[v] = self.conflicts;
        self.participated[v] = 0;
        self.trail.push((var, entry));
    }

    /// `var` is unassigned: `Q` moves towards its learning rate, when a
    /// conflict came since it was assigned.
    fn unassign(&mut self, var: u32) {
        let v = var as usize;
        let interval = self.conflicts - self.assigned_at[v];
        if interval > 0 {
            let rate = f64::from(self.participated[v]) / interval as f64;
            self.q[v] = self.alpha.towards(self.q[v], rate);
        }
        self.assigned[v] = false;
        self.unassigned_at[v] = self.conflicts;
    }

    /// Catches up with `history`: the variables whose assigning entry was
    /// undone (at `from` or later: the history's read point for LRB, pulled
    /// back by the undoing) are unassigned, latest first, then the entries
    /// from `from` on assign the variables they narrow above the root for
    /// the first time.
    pub(super) fn catch_up(&mut self, from: u32, history: &History) {
        while let Some(&(var, entry)) = self.trail.last() {
            if entry < from {
                break;
            }
            self.trail.pop();
            self.unassign(var);
        }
        for (e, entry) in history.entries.iter().enumerate().skip(from as usize) {
            if entry.level == 0 || self.assigned[entry.var as usize] {
                continue;
            }
            // The first narrowing above the root: no earlier entry, or the
            // root's only (the root's entries come before all others but
            // its facts, which keep level 0 wherever they stand).
            if entry.previous == NONE || history.entries[entry.previous as usize].level == 0 {
                self.assign(entry.var, e as u32);
            }
        }
    }

    /// Panics unless the variables assigned are those `history` narrows
    /// above the root, each by the entry the trail holds (all read).
    #[cfg(test)]
    fn check(&self, history: &History) {
        for (var, &assigned) in self.assigned.iter().enumerate() {
            let mut first = None;
            let mut e = history.last(var as u32);
            while e != NONE {
                let entry = &history.entries[e as usize];
                if entry.level > 0 {
                    first = Some(e);
                }
                e = entry.previous;
            }
            assert_eq!(assigned, first.is_some(), "x{var}");
            if let Some(first) = first {
                assert!(self.trail.contains(&(var as u32, first)), "x{var} by entry {first}");
            }
        }
        assert_eq!(self.trail.len(), self.assigned.iter().filter(|&&a| a).count());
    }

    /// A conflict whose analysis met `vars`: the assigned ones participated
    /// in it, and the step size falls.
    pub(super) fn conflict(&mut self, vars: impl IntoIterator<Item = u32>) {
        self.conflicts += 1;
        for var in vars {
            if self.assigned[var as usize] {
                self.participated[var as usize] += 1;
            }
        }
        self.alpha.fall();
    }

    /// A failure of the constraint on `scope` (search without learning): a
    /// conflict its variables participated in, each over an interval of one.
    /// (No count of conflicts: without assignments there is no interval
    /// and no locality.)
    pub(super) fn failure(&mut self, scope: &[VarId]) {
        for v in scope {
            let q = &mut self.q[v.index as usize];
            *q = self.alpha.towards(*q, 1.0);
        }
        self.alpha.fall();
    }
}

impl Solver<'_> {
    /// The free variable with the highest LRB score; ties to the smallest
    /// domain, then to the smallest index.
    pub(super) fn highest_lrb(&self, free: &[u32]) -> Option<u32> {
        self.highest(free, |x, _| Some(self.lrb.score(x)))
    }

    /// With LRB on and the history on, catches up with the history's
    /// entries since the last time (see [`Lrb::catch_up`]).
    #[inline]
    pub(super) fn lrb_catch_up(&mut self) {
        if !self.lrb.is_on() {
            return;
        }
        if let Some((from, history)) = self.state.take_unread_by_lrb() {
            self.lrb.catch_up(from, history);
            #[cfg(test)]
            self.lrb.check(history);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Solver;
    use super::Lrb;
    use crate::ids::VarId;
    use crate::model::Model;

    #[test]
    fn the_choice_is_the_highest_score_then_the_smallest_domain() {
        let mut model = Model::new();
        model.new_vars(3, 0..=4).unwrap();
        let mut solver = Solver::new(&model, "mac+learn+lrb+phase".parse().unwrap()).unwrap();
        assert!(solver.lrb.is_on());
        assert!(!solver.chb.is_on());
        // No score: the smallest domain, then the first variable.
        solver.state.remove_pos(2, 0);
        assert_eq!(solver.select_var(), Some(2));
        // x1 assigned, met by a conflict, then unassigned: the highest score.
        solver.lrb.assign(1, 0);
        solver.lrb.conflict([1]);
        solver.lrb.unassign(1);
        assert_eq!(solver.select_var(), Some(1));
        // In turn with dom/wdeg: dom/wdeg's run first (the smallest domain).
        let mut alternate = Solver::new(&model, "mac+learn+altlrb+phase+luby".parse().unwrap()).unwrap();
        alternate.state.remove_pos(2, 0);
        alternate.lrb.assign(1, 0);
        alternate.lrb.conflict([1]);
        alternate.lrb.unassign(1);
        assert_eq!(alternate.select_var(), Some(2));
        alternate.run.stats.restarts = 1;
        assert_eq!(alternate.select_var(), Some(1));
        // Other orderings keep no scores.
        assert!(!Solver::new(&model, "mac+chb".parse().unwrap()).unwrap().lrb.is_on());
    }

    #[test]
    fn rates_follow_the_paper() {
        let mut lrb = Lrb::new(3, true);
        // x0 assigned, two conflicts, one met it: Q moves towards 1/2 by the
        // step size of the second conflict.
        lrb.assign(0, 0);
        lrb.conflict([0]);
        lrb.conflict([1]);
        assert!((lrb.alpha.0 - (0.4 - 2e-6)).abs() < 1e-15);
        lrb.unassign(0);
        let alpha = 0.4 - 2e-6;
        assert!((lrb.q[0] - alpha * 0.5).abs() < 1e-12);
        // x1 was not assigned: the conflict that met it does not count.
        assert_eq!(lrb.participated[1], 0);
        // No conflict while assigned: Q unchanged.
        lrb.assign(2, 1);
        lrb.unassign(2);
        assert_eq!(lrb.q[2], 0.0);
        // Locality: 0.95 per conflict while unassigned, folded in when the
        // variable is assigned again.
        let q = lrb.q[0];
        assert_eq!(lrb.score(0), q);
        lrb.conflict([]);
        lrb.conflict([]);
        assert!((lrb.score(0) - q * 0.95 * 0.95).abs() < 1e-15);
        lrb.assign(0, 2);
        assert!((lrb.q[0] - q * 0.95 * 0.95).abs() < 1e-15);
        lrb.conflict([]);
        assert!((lrb.score(0) - q * 0.95 * 0.95).abs() < 1e-15, "no decay while assigned");
        // The step size stops at 0.06.
        for _ in 0..400_000 {
            lrb.conflict([]);
        }
        assert_eq!(lrb.alpha.0, 0.06);
        // A failure without learning: its scope's scores move towards 1.
        let mut plain = Lrb::new(2, true);
        plain.failure(&[VarId { index: 1, model: 0 }]);
        assert!((plain.score(1) - 0.4).abs() < 1e-12);
        assert_eq!(plain.score(0), 0.0);
        // Off: no scores.
        assert!(!Lrb::new(3, false).is_on());
    }

    /// The assignments read from the history follow its undoing: in a
    /// search that learns, after each catching up (checked there under
    /// test) a variable is assigned exactly when the history narrows it
    /// above the root; pigeons into fewer holes, with restarts.
    #[test]
    fn assignments_follow_the_history() {
        let mut model = Model::new();
        let xs = model.new_vars(7, 0..=5).unwrap();
        for (i, &x) in xs.iter().enumerate() {
            for &y in &xs[i + 1..] {
                model.not_equal(x, y).unwrap();
            }
        }
        for config in ["mac+learn+lrb+phase+luby=1", "mac+learn+altlrb+luby=1+pairwise", "mac+learn+lrb"] {
            let mut solver = Solver::new(&model, config.parse().unwrap()).unwrap();
            let count = solver.count(None);
            assert!(count.solutions == 0 && count.is_complete(), "{config}");
            assert!(solver.lrb.conflicts > 10, "{config}: {}", solver.lrb.conflicts);
            assert!(solver.lrb.q.iter().any(|&q| q > 0.0), "{config}");
        }
    }
}
