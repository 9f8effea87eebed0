//! Slow-convergence cycles cut by a sum (issue #18, `search/cycle.rs`):
//! linear constraints that push each other's bounds by one per call over
//! wide intervals (`x >= y + 1`, `y >= x + 1` over `±2^62`) took as many
//! calls as the width to fail. Now the search sums the cycle and fails at
//! once. Asserted on the outcome (unsatisfiable, the search complete) and
//! on the nodes, never on time: the time limit is only a guard that turns
//! a regression into a failed assertion instead of a test that never ends.

use std::time::Duration;

use csp::{Limits, MAX_VALUE, Model, Outcome, Relation, SolveConfig, Solver, VarId};

/// The configurations that propagate to a fixpoint, learning on and off.
const MAC: [&str; 6] =
    ["mac", "mac+domwdeg", "mac+domwdeg+binary", "mac+learn", "mac+learn+domwdeg", "mac+learn+lvsids+active"];

fn guard() -> Limits {
    Limits::none().with_time(Duration::from_secs(20))
}

/// Solves `model` under each configuration: unsatisfiable, within `nodes`
/// decisions, every learnt nogood checked against the model's solutions
/// (`check_nogoods` enumerates them only on small domains, so here it
/// checks the nogoods' form; the brute-force cases are below).
fn assert_unsatisfiable(model: &Model, nodes: u64, name: &str) {
    for spelling in MAC {
        let config: SolveConfig = spelling.parse().unwrap();
        let mut solver = Solver::new(model, config.with_limits(guard())).unwrap();
        let outcome = solver.solve();
        assert!(matches!(outcome, Outcome::Unsatisfiable), "{name} under {spelling}: {outcome:?} {}", solver.stats());
        assert!(solver.stats().nodes <= nodes, "{name} under {spelling}: {}", solver.stats());
    }
}

fn wide(model: &mut Model) -> VarId {
    model.new_var(-MAX_VALUE..=MAX_VALUE).unwrap()
}

#[test]
fn two_binary_comparisons_that_push_each_other_fail_at_the_root() {
    let mut model = Model::new();
    let [x, y] = [(); 2].map(|()| wide(&mut model));
    model.less_than(x, y).unwrap();
    model.less_than(y, x).unwrap();
    assert_unsatisfiable(&model, 0, "x < y < x");
}

#[test]
fn two_linear_inequalities_that_push_each_other_fail_at_the_root() {
    let mut model = Model::new();
    let [x, y] = [(); 2].map(|()| wide(&mut model));
    model.linear(&[(1, x), (-1, y)], Relation::Ge, 1).unwrap();
    model.linear(&[(1, y), (-1, x)], Relation::Ge, 1).unwrap();
    assert_unsatisfiable(&model, 0, "x >= y + 1, y >= x + 1");
}

#[test]
fn a_cycle_of_three_fails_at_the_root() {
    let mut model = Model::new();
    let [x, y, z] = [(); 3].map(|()| wide(&mut model));
    model.linear(&[(1, x), (-1, y)], Relation::Ge, 1).unwrap();
    model.linear(&[(1, y), (-1, z)], Relation::Ge, 0).unwrap();
    model.less_or_equal(x, z).unwrap();
    assert_unsatisfiable(&model, 0, "x > y >= z >= x");
}

#[test]
fn n_ary_sums_with_unit_and_other_coefficients_fail() {
    // 2x - 3y + w >= 1 and 3y >= 2x + v: summed, w - v >= 1, which the
    // bounds of w (at most 0) and v (at least 0) refute. Each call moves x
    // or y by about one: a slow cycle through two three-term sums.
    let mut model = Model::new();
    let [x, y] = [(); 2].map(|()| model.new_var(0..=1 << 60).unwrap());
    let w = model.new_var(-5..=0).unwrap();
    let v = model.new_var(0..=1 << 40).unwrap();
    model.linear(&[(2, x), (-3, y), (1, w)], Relation::Ge, 1).unwrap();
    model.linear(&[(3, y), (-2, x), (-1, v)], Relation::Ge, 0).unwrap();
    assert_unsatisfiable(&model, 0, "2x - 3y + w >= 1, 3y - 2x - v >= 0");
    // Unit coefficients, four terms each: with p and q within 0..=1 each
    // sum pushes x or y by one from the other.
    let mut model = Model::new();
    let [x, y] = [(); 2].map(|()| model.new_var(0..=1 << 50).unwrap());
    let [p, q] = [(); 2].map(|()| model.new_var(0..=1).unwrap());
    model.linear(&[(1, x), (-1, y), (1, p), (-1, q)], Relation::Ge, 2).unwrap();
    model.linear(&[(1, y), (-1, x), (1, q), (-1, p)], Relation::Ge, 2).unwrap();
    assert_unsatisfiable(&model, 0, "x - y + p - q >= 2, y - x + q - p >= 2");
}

