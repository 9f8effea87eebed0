//! Property tests: on small random CSPs, every configuration finds exactly the
//! solutions that brute force finds, and every solution it returns satisfies
//! every constraint when checked independently of the propagators. Some
//! models have wide variables (`-2^62..=2^62`, intervals whatever the bitset
//! limit), each equal to a small variable plus an offset, so that brute force
//! stays exact over the few values they can reach; and the same models are
//! solved with every range an interval. With an objective, branch and bound
//! finds the brute-force optimum under every configuration.

use std::collections::BTreeSet;

use csp::{
    AllDifferentStrength, Branching, Domain, MAX_VALUE, Model, OptimizationOutcome, Propagation, Relation, Restarts,
    Search, SolveConfig, Solver, ValueOrder, VarId, VarOrder,
};
use proptest::prelude::*;

/// A constraint of a random model, over variable indices.
#[derive(Clone, Debug)]
enum Spec {
    Equal(usize, usize),
    NotEqual(usize, usize, i64),
    Less(usize, usize, bool),
    AllDifferent(Vec<usize>, Vec<i64>),
    Linear(Vec<(i64, usize)>, Relation, i64),
    Table(Vec<usize>, Vec<Vec<i64>>),
    /// `(sum + first * last) % 3 == 1`, checked generically.
    Predicate(Vec<usize>),
}

#[derive(Clone, Debug)]
struct RandomCsp {
    domains: Vec<Vec<i64>>,
    /// Wide variables, after the small ones: each equals a small variable
    /// plus an offset.
    wide: Vec<(usize, i64)>,
    constraints: Vec<Spec>,
}

fn domain() -> impl Strategy<Value = Vec<i64>> {
    prop::collection::btree_set(-3i64..=4, 1..=5).prop_map(|set| set.into_iter().collect())
}

fn distinct(n: usize, k: usize) -> impl Strategy<Value = Vec<usize>> {
    Just((0..n).collect::<Vec<usize>>()).prop_shuffle().prop_map(move |v| v.into_iter().take(k).collect())
}

fn spec(n: usize) -> impl Strategy<Value = Spec> {
    let var = 0..n;
    prop_oneof![
        (var.clone(), var.clone()).prop_map(|(a, b)| Spec::Equal(a, b)),
        (var.clone(), var.clone(), -2i64..=2).prop_map(|(a, b, c)| Spec::NotEqual(a, b, c)),
        (var.clone(), var.clone(), any::<bool>()).prop_map(|(a, b, s)| Spec::Less(a, b, s)),
        (2..=n.max(2)).prop_flat_map(move |k| {
            let k = k.min(n);
            (distinct(n, k), prop::collection::vec(-2i64..=2, k))
                .prop_map(|(vars, offsets)| Spec::AllDifferent(vars, offsets))
        }),
        (
            prop::collection::vec((-3i64..=3, var.clone()), 1..=3),
            prop_oneof![Just(Relation::Eq), Just(Relation::Le), Just(Relation::Ge)],
            -6i64..=6
        )
            .prop_map(|(terms, rel, rhs)| Spec::Linear(terms, rel, rhs)),
        (1..=n.min(3)).prop_flat_map(move |k| {
            (distinct(n, k), prop::collection::vec(prop::collection::vec(-3i64..=4, k), 0..8))
                .prop_map(|(vars, rows)| Spec::Table(vars, rows))
        }),
        (1..=n.min(3)).prop_flat_map(move |k| distinct(n, k)).prop_map(Spec::Predicate),
    ]
}

fn random_csp() -> impl Strategy<Value = RandomCsp> {
    (1usize..=5).prop_flat_map(|n| {
        (prop::collection::vec(domain(), n), prop::collection::vec(spec(n), 0..=5))
            .prop_map(|(domains, constraints)| RandomCsp { domains, wide: Vec::new(), constraints })
    })
}

