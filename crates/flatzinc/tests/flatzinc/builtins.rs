//! Every lowered builtin against brute force: each case is one constraint
//! over three integers `x0..x2` in `-2..2` and three booleans `b0..b2`, with
//! constants, repeated variables and values at the edge of the engine's range
//! (`2^62`); the solutions fzn-csp's model has must be exactly the assignments
//! that satisfy the builtin's FlatZinc meaning, written here independently.

use std::collections::BTreeSet;

use csp::{SolveConfig, Solver};

const HEADER: &str = "var -2..2: x0;\nvar -2..2: x1;\nvar -2..2: x2;\nvar bool: b0;\nvar bool: b1;\nvar bool: b2;\n";
const BIG: i64 = 1 << 62;

/// The assignments of `x0, x1, x2, b0, b1, b2` that satisfy `check`.
fn brute_force(check: &dyn Fn(&[i64]) -> bool) -> BTreeSet<Vec<i64>> {
    let mut all = BTreeSet::new();
    for x0 in -2..=2 {
        for x1 in -2..=2 {
            for x2 in -2..=2 {
                for b in 0..8 {
                    let values = vec![x0, x1, x2, b & 1, (b >> 1) & 1, (b >> 2) & 1];
                    if check(&values) {
                        all.insert(values);
                    }
                }
            }
        }
    }
    all
}

/// The solutions of the lowered model, on the six named variables.
fn lowered(constraint: &str) -> BTreeSet<Vec<i64>> {
    let source = format!("{HEADER}constraint {constraint};\nsolve satisfy;\n");
    let fzn = csp_flatzinc::parse(&source).unwrap();
    let lowered = csp_flatzinc::lower(&fzn).unwrap_or_else(|e| panic!("{constraint}: {e}"));
    if lowered.inconsistent.is_some() {
        return BTreeSet::new();
    }
    let model = &lowered.model;
    let vars: Vec<_> = ["x0", "x1", "x2", "b0", "b1", "b2"].iter().map(|n| model.var(n).unwrap()).collect();
    // Every propagation level must find the same solutions, each once.
    let mut sets = ["mac", "fc+input", "bt"].map(|config| {
        let mut solver = Solver::new(model, config.parse::<SolveConfig>().unwrap()).unwrap();
        let found: Vec<Vec<i64>> = solver.solutions().map(|s| vars.iter().map(|&v| s.value(v)).collect()).collect();
        let set: BTreeSet<Vec<i64>> = found.iter().cloned().collect();
        assert_eq!(set.len(), found.len(), "{constraint} under {config}: a solution twice");
        set
    });
    assert!(sets[0] == sets[1] && sets[1] == sets[2], "{constraint}: the levels disagree");
    std::mem::take(&mut sets[0])
}

fn check(constraint: &str, meaning: impl Fn(&[i64]) -> bool) {
    let expected = brute_force(&meaning);
    let found = lowered(constraint);
    let missing: Vec<_> = expected.difference(&found).take(5).collect();
    let extra: Vec<_> = found.difference(&expected).take(5).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{constraint}: missing solutions {missing:?}, wrong solutions {extra:?} (of x0, x1, x2, b0, b1, b2; at most 5 each)"
    );
}

fn b(value: i64) -> bool {
    value != 0
}

#[test]
fn integer_comparisons() {
    check("int_eq(x0, x1)", |v| v[0] == v[1]);
    check("int_eq(x0, 1)", |v| v[0] == 1);
    check("int_eq(2, x0)", |v| v[0] == 2);
    check("int_eq(x0, x0)", |_| true);
    check("int_eq(x0, 4611686018427387904)", |_| false);
    check("int_ne(x0, x1)", |v| v[0] != v[1]);
    check("int_ne(x0, x0)", |_| false);
    check("int_ne(x0, -2)", |v| v[0] != -2);
    check("int_le(x0, x1)", |v| v[0] <= v[1]);
    check("int_le(x0, 0)", |v| v[0] <= 0);
    check("int_le(1, x0)", |v| 1 <= v[0]);
    check("int_le(x0, 4611686018427387904)", |_| true);
    check("int_le(2, 3)", |_| true);
    check("int_lt(x0, x1)", |v| v[0] < v[1]);
    check("int_lt(x0, x0)", |_| false);
    check("int_lt(3, 2)", |_| false);
    check("int_lt(-4611686018427387904, x2)", |_| true);
}

