//! Time-table reasoning: the resource profile of the compulsory parts
//! (Beldiceanu & Carlsson, "A new multi-resource cumulatives constraint with
//! negative heights", CP 2002; the bounds version as in Schutt, Feydy,
//! Stuckey & Wallace, "Explaining the cumulative propagator", Constraints
//! 2011). A task that must run during `[lst, ect)` uses its least resource
//! there whatever its start; the sum over the tasks is a lower bound of the
//! load at each time. A task whose least use does not fit on top of the
//! others' load in a segment of the profile cannot overlap that segment, so
//! its start moves past it (or before it).

use super::TaskBounds;

/// A piece of the profile: the load of the compulsory parts during `[start, end)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Segment {
    pub(super) start: i128,
    pub(super) end: i128,
    pub(super) load: i128,
}

/// The profile of the compulsory parts: segments with a positive load, in
/// time order, cut at every start and end of a compulsory part (so that a
/// segment lies inside a task's compulsory part or outside it, and the
/// segments of two tasks that follow each other stay apart). Its buffers are
/// reused from call to call.
#[derive(Debug, Default)]
pub(super) struct Profile {
    segments: Vec<Segment>,
    events: Vec<(i128, i128)>,
}

impl Profile {
    /// Builds the profile of the tasks' compulsory parts.
    pub(super) fn build(&mut self, tasks: &[TaskBounds]) {
        self.events.clear();
        for task in tasks {
            if let (Some((start, end)), true) = (task.compulsory_part(), task.height > 0) {
                self.events.push((start, task.height));
                self.events.push((end, -task.height));
            }
        }
        self.events.sort_unstable();
        self.segments.clear();
        let mut load = 0i128;
        let mut k = 0;
        while k < self.events.len() {
            let time = self.events[k].0;
            while k < self.events.len() && self.events[k].0 == time {
                load += self.events[k].1;
                k += 1;
            }
            if let Some(&(next, _)) = self.events.get(k) {
                if load > 0 {
                    self.segments.push(Segment { start: time, end: next, load });
                }
            }
        }
    }

    /// The segments, in time order.
    pub(super) fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// The largest load.
    pub(super) fn peak(&self) -> i128 {
        self.segments.iter().map(|s| s.load).max().unwrap_or(0)
    }

    /// The load of the tasks other than `task` in `segment`: `task`'s own
    /// height is part of a segment inside its compulsory part.
    fn others(task: &TaskBounds, segment: &Segment) -> i128 {
        match task.compulsory_part() {
            Some((start, end)) if task.height > 0 && start <= segment.start && segment.end <= end => {
                segment.load - task.height
            }
            _ => segment.load,
        }
    }

    /// Whether `task` cannot overlap `segment` within `capacity`.
    pub(super) fn blocks(task: &TaskBounds, segment: &Segment, capacity: i128) -> bool {
        Self::others(task, segment) + task.height > capacity
    }

    /// The earliest start of `task` (one with a positive duration and height)
    /// from which it overlaps no segment that blocks it.
    pub(super) fn earliest_start(&self, task: &TaskBounds, capacity: i128) -> i128 {
        let mut est = task.est;
        let first = self.segments.partition_point(|s| s.end <= est);
        for segment in &self.segments[first..] {
            if segment.start >= est + task.duration {
                break;
            }
            if segment.end > est && Self::blocks(task, segment, capacity) {
                est = segment.end;
            }
        }
        est
    }

    /// The latest start of `task` (one with a positive duration and height)
    /// from which it overlaps no segment that blocks it.
    pub(super) fn latest_start(&self, task: &TaskBounds, capacity: i128) -> i128 {
        let mut lst = task.lst;
        let last = self.segments.partition_point(|s| s.start < lst + task.duration);
        for segment in self.segments[..last].iter().rev() {
            if segment.end <= lst {
                break;
            }
            if segment.start < lst + task.duration && Self::blocks(task, segment, capacity) {
                lst = segment.start - task.duration;
            }
        }
        lst
    }

    /// The largest load of the other tasks during `task`'s compulsory part
    /// (0 if it has none).
    pub(super) fn others_during(&self, task: &TaskBounds) -> i128 {
        let Some((start, end)) = task.compulsory_part() else { return 0 };
        let first = self.segments.partition_point(|s| s.end <= start);
        self.segments[first..]
            .iter()
            .take_while(|s| s.start < end)
            .map(|s| Self::others(task, s))
            .max()
            .unwrap_or(0)
            .max(0)
    }

    /// The first time after `time` that is not strictly inside a segment: a
    /// task of no duration on a disjunctive resource (strict form) cannot
    /// start strictly inside another task.
    pub(super) fn earliest_point(&self, time: i128) -> i128 {
        let mut time = time;
        let first = self.segments.partition_point(|s| s.end <= time);
        for segment in &self.segments[first..] {
            if segment.start < time && time < segment.end {
                time = segment.end;
            } else {
                break;
            }
        }
        time
    }

    /// The last time before `time` that is not strictly inside a segment.
    pub(super) fn latest_point(&self, time: i128) -> i128 {
        let mut time = time;
        let last = self.segments.partition_point(|s| s.start < time);
        for segment in self.segments[..last].iter().rev() {
            if segment.start < time && time < segment.end {
                time = segment.start;
            } else {
                break;
            }
        }
        time
    }
}

#[cfg(test)]
mod tests {
    use super::super::task;
    use super::*;

    #[test]
    fn a_task_moves_past_the_segments_it_cannot_share() {
        // Two fixed tasks of height 2 at [0, 3) and [3, 5); capacity 3.
        let fixed = [task(0, 0, 3, 2), task(3, 3, 2, 2)];
        let mover = task(1, 10, 2, 2);
        let mut profile = Profile::default();
        profile.build(&[fixed[0], fixed[1], mover]);
        assert_eq!(profile.peak(), 2);
        assert_eq!(profile.earliest_start(&mover, 3), 5);
        assert_eq!(profile.latest_start(&mover, 3), 10);
        // With capacity 4 it fits anywhere.
        assert_eq!(profile.earliest_start(&mover, 4), 1);
        // A task of height 1 fits beside them with capacity 3.
        assert_eq!(profile.earliest_start(&task(0, 10, 2, 1), 3), 0);
    }

    #[test]
    fn a_task_keeps_its_own_compulsory_part() {
        // A task fixed at [2, 6) of height 3, capacity 3: its own load does not push it.
        let own = task(2, 2, 4, 3);
        let mut profile = Profile::default();
        profile.build(&[own]);
        assert_eq!(profile.earliest_start(&own, 3), 2);
        assert_eq!(profile.latest_start(&own, 3), 2);
        assert_eq!(profile.others_during(&own), 0);
    }

    #[test]
    fn points_stay_out_of_segments_but_may_touch_them() {
        let mut profile = Profile::default();
        profile.build(&[task(0, 0, 3, 1), task(3, 3, 2, 1)]);
        assert_eq!(profile.earliest_point(1), 3);
        assert_eq!(profile.earliest_point(4), 5);
        assert_eq!(profile.latest_point(4), 3);
        assert_eq!(profile.latest_point(3), 3);
        assert_eq!(profile.latest_point(2), 0);
    }
}
