//! The hot path (propagate, assign, undo) does not allocate: once a solver has
//! run once (its trail, queue and buffers have grown to size), a second run
//! performs no allocation at all. Checked with a global allocator that counts
//! the allocations made inside `assert_no_alloc`.

use assert_no_alloc::{AllocDisabler, assert_no_alloc, reset_violation_count, violation_count};
use csp::{Model, Relation, SolveConfig, Solver};

#[global_allocator]
static ALLOCATOR: AllocDisabler = AllocDisabler;

#[path = "support/queens.rs"]
mod support;

use support::queens;

fn sudoku() -> Model {
    let mut model = Model::new();
    let cells = model.new_vars(81, 1..=9).unwrap();
    for i in 0..9 {
        let row: Vec<_> = (0..9).map(|j| cells[i * 9 + j]).collect();
        let column: Vec<_> = (0..9).map(|j| cells[j * 9 + i]).collect();
        let block: Vec<_> = (0..9).map(|j| cells[(i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3]).collect();
        for unit in [row, column, block] {
            model.all_different(&unit).unwrap();
        }
    }
    model
}

#[test]
fn search_does_not_allocate_once_warmed_up() {
    let configs = [
        "bt+input",
        "bt-cbj+input",
        "fc+mrv",
        "fc-cbj+mrv",
        "mac+mrv",
        "mac+domwdeg",
        "mac+mrvdeg+lcv",
        "mac+mrv+pairwise",
        "fc+mrv+random",
    ];
    let model = queens(8);
    for text in configs {
        let config: SolveConfig = text.parse().unwrap();
        let mut solver = Solver::new(&model, config).unwrap();
        assert_eq!(solver.count(None).solutions, 92);
        reset_violation_count();
        let count = assert_no_alloc(|| solver.count(None).solutions);
        assert_eq!(count, 92);
        assert_eq!(violation_count(), 0, "{text}: the second run allocated");
    }
}

#[test]
fn re_solving_with_new_assumptions_does_not_allocate() {
    // The sudoku tool's loop: one solver, new givens per puzzle.
    let model = sudoku();
    let cells: Vec<_> = model.vars().collect();
    let puzzles = [
        "...6...........5.1369.8.4.......68.....13...94.5..9.........3....6..7...1..34....",
        "8.9.2.3...37.6.5.....4.97....29.1.6.1..3.6.........1.37.......85......14...2846.5",
    ];
    let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
    let solve = |solver: &mut Solver<'_>, puzzle: &str| {
        solver.clear_assumptions();
        for (cell, digit) in puzzle.bytes().enumerate() {
            if digit != b'.' {
                solver.assume(cells[cell], i64::from(digit - b'0')).unwrap();
            }
        }
        solver.count(Some(2)).solutions
    };
    for puzzle in puzzles {
        assert_eq!(solve(&mut solver, puzzle), 1);
    }
    reset_violation_count();
    for puzzle in puzzles {
        assert_eq!(assert_no_alloc(|| solve(&mut solver, puzzle)), 1);
    }
    assert_eq!(violation_count(), 0, "solving again allocated");
}

#[test]
fn a_long_sum_does_not_allocate_once_warmed_up() {
    // A sum of 40 terms keeps its sums from call to call (`LongSum`): its
    // stack of trail points and its buffer of changed terms grow in the
    // first run, and a second run reuses them.
    let mut model = Model::new();
    let xs = model.new_vars(40, 0..=3).unwrap();
    let terms: Vec<_> = xs.iter().enumerate().map(|(i, &x)| (1 + (i % 5) as i64, x)).collect();
    model.linear(&terms, Relation::Eq, 12).unwrap();
    for text in ["mac+mrv", "fc+mrv", "mac+domwdeg"] {
        let config: SolveConfig = text.parse().unwrap();
        let mut solver = Solver::new(&model, config).unwrap();
        let first = solver.count(Some(500)).solutions;
        assert_eq!(first, 500, "{text}");
        reset_violation_count();
        let count = assert_no_alloc(|| solver.count(Some(500)).solutions);
        assert_eq!(count, first);
        assert_eq!(violation_count(), 0, "{text}: the second run allocated");
    }
}
