//! Branch and bound over an objective of up to 2^63 values: the search
//! reaches the best bound by halving what is left of the objective's range
//! (the half toward the best bound first, and, once an improvement is tiny
//! against the range left, the objective decided first from a restart),
//! never by improving one value at a time, which over `-2^62..=2^62` would
//! not end. Nodes are counted, not timed: a walk would take billions.

use csp::{
    Backjumping, Branching, Limits, LinearExpr, MAX_VALUE, Model, OptimizationOutcome, Propagation, Relation, Restarts,
    Search, SolveConfig, Solver, ValueOrder, VarId, VarOrder,
};

/// More nodes than a bisection of 2^63 values needs, a few times over, and
/// far fewer than a walk. A limit, so that a regression fails instead of
/// running for ever.
const NODES: u64 = 20_000;

/// Every search the engine has at the propagation levels `levels`, and the
/// searches that learn.
fn configs(levels: &[Propagation]) -> Vec<SolveConfig> {
    let mut configs = Vec::new();
    for &propagation in levels {
        for branching in [Branching::Enumerate, Branching::Binary] {
            for (var_order, value_order) in [
                (VarOrder::Input, ValueOrder::Ascending),
                (VarOrder::DomWdeg, ValueOrder::SolutionGuided),
                (VarOrder::Mrv, ValueOrder::Random),
            ] {
                let config = SolveConfig::default()
                    .with_search(Search::Chronological { propagation, branching })
                    .with_var_order(var_order)
                    .with_value_order(value_order);
                configs.push(config.clone().with_restarts(Restarts::Luby { scale: 1 }));
                configs.push(config);
            }
        }
        for backjumping in Backjumping::ALL.iter().filter(|b| b.propagation() == propagation) {
            configs.push(SolveConfig::default().with_search(Search::Backjumping(*backjumping)));
        }
    }
    for (var_order, value_order) in [
        (VarOrder::Input, ValueOrder::Ascending),
        (VarOrder::Vsids, ValueOrder::Phase),
        (VarOrder::Alternate, ValueOrder::SolutionGuided),
        (VarOrder::DomWdeg, ValueOrder::Descending),
    ] {
        let learning = SolveConfig::default().with_search(Search::Learning).with_seed(3);
        let config = learning.with_var_order(var_order).with_value_order(value_order);
        configs.push(config.clone().with_restarts(Restarts::Luby { scale: 1 }));
        configs.push(config);
    }
    configs.into_iter().map(|c| c.with_limits(Limits::none().with_nodes(NODES))).collect()
}

/// Solves `model` under every configuration of [`configs`]: each proves the
/// optimum `best` of `objective` within the node limit, and (with learning)
/// every nogood it adds is checked.
fn proves(model: &Model, objective: VarId, best: i64, levels: &[Propagation]) {
    for config in configs(levels) {
        let mut solver = Solver::new(model, config.clone()).unwrap();
        if config.learning() {
            solver.check_nogoods(true);
        }
        let outcome = solver.optimize();
        let OptimizationOutcome::Optimal { solution, objective: value } = outcome else {
            panic!("{config}: {outcome:?} after {}", solver.stats());
        };
        assert!(model.is_solution(solution.values()), "{config}");
        assert_eq!((value, solution[objective]), (best, best), "{config}");
    }
}

/// Plain backtracking narrows nothing: it bisects an objective alone, but
/// finds a failure only once every variable of a constraint is decided.
const NARROWING: &[Propagation] = &[Propagation::ForwardChecking, Propagation::Mac];

/// Forward checking revises a constraint once one variable is left: a split
/// of the objective, which leaves the other wide variables of its
/// constraints open, narrows nothing, so the objective's bisection only
/// finds out at its leaves that a half has no solution.
const MAC: &[Propagation] = &[Propagation::Mac];

fn wide(model: &mut Model) -> VarId {
    model.new_var(-MAX_VALUE..=MAX_VALUE).unwrap()
}

