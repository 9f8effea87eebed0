//! The portfolio (`csp::portfolio`): its answers against brute force on
//! small random models, with workers of different configurations (learning
//! among them); one worker is exactly `Solver`; the stop signal stops a long
//! search within a bound of nodes; errors are typed.

use csp::portfolio::{self, Portfolio};
use csp::rng::Rng;
use csp::{
    Limit, LinearExpr, Model, Observer, OptimizationOutcome, Outcome, Probing, Propagation, Restarts, Search,
    SearchEvent, SolveConfig, SolveError, Solver, Status, StopSignal, VarId, VarOrder,
};

/// A small random model: 4-6 variables over 0..=2 to 0..=4, random binary
/// relations (each pair of values forbidden with probability 0.4), sometimes an
/// all-different of three and a linear inequality; with `objective`, a
/// linear objective of coefficients in -3..=3, to minimise or maximise.
/// Returns the model, its decision variables and the objective's
/// coefficients.
fn random_model(seed: u64, objective: bool) -> (Model, Vec<VarId>, Vec<i64>) {
    let mut rng = Rng::new(seed);
    let mut model = Model::new();
    let n = 4 + rng.below(3) as usize;
    let x: Vec<VarId> = (0..n).map(|_| model.new_var(0..=2 + rng.below(3) as i64).unwrap()).collect();
    for _ in 0..2 * n + rng.below(n as u64) as usize {
        let (a, b) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
        if a == b {
            continue;
        }
        let forbidden: Vec<bool> = (0..25).map(|_| rng.below(10) < 4).collect();
        model.predicate(&[x[a], x[b]], move |v| !forbidden[(v[0] * 5 + v[1]) as usize]).unwrap();
    }
    if rng.below(2) == 0 {
        model.all_different(&x[..3]).unwrap();
    }
    if rng.below(2) == 0 {
        let terms: Vec<(i64, VarId)> = x.iter().map(|&v| (1 + rng.below(3) as i64, v)).collect();
        model.linear(&terms, csp::Relation::Le, 2 * n as i64 + rng.below(6) as i64).unwrap();
    }
    let coefficients = if objective { random_objective(&mut rng, &mut model, &x) } else { Vec::new() };
    (model, x, coefficients)
}

/// A linear objective over `x` of coefficients in -3..=3, to minimise or
/// maximise; returns the coefficients.
fn random_objective(rng: &mut Rng, model: &mut Model, x: &[VarId]) -> Vec<i64> {
    let coefficients: Vec<i64> = x.iter().map(|_| rng.below(7) as i64 - 3).collect();
    let expression: LinearExpr = coefficients.iter().zip(x).map(|(&c, &v)| c * v).sum();
    if rng.below(2) == 0 {
        model.minimize(expression).unwrap();
    } else {
        model.maximize(expression).unwrap();
    }
    coefficients
}

/// Every solution of the decision variables (with the objective's value
/// appended when there is one) that `Model::is_solution` accepts.
fn brute_force(model: &Model, x: &[VarId], coefficients: &[i64]) -> Vec<Vec<i64>> {
    let domains: Vec<Vec<i64>> = x.iter().map(|&v| model.domain(v).unwrap().iter().collect()).collect();
    let total: usize = domains.iter().map(Vec::len).product();
    // Assignment `index` takes its digits in the domains' mixed radix.
    (0..total)
        .filter_map(|mut index| {
            let mut values: Vec<i64> = domains
                .iter()
                .map(|domain| {
                    let value = domain[index % domain.len()];
                    index /= domain.len();
                    value
                })
                .collect();
            if !coefficients.is_empty() {
                values.push(coefficients.iter().zip(&values).map(|(c, v)| c * v).sum());
            }
            (values.len() == model.num_vars() && model.is_solution(&values)).then_some(values)
        })
        .collect()
}

