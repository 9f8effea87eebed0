//! Search plans ([`SearchPhase`]): the search really decides the phases'
//! variables first, in the phases' order, by each phase's orderings, and
//! then the rest by the configuration's, at every level, with learning, under
//! branch and bound and with restarts. (That every plan finds the same
//! solutions as brute force is in `properties.rs`.)

use csp::{
    Backjumping, Branching, Model, Propagation, Restarts, Search, SearchEvent, SearchPhase, SolveConfig, SolveError,
    Solver, ValueOrder, VarId, VarOrder,
};

/// What the search tried, in order: `(variable index, value)` for a decision,
/// `(variable index, at, upper)` as a value `at` or `at + 1` for a split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tried {
    Value(usize, i64),
    AtMost(usize, i64),
    Above(usize, i64),
}

fn first_tries(model: &Model, config: SolveConfig, optimize: bool) -> Vec<Tried> {
    let mut tried = Vec::new();
    let mut record = |event: &SearchEvent| match *event {
        SearchEvent::Decision { var, value, .. } => tried.push(Tried::Value(var.index(), value)),
        SearchEvent::Split { var, at, upper: false, .. } => tried.push(Tried::AtMost(var.index(), at)),
        SearchEvent::Split { var, at, upper: true, .. } => tried.push(Tried::Above(var.index(), at)),
        _ => {}
    };
    let mut solver = Solver::new(model, config).unwrap();
    solver.observe(&mut record);
    if optimize {
        let _ = solver.optimize();
    } else {
        let _ = solver.solve();
    }
    drop(solver);
    tried
}

/// Every search the engine has, with restarts on top of a few.
fn searches() -> Vec<SolveConfig> {
    let mut configs = Vec::new();
    for &propagation in Propagation::ALL {
        for branching in [Branching::Enumerate, Branching::Binary] {
            configs.push(SolveConfig::default().with_search(Search::Chronological { propagation, branching }));
        }
    }
    configs.extend(Backjumping::ALL.iter().map(|&b| SolveConfig::default().with_search(Search::Backjumping(b))));
    configs.push(SolveConfig::default().with_search(Search::Learning));
    configs.push(SolveConfig::default().with_search(Search::Learning).with_restarts(Restarts::Luby { scale: 1 }));
    configs.push(SolveConfig::default().with_restarts(Restarts::Luby { scale: 1 }));
    configs
}

/// Six unconstrained variables with different domains, so that every
/// variable ordering makes a different first choice.
fn unconstrained() -> (Model, Vec<VarId>) {
    let mut model = Model::new();
    let x = vec![
        model.new_var(0..=9).unwrap(),
        model.new_var(3..=5).unwrap(),
        model.new_var(-4..=20).unwrap(),
        model.new_var([1, 7, 8]).unwrap(),
        model.new_var(2..=3).unwrap(),
        model.new_var([-10, 10]).unwrap(),
    ];
    (model, x)
}

#[test]
fn the_phases_are_decided_first_in_order_then_the_rest_by_the_configuration() {
    let (model, x) = unconstrained();
    let plan = vec![
        SearchPhase::new(&[x[3], x[1]], VarOrder::Input, ValueOrder::Descending),
        SearchPhase::new(&[x[0], x[5], x[2]], VarOrder::AntiFirstFail, ValueOrder::Ascending),
    ];
    let expected = [
        Tried::Value(3, 8),
        Tried::Value(1, 5),
        Tried::Value(2, -4),
        Tried::Value(0, 0),
        Tried::Value(5, -10),
        // The rest by the configuration's order (input) and value order (descending).
        Tried::Value(4, 3),
    ];
    for search in searches() {
        let config =
            search.with_var_order(VarOrder::Input).with_value_order(ValueOrder::Descending).with_phases(plan.clone());
        assert_eq!(first_tries(&model, config.clone(), false), expected, "{config}");
    }
}

#[test]
fn each_variable_ordering_makes_its_first_choice() {
    let (model, x) = unconstrained();
    // (ordering, the variable it chooses first among all six)
    let cases = [
        (VarOrder::Input, 0),
        (VarOrder::Mrv, 4),
        (VarOrder::AntiFirstFail, 2),
        (VarOrder::Smallest, 5),
        (VarOrder::Largest, 2),
        (VarOrder::MaxRegret, 5),
        (VarOrder::MrvDegree, 4),
    ];
    for (order, first) in cases {
        let plan = vec![SearchPhase::new(&x, order, ValueOrder::Ascending)];
        for search in searches() {
            let config = search.with_phases(plan.clone());
            let tried = first_tries(&model, config.clone(), false);
            assert!(
                matches!(tried[0], Tried::Value(v, _) if v == first),
                "{order} under {config}: {tried:?}, expected variable {first} first"
            );
        }
    }
}

