//! `count` with a fixed `y`, `among`, `at_least`, `at_most` and `exactly`
//! over long arrays keep their counts from call to call (see
//! `constraints/counting/incremental.rs`): arrays of 32 entries and more
//! over a few variables, each repeated, so that debug builds run the kept
//! counts and check them against the recomputed ones at every call. Every
//! search counts the solutions brute force counts, plain and learning
//! (with its explanations checked), with restarts (the domains back from
//! the root's snapshot), as bitsets and as intervals, on small domains and
//! near ±2^62.

#[path = "../examples/support/xorshift.rs"]
mod xorshift;

use csp::{Domain, Model, SolveConfig, Solver, VarId};
use xorshift::xorshift;

/// The variables' number and values (three from `lo`).
const VARS: usize = 6;
const VALUES: usize = 3;

/// A random array of 32 to 40 entries over `vars`.
fn array(vars: &[VarId], next: &mut impl FnMut() -> u64) -> Vec<usize> {
    let len = 32 + (next() % 9) as usize;
    (0..len).map(|_| (next() % vars.len() as u64) as usize).collect()
}

/// How many entries of `array` take a value of `values` under `assignment`.
fn counted(array: &[usize], assignment: &[i64], values: &[i64]) -> i64 {
    array.iter().filter(|&&i| values.contains(&assignment[i])).count() as i64
}

/// A random model and its number of solutions, counted brute force: a
/// `count` with a constant `y`, an `among` of two values (one possibly
/// beyond the domains) and a constant-bounds form, each over its own
/// array; `count` and `among` into count variables of random ranges.
fn model(seed: u64, lo: i64) -> (Model, u64) {
    let mut next = xorshift(seed);
    let mut model = Model::new();
    // Each variable's values: a random non-empty subset of lo..lo + 3.
    let domains: Vec<Vec<i64>> = (0..VARS)
        .map(|_| {
            let mut values: Vec<i64> = (0..VALUES as i64).map(|k| lo + k).filter(|_| next() % 4 != 0).collect();
            if values.is_empty() {
                values.push(lo + (next() % VALUES as u64) as i64);
            }
            values
        })
        .collect();
    let xs: Vec<VarId> = domains.iter().map(|d| model.new_var(Domain::values(d.iter().copied())).unwrap()).collect();
    let (a, b, d) = (array(&xs, &mut next), array(&xs, &mut next), array(&xs, &mut next));
    let entries = |array: &[usize]| array.iter().map(|&i| xs[i]).collect::<Vec<_>>();
    // The counts' ranges and the constant bound around the counts of a
    // random assignment, so that some assignments are solutions.
    let some: Vec<i64> = domains.iter().map(|d| d[(next() % d.len() as u64) as usize]).collect();
    let around =
        |next: &mut dyn FnMut() -> u64, count: i64| (count - (next() % 10) as i64, count + (next() % 10) as i64);
    let y_value = lo + (next() % VALUES as u64) as i64;
    let y = model.new_var(y_value..=y_value).unwrap();
    let (c_low, c_high) = around(&mut next, counted(&a, &some, &[y_value]));
    let c = model.new_var(c_low.max(0)..=c_high).unwrap();
    model.count(&entries(&a), y, c).unwrap();
    let beyond = (lo - 1 + (next() % (VALUES as u64 + 2)) as i64).clamp(-csp::MAX_VALUE, csp::MAX_VALUE);
    let values = [lo + (next() % VALUES as u64) as i64, beyond];
    let (n_low, n_high) = around(&mut next, counted(&b, &some, &values));
    let n = model.new_var(n_low.max(0)..=n_high).unwrap();
    model.among(n, &entries(&b), &values).unwrap();
    let (value, form) = (lo + (next() % VALUES as u64) as i64, next() % 3);
    let k = counted(&d, &some, &[value]) + (next() % 3) as i64 - 1;
    match form {
        0 => model.at_least(k, &entries(&d), value).unwrap(),
        1 => model.at_most(k, &entries(&d), value).unwrap(),
        _ => model.exactly(k, &entries(&d), value).unwrap(),
    };
    // Brute force over the xs: the count variables follow.
    let mut solutions = 0;
    let total: usize = domains.iter().map(Vec::len).product();
    let mut assignment = vec![0i64; VARS];
    for mut code in 0..total {
        for (i, domain) in domains.iter().enumerate() {
            assignment[i] = domain[code % domain.len()];
            code /= domain.len();
        }
        let in_c = (c_low..=c_high).contains(&counted(&a, &assignment, &[y_value]));
        let in_n = (n_low..=n_high).contains(&counted(&b, &assignment, &values));
        let k_count = counted(&d, &assignment, &[value]);
        let in_k = match form {
            0 => k_count >= k,
            1 => k_count <= k,
            _ => k_count == k,
        };
        solutions += u64::from(in_c && in_n && in_k);
    }
    (model, solutions)
}

#[test]
fn kept_counts_count_every_solution() {
    let big = 1i64 << 62;
    let mut found = 0;
    for (lo, cases) in [(0, 40), (big - 3, 15), (-big, 15)] {
        for case in 0..cases {
            let (model, expected) = model(0x2545_f491_4f6c_dd1d ^ (case * 7919 + lo.unsigned_abs() % 1000), lo);
            found += expected;
            for limit in [1 << 16, 1] {
                for spelling in ["mac", "mac+desc", "mac+learn", "mac+learn+desc", "mac+learn+vsids+phase+luby=1"] {
                    let config = spelling.parse::<SolveConfig>().unwrap().with_bitset_limit(limit);
                    let mut solver = Solver::new(&model, config).unwrap();
                    solver.check_nogoods(spelling.contains("learn"));
                    let solutions = solver.count(None).solutions;
                    assert_eq!(solutions, expected, "{spelling}, bitset limit {limit}, case {case} from {lo}");
                }
            }
        }
    }
    assert!(found > 500, "the models have few solutions: {found}");
}