/// The brute-force optimum of a model made by [`random_model`] or
/// [`sharing_model`] (`None` without a solution), which one solver finds.
fn optimum(model: &Model, x: &[VarId], coefficients: &[i64], seed: u64) -> Option<i64> {
    let objective = model.objective().unwrap();
    let expected = brute_force(model, x, coefficients);
    let best =
        expected.iter().map(|values| values[x.len()]).reduce(|a, b| if objective.improves(a, b) { a } else { b });
    let alone = Solver::new(model, SolveConfig::default()).unwrap().optimize();
    assert_eq!(alone.objective(), best, "seed {seed}: one solver");
    best
}

/// Portfolios of two and three workers, each with a learning worker.
fn portfolios() -> Vec<Vec<SolveConfig>> {
    let learning = SolveConfig::default().with_search(Search::Learning).with_var_order(VarOrder::DomWdeg);
    let fc = SolveConfig::default().with_propagation(Propagation::ForwardChecking).with_var_order(VarOrder::DomWdeg);
    vec![
        vec![SolveConfig::default(), learning.clone()],
        vec![fc, learning.clone().with_restarts(Restarts::Luby { scale: 2 }), SolveConfig::default()],
        portfolio::diversify(&SolveConfig::default(), 3),
        portfolio::diversify(&learning, 2),
    ]
}

#[test]
fn a_portfolio_agrees_with_brute_force_on_random_satisfaction_models() {
    let (mut solved, mut unsatisfiable) = (0, 0);
    for seed in 0..120 {
        let (model, x, _) = random_model(seed, false);
        let expected = brute_force(&model, &x, &[]);
        for configs in portfolios() {
            let workers = configs.len();
            let run = Portfolio::new(&model, configs).unwrap().solve().unwrap();
            assert_eq!((run.stats.len(), run.statuses.len()), (workers, workers));
            let winner = run.winner.expect("no limit: a worker answers");
            assert_ne!(
                run.statuses[winner],
                Status::LimitReached(Limit::Stopped),
                "seed {seed}: the winner ran to its answer"
            );
            match &run.outcome {
                Outcome::Solved(solution) => {
                    assert!(model.is_solution(solution.values()), "seed {seed}: not a solution");
                    assert!(expected.contains(&solution.values().to_vec()), "seed {seed}");
                    assert_eq!(run.found_by, Some(winner));
                    solved += 1;
                }
                Outcome::Unsatisfiable => {
                    assert!(expected.is_empty(), "seed {seed}: unsatisfiable, but brute force has {}", expected.len());
                    assert_eq!(run.found_by, None);
                    unsatisfiable += 1;
                }
                Outcome::LimitReached(limit) => panic!("seed {seed}: {limit} without limits"),
            }
        }
    }
    assert!(solved > 50 && unsatisfiable > 50, "a mix: {solved} solved, {unsatisfiable} unsatisfiable");
}

#[test]
fn a_portfolio_finds_the_brute_force_optimum_on_random_models() {
    let (mut optimal, mut unsatisfiable) = (0, 0);
    for seed in 0..120 {
        let (model, x, coefficients) = random_model(seed, true);
        let objective = model.objective().unwrap();
        let best = optimum(&model, &x, &coefficients, seed);
        for configs in portfolios() {
            let mut reported = Vec::new();
            let run = Portfolio::new(&model, configs)
                .unwrap()
                .improvements(|worker, improvement| {
                    assert!(model.is_solution(improvement.solution.values()));
                    reported.push((worker, improvement.objective));
                    true
                })
                .unwrap();
            assert!(run.winner.is_some(), "seed {seed}: no limit, a worker proves the answer");
            // Reported as they improve: each better than the one before.
            for pair in reported.windows(2) {
                assert!(objective.improves(pair[1].1, pair[0].1), "seed {seed}: {reported:?}");
            }
            match run.outcome {
                OptimizationOutcome::Optimal { solution, objective: value } => {
                    assert_eq!(Some(value), best, "seed {seed}");
                    assert_eq!(solution.values()[x.len()], value);
                    assert!(model.is_solution(solution.values()));
                    assert_eq!(
                        reported.last().map(|&(_, value)| value),
                        Some(value),
                        "the last reported is the optimum"
                    );
                    assert_eq!(run.found_by, reported.last().map(|&(worker, _)| worker));
                    optimal += 1;
                }
                OptimizationOutcome::Unsatisfiable => {
                    assert_eq!(best, None, "seed {seed}");
                    assert!(reported.is_empty());
                    unsatisfiable += 1;
                }
                other => panic!("seed {seed}: {other:?} without limits"),
            }
        }
    }
    assert!(optimal > 50 && unsatisfiable > 50, "a mix: {optimal} optimal, {unsatisfiable} unsatisfiable");
}

