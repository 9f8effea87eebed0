//! N-queens through the `csp-queens` crate, with the configurations the `queens`
//! tool uses by default: counting all solutions of 12-queens (target < 0.3 s),
//! and the first solution of large boards with forward checking, MRV and a
//! seeded random value order (targets: N = 1,000 < 50 ms, N = 10,000 < 2 s).
//! The model is built outside the timed loop; every answer is checked once
//! before timing, the placements with the independent verifier.
//!
//! Run: `cargo bench --bench queens -- --warm-up-time 1 --measurement-time 3`.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use csp::{AllDifferentStrength, Propagation, Solver};
use csp_queens::{Queens, default_config};

fn count(c: &mut Criterion) {
    let mut group = c.benchmark_group("queens-count");
    group.sample_size(10);
    let queens = Queens::new(12).expect("a valid size");
    let configs = [
        ("fc+mrv+pairwise", default_config(12, false)),
        (
            "mac+mrv+matching",
            default_config(12, false)
                .with_propagation(Propagation::Mac)
                .with_all_different(AllDifferentStrength::Matching),
        ),
    ];
    for (name, config) in configs {
        let solutions = Solver::new(queens.model(), config.clone()).expect("small domains").count(None).solutions;
        assert_eq!(solutions, 14_200, "{name}");
        group.bench_with_input(BenchmarkId::new(name, 12), &config, |b, config| {
            b.iter(|| Solver::new(queens.model(), config.clone()).expect("small domains").count(None).solutions)
        });
    }
    group.finish();
}

fn first_solution(c: &mut Criterion) {
    let mut group = c.benchmark_group("queens-first");
    group.sample_size(10);
    for n in [1_000, 10_000] {
        let queens = Queens::new(n).expect("a valid size");
        // The tool's default for a first solution: random values above 30 queens.
        let config = default_config(n, true);
        assert_eq!(config.value_order, csp::ValueOrder::Random);
        let mut solver = Solver::new(queens.model(), config.clone()).expect("domains fit");
        let solution = solver.solve().into_solution().expect("a solution");
        csp_queens::verify(queens.columns(&solution)).expect("a valid placement");
        drop(solver);
        group.bench_with_input(BenchmarkId::new("fc+mrv+random", n), &config, |b, config| {
            b.iter(|| {
                let mut solver = Solver::new(queens.model(), config.clone()).expect("domains fit");
                solver.solve().is_solved()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, count, first_solution);
criterion_main!(benches);