#[test]
fn reified_cycles_set_off_by_decisions_fail_below_the_root() {
    // x >= y + 1; b -> y >= x + 1; !b -> y >= x + 3: whichever value the
    // search gives b, the cycle runs through the reified inequality whose
    // literal the decision fixed.
    let mut model = Model::new();
    let [x, y] = [(); 2].map(|()| wide(&mut model));
    let b = model.new_bool();
    model.linear(&[(1, x), (-1, y)], Relation::Ge, 1).unwrap();
    model.implies(b, y.ge(x + 1)).unwrap();
    model.implies(!b, y.ge(x + 3)).unwrap();
    assert_unsatisfiable(&model, 2, "reified by b");
    // Reified both ways, under a decision on a second literal.
    let mut model = Model::new();
    let [x, y] = [(); 2].map(|()| wide(&mut model));
    let [a, b] = [(); 2].map(|()| model.new_bool());
    model.reify(a, x.ge(y + 1)).unwrap();
    model.reify(b, y.ge(x + 1)).unwrap();
    model.add(a.ge(1)).unwrap();
    model.add(b.ge(1)).unwrap();
    assert_unsatisfiable(&model, 2, "a <-> x > y, b <-> y > x, a, b");
}

#[test]
fn a_cycle_through_a_maximum_fails_at_the_root() {
    // m = max(a, b), x >= m + 1, a >= x: a's lower bound pushes m's (m >= a,
    // implied by the maximum), which pushes x's and then a's again.
    let mut model = Model::new();
    let [a, b, m, x] = [(); 4].map(|()| wide(&mut model));
    model.maximum(m, &[a, b]).unwrap();
    model.linear(&[(1, x), (-1, m)], Relation::Ge, 1).unwrap();
    model.linear(&[(1, a), (-1, x)], Relation::Ge, 0).unwrap();
    assert_unsatisfiable(&model, 0, "m = max(a, b), x > m, a >= x");
}

/// Counts the solutions of `model` under `spelling`, the search complete.
fn count(model: &Model, spelling: &str) -> u64 {
    let config: SolveConfig = spelling.parse().unwrap();
    let mut solver = Solver::new(model, config.with_limits(guard()).with_bitset_limit(0)).unwrap();
    solver.check_nogoods(true);
    // Every fixpoint traced from its first narrowing, read every 8.
    solver.trace_pushes_after(0, 8);
    let count = solver.count(None);
    assert_eq!(count.status, csp::Status::Complete, "{spelling}");
    count.solutions
}

#[test]
fn cycles_that_converge_keep_their_solutions() {
    // x >= y + 1 and y >= x - 3 over small intervals (every range an
    // interval: bitset limit 0): x - y in 1..=3, a cycle that converges.
    // With a decision that sets the wide push off in one branch only.
    let mut model = Model::new();
    let [x, y] = [(); 2].map(|()| model.new_var(0..=40).unwrap());
    let b = model.new_bool();
    model.linear(&[(1, x), (-1, y)], Relation::Ge, 1).unwrap();
    model.linear(&[(1, y), (-1, x)], Relation::Ge, -3).unwrap();
    model.implies(b, y.ge(x + 1)).unwrap();
    let brute =
        (0..=40i64).flat_map(|x| (0..=40i64).map(move |y| (x, y))).filter(|&(x, y)| x - y >= 1 && x - y <= 3).count()
            as u64;
    for spelling in MAC {
        assert_eq!(count(&model, spelling), brute, "{spelling}");
    }
}