/// Offsets of the wide variables: small ones, and some that put their values
/// near ±2^61 (beyond every small domain, still far from the range's ends).
fn wide_offset() -> impl Strategy<Value = i64> {
    prop_oneof![-3i64..=3, Just(1i64 << 61), Just(-(1i64 << 61) + 7)]
}

/// A random CSP with up to two wide variables among the scopes.
fn random_wide_csp() -> impl Strategy<Value = RandomCsp> {
    (1usize..=4, 0usize..=2).prop_flat_map(|(n, k)| {
        (
            prop::collection::vec(domain(), n),
            prop::collection::vec((0..n, wide_offset()), k),
            prop::collection::vec(spec(n + k), 0..=5),
        )
            .prop_map(|(domains, wide, constraints)| RandomCsp { domains, wide, constraints })
    })
}

fn build(csp: &RandomCsp) -> Model {
    let mut model = Model::new();
    let mut vars: Vec<VarId> = csp.domains.iter().map(|d| model.new_var(d.clone()).unwrap()).collect();
    for &(of, offset) in &csp.wide {
        let wide = model.new_var(-MAX_VALUE..=MAX_VALUE).unwrap();
        model.linear(&[(1, wide), (-1, vars[of])], Relation::Eq, offset).unwrap();
        vars.push(wide);
    }
    for spec in &csp.constraints {
        match spec {
            Spec::Equal(a, b) => {
                model.equal(vars[*a], vars[*b]).unwrap();
            }
            Spec::NotEqual(a, b, c) => {
                model.not_equal_offset(vars[*a], vars[*b], *c).unwrap();
            }
            Spec::Less(a, b, true) => {
                model.less_than(vars[*a], vars[*b]).unwrap();
            }
            Spec::Less(a, b, false) => {
                model.less_or_equal(vars[*a], vars[*b]).unwrap();
            }
            Spec::AllDifferent(vs, offsets) => {
                let scope: Vec<VarId> = vs.iter().map(|&i| vars[i]).collect();
                model.all_different_offset(&scope, offsets).unwrap();
            }
            Spec::Linear(terms, relation, rhs) => {
                let terms: Vec<(i64, VarId)> = terms.iter().map(|&(c, i)| (c, vars[i])).collect();
                model.linear(&terms, *relation, *rhs).unwrap();
            }
            Spec::Table(vs, rows) => {
                let scope: Vec<VarId> = vs.iter().map(|&i| vars[i]).collect();
                model.table(&scope, rows).unwrap();
            }
            Spec::Predicate(vs) => {
                let scope: Vec<VarId> = vs.iter().map(|&i| vars[i]).collect();
                model
                    .predicate(&scope, |t| {
                        let sum: i128 = t.iter().map(|&v| i128::from(v)).sum();
                        (sum + i128::from(t[0]) * i128::from(t[t.len() - 1])).rem_euclid(3) == 1
                    })
                    .unwrap();
            }
        }
    }
    model
}

/// Every assignment of the domains that `Model::is_solution` accepts: the
/// small variables enumerated, each wide one their value plus its offset.
fn brute_force(csp: &RandomCsp, model: &Model) -> BTreeSet<Vec<i64>> {
    let domains = &csp.domains;
    let mut solutions = BTreeSet::new();
    let mut odometer = vec![0usize; domains.len()];
    loop {
        let mut values: Vec<i64> = odometer.iter().zip(domains).map(|(&i, d)| d[i]).collect();
        for &(of, offset) in &csp.wide {
            values.push(values[of] + offset);
        }
        if model.is_solution(&values) {
            solutions.insert(values);
        }
        let mut k = domains.len();
        loop {
            if k == 0 {
                return solutions;
            }
            k -= 1;
            odometer[k] += 1;
            if odometer[k] < domains[k].len() {
                break;
            }
            odometer[k] = 0;
        }
    }
}

