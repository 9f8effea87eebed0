//! Min-conflicts local search: solved models are solutions, limits stop it,
//! runs are reproducible, and every kind of counter is used.

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use csp::rng::Rng;
use csp::{
    Constraint, ConstraintId, LocalSearch, LocalSearchConfig, LocalSearchOutcome, LocalSearchStats, Model, ModelError,
    Relation, Solution, VarId, ViolationCounter,
};

#[path = "support/queens.rs"]
mod support;

use support::queens;

fn config(seed: u64, max_steps: u64) -> LocalSearchConfig {
    LocalSearchConfig { seed, max_steps: Some(max_steps), ..LocalSearchConfig::default() }
}

fn solve(model: &Model, config: LocalSearchConfig) -> (Option<Vec<i64>>, LocalSearchStats) {
    let mut search = LocalSearch::new(model, config);
    let outcome = search.solve();
    let stats = search.stats().clone();
    (outcome.into_solution().map(Solution::into_values), stats)
}

#[test]
fn queens_are_solved_and_every_answer_is_a_solution() {
    for n in [1, 4, 5, 8, 10, 30, 100, 500] {
        let model = queens(n);
        for seed in 0..3 {
            let (values, stats) = solve(&model, config(seed, 1_000_000));
            let values = values.unwrap_or_else(|| panic!("n = {n}, seed {seed}: not solved; {stats}"));
            assert!(model.is_solution(&values), "n = {n}, seed {seed}: {values:?}");
            assert_eq!(stats.best_violation, 0);
            assert!(stats.steps <= stats.evaluations.max(1) + stats.steps);
        }
    }
}

#[test]
fn unsatisfiable_models_stop_at_the_step_limit_with_restarts() {
    let model = queens(3);
    let config = LocalSearchConfig { restart_after: Some(50), ..config(1, 2_000) };
    let mut search = LocalSearch::new(&model, config);
    assert_eq!(search.solve(), LocalSearchOutcome::StepLimit);
    assert_eq!(search.stats().steps, 2_000);
    // A restart after every 50 steps without a new best (of which the first few improve).
    assert!((2_000 / 100..=2_000 / 50).contains(&search.stats().restarts), "{}", search.stats());
    assert!(search.stats().best_violation > 0);
}

#[test]
fn a_time_limit_stops_an_endless_search() {
    let model = queens(2);
    let config = LocalSearchConfig { time_limit: Some(Duration::from_millis(20)), ..LocalSearchConfig::default() };
    let mut search = LocalSearch::new(&model, config);
    assert_eq!(search.solve(), LocalSearchOutcome::TimeLimit);
    assert!(search.stats().elapsed >= Duration::from_millis(20));
}

#[test]
fn equal_seeds_give_equal_runs() {
    let model = queens(200);
    let (a, sa) = solve(&model, config(42, 1_000_000));
    let (b, sb) = solve(&model, config(42, 1_000_000));
    let (c, _) = solve(&model, config(43, 1_000_000));
    assert_eq!(a, b);
    assert_eq!(LocalSearchStats { elapsed: Duration::ZERO, ..sa }, LocalSearchStats { elapsed: Duration::ZERO, ..sb });
    assert_ne!(a, c);
}

/// A graph with a planted 3-colouring: edges only join different colours.
fn planted_colouring(nodes: usize, edges: usize, seed: u64) -> (Model, Vec<(usize, usize)>) {
    let mut rng = Rng::new(seed);
    let colour: Vec<u64> = (0..nodes).map(|_| rng.below(3)).collect();
    let mut model = Model::new();
    let x = model.new_vars(nodes, 0..=2).unwrap();
    let mut list = Vec::new();
    while list.len() < edges {
        let (a, b) = (rng.below(nodes as u64) as usize, rng.below(nodes as u64) as usize);
        if colour[a] != colour[b] {
            model.not_equal(x[a], x[b]).unwrap();
            list.push((a, b));
        }
    }
    (model, list)
}

#[test]
fn graph_colouring_with_binary_constraints_uses_the_recomputing_counter() {
    // not_equal has no counter of its own: every constraint is recomputed.
    for seed in 0..3 {
        let (model, edges) = planted_colouring(60, 130, seed);
        let (values, stats) = solve(&model, config(seed, 200_000));
        let values = values.unwrap_or_else(|| panic!("seed {seed}: {stats}"));
        assert!(model.is_solution(&values));
        assert!(edges.iter().all(|&(a, b)| values[a] != values[b]));
    }
}

#[test]
fn graph_colouring_with_sparse_domains_and_cliques() {
    // Colours {-5, 2, 40} (not a range), cliques as all_different.
    let mut model = Model::new();
    let x = model.new_vars(12, vec![-5, 2, 40]).unwrap();
    for i in 0..12 {
        for j in [i + 1, i + 2] {
            if j < 12 && (i + j) % 3 != 0 {
                model.not_equal(x[i], x[j]).unwrap();
            }
        }
    }
    for k in (0..10).step_by(3) {
        model.all_different(&[x[k], x[k + 1], x[k + 2]]).unwrap();
    }
    for seed in 0..5 {
        let (values, stats) = solve(&model, config(seed, 100_000));
        let values = values.unwrap_or_else(|| panic!("seed {seed}: {stats}"));
        assert!(model.is_solution(&values), "{values:?}");
    }
}