#[test]
fn one_worker_is_exactly_the_solver() {
    for seed in 0..40 {
        for objective in [false, true] {
            let (model, ..) = random_model(seed, objective);
            for config in [SolveConfig::default(), SolveConfig::default().with_search(Search::Learning)] {
                let portfolio = Portfolio::new(&model, vec![config.clone()]).unwrap();
                let mut solver = Solver::new(&model, config.clone()).unwrap();
                if objective {
                    let run = portfolio.optimize().unwrap();
                    assert_eq!(run.outcome, solver.optimize(), "seed {seed}, {config}");
                } else {
                    let run = portfolio.solve().unwrap();
                    assert_eq!(run.outcome, solver.solve(), "seed {seed}, {config}");
                    assert_eq!(run.statuses, [solver.status()]);
                    assert_eq!(run.stats[0].without_time(), solver.stats().without_time(), "seed {seed}, {config}");
                    continue;
                }
                // Optimisation: the same statistics and status too.
                let run = portfolio.optimize().unwrap();
                solver.optimize();
                assert_eq!(run.stats[0].without_time(), solver.stats().without_time(), "seed {seed}, {config}");
                assert_eq!(run.statuses, [solver.status()]);
                assert_eq!(run.winner.is_some(), solver.status() == Status::Complete);
            }
        }
    }
}

/// Pigeonhole: `n` pigeons in `n - 1` holes, pairwise different: no
/// solution, and without the matching a tree of (n - 1)! leaves.
fn pigeonhole(n: i64) -> Model {
    let mut model = Model::new();
    let x = model.new_vars(n as usize, 0..=n - 2).unwrap();
    for (i, &a) in x.iter().enumerate() {
        for &b in &x[i + 1..] {
            model.not_equal(a, b).unwrap();
        }
    }
    model
}

/// Raises a stop signal at the `at`th decision.
struct StopAt {
    at: u64,
    decisions: u64,
    signal: StopSignal,
}

impl Observer for StopAt {
    fn on_event(&mut self, event: &SearchEvent) {
        if matches!(event, SearchEvent::Decision { .. }) {
            self.decisions += 1;
            if self.decisions == self.at {
                self.signal.stop();
            }
        }
    }
}

#[test]
fn a_raised_stop_signal_stops_a_long_search_within_a_bound_of_nodes() {
    // 12 pigeons under forward checking: about 4e7 leaves, far beyond the bound.
    let model = pigeonhole(12);
    let config = SolveConfig::default().with_propagation(Propagation::ForwardChecking);
    for at in [1, 1000, 20_000] {
        let signal = StopSignal::new();
        let mut observer = StopAt { at, decisions: 0, signal: signal.clone() };
        let mut solver = Solver::new(&model, config.clone()).unwrap();
        solver.observe(&mut observer);
        solver.stop_on(signal);
        assert_eq!(solver.solve(), Outcome::LimitReached(Limit::Stopped), "stopped at {at}");
        // The clock reads at least every 2^16 units of work (nodes and
        // propagator calls), so the search stops within that many nodes.
        let nodes = solver.stats().nodes;
        assert!(nodes >= at && nodes <= at + (1 << 16), "stopped at {at}, {nodes} nodes");
    }
}

