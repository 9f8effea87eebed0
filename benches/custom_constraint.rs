//! What a propagator buys: the user-defined constraint "no three equal" (no digit
//! three times in a row or column) defined by its check alone, propagated by the
//! engine's generic support checking, against the same constraint with its own
//! propagator. The constraint is the gallery's, included from
//! `examples/custom_constraint/no_three_equal.rs` as it is.
//!
//! Instances: an empty 8x8 grid (digits 1 to 4, first solution), the 8x8 puzzle of
//! `examples/data/no_three_8.txt` (one solution, counted), and the 6x6 built-in puzzle
//! of the `custom_constraint` example under forward checking. Models are built outside
//! the timed loop and every answer is checked once before timing.
//!
//! Run: `cargo bench --bench custom_constraint -- --warm-up-time 1 --measurement-time 3`.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use csp::{Model, Propagation, SolveConfig, Solver, VarId};

#[path = "../examples/custom_constraint/no_three_equal.rs"]
mod no_three_equal;

use no_three_equal::{NoThreeEqual, NoThreeEqualCheck, no_three_equal};

const PUZZLE_8: &str = include_str!("../examples/data/no_three_8.txt");
const PUZZLE_6: &str = include_str!("../examples/data/no_three.txt");

/// Reads a grid of digits and dots (the fixtures are known to be well formed).
fn grid(text: &str) -> Vec<Option<i64>> {
    text.lines()
        .filter(|line| !line.trim_start().starts_with('#'))
        .flat_map(|line| line.split_whitespace())
        .map(|cell| cell.parse().ok())
        .collect()
}

/// The puzzle's model with the check-only constraint or the propagator on every line.
fn model(givens: &[Option<i64>], propagator: bool) -> (Model, Vec<VarId>) {
    let n = (givens.len() as f64).sqrt() as usize;
    let mut model = Model::new();
    let cells: Vec<VarId> = givens
        .iter()
        .map(|given| match given {
            Some(d) => model.new_var(*d..=*d),
            None => model.new_var(1..=(n / 2) as i64),
        })
        .collect::<Result<_, _>>()
        .expect("valid domains");
    let rows = (0..n).map(|r| (0..n).map(|c| cells[r * n + c]).collect::<Vec<_>>());
    let columns = (0..n).map(|c| (0..n).map(|r| cells[r * n + c]).collect::<Vec<_>>());
    for line in rows.chain(columns) {
        let posted =
            if propagator { model.post(NoThreeEqual::new(line)) } else { model.post(NoThreeEqualCheck::new(line)) };
        posted.expect("a valid scope");
    }
    (model, cells)
}

fn check_answer(givens: &[Option<i64>], values: &[i64]) {
    let n = (givens.len() as f64).sqrt() as usize;
    for (given, value) in givens.iter().zip(values) {
        assert!(given.is_none_or(|d| d == *value), "a given digit changed");
    }
    for k in 0..n {
        let row: Vec<i64> = (0..n).map(|c| values[k * n + c]).collect();
        let column: Vec<i64> = (0..n).map(|r| values[r * n + k]).collect();
        assert!(no_three_equal(&row) && no_three_equal(&column), "a line breaks the rule");
    }
}

fn compare(c: &mut Criterion) {
    let mut group = c.benchmark_group("no-three-equal");
    group.sample_size(20);
    let empty_8 = vec![None; 64];
    let puzzle_8 = grid(PUZZLE_8);
    let puzzle_6 = grid(PUZZLE_6);
    // (instance, givens, propagation, count all solutions?)
    let cases: [(&str, &[Option<i64>], Propagation, bool); 3] = [
        ("empty8", &empty_8, Propagation::Mac, false),
        ("puzzle8", &puzzle_8, Propagation::Mac, true),
        ("puzzle6", &puzzle_6, Propagation::ForwardChecking, true),
    ];
    for (instance, givens, propagation, count) in cases {
        for (form, propagator) in [("check-only", false), ("propagator", true)] {
            let (model, _) = model(givens, propagator);
            let config = SolveConfig::default().with_propagation(propagation);
            let mut solver = Solver::new(&model, config.clone()).expect("small domains");
            let first = solver.solve().into_solution().expect("the instances are satisfiable");
            check_answer(givens, first.values());
            if count {
                assert_eq!(solver.count(None).solutions, 1, "{instance} has one solution");
            }
            let id = BenchmarkId::new(format!("{form}/{propagation}"), instance);
            group.bench_with_input(id, &config, |b, config| {
                b.iter(|| {
                    let mut solver = Solver::new(&model, config.clone()).expect("small domains");
                    if count { solver.count(None).solutions } else { u64::from(solver.solve().is_solved()) }
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, compare);
criterion_main!(benches);
