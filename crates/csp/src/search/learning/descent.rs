//! The search loop of [`Search::Learning`](crate::Search::Learning): decide,
//! propagate, and on a conflict learn a nogood, jump back and assert it.
//!
//! Each decision opens a level (a frame of the tree, as in the sibling
//! module `dfs`, holding the decision and the mark to come back to): `x = v`
//! for a bitset, one half of a split for an interval. A conflict is analysed
//! to a nogood (the parent module's `analyse`); the search jumps back to the
//! nogood's second highest level, or to the root when the restart policy
//! says so, adds the nogood and, unless it restarted, makes its one open
//! literal true, which may conflict again. A conflict at the root ends the
//! search. Decisions are never retried: what the search would try next at a
//! level is what the nogoods leave.
//!
//! After a solution, enumeration (`solutions`, `count`) excludes it by the
//! nogood of its decisions (kept for the whole run, so that no jump back
//! can lead to it again) and goes on; branch and bound imposes its bound
//! before the next decision, and the objective's values the bound removes
//! start the next conflict.
//!
//! Loop invariant: the state is the propagated state of the decisions of
//! the frames, the nogoods' assertions and the root facts, every nogood
//! has looked at every change, and `conflict`, when set, is a failure of
//! that state not yet analysed.

use super::super::Solver;
use super::super::dfs::{FrameKind, Step};
use super::super::outcome::Status;
use super::super::propagate::{Failure, Origin};
use super::nogoods::{Kind, Rule};
use crate::kernel::{Literal, NONE};
use crate::model::Sense;
use crate::observer::SearchEvent;

