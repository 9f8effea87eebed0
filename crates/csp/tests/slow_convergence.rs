//! Slow convergence (issue #18): two propagators that push each other's
//! bounds by one, `x >= y + 1` and `y >= x + 1` over wide intervals, take
//! as many calls as the width to empty a domain. The time limit stops them;
//! the memory they use must not grow with the calls (the trail grew by
//! about 1 GB a second, and without a time limit it ran out). Under `mac`
//! the search now cuts such a cycle by summing it (`tests/cycles.rs`), so
//! those runs end at once; forward checking, which has no fixpoint to
//! trace, still runs until the limit, and so would a cycle through a
//! constraint that is no linear inequality. Its own test
//! binary, so that the allocator's count is this test's alone; asserted on
//! the bytes allocated, never on time (the limit only ends the run).

use std::alloc::System;
use std::time::Duration;

use csp::{Limits, Model, Relation, SolveConfig, Solver};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};

#[global_allocator]
static ALLOCATOR: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

#[test]
fn a_cycle_of_two_pushes_over_a_wide_range_stays_small() {
    // `y >= x + 1` unless `b`: the cycle starts below the root, where the
    // search decides `b = 0` (the smallest domain, its smallest value).
    // Once as linear constraints over 2^40 values, once at the root as
    // binary ones over the whole value range.
    let mut below = Model::new();
    let b = below.new_var(0..=1).unwrap();
    let [x, y] = [(); 2].map(|()| below.new_var(0..=1 << 40).unwrap());
    below.linear(&[(1, x), (-1, y)], Relation::Ge, 1).unwrap();
    below.linear(&[(1, y), (-1, x), (1 << 41, b)], Relation::Ge, 1).unwrap();
    let mut root = Model::new();
    let [x, y] = [(); 2].map(|()| root.new_var(-csp::MAX_VALUE..=csp::MAX_VALUE).unwrap());
    root.less_than(x, y).unwrap();
    root.less_than(y, x).unwrap();
    let limits = Limits::none().with_time(Duration::from_millis(300));
    for (model, name) in [(&below, "below the root"), (&root, "at the root")] {
        for spelling in ["mac", "fc", "mac+domwdeg+binary", "mac+learn", "mac+learn+lvsids+active"] {
            let config: SolveConfig = spelling.parse().unwrap();
            let region = Region::new(ALLOCATOR);
            let mut solver = Solver::new(model, config.with_limits(limits)).unwrap();
            let solution = solver.solve().into_solution();
            assert!(solution.is_none_or(|s| model.is_solution(s.values())), "{spelling} {name}");
            drop(solver);
            // Millions of bound changes in 300 ms, each trailed (and, when
            // learning, recorded), were 400-840 MB. Now a few kB without
            // learning (an interval is trailed once per level), and with it
            // the history's first 16,384 entries of each variable at the
            // level (then its changes are folded into one entry): 13 MB, and
            // no more however long it runs. A vector's growth counts as
            // reallocated.
            let change = region.change();
            let allocated = change.bytes_allocated + change.bytes_reallocated.max(0) as usize;
            let most = if spelling.contains("learn") { 32 << 20 } else { 1 << 20 };
            assert!(allocated < most, "{spelling} {name}: {allocated} bytes allocated");
        }
    }
}
