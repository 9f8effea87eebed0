//! Conflict-directed backjumping (Prosser 1993) for plain backtracking and
//! forward checking (BT-CBJ and FC-CBJ).
//!
//! Levels are decision depths, from 1. Each level keeps a conflict set: the
//! earlier levels whose decisions took part in the failures of its values.
//! Under forward checking each variable also keeps the levels whose propagation
//! pruned it. When a level runs out of values, the search jumps back to the
//! latest level in its conflict set (and the levels that pruned its variable),
//! instead of the previous level, and hands its conflict set on to that level.
//!
//! The reasons are taken at the granularity of constraints: a constraint that
//! prunes or fails blames every decided variable in its scope and whatever
//! pruned the undecided ones. For binary constraints under forward checking
//! (the classic setting) that is Prosser's FC-CBJ; for wider constraints, or
//! propagators that also narrow the decided side, it is sound if less sharp. Once a solution has been found below a level, that level backtracks
//! chronologically, so that counting and enumerating stay complete.

use crate::ids::VarId;

/// A set of levels `0..width*64`, as a bitset; inline up to 128 levels, so
/// that copying one (which the bookkeeping does at every pruning) allocates
/// nothing in the common case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LevelSet {
    words: smallvec::SmallVec<[u64; 2]>,
}

impl LevelSet {
    fn new(levels: usize) -> LevelSet {
        LevelSet { words: smallvec::smallvec![0; levels.div_ceil(64).max(1)] }
    }

    fn clear(&mut self) {
        self.words.iter_mut().for_each(|w| *w = 0);
    }

    fn insert(&mut self, level: u32) {
        self.words[level as usize / 64] |= 1u64 << (level % 64);
    }

    fn remove(&mut self, level: u32) {
        self.words[level as usize / 64] &= !(1u64 << (level % 64));
    }

    /// Adds `other`; returns whether anything was new.
    fn union(&mut self, other: &LevelSet) -> bool {
        let mut changed = false;
        for (mine, theirs) in self.words.iter_mut().zip(&other.words) {
            changed |= theirs & !*mine != 0;
            *mine |= theirs;
        }
        changed
    }

    fn max(&self) -> Option<u32> {
        self.words.iter().enumerate().rev().find(|(_, w)| **w != 0).map(|(i, w)| i as u32 * 64 + 63 - w.leading_zeros())
    }
}

/// The bookkeeping of conflict-directed backjumping.
#[derive(Debug)]
pub(crate) struct Backjumping {
    /// The level at which each variable was decided (0: not decided).
    level_of: Vec<u32>,
    /// The levels whose propagation pruned each variable (forward checking).
    pruned_at: Vec<LevelSet>,
    /// Per level, the `pruned_at` sets to restore when its decision is undone.
    undo: Vec<Vec<(u32, LevelSet)>>,
    /// Per level, its conflict set.
    conflicts: Vec<LevelSet>,
    /// Per level, whether a solution was found below its current decision.
    solution_below: Vec<bool>,
    /// The variables pruned by the propagator that just ran (filled by the context).
    pub(crate) log: Vec<u32>,
    /// Scratch.
    reason: LevelSet,
}

impl Backjumping {
    /// The bookkeeping for `num_vars` variables and branches of at most
    /// `max_depth` decisions.
    pub(crate) fn new(num_vars: usize, max_depth: usize) -> Backjumping {
        let levels = max_depth + 2;
        Backjumping {
            level_of: vec![0; num_vars],
            pruned_at: vec![LevelSet::new(levels); num_vars],
            undo: vec![Vec::new(); levels],
            conflicts: vec![LevelSet::new(levels); levels],
            solution_below: vec![false; levels],
            log: Vec::new(),
            reason: LevelSet::new(levels),
        }
    }

    /// Forgets everything, for a new run (keeping the allocations).
    pub(crate) fn reset(&mut self) {
        self.level_of.iter_mut().for_each(|l| *l = 0);
        self.pruned_at.iter_mut().for_each(LevelSet::clear);
        self.undo.iter_mut().for_each(Vec::clear);
        self.conflicts.iter_mut().for_each(LevelSet::clear);
        self.solution_below.iter_mut().for_each(|s| *s = false);
        self.log.clear();
    }