fn configs() -> Vec<SolveConfig> {
    let mut configs = Vec::new();
    for &propagation in Propagation::ALL {
        for &var_order in VarOrder::ALL {
            for &value_order in ValueOrder::ALL {
                for &strength in AllDifferentStrength::ALL {
                    for root in [false, true] {
                        for backjumping in [false, true] {
                            let search = if backjumping {
                                // Backjumping is implemented for bt and fc only.
                                let Some(search) = Search::backjumping(propagation) else { continue };
                                search
                            } else {
                                Search::chronological(propagation)
                            };
                            let mut config = SolveConfig::default()
                                .with_search(search)
                                .with_var_order(var_order)
                                .with_value_order(value_order)
                                .with_all_different(strength)
                                .with_seed(11);
                            config.root_arc_consistency = root;
                            config.arc_consistency =
                                if root { csp::ArcConsistency::Ac2001 } else { csp::ArcConsistency::Ac3 };
                            // Binary branching and restarts (every few
                            // failures: each run restarts often) on top.
                            if !backjumping {
                                let binary = config.clone().with_branching(Branching::Binary);
                                configs.push(binary.clone().with_restarts(Restarts::Luby { scale: 2 }));
                                configs.push(binary);
                            }
                            configs.push(config.clone().with_restarts(Restarts::Luby { scale: 1 }));
                            configs.push(config);
                        }
                    }
                }
            }
        }
    }
    configs
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn every_configuration_finds_exactly_the_brute_force_solutions(csp in random_csp()) {
        let model = build(&csp);
        let expected = brute_force(&csp, &model);
        for config in configs() {
            let mut solver = Solver::new(&model, config.clone()).unwrap();
            let mut found = BTreeSet::new();
            for solution in solver.solutions() {
                prop_assert!(model.is_solution(solution.values()), "{config:?} returned a non-solution {:?}", solution.values());
                prop_assert!(found.insert(solution.values().to_vec()), "{config:?} returned a solution twice");
            }
            prop_assert_eq!(&found, &expected, "{:?}", config);
            let count = solver.count(None);
            prop_assert_eq!(count.solutions, expected.len() as u64);
            prop_assert!(count.is_complete());
            prop_assert_eq!(solver.solve().is_solved(), !expected.is_empty());
        }
    }
}