#[test]
fn a_signal_not_raised_changes_nothing() {
    let model = pigeonhole(7);
    let config = SolveConfig::default().with_propagation(Propagation::ForwardChecking);
    let mut alone = Solver::new(&model, config.clone()).unwrap();
    let mut watched = Solver::new(&model, config).unwrap();
    watched.stop_on(StopSignal::new());
    assert_eq!(watched.solve(), alone.solve());
    assert_eq!(watched.stats().without_time(), alone.stats().without_time());
}

#[test]
fn the_first_answer_stops_the_other_workers() {
    // Matching-based all-different refutes 12 pigeons at the root; forward
    // checking would search about 4e7 leaves.
    let mut model = pigeonhole(12);
    let vars: Vec<VarId> = model.vars().collect();
    model.all_different(&vars).unwrap();
    let slow = SolveConfig::default()
        .with_propagation(Propagation::ForwardChecking)
        .with_all_different(csp::AllDifferentStrength::Pairwise);
    let run = Portfolio::new(&model, vec![SolveConfig::default(), slow]).unwrap().solve().unwrap();
    assert_eq!(run.outcome, Outcome::Unsatisfiable);
    assert_eq!(run.winner, Some(0));
    assert_eq!(run.statuses, [Status::Complete, Status::LimitReached(Limit::Stopped)]);
    assert!(run.stats[1].nodes < 40_000_000, "stopped, not exhausted");
}

#[test]
fn every_worker_at_its_limit_is_a_limit() {
    let model = pigeonhole(12);
    let limited = SolveConfig::default()
        .with_propagation(Propagation::ForwardChecking)
        .with_limits(csp::Limits::none().with_nodes(100));
    let run = Portfolio::new(&model, vec![limited.clone(), limited]).unwrap().solve().unwrap();
    assert_eq!(run.outcome, Outcome::LimitReached(Limit::Nodes));
    assert_eq!((run.winner, run.found_by), (None, None));
    assert!(run.stats.iter().all(|stats| stats.nodes == 100));
}

#[test]
fn errors_are_typed() {
    let model = pigeonhole(4);
    assert_eq!(Portfolio::new(&model, Vec::new()).unwrap_err(), SolveError::NoWorkers);
    let refused = SolveConfig::default().with_propagation(Propagation::ForwardChecking).with_probing(Probing::Bivalue);
    let error = Portfolio::new(&model, vec![SolveConfig::default(), refused]).unwrap().solve().unwrap_err();
    assert!(matches!(error, SolveError::Unsupported { .. }), "{error:?}");
}

#[test]
fn diversify_starts_with_the_configuration_and_every_worker_is_accepted() {
    let model = pigeonhole(5);
    let bases = [
        SolveConfig::default(),
        "mac+learn+alternate+phase+matching+intersect+glucose+dynlbd+expire".parse().unwrap(),
        "mac+domwdeg+luby+nld".parse().unwrap(),
        "mac+probe".parse().unwrap(),
    ];
    for base in bases {
        let configs = portfolio::diversify(&base, 7);
        assert_eq!(configs.len(), 7);
        assert_eq!(configs[0], base);
        assert_ne!(configs[1].learning(), base.learning(), "{base}: worker 1 switches learning");
        assert!(configs[2].learning(), "{base}: worker 2 learns");
        for (i, config) in configs.iter().enumerate() {
            assert!(Solver::new(&model, config.clone()).is_ok(), "{base}: worker {i} {config} refused");
            assert!(configs[..i].iter().all(|other| other != config), "{base}: worker {i} repeats another");
        }
    }
}

