//! The fast paths that switch on by size, reached on small models and
//! counted against brute force: the incremental long sum (from two terms,
//! `SolveConfig::long_sums_from`), the queue's sweeps from the first call
//! of every fixpoint (`SolveConfig::slow_fixpoint`), the ordering queue of
//! dom/wdeg (checked against the pass at every choice in debug builds), and
//! all-different over interval domains (bounds consistency and value
//! elimination, as past 2^20 edges). Random models mix sums (repeated
//! variables, coefficients of both signs up to about 2^62, values near
//! ±2^62, every relation, right-hand sides beyond `i64`, plain or reified),
//! all-differents and tables; each is solved under every propagation level,
//! with and without learning, restarts and other orders, and must give the
//! brute-force solutions exactly (the set), and the brute-force optimum of
//! an objective. `CSP_TEST_SEED` draws other models, `CSP_TEST_SCALE` more.

use std::collections::BTreeSet;

use csp::rng::Rng;
use csp::{Domain, LinearExpr, Model, ModelError, OptimizationOutcome, Relation, SolveConfig, Solver, VarId};

const RELATIONS: [Relation; 6] = [Relation::Eq, Relation::Ne, Relation::Le, Relation::Lt, Relation::Ge, Relation::Gt];

/// The configurations every model is solved under, each with the long sums
/// from two terms, and with sweeps from the first call or not.
const CONFIGS: [&str; 12] = [
    "bt",
    "fc",
    "mac",
    "mac+domwdeg+binary",
    "mac+domwdeg+matching+luby=1+nld",
    "mac+bounds+split",
    "mac-cbj",
    "mac+learn",
    "mac+learn+domwdeg",
    "mac+learn+phase+luby=1+target+rephase=1+stable=1",
    "mac+learn+vsids+matching+luby=1",
    "fc-cbj+domwdeg",
];

/// Largest value near the ends of the value range.
const EDGE: i64 = (1 << 62) - 4;

/// A variable's domain: a list with holes or a range.
fn domain(rng: &mut Rng) -> Domain {
    let base = match rng.below(5) {
        0 => EDGE - 3,
        1 => -EDGE,
        _ => -2,
    };
    if rng.below(3) == 0 {
        let low = base + rng.below(3) as i64;
        Domain::range(low, low + 1 + rng.below(3) as i64)
    } else {
        let mut values: Vec<i64> = (0..6).map(|v| base + v).collect();
        rng.shuffle(&mut values);
        values.truncate(2 + rng.below(2) as usize);
        Domain::values(values)
    }
}

fn coefficient(rng: &mut Rng) -> i64 {
    let magnitude = match rng.below(8) {
        0 => (1 << 62) - rng.below(3) as i64,
        1 => (1 << 61) + rng.below(3) as i64,
        _ => 1 + rng.below(3) as i64,
    };
    if rng.below(2) == 0 { -magnitude } else { magnitude }
}

fn pick(rng: &mut Rng, vars: &[VarId]) -> VarId {
    vars[rng.below(vars.len() as u64) as usize]
}