#[test]
fn linear_sums() {
    check("int_lin_eq([2, -1, 3], [x0, x1, x2], 1)", |v| 2 * v[0] - v[1] + 3 * v[2] == 1);
    check("int_lin_eq([1, 1], [x0, x0], 2)", |v| 2 * v[0] == 2);
    check("int_lin_eq([1, -1], [x0, x0], 0)", |_| true);
    check("int_lin_eq([1, 2], [x0, 3], 4)", |v| v[0] + 6 == 4);
    check("int_lin_eq([5], [2], 10)", |_| true);
    check("int_lin_le([1, 1, 1], [x0, x1, x2], -1)", |v| v[0] + v[1] + v[2] <= -1);
    check("int_lin_le([-3], [x0], 2)", |v| -3 * v[0] <= 2);
    check("int_lin_le([4611686018427387904], [x0], 0)", |v| v[0] <= 0);
    check("int_lin_le([4611686018427387904, 4611686018427387904], [x0, 1], 0)", |v| {
        i128::from(v[0]) * i128::from(BIG) + i128::from(BIG) <= 0
    });
    check("int_lin_ne([1, -1], [x0, x1], 1)", |v| v[0] - v[1] != 1);
    check("int_lin_ne([-1, 1], [x0, x1], 1)", |v| -v[0] + v[1] != 1);
    check("int_lin_ne([2, -2], [x0, x1], 2)", |v| 2 * v[0] - 2 * v[1] != 2);
    check("int_lin_ne([2, -2], [x0, x1], 3)", |_| true);
    check("int_lin_ne([3], [x0], -3)", |v| 3 * v[0] != -3);
    check("int_lin_ne([2], [x0], 1)", |_| true);
    check("int_lin_ne([1, -1], [x0, x0], 0)", |_| false);
    check("int_lin_ne([1, -1, 1], [x0, x1, 2], 1)", |v| v[0] - v[1] + 2 != 1);
    check("int_lin_ne([1, -1], [x0, x1], 4611686018427387904)", |_| true);
    check("int_lin_ne([0], [x0], 0)", |_| false);
    // In-range coefficients of one variable that sum past 2^62 and past 64
    // bits: 2^63 x0 - (2^63 + 1) x1; a coefficient beyond 2^62 alone.
    let big = i128::from(BIG);
    let wide = |v: &[i64]| 2 * big * i128::from(v[0]) - (2 * big + 1) * i128::from(v[1]);
    let terms = "[4611686018427387904, -4611686018427387904, 4611686018427387904, -4611686018427387904, -1], \
                 [x0, x1, x0, x1, x1]";
    check(&format!("int_lin_eq({terms}, -2)"), |v| wide(v) == -2);
    check(&format!("int_lin_le({terms}, -2)"), |v| wide(v) <= -2);
    check(&format!("int_lin_ne({terms}, -2)"), |v| wide(v) != -2);
    check(&format!("int_lin_le_reif({terms}, 4611686018427387904, b0)"), |v| (wide(v) <= big) == (v[3] == 1));
    check(&format!("int_lin_eq_imp({terms}, -2, b1)"), |v| v[4] == 0 || wide(v) == -2);
    check("int_lin_le([9223372036854775807], [x0], 5)", |v| i128::from(v[0]) * i128::from(i64::MAX) <= 5);
}

#[test]
fn set_membership() {
    check("set_in(x0, {-2, 0, 2})", |v| [-2, 0, 2].contains(&v[0]));
    check("set_in(x0, -1..1)", |v| (-1..=1).contains(&v[0]));
    check("set_in(x0, {5})", |_| false);
    check("set_in(x0, 3..2)", |_| false);
    check("set_in(1, {1, 3})", |_| true);
}

#[test]
fn boolean_comparisons_and_functions() {
    check("bool2int(b0, x0)", |v| v[0] == v[3]);
    check("bool_eq(b0, b1)", |v| v[3] == v[4]);
    check("bool_eq(b0, true)", |v| b(v[3]));
    check("bool_le(b0, b1)", |v| v[3] <= v[4]);
    check("bool_lt(b0, b1)", |v| v[3] < v[4]);
    check("bool_not(b0, b1)", |v| v[3] != v[4]);
    check("bool_xor(b0, b1)", |v| v[3] != v[4]);
    check("bool_xor(b0, b1, b2)", |v| b(v[5]) == (b(v[3]) != b(v[4])));
    check("bool_and(b0, b1, b2)", |v| b(v[5]) == (b(v[3]) && b(v[4])));
    check("bool_and(b0, b0, b1)", |v| v[4] == v[3]);
    check("bool_or(b0, b1, b2)", |v| b(v[5]) == (b(v[3]) || b(v[4])));
    check("bool_or(b0, true, b1)", |v| b(v[4]));
    check("bool_or(false, false, true)", |_| false);
    check("bool_eq_reif(b0, b1, b2)", |v| b(v[5]) == (v[3] == v[4]));
    check("bool_le_reif(b0, b1, b2)", |v| b(v[5]) == (v[3] <= v[4]));
    check("bool_lt_reif(b0, b1, b2)", |v| b(v[5]) == (v[3] < v[4]));
    check("bool_lt_reif(b0, b0, b1)", |v| !b(v[4]));
}

#[test]
fn clauses_and_arrays_of_booleans() {
    check("bool_clause([b0, b1], [b2])", |v| b(v[3]) || b(v[4]) || !b(v[5]));
    check("bool_clause([], [b0, b0])", |v| !b(v[3]));
    check("bool_clause([b0], [b0])", |_| true);
    check("bool_clause([], [])", |_| false);
    check("bool_clause([false, b1], [true])", |v| b(v[4]));
    check("bool_clause_reif([b0], [b1], b2)", |v| b(v[5]) == (b(v[3]) || !b(v[4])));
    check("bool_clause_reif([], [], b0)", |v| !b(v[3]));
    check("array_bool_or([b0, b1], b2)", |v| b(v[5]) == (b(v[3]) || b(v[4])));
    check("array_bool_or([b0, b1], true)", |v| b(v[3]) || b(v[4]));
    check("array_bool_or([], b0)", |v| !b(v[3]));
    check("array_bool_and([b0, b1], b2)", |v| b(v[5]) == (b(v[3]) && b(v[4])));
    check("array_bool_and([b0, b1, b0], false)", |v| !(b(v[3]) && b(v[4])));
    check("array_bool_and([], b0)", |v| b(v[3]));
    check("bool_lin_eq([2, 1], [b0, b1], x0)", |v| 2 * v[3] + v[4] == v[0]);
    check("bool_lin_le([1, -1, 2], [b0, b1, b2], 1)", |v| v[3] - v[4] + 2 * v[5] <= 1);
}

