//! Search behaviour: limits, determinism, outcomes, the observer, statistics.

use std::time::Duration;

use csp::{
    AllDifferentStrength, Branching, Limit, Limits, Model, Outcome, Propagation, Restarts, SearchEvent, SolveConfig,
    Solver, Status, ValueOrder, VarOrder,
};

#[path = "support/queens.rs"]
mod support;

use support::queens;

#[test]
fn the_same_configuration_gives_the_same_solutions_and_statistics() {
    let model = queens(8);
    for &propagation in Propagation::ALL {
        for &var_order in VarOrder::ALL {
            for &value_order in ValueOrder::ALL {
                let config = SolveConfig::default()
                    .with_propagation(propagation)
                    .with_var_order(var_order)
                    .with_value_order(value_order)
                    .with_seed(42);
                let run = || {
                    let mut solver = Solver::new(&model, config.clone()).unwrap();
                    let solutions: Vec<Vec<i64>> = solver.solutions().map(|s| s.into_values()).collect();
                    (solutions, solver.stats().without_time())
                };
                let (first, stats) = run();
                assert_eq!(first.len(), 92);
                assert_eq!(run(), (first.clone(), stats.clone()), "{config:?}");
                // The same solver gives the same again on a second run.
                let mut solver = Solver::new(&model, config.clone()).unwrap();
                let _ = solver.count(None);
                let again: Vec<Vec<i64>> = solver.solutions().map(|s| s.into_values()).collect();
                assert_eq!(again, first);
                assert_eq!(solver.stats().without_time(), stats);
            }
        }
    }
}

#[test]
fn different_seeds_give_different_orders() {
    let model = queens(8);
    let order = |seed| {
        let config = SolveConfig::default().with_value_order(ValueOrder::Random).with_seed(seed);
        let mut solver = Solver::new(&model, config).unwrap();
        solver.solutions().map(|s| s.into_values()).collect::<Vec<_>>()
    };
    assert_ne!(order(1), order(2));
    let mut a = order(1);
    let mut b = order(2);
    a.sort();
    b.sort();
    assert_eq!(a, b, "the same solutions in another order");
}

#[test]
fn node_limit_stops_the_search() {
    let model = queens(10);
    let config = SolveConfig::default().with_limits(Limits::none().with_nodes(25));
    let mut solver = Solver::new(&model, config).unwrap();
    let count = solver.count(None);
    assert_eq!(count.status, Status::LimitReached(Limit::Nodes));
    assert_eq!(solver.stats().nodes, 25);
    assert!(count.solutions < 724);
}

#[test]
fn solution_limit_stops_after_k() {
    let model = queens(8);
    let config = SolveConfig::default().with_limits(Limits::none().with_solutions(5));
    let mut solver = Solver::new(&model, config).unwrap();
    assert_eq!(solver.solutions().count(), 5);
    assert_eq!(solver.status(), Status::LimitReached(Limit::Solutions));
    // A count limit stops earlier still, and "unique?" is a count with k = 2.
    let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
    let count = solver.count(Some(2));
    assert_eq!(count.solutions, 2);
    assert!(!count.is_unique());
    assert_eq!(count.status, Status::LimitReached(Limit::Solutions));
}

#[test]
fn time_limit_stops_a_long_search() {
    let model = queens(30);
    let config = SolveConfig::default()
        .with_propagation(Propagation::None)
        .with_var_order(VarOrder::Input)
        .with_limits(Limits::none().with_time(Duration::from_millis(50)));
    let mut solver = Solver::new(&model, config).unwrap();
    let count = solver.count(None);
    assert_eq!(count.status, Status::LimitReached(Limit::Time));
    assert!(solver.stats().elapsed < Duration::from_secs(5));
}

#[test]
fn unsatisfiable_is_an_outcome() {
    for n in [2, 3] {
        let model = queens(n);
        for &propagation in Propagation::ALL {
            let mut solver = Solver::new(&model, SolveConfig::default().with_propagation(propagation)).unwrap();
            assert_eq!(solver.solve(), Outcome::Unsatisfiable);
            assert!(solver.count(None).is_complete());
        }
    }
    // Failing at the root: no node at all.
    let mut model = Model::new();
    let x = model.new_var(1..=2).unwrap();
    let y = model.new_var(1..=2).unwrap();
    let z = model.new_var(1..=2).unwrap();
    model.all_different(&[x, y, z]).unwrap();
    let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
    assert_eq!(solver.solve(), Outcome::Unsatisfiable);
    assert_eq!(solver.stats().nodes, 0);
}

