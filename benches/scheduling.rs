//! Scheduling and tours: the structural globals on their classic instances.
//!
//! - `ft06`: Fisher and Thompson's 6x6 job shop (the gallery's
//!   `examples/jobshop.rs`, whose model this repeats: one `disjunctive` per
//!   machine), its makespan minimised by branch and bound from the horizon
//!   (the sum of the durations) to the optimum 55, proved, under the engine's
//!   default configuration (`mac+mrv`) and under `mac+domwdeg`: the issue's
//!   target is the whole optimisation under 100 ms.
//! - `knights-tour`: the first closed tour of the 8x8 board, and every closed
//!   tour of 6x6 counted (19,724 directed ones), through `circuit`.
//!
//! Model building happens outside the timed loop (the solver is built inside:
//! its compilation is part of solving); each answer is checked once before timing.
//!
//! Run: `cargo bench --bench scheduling -- --warm-up-time 1 --measurement-time 3`.

use criterion::{Criterion, criterion_group, criterion_main};
use csp::{Model, OptimizationOutcome, Relation, SolveConfig, Solver, VarId, VarOrder};

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
/// other operations, precedences, one `disjunctive` per machine, a makespan,
/// minimised.
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
    model.minimize(makespan).expect("a variable of the model");
    model
}

/// The proved optimum of `model` under `config`.
fn optimum(model: &Model, config: &SolveConfig) -> i64 {
    match Solver::new(model, config.clone()).expect("small domains").optimize() {
        OptimizationOutcome::Optimal { objective, .. } => objective,
        other => panic!("{config}: {other:?}"),
    }
}

fn job_shop(c: &mut Criterion) {
    let mut group = c.benchmark_group("ft06");
    let horizon = FT06.iter().flatten().map(|&(_, d)| d).sum();
    let model = ft06(horizon);
    for config in [SolveConfig::default(), SolveConfig::default().with_var_order(VarOrder::DomWdeg)] {
        assert_eq!(optimum(&model, &config), 55, "{config}");
        group.bench_function(format!("{config}/optimum-55-proved"), |b| b.iter(|| optimum(&model, &config)));
    }
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
