//! The reasons an observer asks for ([`Observer::wants_reasons`]): each one
//! checked by brute force (every assignment of the initial domains that
//! satisfies the model and the reason's atoms satisfies its facts), on
//! small latin squares (the all-different system), a mixed model, and under
//! every propagation level that runs propagators.

#[path = "support/latin_square.rs"]
mod latin;

use csp::{Atom, Model, Observer, Reason, Relation, SearchEvent, SolveConfig, Solver, VarId};
use latin::latin_square;

/// Keeps every reason and counts the removals shown.
#[derive(Default)]
struct Reasons {
    reasons: Vec<(Vec<Atom>, Vec<Atom>)>,
    removed: usize,
}

impl Observer for Reasons {
    fn on_event(&mut self, event: &SearchEvent) {
        if let SearchEvent::Removed { constraint: Some(_), .. } = event {
            self.removed += 1;
        }
    }

    fn wants_reasons(&self) -> bool {
        true
    }

    fn on_reason(&mut self, reason: &Reason<'_>) {
        assert!(!reason.facts.is_empty());
        assert!(reason.facts.iter().all(|fact| Some(fact.var()) == reason.var()));
        self.reasons.push((reason.facts.to_vec(), reason.because.to_vec()));
    }
}

/// Every assignment of the model's initial domains.
fn assignments(model: &Model) -> Vec<Vec<i64>> {
    let mut all = vec![Vec::new()];
    for x in model.vars() {
        let domain: Vec<i64> = model.domain(x).unwrap().iter().collect();
        all = all.into_iter().flat_map(|a| domain.iter().map(move |&v| [&a[..], &[v]].concat())).collect();
    }
    all
}

/// Runs `config` over `model` to the end with reasons on, and checks each
/// reason against the model's solutions; returns how many were checked.
fn check(model: &Model, config: SolveConfig) -> usize {
    let solutions: Vec<Vec<i64>> = assignments(model).into_iter().filter(|a| model.is_solution(a)).collect();
    let mut reasons = Reasons::default();
    let counted = {
        let mut solver = Solver::new(model, config.clone()).unwrap();
        solver.observe(&mut reasons);
        solver.count(None)
    };
    assert_eq!(counted.solutions, solutions.len() as u64, "{config}");
    let holds = |atom: &Atom, a: &[i64]| atom.holds_at(a[atom.var().index()]);
    let mut facts = 0;
    for (fact, because) in &reasons.reasons {
        for a in &solutions {
            if because.iter().all(|atom| holds(atom, a)) {
                assert!(
                    fact.iter().all(|atom| holds(atom, a)),
                    "{config}: {fact:?} because {because:?} fails at {a:?}"
                );
            }
        }
        facts += fact.len();
    }
    // Every removal a propagator made and kept has its reason (a removal
    // that emptied a domain is taken back, and has none).
    assert!(facts <= reasons.removed && facts > 0, "{config}: {facts} facts for {} removals", reasons.removed);
    reasons.reasons.len()
}

const CONFIGS: [&str; 8] = [
    "mac",
    "mac+mrv+pairwise",
    "mac+domwdeg+intersect",
    "mac+learn",
    "fc+mrv",
    "mac+binary+separate",
    "mac+sac",
    "mac+domwdeg+probe+binary",
];

#[test]
fn reasons_of_the_all_different_system_hold_in_every_solution() {
    let square = latin_square(3, &[(0, 0, 1)]);
    // Seven givens: the brute force walks the 4^9 assignments of the rest.
    let partial = latin_square(4, &[(0, 0, 0), (0, 2, 2), (1, 1, 0), (1, 3, 2), (2, 3, 1), (3, 0, 3), (3, 2, 1)]);
    for model in [&square, &partial] {
        for spelling in CONFIGS {
            assert!(check(model, spelling.parse().unwrap()) > 0, "{spelling}");
        }
    }
}

