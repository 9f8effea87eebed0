//! Restarts (Gomes, Selman & Kautz 1998): the policy, Luby's sequence of
//! cutoffs, geometric ones or Glucose's dynamic restarts, and the count of
//! failures (and the learnt nogoods' literal block distances) towards the
//! next restart. For search that learns, the schedules that act at
//! restarts, counted in conflicts: rephasing
//! ([`SolveConfig::rephase`]) and the stable and focused modes
//! ([`SolveConfig::stable_modes`]), and the target phases updated at each
//! conflict (the sibling module `activity`).

use std::collections::VecDeque;

use super::Solver;
use super::activity::Rephase;
use super::config::{Search, SolveConfig};
use crate::observer::SearchEvent;

/// Whether the search starts over from the root after a number of failures
/// (restarts, Gomes, Selman & Kautz 1998). A backtracking search's cost on
/// hard instances is heavy-tailed: an early wrong decision can hide the
/// answer under a subtree thousands of times larger than the usual one.
/// Restarting after a while, with the variable ordering having learned from
/// the failures ([`VarOrder::DomWdeg`](crate::VarOrder::DomWdeg) keeps its weights across restarts of
/// one run) or with [`ValueOrder::Random`](crate::ValueOrder::Random) drawing a new order, can cut that
/// tail off. Not always: on hard sudokus, with one solution and little to
/// randomise, they are much slower (docs/compare.md has the numbers).
///
/// The search stays complete: the cutoffs grow without bound, so a run that
/// finds nothing eventually explores a whole tree. Restarts stop at the run's
/// first solution; the search goes on from there without them, so
/// [`Solver::solutions`](crate::Solver::solutions) and
/// [`Solver::count`](crate::Solver::count) still see every solution once.
/// Under branch and bound ([`Solver::optimize`](crate::Solver::optimize)) they
/// go on after solutions, keeping the bound: no solution can be found twice.
/// They only change the search with an ordering that learns or draws at
/// random: with the others each restart repeats the same tree, unless the
/// restarts record the explored subtrees as nogoods
/// ([`SolveConfig::restart_nogoods`](crate::SolveConfig::restart_nogoods)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Restarts {
    /// One tree, searched to the end.
    #[default]
    Never,
    /// Restart after `scale` times the next term of Luby, Sinclair & Zuckerman's
    /// (1993) sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ... failures. `scale` is
    /// at least 1.
    Luby {
        /// Failures in the first, shortest runs.
        scale: u32,
    },
    /// Restart after `scale`, `scale x factor`, `scale x factor^2`, ...
    /// failures (rounded up): geometric cutoffs (Walsh 1999), which grow
    /// faster than Luby's and never come back down. `scale` is at least 1
    /// and the factor above 1.
    Geometric {
        /// Failures in the first run.
        scale: u32,
        /// The factor between two cutoffs, in thousandths (1500 is 1.5),
        /// so that the policy is exact and comparable.
        factor_thousandths: u32,
    },
    /// Glucose's dynamic restarts (Audemard & Simon 2012, "Refining restarts
    /// strategies for SAT and UNSAT"), only for search that learns: restart
    /// when the nogoods learnt lately are worse than usual, that is when at
    /// least `window` conflicts happened since the last restart and the mean
    /// literal block distance of the last `window` learnt nogoods, times
    /// 0.8, is above the mean of all the run's. A search that learns good
    /// (low-distance) nogoods goes on; one whose nogoods grow worse starts
    /// over. `window` is at least 1.
    Glucose {
        /// The number of recent nogoods averaged (Glucose's 50).
        window: u32,
    },
}

impl Restarts {
    /// The default scale of [`Restarts::Luby`].
    pub const LUBY_SCALE: u32 = 100;
    /// The default scale of [`Restarts::Geometric`].
    pub const GEOMETRIC_SCALE: u32 = 100;
    /// The default factor of [`Restarts::Geometric`], in thousandths: 1.5.
    pub const GEOMETRIC_FACTOR_THOUSANDTHS: u32 = 1500;
    /// The default window of [`Restarts::Glucose`].
    pub const GLUCOSE_WINDOW: u32 = 50;