#[test]
fn statistics_describe_the_run() {
    let model = queens(8);
    let mut solver =
        Solver::new(&model, SolveConfig::default().with_all_different(AllDifferentStrength::Pairwise)).unwrap();
    assert_eq!(solver.count(None).solutions, 92);
    let stats = solver.stats();
    assert_eq!(stats.solutions, 92);
    assert!(stats.nodes >= 92);
    assert!(stats.failures > 0 && stats.failures <= stats.nodes);
    assert!(stats.backtracks > 0 && stats.propagations > 0 && stats.pruned > 0 && stats.checks > 0);
    assert!(stats.max_depth >= 1 && stats.max_depth <= 8);
}

#[test]
fn the_observer_sees_decisions_removals_backtracks_and_solutions() {
    let model = queens(6);
    let mut events = Vec::new();
    let mut record = |event: &SearchEvent| events.push(*event);
    let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
    solver.observe(&mut record);
    let count = solver.count(None).solutions;
    let stats = solver.stats().clone();
    drop(solver);
    let decisions = events.iter().filter(|e| matches!(e, SearchEvent::Decision { .. })).count() as u64;
    let backtracks = events.iter().filter(|e| matches!(e, SearchEvent::Backtrack { .. })).count() as u64;
    let wipeouts = events.iter().filter(|e| matches!(e, SearchEvent::WipeOut { .. })).count() as u64;
    let removals = events.iter().filter(|e| matches!(e, SearchEvent::Removed { .. })).count() as u64;
    let solutions = events.iter().filter(|e| matches!(e, SearchEvent::Solution { .. })).count() as u64;
    assert_eq!(
        (decisions, backtracks, wipeouts, removals, solutions),
        (stats.nodes, stats.backtracks, stats.failures, stats.pruned, count)
    );
    // Every removal names the constraint that made it.
    assert!(events.iter().all(|e| !matches!(e, SearchEvent::Removed { constraint: None, .. })));
    // Observing does not change the search.
    let mut plain = Solver::new(&model, SolveConfig::default()).unwrap();
    assert_eq!(plain.count(None).solutions, count);
    assert_eq!(plain.stats().without_time(), stats.without_time());
}

#[test]
fn binary_branching_reports_each_refutation_as_a_removal_by_no_constraint() {
    let model = queens(6);
    let mut events = Vec::new();
    let mut record = |event: &SearchEvent| events.push(*event);
    let config = SolveConfig::default().with_branching(Branching::Binary);
    let mut solver = Solver::new(&model, config.clone()).unwrap();
    solver.observe(&mut record);
    let count = solver.count(None).solutions;
    let stats = solver.stats().clone();
    drop(solver);
    assert_eq!(count, 4);
    let decisions = events.iter().filter(|e| matches!(e, SearchEvent::Decision { .. })).count() as u64;
    let backtracks = events.iter().filter(|e| matches!(e, SearchEvent::Backtrack { .. })).count() as u64;
    let by_constraints =
        events.iter().filter(|e| matches!(e, SearchEvent::Removed { constraint: Some(_), .. })).count();
    let refutations = events.iter().filter(|e| matches!(e, SearchEvent::Removed { constraint: None, .. })).count();
    assert_eq!((decisions, backtracks, by_constraints as u64), (stats.nodes, stats.backtracks, stats.pruned));
    // Every decision is undone once the search is complete, and refuted.
    assert_eq!((stats.backtracks, refutations as u64), (stats.nodes, stats.nodes));
    // Each refutation follows the backtrack of the same variable and value.
    for (i, event) in events.iter().enumerate() {
        if let SearchEvent::Removed { var, constraint: None, .. } = event {
            assert!(matches!(events[i - 1], SearchEvent::Backtrack { var: undone, .. } if undone == *var));
        }
    }
    let mut plain = Solver::new(&model, config).unwrap();
    assert_eq!(plain.count(None).solutions, count);
    assert_eq!(plain.stats().without_time(), stats.without_time());
}