#[test]
fn globals() {
    check("fzn_all_different_int([x0, x1, x2])", |v| v[0] != v[1] && v[0] != v[2] && v[1] != v[2]);
    check("fzn_all_different_int([x0, 1, x1])", |v| v[0] != 1 && v[1] != 1 && v[0] != v[1]);
    check("fzn_all_different_int([x0, x0])", |_| false);
    check("fzn_all_different_int([1, 1])", |_| false);
    check("fzn_all_different_int([x0])", |_| true);
    check("fzn_all_different_int([])", |_| true);
    check("fzn_table_int([x0, x1], [1, 2, 2, 1, -2, -2])", |v| [(1, 2), (2, 1), (-2, -2)].contains(&(v[0], v[1])));
    check("fzn_table_int([x0, x0], [1, 2, 2, 2, 0, 0])", |v| [2, 0].contains(&v[0]));
    check("fzn_table_int([x0, 1], [0, 1, 2, 2])", |v| v[0] == 0);
    check("fzn_table_int([x0, x1], [])", |_| false);
    check("fzn_table_bool([b0, b1], [true, false, false, true])", |v| v[3] != v[4]);
}

#[test]
fn reified_and_half_reified_comparisons() {
    check("int_eq_reif(x0, x1, b0)", |v| b(v[3]) == (v[0] == v[1]));
    check("int_eq_reif(x0, 1, b0)", |v| b(v[3]) == (v[0] == 1));
    check("int_eq_reif(x0, x0, b0)", |v| b(v[3]));
    check("int_eq_reif(1, 2, b0)", |v| !b(v[3]));
    check("int_eq_reif(x0, x1, true)", |v| v[0] == v[1]);
    check("int_eq_reif(x0, x1, false)", |v| v[0] != v[1]);
    check("int_eq_reif(x0, 4611686018427387904, b0)", |v| !b(v[3]));
    check("int_ne_reif(x0, x1, b0)", |v| b(v[3]) == (v[0] != v[1]));
    check("int_ne_reif(x0, -2, b0)", |v| b(v[3]) == (v[0] != -2));
    check("int_le_reif(x0, x1, b0)", |v| b(v[3]) == (v[0] <= v[1]));
    check("int_le_reif(x0, 0, b0)", |v| b(v[3]) == (v[0] <= 0));
    check("int_le_reif(b0, x0, b0)", |v| b(v[3]) == (v[3] <= v[0]));
    check("int_le_reif(2, 3, false)", |_| false);
    check("int_lt_reif(x0, x1, b0)", |v| b(v[3]) == (v[0] < v[1]));
    check("int_lt_reif(x0, x0, b0)", |v| !b(v[3]));
    check("int_lt_reif(x1, x0, b1)", |v| b(v[4]) == (v[1] < v[0]));
    check("int_eq_imp(x0, x1, b0)", |v| !b(v[3]) || v[0] == v[1]);
    check("int_eq_imp(x0, 5, b0)", |v| !b(v[3]));
    check("int_ne_imp(x0, x1, b0)", |v| !b(v[3]) || v[0] != v[1]);
    check("int_le_imp(x0, x1, b0)", |v| !b(v[3]) || v[0] <= v[1]);
    check("int_le_imp(x0, x1, false)", |_| true);
    check("int_le_imp(x0, x1, true)", |v| v[0] <= v[1]);
    check("int_lt_imp(x0, -2, b0)", |v| !b(v[3]));
    check("int_lt_imp(x0, x0, b0)", |v| !b(v[3]));
    check("bool_eq_imp(b0, b1, b2)", |v| !b(v[5]) || v[3] == v[4]);
    check("bool_le_imp(b0, b1, b2)", |v| !b(v[5]) || v[3] <= v[4]);
    check("bool_lt_imp(b0, b1, b2)", |v| !b(v[5]) || v[3] < v[4]);
}

#[test]
fn reified_linear_sums_and_sets() {
    check("int_lin_eq_reif([2, -1], [x0, x1], 1, b0)", |v| b(v[3]) == (2 * v[0] - v[1] == 1));
    check("int_lin_eq_reif([1, 1, 1], [x0, x1, x2], 0, b0)", |v| b(v[3]) == (v[0] + v[1] + v[2] == 0));
    check("int_lin_eq_reif([1, -1], [x0, x0], 0, b0)", |v| b(v[3]));
    check("int_lin_le_reif([1, 1, 1], [x0, x1, x2], 0, b0)", |v| b(v[3]) == (v[0] + v[1] + v[2] <= 0));
    check("int_lin_le_reif([4611686018427387904], [x0], 0, b0)", |v| b(v[3]) == (v[0] <= 0));
    check("int_lin_le_reif([1, 3], [x0, 2], 4, b1)", |v| b(v[4]) == (v[0] + 6 <= 4));
    check("int_lin_ne_reif([1, 2, -1], [x0, x1, x2], 1, b0)", |v| b(v[3]) == (v[0] + 2 * v[1] - v[2] != 1));
    check("int_lin_ne([1, 1, 1], [x0, x1, x2], 0)", |v| v[0] + v[1] + v[2] != 0);
    check("int_lin_ne([2, 1], [x0, x1], 1)", |v| 2 * v[0] + v[1] != 1);
    check("int_lin_eq_imp([1, 1], [x0, x1], 3, b0)", |v| !b(v[3]) || v[0] + v[1] == 3);
    check("int_lin_le_imp([1, -1, 1], [x0, x1, x2], -3, b0)", |v| !b(v[3]) || v[0] - v[1] + v[2] <= -3);
    check("int_lin_ne_imp([1, 1], [x0, x1], 0, b0)", |v| !b(v[3]) || v[0] + v[1] != 0);
    check("int_lin_le([4611686018427387904, 4611686018427387904], [x0, x1], 4611686018427387904)", |v| {
        i128::from(v[0] + v[1]) * i128::from(BIG) <= i128::from(BIG)
    });
    check("int_lin_eq([1], [x0], 9223372036854775807)", |_| false);
    check("int_lin_le([1], [x0], 9223372036854775807)", |_| true);
    check("int_lin_le_reif([1, 1], [x0, x1], -9223372036854775807, b0)", |v| !b(v[3]));
    check("set_in_reif(x0, {-2, 0, 2}, b0)", |v| b(v[3]) == [-2, 0, 2].contains(&v[0]));
    check("set_in_reif(x0, 1..5, b0)", |v| b(v[3]) == (1..=5).contains(&v[0]));
    check("set_in_reif(x0, 3..2, b0)", |v| !b(v[3]));
    check("set_in_reif(3, {3}, b0)", |v| b(v[3]));
    check("set_in_imp(x0, {-1, 1}, b0)", |v| !b(v[3]) || [-1, 1].contains(&v[0]));
    check("set_in(x0, -4611686018427387904..4611686018427387904)", |_| true);
}

