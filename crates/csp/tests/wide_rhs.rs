//! Linear sums whose right-hand side or partial sums pass `±2^62`: values
//! and coefficients near `2^62` make sums near `2^124`, and a right-hand
//! side there (or past every sum) is computed exactly, never refused. Every
//! posting (plain, reified, half-reified), every propagation level, with and
//! without learning (its nogoods checked), against a brute force that sums
//! in `i128` on its own, not through the model.

use csp::{Branching, LinearExpr, MAX_VALUE, Model, Propagation, Relation, Search, SolveConfig, Solver, VarId};
use proptest::prelude::*;

const RELATIONS: [Relation; 6] = [Relation::Eq, Relation::Ne, Relation::Le, Relation::Lt, Relation::Ge, Relation::Gt];

/// How the sum is posted.
#[derive(Clone, Copy, Debug)]
enum Posting {
    Plain,
    /// `b <-> sum relation rhs`.
    Reified,
    /// `b -> sum relation rhs`.
    Implied,
}

#[derive(Clone, Debug)]
struct Case {
    domains: Vec<Vec<i64>>,
    /// `(coefficient, variable)`; a variable may repeat.
    terms: Vec<(i64, usize)>,
    relation: Relation,
    rhs: i128,
    posting: Posting,
}

fn domain() -> impl Strategy<Value = Vec<i64>> {
    let values = [-MAX_VALUE, -MAX_VALUE + 1, -1, 0, 1, 2, MAX_VALUE - 1, MAX_VALUE];
    prop::collection::btree_set(prop::sample::select(values.to_vec()), 1..=3).prop_map(|s| s.into_iter().collect())
}

fn coefficient() -> impl Strategy<Value = i64> {
    let extremes = [-MAX_VALUE, -MAX_VALUE + 1, MAX_VALUE - 1, MAX_VALUE];
    prop_oneof![2 => -2i64..=2, 3 => prop::sample::select(extremes.to_vec())]
}

/// The sum of `terms` at `values`, in `i128`.
fn sum(terms: &[(i64, usize)], values: &[i64]) -> i128 {
    terms.iter().map(|&(a, i)| i128::from(a) * i128::from(values[i])).sum()
}

fn case() -> impl Strategy<Value = Case> {
    (prop::collection::vec(domain(), 1..=3), 0usize..3)
        .prop_flat_map(|(domains, posting)| {
            let n = domains.len();
            let terms = prop::collection::vec((coefficient(), 0..n), 1..=3);
            // The value of the sum at some assignment, moved by a little (so
            // that equations hold now and then), or a far constant.
            let picks = domains.iter().map(|d| 0..d.len()).collect::<Vec<_>>();
            let far = [1i128 << 126, -(1i128 << 126), i128::MAX, -i128::MAX, (1 << 125) + 1, -(1 << 125) - 2];
            let shift = prop_oneof![4 => -2i128..=2, 1 => prop::sample::select(far.to_vec())];
            (Just(domains), terms, prop::sample::select(RELATIONS.to_vec()), picks, shift, Just(posting))
        })
        .prop_map(|(domains, terms, relation, picks, shift, posting)| {
            let values: Vec<i64> = picks.iter().zip(&domains).map(|(&i, d)| d[i]).collect();
            // At least -i128::MAX: `expr - rhs` negates it.
            let rhs = sum(&terms, &values).saturating_add(shift).max(-i128::MAX);
            let posting = [Posting::Plain, Posting::Reified, Posting::Implied][posting];
            Case { domains, terms, relation, rhs, posting }
        })
}

/// Whether the sum's terms, merged, may reach past `2^125` in magnitude:
/// what the model refuses (`ModelError::LinearOverflow`), sums of
/// magnitude up to there it must take.
fn beyond_2_125(case: &Case) -> bool {
    let mut merged = vec![0i128; case.domains.len()];
    case.terms.iter().for_each(|&(a, i)| merged[i] += i128::from(a));
    let magnitude: u128 = merged
        .iter()
        .zip(&case.domains)
        .map(|(&a, d)| a.unsigned_abs() * u128::from(d[0].unsigned_abs().max(d[d.len() - 1].unsigned_abs())))
        .sum();
    magnitude > 1 << 125
}