    /// A new decision variable at `level`: its conflict set starts empty.
    pub(crate) fn enter(&mut self, level: u32) {
        self.conflicts[level as usize].clear();
        self.solution_below[level as usize] = false;
    }

    /// `var` is decided at `level`.
    pub(crate) fn assign(&mut self, var: u32, level: u32) {
        self.level_of[var as usize] = level;
    }

    /// The decision on `var` at `level` is undone, with what its propagation recorded.
    pub(crate) fn unassign(&mut self, var: u32, level: u32) {
        self.level_of[var as usize] = 0;
        while let Some((pruned, old)) = self.undo[level as usize].pop() {
            self.pruned_at[pruned as usize] = old;
        }
    }

    /// Loads into `reason` what a constraint on `scope` acts on: the levels of
    /// its decided variables, and the levels that pruned its undecided ones
    /// (whatever the constraint concludes, it concludes from those domains).
    fn load_reason(&mut self, scope: &[VarId]) {
        self.reason.clear();
        for var in scope {
            let level = self.level_of[var.index()];
            if level > 0 {
                self.reason.insert(level);
            } else {
                self.reason.union(&self.pruned_at[var.index()]);
            }
        }
    }

    /// After a propagator on `scope` ran at `level`: the variables it pruned
    /// were pruned because of the decisions in its scope.
    pub(crate) fn record_prunings(&mut self, level: u32, scope: &[VarId]) {
        if self.log.is_empty() {
            return;
        }
        self.load_reason(scope);
        let mut log = std::mem::take(&mut self.log);
        for &var in &log {
            let set = &mut self.pruned_at[var as usize];
            let old = set.clone();
            if set.union(&self.reason) {
                self.undo[level as usize].push((var, old));
            }
        }
        log.clear();
        self.log = log;
    }

    /// A split at `level` narrowed `var`: like a pruning, the level takes
    /// part in whatever `var`'s domain leads to (its value, once a later split
    /// fixes it, depends on every split of it).
    pub(crate) fn record_split(&mut self, level: u32, var: u32) {
        let set = &mut self.pruned_at[var as usize];
        let old = set.clone();
        set.insert(level);
        if *set != old {
            self.undo[level as usize].push((var, old));
        }
    }

    /// The decision at `level` failed in the constraint on `scope`: blame the
    /// decisions that shaped that failure (see [`Backjumping::load_reason`]; the
    /// emptied variable, if any, is in the scope).
    pub(crate) fn explain(&mut self, level: u32, scope: &[VarId]) {
        self.load_reason(scope);
        self.reason.remove(level);
        self.conflicts[level as usize].union(&self.reason);
    }

    /// A solution was found with `depth` decisions.
    pub(crate) fn solution_found(&mut self, depth: u32) {
        for level in 1..=depth as usize {
            self.solution_below[level] = true;
        }
    }

    /// Level `level`, deciding `var`, has no value left: the level to go back
    /// to (`None` when the search is over), having passed on its conflicts.
    pub(crate) fn jump_from(&mut self, level: u32, var: u32) -> Option<u32> {
        if self.solution_below[level as usize] {
            return level.checked_sub(1).filter(|&h| h > 0);
        }
        let mut conflict = self.conflicts[level as usize].clone();
        conflict.union(&self.pruned_at[var as usize]);
        conflict.remove(level);
        let target = conflict.max().filter(|&h| h > 0)?;
        conflict.remove(target);
        self.conflicts[target as usize].union(&conflict);
        Some(target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_sets_union_and_max() {
        let mut a = LevelSet::new(130);
        assert_eq!(a.max(), None);
        a.insert(3);
        a.insert(70);
        let mut b = LevelSet::new(130);
        b.insert(129);
        assert!(a.union(&b));
        assert!(!a.union(&b));
        assert_eq!(a.max(), Some(129));
        a.remove(129);
        assert_eq!(a.max(), Some(70));
    }
}
