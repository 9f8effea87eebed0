//! `cumulative(s, d, r, b)`: tasks with start times `s`, durations `d` and
//! resource uses `r` never use more than the capacity `b` at any time (MiniZinc's
//! `cumulative`). Durations, uses and capacity may be variables or constants.
//!
//! The relation, as MiniZinc's decomposition has it: every duration and use is
//! at least 0; at every time `t`, the uses of the tasks with `s[i] <= t <
//! s[i] + d[i]` add up to at most `b` (a task of no duration or no use counts
//! nowhere); and `b >= 0` when there is a task at all.
//!
//! Strength: time-table consistency on the start times' bounds (see the
//! sibling module `timetable`), and bounds reasoning on the capacity (at
//! least the profile's peak) and on each use (at most what the other tasks
//! leave during the task's compulsory part). Sound, and it checks fixed
//! values: with every start, duration and use fixed, the profile is the load
//! itself. Each call repeats the reasoning until no bound moves. Under
//! learning it explains a moved bound or an overload by the start bounds of
//! the tasks whose compulsory parts it used (the sibling module `explain`).

use super::explain::{Answer, Frame, largest, least};
use super::timetable::Profile;
use super::{TaskBounds, clamp};
use crate::constraint::{Constraint, Propagator, PropagatorOptions};
use crate::constraints::operand::{Operand, OperandScope, Slot};
use crate::ids::VarId;
use crate::kernel::{Conflict, Context, Event, Explained, Explanation, PropagationResult};

/// At every time the tasks running use at most the capacity.
#[derive(Clone, Debug)]
pub struct Cumulative {
    starts: Vec<VarId>,
    durations: Vec<Operand>,
    resources: Vec<Operand>,
    capacity: Operand,
    scope: Vec<VarId>,
    /// Where each task's start, duration and use, and the capacity, are in a
    /// tuple of the scope's values.
    slots: Vec<[Slot; 3]>,
    capacity_slot: Slot,
}

impl Cumulative {
    /// The constraint; the three lists have one entry per task (built by
    /// hand with lists of different lengths, it has the tasks all three
    /// give). Prefer [`Model::cumulative`](crate::Model::cumulative), which
    /// checks the arguments and refuses such lists.
    pub fn new(starts: Vec<VarId>, durations: Vec<Operand>, resources: Vec<Operand>, capacity: Operand) -> Cumulative {
        let mut scope = OperandScope::default();
        let slots = starts
            .iter()
            .zip(&durations)
            .zip(&resources)
            .map(|((&s, &d), &r)| [scope.slot(Operand::Var(s)), scope.slot(d), scope.slot(r)])
            .collect();
        let capacity_slot = scope.slot(capacity);
        Cumulative { starts, durations, resources, capacity, scope: scope.vars, slots, capacity_slot }
    }
}

/// The largest load of tasks `[start, duration, use]` at any time: a sweep
/// over their starts and ends. Times and loads are summed in 128 bits.
pub(super) fn peak_load(tasks: impl Iterator<Item = [i64; 3]>) -> i128 {
    let mut events: Vec<(i128, i128)> = Vec::new();
    for [start, duration, height] in tasks {
        if duration > 0 && height > 0 {
            let start = i128::from(start);
            events.push((start, i128::from(height)));
            events.push((start + i128::from(duration), -i128::from(height)));
        }
    }
    // At equal times the ends (negative) come first: a task ending at `t`
    // and one starting at `t` do not overlap.
    events.sort_unstable();
    let mut load = 0i128;
    let mut peak = 0i128;
    for (_, delta) in events {
        load += delta;
        peak = peak.max(load);
    }
    peak
}

impl Constraint for Cumulative {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        let tasks = || self.slots.iter().map(|slots| slots.map(|slot| slot.value(values)));
        let capacity = self.capacity_slot.value(values);
        if tasks().any(|[_, duration, height]| duration < 0 || height < 0) {
            return false;
        }
        if self.slots.is_empty() {
            return true;
        }
        capacity >= 0 && peak_load(tasks()) <= i128::from(capacity)
    }

    fn kind(&self) -> &str {
        "cumulative"
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(TimeTable { constraint: self, tasks: Vec::new(), profile: Profile::default() }))
    }
}

struct TimeTable<'c> {
    constraint: &'c Cumulative,
    /// Scratch: the tasks' bounds.
    tasks: Vec<TaskBounds>,
    profile: Profile,
}