#[test]
fn cycles_cut_on_small_domains_learn_sound_nogoods() {
    // The slow cycle of tests/learning.rs (x >= y + 1; y >= x + 1 unless
    // b), traced from the first narrowing: b = 0 fails by the sum, whose
    // facts (the literal b = 0, through the big coefficient's bound) make
    // the nogoods, each checked against the brute-force solutions.
    let mut model = Model::new();
    let b = model.new_var(0..=1).unwrap();
    let [x, y] = [(); 2].map(|()| model.new_var(0..=60).unwrap());
    model.linear(&[(1, x), (-1, y)], Relation::Ge, 1).unwrap();
    model.linear(&[(1, y), (-1, x), (100, b)], Relation::Ge, 1).unwrap();
    for spelling in MAC {
        let config: SolveConfig = spelling.parse().unwrap();
        let mut solver = Solver::new(&model, config.with_bitset_limit(0).with_limits(guard())).unwrap();
        solver.check_nogoods(true);
        solver.trace_pushes_after(0, 8);
        let count = solver.count(None);
        // b = 1 and x - y >= 1: 60 + 59 + ... + 1.
        assert_eq!((count.solutions, count.status), (1830, csp::Status::Complete), "{spelling}");
    }
}

#[test]
fn cycle_cuts_on_random_linear_systems_keep_exactly_the_brute_force_solutions() {
    // Three variables over 0..=6 as intervals, three random inequalities
    // (coefficients -2..=2, the third reified by a literal), every fixpoint
    // traced from its first narrowing and read every 4: the cycles summed
    // lose no solution, and the nogoods learnt from them are checked.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: i64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as i64
    };
    let relations = [Relation::Le, Relation::Ge, Relation::Eq, Relation::Lt, Relation::Gt];
    for case in 0..300 {
        let mut model = Model::new();
        let xs = [(); 3].map(|()| model.new_var(0..=6).unwrap());
        let b = model.new_bool();
        let mut rows = Vec::new();
        for k in 0..3 {
            let i = next(3) as usize;
            let j = (i + 1 + next(2) as usize) % 3;
            let (a, c) = (next(5) - 2, next(5) - 2);
            let (relation, rhs) = (relations[next(5) as usize], next(7) - 3);
            let terms = [(a.max(1), xs[i]), (c.min(-1), xs[j])];
            rows.push((terms.map(|(a, x)| (a, xs.iter().position(|&y| y == x).unwrap())), relation, rhs, k == 2));
            if k == 2 {
                let sum = csp::LinearExpr::term(terms[0].0, terms[0].1) + csp::LinearExpr::term(terms[1].0, terms[1].1);
                let condition = match relation {
                    Relation::Le => sum.le(rhs),
                    Relation::Ge => sum.ge(rhs),
                    Relation::Eq => sum.eq(rhs),
                    Relation::Lt => sum.lt(rhs),
                    _ => sum.gt(rhs),
                };
                model.reify(b, condition).unwrap();
            } else {
                model.linear(&terms, relation, rhs).unwrap();
            }
        }
        let mut brute = 0u64;
        for v in 0..7i64 * 7 * 7 * 2 {
            let values = [v % 7, v / 7 % 7, v / 49 % 7];
            let bit = v / 343;
            let ok = rows.iter().all(|&(terms, relation, rhs, reified)| {
                let sum: i64 = terms.iter().map(|&(a, i)| a * values[i]).sum();
                let holds = relation.holds(i128::from(sum), i128::from(rhs));
                if reified { holds == (bit == 1) } else { holds }
            });
            brute += u64::from(ok);
        }
        for spelling in ["mac", "mac+learn", "mac+learn+lvsids+active"] {
            let config: SolveConfig = spelling.parse().unwrap();
            let mut solver = Solver::new(&model, config.with_bitset_limit(0)).unwrap();
            solver.check_nogoods(true);
            solver.trace_pushes_after(0, 4);
            assert_eq!(solver.count(None).solutions, brute, "case {case} under {spelling}: {rows:?}");
        }
    }
}
