//! Branch and bound: outcomes, improving solutions, limits, restarts, and
//! what the satisfaction entry points do with an objective. (Random models
//! against the brute-force optimum are in `properties.rs`.)

use std::time::Duration;

use csp::{
    Backjumping, Branching, Limit, Limits, LinearExpr, Model, ModelError, OptimizationOutcome, Propagation, Relation,
    Restarts, Search, SearchEvent, SearchPhase, SolveConfig, Solver, Status, ValueOrder, VarId, VarOrder,
};

/// A 0/1 knapsack: the items' weights and values, and the capacity.
fn knapsack(weights: &[i64], values: &[i64], capacity: i64) -> (Model, Vec<VarId>, VarId) {
    let mut model = Model::new();
    let take = model.new_vars(weights.len(), 0..=1).unwrap();
    let load: Vec<(i64, VarId)> = weights.iter().copied().zip(take.iter().copied()).collect();
    model.linear(&load, Relation::Le, capacity).unwrap();
    let total = model.maximize(values.iter().zip(&take).map(|(&v, &x)| v * x).sum::<LinearExpr>()).unwrap();
    (model, take, total)
}

/// The best value of a knapsack, by trying every subset.
fn knapsack_brute_force(weights: &[i64], values: &[i64], capacity: i64) -> i64 {
    (0u32..1 << weights.len())
        .filter(|set| (0..weights.len()).filter(|&i| set >> i & 1 == 1).map(|i| weights[i]).sum::<i64>() <= capacity)
        .map(|set| (0..weights.len()).filter(|&i| set >> i & 1 == 1).map(|i| values[i]).sum())
        .max()
        .unwrap_or(0)
}

const WEIGHTS: [i64; 10] = [23, 31, 29, 44, 53, 38, 63, 85, 89, 82];
const VALUES: [i64; 10] = [92, 57, 49, 68, 60, 43, 67, 84, 87, 72];

#[test]
fn a_knapsack_is_solved_to_optimality_under_every_configuration() {
    // P01 of Burkardt's knapsack set: optimum 309 (items 1, 2, 3, 4 and 6).
    let (model, take, total) = knapsack(&WEIGHTS, &VALUES, 165);
    assert_eq!(knapsack_brute_force(&WEIGHTS, &VALUES, 165), 309);
    for &propagation in Propagation::ALL {
        for branching in [Branching::Enumerate, Branching::Binary] {
            for var_order in [VarOrder::Input, VarOrder::Mrv, VarOrder::DomWdeg] {
                for restarts in [Restarts::Never, Restarts::Luby { scale: 1 }] {
                    let config = SolveConfig::default()
                        .with_search(Search::Chronological { propagation, branching })
                        .with_var_order(var_order)
                        .with_value_order(ValueOrder::Random)
                        .with_restarts(restarts);
                    let mut solver = Solver::new(&model, config.clone()).unwrap();
                    let OptimizationOutcome::Optimal { solution, objective } = solver.optimize() else {
                        panic!("{config}: not optimal");
                    };
                    assert_eq!((objective, solution[total]), (309, 309), "{config}");
                    let chosen: Vec<i64> = take.iter().map(|&x| solution[x]).collect();
                    assert_eq!(chosen, [1, 1, 1, 1, 0, 1, 0, 0, 0, 0], "{config}");
                }
            }
        }
        for backjumping in Backjumping::ALL.iter().filter(|b| b.propagation() == propagation) {
            let search = Search::Backjumping(*backjumping);
            let outcome = Solver::new(&model, SolveConfig::default().with_search(search)).unwrap().optimize();
            assert_eq!(outcome.objective(), Some(309), "{search:?}");
            assert!(outcome.is_optimal());
        }
    }
}

#[test]
fn improvements_get_better_and_are_counted_and_observed() {
    let (model, _, total) = knapsack(&WEIGHTS, &VALUES, 165);
    let mut events = Vec::new();
    let mut observe = |event: &SearchEvent| {
        if let SearchEvent::Improvement { objective, count } = *event {
            events.push((objective, count));
        }
    };
    let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
    solver.observe(&mut observe);
    // Owned copies: a solution borrows what the solver borrows, the observer too.
    let improvements: Vec<(i64, i64, Duration)> =
        solver.improvements().map(|i| (i.objective, i.solution[total], i.elapsed)).collect();
    assert_eq!(solver.status(), Status::Complete);
    let solutions = solver.stats().solutions;
    drop(solver);
    assert!(improvements.len() > 1, "the first solution is not the best one here");
    assert_eq!(solutions, improvements.len() as u64);
    for pair in improvements.windows(2) {
        assert!(pair[1].0 > pair[0].0);
        assert!(pair[1].2 >= pair[0].2);
    }
    for &(objective, total, _) in &improvements {
        assert_eq!(total, objective);
    }
    let expected: Vec<(i64, u64)> = improvements.iter().zip(1..).map(|(i, count)| (i.0, count)).collect();
    assert_eq!(events, expected);
    assert_eq!(improvements.last().unwrap().0, 309);
}

