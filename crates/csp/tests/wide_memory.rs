//! A matching all-different over 0..=10^7 took 25 s and 1.1 GB (issue #13):
//! over domains that wide the variables are intervals and the all-different
//! is bounds consistent, whatever strength is asked for. Its own test binary,
//! so that the allocator's count is this test's alone.

use std::alloc::System;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use csp::{
    AllDifferentStrength, Constraint, Context, Model, PropagationResult, Propagator, PropagatorOptions, Relation,
    SolveConfig, Solver, VarId,
};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};

#[global_allocator]
static ALLOCATOR: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Records whether the variable's domain is an interval when it propagates.
struct Probe {
    scope: [VarId; 1],
    interval: Arc<AtomicBool>,
}

impl Constraint for Probe {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }
    fn is_satisfied(&self, _: &[i64]) -> bool {
        true
    }
    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(ProbePropagator { var: self.scope[0], interval: Arc::clone(&self.interval) }))
    }
}

struct ProbePropagator {
    var: VarId,
    interval: Arc<AtomicBool>,
}

impl Propagator for ProbePropagator {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        self.interval.store(ctx.is_interval(self.var), Ordering::Relaxed);
        Ok(())
    }
}

#[test]
fn all_different_over_ten_million_values_is_bounds_consistent_and_small() {
    let mut model = Model::new();
    let xs = model.new_vars(10, 0..=10_000_000).unwrap();
    model.all_different(&xs).unwrap();
    // The sum forces the ten smallest values; bounds reasoning finds them.
    model.linear(&xs.iter().map(|&x| (1, x)).collect::<Vec<_>>(), Relation::Le, 45).unwrap();
    let interval = Arc::new(AtomicBool::new(false));
    model.post(Probe { scope: [xs[0]], interval: Arc::clone(&interval) }).unwrap();
    for &strength in AllDifferentStrength::ALL {
        let region = Region::new(ALLOCATOR);
        let mut solver = Solver::new(&model, SolveConfig::default().with_all_different(strength)).unwrap();
        let solution = solver.solve().into_solution().unwrap();
        let mut values = solution.values()[..10].to_vec();
        values.sort_unstable();
        assert_eq!(values, (0..10).collect::<Vec<_>>());
        assert!(solver.stats().nodes < 1000, "{strength}: {}", solver.stats());
        drop(solver);
        // Every byte allocated while solving, freed or not: a bitset of 10^7
        // values is 1.25 MB per variable, a matching over them hundreds of MB.
        let allocated = region.change().bytes_allocated;
        assert!(allocated < 1 << 20, "{strength}: {allocated} bytes allocated");
        assert!(interval.load(Ordering::Relaxed), "the domains are intervals");
    }
}
