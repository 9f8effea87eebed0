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

use std::time::{Duration, Instant};

/// How far apart the readings should be.
const TARGET: Duration = Duration::from_millis(1);
/// The largest stride: a reading at least every 2^16 units of work.
const MAX_STRIDE: u64 = 1 << 16;

/// When the run must stop, and when to look at the time next.
#[derive(Clone, Copy, Debug)]
pub(super) struct Clock {
    /// `None` without a time limit: the clock is never read.
    deadline: Option<Instant>,
    /// The work count at which to read the time next.
    next: u64,
    stride: u64,
    last: Instant,
    expired: bool,
}

impl Clock {
    /// A clock for a run started at `now`, with an optional time limit.
    pub(super) fn start(now: Instant, limit: Option<Duration>) -> Clock {
        Clock { deadline: limit.map(|limit| now + limit), next: 0, stride: 1, last: now, expired: false }
    }

    /// After `work` units of work (nodes and propagator calls so far):
    /// whether the time is up.
    #[inline]
    pub(super) fn tick(&mut self, work: u64) -> bool {
        if self.deadline.is_none() || work < self.next {
            return self.expired;
        }
        self.read(work)
    }

    /// Whether an earlier tick found the time up.
    #[inline]
    pub(super) fn expired(&self) -> bool {
        self.expired
    }

    #[cold]
    fn read(&mut self, work: u64) -> bool {
        let now = Instant::now();
        if self.deadline.is_some_and(|deadline| now >= deadline) {
            self.expired = true;
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
        let mut clock = Clock::start(Instant::now(), None);
        assert!((0..1000).all(|work| !clock.tick(work)));
    }

    #[test]
    fn an_elapsed_limit_is_seen_at_the_next_reading() {
        let start = Instant::now() - Duration::from_secs(1);
        let mut clock = Clock::start(start, Some(Duration::from_millis(10)));
        assert!(clock.tick(0));
        assert!(clock.expired());
    }

    #[test]
    fn cheap_work_reads_the_time_less_and_less_often() {
        let mut clock = Clock::start(Instant::now(), Some(Duration::from_secs(3600)));
        for work in 0..10_000 {
            clock.tick(work);
        }
        // Readings microseconds apart: the stride has grown.
        assert!(clock.stride > 64, "stride {}", clock.stride);
    }
}