#[test]
fn binary_branching_finds_the_solutions_of_enumeration_in_the_same_order() {
    // With a static variable order, x = v then x != v visits the values of x
    // in the same order as enumerating them.
    let model = queens(8);
    for &value_order in ValueOrder::ALL {
        let config = SolveConfig::default().with_var_order(VarOrder::Input).with_value_order(value_order);
        let binary = config.clone().with_branching(Branching::Binary);
        let all = |config: SolveConfig| {
            let mut solver = Solver::new(&model, config).unwrap();
            solver.solutions().map(|s| s.into_values()).collect::<Vec<_>>()
        };
        let expected = all(config);
        assert_eq!(expected.len(), 92);
        // Random, phase-saving and most-active orders depend on the path taken.
        if !matches!(value_order, ValueOrder::Random | ValueOrder::Phase | ValueOrder::Active) {
            assert_eq!(all(binary), expected, "{value_order}");
        } else {
            let (mut a, mut b) = (all(binary), expected);
            a.sort();
            b.sort();
            assert_eq!(a, b);
        }
    }
}

#[test]
fn restarts_keep_the_search_complete_and_stop_at_the_first_solution() {
    let model = queens(10);
    for branching in [Branching::Enumerate, Branching::Binary] {
        for var_order in [VarOrder::DomWdeg, VarOrder::Mrv, VarOrder::Alternate] {
            let config = SolveConfig::default()
                .with_branching(branching)
                .with_var_order(var_order)
                .with_value_order(ValueOrder::Random)
                .with_restarts(Restarts::Luby { scale: 1 })
                .with_seed(5);
            let mut events = Vec::new();
            let mut record = |event: &SearchEvent| events.push(*event);
            let mut solver = Solver::new(&model, config.clone()).unwrap();
            solver.observe(&mut record);
            let solutions: Vec<Vec<i64>> = solver.solutions().map(|s| s.into_values()).collect();
            let stats = solver.stats().clone();
            drop(solver);
            // Every solution once: no restart after the first.
            let mut distinct = solutions.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!((solutions.len(), distinct.len()), (724, 724), "{config}");
            assert!(stats.restarts > 0, "{config}: the first solution needs more than one failure");
            let restarts: Vec<u64> = events
                .iter()
                .filter_map(|e| if let SearchEvent::Restart { count } = e { Some(*count) } else { None })
                .collect();
            assert_eq!(restarts, (1..=stats.restarts).collect::<Vec<_>>());
            let first_solution = events.iter().position(|e| matches!(e, SearchEvent::Solution { .. })).unwrap();
            assert!(events[first_solution..].iter().all(|e| !matches!(e, SearchEvent::Restart { .. })));
            // And an unsatisfiable model is proved so.
            let three = queens(3);
            let mut solver = Solver::new(&three, config.clone()).unwrap();
            assert!(matches!(solver.solve(), Outcome::Unsatisfiable));
        }
    }
}

#[test]
fn restarts_are_spelled_and_counted() {
    let config: SolveConfig = "mac+domwdeg+binary+luby=3".parse().unwrap();
    assert_eq!((config.branching(), config.restarts), (Branching::Binary, Restarts::Luby { scale: 3 }));
    assert_eq!(config.to_string(), "mac+domwdeg+matching+binary+luby=3");
    let model = queens(12);
    let mut solver = Solver::new(&model, config).unwrap();
    assert!(solver.solve().is_solved());
    assert!(solver.stats().to_string().contains(&format!("restarts {}", solver.stats().restarts)));
    // Backjumping keeps to d-way branching: binary branching with it cannot
    // be spelled (nor typed: a backjumping search has no branching to set).
    let err = "fc-cbj+mrv+binary".parse::<SolveConfig>().unwrap_err();
    assert!(err.to_string().contains("binary branching with backjumping"), "{err}");
    let binary = "fc-cbj+mrv".parse::<SolveConfig>().unwrap().with_branching(Branching::Binary);
    assert!(!binary.backjumping() && binary.branching() == Branching::Binary);
}