#[test]
fn logic_reified_half_reified_and_parity() {
    check("bool_clause_imp([b0], [b1], b2)", |v| !b(v[5]) || b(v[3]) || !b(v[4]));
    check("bool_clause_reif([b0, b1], [], b2)", |v| b(v[5]) == (b(v[3]) || b(v[4])));
    check("bool_clause_reif([b0], [b0], b1)", |v| b(v[4]));
    check("bool_clause([b0, b0], [])", |v| b(v[3]));
    check("bool_and_imp(b0, b1, b2)", |v| !b(v[5]) || (b(v[3]) && b(v[4])));
    check("bool_or_imp(b0, b1, b2)", |v| !b(v[5]) || b(v[3]) || b(v[4]));
    check("bool_xor_imp(b0, b1, b2)", |v| !b(v[5]) || v[3] != v[4]);
    check("bool_xor(b0, b0, b1)", |v| !b(v[4]));
    check("bool_xor(b0, true, b1)", |v| v[4] != v[3]);
    check("array_bool_and_imp([b0, b1], b2)", |v| !b(v[5]) || (b(v[3]) && b(v[4])));
    check("array_bool_or_imp([b0, b1], b2)", |v| !b(v[5]) || b(v[3]) || b(v[4]));
    check("array_bool_or([b0, b1, b0], b1)", |v| b(v[4]) || !b(v[3]));
    check("array_bool_and([b0, b1], b0)", |v| !b(v[3]) || b(v[4]));
    check("array_bool_xor([b0, b1, b2])", |v| (v[3] + v[4] + v[5]) % 2 == 1);
    check("array_bool_xor([b0, b0, b1])", |v| b(v[4]));
    check("array_bool_xor([b0, true])", |v| !b(v[3]));
    check("array_bool_xor([])", |_| false);
    check("array_bool_xor([true])", |_| true);
    check("bool_lin_eq([1, 1], [b0, b1], 1)", |v| v[3] + v[4] == 1);
    check("bool_lin_le([2, 2], [b0, b1], 3)", |v| 2 * v[3] + 2 * v[4] <= 3);
}

/// The engine's integer power: `x^0 = 1`, and for a negative exponent
/// `1 div x^-y` with `x != 0`.
fn power(x: i64, y: i64) -> Option<i64> {
    if y >= 0 {
        return Some(x.pow(y as u32));
    }
    if x == 0 { None } else { Some(1 / x.pow((-y) as u32)) }
}

#[test]
fn arithmetic() {
    check("int_times(x0, x1, x2)", |v| v[0] * v[1] == v[2]);
    check("int_times(x0, x0, x1)", |v| v[0] * v[0] == v[1]);
    check("int_times(x0, 2, x1)", |v| 2 * v[0] == v[1]);
    check("int_times(2, 3, 6)", |_| true);
    check("int_times(x0, x1, 4611686018427387904)", |_| false);
    check("int_div(x0, x1, x2)", |v| v[1] != 0 && v[0] / v[1] == v[2]);
    check("int_div(x0, x0, x1)", |v| v[0] != 0 && v[1] == 1);
    check("int_div(x0, 0, x1)", |_| false);
    check("int_mod(x0, x1, x2)", |v| v[1] != 0 && v[0] % v[1] == v[2]);
    check("int_mod(x0, 2, x1)", |v| v[0] % 2 == v[1]);
    check("int_abs(x0, x1)", |v| v[0].abs() == v[1]);
    check("int_abs(x0, x0)", |v| v[0] >= 0);
    check("int_min(x0, x1, x2)", |v| v[0].min(v[1]) == v[2]);
    check("int_min(x0, x0, x1)", |v| v[0] == v[1]);
    check("int_max(x0, x1, x2)", |v| v[0].max(v[1]) == v[2]);
    check("int_max(x0, -1, x1)", |v| v[0].max(-1) == v[1]);
    check("int_pow(x0, x1, x2)", |v| power(v[0], v[1]) == Some(v[2]));
    check("int_pow(x0, 2, x1)", |v| v[0] * v[0] == v[1]);
    check("int_pow_fixed(x0, 3, x1)", |v| v[0].pow(3) == v[1]);
    check("int_pow_fixed(x0, -1, x1)", |v| power(v[0], -1) == Some(v[1]));
    check("int_pow_fixed(x0, 0, x1)", |v| v[1] == 1);
    check("int_plus(x0, x1, x2)", |v| v[0] + v[1] == v[2]);
    check("int_plus(x0, x0, x1)", |v| 2 * v[0] == v[1]);
    check("array_int_maximum(x0, [x1, x2])", |v| v[0] == v[1].max(v[2]));
    check("array_int_maximum(x0, [x0, x1])", |v| v[0] >= v[1]);
    check("array_int_minimum(x0, [x1, x2, 1])", |v| v[0] == v[1].min(v[2]).min(1));
    check("array_int_minimum(x0, [])", |_| false);
}

