//! `disjunctive(s, d)` and `disjunctive_strict(s, d)`: tasks with start times
//! `s` and durations `d` do not overlap (MiniZinc's `disjunctive` and
//! `disjunctive_strict`, a unary resource). Durations may be variables or
//! constants.
//!
//! The relation, as MiniZinc's decompositions have it: every duration is at
//! least 0, and every two tasks `i`, `j` satisfy `s[i] + d[i] <= s[j]` or
//! `s[j] + d[j] <= s[i]`, or (in the non-strict form only) one of them has no
//! duration. So a task of no duration may sit inside another in the
//! non-strict form, and only at another's start or end, or between tasks, in
//! the strict form.
//!
//! Strength: on the start times' bounds, time-table consistency (the
//! sibling module `timetable`, with every task of positive least duration
//! using the whole resource), edge-finding with its overload check, and
//! detectable precedences (`edge_finding`, Vilím's Θ-Λ-tree, `O(n log n)`),
//! all with each task's least duration. (Not-first/not-last is not done.) In the strict form, a task of no least duration also
//! keeps its start out of the inside of every compulsory part. Sound, and it
//! checks fixed values. Each call repeats the reasoning until no start bound
//! moves. Under learning it explains a moved bound or a failure by the start
//! bounds of the tasks the rule used (the sibling module `explain`).

use super::edge_finding::{EdgeFinder, Verdict};
use super::explain::{Answer, Frame, least};
use super::timetable::Profile;
use super::{TaskBounds, clamp};
use crate::constraint::{Constraint, Propagator, PropagatorOptions};
use crate::constraints::operand::{Operand, OperandScope, Slot};
use crate::ids::VarId;
use crate::kernel::{Conflict, Context, Event, Explained, Explanation, PropagationResult};

/// The tasks do not overlap; in the strict form, not even a task of no duration
/// may start inside another.
#[derive(Clone, Debug)]
pub struct Disjunctive {
    starts: Vec<VarId>,
    durations: Vec<Operand>,
    strict: bool,
    scope: Vec<VarId>,
    /// Where each task's start and duration are in a tuple of the scope's values.
    slots: Vec<[Slot; 2]>,
}

impl Disjunctive {
    /// The constraint, strict or not; one duration per start (built by hand
    /// with lists of different lengths, it has the tasks both give). Prefer
    /// [`Model::disjunctive`](crate::Model::disjunctive) and
    /// [`Model::disjunctive_strict`](crate::Model::disjunctive_strict), which
    /// check the arguments.
    pub fn new(starts: Vec<VarId>, durations: Vec<Operand>, strict: bool) -> Disjunctive {
        let mut scope = OperandScope::default();
        let slots =
            starts.iter().zip(&durations).map(|(&s, &d)| [scope.slot(Operand::Var(s)), scope.slot(d)]).collect();
        Disjunctive { starts, durations, strict, scope: scope.vars, slots }
    }
}

impl Constraint for Disjunctive {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        let tasks: Vec<(i128, i128)> = self
            .slots
            .iter()
            .map(|[start, duration]| (i128::from(start.value(values)), i128::from(duration.value(values))))
            .collect();
        if tasks.iter().any(|&(_, duration)| duration < 0) {
            return false;
        }
        tasks.iter().enumerate().all(|(k, &(si, di))| {
            tasks[k + 1..]
                .iter()
                .all(|&(sj, dj)| (!self.strict && (di == 0 || dj == 0)) || si + di <= sj || sj + dj <= si)
        })
    }

    fn kind(&self) -> &str {
        if self.strict { "disjunctive_strict" } else { "disjunctive" }
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(UnaryResource {
            constraint: self,
            tasks: Vec::new(),
            long: Vec::new(),
            long_tasks: Vec::new(),
            long_est: Vec::new(),
            long_lst: Vec::new(),
            est: Vec::new(),
            lst: Vec::new(),
            profile: Profile::default(),
            edge_finder: EdgeFinder::default(),
        }))
    }
}

struct UnaryResource<'c> {
    constraint: &'c Disjunctive,
    /// Scratch: every task's bounds, with height 1 when its least duration is
    /// positive (0 otherwise).
    tasks: Vec<TaskBounds>,
    /// Scratch: the tasks of positive least duration, their bounds, and the
    /// start bounds edge-finding raises and lowers.
    long: Vec<usize>,
    long_tasks: Vec<TaskBounds>,
    long_est: Vec<i128>,
    long_lst: Vec<i128>,
    /// Scratch: new start bounds of every task.
    est: Vec<i128>,
    lst: Vec<i128>,
    profile: Profile,
    edge_finder: EdgeFinder,
}

