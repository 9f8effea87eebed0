//! Long linear sums (40 to 90 terms), whose propagator keeps its sums from
//! call to call, counted against dynamic programming over the sums'
//! values: every relation, coefficients of both signs, domains with holes,
//! right-hand sides near either end of the sum's reach (few solutions) or
//! in its middle (many: the first ones are counted), and coefficients that
//! are multiples of `2^58`, whose sums leave `i64` (the propagator then recomputes them).
//! Each case is solved under search that backtracks, learns and restarts;
//! debug and testing builds check at every call that the kept sums are the
//! recomputed ones and that the narrowing reached the same fixpoint.
//! `CSP_TEST_SEED` draws other cases, `CSP_TEST_SCALE` more.

use std::collections::HashMap;

use csp::rng::Rng;
use csp::{Domain, LinearExpr, Model, Relation, SolveConfig, Solver};

/// The configurations every case is solved under (restarts bring the
/// domains back from the root's snapshot).
const CONFIGS: [&str; 5] =
    ["mac", "mac+learn", "mac+domwdeg+binary", "fc", "mac+learn+phase+luby+target+rephase=1+stable=1"];

/// The most solutions counted per case and configuration.
const LIMIT: u64 = 3000;

const RELATIONS: [Relation; 6] = [Relation::Eq, Relation::Ne, Relation::Le, Relation::Lt, Relation::Ge, Relation::Gt];

/// The number of assignments of the domains whose sum `relation rhs`, by
/// the sums' distribution (term by term).
fn count(terms: &[(i64, Vec<i64>)], relation: Relation, rhs: i128) -> u128 {
    let mut sums: HashMap<i128, u128> = HashMap::from([(0, 1)]);
    for (a, values) in terms {
        let mut next = HashMap::new();
        for (&sum, &ways) in &sums {
            for &v in values {
                *next.entry(sum + i128::from(*a) * i128::from(v)).or_insert(0) += ways;
            }
        }
        sums = next;
    }
    sums.into_iter().filter(|&(sum, _)| relation.holds(sum, rhs)).map(|(_, ways)| ways).sum()
}

#[test]
fn long_sums_count_as_dynamic_programming_does() {
    let mut rng = Rng::new(csp::testing::seed(37));
    for case in 0..csp::testing::scaled(24) {
        let n = 40 + rng.below(51) as usize;
        let huge = case % 6 == 5;
        let terms: Vec<(i64, Vec<i64>)> = (0..n)
            .map(|_| {
                let magnitude = (1 + rng.below(5) as i64) << if huge { 58 } else { 0 };
                let a = if rng.below(3) == 0 { -magnitude } else { magnitude };
                // Two or three values of 0..=4, with holes.
                let mut values: Vec<i64> = (0..=4).collect();
                rng.shuffle(&mut values);
                values.truncate(2 + rng.below(2) as usize);
                values.sort_unstable();
                (a, values)
            })
            .collect();
        let reach = |low: bool| -> i128 {
            terms
                .iter()
                .map(|(a, values)| {
                    let products = values.iter().map(|&v| i128::from(*a) * i128::from(v));
                    if low { products.min().unwrap() } else { products.max().unwrap() }
                })
                .sum()
        };
        let relation = RELATIONS[case % RELATIONS.len()];
        // Near the low end, the high end, or in the middle.
        let unit = if huge { 1i128 << 58 } else { 1 };
        let rhs = match rng.below(3) {
            0 => reach(true) + unit * i128::from(rng.below(6) as i64),
            1 => reach(false) - unit * i128::from(rng.below(6) as i64),
            // A multiple of the coefficients' unit, lest an equation have
            // no solution that bounds reasoning finds only deep in the tree.
            _ => (reach(true) + reach(false)) / 2 / unit * unit,
        };
        let mut model = Model::new();
        let vars: Vec<_> =
            terms.iter().map(|(_, values)| model.new_var(Domain::values(values.clone())).unwrap()).collect();
        // The right-hand side may be beyond `i64` (a wide constant).
        let sum: LinearExpr = terms.iter().zip(&vars).map(|((a, _), &x)| *a * x).sum();
        model.add(sum.compare(relation, LinearExpr::wide_constant(rhs))).unwrap();
        let expected = count(&terms, relation, rhs).min(u128::from(LIMIT)) as u64;
        for text in CONFIGS {
            let config: SolveConfig = text.parse().unwrap();
            let mut solver = Solver::new(&model, config).unwrap();
            let found = solver.count(Some(LIMIT)).solutions;
            assert_eq!(found, expected, "case {case} ({n} terms, {relation} {rhs}, huge {huge}) under {text}");
        }
    }
}