#[test]
fn element() {
    check("array_int_element(x0, [5, -1, 2], x1)", |v| {
        (1..=3).contains(&v[0]) && [5, -1, 2][v[0] as usize - 1] == v[1]
    });
    check("array_int_element(2, [5, -1, 2], x1)", |v| v[1] == -1);
    check("array_int_element(4, [1], x1)", |_| false);
    check("array_int_element(x0, [], x1)", |_| false);
    check("array_int_element(x0, [2, 1, 0], x0)", |v| (1..=3).contains(&v[0]) && [2, 1, 0][v[0] as usize - 1] == v[0]);
    check("array_bool_element(x0, [true, false], b0)", |v| (1..=2).contains(&v[0]) && b(v[3]) == (v[0] == 1));
    check("array_var_int_element(x0, [x1, x2], x2)", |v| {
        (1..=2).contains(&v[0]) && [v[1], v[2]][v[0] as usize - 1] == v[2]
    });
    check("array_var_int_element(x0, [x1, x2, -2], x1)", |v| {
        (1..=3).contains(&v[0]) && [v[1], v[2], -2][v[0] as usize - 1] == v[1]
    });
    check("array_var_int_element(x0, [x0, x1], x2)", |v| {
        (1..=2).contains(&v[0]) && [v[0], v[1]][v[0] as usize - 1] == v[2]
    });
    check("array_var_int_element(2, [x0, x1], x2)", |v| v[1] == v[2]);
    check("array_var_int_element(x0, [], x2)", |_| false);
    check("array_var_bool_element(x0, [b0, b1], b2)", |v| {
        (1..=2).contains(&v[0]) && [v[3], v[4]][v[0] as usize - 1] == v[5]
    });
}

/// Whether the successors `next` (nodes numbered from `base`) form one
/// circuit through every node, no node its own successor (so a single node
/// has none, as in MiniZinc's decomposition); `sub`: a circuit through some
/// nodes, the others their own successors.
fn is_circuit(next: &[i64], base: i64, sub: bool) -> bool {
    let n = next.len();
    let index = |value: i64| usize::try_from(value - base).ok().filter(|&i| i < n);
    let Some(successor): Option<Vec<usize>> = next.iter().map(|&v| index(v)).collect() else { return false };
    let in_circuit: Vec<usize> = (0..n).filter(|&i| successor[i] != i).collect();
    if !sub && in_circuit.len() != n && n > 1 {
        return false;
    }
    let Some(&start) = in_circuit.first() else { return sub };
    let (mut node, mut steps) = (start, 0);
    loop {
        node = successor[node];
        steps += 1;
        if node == start || steps > n {
            break;
        }
    }
    node == start && steps == in_circuit.len()
}

/// `f[i] = j <-> invf[j] = i`, positions from the bases.
fn is_inverse(f: &[i64], f_base: i64, invf: &[i64], invf_base: i64) -> bool {
    let maps = |from: &[i64], from_base: i64, to: &[i64], to_base: i64| {
        from.iter().enumerate().all(|(i, &value)| {
            usize::try_from(value - to_base)
                .ok()
                .and_then(|j| to.get(j))
                .is_some_and(|&back| back == i as i64 + from_base)
        })
    };
    maps(f, f_base, invf, invf_base) && maps(invf, invf_base, f, f_base)
}

/// MiniZinc's cumulative: durations and uses at least 0; with a task, the
/// capacity at least 0 and at least the load at every time.
fn is_cumulative(starts: &[i64], durations: &[i64], uses: &[i64], capacity: i64) -> bool {
    if durations.iter().chain(uses).any(|&x| x < 0) {
        return false;
    }
    if starts.is_empty() {
        return true;
    }
    let times = starts.iter().zip(durations).flat_map(|(&s, &d)| s..s + d);
    capacity >= 0
        && times.into_iter().all(|t| {
            let load: i64 =
                (0..starts.len()).filter(|&i| starts[i] <= t && t < starts[i] + durations[i]).map(|i| uses[i]).sum();
            load <= capacity
        })
}

/// MiniZinc's disjunctive: durations at least 0, no two tasks overlap (one
/// of no duration may, unless `strict`).
fn is_disjunctive(starts: &[i64], durations: &[i64], strict: bool) -> bool {
    let n = starts.len();
    durations.iter().all(|&d| d >= 0)
        && (0..n).all(|i| {
            (i + 1..n).all(|j| {
                (!strict && (durations[i] == 0 || durations[j] == 0))
                    || starts[i] + durations[i] <= starts[j]
                    || starts[j] + durations[j] <= starts[i]
            })
        })
}

/// MiniZinc's bin_packing_load: every item in one of the bins `base..`, one
/// per load, and each load the sum of its items' sizes.
fn is_packed(loads: &[i64], bins: &[i64], sizes: &[i64], base: i64) -> bool {
    let mut sums = vec![0i128; loads.len()];
    bins.iter().zip(sizes).all(|(&bin, &size)| {
        let b = usize::try_from(i128::from(bin) - i128::from(base)).ok().filter(|&b| b < loads.len());
        b.map(|b| sums[b] += i128::from(size)).is_some()
    }) && loads.iter().zip(&sums).all(|(&load, &sum)| i128::from(load) == sum)
}