    /// Whether `search` can restart by this policy: `Err` with what is not
    /// supported and what is, when it cannot (Glucose's restarts follow
    /// the learnt nogoods, so they need a search that learns).
    pub fn supports(self, search: Search) -> Result<(), (&'static str, &'static str)> {
        match self {
            Restarts::Glucose { .. } if !search.learns() => Err((
                "Glucose's restarts without learning",
                "they follow the learnt nogoods' literal block distances: mac+learn+glucose; luby and geometric \
                 restart any search",
            )),
            _ => Ok(()),
        }
    }

    /// Failures allowed before restart number `restart` (from 0), `None`
    /// when the search never restarts or restarts by another measure
    /// ([`Restarts::Glucose`]).
    pub fn cutoff(self, restart: u64) -> Option<u64> {
        match self {
            Restarts::Never | Restarts::Glucose { .. } => None,
            Restarts::Luby { scale } => Some(u64::from(scale.max(1)).saturating_mul(luby(restart + 1))),
            Restarts::Geometric { scale, factor_thousandths } => {
                let factor = f64::from(factor_thousandths.max(1001)) / 1000.0;
                let exponent = i32::try_from(restart).unwrap_or(i32::MAX);
                // Rounded up, so that every cutoff is at least the previous
                // one; a float beyond `u64` saturates in the conversion.
                let cutoff = (f64::from(scale.max(1)) * factor.powi(exponent)).ceil();
                Some(cutoff as u64)
            }
        }
    }
}