impl TimeTable<'_> {
    /// Reads the tasks' bounds (after making durations and uses non-negative).
    fn read(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let c = self.constraint;
        self.tasks.clear();
        for ((&start, &duration), &resource) in c.starts.iter().zip(&c.durations).zip(&c.resources) {
            duration.set_min(ctx, 0)?;
            resource.set_min(ctx, 0)?;
            self.tasks.push(TaskBounds {
                est: i128::from(ctx.min(start)),
                lst: i128::from(ctx.max(start)),
                duration: i128::from(duration.min(ctx)),
                height: i128::from(resource.min(ctx)),
            });
        }
        Ok(())
    }

    /// One round of time-tabling; `Ok(true)` if a start bound moved.
    fn round(&mut self, ctx: &mut Context<'_>) -> Result<bool, Conflict> {
        let c = self.constraint;
        self.read(ctx)?;
        self.profile.build(&self.tasks);
        ctx.count_checks(self.tasks.len() as u64);
        let capacity = i128::from(c.capacity.max(ctx));
        let peak = self.profile.peak();
        if peak > capacity {
            return Err(Conflict);
        }
        c.capacity.set_min(ctx, clamp(peak))?;
        let mut moved = false;
        for (k, task) in self.tasks.iter().enumerate() {
            if let Operand::Var(var) = c.resources[k] {
                if task.compulsory_part().is_some() {
                    ctx.set_max(var, clamp(capacity - self.profile.others_during(task)))?;
                }
            }
            if task.duration == 0 || task.height == 0 {
                continue;
            }
            let start = c.starts[k];
            let earliest = self.profile.earliest_start(task, capacity);
            if earliest > task.est {
                ctx.set_min(start, clamp(earliest))?;
                moved = true;
            }
            let latest = self.profile.latest_start(task, capacity);
            if latest < task.lst {
                ctx.set_max(start, clamp(latest))?;
                moved = true;
            }
        }
        Ok(moved)
    }

    /// The relaxation as it was when the propagator acted (see the sibling
    /// module `explain`).
    fn frame(&self, why: &Explanation<'_>) -> Frame {
        let c = self.constraint;
        let tasks = c
            .starts
            .iter()
            .zip(&c.durations)
            .zip(&c.resources)
            .map(|((&start, &duration), &resource)| TaskBounds {
                est: i128::from(why.min(start)),
                lst: i128::from(why.max(start)),
                duration: i128::from(least(duration, why).max(0)),
                height: i128::from(least(resource, why).max(0)),
            })
            .collect();
        Frame::new(tasks, i128::from(largest(c.capacity, why)))
    }

    /// Why `var ≥ value`: nothing for a duration, use or capacity at least 0
    /// (the relation says so), the profile for a start or the capacity.
    fn at_least(&self, frame: &Frame, var: VarId, value: i128, answer: &mut Answer) -> bool {
        let c = self.constraint;
        let operand = Operand::Var(var);
        if value <= 0 && (c.durations.contains(&operand) || c.resources.contains(&operand) || c.capacity == operand) {
            return true;
        }
        for i in (0..c.starts.len()).filter(|&i| c.starts[i] == var) {
            let mut attempt = Answer::default();
            if frame.timetable_raise(i, value, &mut attempt) {
                *answer = attempt;
                return true;
            }
        }
        c.capacity == operand && frame.load_at_least(value, answer)
    }

    /// Why `var ≤ value`: the profile, on the mirrored time axis for a
    /// start, during the task's compulsory part for a use.
    fn at_most(&self, frame: &Frame, var: VarId, value: i128, answer: &mut Answer) -> bool {
        let c = self.constraint;
        let mirror = frame.mirror();
        for i in (0..c.starts.len()).filter(|&i| c.starts[i] == var) {
            let mut attempt = Answer::default();
            if mirror.timetable_raise(i, mirror.mirrored_target(i, value), &mut attempt) {
                *answer = attempt;
                return true;
            }
        }
        for k in (0..c.resources.len()).filter(|&k| c.resources[k] == Operand::Var(var)) {
            let mut attempt = Answer::default();
            if frame.others_at_least(k, frame.capacity() - value, &mut attempt) {
                *answer = attempt;
                return true;
            }
        }
        false
    }
}

impl Propagator for TimeTable<'_> {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        if self.constraint.starts.is_empty() {
            // No task: any capacity will do.
            return Ok(());
        }
        self.constraint.capacity.set_min(ctx, 0)?;
        // Moving a start can grow a compulsory part, which can move others.
        while self.round(ctx)? {}
        Ok(())
    }

    fn interest(&self) -> Event {
        Event::Bounds
    }

    fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
        let c = self.constraint;
        if c.starts.is_empty() {
            return false;
        }
        let frame = self.frame(why);
        let mut answer = Answer::default();
        let found = match why.explained() {
            Explained::Failure => frame.timetable_overload(&mut answer),
            Explained::AtLeast(var, value) => self.at_least(&frame, var, i128::from(value), &mut answer),
            Explained::AtMost(var, value) => self.at_most(&frame, var, i128::from(value), &mut answer),
            Explained::Removed(var) => {
                // Values below a new least value, or above a new largest.
                let (lo, hi) = why.removed_values().fold((i64::MAX, i64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
                self.at_least(&frame, var, i128::from(hi) + 1, &mut answer) || {
                    answer = Answer::default();
                    self.at_most(&frame, var, i128::from(lo) - 1, &mut answer)
                }
            }
        };
        if found {
            answer.write(why, &c.starts, &c.durations, Some(&c.resources), Some(c.capacity));
        }
        found
    }

    fn is_idempotent(&self) -> bool {
        // Only start moves are followed up inside a call; the engine calls
        // again after the other bounds it moved.
        false
    }
}