/// A smaller set of configurations, each with the default bitset limit and
/// with every range an interval (limit 2: wider ranges are intervals). Plain
/// backtracking narrows nothing, so over a wide variable it would try its
/// 2^63 values one by one: it establishes arc consistency at the root.
fn interval_configs() -> Vec<SolveConfig> {
    let mut configs = Vec::new();
    for &propagation in Propagation::ALL {
        for branching in [Branching::Enumerate, Branching::Binary] {
            for (var_order, value_order) in
                [(VarOrder::Mrv, ValueOrder::Ascending), (VarOrder::DomWdeg, ValueOrder::Random)]
            {
                let config = SolveConfig::default()
                    .with_search(Search::Chronological { propagation, branching })
                    .with_var_order(var_order)
                    .with_value_order(value_order)
                    .with_seed(5);
                configs.push(config.clone().with_restarts(Restarts::Luby { scale: 1 }));
                configs.push(config.with_all_different(AllDifferentStrength::Bounds));
            }
        }
        if let Some(search) = Search::backjumping(propagation) {
            configs.push(SolveConfig::default().with_search(search).with_var_order(VarOrder::DomWdeg));
        }
    }
    for config in &mut configs {
        config.root_arc_consistency = config.propagation() == Propagation::None;
    }
    configs.iter().flat_map(|c| [c.clone(), c.clone().with_bitset_limit(2)]).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn wide_and_interval_domains_find_exactly_the_brute_force_solutions(csp in random_wide_csp()) {
        let model = build(&csp);
        let expected = brute_force(&csp, &model);
        for config in interval_configs() {
            let mut solver = Solver::new(&model, config.clone()).unwrap();
            let mut found = BTreeSet::new();
            for solution in solver.solutions() {
                prop_assert!(model.is_solution(solution.values()), "{config:?} returned a non-solution {:?}", solution.values());
                prop_assert!(found.insert(solution.values().to_vec()), "{config:?} returned a solution twice");
            }
            prop_assert_eq!(&found, &expected, "{:?}", config);
        }
    }

    #[test]
    fn branch_and_bound_finds_the_brute_force_optimum(
        csp in random_wide_csp(),
        objective in prop::collection::vec(-3i64..=3, 1..=3),
        maximize in any::<bool>(),
    ) {
        let mut model = build(&csp);
        // The objective: a weighted sum of the first small variables, or (when
        // its first weight is 0) the first wide variable itself, an interval.
        let vars: Vec<VarId> = model.vars().collect();
        let n = csp.domains.len();
        let terms: Vec<(i64, VarId)> = match (objective[0], csp.wide.is_empty()) {
            (0, false) => vec![(1, vars[n])],
            _ => objective.iter().zip(&vars[..n]).map(|(&a, &x)| (a, x)).collect(),
        };
        let value_of = |values: &[i64]| -> i64 { terms.iter().map(|&(a, x)| a * values[x.index()]).sum() };
        if let [(1, x)] = terms[..] {
            if maximize { model.maximize(x).unwrap() } else { model.minimize(x).unwrap() };
        } else if maximize {
            model.maximize_linear(&terms).unwrap();
        } else {
            model.minimize_linear(&terms).unwrap();
        }
        let objectives: Vec<i64> = brute_force(&csp, &build(&csp)).iter().map(|v| value_of(v)).collect();
        let best = if maximize { objectives.iter().max() } else { objectives.iter().min() }.copied();
        for config in interval_configs() {
            let mut solver = Solver::new(&model, config.clone()).unwrap();
            let mut last: Option<i64> = None;
            for improvement in solver.improvements() {
                prop_assert!(model.is_solution(improvement.solution.values()), "{config:?}");
                prop_assert_eq!(improvement.objective, value_of(improvement.solution.values()), "{:?}", config);
                if let Some(last) = last {
                    prop_assert!(if maximize { improvement.objective > last } else { improvement.objective < last }, "{config:?} did not improve");
                }
                last = Some(improvement.objective);
            }
            prop_assert_eq!(last, best, "{:?}", config);
            match solver.optimize() {
                OptimizationOutcome::Optimal { objective, .. } => prop_assert_eq!(Some(objective), best, "{:?}", config),
                OptimizationOutcome::Unsatisfiable => prop_assert_eq!(best, None, "{:?}", config),
                other => prop_assert!(false, "{config:?}: {other:?}"),
            }
            prop_assert_eq!(solver.stats().solutions > 0, best.is_some());
        }
    }
}

#[test]
fn domains_of_every_size_work() {
    // More than 64 and more than 1,000 values, and a sparse list with holes.
    for domain in [Domain::range(-50, 49), Domain::range(1, 1500), Domain::values([-3, 0, 2, 7, 1000, 5000])] {
        let mut model = Model::new();
        let x = model.new_var(domain.clone()).unwrap();
        let y = model.new_var(domain.clone()).unwrap();
        model.less_than(x, y).unwrap();
        model.linear(&[(1, x), (1, y)], Relation::Eq, domain.max().unwrap() + domain.min().unwrap()).unwrap();
        let n = domain.size();
        let count = Solver::new(&model, SolveConfig::default()).unwrap().count(None);
        // Pairs v < w with v + w = min + max: one per value below the middle.
        let expected = domain.iter().filter(|&v| {
            let w = domain.max().unwrap() + domain.min().unwrap() - v;
            v < w && domain.contains(w)
        });
        assert_eq!(count.solutions, expected.count() as u64, "domain of {n} values");
    }
}
