//! Explanations of the scheduling propagators under learning (see
//! [`Explanation`]): each moved start bound, capacity or use bound, and each
//! failure, by the start bounds of the tasks the reasoning used, not by every
//! task's domain.
//!
//! The propagators reason on a relaxation: each task at its least duration
//! and use, the capacity at its largest (a longer task or a larger use only
//! makes the resource busier). An answer says so with the atoms `d ≥ least`,
//! `r ≥ least` and `b ≤ largest` of the tasks it names, and adds:
//!
//! - time-tabling (Schutt, Feydy, Stuckey & Wallace, "Explaining the
//!   cumulative propagator", Constraints 2011): a start raised past a stretch
//!   `[from, to]` of the profile on which it does not fit, by the tasks whose
//!   compulsory parts cover the stretch (`s ≤ from` and `s ≥ to + 1 - d`,
//!   the largest uses first, only until the overload is reached) and the
//!   task's own `s ≥ from + 1 - d` (so `from` is as late as the bound it had
//!   allows: the stretch is as short as it can be, a single point when the
//!   task already reached past the end). A start moved over several stretches
//!   is explained by the chain of them; a failure, by one overloaded point.
//! - a task of no duration on a strict disjunctive resource, kept out of the
//!   inside of a compulsory part: the task that part belongs to.
//! - detectable precedences and edge-finding (Vilím): the set `Ω'` of tasks
//!   that must all end before the task starts (their earliest start, and why
//!   they precede it: their latest starts), and for edge-finding the set `Ω`
//!   that, with the task, cannot end by `lct(Ω)` unless the task goes last
//!   (the windows `s ≥ est(Ω ∪ {i})`, `s ≤ lct - d`, the latest completion
//!   lifted to the last time that still overloads); an overload, by such a
//!   set alone.
//!
//! The reasoning is searched again at explanation time on the domains as
//! they were, in time order, or, for an upper bound, on the mirrored time
//! axis (a time `t` becomes `-1 - t`, a start `s` of a task of duration `d`
//! becomes `-s - d`); the propagators acted on domains no tighter, and every
//! rule used here is monotone, so the search finds what they used. When it
//! does not (a start shared by tasks in other roles, say), the propagator
//! gives the generic answer.

use super::timetable::Profile;
use super::{TaskBounds, clamp};
use crate::constraints::operand::Operand;
use crate::ids::{Atom, VarId};
use crate::kernel::Explanation;

/// A bound of a task's start that an answer uses, in the model's time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Start {
    AtLeast(usize, i128),
    AtMost(usize, i128),
}

/// An answer: start bounds, the tasks whose least duration and least use
/// it relies on, and whether it relies on the capacity's largest value.
#[derive(Debug, Default)]
pub(super) struct Answer {
    starts: Vec<Start>,
    durations: Vec<usize>,
    heights: Vec<usize>,
    capacity: bool,
}

impl Answer {
    /// Adds the answer's atoms to `why`: the start bounds (each that says
    /// nothing, beyond the 64-bit range, left out), and `d ≥ least`,
    /// `r ≥ least`, `b ≤ largest` of the operands it relies on (`heights`
    /// `None` when the uses are the durations' signs, as on a disjunctive
    /// resource).
    pub(super) fn write(
        &self,
        why: &mut Explanation<'_>,
        starts: &[VarId],
        durations: &[Operand],
        heights: Option<&[Operand]>,
        capacity: Option<Operand>,
    ) {
        let mut atoms: Vec<Atom> = Vec::new();
        for &start in &self.starts {
            // A bound beyond the 64-bit range held of every value: it says nothing.
            match start {
                Start::AtLeast(j, value) if i128::from(clamp(value)) == value => {
                    atoms.push(Atom::AtLeast(starts[j], clamp(value)))
                }
                Start::AtMost(j, value) if i128::from(clamp(value)) == value => {
                    atoms.push(Atom::AtMost(starts[j], clamp(value)))
                }
                _ => {}
            }
        }
        for &j in &self.durations {
            if let Operand::Var(d) = durations[j] {
                let least = why.min(d);
                if least > 0 {
                    atoms.push(Atom::AtLeast(d, least));
                }
            }
        }
        for &j in self.heights.iter().filter(|_| heights.is_some()) {
            if let Some(Operand::Var(r)) = heights.map(|h| h[j]) {
                let least = why.min(r);
                if least > 0 {
                    atoms.push(Atom::AtLeast(r, least));
                }
            }
        }
        if let (true, Some(Operand::Var(b))) = (self.capacity, capacity) {
            atoms.push(Atom::AtMost(b, why.max(b)));
        }
        why.because_each(atoms);
    }
}

