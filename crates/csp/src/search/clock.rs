//! The time limit's clock: read often enough to stop within a few
//! milliseconds of the limit, rarely enough to cost nothing measurable.
//!
//! A search spends its time in nodes and in propagator calls, and either can
//! be long: a root fixpoint may run for seconds before the first node, one
//! node may call propagators thousands of times. So the clock is asked at
//! every node and every propagator call, as a count of that work; it reads
//! the time only when the count reaches the next reading's. The stride between
//! readings adapts to the work's pace: it doubles while readings come less
//! than half a millisecond apart and halves when they come more than two
//! apart, so a reading costs about one per millisecond whether the work comes
//! in nanoseconds or in milliseconds. A time limit is then honoured within a
//! few milliseconds, plus the longest single propagator call (which is not
//! interrupted).
//!
//! A CPU-time limit ([`Limits::cpu_time`](super::Limits::cpu_time)) is read
//! at the same readings, from the CPU clock of the thread that runs the
//! search: on a loaded machine it stops a run after the same work whatever
//! the load, where the wall clock does not.
//!
//! A [`StopSignal`] (see [`Solver::stop_on`](crate::Solver::stop_on)) is read
//! at the same readings: another thread raises it, and the search stops
//! within about a millisecond, as at a time limit, with
//! [`Limit::Stopped`]. A portfolio stops its other workers this way once
//! one has answered. Without a signal and without limits the clock is never
//! read.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::Limit;

/// How far apart the readings should be.
const TARGET: Duration = Duration::from_millis(1);
/// The largest stride: a reading at least every 2^16 units of work.
const MAX_STRIDE: u64 = 1 << 16;

/// A flag that another thread raises to stop a search: cloned, every copy
/// is the same flag.
///
/// ```
/// use csp::{Limit, Model, Outcome, SolveConfig, Solver, StopSignal};
///
/// let mut model = Model::new();
/// let x = model.new_vars(3, 0..=2).unwrap();
/// model.all_different(&x).unwrap();
/// let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
/// let stop = StopSignal::new();
/// solver.stop_on(stop.clone());
/// stop.stop(); // from any thread; here, before the run
/// assert_eq!(solver.solve(), Outcome::LimitReached(Limit::Stopped));
/// ```
#[derive(Clone, Debug, Default)]
pub struct StopSignal(Arc<AtomicBool>);

impl StopSignal {
    /// A signal not raised.
    pub fn new() -> StopSignal {
        StopSignal::default()
    }

    /// Raises the signal: every search that watches it stops at its clock's
    /// next reading (about a millisecond of work).
    pub fn stop(&self) {
        self.0.store(true, Ordering::Release);
    }

    /// Whether the signal is raised.
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Acquire)
    }
}

/// When the run must stop, and when to look at the time next.
#[derive(Clone, Debug)]
pub(super) struct Clock {
    /// `None` without a time limit.
    deadline: Option<Instant>,
    /// The thread's CPU time at which the run must stop; `None` without a
    /// CPU-time limit. (Without either limit the clock is never read.)
    cpu_deadline: Option<Duration>,
    /// The signal that stops the run, when one is watched.
    stop: Option<StopSignal>,
    /// The work count at which to read the time next.
    next: u64,
    stride: u64,
    last: Instant,
    /// The limit that expired, once one has.
    expired: Option<Limit>,
}

/// The CPU time the current thread has used, or `None` when the system
/// cannot say.
fn thread_cpu_time() -> Option<Duration> {
    cpu_time::ThreadTime::try_now().ok().map(|time| time.as_duration())
}

impl Clock {
    /// A clock for a run started at `now`, with an optional time limit and
    /// an optional CPU-time limit (counted from now on this thread's CPU
    /// clock; where that clock cannot be read, the CPU-time limit is taken
    /// as reached at the first reading rather than never), and an optional
    /// stop signal.
    pub(super) fn start(
        now: Instant,
        limit: Option<Duration>,
        cpu_limit: Option<Duration>,
        stop: Option<StopSignal>,
    ) -> Clock {
        let deadline = limit.map(|limit| now + limit);
        let cpu_deadline =
            cpu_limit.map(|limit| thread_cpu_time().map_or(Duration::ZERO, |used| used.saturating_add(limit)));
        // Without a limit or a signal the first reading never comes.
        let next = if deadline.is_none() && cpu_deadline.is_none() && stop.is_none() { u64::MAX } else { 0 };
        Clock { deadline, cpu_deadline, stop, next, stride: 1, last: now, expired: None }
    }

