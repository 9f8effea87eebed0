//! Scheduling and tours: the structural globals on their classic instances.
//!
//! - `ft06`: Fisher and Thompson's 6x6 job shop, the gallery's model included
//!   from `examples/jobshop/model.rs` as it is (one `disjunctive` per
//!   machine), its makespan minimised by branch and bound from the horizon
//!   (the sum of the durations) to the optimum 55, proved, under the engine's
//!   default configuration (`mac+mrv`) and under `mac+domwdeg`: the issue's
//!   target is the whole optimisation under 100 ms.
//! - `knights-tour`: the first closed tour of the 8x8 board, and every closed
//!   tour of 6x6 counted (19,724 directed ones), through `circuit`: the
//!   gallery's model, included from `examples/knights_tour/model.rs`.
//!
//! Model building happens outside the timed loop (the solver is built inside:
//! its compilation is part of solving); each answer is checked once before timing.
//!
//! Run: `cargo bench --bench scheduling -- --warm-up-time 1 --measurement-time 3`.

use criterion::{Criterion, criterion_group, criterion_main};
use csp::{Model, OptimizationOutcome, SolveConfig, Solver, VarOrder};

#[path = "../examples/jobshop/model.rs"]
mod jobshop;
#[path = "../examples/knights_tour/model.rs"]
mod knights_tour;

use jobshop::JobShop;
use knights_tour::KnightsTour;

/// The proved optimum of `model` under `config`.
fn optimum(model: &Model, config: &SolveConfig) -> i64 {
    match Solver::new(model, config.clone()).expect("small domains").optimize() {
        OptimizationOutcome::Optimal { objective, .. } => objective,
        other => panic!("{config}: {other:?}"),
    }
}

fn job_shop(c: &mut Criterion) {
    let mut group = c.benchmark_group("ft06");
    let model = JobShop::ft06(None).build().expect("a valid model");
    for config in [SolveConfig::default(), SolveConfig::default().with_var_order(VarOrder::DomWdeg)] {
        assert_eq!(optimum(&model, &config), 55, "{config}");
        group.bench_function(format!("{config}/optimum-55-proved"), |b| b.iter(|| optimum(&model, &config)));
    }
    group.finish();
}

fn tours(c: &mut Criterion) {
    let mut group = c.benchmark_group("knights-tour");
    group.sample_size(10);
    let board8 = KnightsTour { rows: 8, columns: 8 }.build().expect("a valid model");
    let board6 = KnightsTour { rows: 6, columns: 6 }.build().expect("a valid model");
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