/// The least value an operand had.
pub(super) fn least(operand: Operand, why: &Explanation<'_>) -> i64 {
    match operand {
        Operand::Var(var) => why.min(var),
        Operand::Const(value) => value,
    }
}

/// The largest value an operand had.
pub(super) fn largest(operand: Operand, why: &Explanation<'_>) -> i64 {
    match operand {
        Operand::Var(var) => why.max(var),
        Operand::Const(value) => value,
    }
}

/// The relaxation as it was, in time order or mirrored.
#[derive(Debug)]
pub(super) struct Frame {
    tasks: Vec<TaskBounds>,
    capacity: i128,
    mirrored: bool,
}

impl Frame {
    /// The relaxation in time order: the tasks' start bounds, least
    /// durations and uses (at least 0), and the largest capacity.
    pub(super) fn new(tasks: Vec<TaskBounds>, capacity: i128) -> Frame {
        Frame { tasks, capacity, mirrored: false }
    }

    /// The largest capacity.
    pub(super) fn capacity(&self) -> i128 {
        self.capacity
    }

    /// The same relaxation on the mirrored time axis.
    pub(super) fn mirror(&self) -> Frame {
        let tasks = self
            .tasks
            .iter()
            .map(|t| TaskBounds { est: -(t.lst + t.duration), lst: -(t.est + t.duration), ..*t })
            .collect();
        Frame { tasks, capacity: self.capacity, mirrored: !self.mirrored }
    }

    /// A start bound `s ≤ value` in the model's time as a lower bound in
    /// this frame (mirrored), for task `i`.
    pub(super) fn mirrored_target(&self, i: usize, value: i128) -> i128 {
        -value - self.tasks[i].duration
    }

    /// Adds `s[j] ≥ value` in this frame's time.
    fn at_least(&self, j: usize, value: i128, answer: &mut Answer) {
        answer.starts.push(match self.mirrored {
            false => Start::AtLeast(j, value),
            true => Start::AtMost(j, -value - self.tasks[j].duration),
        });
    }

    /// Adds `s[j] ≤ value` in this frame's time.
    fn at_most(&self, j: usize, value: i128, answer: &mut Answer) {
        answer.starts.push(match self.mirrored {
            false => Start::AtMost(j, value),
            true => Start::AtLeast(j, -value - self.tasks[j].duration),
        });
    }

    /// Adds the tasks other than `exclude` whose compulsory parts cover
    /// `[from, to]`, the largest uses first, until their uses add up to
    /// `need`; `false` if they never do.
    fn cover(&self, from: i128, to: i128, exclude: Option<usize>, need: i128, answer: &mut Answer) -> bool {
        if need <= 0 {
            return true;
        }
        let mut covering: Vec<usize> = (0..self.tasks.len())
            .filter(|&j| {
                let t = &self.tasks[j];
                Some(j) != exclude && t.height > 0 && t.lst <= from && t.ect() > to
            })
            .collect();
        covering.sort_by_key(|&j| std::cmp::Reverse(self.tasks[j].height));
        let mut sum = 0;
        for j in covering {
            if sum >= need {
                break;
            }
            sum += self.tasks[j].height;
            self.at_most(j, from, answer);
            self.at_least(j, to + 1 - self.tasks[j].duration, answer);
            answer.durations.push(j);
            answer.heights.push(j);
        }
        sum >= need
    }