    /// After `work` units of work (nodes and propagator calls so far):
    /// whether a limit is reached.
    #[inline]
    pub(super) fn tick(&mut self, work: u64) -> bool {
        if work < self.next {
            return self.expired.is_some();
        }
        self.read(work)
    }

    /// Whether an earlier tick found a limit reached.
    #[inline]
    pub(super) fn expired(&self) -> bool {
        self.expired.is_some()
    }

    /// The limit an earlier tick found reached: [`Limit::Time`],
    /// [`Limit::CpuTime`] or [`Limit::Stopped`].
    pub(super) fn limit(&self) -> Limit {
        self.expired.unwrap_or(Limit::Time)
    }

    #[cold]
    fn read(&mut self, work: u64) -> bool {
        if self.stop.as_ref().is_some_and(StopSignal::is_stopped) {
            self.expired = Some(Limit::Stopped);
            return true;
        }
        let now = Instant::now();
        if self.deadline.is_some_and(|deadline| now >= deadline) {
            self.expired = Some(Limit::Time);
            return true;
        }
        if let Some(cpu_deadline) = self.cpu_deadline
            && thread_cpu_time().is_none_or(|used| used >= cpu_deadline)
        {
            self.expired = Some(Limit::CpuTime);
            return true;
        }
        let gap = now.duration_since(self.last);
        if gap < TARGET / 2 {
            self.stride = (self.stride * 2).min(MAX_STRIDE);
        } else if gap > TARGET * 2 {
            self.stride = (self.stride / 2).max(1);
        }
        self.last = now;
        self.next = work + self.stride;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_limit_the_clock_never_expires() {
        let mut clock = Clock::start(Instant::now(), None, None, None);
        assert!((0..1000).all(|work| !clock.tick(work)));
    }

    #[test]
    fn an_elapsed_limit_is_seen_at_the_next_reading() {
        let start = Instant::now() - Duration::from_secs(1);
        let mut clock = Clock::start(start, Some(Duration::from_millis(10)), None, None);
        assert!(clock.tick(0));
        assert!(clock.expired());
        assert_eq!(clock.limit(), Limit::Time);
    }

    #[test]
    fn cheap_work_reads_the_time_less_and_less_often() {
        let mut clock = Clock::start(Instant::now(), Some(Duration::from_secs(3600)), None, None);
        for work in 0..10_000 {
            clock.tick(work);
        }
        // Readings microseconds apart: the stride has grown.
        assert!(clock.stride > 64, "stride {}", clock.stride);
    }

    #[test]
    fn a_cpu_time_limit_of_zero_is_reached_at_the_first_reading() {
        let mut clock = Clock::start(Instant::now(), None, Some(Duration::ZERO), None);
        assert!(clock.tick(0));
        assert_eq!((clock.expired(), clock.limit()), (true, Limit::CpuTime));
    }

    #[test]
    fn a_distant_cpu_time_limit_is_not_reached() {
        let mut clock = Clock::start(Instant::now(), None, Some(Duration::from_secs(3600)), None);
        assert!((0..1000).all(|work| !clock.tick(work)));
    }

    #[test]
    fn a_raised_signal_is_seen_at_the_next_reading() {
        let stop = StopSignal::new();
        let mut clock = Clock::start(Instant::now(), None, None, Some(stop.clone()));
        assert!(!clock.tick(0), "not raised yet");
        let next = clock.next;
        stop.stop();
        assert!(stop.is_stopped());
        assert!(!clock.tick(next - 1), "read only at the next reading");
        assert!(clock.tick(next));
        assert_eq!(clock.limit(), Limit::Stopped);
    }
}
