//! Engine benchmarks: counting all N-queens solutions, the classic measure of
//! raw search and propagation speed. The model is built here with the plain
//! engine API (three all-different constraints), outside the timed loop, and
//! the count is checked once before timing.
//!
//! Run: `cargo bench --bench engine`.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use csp::{AllDifferentStrength, Model, Propagation, SolveConfig, Solver, VarOrder};

fn queens(n: usize) -> Model {
    let mut model = Model::new();
    let q = model.new_vars(n, 0..n as i64).expect("a valid domain");
    let up: Vec<i64> = (0..n as i64).collect();
    let down: Vec<i64> = (0..n as i64).map(|i| -i).collect();
    model.all_different(&q).expect("distinct variables");
    model.all_different_offset(&q, &up).expect("distinct variables");
    model.all_different_offset(&q, &down).expect("distinct variables");
    model
}

const COUNTS: [(usize, u64); 3] = [(8, 92), (10, 724), (12, 14_200)];

fn count_queens(c: &mut Criterion) {
    let mut group = c.benchmark_group("queens-count");
    group.sample_size(10);
    let configs = [
        ("fc+mrv", Propagation::ForwardChecking, AllDifferentStrength::Pairwise),
        ("mac+mrv", Propagation::Mac, AllDifferentStrength::Pairwise),
        ("mac+mrv/matching", Propagation::Mac, AllDifferentStrength::Matching),
    ];
    for (n, expected) in COUNTS {
        let model = queens(n);
        for (name, propagation, strength) in configs {
            let config = SolveConfig::default()
                .with_propagation(propagation)
                .with_var_order(VarOrder::Mrv)
                .with_all_different(strength);
            let count = Solver::new(&model, config.clone()).expect("small domains").count(None);
            assert_eq!(count.solutions, expected, "{name} on {n}-queens");
            group.bench_with_input(BenchmarkId::new(name, n), &config, |b, config| {
                b.iter(|| Solver::new(&model, config.clone()).expect("small domains").count(None).solutions)
            });
        }
    }
    group.finish();
}

criterion_group!(benches, count_queens);
criterion_main!(benches);