#[test]
fn nogoods_from_restarts_keep_a_static_ordering_from_repeating_its_tree() {
    // Seven pigeons in six holes under pairwise all-different: no Hall set
    // is seen, the search must try the assignments. A static ordering
    // repeats its tree at each restart; the nogoods from restarts stop it.
    let mut model = Model::new();
    let pigeons = model.new_vars(7, 0..=5).unwrap();
    model.all_different(&pigeons).unwrap();
    let run = |text: &str| {
        let config: SolveConfig = text.parse().unwrap();
        let mut solver = Solver::new(&model, config).unwrap();
        solver.check_nogoods(true);
        assert!(matches!(solver.solve(), Outcome::Unsatisfiable), "{text}");
        assert_eq!(solver.status(), Status::Complete, "{text}");
        solver.stats().clone()
    };
    let tree = run("mac+input+pairwise+binary");
    for policy in ["luby=1", "geometric=1:1.5"] {
        let repeated = run(&format!("mac+input+pairwise+binary+{policy}"));
        let recorded = run(&format!("mac+input+pairwise+binary+{policy}+nld"));
        assert!(repeated.nodes > tree.nodes, "{policy}: {} against {}", repeated.nodes, tree.nodes);
        assert!(recorded.learnt > 0 && recorded.restarts > 0, "{policy}: {recorded:?}");
        assert!(recorded.nodes < repeated.nodes, "{policy}: {} against {}", recorded.nodes, repeated.nodes);
        let d_way = run(&format!("mac+input+pairwise+{policy}+nld"));
        assert!(d_way.learnt > 0, "{policy}: {d_way:?}");
    }
}

#[test]
fn nogoods_from_restarts_are_spelled_and_refused_where_they_cannot_work() {
    let config: SolveConfig = "mac+domwdeg+luby+nld".parse().unwrap();
    assert!(config.restart_nogoods);
    assert_eq!(config.to_string(), "mac+domwdeg+matching+luby+nld");
    let geometric: SolveConfig = "mac+domwdeg+binary+geometric=10:2+nld".parse().unwrap();
    assert_eq!(geometric.to_string().parse::<SolveConfig>().unwrap(), geometric);
    for (text, what) in [
        ("mac+learn+luby+nld", "with learning"),
        ("mac+domwdeg+nld", "without restarts"),
        ("fc+luby+nld", "without maintained arc consistency"),
        ("mac-cbj+luby+nld", "with backjumping"),
    ] {
        let err = text.parse::<SolveConfig>().unwrap_err().to_string();
        assert!(err.contains(what) && err.contains("+nld"), "{text}: {err}");
    }
    // Built field by field, the solver refuses it the same way.
    let model = queens(4);
    let config = SolveConfig { restart_nogoods: true, ..SolveConfig::default() };
    let err = Solver::new(&model, config).unwrap_err();
    assert!(err.to_string().contains("nogoods from restarts without restarts"), "{err}");
}

#[test]
fn solutions_print_names() {
    let model = queens(4);
    let solution = model.solve().unwrap().unwrap();
    assert_eq!(solution.to_string(), "q0 = 1\nq1 = 3\nq2 = 0\nq3 = 2");
    assert_eq!(solution.get("q3"), Some(2));
    assert_eq!(solution.get("q9"), None);
}

#[test]
fn too_large_domains_are_an_error_not_a_crash() {
    // A range too wide for a bitset is an interval, and solves.
    let mut model = Model::new();
    let huge = model.new_named_var("huge", 0..=(1i64 << 40)).unwrap();
    let solution = Solver::new(&model, SolveConfig::default()).unwrap().solve().into_solution().unwrap();
    assert_eq!(solution[huge], 0);
    // Bitsets that would take more than 2 GiB together are an error.
    let mut model = Model::new();
    let limit = SolveConfig::DEFAULT_BITSET_LIMIT as i64;
    for i in 0..300_000 {
        model.new_named_var(format!("v{i}"), 1..=limit).unwrap();
    }
    let err = Solver::new(&model, SolveConfig::default()).unwrap_err();
    assert!(err.to_string().contains("variable v262144 has 65536 values"), "{err}");
}

#[test]
fn pruning_is_attributed_to_the_constraints_that_did_it() {
    let model = queens(8);
    for &value_order in ValueOrder::ALL {
        let mut solver = Solver::new(&model, SolveConfig::default().with_value_order(value_order)).unwrap();
        let _ = solver.count(None);
        let attribution = solver.attribution();
        let stats = solver.stats();
        let pruned: u64 = attribution.by_constraint.iter().map(|e| e.pruned).sum();
        let failures: u64 = attribution.by_constraint.iter().map(|e| e.failures).sum();
        assert_eq!((pruned, failures), (stats.pruned, stats.failures), "{value_order}");
        let kinds = attribution.by_kind(&model);
        assert_eq!(kinds.len(), 1);
        assert_eq!(kinds[0].0, "all_different");
        assert_eq!(kinds[0].1.pruned, stats.pruned);
        // The columns, and both diagonals, all prune.
        assert!(attribution.by_constraint.iter().all(|e| e.pruned > 0));
    }
}

