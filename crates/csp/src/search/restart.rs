//! Restarts (Gomes, Selman & Kautz 1998): the policy, Luby's sequence of
//! cutoffs, geometric ones or Glucose's dynamic restarts, and the count of
//! failures (and the learnt nogoods' literal block distances) towards the
//! next restart.

use std::collections::VecDeque;

use super::Solver;
use super::config::Search;
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

/// The failures of the current restart, and how many it may have.
#[derive(Clone, Debug, Default)]
pub(super) struct RestartClock {
    failures: u64,
    cutoff: Option<u64>,
    distances: Distances,
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
        self.restarts = RestartClock { failures: 0, cutoff: self.cutoff_of_run(0), distances: Distances::default() };
    }

    /// The failures allowed to the run after restart number `restarts`: the
    /// policy's cutoff, except that under [`VarOrder::Alternate`](crate::VarOrder::Alternate) (or
    /// [`VarOrder::AlternatePlaces`](crate::VarOrder::AlternatePlaces)) each of
    /// its two orderings follows the policy's sequence as if it ran alone
    /// (the runs take each cutoff twice, once for each ordering), so that
    /// neither gets only the short runs of Luby's sequence.
    fn cutoff_of_run(&self, restarts: u64) -> Option<u64> {
        let term = if self.program.config.var_order.alternates() { restarts / 2 } else { restarts };
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
        let due = match self.program.config.restarts {
            Restarts::Never => false,
            Restarts::Luby { .. } | Restarts::Geometric { .. } => {
                self.restarts.failures += 1;
                self.restarts.cutoff.is_some_and(|cutoff| self.restarts.failures >= cutoff)
            }
            Restarts::Glucose { window } => {
                let window = window.max(1) as usize;
                let distances = &mut self.restarts.distances;
                if let Some(lbd) = lbd {
                    distances.push(lbd, window);
                }
                distances.worse_than_usual(window)
            }
        };
        // After the first solution the search must finish its tree: another
        // restart would find that solution again. Not so under branch and
        // bound, where the bound excludes every solution found so far.
        let enumerating = self.run.optimizing.is_none();
        if !due || (enumerating && self.run.stats.solutions > 0) {
            return false;
        }
        !self.tree.frames.is_empty()
    }

    /// The search went back to the root: counts the restart, sets the next
    /// cutoff and tells the observer.
    pub(super) fn restarted(&mut self) {
        self.run.stats.restarts += 1;
        self.restarts.failures = 0;
        self.restarts.cutoff = self.cutoff_of_run(self.run.stats.restarts);
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
    }

    fn policy_with(scale: u32, factor_thousandths: u32) -> Restarts {
        Restarts::Geometric { scale, factor_thousandths }
    }
}
