//! Search that learns from its failures (`mac+learn`): known answers, and
//! the debug check of every learnt nogood against brute force.

use csp::{Model, SolveConfig, Solver, VarId};

fn queens(n: i64) -> Model {
    let mut model = Model::new();
    let q: Vec<VarId> = model.new_vars(n as usize, 0..n).unwrap();
    let up: Vec<i64> = (0..n).collect();
    let down: Vec<i64> = (0..n).map(|i| -i).collect();
    model.all_different(&q).unwrap();
    model.all_different_offset(&q, &up).unwrap();
    model.all_different_offset(&q, &down).unwrap();
    model
}

#[test]
fn learning_counts_the_queens() {
    for (n, count) in [(4, 2), (5, 10), (6, 4), (7, 40), (8, 92)] {
        for spelling in ["mac+learn", "mac+learn+vsids+phase+luby=5", "mac+learn+domwdeg+pairwise"] {
            let config: SolveConfig = spelling.parse().unwrap();
            let model = queens(n);
            let mut solver = Solver::new(&model, config).unwrap();
            solver.check_nogoods(true);
            let counted = solver.count(None);
            assert_eq!(counted.solutions, count, "{spelling} on {n} queens");
            assert!(counted.is_complete());
        }
    }
}

/// The shrunk case of a property test: a negative table over an interval
/// (a bitset limit of 2 makes every range of three values an interval).
#[test]
fn learning_with_a_negative_table_over_an_interval() {
    let mut model = Model::new();
    model.new_var([0]).unwrap();
    let x = model.new_var([-2, -1, 0]).unwrap();
    model.new_var(0..=1).unwrap();
    model.new_var(0..=1).unwrap();
    model.negative_table(&[x], &[vec![0]]).unwrap();
    let config = "mac+learn+mrv+seed=3".parse::<SolveConfig>().unwrap().with_bitset_limit(2);
    let mut solver = Solver::new(&model, config).unwrap();
    solver.check_nogoods(true);
    let mut count = 0;
    for solution in solver.solutions() {
        assert!(model.is_solution(solution.values()));
        assert_ne!(solution.value(x), 0);
        count += 1;
    }
    assert_eq!(count, 8);
}

/// A latin square of side `n` (rows and columns all different: merged into
/// the all-different system under `mac`), with `givens` as `(row, col, value)`.
fn latin_square(n: usize, givens: &[(usize, usize, i64)]) -> Model {
    let mut model = Model::new();
    let cells: Vec<VarId> = (0..n * n)
        .map(|c| match givens.iter().find(|&&(i, j, _)| i * n + j == c) {
            Some(&(_, _, v)) => model.new_var([v]).unwrap(),
            None => model.new_var(0..n as i64).unwrap(),
        })
        .collect();
    for i in 0..n {
        let row: Vec<VarId> = (0..n).map(|j| cells[i * n + j]).collect();
        let col: Vec<VarId> = (0..n).map(|j| cells[j * n + i]).collect();
        model.all_different(&row).unwrap();
        model.all_different(&col).unwrap();
    }
    model
}

/// The all-different system reasons over all its constraints at once: the
/// explanation of its work must name all their variables, not only those
/// of the constraint it blames (a nogood learnt from a blamed row alone once
/// excluded the only solution of a 25x25 sudoku).
#[test]
fn learning_through_the_all_different_system_keeps_every_solution() {
    let givens = [(0, 0, 0), (1, 2, 1), (2, 4, 2), (3, 1, 3), (4, 3, 4)];
    for (n, givens) in [(4, &[][..]), (5, &givens[..])] {
        let model = latin_square(n, givens);
        let expected = Solver::new(&model, "mac+mrv".parse().unwrap()).unwrap().count(None).solutions;
        for spelling in ["mac+learn+domwdeg", "mac+learn+domwdeg+intersect", "mac+learn+vsids+phase+luby=1"] {
            let mut solver = Solver::new(&model, spelling.parse().unwrap()).unwrap();
            solver.check_nogoods(true);
            let counted = solver.count(None);
            assert_eq!(counted.solutions, expected, "{spelling} on a latin square of side {n}");
        }
    }
}