/// A constraint whose propagator takes a millisecond a call and removes one
/// value of `x` each time, rescheduling itself: a root fixpoint of a thousand
/// calls, a second long, before the first node.
struct Slow([csp::VarId; 1]);

struct SlowPropagator(csp::VarId);

impl csp::Constraint for Slow {
    fn scope(&self) -> &[csp::VarId] {
        &self.0
    }
    fn is_satisfied(&self, _: &[i64]) -> bool {
        true
    }
    fn propagator(&self, _: &csp::PropagatorOptions) -> Option<Box<dyn csp::Propagator + '_>> {
        Some(Box::new(SlowPropagator(self.0[0])))
    }
}

impl csp::Propagator for SlowPropagator {
    fn propagate(&mut self, ctx: &mut csp::Context<'_>) -> csp::PropagationResult {
        std::thread::sleep(Duration::from_millis(1));
        if ctx.max(self.0) > 0 {
            let max = ctx.max(self.0);
            ctx.set_max(self.0, max - 1)?;
        }
        Ok(())
    }
}

#[test]
fn limits_are_built_from_none_and_the_tighter_of_two_keeps_each_smaller_limit() {
    assert_eq!(Limits::none(), Limits::default());
    let second = Duration::from_secs(1);
    let a = Limits::none().with_nodes(10).with_time(second);
    let b = Limits::none().with_nodes(5).with_solutions(2).with_cpu_time(second);
    let both = a.tighter(b);
    assert_eq!((both.nodes, both.solutions, both.time, both.cpu_time), (Some(5), Some(2), Some(second), Some(second)));
    assert_eq!(both, b.tighter(a));
    assert_eq!(a.tighter(Limits::none()), a);
}

#[test]
fn a_cpu_time_limit_of_zero_stops_every_search_before_a_decision() {
    // The thread's CPU clock: no timing is asserted, only where it stops.
    let model = queens(30);
    let limits = Limits::none().with_cpu_time(Duration::ZERO);
    for spelling in ["mac+mrv", "fc+input", "bt+input", "mac+mrv+binary", "fc-cbj+mrv", "mac+learn"] {
        let config = spelling.parse::<SolveConfig>().unwrap().with_limits(limits);
        let mut solver = Solver::new(&model, config.clone()).unwrap();
        assert_eq!(solver.solve(), Outcome::LimitReached(Limit::CpuTime), "{spelling}");
        assert_eq!(solver.stats().nodes, 0, "{spelling}");
        let mut solver = Solver::new(&model, config).unwrap();
        assert_eq!(solver.count(None).status, Status::LimitReached(Limit::CpuTime), "{spelling}");
    }
    assert_eq!(Limit::CpuTime.to_string(), "CPU time limit");
    // A limit that is not reached changes nothing: the same count and tree.
    let eight = queens(8);
    let plain = Solver::new(&eight, SolveConfig::default()).unwrap().count(None);
    let limits = Limits::none().with_cpu_time(Duration::from_secs(3600));
    let mut solver = Solver::new(&eight, SolveConfig::default().with_limits(limits)).unwrap();
    let limited = solver.count(None);
    assert_eq!((limited.solutions, limited.status), (92, Status::Complete));
    assert_eq!(limited.solutions, plain.solutions);
}