/// A random model of 3 to 6 variables and 1 to 6 constraints (or chains), posted from
/// `seed` (the same model at every call).
fn model(seed: u64) -> Model {
    let mut rng = Rng::new(seed);
    let mut model = Model::new();
    let vars: Vec<VarId> = (0..3 + rng.below(4)).map(|_| model.new_var(domain(&mut rng)).unwrap()).collect();
    for _ in 0..1 + rng.below(6) {
        match rng.below(7) {
            // A chain of differences, posted in a random order: what the
            // queue's sweeps are for.
            6 => {
                let mut order = vars.clone();
                rng.shuffle(&mut order);
                let mut links: Vec<(VarId, VarId)> = order.windows(2).map(|w| (w[0], w[1])).collect();
                rng.shuffle(&mut links);
                for (x, y) in links {
                    let gap = rng.below(3) as i64 - 1;
                    model.add((1 * x - 1 * y).le(LinearExpr::constant(gap))).unwrap();
                }
            }
            0..=2 => {
                // Repeated variables allowed; the right-hand side near the
                // sum of a random assignment (often beyond `i64`).
                let terms: Vec<(i64, VarId)> =
                    (0..2 + rng.below(5)).map(|_| (coefficient(&mut rng), pick(&mut rng, &vars))).collect();
                let mut rhs = 0i128;
                for &(a, x) in &terms {
                    let values: Vec<i64> = model.domain(x).unwrap().iter().collect();
                    rhs += i128::from(a) * i128::from(values[rng.below(values.len() as u64) as usize]);
                }
                rhs += i128::from(rng.below(3) as i64 - 1);
                let relation = RELATIONS[rng.below(6) as usize];
                let sum: LinearExpr = terms.iter().map(|&(a, x)| a * x).sum();
                let condition = sum.compare(relation, LinearExpr::wide_constant(rhs));
                let posted = match rng.below(4) {
                    0 => model.reified(condition).map(|_| ()),
                    1 => {
                        let b = model.new_bool();
                        model.implies(b, condition).map(|_| ())
                    }
                    _ => model.add(condition).map(|_| ()),
                };
                // A sum beyond what the solver represents is a typed refusal.
                if let Err(error) = posted {
                    assert!(
                        matches!(error, ModelError::LinearOverflow { .. } | ModelError::ValueOutOfRange { .. }),
                        "{error:?}"
                    );
                }
            }
            3 | 4 => {
                let mut scope = vars.clone();
                rng.shuffle(&mut scope);
                scope.truncate(2 + rng.below(vars.len() as u64 - 1) as usize);
                model.all_different(&scope).unwrap();
            }
            _ => {
                let mut scope = vars.clone();
                rng.shuffle(&mut scope);
                scope.truncate(2 + rng.below(2) as usize);
                let domains: Vec<Vec<i64>> = scope.iter().map(|&x| model.domain(x).unwrap().iter().collect()).collect();
                let rows: Vec<Vec<i64>> = (0..1 + rng.below(8))
                    .map(|_| domains.iter().map(|d| d[rng.below(d.len() as u64) as usize]).collect())
                    .collect();
                model.table(&scope, &rows).unwrap();
            }
        }
    }
    model
}

/// Every assignment of the model's domains that it accepts.
fn brute_force(model: &Model) -> BTreeSet<Vec<i64>> {
    let domains: Vec<Vec<i64>> = model.vars().map(|x| model.domain(x).unwrap().iter().collect()).collect();
    let mut solutions = BTreeSet::new();
    csp::testing::for_each_assignment(&domains, |values| {
        if model.is_solution(values) {
            solutions.insert(values.to_vec());
        }
    });
    solutions
}

/// The configurations of [`CONFIGS`] with the fast paths from small sizes:
/// long sums from two terms, sweeps from the first call or not, and ranges
/// wider than two values as intervals or not.
fn configs() -> Vec<SolveConfig> {
    let mut configs = Vec::new();
    for (k, text) in CONFIGS.iter().enumerate() {
        let mut config: SolveConfig = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        config.long_sums_from = Some(2);
        config.seed = k as u64;
        configs.push(config.clone());
        config.slow_fixpoint = Some(1);
        if k % 2 == 0 {
            config.bitset_limit = 2;
        }
        configs.push(config);
    }
    configs
}

fn searchable(model: &Model, config: &SolveConfig) -> bool {
    Solver::new(model, config.clone()).is_ok()
}

