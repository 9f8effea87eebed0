//! Wide domains: what a range costs as a bitset and as an interval.
//!
//! - `sum-difference/10^6`: `x + y = n, x - y = 2` over `0..=10^6` (issue #13:
//!   378 s when every decision walked the domain), first solution under `mac`;
//! - `all-different/10x10^7`: ten variables over `0..=10^7`, pairwise different
//!   and summing to at most 45 (25 s and 1.1 GB with a matching over the values);
//! - `decisions/{bitset,interval}/W`: every value of one variable over `0..W`,
//!   counted: W decisions on a bitset, each fixing it (and trailing the words
//!   between its bounds, so W / 64 of them), or about 2W splits of an
//!   interval, each a constant. What decided the default bitset limit, 2^16.
//!
//! Run: `cargo bench --bench wide -- --warm-up-time 1 --measurement-time 3`.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use csp::{Model, Relation, SolveConfig, Solver};

fn sum_difference(n: i64) -> Model {
    let mut model = Model::new();
    let x = model.new_var(0..=n).unwrap();
    let y = model.new_var(0..=n).unwrap();
    model.linear(&[(1, x), (1, y)], Relation::Eq, n).unwrap();
    model.linear(&[(1, x), (-1, y)], Relation::Eq, 2).unwrap();
    model
}

fn all_different(n: usize, max: i64) -> Model {
    let mut model = Model::new();
    let xs = model.new_vars(n, 0..=max).unwrap();
    model.all_different(&xs).unwrap();
    let sum: Vec<_> = xs.iter().map(|&x| (1, x)).collect();
    model.linear(&sum, Relation::Le, (n * (n - 1) / 2) as i64).unwrap();
    model
}

fn bench_wide(c: &mut Criterion) {
    let mut group = c.benchmark_group("wide");
    let model = sum_difference(1_000_000);
    let config = SolveConfig::default();
    assert!(Solver::new(&model, config.clone()).unwrap().solve().is_solved());
    group.bench_function(BenchmarkId::new("mac", "sum-difference/10^6"), |b| {
        b.iter(|| Solver::new(&model, config.clone()).unwrap().solve().is_solved())
    });
    let model = all_different(10, 10_000_000);
    assert!(Solver::new(&model, config.clone()).unwrap().solve().is_solved());
    group.bench_function(BenchmarkId::new("mac", "all-different/10x10^7"), |b| {
        b.iter(|| Solver::new(&model, config.clone()).unwrap().solve().is_solved())
    });
    group.finish();

    let mut group = c.benchmark_group("decisions");
    group.sample_size(10);
    for bits in [8, 12, 16] {
        let width = 1i64 << bits;
        let mut model = Model::new();
        model.new_var(0..width).unwrap();
        for (name, limit) in [("bitset", u64::MAX), ("interval", 0)] {
            let config = SolveConfig::default().with_bitset_limit(limit);
            assert_eq!(Solver::new(&model, config.clone()).unwrap().count(None).solutions, width as u64);
            group.bench_function(BenchmarkId::new(name, format!("2^{bits}")), |b| {
                b.iter(|| Solver::new(&model, config.clone()).unwrap().count(None).solutions)
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_wide);
criterion_main!(benches);