#[test]
fn a_time_limit_stops_a_long_root_propagation() {
    let mut model = Model::new();
    let x = model.new_var(0..=1000).unwrap();
    model.post(Slow([x])).unwrap();
    let limit = Duration::from_millis(50);
    let config = SolveConfig::default().with_limits(Limits::none().with_time(limit));
    let mut solver = Solver::new(&model, config).unwrap();
    let started = std::time::Instant::now();
    assert_eq!(solver.solve(), Outcome::LimitReached(Limit::Time));
    let elapsed = started.elapsed();
    // Stopped inside the root fixpoint: no node, and far fewer calls than
    // the thousand it needs (about 50 in 50 ms).
    assert_eq!(solver.stats().nodes, 0);
    assert!(solver.stats().propagations < 500, "{}", solver.stats());
    // A sanity bound on the wall clock, generous for a busy machine.
    assert!(elapsed < 2 * limit + Duration::from_millis(200), "{elapsed:?}");
    // The same under every level: forward checking and plain backtracking
    // propagate at the root only with root arc consistency.
    for &propagation in Propagation::ALL {
        let mut config =
            SolveConfig::default().with_propagation(propagation).with_limits(Limits::none().with_time(limit));
        config.root_arc_consistency = true;
        let mut solver = Solver::new(&model, config).unwrap();
        assert_eq!(solver.count(None).status, Status::LimitReached(Limit::Time), "{propagation}");
        assert!(solver.stats().propagations < 500, "{propagation}: {}", solver.stats());
    }
}

#[test]
fn a_time_limit_stops_a_search_of_slow_nodes() {
    // Each decision wakes the slow propagator once: a millisecond a node,
    // through a tree of 2^20 leaves.
    let mut model = Model::new();
    let xs = model.new_vars(20, 0..=1).unwrap();
    model.post(SlowOn(xs)).unwrap();
    let limit = Duration::from_millis(80);
    let config = SolveConfig::default().with_limits(Limits::none().with_time(limit));
    let mut solver = Solver::new(&model, config).unwrap();
    let started = std::time::Instant::now();
    let count = solver.count(None);
    assert_eq!(count.status, Status::LimitReached(Limit::Time));
    assert!(started.elapsed() < 2 * limit + Duration::from_millis(200), "{:?}", started.elapsed());
    assert!(solver.stats().nodes < 500, "{}", solver.stats());
}

/// A propagator that takes a millisecond a call and prunes nothing.
struct SlowOn(Vec<csp::VarId>);

struct Sleeper;

impl csp::Constraint for SlowOn {
    fn scope(&self) -> &[csp::VarId] {
        &self.0
    }
    fn is_satisfied(&self, _: &[i64]) -> bool {
        true
    }
    fn propagator(&self, _: &csp::PropagatorOptions) -> Option<Box<dyn csp::Propagator + '_>> {
        Some(Box::new(Sleeper))
    }
}

impl csp::Propagator for Sleeper {
    fn propagate(&mut self, _: &mut csp::Context<'_>) -> csp::PropagationResult {
        std::thread::sleep(Duration::from_millis(1));
        Ok(())
    }
}

/// The first decision of solving `model` under `config`, as (variable index, value).
fn first_decision(model: &Model, config: SolveConfig) -> Option<(usize, i64)> {
    let mut first = None;
    let mut record = |event: &SearchEvent| {
        if let (None, SearchEvent::Decision { var, value, .. }) = (first, *event) {
            first = Some((var.index(), value));
        }
    };
    let mut solver = Solver::new(model, config).unwrap();
    solver.observe(&mut record);
    assert!(solver.solve().into_solution().is_some());
    drop(solver);
    first
}

#[test]
fn counting_based_search_decides_the_densest_pair() {
    // x0 in 0..=2, x1 + 2 in 2..=3, x2 in 0..=3, all different. Estimated
    // densities (Bregman-Minc): x1 = 1 (the value 3, held by x2 alone
    // besides) about 0.56, above x1 = 0, x0's best 0.37 and x2's 0.28; so
    // maxSD and maxRelSD decide x1 = 1 first, where ascending values try 0.
    let mut model = Model::new();
    let x0 = model.new_var(0..=2).unwrap();
    let x1 = model.new_var(0..=1).unwrap();
    let x2 = model.new_var(0..=3).unwrap();
    model.all_different_offset(&[x0, x1, x2], &[0, 2, 0]).unwrap();
    for var_order in [VarOrder::MaxSd, VarOrder::MaxRelSd] {
        for branching in [Branching::Enumerate, Branching::Binary] {
            let config = SolveConfig::default().with_var_order(var_order).with_branching(branching);
            assert_eq!(first_decision(&model, config), Some((1, 1)), "{var_order:?} {branching:?}");
        }
    }
    let config = SolveConfig::default().with_var_order(VarOrder::DomWdeg);
    assert_eq!(first_decision(&model, config), Some((1, 0)));
}

