//! Scheduling and tours: the structural globals on their classic instances.
//!
//! - `ft06`: Fisher and Thompson's 6x6 job shop (the gallery's
//!   `examples/jobshop.rs`, whose model this repeats): a schedule within
//!   makespan 55 found, and makespan 54 proved infeasible, under the engine's
//!   default configuration (`mac+mrv`). Together they are the proof that 55 is
//!   optimal; the target is the whole optimisation under 100 ms.
//! - `knights-tour`: the first closed tour of the 8x8 board, and every closed
//!   tour of 6x6 counted (19,724 directed ones), through `circuit`.
//!
//! Model building happens outside the timed loop (the solver is built inside:
//! its compilation is part of solving); each answer is checked once before timing.
//!
//! Run: `cargo bench --bench scheduling -- --warm-up-time 1 --measurement-time 3`.

use criterion::{Criterion, criterion_group, criterion_main};
use csp::{Model, Relation, SolveConfig, Solver, VarId};

/// ft06: for each job, its operations in order as `(machine, duration)`.
const FT06: [[(usize, i64); 6]; 6] = [
    [(2, 1), (0, 3), (1, 6), (3, 7), (5, 3), (4, 6)],
    [(1, 8), (2, 5), (4, 10), (5, 10), (0, 10), (3, 4)],
    [(2, 5), (3, 4), (5, 8), (0, 9), (1, 1), (4, 7)],
    [(1, 5), (0, 5), (2, 5), (3, 3), (4, 8), (5, 9)],
    [(2, 9), (1, 3), (4, 5), (5, 4), (0, 3), (3, 1)],
    [(1, 3), (3, 3), (5, 9), (0, 10), (4, 4), (2, 1)],
];

/// ft06 with every job done by `bound`: start times with room for the job's
/// other operations, precedences, one `disjunctive` per machine, a makespan.
fn ft06(bound: i64) -> Model {
    let mut model = Model::new();
    let mut by_machine: Vec<(Vec<VarId>, Vec<i64>)> = vec![(Vec::new(), Vec::new()); 6];
    let mut ends: Vec<(VarId, i64)> = Vec::new();
    for job in FT06 {
        let total: i64 = job.iter().map(|&(_, d)| d).sum();
        let mut before = 0;
        let mut previous: Option<(VarId, i64)> = None;
        for (machine, duration) in job {
            let start = model.new_var(before..=bound - (total - before)).expect("a valid domain");
            if let Some((earlier, length)) = previous {
                model.linear(&[(1, earlier), (-1, start)], Relation::Le, -length).expect("a valid sum");
            }
            by_machine[machine].0.push(start);
            by_machine[machine].1.push(duration);
            previous = Some((start, duration));
            before += duration;
        }
        ends.push(previous.expect("jobs have operations"));
    }
    for (starts, durations) in &by_machine {
        model.disjunctive(starts, durations).expect("a valid machine");
    }
    // Created last, as in the example, so that MRV breaks ties the same way.
    let makespan = model.new_var(0..=bound).expect("a valid domain");
    for (last, length) in ends {
        model.linear(&[(1, last), (-1, makespan)], Relation::Le, -length).expect("a valid sum");
    }
    model
}

fn job_shop(c: &mut Criterion) {
    let mut group = c.benchmark_group("ft06");
    let feasible = ft06(55);
    let infeasible = ft06(54);
    assert!(Solver::new(&feasible, SolveConfig::default()).expect("small domains").solve().is_solved());
    assert!(!Solver::new(&infeasible, SolveConfig::default()).expect("small domains").solve().is_solved());
    group.bench_function("mac+mrv/makespan-55-found", |b| {
        b.iter(|| Solver::new(&feasible, SolveConfig::default()).expect("small domains").solve().is_solved())
    });
    group.bench_function("mac+mrv/makespan-54-infeasible", |b| {
        b.iter(|| Solver::new(&infeasible, SolveConfig::default()).expect("small domains").solve().is_solved())
    });
    group.finish();
}

/// The closed knight's tours of a board through one `circuit`.
fn knights_tour(rows: i64, columns: i64) -> Model {
    let mut model = Model::new();
    let moves = [(-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1)];
    let next: Vec<VarId> = (0..rows * columns)
        .map(|square| {
            let (row, column) = (square / columns, square % columns);
            let targets: Vec<i64> = moves
                .iter()
                .map(|&(dr, dc)| (row + dr, column + dc))
                .filter(|&(r, c)| (0..rows).contains(&r) && (0..columns).contains(&c))
                .map(|(r, c)| r * columns + c)
                .collect();
            model.new_var(targets).expect("every square of these boards has moves")
        })
        .collect();
    model.circuit(&next, 0).expect("a valid circuit");
    model
}

fn tours(c: &mut Criterion) {
    let mut group = c.benchmark_group("knights-tour");
    group.sample_size(10);
    let board8 = knights_tour(8, 8);
    let board6 = knights_tour(6, 6);
    assert!(Solver::new(&board8, SolveConfig::default()).expect("small domains").solve().is_solved());
    assert_eq!(Solver::new(&board6, SolveConfig::default()).expect("small domains").count(None).solutions, 19_724);
    group.bench_function("mac+mrv/8x8-first", |b| {
        b.iter(|| Solver::new(&board8, SolveConfig::default()).expect("small domains").solve().is_solved())
    });
    group.bench_function("mac+mrv/6x6-count", |b| {
        b.iter(|| Solver::new(&board6, SolveConfig::default()).expect("small domains").count(None).solutions)
    });
    group.finish();
}

criterion_group!(benches, job_shop, tours);
criterion_main!(benches);