    /// Why time-tabling raised task `i`'s start to at least `target` (in
    /// this frame): the chain of stretches of the profile it could not
    /// overlap.
    pub(super) fn timetable_raise(&self, i: usize, target: i128, answer: &mut Answer) -> bool {
        let task = self.tasks[i];
        if task.duration <= 0 || task.height <= 0 || target <= task.est {
            return false;
        }
        let mut profile = Profile::default();
        profile.build(&self.tasks);
        let segments = profile.segments();
        let d = task.duration;
        let mut e = task.est;
        let mut k = segments.partition_point(|s| s.end <= e);
        let mut first = true;
        while e < target {
            let segment = loop {
                let Some(s) = segments.get(k) else { return false };
                if s.start >= e + d {
                    return false;
                }
                if s.end > e && Profile::blocks(&task, s, self.capacity) {
                    break *s;
                }
                k += 1;
            };
            // The stretch: up to the target (or the segment's end), from as
            // late as the start's bound so far lets the task reach.
            let to = segment.start.max(segment.end.min(target) - 1);
            let from = to.min(e + d - 1);
            if first {
                self.at_least(i, from + 1 - d, answer);
                first = false;
            }
            if !self.cover(from, to, Some(i), self.capacity - task.height + 1, answer) {
                return false;
            }
            e = to + 1;
        }
        answer.durations.push(i);
        answer.heights.push(i);
        answer.capacity = true;
        true
    }

    /// Why a point task `i` (no duration, strict disjunctive resource) starts
    /// at least at `target`: the compulsory parts it may not start inside.
    pub(super) fn point_raise(&self, i: usize, target: i128, answer: &mut Answer) -> bool {
        let mut e = self.tasks[i].est;
        if target <= e {
            return false;
        }
        self.at_least(i, e, answer);
        while e < target {
            let inside = (0..self.tasks.len())
                .filter(|&j| {
                    let t = &self.tasks[j];
                    j != i && t.height > 0 && t.lst < e && e < t.ect()
                })
                .max_by_key(|&j| self.tasks[j].ect());
            let Some(j) = inside else { return false };
            let to = self.tasks[j].ect().min(target) - 1;
            self.at_most(j, e - 1, answer);
            self.at_least(j, to + 1 - self.tasks[j].duration, answer);
            answer.durations.push(j);
            e = to + 1;
        }
        true
    }

    /// The tasks of positive duration other than `i`, in decreasing order of
    /// earliest start, that `keep` accepts.
    fn by_est(&self, i: usize, keep: impl Fn(&TaskBounds) -> bool) -> Vec<usize> {
        let mut tasks: Vec<usize> =
            (0..self.tasks.len()).filter(|&j| j != i && self.tasks[j].duration > 0 && keep(&self.tasks[j])).collect();
        tasks.sort_by_key(|&j| std::cmp::Reverse(self.tasks[j].est));
        tasks
    }

    /// The fewest of `tasks` (in decreasing order of earliest start) that
    /// cannot all end before `target`: how many, and their earliest start.
    fn ending_at_least(&self, tasks: &[usize], target: i128) -> Option<(usize, i128)> {
        let mut sum = 0;
        for (m, &j) in tasks.iter().enumerate() {
            sum += self.tasks[j].duration;
            if self.tasks[j].est + sum >= target {
                return Some((m + 1, self.tasks[j].est));
            }
        }
        None
    }

    /// Adds that the tasks `omega` all start at or after `start`.
    fn start_after(&self, omega: &[usize], start: i128, answer: &mut Answer) {
        for &j in omega {
            self.at_least(j, start, answer);
            answer.durations.push(j);
        }
    }