/// MiniZinc's diffn: every pair apart in x or y (`nonstrict`: or one of the
/// pair's sizes 0).
fn is_diffn(boxes: &[[i64; 4]], nonstrict: bool) -> bool {
    let before = |a: i64, d: i64, b: i64| i128::from(a) + i128::from(d) <= i128::from(b);
    (0..boxes.len()).all(|i| {
        (i + 1..boxes.len()).all(|j| {
            let (a, b) = (boxes[i], boxes[j]);
            (nonstrict && [a[2], a[3], b[2], b[3]].contains(&0))
                || before(a[0], a[2], b[0])
                || before(a[1], a[3], b[1])
                || before(b[0], b[2], a[0])
                || before(b[1], b[3], a[1])
        })
    })
}

fn count(xs: &[i64], value: i64) -> i64 {
    xs.iter().filter(|&&x| x == value).count() as i64
}

#[test]
fn graph_and_scheduling_globals() {
    check("csp_circuit([x0, x1, x2], 0)", |v| is_circuit(&v[0..3], 0, false));
    check("csp_circuit([x0, x1, x2], -1)", |v| is_circuit(&v[0..3], -1, false));
    check("csp_circuit([x0, x1, x2], 1)", |v| is_circuit(&v[0..3], 1, false));
    check("csp_circuit([x0, x0], 0)", |_| false);
    check("csp_circuit([x0], 0)", |_| false);
    check("csp_subcircuit([x0], 0)", |v| v[0] == 0);
    check("csp_circuit([], 1)", |_| true);
    check("csp_subcircuit([x0, x1, x2], 0)", |v| is_circuit(&v[0..3], 0, true));
    check("csp_subcircuit([x0, x1, 2], 0)", |v| is_circuit(&[v[0], v[1], 2], 0, true));
    check("csp_subcircuit([], 0)", |_| true);
    check("csp_inverse([x0, x1], 0, [x1, x2], 0)", |v| is_inverse(&v[0..2], 0, &v[1..3], 0));
    check("csp_inverse([x0, x1], 1, [x2, b0], -1)", |v| is_inverse(&v[0..2], 1, &[v[2], v[3]], -1));
    check("csp_inverse([x0], 0, [x1], 0)", |v| v[0] == 0 && v[1] == 0);
    check("csp_inverse([], 1, [], 1)", |_| true);
    check("csp_inverse([], 1, [x0], 1)", |_| false);
    check("csp_inverse([x0, x1], 1, [x2], 1)", |_| false);
    check("csp_inverse([x0], 0, [x1, x2], 0)", |_| false);
    check("fzn_cumulative([x0, x1], [2, x2], [1, 1], 1)", |v| is_cumulative(&v[0..2], &[2, v[2]], &[1, 1], 1));
    check("fzn_cumulative([x0, x1], [x2, x2], [b0, b1], b2)", |v| {
        is_cumulative(&v[0..2], &[v[2], v[2]], &[v[3], v[4]], v[5])
    });
    check("fzn_cumulative([x0], [x1], [x2], 1)", |v| is_cumulative(&v[0..1], &v[1..2], &v[2..3], 1));
    check("fzn_cumulative([x0, x0], [1, 1], [1, 1], x1)", |v| is_cumulative(&[v[0], v[0]], &[1, 1], &[1, 1], v[1]));
    check("fzn_cumulative([], [], [], x0)", |_| true);
    check("fzn_disjunctive([x0, x1], [x2, 1])", |v| is_disjunctive(&v[0..2], &[v[2], 1], false));
    check("fzn_disjunctive_strict([x0, x1], [x2, 1])", |v| is_disjunctive(&v[0..2], &[v[2], 1], true));
    check("fzn_disjunctive_strict([x0, x1, x2], [1, 1, 1])", |v| is_disjunctive(&v[0..3], &[1, 1, 1], true));
    check("fzn_disjunctive([], [])", |_| true);
    check("csp_bin_packing_load([x0, x1], [b0, b1, b2], [1, 1, 0], 0)", |v| {
        is_packed(&v[0..2], &v[3..6], &[1, 1, 0], 0)
    });
    check("csp_bin_packing_load([x0, x1], [x2, x0], [2, 1], -1)", |v| is_packed(&v[0..2], &[v[2], v[0]], &[2, 1], -1));
    check("csp_bin_packing_load([x0, 1, x1], [x2, b0], [1, 1], -1)", |v| {
        is_packed(&[v[0], 1, v[1]], &[v[2], v[3]], &[1, 1], -1)
    });
    check("csp_bin_packing_load([x0, x1], [], [], 3)", |v| v[0] == 0 && v[1] == 0);
    check("csp_bin_packing_load([2], [], [], 3)", |_| false);
    check("csp_bin_packing_load([x0], [x1, x2], [4611686018427387904, 4611686018427387904], 0)", |_| false);
    check("csp_bin_packing_load([], [], [], 1)", |_| true);
    check("fzn_diffn([x0, x1], [b0, b1], [2, x2], [1, 1])", |v| {
        is_diffn(&[[v[0], v[3], 2, 1], [v[1], v[4], v[2], 1]], false)
    });
    check("fzn_diffn_nonstrict([x0, x1], [b0, b1], [2, x2], [1, 1])", |v| {
        is_diffn(&[[v[0], v[3], 2, 1], [v[1], v[4], v[2], 1]], true)
    });
    check("fzn_diffn([x0, x1, 0], [0, 0, x2], [1, 1, 2], [1, 1, 1])", |v| {
        is_diffn(&[[v[0], 0, 1, 1], [v[1], 0, 1, 1], [0, v[2], 2, 1]], false)
    });
    check("fzn_diffn([x0, x0], [x1, x1], [1, 4611686018427387904], [x2, 1])", |v| {
        is_diffn(&[[v[0], v[1], 1, v[2]], [v[0], v[1], BIG, 1]], false)
    });
    check("fzn_diffn([x0], [x1], [x2], [1])", |_| true);
    check("fzn_diffn([], [], [], [])", |_| true);
}