#[test]
fn input_order_follows_the_phase_list_not_the_creation_order() {
    let (model, x) = unconstrained();
    let reversed: Vec<VarId> = x.iter().rev().copied().collect();
    let plan = vec![SearchPhase::new(&reversed, VarOrder::Input, ValueOrder::Ascending)];
    let tried = first_tries(&model, SolveConfig::default().with_phases(plan), false);
    let vars: Vec<usize> = tried
        .iter()
        .map(|t| match *t {
            Tried::Value(v, _) => v,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(vars, [5, 4, 3, 2, 1, 0]);
}

#[test]
fn each_value_ordering_tries_its_first_value() {
    let mut model = Model::new();
    let x = model.new_var([1, 2, 4, 8, 16, 32]).unwrap();
    let y = model.new_var(-2..=2).unwrap();
    let cases = [
        (ValueOrder::Ascending, Tried::Value(0, 1)),
        (ValueOrder::Descending, Tried::Value(0, 32)),
        // The lower median of six values.
        (ValueOrder::Median, Tried::Value(0, 4)),
        (ValueOrder::Split, Tried::AtMost(0, 16)),
        (ValueOrder::ReverseSplit, Tried::Above(0, 16)),
    ];
    for (order, first) in cases {
        let plan = vec![SearchPhase::new(&[x], VarOrder::Input, order), SearchPhase::new(&[y], VarOrder::Input, order)];
        for search in searches() {
            let config = search.with_phases(plan.clone());
            let tried = first_tries(&model, config.clone(), false);
            assert_eq!(tried[0], first, "{order} under {config}: {tried:?}");
        }
    }
}

#[test]
fn the_median_order_goes_outwards_as_binary_refutations_would() {
    // x alone: the frame's buffered order is the order of its values.
    let mut model = Model::new();
    let x = model.new_var(1..=6).unwrap();
    let plan = vec![SearchPhase::new(&[x], VarOrder::Input, ValueOrder::Median)];
    let mut values = Vec::new();
    let mut solver = Solver::new(&model, SolveConfig::default().with_phases(plan.clone())).unwrap();
    for solution in solver.solutions() {
        values.push(solution.values()[0]);
    }
    assert_eq!(values, [3, 4, 2, 5, 1, 6]);
    let binary = SolveConfig::default().with_branching(Branching::Binary).with_phases(plan);
    let mut solver = Solver::new(&model, binary).unwrap();
    let in_binary: Vec<i64> = solver.solutions().map(|s| s.values()[0]).collect();
    assert_eq!(in_binary, values);
}

#[test]
fn a_plan_is_followed_under_branch_and_bound() {
    let mut model = Model::new();
    let x = model.new_vars(3, 0..=5).unwrap();
    model.all_different(&x).unwrap();
    model.minimize(x[0] + x[1] + x[2]).unwrap();
    let plan = vec![SearchPhase::new(&[x[2], x[0]], VarOrder::Input, ValueOrder::Descending)];
    for search in searches() {
        let config = search.with_phases(plan.clone());
        let tried = first_tries(&model, config.clone(), true);
        // (Plain backtracking tries x0 = 5 too: it prunes nothing.)
        assert_eq!(tried[0], Tried::Value(2, 5), "{config}: {tried:?}");
        assert!(matches!(tried[1], Tried::Value(0, 4 | 5)), "{config}: {tried:?}");
        let optimum = Solver::new(&model, config.clone()).unwrap().optimize();
        assert_eq!(optimum.objective(), Some(3), "{config}");
    }
}

#[test]
fn a_phase_naming_another_models_variable_is_an_error() {
    let (model, _) = unconstrained();
    let mut other = Model::new();
    let y = other.new_var(0..=1).unwrap();
    let config = SolveConfig::default().with_phases(vec![
        SearchPhase::new(&[], VarOrder::Input, ValueOrder::Ascending),
        SearchPhase::new(&[y], VarOrder::Input, ValueOrder::Ascending),
    ]);
    let err = Solver::new(&model, config).err().unwrap();
    assert_eq!(err, SolveError::PhaseVariable { phase: 1 });
    assert_eq!(err.to_string(), "search phase 1 names a variable of another model");
}

#[test]
fn ties_go_to_the_first_in_the_phase_list() {
    let (model, x) = unconstrained();
    // x[4] and x[5] have the smallest domains (two values): listed in
    // reverse, first fail takes x[5] first, then x[4].
    let reversed: Vec<VarId> = x.iter().rev().copied().collect();
    let plan = vec![SearchPhase::new(&reversed, VarOrder::Mrv, ValueOrder::Ascending)];
    let tried = first_tries(&model, SolveConfig::default().with_phases(plan), false);
    assert_eq!(tried[..2], [Tried::Value(5, -10), Tried::Value(4, 2)]);
}