#[test]
fn an_unconstrained_objective_reaches_either_end_at_once() {
    for maximize in [true, false] {
        let mut model = Model::new();
        let x = wide(&mut model);
        if maximize {
            model.maximize(x).unwrap();
        } else {
            model.minimize(x).unwrap();
        }
        proves(&model, x, if maximize { MAX_VALUE } else { -MAX_VALUE }, Propagation::ALL);
    }
}

#[test]
fn an_objective_bounded_by_another_wide_variable_is_not_walked() {
    // maximize x with x <= y + 3; y is created first, so the orderings that
    // follow the model's order fix y (at its least) before x. Its mirror:
    // minimize x with x + y >= 0.
    for maximize in [true, false] {
        let mut model = Model::new();
        let y = wide(&mut model);
        let x = wide(&mut model);
        if maximize {
            model.linear(&[(1, x), (-1, y)], Relation::Le, 3).unwrap();
            model.maximize(x).unwrap();
        } else {
            model.linear(&[(1, x), (1, y)], Relation::Ge, 0).unwrap();
            model.minimize(x).unwrap();
        }
        proves(&model, x, if maximize { MAX_VALUE } else { -MAX_VALUE }, NARROWING);
    }
}

#[test]
fn a_sum_of_wide_variables_is_maximised_and_minimised() {
    // a and b over half the range, so that their sum stays within it.
    for maximize in [true, false] {
        let mut model = Model::new();
        let a = model.new_var(-MAX_VALUE / 2..=MAX_VALUE / 2).unwrap();
        let b = model.new_var(-MAX_VALUE / 2..=MAX_VALUE / 2).unwrap();
        let sum: LinearExpr = a + b;
        let x = if maximize { model.maximize(sum) } else { model.minimize(sum) }.unwrap();
        proves(&model, x, if maximize { MAX_VALUE } else { -MAX_VALUE }, NARROWING);
    }
}

#[test]
fn a_product_of_wide_variables_is_maximised() {
    let mut model = Model::new();
    let a = wide(&mut model);
    let b = wide(&mut model);
    let x = wide(&mut model);
    model.times(a, b, x).unwrap();
    model.maximize(x).unwrap();
    // Only the levels that propagate the product bound it.
    for config in configs(MAC) {
        let mut solver = Solver::new(&model, config.clone()).unwrap();
        let outcome = solver.optimize();
        assert!(outcome.is_optimal(), "{config}: {outcome:?}");
        let solution = outcome.solution().unwrap();
        assert_eq!(outcome.objective(), Some(MAX_VALUE), "{config}");
        assert_eq!(i128::from(solution[a]) * i128::from(solution[b]), i128::from(MAX_VALUE), "{config}");
    }
}

#[test]
fn an_optimum_far_from_both_ends_is_reached() {
    // maximize x <= 123456789012 + 5 z over z in 0..=3, x - y = 7 with y wide
    // and odd: the optimum 123456789027 (z = 3) lies near neither end.
    let mut model = Model::new();
    let y = wide(&mut model);
    let z = model.new_var(0..=3).unwrap();
    let x = wide(&mut model);
    model.linear(&[(1, x), (-5, z)], Relation::Le, 123_456_789_012).unwrap();
    model.linear(&[(1, x), (-1, y)], Relation::Eq, 7).unwrap();
    model.predicate(&[y], |v| v[0].rem_euclid(2) == 1).unwrap();
    model.maximize(x).unwrap();
    // y = x - 7 odd: x even; the largest even x <= 123456789027 is ...26.
    proves(&model, x, 123_456_789_026, NARROWING);
    // And the mirror: minimise -x.
    let mut model = Model::new();
    let y = wide(&mut model);
    let z = model.new_var(0..=3).unwrap();
    let x = wide(&mut model);
    model.linear(&[(-1, x), (5, z)], Relation::Ge, -123_456_789_012).unwrap();
    model.linear(&[(1, x), (-1, y)], Relation::Eq, 7).unwrap();
    model.predicate(&[y], |v| v[0].rem_euclid(2) == 1).unwrap();
    let cost = model.minimize(-1 * x).unwrap();
    proves(&model, cost, -123_456_789_026, MAC);
}
