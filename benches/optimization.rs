//! Branch and bound: the time to find the best solution and prove it optimal.
//!
//! - `knapsack/p07`: Burkardt's P07, the gallery's knapsack (15 items, optimum
//!   1458), one 0/1 variable per item, the total value maximised.
//!
//! ft06's optimisation (through `disjunctive`) is timed in `benches/scheduling.rs`.
//!
//! Models are built outside the timed loop and every optimum is checked once
//! before timing.
//!
//! Run: `cargo bench --bench optimization -- --warm-up-time 1 --measurement-time 3`.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use csp::{LinearExpr, Model, OptimizationOutcome, Relation, SolveConfig, Solver, VarId};

/// Burkardt's P07 knapsack (see `examples/knapsack.rs`).
fn knapsack() -> Model {
    const ITEMS: [(i64, i64); 15] = [
        (70, 135),
        (73, 139),
        (77, 149),
        (80, 150),
        (82, 156),
        (87, 163),
        (90, 173),
        (94, 184),
        (98, 192),
        (106, 201),
        (110, 210),
        (113, 214),
        (115, 221),
        (118, 229),
        (120, 240),
    ];
    let mut model = Model::new();
    let take = model.new_vars(ITEMS.len(), 0..=1).unwrap();
    let weight: Vec<(i64, VarId)> = ITEMS.iter().zip(&take).map(|(&(w, _), &x)| (w, x)).collect();
    model.linear(&weight, Relation::Le, 750).unwrap();
    model.maximize(ITEMS.iter().zip(&take).map(|(&(_, v), &x)| v * x).sum::<LinearExpr>()).unwrap();
    model
}

fn optimum(model: &Model, config: &SolveConfig) -> i64 {
    match Solver::new(model, config.clone()).unwrap().optimize() {
        OptimizationOutcome::Optimal { objective, .. } => objective,
        other => panic!("{config}: {other:?}"),
    }
}

fn bench_optimization(c: &mut Criterion) {
    let mut group = c.benchmark_group("optimize");
    let model = knapsack();
    let config = SolveConfig::default();
    assert_eq!(optimum(&model, &config), 1458);
    group.bench_function(BenchmarkId::new("mac+mrv", "knapsack/p07"), |b| b.iter(|| optimum(&model, &config)));
    group.finish();
}

criterion_group!(benches, bench_optimization);
criterion_main!(benches);