/// A worker stopped while it propagates the shared bound (the signal is
/// read inside propagation) is left with no fixpoint: it must stop, not
/// take its variables, all fixed half-way, for a solution. The race is
/// timing's, so the optimisation portfolios run many times over.
#[test]
fn a_worker_stopped_half_way_reports_no_solution() {
    for _ in 0..10 {
        for seed in 0..120 {
            let (model, ..) = random_model(seed, true);
            for configs in portfolios() {
                // A non-solution fails the solver's own check (debug) or
                // this test's (release).
                let run = Portfolio::new(&model, configs).unwrap().optimize().unwrap();
                if let OptimizationOutcome::Optimal { solution, .. } = run.outcome {
                    assert!(model.is_solution(solution.values()), "seed {seed}");
                }
            }
        }
    }
}

/// A random model a little harder than [`random_model`]'s, for the shared
/// nogoods: 8 variables over 0..=3 (65,536 assignments, within the debug
/// check's reach), 20-28 random binary relations (each pair of values
/// forbidden with probability 0.3), sometimes a linear inequality; with
/// `objective`, a linear objective as [`random_model`]'s.
fn sharing_model(seed: u64, objective: bool) -> (Model, Vec<VarId>, Vec<i64>) {
    let mut rng = Rng::new(seed ^ 0x5eed);
    let mut model = Model::new();
    let n = 8;
    let x: Vec<VarId> = (0..n).map(|_| model.new_var(0..=3).unwrap()).collect();
    for _ in 0..20 + rng.below(9) as usize {
        let (a, b) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
        if a == b {
            continue;
        }
        let forbidden: Vec<bool> = (0..16).map(|_| rng.below(10) < 3).collect();
        model.predicate(&[x[a], x[b]], move |v| !forbidden[(v[0] * 4 + v[1]) as usize]).unwrap();
    }
    if rng.below(2) == 0 {
        let terms: Vec<(i64, VarId)> = x.iter().map(|&v| (1 + rng.below(3) as i64, v)).collect();
        model.linear(&terms, csp::Relation::Le, 10 + rng.below(8) as i64).unwrap();
    }
    let coefficients = if objective { random_objective(&mut rng, &mut model, &x) } else { Vec::new() };
    (model, x, coefficients)
}

/// Portfolios of two and three learning workers that restart after every
/// conflict or two (so they are often at the root, where they share), of
/// different orderings and seeds, and one with a worker that does not
/// learn (which takes no part).
fn sharing_portfolios() -> Vec<Vec<SolveConfig>> {
    let learning = SolveConfig::default().with_search(Search::Learning).with_restarts(Restarts::Luby { scale: 1 });
    vec![
        vec![learning.clone().with_var_order(VarOrder::DomWdeg), learning.clone().with_seed(7)],
        vec![
            learning.clone(),
            learning.clone().with_var_order(VarOrder::DomWdeg).with_restarts(Restarts::Luby { scale: 2 }),
            learning.clone().with_seed(3).with_value_order(csp::ValueOrder::Random),
        ],
        vec![learning.clone(), SolveConfig::default(), learning.with_var_order(VarOrder::DomWdeg)],
    ]
}

/// Every nogood shared: at most 32 literals, whatever the distance.
const SHARE_ALL: portfolio::Sharing = portfolio::Sharing { max_length: 32, max_lbd: 32 };

#[test]
fn learning_workers_that_share_nogoods_agree_with_brute_force_on_satisfaction_models() {
    let (mut solved, mut unsatisfiable, mut imported) = (0, 0, 0);
    for seed in 0..60 {
        let (model, x, _) = sharing_model(seed, false);
        let expected = brute_force(&model, &x, &[]);
        for configs in sharing_portfolios() {
            // Each worker checks every nogood it learns or imports against
            // the brute-force solutions: one that excludes a solution panics.
            let portfolio = Portfolio::new(&model, configs).unwrap().with_sharing(Some(SHARE_ALL)).check_nogoods(true);
            let run = portfolio.solve().unwrap();
            imported += run.summed_stats().nogoods_imported;
            match &run.outcome {
                Outcome::Solved(solution) => {
                    assert!(expected.contains(&solution.values().to_vec()), "seed {seed}: not a solution");
                    solved += 1;
                }
                Outcome::Unsatisfiable => {
                    assert!(expected.is_empty(), "seed {seed}: unsatisfiable, but brute force has {}", expected.len());
                    unsatisfiable += 1;
                }
                Outcome::LimitReached(limit) => panic!("seed {seed}: {limit} without limits"),
            }
        }
    }
    assert!(solved > 20 && unsatisfiable > 20, "a mix: {solved} solved, {unsatisfiable} unsatisfiable");
    // (Timing decides how many: on 180 runs some, whatever the load.)
    assert!(imported > 0, "the workers shared: {imported} nogoods imported");
}