impl Solver<'_> {
    /// Runs the search that learns until the next solution, the end, or a limit.
    pub(in crate::search) fn step_learning(&mut self, count_limit: Option<u64>) -> Step {
        let (descend, solution_limit) = match self.resume(count_limit) {
            Ok(resumed) => resumed,
            Err(step) => return step,
        };
        let mut conflict = None;
        if !descend {
            // The last step found a solution.
            match self.exclude_solution() {
                Ok(()) => {}
                Err(Some(failure)) => conflict = Some(failure),
                Err(None) => return self.finish(Status::Complete),
            }
        }
        loop {
            if self.run.clock.expired() {
                return self.finish(Status::LimitReached(self.run.clock.limit()));
            }
            if let Some(failure) = conflict.take() {
                self.record_failure(failure);
                match self.learn_from(failure) {
                    Some(next) => conflict = next,
                    // The analysis stopped for the time limit.
                    None if self.run.clock.expired() => {
                        return self.finish(Status::LimitReached(self.run.clock.limit()));
                    }
                    None => return self.finish(Status::Complete),
                }
                continue;
            }
            // (The level only matters to backjumping's records, which
            // search that learns does not keep.)
            let level = self.tree.frames.len() as u32;
            match self.impose_bound(level) {
                Ok(_) => {}
                Err(Some(failure)) => {
                    conflict = Some(failure);
                    continue;
                }
                Err(None) => {
                    conflict = Some(self.bound_conflict());
                    continue;
                }
            }
            // Probing strengthens the node; a failed probe is a conflict.
            if self.probes_here() {
                if let Err(failure) = self.probe_learning() {
                    conflict = Some(failure);
                    continue;
                }
                if self.run.clock.expired() {
                    continue;
                }
            }
            self.chb_reward(false);
            self.lrb_catch_up();
            if let Some((var, pos)) = self.next_replayed() {
                if let Some(limit) = self.limit_reached() {
                    return self.finish(Status::LimitReached(limit));
                }
                self.run.stats.replayed += 1;
                if let Err(failure) = self.decide_level(var, Some(pos)) {
                    conflict = Some(failure);
                }
                continue;
            }
            let Some(var) = self.select_var() else {
                return self.found_solution(solution_limit);
            };
            if let Some(limit) = self.limit_reached() {
                return self.finish(Status::LimitReached(limit));
            }
            if let Err(failure) = self.decide_level(var, None) {
                conflict = Some(failure);
            }
        }
    }

    /// Under `chrono`, the next decision a long backjump skipped that can
    /// be made again (its variable free, its value left), if any; those
    /// that cannot are dropped.
    fn next_replayed(&mut self) -> Option<(u32, u32)> {
        let learning = self.learning.as_mut()?;
        while let Some((var, pos)) = learning.replay.pop() {
            if self.state.size(var) > 1 && self.state.contains_pos(var, pos) {
                return Some((var, pos));
            }
        }
        None
    }

    /// Under `chrono`, when the jump from the conflict's level to `target`
    /// undoes more than the threshold's levels, notes the decisions of the
    /// levels between them (the conflict's own excepted) to be made again,
    /// as chronological backtracking would have kept them (none after a
    /// restart).
    fn note_replay(&mut self, target: u32, restart: bool) {
        let Some(threshold) = self.program.config.chrono else { return };
        let learning = self.learning.as_mut().expect("learning");
        learning.replay.clear();
        let depth = self.tree.frames.len() as u32;
        if restart || depth.saturating_sub(target) <= threshold {
            return;
        }
        let kept = &self.tree.frames[target as usize..depth as usize - 1];
        let decisions = kept.iter().filter(|frame| frame.assigned && !matches!(frame.kind, FrameKind::Split { .. }));
        learning.replay.extend(decisions.rev().map(|frame| (frame.var, frame.value)));
    }

    /// Opens the level of the frame just pushed (a decision's or a probe's):
    /// notes where its history starts and sets the state's level; returns it.
    pub(super) fn open_level(&mut self) -> u32 {
        let level = self.tree.frames.len() as u32;
        let start = self.state.history().expect("the history is on").len();
        self.learning.as_mut().expect("learning").level_start.push(start);
        self.state.set_level(level);
        level
    }

    /// Opens a level deciding `var`: `x = v` (`replayed`'s position, or the
    /// value order's first), or a split's first half; propagates it.
    fn decide_level(&mut self, var: u32, replayed: Option<u32>) -> Result<(), Failure> {
        match replayed {
            Some(pos) => self.push_pair_first(var, pos),
            None => self.push_frame(var),
        }
        let level = self.open_level();
        self.run.stats.nodes += 1;
        self.run.stats.max_depth = self.run.stats.max_depth.max(level);
        let frame = *self.tree.frames.last().expect("a frame");
        if let FrameKind::Split { at, upper_first } = frame.kind {
            let top = self.tree.frames.last_mut().expect("a frame");
            top.assigned = true;
            top.value = u32::from(upper_first);
            if self.observer.is_some() {
                self.emit(SearchEvent::Split { var: self.var_id(var), at, upper: upper_first, depth: level });
            }
            // Both halves of a split of two values or more are non-empty.
            return self.split(var, at, upper_first).map_err(|f| f.expect("a half is never empty"));
        }
        let pos = self.next_value().expect("a free variable has a value");
        let top = self.tree.frames.last_mut().expect("a frame");
        top.assigned = true;
        top.value = pos;
        if self.observer.is_some() {
            let value = self.state.value(var, pos);
            self.emit(SearchEvent::Decision { var: self.var_id(var), value, depth: level });
        }
        self.decide(var, pos)
    }

    /// Learns from `failure`: analyses it, jumps back (to the root when a
    /// restart is due), adds the nogood and asserts it. `None` when the
    /// conflict holds at the root; else the next conflict, if asserting
    /// the nogood led to one.
    fn learn_from(&mut self, failure: Failure) -> Option<Option<Failure>> {
        let mut learning = self.learning.take().expect("learning");
        let learnt = self.analyse(&mut learning, failure);
        let Some(learnt) = learnt else {
            self.learning = Some(learning);
            return None;
        };
        // The propagation that failed, before the jump undoes it.
        self.chb_reward(true);
        self.run.stats.learnt += 1;
        self.run.stats.learnt_literals += learnt.literals.len() as u64;
        if let Some(share) = &mut self.share {
            share.offer(&learnt.literals, learnt.lbd);
        }
        #[cfg(feature = "testing")]
        if let Some(check) = &mut learning.check {
            let history = self.state.history().expect("the history is on");
            let root_end = learning.level_start.get(1).copied().unwrap_or(history.len());
            let best = self.run.optimizing.and_then(|bb| bb.best());
            check.check(&learnt.literals, &self.state, self.program.model, best, Some(root_end));
        }
        if self.observer.is_some() {
            let (atoms, level) = (learnt.literals.len(), learnt.backjump);
            self.emit(SearchEvent::Learnt { atoms, level });
        }
        learning.until_reduction = learning.until_reduction.saturating_sub(1);
        let reduce = learning.until_reduction == 0;
        if reduce {
            learning.reduction_interval += learning.reduction_growth;
            learning.until_reduction = learning.reduction_interval;
        }
        self.learning = Some(learning);
        let restart = self.restart_due(Some(learnt.lbd));
        let target = if restart { 0 } else { learnt.backjump };
        self.note_replay(target, restart);
        self.backjump_to(target);
        if restart {
            self.restarted();
        }
        let learning = self.learning.as_mut().expect("learning");
        if reduce {
            let config = &self.program.config;
            let rule = Rule {
                tiers: config.nogood_tiers,
                expire: config.expiring_glue,
                fade: config.expiring_glue && config.faded_glue_by_activity,
                cap: config.glue_cap,
            };
            let reduced = learning.nogoods.reduce(self.state.history().expect("the history is on"), rule);
            let stats = &mut self.run.stats;
            stats.reductions += 1;
            stats.nogoods_deleted += reduced.deleted as u64;
            stats.nogoods_alive = reduced.alive as u64;
            stats.glue_alive = reduced.glue as u64;
        }
        let kind = if learnt.literals.len() == 1 { Kind::Permanent } else { Kind::Learnt };
        let first = learnt.literals[0];
        let id = learning.nogoods.add(learnt.literals, kind, learnt.lbd);
        if target < learnt.backjump {
            // Restarted: the nogood has two open literals at the root, where
            // a portfolio's workers share their nogoods.
            return Some(self.at_root(restart).err());
        }
        let asserted = self.assert(first, id);
        if asserted.is_ok() && target == 0 {
            return Some(self.at_root(restart).err());
        }
        Some(asserted.err())
    }

    /// The work of the root: a portfolio's workers share their nogoods, and
    /// after a restart, with `+vivify`, a round of vivification (the
    /// sibling module `vivify`).
    fn at_root(&mut self, restarted: bool) -> Result<(), Failure> {
        self.share_at_root()?;
        if restarted && self.program.config.vivify_nogoods {
            self.vivify_round()?;
        }
        Ok(())
    }

    /// Makes nogood `id`'s literal `literal` true and propagates.
    fn assert(&mut self, literal: Literal, id: u32) -> Result<(), Failure> {
        self.make_true(literal, id)?;
        self.propagate_queue(None)
    }

    /// Jumps back to decision level `target`: undoes every level above it,
    /// saving the phases of the variables it fixed.
    pub(in crate::search) fn backjump_to(&mut self, target: u32) {
        let depth = self.tree.frames.len() as u32;
        if depth <= target {
            return;
        }
        let mark = self.tree.frames[target as usize].mark;
        if let Some(history) = self.state.history() {
            for entry in &history.entries[mark.entries()..] {
                let x = entry.var;
                if self.state.size(x) == 1 && !self.state.is_interval(x) {
                    self.activity.save_phase(x, self.state.min_pos(x));
                }
            }
        }
        self.state.undo_to(mark);
        while self.tree.frames.len() as u32 > target {
            let frame = self.tree.frames.pop().expect("a frame");
            self.tree.decided[frame.var as usize] = false;
            self.tree.level_of[frame.var as usize] = 0;
            self.tree.orders.truncate(frame.start as usize);
            self.run.stats.backtracks += 1;
            if self.observer.is_some() {
                let depth = self.tree.frames.len() as u32 + 1;
                self.emit(SearchEvent::Backtrack { var: self.var_id(frame.var), depth });
            }
        }
        if depth - target > 1 {
            self.run.stats.backjumps += 1;
        }
        self.state.set_level(target);
        if let Some(learning) = &mut self.learning {
            learning.level_start.truncate(target as usize + 1);
        }
        self.queue.clear();
    }

    /// After a solution: when enumerating, excludes it by the nogood of its
    /// decisions and asserts that (`Err(None)` when there is none: the
    /// solution was the root's); under branch and bound, nothing (the bound
    /// does it) but the restart of a bisection
    /// (`Solver::bisection_restart`).
    fn exclude_solution(&mut self) -> Result<(), Option<Failure>> {
        #[cfg(feature = "testing")]
        if let Some(check) = self.learning.as_mut().and_then(|l| l.check.as_mut()) {
            check.found(&self.state);
        }
        if self.run.optimizing.is_some() {
            if self.bisection_restart() {
                self.backjump_to(0);
                self.restarted();
            }
            return Ok(());
        }
        let depth = self.tree.frames.len() as u32;
        if depth == 0 {
            return Err(None);
        }
        let literals: Vec<Literal> = (1..=depth).rev().map(|level| self.decision_literal(level).negation()).collect();
        self.backjump_to(depth - 1);
        let first = literals[0];
        let learning = self.learning.as_mut().expect("learning");
        let id = learning.nogoods.add(literals, Kind::Permanent, depth);
        self.assert(first, id).map_err(Some)
    }

    /// The conflict of a bound that leaves the objective no value: the
    /// objective's values that beat the best are all gone, which holds now.
    fn bound_conflict(&mut self) -> Failure {
        let (x, sense, best) = self.run.optimizing.and_then(|bb| bb.bound()).expect("a bound was imposed");
        let literal = match sense {
            Sense::Minimize => Literal::AtLeast { var: x, value: best },
            Sense::Maximize => Literal::AtMost { var: x, value: best },
        };
        Failure { constraint: NONE, wiped: Some(x), origin: Origin::Bound(literal) }
    }
}