#[test]
fn reasons_of_mixed_constraints_hold_in_every_solution() {
    let mut model = Model::new();
    let x: Vec<VarId> = model.new_vars(5, 0..=3).unwrap();
    model.less_than(x[0], x[1]).unwrap();
    model.not_equal(x[1], x[2]).unwrap();
    model.linear(&[(1, x[2]), (2, x[3]), (-1, x[4])], Relation::Eq, 3).unwrap();
    model.all_different(&[x[0], x[3], x[4]]).unwrap();
    for spelling in CONFIGS {
        assert!(check(&model, spelling.parse().unwrap()) > 0, "{spelling}");
    }
}

/// A not-equal removes the value its other variable took, and says so.
#[test]
fn a_not_equal_removes_the_value_taken_because_it_was_taken() {
    let mut model = Model::new();
    let x = model.new_var(1..=3).unwrap();
    let y = model.new_var(1..=3).unwrap();
    model.not_equal(x, y).unwrap();
    let mut reasons = Reasons::default();
    let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
    solver.observe(&mut reasons);
    assert!(solver.solve().is_solved());
    drop(solver);
    assert_eq!(reasons.reasons, [(vec![Atom::NotEqual(y, 1)], vec![Atom::Equal(x, 1)])]);
}

/// An observer that does not ask gets no reasons, and the search is the
/// same (the same nodes and removals) whether it asks or not.
#[test]
fn asking_for_reasons_changes_nothing_else() {
    let model = latin_square(4, &[(0, 0, 0), (1, 1, 2)]);
    let run = |ask: bool| {
        let mut quiet = |_: &SearchEvent| {};
        let mut reasons = Reasons::default();
        let mut solver = Solver::new(&model, "mac+domwdeg".parse().unwrap()).unwrap();
        if ask {
            solver.observe(&mut reasons);
        } else {
            solver.observe(&mut quiet);
        }
        let count = solver.count(None);
        let stats = solver.stats().clone();
        drop(solver);
        ((count.solutions, stats.nodes, stats.pruned, stats.propagations), reasons.reasons.len())
    };
    let (without, with) = (run(false), run(true));
    assert_eq!(without.0, with.0);
    assert_eq!(without.1, 0);
    assert!(with.1 > 0);
}

/// A circuit's values that name no node go at the root, for no reason (the
/// only removals for which `circuit` gives that answer: learning never asks
/// about the root, see `constraints/circuit.rs`), and so do a circuit's
/// self-loops; every reason holds in every solution.
#[test]
fn a_circuit_removes_the_values_naming_no_node_for_no_reason() {
    for sub in [false, true] {
        let mut model = Model::new();
        // Nodes 1..=4: 0 and 5 name none.
        let x: Vec<VarId> = model.new_vars(4, 0..=5).unwrap();
        if sub {
            model.subcircuit(&x, 1).unwrap();
        } else {
            model.circuit(&x, 1).unwrap();
        }
        for spelling in CONFIGS {
            assert!(check(&model, spelling.parse().unwrap()) > 0, "{spelling}, sub {sub}");
        }
        let mut reasons = Reasons::default();
        let mut solver = Solver::new(&model, "mac".parse().unwrap()).unwrap();
        solver.observe(&mut reasons);
        assert!(solver.solve().is_solved());
        drop(solver);
        let no_node = |atom: &Atom| matches!(atom, Atom::NotEqual(_, 0 | 5));
        let self_loop = |atom: &Atom| matches!(*atom, Atom::NotEqual(v, value) if x[value as usize - 1] == v);
        let gone: Vec<&Vec<Atom>> = reasons
            .reasons
            .iter()
            .filter(|(facts, _)| facts.iter().all(|a| no_node(a) || (!sub && self_loop(a))))
            .map(|(_, because)| because)
            .collect();
        // Each variable's 0 and 5 (and, in a circuit, its own node).
        let removed: usize = reasons
            .reasons
            .iter()
            .flat_map(|(facts, _)| facts)
            .filter(|a| no_node(a) || (!sub && self_loop(a)))
            .count();
        assert_eq!(removed, if sub { 8 } else { 12 }, "sub {sub}: {:?}", reasons.reasons);
        assert!(gone.iter().all(|because| because.is_empty()), "sub {sub}: {gone:?}");
    }
}
