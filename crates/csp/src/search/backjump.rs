//! Backjumping's bookkeeping (see [`Backjumping`](super::config::Backjumping)):
//! Gaschnig's backjumping (1979), graph-based backjumping (Dechter 1990) and
//! conflict-directed backjumping (Prosser 1993), for the levels each is
//! implemented at (BJ, GBJ, BT-CBJ, FC-BJ, FC-CBJ, MAC-CBJ).
//!
//! Levels are decision depths, from 1. Each level keeps a conflict set: the
//! earlier levels whose decisions took part in the failures of its values
//! (for graph-based backjumping, its variable's earlier neighbours in the
//! constraint graph instead). Each variable also keeps the levels whose
//! propagation pruned it (forward checking, maintained arc consistency, and
//! interval splits). When a level runs out of values, the search goes back to
//! the latest level in its conflict set and the levels that pruned its
//! variable; conflict-directed and graph-based backjumping hand the rest of
//! the set on to that level, Gaschnig's jumps only from a level none of whose
//! values passed (a leaf dead end) and goes back one level from the others.
//!
//! The reasons are taken at the granularity of constraints: a constraint that
//! prunes or fails blames every decided variable in its scope and whatever
//! pruned the undecided ones (Prosser 1995 takes MAC-CBJ's reasons the same
//! way). For binary constraints that is the textbook algorithm; for wider
//! constraints, or propagators that also narrow the decided side, it is sound
//! if less sharp. Once a solution has been found below a level, that level
//! backtracks chronologically, so that counting and enumerating stay complete.

use super::config::Jumps;
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

/// The bookkeeping of a backjumping search.
#[derive(Debug)]
pub(crate) struct ConflictSets {
    jumps: Jumps,
    /// The levels whose propagation pruned each variable.
    pruned_at: Vec<LevelSet>,
    /// Per level, the `pruned_at` sets to restore when its decision is undone.
    undo: Vec<Vec<(u32, LevelSet)>>,
    /// Per level, its conflict set.
    conflicts: Vec<LevelSet>,
    /// Per level, whether a solution was found below its current decision.
    solution_below: Vec<bool>,
    /// Per level, whether a value of its variable passed its checks or
    /// propagation, so that the search went below it (Gaschnig's jumps leave
    /// only from the levels where none did).
    passed: Vec<bool>,
    /// The variables pruned by the propagator that just ran (filled by the context).
    pub(crate) log: Vec<u32>,
    /// Scratch.
    reason: LevelSet,
}

impl ConflictSets {
    /// The bookkeeping for `num_vars` variables and branches of at most
    /// `max_depth` decisions.
    pub(crate) fn new(jumps: Jumps, num_vars: usize, max_depth: usize) -> ConflictSets {
        let levels = max_depth + 2;
        ConflictSets {
            jumps,
            pruned_at: vec![LevelSet::new(levels); num_vars],
            undo: vec![Vec::new(); levels],
            conflicts: vec![LevelSet::new(levels); levels],
            solution_below: vec![false; levels],
            passed: vec![false; levels],
            log: Vec::new(),
            reason: LevelSet::new(levels),
        }
    }

    /// How this search jumps.
    pub(crate) fn jumps(&self) -> Jumps {
        self.jumps
    }

    /// Forgets everything, for a new run (keeping the allocations).
    pub(crate) fn reset(&mut self) {
        self.pruned_at.iter_mut().for_each(LevelSet::clear);
        self.undo.iter_mut().for_each(Vec::clear);
        self.conflicts.iter_mut().for_each(LevelSet::clear);
        self.solution_below.iter_mut().for_each(|s| *s = false);
        self.passed.iter_mut().for_each(|p| *p = false);
        self.log.clear();
    }

    /// A new decision variable at `level`: its conflict set starts empty.
    pub(crate) fn enter(&mut self, level: u32) {
        self.conflicts[level as usize].clear();
        self.solution_below[level as usize] = false;
        self.passed[level as usize] = false;
    }

    /// Graph-based backjumping: the variable of `level` shares a constraint
    /// on `scope` with whatever of it is decided (`level_of`), or was pruned:
    /// they join the level's conflict set.
    pub(crate) fn blame_neighbours(&mut self, level: u32, scope: &[VarId], level_of: &[u32]) {
        self.load_reason(scope, level_of);
        self.reason.remove(level);
        self.conflicts[level as usize].union(&self.reason);
    }

    /// A value of the variable of `level` passed its checks or propagation.
    pub(crate) fn passed(&mut self, level: u32) {
        self.passed[level as usize] = true;
    }

    /// The decision at `level` is undone, with what its propagation recorded.
    pub(crate) fn unassign(&mut self, level: u32) {
        while let Some((pruned, old)) = self.undo[level as usize].pop() {
            self.pruned_at[pruned as usize] = old;
        }
    }

    /// Loads into `reason` what a constraint on `scope` acts on: the levels of
    /// its decided variables, and the levels that pruned its undecided ones
    /// (whatever the constraint concludes, it concludes from those domains).
    fn load_reason(&mut self, scope: &[VarId], level_of: &[u32]) {
        self.reason.clear();
        for var in scope {
            let level = level_of[var.index()];
            if level > 0 {
                self.reason.insert(level);
            } else {
                self.reason.union(&self.pruned_at[var.index()]);
            }
        }
    }

    /// After a propagator on `scope` ran: the variables it pruned were pruned
    /// because of the decisions in its scope. The record is undone with the
    /// decision of `level`, the deepest one in force when the pruning was made.
    pub(crate) fn record_prunings(&mut self, level: u32, scope: &[VarId], level_of: &[u32]) {
        if self.log.is_empty() {
            return;
        }
        self.load_reason(scope, level_of);
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

    /// A value at `level` (or, after a frame's value was undone, the frame's
    /// state) failed in the constraint on `scope`: blame the decisions that
    /// shaped that failure (see [`ConflictSets::load_reason`]; the emptied
    /// variable, if any, is in the scope).
    pub(crate) fn explain(&mut self, level: u32, scope: &[VarId], level_of: &[u32]) {
        self.load_reason(scope, level_of);
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
        let chronological =
            self.solution_below[level as usize] || (self.jumps == Jumps::Gaschnig && self.passed[level as usize]);
        if chronological {
            return level.checked_sub(1).filter(|&h| h > 0);
        }
        let mut conflict = self.conflicts[level as usize].clone();
        conflict.union(&self.pruned_at[var as usize]);
        conflict.remove(level);
        let target = conflict.max().filter(|&h| h > 0)?;
        if self.jumps != Jumps::Gaschnig {
            conflict.remove(target);
            self.conflicts[target as usize].union(&conflict);
        }
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