    /// Why detectable precedences raised task `i`'s start (a disjunctive
    /// resource) to at least `target`: tasks that must start before `i` can
    /// end (`lst < ect(i)`), so precede it, and cannot all end before `target`.
    pub(super) fn precedence_raise(&self, i: usize, target: i128, answer: &mut Answer) -> bool {
        let task = self.tasks[i];
        if task.duration <= 0 {
            return false;
        }
        let before = self.by_est(i, |t| t.lst < task.ect());
        let Some((m, start)) = self.ending_at_least(&before, target) else { return false };
        let omega = &before[..m];
        let latest = omega.iter().map(|&j| self.tasks[j].lst).max().unwrap_or(task.est);
        self.at_least(i, latest + 1 - task.duration, answer);
        answer.durations.push(i);
        for &j in omega {
            self.at_most(j, latest, answer);
        }
        self.start_after(omega, start, answer);
        true
    }

    /// Why edge-finding raised task `i`'s start (a disjunctive resource) to
    /// at least `target`: for the least `lct` that works, the tasks `Θ` with
    /// a latest completion up to it; `Ω` (the fewest of `Θ` by latest
    /// earliest start) with `i` cannot end by then unless `i` goes last, and
    /// `Ω'` (likewise) cannot all end before `target`.
    pub(super) fn edge_raise(&self, i: usize, target: i128, answer: &mut Answer) -> bool {
        let task = self.tasks[i];
        if task.duration <= 0 {
            return false;
        }
        let mut lcts: Vec<i128> = self.by_est(i, |_| true).iter().map(|&j| self.tasks[j].lct()).collect();
        lcts.sort_unstable();
        lcts.dedup();
        for lct in lcts {
            let theta = self.by_est(i, |t| t.lct() <= lct);
            let Some((m, start)) = self.ending_at_least(&theta, target) else { continue };
            // Ω: the fewest tasks with which i cannot end by lct.
            let mut sum = 0;
            let mut omega = None;
            for k in 0..=theta.len() {
                if k > 0 {
                    sum += self.tasks[theta[k - 1]].duration;
                }
                let earliest = if k == 0 { task.est } else { task.est.min(self.tasks[theta[k - 1]].est) };
                if earliest + sum + task.duration > lct {
                    omega = Some((k, earliest, earliest + sum + task.duration - 1));
                    break;
                }
            }
            let Some((k, earliest, late)) = omega else { continue };
            self.at_least(i, earliest, answer);
            answer.durations.push(i);
            for &j in &theta[..k.max(m)] {
                self.at_most(j, late - self.tasks[j].duration, answer);
            }
            self.start_after(&theta[..k], earliest, answer);
            self.start_after(&theta[..m], start, answer);
            return true;
        }
        false
    }

    /// Why the profile overloads: one point, the tasks covering it.
    pub(super) fn timetable_overload(&self, answer: &mut Answer) -> bool {
        let mut profile = Profile::default();
        profile.build(&self.tasks);
        let Some(segment) = profile.segments().iter().find(|s| s.load > self.capacity) else { return false };
        answer.capacity = true;
        self.cover(segment.start, segment.start, None, self.capacity + 1, answer)
    }

    /// Why tasks of positive duration (a disjunctive resource) cannot all
    /// fit: a set that must run within a window shorter than its durations.
    pub(super) fn energy_overload(&self, answer: &mut Answer) -> bool {
        let none = self.tasks.len();
        let mut lcts: Vec<i128> = self.by_est(none, |_| true).iter().map(|&j| self.tasks[j].lct()).collect();
        lcts.sort_unstable();
        lcts.dedup();
        for lct in lcts {
            let theta = self.by_est(none, |t| t.lct() <= lct);
            let Some((m, start)) = self.ending_at_least(&theta, lct + 1) else { continue };
            let omega = &theta[..m];
            let late = start + omega.iter().map(|&j| self.tasks[j].duration).sum::<i128>() - 1;
            for &j in omega {
                self.at_most(j, late - self.tasks[j].duration, answer);
            }
            self.start_after(omega, start, answer);
            return true;
        }
        false
    }