#[test]
fn counting_based_search_breaks_ties_at_random_with_random_values_a_new_way_each_run() {
    // Seven pigeons, six holes, pairwise (no matching to see it at the
    // root): every pair x = v has the same density at the root. The first
    // decision of each restart run (Luby every failure or few, 150 nodes:
    // no run exhausts its first decision's subtree, so every decision at
    // depth 1 starts a run).
    let mut model = Model::new();
    let x = model.new_vars(7, 0..=5).unwrap();
    model.all_different(&x).unwrap();
    let root_decisions = |spelling: &str| {
        let mut roots = Vec::new();
        let mut record = |event: &SearchEvent| {
            if let SearchEvent::Decision { var, value, depth: 1 } = *event {
                roots.push((var.index(), value));
            }
        };
        let config = spelling.parse::<SolveConfig>().unwrap().with_limits(Limits::none().with_nodes(150));
        let mut solver = Solver::new(&model, config).unwrap();
        solver.observe(&mut record);
        assert_eq!(solver.solve(), Outcome::LimitReached(Limit::Nodes), "{spelling}");
        drop(solver);
        roots
    };
    // Ascending values: the first variable's smallest value, every run.
    let roots = root_decisions("mac+maxsd+pairwise+luby=1");
    assert!(roots.len() > 10 && roots.iter().all(|&d| d == (0, 0)), "{roots:?}");
    // Random values: the runs of one seed disagree, and so do seeds.
    let roots = root_decisions("mac+maxsd+random+pairwise+luby=1+seed=1");
    let distinct: std::collections::BTreeSet<_> = roots.iter().collect();
    assert!(roots.len() > 10 && distinct.len() > 5, "{roots:?}");
    let firsts: std::collections::BTreeSet<_> =
        (1..=8).map(|seed| root_decisions(&format!("mac+maxsd+random+pairwise+luby=1+seed={seed}"))[0]).collect();
    assert!(firsts.len() > 3, "{firsts:?}");
}

/// A cycle of five not-equals over three colours (30 solutions), without
/// an all-different.
fn five_cycle() -> Model {
    let mut model = Model::new();
    let x = model.new_vars(5, 0..=2).unwrap();
    for i in 0..5 {
        model.not_equal(x[i], x[(i + 1) % 5]).unwrap();
    }
    model
}

#[test]
fn counting_based_search_without_an_all_different_is_dom_wdeg() {
    // No density to read.
    let model = five_cycle();
    let run = |var_order| {
        let mut solver = Solver::new(&model, SolveConfig::default().with_var_order(var_order)).unwrap();
        let solutions: Vec<Vec<i64>> = solver.solutions().map(|s| s.into_values()).collect();
        (solutions, solver.stats().without_time())
    };
    assert_eq!(run(VarOrder::MaxSd), run(VarOrder::DomWdeg));
    assert_eq!(run(VarOrder::MaxSd).0.len(), 30);
}

/// The orderings that branch on the places of a value.
const PLACES: [VarOrder; 3] = [VarOrder::Places, VarOrder::WeightedPlaces, VarOrder::AlternatePlaces];

/// A search's first decision, as (variable index, value).
type Decision = Option<(usize, i64)>;

/// The first decision of `model` under each ordering of [`PLACES`], with
/// either branching and with learning.
fn first_decisions_of_places(model: &Model) -> Vec<(VarOrder, &'static str, Decision)> {
    let mut decisions = Vec::new();
    for var_order in PLACES {
        let chronological = SolveConfig::default().with_var_order(var_order);
        let configs = [
            ("d-way", chronological.clone()),
            ("binary", chronological.clone().with_branching(Branching::Binary)),
            ("learning", chronological.with_search(csp::Search::Learning).with_restarts(Restarts::Luby { scale: 1 })),
        ];
        for (name, config) in configs {
            decisions.push((var_order, name, first_decision(model, config)));
        }
    }
    decisions
}

