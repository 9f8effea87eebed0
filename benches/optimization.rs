//! Branch and bound: the time to find the best solution and prove it optimal.
//!
//! - `knapsack/p07`: Burkardt's P07, the gallery's knapsack (15 items, optimum
//!   1458), one 0/1 variable per item, the total value maximised; the model is
//!   the example's, included from `examples/knapsack/model.rs` as it is.
//!
//! ft06's optimisation (through `disjunctive`) is timed in `benches/scheduling.rs`.
//!
//! Models are built outside the timed loop and every optimum is checked once
//! before timing.
//!
//! Run: `cargo bench --bench optimization -- --warm-up-time 1 --measurement-time 3`.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use csp::{Model, OptimizationOutcome, SolveConfig, Solver};

#[path = "../examples/knapsack/model.rs"]
mod knapsack;

use knapsack::{CAPACITY, Knapsack};

fn optimum(model: &Model, config: &SolveConfig) -> i64 {
    match Solver::new(model, config.clone()).unwrap().optimize() {
        OptimizationOutcome::Optimal { objective, .. } => objective,
        other => panic!("{config}: {other:?}"),
    }
}

fn bench_optimization(c: &mut Criterion) {
    let mut group = c.benchmark_group("optimize");
    let (model, _) = Knapsack::p07(CAPACITY).model().expect("a valid model");
    let config = SolveConfig::default();
    assert_eq!(optimum(&model, &config), 1458);
    group.bench_function(BenchmarkId::new("mac+mrv", "knapsack/p07"), |b| b.iter(|| optimum(&model, &config)));
    group.finish();
}

criterion_group!(benches, bench_optimization);
criterion_main!(benches);