#[test]
fn small_models_through_the_fast_paths_give_the_brute_force_solutions() {
    let seed = csp::testing::seed(38);
    let configs = configs();
    for case in 0..csp::testing::scaled(500) as u64 {
        let model = model(seed.wrapping_mul(1_000_003).wrapping_add(case));
        let expected = brute_force(&model);
        let runs = configs.iter().filter(|c| searchable(&model, c));
        assert!(runs.count() >= configs.len() / 2, "case {case}: most configurations refused");
        for config in configs.iter().filter(|c| searchable(&model, c)) {
            let mut solver = Solver::new(&model, config.clone()).unwrap();
            let mut found = BTreeSet::new();
            for solution in solver.solutions() {
                assert!(model.is_solution(solution.values()), "case {case} under {config}: a non-solution");
                assert!(found.insert(solution.values().to_vec()), "case {case} under {config}: a solution twice");
            }
            assert_eq!(found, expected, "case {case} (seed {seed}) under {config}: {model:?}");
        }
    }
}

#[test]
fn small_models_through_the_fast_paths_reach_the_brute_force_optimum() {
    let seed = csp::testing::seed(3838);
    let configs = configs();
    for case in 0..csp::testing::scaled(250) as u64 {
        let model_seed = seed.wrapping_mul(1_000_003).wrapping_add(case);
        let plain = model(model_seed);
        let mut model = model(model_seed);
        let mut rng = Rng::new(model_seed ^ 0x5eed);
        let vars: Vec<VarId> = model.vars().collect();
        let terms: Vec<(i64, VarId)> =
            (0..1 + rng.below(4)).map(|_| (rng.below(7) as i64 - 3, pick(&mut rng, &vars))).collect();
        let value_of = |values: &[i64]| -> i128 {
            terms.iter().map(|&(a, x)| i128::from(a) * i128::from(values[x.index()])).sum()
        };
        let maximize = rng.below(2) == 0;
        let objectives = brute_force(&plain).into_iter().map(|v| value_of(&v));
        let best = if maximize { objectives.max() } else { objectives.min() };
        let expression: LinearExpr = terms.iter().map(|&(a, x)| a * x).sum();
        let posted = if maximize { model.maximize(expression) } else { model.minimize(expression) };
        if let Err(error) = posted {
            assert!(matches!(error, ModelError::ObjectiveOutOfRange { .. }), "{error:?}");
            continue;
        }
        for config in configs.iter().filter(|c| searchable(&model, c)) {
            let mut solver = Solver::new(&model, config.clone()).unwrap();
            match solver.optimize() {
                OptimizationOutcome::Optimal { objective, .. } => {
                    assert_eq!(Some(i128::from(objective)), best, "case {case} under {config}: {model:?}")
                }
                OptimizationOutcome::Unsatisfiable => assert_eq!(best, None, "case {case} under {config}"),
                other => panic!("case {case} under {config}: {other:?}"),
            }
        }
    }
}

/// Sums in a cycle that converges one value per call (`a - b <= -1`,
/// `b - a - c <= k`), over ranges of a hundred values or more: past
/// `4n + 64` calls on one branch the incremental sum stops keeping its
/// points and recomputes until a backtrack brings one back; the decision
/// on `c` makes some branches fail slowly and others hold. Counted against
/// brute force.
#[test]
fn slowly_converging_long_sums_give_the_brute_force_solutions() {
    let mut rng = Rng::new(csp::testing::seed(3839));
    let configs = configs();
    for case in 0..csp::testing::scaled(6) {
        let range = 100 + rng.below(60) as i64;
        let k = rng.below(3) as i64 - 1;
        let mut model = Model::new();
        let a = model.new_var(Domain::range(0, range)).unwrap();
        let b = model.new_var(Domain::range(0, range)).unwrap();
        let c = model.new_var(Domain::values([0, 1 + rng.below(3) as i64])).unwrap();
        model.add((1 * a - 1 * b).le(LinearExpr::constant(-1))).unwrap();
        model.add((1 * b - 1 * a - 1 * c).le(LinearExpr::constant(k))).unwrap();
        let expected = brute_force(&model);
        for config in configs.iter().filter(|c| searchable(&model, c)) {
            let mut solver = Solver::new(&model, config.clone()).unwrap();
            let found: BTreeSet<Vec<i64>> = solver.solutions().map(|s| s.values().to_vec()).collect();
            assert_eq!(found, expected, "case {case} (range {range}, k {k}) under {config}");
        }
    }
}