    /// Why the capacity is at least `need`: one point where the compulsory
    /// parts use that much.
    pub(super) fn load_at_least(&self, need: i128, answer: &mut Answer) -> bool {
        let mut profile = Profile::default();
        profile.build(&self.tasks);
        let Some(segment) = profile.segments().iter().find(|s| s.load >= need) else { return need <= 0 };
        self.cover(segment.start, segment.start, None, need, answer)
    }

    /// Why task `k`'s use is at most the capacity less `need`: a point of
    /// its compulsory part where the others use at least `need` (none needed
    /// when `need` is at most 0: a task that runs uses at most the capacity).
    pub(super) fn others_at_least(&self, k: usize, need: i128, answer: &mut Answer) -> bool {
        let task = self.tasks[k];
        let Some((start, end)) = task.compulsory_part() else { return false };
        answer.capacity = true;
        answer.durations.push(k);
        if need <= 0 {
            return true;
        }
        let mut profile = Profile::default();
        profile.build(&self.tasks);
        for segment in profile.segments().iter().filter(|s| s.start >= start && s.end <= end) {
            let mut covered = Answer::default();
            if self.cover(segment.start, segment.start, Some(k), need, &mut covered) {
                self.at_most(k, segment.start, answer);
                self.at_least(k, segment.start + 1 - task.duration, answer);
                answer.starts.extend(covered.starts);
                answer.durations.extend(covered.durations);
                answer.heights.extend(covered.heights);
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::task;
    use super::*;

    #[test]
    fn a_start_is_explained_by_the_stretch_it_cannot_overlap() {
        // Task 0 fixed at [2, 5) with use 2; task 1 (use 2, length 2) from
        // 1 cannot overlap it with capacity 3: past 5, by task 0 covering
        // [2, 4] (s ≤ 2, s ≥ 2) and task 1's own s ≥ 1.
        let frame = Frame::new(vec![task(2, 2, 3, 2), task(1, 9, 2, 2), task(0, 9, 1, 0)], 3);
        let mut answer = Answer::default();
        assert!(frame.timetable_raise(1, 5, &mut answer));
        assert_eq!(answer.starts, vec![Start::AtLeast(1, 1), Start::AtMost(0, 2), Start::AtLeast(0, 2)]);
        // From at most 3 it must end by 2: s ≤ 0, by s ≤ 3 and task 0 within 1..=2.
        let frame = Frame::new(vec![task(2, 2, 3, 2), task(1, 3, 2, 2)], 3);
        let mirror = frame.mirror();
        let mut answer = Answer::default();
        assert!(mirror.timetable_raise(1, mirror.mirrored_target(1, 0), &mut answer));
        assert_eq!(answer.starts, vec![Start::AtMost(1, 3), Start::AtLeast(0, 1), Start::AtMost(0, 2)]);
    }

    #[test]
    fn an_overload_names_only_the_tasks_it_needs() {
        let frame = Frame::new(vec![task(0, 0, 4, 3), task(1, 1, 3, 1), task(2, 2, 2, 2)], 4);
        let mut answer = Answer::default();
        assert!(frame.timetable_overload(&mut answer));
        // At time 2 the uses are 3 + 1 + 2: 3 and 2 suffice.
        assert_eq!(answer.heights, vec![0, 2]);
    }

    #[test]
    fn edge_finding_is_explained_by_its_sets() {
        let frame = Frame::new(vec![task(0, 6, 5, 1), task(1, 7, 4, 1), task(4, 27, 3, 1)], 1);
        let mut answer = Answer::default();
        assert!(frame.edge_raise(2, 9, &mut answer));
        assert!(answer.starts.contains(&Start::AtLeast(2, 0)) || answer.starts.contains(&Start::AtLeast(2, 1)));
    }
}
