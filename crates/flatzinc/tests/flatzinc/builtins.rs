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
    assert_eq!(lowered(constraint), expected, "{constraint}");
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