/// The model: the variables, then the literal of a (half-)reified sum.
fn build(case: &Case) -> (Model, Vec<VarId>) {
    let mut model = Model::new();
    let mut vars: Vec<VarId> = case.domains.iter().map(|d| model.new_var(d.clone()).unwrap()).collect();
    let expr: LinearExpr = case.terms.iter().map(|&(a, i)| LinearExpr::term(a, vars[i])).sum();
    let condition = expr.compare(case.relation, LinearExpr::wide_constant(case.rhs));
    let posted = match case.posting {
        Posting::Plain => model.add(condition),
        Posting::Reified | Posting::Implied => {
            let literal = model.new_bool();
            vars.push(literal.var());
            if matches!(case.posting, Posting::Reified) {
                model.reify(literal, condition)
            } else {
                model.implies(literal, condition)
            }
        }
    };
    match posted {
        Ok(_) => assert!(!beyond_2_125(case), "{case:?}: posted"),
        Err(csp::ModelError::LinearOverflow { .. }) => assert!(beyond_2_125(case), "{case:?}: refused"),
        Err(err) => panic!("{case:?}: {err}"),
    }
    (model, vars)
}

/// The number of solutions, summing in `i128` outside the model.
fn brute_force(case: &Case) -> u64 {
    let mut count = 0;
    csp::testing::for_each_assignment(&case.domains, |values| {
        let holds = case.relation.holds(sum(&case.terms, values), case.rhs);
        count += match case.posting {
            Posting::Plain => u64::from(holds),
            // b is the truth of the sum.
            Posting::Reified => 1,
            // b = 0 always, b = 1 when it holds.
            Posting::Implied => 1 + u64::from(holds),
        };
    });
    count
}

fn configs() -> Vec<(SolveConfig, bool)> {
    let mut configs = Vec::new();
    for &propagation in Propagation::ALL {
        for branching in [Branching::Enumerate, Branching::Binary] {
            let config = SolveConfig::default().with_search(Search::Chronological { propagation, branching });
            configs.push((config.clone(), false));
            configs.push((config.with_bitset_limit(2), false));
        }
    }
    for spelling in ["mac+learn", "mac+learn+domwdeg", "mac+learn+vsids+phase+luby=1"] {
        let config: SolveConfig = spelling.parse().unwrap();
        configs.push((config.clone(), true));
        configs.push((config.with_bitset_limit(2), true));
    }
    configs
}

proptest! {
    #![proptest_config(ProptestConfig { cases: csp::testing::scaled(300) as u32, ..ProptestConfig::default() })]

    #[test]
    fn wide_sums_find_exactly_the_brute_force_solutions(case in case()) {
        let expected = brute_force(&case);
        let (model, vars) = build(&case);
        if beyond_2_125(&case) {
            return Ok(());
        }
        for (config, learning) in configs() {
            let mut solver = Solver::new(&model, config.clone()).unwrap();
            if learning {
                solver.check_nogoods(true);
            }
            let mut found = 0u64;
            for solution in solver.solutions() {
                let values: Vec<i64> = vars.iter().map(|&v| solution.value(v)).collect();
                let holds = case.relation.holds(sum(&case.terms, &values), case.rhs);
                match case.posting {
                    Posting::Plain => prop_assert!(holds, "{config:?}: {values:?}"),
                    Posting::Reified => prop_assert_eq!(holds, values[values.len() - 1] == 1, "{:?}", config),
                    Posting::Implied => prop_assert!(holds || values[values.len() - 1] == 0, "{config:?}"),
                }
                found += 1;
            }
            prop_assert_eq!(found, expected, "{:?}", config);
        }
    }
}

/// The sums at the edges, by hand: `2^62 x + 2^62 y = 2^125` at `x = y =
/// 2^62`, an `i64` right-hand side past `2^62` through `Model::linear`, and
/// a right-hand side past every sum, which no assignment meets.
#[test]
fn right_hand_sides_past_2_62_are_met_exactly() {
    let mut model = Model::new();
    let x = model.new_var(MAX_VALUE - 1..=MAX_VALUE).unwrap();
    let y = model.new_var(MAX_VALUE - 1..=MAX_VALUE).unwrap();
    model.add((MAX_VALUE * x + MAX_VALUE * y).eq(LinearExpr::wide_constant(1 << 125))).unwrap();
    let solution = Solver::new(&model, SolveConfig::default()).unwrap().solve().into_solution().unwrap();
    assert_eq!((solution[x], solution[y]), (MAX_VALUE, MAX_VALUE));

    let mut model = Model::new();
    let x = model.new_var(MAX_VALUE - 1..=MAX_VALUE).unwrap();
    let y = model.new_var(MAX_VALUE - 1..=MAX_VALUE).unwrap();
    model.linear(&[(1, x), (1, y)], Relation::Eq, i64::MAX).unwrap();
    assert_eq!(Solver::new(&model, SolveConfig::default()).unwrap().count(None).solutions, 2);

    let mut model = Model::new();
    let x = model.new_var(-MAX_VALUE..=MAX_VALUE).unwrap();
    model.add((MAX_VALUE * x).ge(LinearExpr::wide_constant(i128::MAX))).unwrap();
    assert!(Solver::new(&model, SolveConfig::default()).unwrap().solve() == csp::Outcome::Unsatisfiable);
}
