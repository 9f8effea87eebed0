//! Scheduling: tasks with start times, durations and resource use on a shared
//! resource, MiniZinc's `cumulative`, `disjunctive` and `disjunctive_strict`.
//!
//! - [`Cumulative`]: at every time, the tasks running use at most the
//!   capacity (`cumulative.rs`: time-table propagation).
//! - [`Disjunctive`]: the tasks do not overlap (`disjunctive.rs`: time-table
//!   propagation and edge-finding).
//!
//! The propagators share the resource profile of compulsory parts
//! (`timetable.rs`), the Θ-Λ-tree of edge-finding (`edge_finding.rs`), and
//! the explanations of their work under learning (`explain.rs`).
//! Times, durations and loads are read into 128-bit integers: a start and a
//! duration of up to `2^62` each, or the loads of many tasks, add up without
//! overflow, and a bound beyond the 64-bit range is clamped before it is
//! written (which then empties the domain, as it should).
//! The propagators read and move start bounds only, so interval domains
//! (ranges wider than the bitset limit, kept as their bounds) need nothing
//! else.

mod cumulative;
mod disjunctive;
mod edge_finding;
mod explain;
mod timetable;

pub use cumulative::Cumulative;
pub use disjunctive::Disjunctive;

/// One task as the propagators see it: its start's bounds, and the least
/// duration and resource use it can have, in 128 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TaskBounds {
    /// The earliest start time.
    est: i128,
    /// The latest start time.
    lst: i128,
    /// The least duration (at least 0).
    duration: i128,
    /// The least resource use (at least 0).
    height: i128,
}

impl TaskBounds {
    /// The earliest completion time, with the least duration.
    fn ect(&self) -> i128 {
        self.est + self.duration
    }

    /// The latest completion time, with the least duration: the task, at
    /// its least duration, lies within `[est, lct)`.
    fn lct(&self) -> i128 {
        self.lst + self.duration
    }

    /// The compulsory part `[lst, ect)`: the times the task runs whatever its
    /// start, if there are any.
    fn compulsory_part(&self) -> Option<(i128, i128)> {
        (self.lst < self.ect()).then(|| (self.lst, self.ect()))
    }
}

/// A task from its bounds, for the propagators' unit tests.
#[cfg(test)]
fn task(est: i128, lst: i128, duration: i128, height: i128) -> TaskBounds {
    TaskBounds { est, lst, duration, height }
}

/// A time or a bound computed in 128 bits, as a value to write into a domain:
/// beyond the 64-bit range it is clamped, which still empties a domain
/// (every value lies within `-2^62..=2^62`).
fn clamp(value: i128) -> i64 {
    value.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}