#[test]
fn a_limit_names_the_best_found_or_nothing() {
    let (model, _, _) = knapsack(&WEIGHTS, &VALUES, 165);
    let config = |nodes| SolveConfig::default().with_limits(Limits::none().with_nodes(nodes));
    // Enough nodes for a first solution, not for the proof.
    match Solver::new(&model, config(12)).unwrap().optimize() {
        OptimizationOutcome::BestFound { objective, limit, solution } => {
            assert_eq!(limit, Limit::Nodes);
            assert!(objective < 309 && model.is_solution(solution.values()));
        }
        other => panic!("{other:?}"),
    }
    // Too few for any.
    assert_eq!(Solver::new(&model, config(1)).unwrap().optimize(), OptimizationOutcome::LimitReached(Limit::Nodes));
    // A solution limit stops after so many improvements.
    let two = SolveConfig::default().with_limits(Limits::none().with_solutions(2));
    let outcome = Solver::new(&model, two).unwrap().optimize();
    assert!(matches!(outcome, OptimizationOutcome::BestFound { limit: Limit::Solutions, .. }), "{outcome:?}");
}

#[test]
fn unsatisfiable_and_objective_free_models() {
    let mut model = Model::new();
    let x = model.new_var(1..=3).unwrap();
    let y = model.new_var(1..=3).unwrap();
    model.less_than(x, y).unwrap();
    model.less_than(y, x).unwrap();
    model.minimize(x).unwrap();
    assert_eq!(Solver::new(&model, SolveConfig::default()).unwrap().optimize(), OptimizationOutcome::Unsatisfiable);
    // Without an objective every solution is as good: the first is optimal.
    let mut model = Model::new();
    let x = model.new_var(1..=3).unwrap();
    let y = model.new_var(1..=3).unwrap();
    model.less_than(x, y).unwrap();
    let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
    let outcome = solver.optimize();
    assert!(outcome.is_optimal());
    assert_eq!((outcome.objective(), solver.stats().solutions), (Some(0), 1));
    assert_eq!(outcome.solution().unwrap().values(), &[1, 2]);
}

#[test]
fn satisfaction_ignores_the_objective() {
    let (mut model, _, _) = knapsack(&WEIGHTS[..6], &VALUES[..6], 100);
    let all = Solver::new(&model, SolveConfig::default()).unwrap().count(None).solutions;
    let first = Solver::new(&model, SolveConfig::default()).unwrap().solve().into_solution().unwrap().into_values();
    model.clear_objective();
    assert_eq!(Solver::new(&model, SolveConfig::default()).unwrap().count(None).solutions, all);
    let plain = Solver::new(&model, SolveConfig::default()).unwrap().solve().into_solution().unwrap().into_values();
    assert_eq!(first, plain);
    let fits = (0u32..1 << 6)
        .filter(|set| (0..6).filter(|&i| set >> i & 1 == 1).map(|i| WEIGHTS[i]).sum::<i64>() <= 100)
        .count();
    assert_eq!(all, fits as u64);
}

#[test]
fn restarts_go_on_after_solutions_and_keep_the_bound() {
    // Random values and restarts after every failure: many restarts, some
    // after improvements, and still the optimum, proved.
    let (model, _, _) = knapsack(&WEIGHTS, &VALUES, 165);
    let config = SolveConfig::default()
        .with_value_order(ValueOrder::Random)
        .with_var_order(VarOrder::DomWdeg)
        .with_restarts(Restarts::Luby { scale: 1 });
    let mut restarts_after_a_solution = 0;
    let mut solutions = 0;
    let mut observe = |event: &SearchEvent| match event {
        SearchEvent::Solution { .. } => solutions += 1,
        SearchEvent::Restart { .. } if solutions > 0 => restarts_after_a_solution += 1,
        _ => {}
    };
    let mut solver = Solver::new(&model, config).unwrap();
    solver.observe(&mut observe);
    let outcome = solver.optimize();
    let (objective, optimal) = (outcome.objective(), outcome.is_optimal());
    drop(outcome);
    drop(solver);
    assert_eq!(objective, Some(309));
    assert!(optimal);
    assert!(restarts_after_a_solution > 0);
}