#[test]
fn counting_globals() {
    check("fzn_count_eq([x0, x1, x2], 1, b0)", |v| count(&v[0..3], 1) == v[3]);
    check("fzn_count_eq([x0, x1], x2, x0)", |v| count(&v[0..2], v[2]) == v[0]);
    check("fzn_count_eq([], x0, x1)", |v| v[1] == 0);
    check("fzn_among(x0, [x1, x2], {0, 1})", |v| v[1..3].iter().filter(|x| [0, 1].contains(*x)).count() as i64 == v[0]);
    check("fzn_among(x0, [x1, x2, x0], -1..4611686018427387904)", |v| {
        [v[1], v[2], v[0]].iter().filter(|&&x| x >= -1).count() as i64 == v[0]
    });
    check("fzn_among(x0, [], {1})", |v| v[0] == 0);
    check("fzn_at_least_int(2, [x0, x1, x2], 0)", |v| count(&v[0..3], 0) >= 2);
    check("fzn_at_most_int(1, [x0, x1, x2], 0)", |v| count(&v[0..3], 0) <= 1);
    check("fzn_exactly_int(1, [x0, x1], -2)", |v| count(&v[0..2], -2) == 1);
    check("fzn_exactly_int(1, [], -2)", |_| false);
    check("fzn_at_most_int(1, [], 0)", |_| true);
    check("fzn_global_cardinality([x0, x1], [0, 1], [b0, b1])", |v| {
        count(&v[0..2], 0) == v[3] && count(&v[0..2], 1) == v[4]
    });
    check("fzn_global_cardinality([x0, x1], [0, 0], [b0, b1])", |v| {
        count(&v[0..2], 0) == v[3] && count(&v[0..2], 0) == v[4]
    });
    check("fzn_global_cardinality([x0, x1, x2], [1], [x0])", |v| count(&v[0..3], 1) == v[0]);
    check("fzn_global_cardinality([], [1, 2], [x0, b0])", |v| v[0] == 0 && v[3] == 0);
    check("fzn_global_cardinality_closed([x0, x1], [0, 1], [b0, b1])", |v| {
        count(&v[0..2], 0) == v[3] && count(&v[0..2], 1) == v[4] && v[0..2].iter().all(|x| [0, 1].contains(x))
    });
    check("fzn_global_cardinality_low_up([x0, x1, x2], [0, 1], [1, 0], [2, 1])", |v| {
        (1..=2).contains(&count(&v[0..3], 0)) && (0..=1).contains(&count(&v[0..3], 1))
    });
    check("fzn_global_cardinality_low_up([x0, x1, x2], [0, 0], [1, 0], [2, 1])", |v| count(&v[0..3], 0) == 1);
    check("fzn_global_cardinality_low_up_closed([x0, x1], [-1, 1], [0, 1], [2, 1])", |v| {
        count(&v[0..2], 1) == 1 && v[0..2].iter().all(|x| [-1, 1].contains(x))
    });
    check("fzn_global_cardinality_low_up([], [1], [1], [1])", |_| false);
    check("fzn_nvalue(x0, [x1, x2])", |v| v[0] == if v[1] == v[2] { 1 } else { 2 });
    check("fzn_nvalue(x0, [x1, x2, 0])", |v| v[0] == [v[1], v[2], 0].iter().collect::<BTreeSet<_>>().len() as i64);
    check("fzn_nvalue(x0, [])", |v| v[0] == 0);
}

#[test]
fn order_and_extensional_globals() {
    check("fzn_lex_less_int([x0, x1], [x1, x2])", |v| [v[0], v[1]] < [v[1], v[2]]);
    check("fzn_lex_lesseq_int([x0, x1], [x2, 0])", |v| [v[0], v[1]] <= [v[2], 0]);
    check("fzn_lex_less_int([x0], [x0, x1])", |_| true);
    check("fzn_lex_less_int([x0, x1], [x0])", |_| false);
    check("fzn_lex_lesseq_int([x0, x1], [x2])", |v| v[0] < v[2]);
    check("fzn_lex_less_int([], [x0])", |_| true);
    check("fzn_lex_less_int([x0], [])", |_| false);
    check("fzn_lex_less_int([], [])", |_| false);
    check("fzn_lex_lesseq_int([], [])", |_| true);
    check("fzn_lex_less_bool([b0, b1], [b1, b2])", |v| [v[3], v[4]] < [v[4], v[5]]);
    check("fzn_lex_lesseq_bool([b0, b1], [b1, b0])", |v| [v[3], v[4]] <= [v[4], v[3]]);
    check("fzn_increasing_int([x0, x1, x2])", |v| v[0] <= v[1] && v[1] <= v[2]);
    check("fzn_increasing_int([x0, 0, x0])", |v| v[0] == 0);
    check("fzn_increasing_int([x0])", |_| true);
    check("fzn_decreasing_int([x0, x1, x2])", |v| v[0] >= v[1] && v[1] >= v[2]);
    check("fzn_strictly_increasing_int([x0, x1, x2])", |v| v[0] < v[1] && v[1] < v[2]);
    check("fzn_strictly_increasing_int([x0, x0])", |_| false);
    check("fzn_strictly_decreasing_int([x0, x1, 0])", |v| v[0] > v[1] && v[1] > 0);
    check("fzn_increasing_bool([b0, b1, b2])", |v| v[3] <= v[4] && v[4] <= v[5]);
    check("fzn_decreasing_bool([b0, b1])", |v| v[3] >= v[4]);
    // Words over {1, 2} from state 1: 1 stays in 1, 2 goes to the accepting
    // 2, where only 1 may follow (another 2 is the dead state 0).
    let accepts = |word: &[i64]| {
        let mut state = 1;
        for &symbol in word {
            state = match (state, symbol) {
                (1, 1) => 1,
                (1, 2) | (2, 1) => 2,
                _ => return false,
            };
        }
        state == 2
    };
    check("fzn_regular([x0, x1, x2], 2, 2, [1, 2, 2, 0], 1, {2})", |v| accepts(&v[0..3]));
    check("fzn_regular([x0, x0], 2, 2, [1, 2, 2, 0], 1, {2})", |v| accepts(&[v[0], v[0]]));
    check("fzn_regular([x0, 2], 2, 2, [1, 2, 2, 0], 1, 1..2)", |v| v[0] == 1);
    check("fzn_regular([], 2, 2, [1, 2, 2, 0], 1, {2})", |_| false);
    check("fzn_regular([], 2, 2, [1, 2, 2, 0], 1, {1})", |_| true);
}