#[test]
fn learning_workers_that_share_nogoods_find_the_optimum_of_one_solver() {
    let (mut optimal, mut unsatisfiable, mut imported) = (0, 0, 0);
    for seed in 0..60 {
        let (model, x, coefficients) = sharing_model(seed, true);
        let best = optimum(&model, &x, &coefficients, seed);
        for configs in sharing_portfolios() {
            let portfolio = Portfolio::new(&model, configs).unwrap().with_sharing(Some(SHARE_ALL)).check_nogoods(true);
            let run = portfolio.optimize().unwrap();
            imported += run.summed_stats().nogoods_imported;
            assert!(run.winner.is_some(), "seed {seed}: no limit, a worker proves the answer");
            match run.outcome {
                OptimizationOutcome::Optimal { solution, objective: value } => {
                    assert_eq!(Some(value), best, "seed {seed}");
                    assert!(model.is_solution(solution.values()));
                    optimal += 1;
                }
                OptimizationOutcome::Unsatisfiable => {
                    assert_eq!(best, None, "seed {seed}");
                    unsatisfiable += 1;
                }
                other => panic!("seed {seed}: {other:?} without limits"),
            }
        }
    }
    assert!(optimal > 20 && unsatisfiable > 10, "a mix: {optimal} optimal, {unsatisfiable} unsatisfiable");
    // (Timing decides how many: on 180 runs some, whatever the load.)
    assert!(imported > 0, "the workers shared: {imported} nogoods imported");
}

#[test]
fn learning_workers_that_share_nogoods_prove_pigeonhole_unsatisfiable() {
    // Without the matching, pigeonhole is hard for learning: 7 pigeons take
    // hundreds of conflicts, enough for many restarts and exchanges, and
    // 6^7 assignments are within the debug check's reach.
    let model = pigeonhole(7);
    // (The third portfolio's worker that does not learn refutes it first.
    // Whether a worker imports anything depends on the threads' timing: a
    // unit test of the module `share` checks imports without threads.)
    for configs in sharing_portfolios().into_iter().take(2) {
        for _ in 0..3 {
            let portfolio = Portfolio::new(&model, configs.clone()).unwrap().with_sharing(Some(SHARE_ALL));
            let run = portfolio.check_nogoods(true).solve().unwrap();
            assert_eq!(run.outcome, Outcome::Unsatisfiable);
            let stats = run.summed_stats();
            assert!(stats.nogoods_exported > 0, "the winner restarts and publishes: {stats}");
        }
    }
}

#[test]
fn without_sharing_no_nogood_moves_and_one_learner_shares_with_nobody() {
    let model = pigeonhole(7);
    let configs = sharing_portfolios().swap_remove(0);
    let run = Portfolio::new(&model, configs.clone()).unwrap().solve().unwrap();
    let stats = run.summed_stats();
    assert_eq!((stats.nogoods_exported, stats.nogoods_imported), (0, 0), "sharing is off by default");
    let alone = vec![configs[0].clone(), SolveConfig::default()];
    let run = Portfolio::new(&model, alone).unwrap().with_sharing(Some(SHARE_ALL)).solve().unwrap();
    let stats = run.summed_stats();
    assert_eq!((stats.nogoods_exported, stats.nogoods_imported), (0, 0), "one learner: nobody to share with");
}
