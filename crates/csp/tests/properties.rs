//! Property tests: on small random CSPs, every configuration finds exactly the
//! solutions that brute force finds, and every solution it returns satisfies
//! every constraint when checked independently of the propagators.

use std::collections::BTreeSet;

use csp::{
    AllDifferentStrength, Branching, Domain, Model, Propagation, Relation, Restarts, Search, SolveConfig, Solver,
    ValueOrder, VarId, VarOrder,
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
    /// `circuit` (or `subcircuit` when true) over nodes numbered from the base.
    Circuit(Vec<usize>, i64, bool),
    /// `inverse(f, f_base, invf, invf_base)`.
    Inverse(Vec<usize>, i64, Vec<usize>, i64),
    /// `lex_less` (true) or `lex_lesseq` of two vectors, which may share variables.
    Lex(Vec<usize>, Vec<usize>, bool),
    /// `increasing`, strict or not (first flag), or decreasing (second flag).
    Increasing(Vec<usize>, bool, bool),
    /// `cumulative` with constant durations and uses (some near 2^62) and capacity.
    Cumulative(Vec<usize>, Vec<i64>, Vec<i64>, i64),
    /// `disjunctive`, strict or not, with constant durations (some near 2^62).
    Disjunctive(Vec<usize>, Vec<i64>, bool),
}

#[derive(Clone, Debug)]
struct RandomCsp {
    domains: Vec<Vec<i64>>,
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
        (1..=n)
            .prop_flat_map(move |k| (distinct(n, k), -3i64..=1, any::<bool>()))
            .prop_map(|(vars, base, sub)| Spec::Circuit(vars, base, sub)),
        (1..=n.min(3))
            .prop_flat_map(move |k| (distinct(n, k), -3i64..=1, distinct(n, k), -3i64..=1))
            .prop_map(|(f, f_base, invf, invf_base)| Spec::Inverse(f, f_base, invf, invf_base)),
        (prop::collection::vec(var.clone(), 1..=3), prop::collection::vec(var.clone(), 0..=3), any::<bool>())
            .prop_map(|(x, y, strict)| Spec::Lex(x, y, strict)),
        (prop::collection::vec(var.clone(), 1..=4), any::<bool>(), any::<bool>())
            .prop_map(|(vars, strict, decreasing)| Spec::Increasing(vars, strict, decreasing)),
        (1..=n.min(3)).prop_flat_map(move |k| {
            (distinct(n, k), prop::collection::vec(time(), k), prop::collection::vec(time(), k), time())
                .prop_map(|(vars, durations, uses, capacity)| Spec::Cumulative(vars, durations, uses, capacity))
        }),
        (1..=n.min(4)).prop_flat_map(move |k| {
            (distinct(n, k), prop::collection::vec(time(), k), any::<bool>())
                .prop_map(|(vars, durations, strict)| Spec::Disjunctive(vars, durations, strict))
        }),
    ]
}

/// A duration, use or capacity: small (0 included, and a negative one that
/// the constraint rejects) or near 2^62, where sums pass the 64-bit range.
fn time() -> impl Strategy<Value = i64> {
    prop_oneof![4 => -1i64..=3, 1 => Just(csp::MAX_VALUE), 1 => Just(csp::MAX_VALUE - 1)]
}

fn random_csp() -> impl Strategy<Value = RandomCsp> {
    (1usize..=5).prop_flat_map(|n| {
        (prop::collection::vec(domain(), n), prop::collection::vec(spec(n), 0..=5))
            .prop_map(|(domains, constraints)| RandomCsp { domains, constraints })
    })
}

fn build(csp: &RandomCsp) -> Model {
    let mut model = Model::new();
    let vars: Vec<VarId> = csp.domains.iter().map(|d| model.new_var(d.clone()).unwrap()).collect();
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
                    .predicate(&scope, |t| (t.iter().sum::<i64>() + t[0] * t[t.len() - 1]).rem_euclid(3) == 1)
                    .unwrap();
            }
            Spec::Circuit(vs, base, sub) => {
                let scope: Vec<VarId> = vs.iter().map(|&i| vars[i]).collect();
                if *sub { model.subcircuit(&scope, *base) } else { model.circuit(&scope, *base) }.unwrap();
            }
            Spec::Inverse(f, f_base, invf, invf_base) => {
                let f: Vec<VarId> = f.iter().map(|&i| vars[i]).collect();
                let invf: Vec<VarId> = invf.iter().map(|&i| vars[i]).collect();
                model.inverse(&f, *f_base, &invf, *invf_base).unwrap();
            }
            Spec::Lex(x, y, strict) => {
                let x: Vec<VarId> = x.iter().map(|&i| vars[i]).collect();
                let y: Vec<VarId> = y.iter().map(|&i| vars[i]).collect();
                if *strict { model.lex_less(&x, &y) } else { model.lex_lesseq(&x, &y) }.unwrap();
            }
            Spec::Increasing(vs, strict, decreasing) => {
                let scope: Vec<VarId> = vs.iter().map(|&i| vars[i]).collect();
                match (strict, decreasing) {
                    (false, false) => model.increasing(&scope),
                    (true, false) => model.strictly_increasing(&scope),
                    (false, true) => model.decreasing(&scope),
                    (true, true) => model.strictly_decreasing(&scope),
                }
                .unwrap();
            }
            Spec::Cumulative(vs, durations, uses, capacity) => {
                let starts: Vec<VarId> = vs.iter().map(|&i| vars[i]).collect();
                model.cumulative(&starts, durations, uses, *capacity).unwrap();
            }
            Spec::Disjunctive(vs, durations, strict) => {
                let starts: Vec<VarId> = vs.iter().map(|&i| vars[i]).collect();
                if *strict {
                    model.disjunctive_strict(&starts, durations)
                } else {
                    model.disjunctive(&starts, durations)
                }
                .unwrap();
            }
        }
    }
    model
}

/// Every assignment of the domains that `Model::is_solution` accepts.
fn brute_force(model: &Model) -> BTreeSet<Vec<i64>> {
    let domains: Vec<Vec<i64>> = model.vars().map(|v| model.domain(v).iter().collect()).collect();
    let mut solutions = BTreeSet::new();
    let mut odometer = vec![0usize; domains.len()];
    loop {
        let values: Vec<i64> = odometer.iter().zip(&domains).map(|(&i, d)| d[i]).collect();
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
        let expected = brute_force(&model);
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