#[test]
fn places_decide_the_smallest_place_set_when_it_beats_every_domain() {
    // y0..y2 over 0..=2 and x0..x4 with x0, x1 over 0..=4 and x2..x4 over
    // 0..=3, each group all different. Every domain holds three values or
    // more, every value of the y's has three places, those of 0..=3 in the
    // x's five; the value 4 must be taken (five values for five variables)
    // and has two places, x0 and x1: the first decision is x0 = 4, where
    // MRV decides y0 = 0.
    let mut model = Model::new();
    let y = model.new_vars(3, 0..=2).unwrap();
    let x01 = model.new_vars(2, 0..=4).unwrap();
    let x234 = model.new_vars(3, 0..=3).unwrap();
    model.all_different(&y).unwrap();
    let x: Vec<_> = x01.iter().chain(&x234).copied().collect();
    model.all_different(&x).unwrap();
    for (var_order, branching, decision) in first_decisions_of_places(&model) {
        assert_eq!(decision, Some((3, 4)), "{var_order:?} {branching}");
    }
    let config = SolveConfig::default().with_var_order(VarOrder::Mrv);
    assert_eq!(first_decision(&model, config), Some((0, 0)));
}

#[test]
fn places_take_no_value_of_an_all_different_with_values_to_spare() {
    // x0, x1 over 0..=2 and x2 over 0..=3, all different: the value 3 has
    // one place, x2, but three variables need not take it among four
    // values, so no place set is a column and the choice is MRV's, x0 = 0.
    // With a fourth variable over 0..=3 the four must take every value:
    // 3 has two places, fewer than every domain, and x2 = 3 comes first.
    let mut model = Model::new();
    let x01 = model.new_vars(2, 0..=2).unwrap();
    let x2 = model.new_var(0..=3).unwrap();
    model.all_different(&[x01[0], x01[1], x2]).unwrap();
    for (var_order, branching, decision) in first_decisions_of_places(&model) {
        assert_eq!(decision, Some((0, 0)), "{var_order:?} {branching}");
    }
    let mut model = Model::new();
    let x01 = model.new_vars(2, 0..=2).unwrap();
    let x23 = model.new_vars(2, 0..=3).unwrap();
    model.all_different(&[x01[0], x01[1], x23[0], x23[1]]).unwrap();
    for (var_order, branching, decision) in first_decisions_of_places(&model) {
        assert_eq!(decision, Some((2, 3)), "{var_order:?} {branching}");
    }
}

#[test]
fn places_without_an_all_different_are_mrv_or_dom_wdeg() {
    // No place to count.
    let model = five_cycle();
    let run = |var_order, restarts| {
        let config = SolveConfig::default().with_var_order(var_order).with_restarts(restarts);
        let mut solver = Solver::new(&model, config).unwrap();
        let solutions: Vec<Vec<i64>> = solver.solutions().map(|s| s.into_values()).collect();
        (solutions, solver.stats().without_time())
    };
    let luby = Restarts::Luby { scale: 1 };
    assert_eq!(run(VarOrder::Places, Restarts::Never), run(VarOrder::Mrv, Restarts::Never));
    assert_eq!(run(VarOrder::WeightedPlaces, luby), run(VarOrder::DomWdeg, luby));
    assert_eq!(run(VarOrder::AlternatePlaces, luby), run(VarOrder::Alternate, luby));
    assert_eq!(run(VarOrder::Places, Restarts::Never).0.len(), 30);
}

/// A chain `x[i] < x[i+1]` over `0..=n` (the huge models' `chain`): first in
/// first out moves each upper bound one step per pass over the queue, n^2/2
/// calls at the root; the queue turns to sweeps once a fixpoint is slow, and
/// the calls stay linear. Over bitsets and over intervals (bitset limit 0),
/// learning on and off; the solution is the chain's.
#[test]
fn a_chain_of_comparisons_propagates_in_linearly_many_calls() {
    let n = 3000;
    let mut model = Model::new();
    let xs: Vec<_> = (0..n).map(|_| model.new_var(0..=n as i64).unwrap()).collect();
    for pair in xs.windows(2) {
        model.less_than(pair[0], pair[1]).unwrap();
    }
    for spelling in ["mac", "mac+domwdeg", "mac+learn"] {
        for limit in [SolveConfig::DEFAULT_BITSET_LIMIT, 0] {
            let config: SolveConfig = spelling.parse().unwrap();
            let limits = Limits::none().with_time(Duration::from_secs(60));
            let mut solver = Solver::new(&model, config.with_bitset_limit(limit).with_limits(limits)).unwrap();
            let solution = solver.solutions().next().expect("a chain has solutions");
            assert!(xs.windows(2).all(|p| solution[p[0]] < solution[p[1]]), "{spelling}, limit {limit}");
            let stats = solver.stats();
            assert!(stats.propagations <= 40 * n as u64, "{spelling}, limit {limit}: {stats}");
        }
    }
}