/// The solutions of `source` on the named variables, under `mac` and `fc`
/// with arc consistency at the root (without it, forward checking and plain
/// backtracking split an unbounded variable down to values before its unary
/// constraints, `0 <= x`, act).
fn solutions_of(source: &str, names: &[&str]) -> BTreeSet<Vec<i64>> {
    let lowered = csp_flatzinc::lower(&csp_flatzinc::parse(source).unwrap()).unwrap();
    let model = &lowered.model;
    let vars: Vec<_> = names.iter().map(|n| model.var(n).unwrap()).collect();
    let sets = ["mac", "fc+rootac"].map(|config| {
        let mut solver = Solver::new(model, config.parse::<SolveConfig>().unwrap()).unwrap();
        solver.solutions().map(|s| vars.iter().map(|&v| s.value(v)).collect()).collect::<BTreeSet<Vec<i64>>>()
    });
    assert_eq!(sets[0], sets[1], "{source}: the levels disagree");
    sets[0].clone()
}

#[test]
fn unbounded_integers_range_over_the_engine_s_values() {
    let source = "var int: a;\nvar int: b;\nvar -3..3: x;\nconstraint int_times(x, x, a);\n\
                  constraint int_plus(a, x, b);\nconstraint int_le(b, 5);\nsolve satisfy;\n";
    let expected: BTreeSet<Vec<i64>> =
        (-3..=3i64).filter(|x| x * x + x <= 5).map(|x| vec![x, x * x, x * x + x]).collect();
    assert_eq!(solutions_of(source, &["x", "a", "b"]), expected);

    let source = "var int: x;\nconstraint int_lin_eq([2], [x], 4611686018427387904);\nsolve satisfy;\n";
    assert_eq!(solutions_of(source, &["x"]), BTreeSet::from([vec![1 << 61]]));

    // x^2 >= 2^62 with x in 0..=2^31: only x = 2^31, where x^2 is 2^62 exactly.
    let source = "var int: x;\nvar int: y;\nconstraint int_times(x, x, y);\nconstraint int_le(0, x);\n\
                  constraint int_le(x, 2147483648);\nconstraint int_le(4611686018427387904, y);\nsolve satisfy;\n";
    assert_eq!(solutions_of(source, &["x", "y"]), BTreeSet::from([vec![1 << 31, 1 << 62]]));

    // The sum of two unbounded variables beyond the range: no solution.
    let source = "var int: x;\nvar int: y;\nconstraint int_lin_eq([1, 1], [x, y], 0);\n\
                  constraint int_le(4611686018427387904, x);\nconstraint int_le(1, y);\nsolve satisfy;\n";
    assert!(solutions_of(source, &["x", "y"]).is_empty());
}

/// A short, seeded run of the brute-force differential tester near `±2^62`
/// (`benches/generators/huge_diff.py`, docs/minizinc.md): 40 random models
/// whose values sit near the ends of the range, where sums, products and
/// powers pass `2^63`, each through this build's fzn-csp under five
/// configurations; every answer must be the brute force's, or a refusal
/// that names its line. Skipped without python3.
#[test]
fn models_near_the_ends_of_the_range_agree_with_brute_force() {
    use std::process::Command;
    if !Command::new("python3").arg("--version").output().is_ok_and(|o| o.status.success()) {
        println!("skipped: the brute-force differential tester needs python3");
        return;
    }
    let script = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../benches/generators/huge_diff.py");
    let keep = std::env::temp_dir().join(format!("fzn-csp-huge-diff-{}", std::process::id()));
    let output = Command::new("python3")
        .arg(&script)
        .args(["--count", "40", "--seed", "1", "--fzn-csp", env!("CARGO_BIN_EXE_fzn-csp"), "--keep"])
        .arg(&keep)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("models 40 ") && stdout.contains(", 0 disagree"), "{stdout}");
    // Most runs are answered, not refused.
    let agree = stdout.split(": ").nth(1).and_then(|rest| rest.split(' ').next()).and_then(|n| n.parse::<u32>().ok());
    assert!(agree.is_some_and(|n| n >= 100), "{stdout}");
    std::fs::remove_dir_all(keep).unwrap();
}