/// Term `i` (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ...
fn luby(mut i: u64) -> u64 {
    loop {
        // 2^(k-1) <= i < 2^k.
        let k = u64::BITS - i.leading_zeros();
        if k == u64::BITS || i == (1u64 << k) - 1 {
            return 1u64 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

/// The conflicts after which rephase number `k` (from 1) is due: `unit x
/// k(k+1)/2`, the sum of `unit`, `2 unit`, ..., `k unit` (CaDiCaL's
/// arithmetic schedule, `rephaseint x` the rephases so far plus one).
pub(super) fn rephase_at(unit: u32, k: u64) -> u64 {
    let triangle = if k % 2 == 0 { (k / 2).saturating_mul(k + 1) } else { k.saturating_mul(k.div_ceil(2)) };
    u64::from(unit).saturating_mul(triangle)
}

/// The conflicts after which mode number `i` (from 0; even ones focused,
/// odd ones stable) ends: mode `i` lasts `unit x 2^i` conflicts, so it ends
/// after `unit x (2^(i+1) - 1)`.
pub(super) fn mode_end(unit: u32, i: u32) -> u64 {
    let modes = 1u64.checked_shl(i + 1).map_or(u64::MAX, |power| power - 1);
    u64::from(unit).saturating_mul(modes)
}

/// Whether mode number `i` is the stable one.
pub(super) fn is_stable_mode(i: u32) -> bool {
    i % 2 == 1
}

/// The failures of the current restart, and how many it may have.
#[derive(Clone, Debug, Default)]
pub(super) struct RestartClock {
    failures: u64,
    cutoff: Option<u64>,
    distances: Distances,
    schedule: Schedule,
}

/// Rephasing and the modes of a run, counted in its conflicts (of search
/// that learns); what is due waits for the next restart.
#[derive(Clone, Debug, Default)]
struct Schedule {
    conflicts: u64,
    /// The rephases due so far.
    rephases: u64,
    /// The rephase due at the next restart.
    rephase: Option<Rephase>,
    /// The current mode's number (see [`mode_end`]).
    mode: u32,
    /// Whether the next restart switches modes.
    switch: bool,
    /// The restarts since the current mode began.
    mode_restarts: u64,
}

/// The literal block distances of the learnt nogoods, for
/// [`Restarts::Glucose`]: the last few of the current restart, and the sum
/// and count of all of the run's.
#[derive(Clone, Debug, Default)]
pub(super) struct Distances {
    recent: VecDeque<u32>,
    recent_sum: u64,
    sum: u64,
    count: u64,
}

/// Glucose's K: restart when the recent mean times this is above the run's.
const GLUCOSE_K: f64 = 0.8;

impl Distances {
    /// A nogood of distance `lbd` was learnt; the window keeps the last `window`.
    fn push(&mut self, lbd: u32, window: usize) {
        self.recent.push_back(lbd);
        self.recent_sum += u64::from(lbd);
        if self.recent.len() > window {
            self.recent_sum -= u64::from(self.recent.pop_front().expect("a full window"));
        }
        self.sum += u64::from(lbd);
        self.count += 1;
    }

    /// Whether the window is full and its mean, times [`GLUCOSE_K`], is
    /// above the run's mean.
    fn worse_than_usual(&self, window: usize) -> bool {
        if self.recent.len() < window || self.count == 0 {
            return false;
        }
        let recent = self.recent_sum as f64 / self.recent.len() as f64;
        let all = self.sum as f64 / self.count as f64;
        recent * GLUCOSE_K > all
    }

    /// A restart: the window starts empty; the run's mean goes on.
    fn restarted(&mut self) {
        self.recent.clear();
        self.recent_sum = 0;
    }
}

impl Solver<'_> {
    /// A new run has had no failure yet.
    pub(super) fn restart_clock_reset(&mut self) {
        self.restarts = RestartClock {
            failures: 0,
            cutoff: self.cutoff_of_run(0),
            distances: Distances::default(),
            schedule: Schedule::default(),
        };
    }

    /// Whether the search is in the stable mode of
    /// [`SolveConfig::stable_modes`].
    #[inline]
    pub(super) fn in_stable_mode(&self) -> bool {
        is_stable_mode(self.restarts.schedule.mode)
    }

    /// Whose turn it is in a rotating order
    /// ([`VarOrder::rotation`](crate::VarOrder::rotation)): the restart
    /// run's number, or under [`SolveConfig::stable_modes`] the mode's, so
    /// that `alternate` decides by dom/wdeg in the focused modes and by the
    /// most active literal in the stable ones (as CaDiCaL's focused mode
    /// has its own ordering, VMTF, and its stable mode VSIDS).
    #[inline]
    pub(super) fn rotation_turn(&self) -> u64 {
        if self.turns_by_mode() { u64::from(self.restarts.schedule.mode) } else { self.run.stats.restarts }
    }

    /// Whether a rotating order takes its turns by mode (under
    /// [`SolveConfig::stable_modes`] with learning) rather than by restart.
    #[inline]
    fn turns_by_mode(&self) -> bool {
        self.program.config.stable_modes.is_some() && self.program.config.learning()
    }

    /// The restart policy of the current mode: the configuration's, or in
    /// the stable mode Luby's with [`SolveConfig::STABLE_LUBY_SCALE`].
    fn restart_policy(&self) -> Restarts {
        if self.in_stable_mode() {
            Restarts::Luby { scale: SolveConfig::STABLE_LUBY_SCALE }
        } else {
            self.program.config.restarts
        }
    }

    /// The failures allowed to the next run: in the stable mode by the
    /// restarts since it began, otherwise by [`Solver::cutoff_of_run`].
    fn cutoff_now(&self) -> Option<u64> {
        if self.in_stable_mode() {
            self.restart_policy().cutoff(self.restarts.schedule.mode_restarts)
        } else {
            self.cutoff_of_run(self.run.stats.restarts)
        }
    }

    /// A conflict of search that learns, before its backjump: offers the
    /// conflict-free state before it to the target and best phases (the
    /// variables the free list had fixed at its last compaction, before the
    /// last decision, or the level's state before the last assertion), and
    /// counts it towards the next rephase and the end of the mode.
    fn count_conflict(&mut self) {
        if self.activity.keeps_targets() {
            let count = self.state.int(self.tree.free_count) as usize;
            self.activity.offer(&self.state, &self.tree.free[count..]);
        }
        let config = &self.program.config;
        let schedule = &mut self.restarts.schedule;
        schedule.conflicts += 1;
        if let Some(unit) = config.rephase
            && schedule.rephase.is_none()
            && schedule.conflicts >= rephase_at(unit, schedule.rephases + 1)
        {
            schedule.rephases += 1;
            schedule.rephase = Some(Rephase::nth(schedule.rephases));
        }
        if let Some(unit) = config.stable_modes
            && schedule.conflicts >= mode_end(unit, schedule.mode)
        {
            schedule.switch = true;
        }
    }

    /// The failures allowed to the run after restart number `restarts`: the
    /// policy's cutoff, except that under a rotating order
    /// ([`VarOrder::rotation`](crate::VarOrder::rotation)) each of its `k` orderings follows the
    /// policy's sequence as if it ran alone (the runs take each cutoff `k`
    /// times, once for each ordering), so that none gets only the short
    /// runs of Luby's sequence. When the orderings take their turns by mode
    /// ([`Solver::rotation_turn`]), consecutive runs share one ordering, so
    /// the runs follow the sequence itself.
    fn cutoff_of_run(&self, restarts: u64) -> Option<u64> {
        let turns = if self.turns_by_mode() { 1 } else { self.program.config.var_order.rotation().len().max(1) as u64 };
        let term = restarts / turns;
        self.program.config.restarts.cutoff(term)
    }

    /// After a failure: when the restart policy's cutoff is reached and this
    /// run has no solution yet, drops every decision and returns true (the
    /// search descends again from the root).
    pub(super) fn restart_if_due(&mut self) -> bool {
        if !self.restart_due(None) {
            return false;
        }
        self.restart_now();
        true
    }

    /// Drops every decision (there is at least one) and counts a restart:
    /// the search descends again from the root.
    pub(super) fn restart_now(&mut self) {
        self.nld_record();
        let root = self.tree.frames[0].mark;
        self.state.undo_to(root);
        for frame in &self.tree.frames {
            self.tree.decided[frame.var as usize] = false;
            self.tree.level_of[frame.var as usize] = 0;
        }
        self.tree.frames.clear();
        self.tree.orders.clear();
        if let Some(bj) = &mut self.backjumping {
            bj.reset();
        }
        self.restarted();
        self.nld_restarted();
    }

    /// After a failure (from which a search that learns learnt a nogood of
    /// distance `lbd`): counts it towards the cutoff, and says whether the
    /// search is to restart now (the cutoff is reached, or under
    /// [`Restarts::Glucose`] the recent nogoods are worse than usual; the
    /// search is below the root, and this run may still restart).
    pub(super) fn restart_due(&mut self, lbd: Option<u32>) -> bool {
        if lbd.is_some() {
            self.count_conflict();
        }
        // Glucose's distances are the focused modes' alone: the stable
        // mode's ordering learns nogoods of other distances, which would
        // make the focused ones look worse than usual (Kissat keeps its
        // averages per mode).
        if let (Restarts::Glucose { window }, Some(lbd)) = (self.program.config.restarts, lbd)
            && !self.in_stable_mode()
        {
            self.restarts.distances.push(lbd, window.max(1) as usize);
        }
        let due = match self.restart_policy() {
            Restarts::Never => false,
            Restarts::Luby { .. } | Restarts::Geometric { .. } => {
                self.restarts.failures += 1;
                self.restarts.cutoff.is_some_and(|cutoff| self.restarts.failures >= cutoff)
            }
            Restarts::Glucose { window } => self.restarts.distances.worse_than_usual(window.max(1) as usize),
        };
        let schedule = &self.restarts.schedule;
        let due = due || schedule.switch || schedule.rephase.is_some();
        // After the first solution the search must finish its tree: another
        // restart would find that solution again. Not so under branch and
        // bound, where the bound excludes every solution found so far.
        let enumerating = self.run.optimizing.is_none();
        if !due || (enumerating && self.run.stats.solutions > 0) {
            return false;
        }
        !self.tree.frames.is_empty()
    }

    /// The search went back to the root: counts the restart, switches
    /// modes and rephases when due, forgets the target, sets the next
    /// cutoff and tells the observer.
    pub(super) fn restarted(&mut self) {
        self.run.stats.restarts += 1;
        self.restarts.failures = 0;
        let schedule = &mut self.restarts.schedule;
        schedule.mode_restarts += 1;
        if std::mem::take(&mut schedule.switch) {
            schedule.mode += 1;
            schedule.mode_restarts = 0;
            self.activity.set_stable(is_stable_mode(schedule.mode));
        }
        if let Some(kind) = schedule.rephase.take() {
            self.activity.rephase(kind, &self.state, &mut self.run.rng);
        }
        self.activity.forget_target();
        self.restarts.cutoff = self.cutoff_now();
        self.restarts.distances.restarted();
        let count = self.run.stats.restarts;
        self.emit(SearchEvent::Restart { count });
    }
}

#[cfg(test)]
mod tests {
    use super::super::config::{Branching, Propagation};
    use super::*;

    #[test]
    fn luby_sequence() {
        let terms: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(terms, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
        assert_eq!(luby(u64::MAX), 1 << 63);
        assert_eq!(Restarts::Luby { scale: 10 }.cutoff(6), Some(40));
        assert_eq!(Restarts::Luby { scale: 0 }.cutoff(0), Some(1));
        assert_eq!(Restarts::Never.cutoff(0), None);
        for text in ["never", "luby", "luby=7"] {
            assert_eq!(text.parse::<Restarts>().unwrap().to_string(), text);
        }
        assert!("luby=0".parse::<Restarts>().is_err());
        assert!("lubby".parse::<Restarts>().unwrap_err().to_string().contains("never, luby, luby=SCALE"));
    }

    #[test]
    fn geometric_cutoffs_grow_by_their_factor() {
        let policy = Restarts::Geometric { scale: 10, factor_thousandths: 1500 };
        let cutoffs: Vec<u64> = (0..6).map(|r| policy.cutoff(r).unwrap()).collect();
        assert_eq!(cutoffs, [10, 15, 23, 34, 51, 76]);
        // Rounded up: a small scale still grows.
        let slow = Restarts::Geometric { scale: 1, factor_thousandths: 1100 };
        assert_eq!((0..4).map(|r| slow.cutoff(r).unwrap()).collect::<Vec<_>>(), [1, 2, 2, 2]);
        assert_eq!(policy.cutoff(u64::MAX), Some(u64::MAX));
        for text in ["geometric", "geometric=7", "geometric=7:2", "geometric=100:1.25"] {
            assert_eq!(text.parse::<Restarts>().unwrap().to_string(), text);
        }
        assert_eq!("geometric=100:1.5".parse::<Restarts>().unwrap().to_string(), "geometric");
        assert_eq!("geometric".parse::<Restarts>(), Ok(policy_with(100, 1500)));
        for bad in [
            "geometric=0",
            "geometric=10:1",
            "geometric=10:0.5",
            "geometric=10:x",
            "geometric=:2",
            "geometric=10:1.0001",
        ] {
            assert!(bad.parse::<Restarts>().is_err(), "{bad}");
        }
    }

    #[test]
    fn glucose_restarts_when_the_recent_distances_are_worse_than_usual() {
        let mut distances = Distances::default();
        // Not before the window is full.
        for lbd in [2, 2, 2] {
            distances.push(lbd, 4);
            assert!(!distances.worse_than_usual(4));
        }
        distances.push(2, 4);
        assert!(!distances.worse_than_usual(4), "as good as usual");
        // 2, 2, 2, 2, 10, 10: the last four average 6, times 0.8 is 4.8,
        // above the run's 28 / 6 = 4.67.
        distances.push(10, 4);
        distances.push(10, 4);
        assert!(distances.worse_than_usual(4));
        // A restart empties the window; the run's mean goes on.
        distances.restarted();
        assert!(!distances.worse_than_usual(4));
        for lbd in [3, 3, 3, 3] {
            distances.push(lbd, 4);
        }
        assert!(!distances.worse_than_usual(4), "2.4 is below the run's 40 / 10");
        for text in ["glucose", "glucose=7"] {
            assert_eq!(text.parse::<Restarts>().unwrap().to_string(), text);
        }
        assert_eq!("glucose=50".parse::<Restarts>().unwrap().to_string(), "glucose");
        assert!("glucose=0".parse::<Restarts>().is_err());
        assert_eq!(Restarts::Glucose { window: 5 }.cutoff(0), None);
        let chronological = Search::Chronological { propagation: Propagation::Mac, branching: Branching::Enumerate };
        assert!(Restarts::Glucose { window: 5 }.supports(chronological).is_err());
        assert!(Restarts::Glucose { window: 5 }.supports(Search::Learning).is_ok());
        assert!(Restarts::Luby { scale: 5 }.supports(chronological).is_ok());
    }

    #[test]
    fn each_ordering_of_the_alternating_one_follows_the_whole_sequence() {
        let mut model = crate::model::Model::new();
        model.new_vars(2, 0..=3).unwrap();
        let cutoffs = |config: &str| {
            let solver = Solver::new(&model, config.parse().unwrap()).unwrap();
            (0..8).map(|r| solver.cutoff_of_run(r).unwrap()).collect::<Vec<_>>()
        };
        // Luby's 1, 1, 2, 1, 1, 2, 4, 1, ... once per ordering, in turn.
        assert_eq!(cutoffs("mac+alternate+luby=10"), [10, 10, 10, 10, 20, 20, 10, 10]);
        assert_eq!(cutoffs("mac+domwdeg+luby=10"), [10, 10, 20, 10, 10, 20, 40, 10]);
        assert_eq!(cutoffs("mac+alternate+geometric=10:2"), [10, 10, 20, 20, 40, 40, 80, 80]);
        // Three orderings: each cutoff three times.
        assert_eq!(cutoffs("mac+rotate+luby=10"), [10, 10, 10, 10, 10, 10, 20, 20]);
        assert_eq!(cutoffs("mac+rotate+geometric=10:2"), [10, 10, 10, 20, 20, 20, 40, 40]);
        // Under stable modes the orderings take turns by mode, not by
        // restart: each run is the next term of the sequence.
        assert_eq!(cutoffs("mac+learn+alternate+luby=10+stable"), [10, 10, 20, 10, 10, 20, 40, 10]);
        assert_eq!(cutoffs("mac+learn+alternate+geometric=10:2+stable"), [10, 20, 40, 80, 160, 320, 640, 1280]);
        // One ordering: the same sequence, stable modes or not.
        assert_eq!(cutoffs("mac+learn+domwdeg+luby=10+stable"), [10, 10, 20, 10, 10, 20, 40, 10]);
    }

    #[test]
    fn rephases_come_on_an_arithmetic_schedule_in_cadicals_cycle() {
        // unit, 3 unit, 6 unit, 10 unit: the gaps grow by one unit each time.
        let at: Vec<u64> = (1..=5).map(|k| rephase_at(100, k)).collect();
        assert_eq!(at, [100, 300, 600, 1000, 1500]);
        assert_eq!(rephase_at(1, 0), 0);
        assert_eq!(rephase_at(u32::MAX, u64::MAX), u64::MAX);
        // B O B I B R, then again.
        let kinds: Vec<Rephase> = (1..=8).map(Rephase::nth).collect();
        use Rephase::{Best, Inverted, Original, Random};
        assert_eq!(kinds, [Best, Original, Best, Inverted, Best, Random, Best, Original]);
    }

    #[test]
    fn modes_alternate_focused_and_stable_each_twice_as_long() {
        // Focused for 10, stable for 20, focused for 40, ...
        let ends: Vec<u64> = (0..4).map(|i| mode_end(10, i)).collect();
        assert_eq!(ends, [10, 30, 70, 150]);
        assert_eq!((0..4).map(is_stable_mode).collect::<Vec<_>>(), [false, true, false, true]);
        assert_eq!(mode_end(10, 63), u64::MAX);
        assert_eq!(mode_end(10, 64), u64::MAX);
    }

    /// The solver of `config` over two free variables, each conflict
    /// counted (as after an analysis of distance `lbd`) and each due
    /// restart made: which conflicts restarted, with the mode and the
    /// rephases after each.
    fn schedule_of(config: &str, conflicts: u64) -> Vec<(u64, bool, u64)> {
        let mut model = crate::model::Model::new();
        model.new_vars(2, 0..=3).unwrap();
        let mut solver = Solver::new(&model, config.parse().unwrap()).unwrap();
        solver.restart_clock_reset();
        // A decision, so that the search is below the root.
        let var = solver.select_var().unwrap();
        solver.push_frame(var);
        let mut restarts = Vec::new();
        for conflict in 1..=conflicts {
            if solver.restart_due(Some(2)) {
                solver.restarted();
                restarts.push((conflict, solver.in_stable_mode(), solver.restarts.schedule.rephases));
            }
        }
        restarts
    }

    #[test]
    fn rephases_and_mode_switches_restart_when_due() {
        // Luby's restarts every 100 failures at the least: only the
        // rephases at 2, 6, 12 and 20 conflicts restart.
        let rephases = schedule_of("mac+learn+phase+luby+rephase=2", 20);
        assert_eq!(rephases, [(2, false, 1), (6, false, 2), (12, false, 3), (20, false, 4)]);
        // Modes of 3, 6, 12 conflicts: stable from 3 to 9, focused to 21;
        // the stable mode's Luby restarts (512 conflicts) do not come.
        let modes = schedule_of("mac+learn+phase+luby+stable=3", 21);
        assert_eq!(modes, [(3, true, 0), (9, false, 0), (21, true, 0)]);
        // Within the stable mode, Luby's sequence from its start.
        let mut model = crate::model::Model::new();
        model.new_vars(2, 0..=3).unwrap();
        let mut solver = Solver::new(&model, "mac+learn+phase+glucose+stable=1".parse().unwrap()).unwrap();
        solver.restart_clock_reset();
        solver.restarts.schedule.switch = true;
        let mut cutoffs = Vec::new();
        for _ in 0..4 {
            solver.restarted();
            cutoffs.push(solver.restarts.cutoff);
        }
        let scale = u64::from(SolveConfig::STABLE_LUBY_SCALE);
        assert_eq!(cutoffs, [Some(scale), Some(scale), Some(2 * scale), Some(scale)]);
        // Without the words, nothing is scheduled.
        assert!(schedule_of("mac+learn+phase+luby", 50).is_empty());
    }

    #[test]
    fn glucose_weighs_the_focused_modes_distances_alone() {
        let mut model = crate::model::Model::new();
        model.new_vars(2, 0..=3).unwrap();
        let mut solver = Solver::new(&model, "mac+learn+phase+glucose=2+stable".parse().unwrap()).unwrap();
        solver.restart_clock_reset();
        let var = solver.select_var().unwrap();
        solver.push_frame(var);
        // Focused: distances of 2; stable: 100 nogoods of distance 50
        // (within its first Luby run: no restart).
        for _ in 0..4 {
            assert!(!solver.restart_due(Some(2)));
        }
        solver.restarts.schedule.switch = true;
        solver.restarted();
        assert!(solver.in_stable_mode());
        for _ in 0..100 {
            assert!(!solver.restart_due(Some(50)));
        }
        solver.restarts.schedule.switch = true;
        solver.restarted();
        // Focused again, two nogoods of distance 3: worse than the focused
        // mean (3 x 0.8 > 14 / 6), though far better than one with the 50s.
        assert!(!solver.restart_due(Some(3)));
        assert!(solver.restart_due(Some(3)));
    }

    #[test]
    fn under_stable_modes_the_alternating_order_takes_turns_by_mode() {
        let mut model = crate::model::Model::new();
        model.new_vars(2, 0..=3).unwrap();
        let literal_runs = |config: &str| {
            let mut solver = Solver::new(&model, config.parse().unwrap()).unwrap();
            solver.restart_clock_reset();
            let mut runs = vec![solver.literal_run()];
            // Two restarts in the first mode, a switch, two more restarts.
            for switch in [false, false, true, false, false] {
                solver.restarts.schedule.switch = switch;
                solver.restarted();
                runs.push(solver.literal_run());
            }
            runs
        };
        assert_eq!(literal_runs("mac+learn+alternate+phase+glucose+stable"), [false, false, false, true, true, true]);
        assert_eq!(literal_runs("mac+learn+alternate+phase+glucose"), [false, true, false, true, false, true]);
    }

    fn policy_with(scale: u32, factor_thousandths: u32) -> Restarts {
        Restarts::Geometric { scale, factor_thousandths }
    }
}