/// A check-only constraint over a repeated variable: `v[0] + v[1] + v[2]` is
/// even, with the scope `[x, y, x]`.
struct EvenSum(Vec<VarId>);

impl Constraint for EvenSum {
    fn scope(&self) -> &[VarId] {
        &self.0
    }
    fn is_satisfied(&self, values: &[i64]) -> bool {
        values.iter().sum::<i64>() % 2 == 0
    }
}

#[test]
fn check_only_constraints_with_repeated_variables_are_recomputed() {
    let mut model = Model::new();
    let x = model.new_vars(3, 0..=9).unwrap();
    // x + y + x even means y even.
    model.post(EvenSum(vec![x[0], x[1], x[0]])).unwrap();
    model.linear(&[(1, x[0]), (1, x[1]), (1, x[2])], Relation::Eq, 20).unwrap();
    model.all_different(&x).unwrap();
    for seed in 0..10 {
        let (values, stats) = solve(&model, config(seed, 100_000));
        let values = values.unwrap_or_else(|| panic!("seed {seed}: {stats}"));
        assert!(model.is_solution(&values), "{values:?}");
        assert_eq!(values[1] % 2, 0);
        assert_eq!(values.iter().sum::<i64>(), 20);
    }
}

#[test]
fn huge_range_domains_are_sampled_not_widened() {
    // Domains of 2^40 values: all_different falls back to a hash map of
    // counts, and a step scores at most MAX_SCAN values.
    let mut model = Model::new();
    let x = model.new_vars(50, 0..(1i64 << 40)).unwrap();
    model.all_different(&x).unwrap();
    model.linear(&[(1, x[0]), (-1, x[1])], Relation::Le, 0).unwrap();
    let (values, stats) = solve(&model, config(5, 10_000));
    let values = values.unwrap_or_else(|| panic!("{stats}"));
    assert!(model.is_solution(&values));
}

#[test]
fn a_model_without_variables_is_solved_at_once() {
    let model = Model::new();
    let (values, stats) = solve(&model, config(0, 10));
    assert_eq!(values, Some(vec![]));
    assert_eq!(stats.steps, 0);
}

/// Counts `x != y` over the scope `[x, y]`, and how often it is asked.
struct CountedDiffer {
    values: [Option<i64>; 2],
    questions: Rc<Cell<u64>>,
}

impl ViolationCounter for CountedDiffer {
    fn clear(&mut self, _: &Model) {
        self.values = [None; 2];
    }
    fn violation(&self) -> u64 {
        u64::from(self.values[0].is_some() && self.values[0] == self.values[1])
    }
    fn conflicts(&self, _: usize, _: i64) -> u64 {
        self.violation()
    }
    fn delta(&mut self, position: usize, from: Option<i64>, to: i64) -> i64 {
        self.questions.set(self.questions.get() + 1);
        let other = self.values[1 - position];
        i64::from(other == Some(to)) - i64::from(from.is_some() && other == from)
    }
    fn apply(&mut self, position: usize, _: Option<i64>, to: i64, newly_conflicted: &mut Vec<usize>) {
        let before = self.violation();
        self.values[position] = Some(to);
        if before == 0 && self.violation() == 1 {
            newly_conflicted.push(1 - position);
        }
    }
}

#[test]
fn a_registered_counter_is_the_one_the_search_asks() {
    let (model, edges) = planted_colouring(40, 80, 4);
    let questions = Rc::new(Cell::new(0));
    let mut search = LocalSearch::new(&model, config(4, 200_000));
    for id in 0..model.num_constraints() {
        let questions = Rc::clone(&questions);
        let make = move || Box::new(CountedDiffer { values: [None; 2], questions: Rc::clone(&questions) }) as _;
        search = search.with_counter(model.constraints().nth(id).unwrap().0, make).unwrap();
    }
    let values = search.solve().into_solution().expect("a planted colouring is found").into_values();
    assert!(edges.iter().all(|&(a, b)| values[a] != values[b]));
    assert!(questions.get() > 0, "the registered counters were asked");
    // An id this model did not hand out: the next one another model does.
    let mut other = Model::new();
    let vars = other.new_vars(2, 0..=1).unwrap();
    let unknown: ConstraintId =
        (0..=model.num_constraints()).map(|_| other.not_equal(vars[0], vars[1]).unwrap()).last().unwrap();
    let err = LocalSearch::new(&model, config(4, 10)).with_counter(unknown, || unreachable!()).unwrap_err();
    assert_eq!(err, ModelError::UnknownConstraint { id: unknown });
}