#[test]
fn objectives_are_checked_when_set() {
    let mut model = Model::new();
    let mut other = Model::new();
    let x = model.new_var(0..=csp::MAX_VALUE).unwrap();
    let foreign = other.new_var(0..=1).unwrap();
    assert!(matches!(model.minimize(foreign), Err(ModelError::ForeignVariable { .. })));
    assert!(matches!(model.maximize(4 * x), Err(ModelError::ObjectiveOutOfRange { .. })));
    assert_eq!(model.objective(), None);
    model.maximize(x).unwrap();
    assert_eq!(model.objective().map(|o| o.var), Some(x));
}

#[test]
fn a_wide_objective_is_bounded_without_walking_its_values() {
    // Minimise x + y over intervals with x - y = 10^12 and x + y >= 4 * 10^15:
    // branch and bound closes in on the optimum by splits.
    let mut model = Model::new();
    let x = model.new_var(0..=csp::MAX_VALUE / 2).unwrap();
    let y = model.new_var(0..=csp::MAX_VALUE / 2).unwrap();
    model.linear(&[(1, x), (-1, y)], Relation::Eq, 1_000_000_000_000).unwrap();
    model.linear(&[(1, x), (1, y)], Relation::Ge, 4_000_000_000_000_001).unwrap();
    let cost = model.minimize(x + y).unwrap();
    // (Plain backtracking narrows nothing: over 2^62 values it would not end.)
    for propagation in [Propagation::ForwardChecking, Propagation::Mac] {
        for branching in [Branching::Enumerate, Branching::Binary] {
            let config = SolveConfig::default().with_search(Search::Chronological { propagation, branching });
            let mut solver = Solver::new(&model, config.clone()).unwrap();
            let outcome = solver.optimize();
            assert!(outcome.is_optimal(), "{config}: {outcome:?}");
            // x + y is even (x - y is), so the least above the bound is one more.
            assert_eq!(outcome.solution().unwrap()[cost], 4_000_000_000_000_002, "{config}");
            assert!(solver.stats().nodes < 1000, "{config}: {}", solver.stats());
        }
    }
}

/// Solution-guided values: after a solution, a variable decided again takes
/// its value in the incumbent first, where ascending would take its
/// smallest. Here `x = 0` forces `y >= 2`: the first solution is (0, 2);
/// branch and bound then asks `x >= 1`, which frees `y`, and the guided
/// search keeps `y = 2`, the ascending one goes back to `y = 0`. Over an
/// interval (bitset limit 0) the guided split takes the incumbent's half
/// first, so `y` ends at 2 too. A search phase keeps `x`, the objective,
/// ascending: without one, a split of the objective tries its best half
/// first (`tests/wide_objective.rs`), and `x = 2` would be the first
/// solution.
#[test]
fn solution_guided_values_start_from_the_incumbent() {
    let mut model = Model::new();
    let x = model.new_var(0..=2).unwrap();
    let y = model.new_var(0..=3).unwrap();
    model.predicate(&[x, y], |v| v[0] != 0 || v[1] >= 2).unwrap();
    model.maximize(x).unwrap();
    let second_y = |order: ValueOrder, bitset_limit: u64| {
        let config = SolveConfig::default()
            .with_var_order(VarOrder::Input)
            .with_value_order(order)
            .with_branching(Branching::Binary)
            .with_bitset_limit(bitset_limit)
            .with_phases(vec![SearchPhase::new(&[x], VarOrder::Input, ValueOrder::Ascending)]);
        let mut solver = Solver::new(&model, config).unwrap();
        let improvements: Vec<Vec<i64>> = solver.improvements().map(|i| i.solution.values().to_vec()).collect();
        assert_eq!(improvements[0], [0, 2], "{order:?}");
        assert_eq!(improvements.last().unwrap()[0], 2, "{order:?}: the optimum");
        improvements[1][1]
    };
    assert_eq!(second_y(ValueOrder::SolutionGuided, SolveConfig::DEFAULT_BITSET_LIMIT), 2);
    assert_eq!(second_y(ValueOrder::Ascending, SolveConfig::DEFAULT_BITSET_LIMIT), 0);
    assert_eq!(second_y(ValueOrder::SolutionGuided, 0), 2);
}