impl UnaryResource<'_> {
    fn read(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let c = self.constraint;
        self.tasks.clear();
        self.long.clear();
        self.long_tasks.clear();
        for (k, (&start, &duration)) in c.starts.iter().zip(&c.durations).enumerate() {
            duration.set_min(ctx, 0)?;
            let least = i128::from(duration.min(ctx));
            let task = TaskBounds {
                est: i128::from(ctx.min(start)),
                lst: i128::from(ctx.max(start)),
                duration: least,
                height: i128::from(least > 0),
            };
            self.tasks.push(task);
            if least > 0 {
                self.long.push(k);
                self.long_tasks.push(task);
            }
        }
        self.est.clear();
        self.est.extend(self.tasks.iter().map(|t| t.est));
        self.lst.clear();
        self.lst.extend(self.tasks.iter().map(|t| t.lst));
        Ok(())
    }

    /// One round of time-tabling and edge-finding; `Ok(true)` if a start bound moved.
    fn round(&mut self, ctx: &mut Context<'_>) -> Result<bool, Conflict> {
        self.read(ctx)?;
        ctx.count_checks(self.tasks.len() as u64);
        self.profile.build(&self.tasks);
        if self.profile.peak() > 1 {
            return Err(Conflict);
        }
        for (k, task) in self.tasks.iter().enumerate() {
            if task.duration > 0 {
                self.est[k] = self.est[k].max(self.profile.earliest_start(task, 1));
                self.lst[k] = self.lst[k].min(self.profile.latest_start(task, 1));
            } else if self.constraint.strict {
                self.est[k] = self.est[k].max(self.profile.earliest_point(task.est));
                self.lst[k] = self.lst[k].min(self.profile.latest_point(task.lst));
            }
        }
        if self.long_tasks.len() >= 2 {
            self.long_est.clear();
            self.long_est.extend(self.long.iter().map(|&k| self.est[k]));
            self.long_lst.clear();
            self.long_lst.extend(self.long.iter().map(|&k| self.lst[k]));
            if self.edge_finder.run(&self.long_tasks, &mut self.long_est, &mut self.long_lst) == Verdict::Overload {
                return Err(Conflict);
            }
            for (i, &k) in self.long.iter().enumerate() {
                self.est[k] = self.long_est[i];
                self.lst[k] = self.long_lst[i];
            }
        }
        let mut moved = false;
        for (k, task) in self.tasks.iter().enumerate() {
            let start = self.constraint.starts[k];
            if self.est[k] > task.est {
                ctx.set_min(start, clamp(self.est[k]))?;
                moved = true;
            }
            if self.lst[k] < task.lst {
                ctx.set_max(start, clamp(self.lst[k]))?;
                moved = true;
            }
        }
        Ok(moved)
    }

    /// The relaxation as it was when the propagator acted (see the sibling
    /// module `explain`): each task at its least duration, using the whole
    /// resource when that is positive.
    fn frame(&self, why: &Explanation<'_>) -> Frame {
        let c = self.constraint;
        let tasks = c
            .starts
            .iter()
            .zip(&c.durations)
            .map(|(&start, &duration)| {
                let least = i128::from(least(duration, why).max(0));
                TaskBounds {
                    est: i128::from(why.min(start)),
                    lst: i128::from(why.max(start)),
                    duration: least,
                    height: i128::from(least > 0),
                }
            })
            .collect();
        Frame::new(tasks, 1)
    }

    /// Why task `i`'s start is at least `target` in `frame`'s time: by
    /// time-tabling, the strict form's points, detectable precedences or
    /// edge-finding, whichever explains it first.
    fn raise(&self, frame: &Frame, i: usize, target: i128, answer: &mut Answer) -> bool {
        let attempts: [&dyn Fn(&mut Answer) -> bool; 4] = [
            &|a| frame.timetable_raise(i, target, a),
            &|a| self.constraint.strict && frame.point_raise(i, target, a),
            &|a| frame.precedence_raise(i, target, a),
            &|a| frame.edge_raise(i, target, a),
        ];
        attempts.iter().any(|attempt| {
            *answer = Answer::default();
            attempt(answer)
        })
    }

    /// Why `var ≥ value` (`var ≤ value` when `upper`): nothing for a
    /// duration at least 0, the reasoning on the tasks for a start (on the
    /// mirrored time axis for an upper bound).
    fn bound(&self, frame: &Frame, var: VarId, value: i128, upper: bool, answer: &mut Answer) -> bool {
        let c = self.constraint;
        if !upper && value <= 0 && c.durations.contains(&Operand::Var(var)) {
            return true;
        }
        let mirror = if upper { frame.mirror() } else { Frame::new(Vec::new(), 1) };
        (0..c.starts.len()).filter(|&i| c.starts[i] == var).any(|i| match upper {
            false => self.raise(frame, i, value, answer),
            true => self.raise(&mirror, i, mirror.mirrored_target(i, value), answer),
        })
    }
}

impl Propagator for UnaryResource<'_> {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        // Moving a start can grow a compulsory part, which can move others.
        while self.round(ctx)? {}
        Ok(())
    }

    fn interest(&self) -> Event {
        Event::Bounds
    }

    fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
        let frame = self.frame(why);
        let mut answer = Answer::default();
        let found = match why.explained() {
            Explained::Failure => {
                frame.timetable_overload(&mut answer) || {
                    answer = Answer::default();
                    frame.energy_overload(&mut answer)
                }
            }
            Explained::AtLeast(var, value) => self.bound(&frame, var, i128::from(value), false, &mut answer),
            Explained::AtMost(var, value) => self.bound(&frame, var, i128::from(value), true, &mut answer),
            Explained::Removed(var) => {
                // Values below a new least value, or above a new largest.
                let (lo, hi) = why.removed_values().fold((i64::MAX, i64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
                self.bound(&frame, var, i128::from(hi) + 1, false, &mut answer)
                    || self.bound(&frame, var, i128::from(lo) - 1, true, &mut answer)
            }
        };
        if found {
            let c = self.constraint;
            answer.write(why, &c.starts, &c.durations, None, None);
        }
        found
    }

    fn is_idempotent(&self) -> bool {
        true
    }
}
