//! Min-conflicts local search (`csp::LocalSearch`): N-queens up to a million
//! (target: N = 1,000,000 in under 3 s and 200 MB; memory is measured with
//! `/usr/bin/time -v`, see docs/queens.md), and graph colouring, whose `!=`
//! constraints have no counter of their own and are scored by recomputing their
//! violation. Models are built outside the timed loop; each answer is checked
//! once before timing.
//!
//! Run: `cargo bench --bench local_search -- --warm-up-time 1 --measurement-time 3`.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use csp::rng::Rng;
use csp::{LocalSearch, LocalSearchConfig, Model};
use csp_queens::Queens;

fn config(seed: u64) -> LocalSearchConfig {
    LocalSearchConfig { seed, max_steps: Some(100_000_000), ..LocalSearchConfig::default() }
}

fn queens(c: &mut Criterion) {
    let mut group = c.benchmark_group("min-conflicts-queens");
    group.sample_size(10);
    for n in [1_000, 100_000, 1_000_000] {
        let queens = Queens::new(n).expect("a valid size");
        let mut search = LocalSearch::new(queens.model(), config(1));
        let solution = search.solve().into_solution().expect("a solution within the steps");
        csp_queens::verify(queens.columns(&solution)).expect("a valid placement");
        drop(solution);
        // Each run starts from a new greedy assignment (the random sequence goes on).
        group.bench_function(BenchmarkId::from_parameter(n), |b| b.iter(|| search.solve().is_solved()));
    }
    group.finish();
}

/// A random graph with a planted 3-colouring: `edges` edges, each between two
/// nodes of different planted colours.
fn planted_colouring(nodes: usize, edges: usize) -> Model {
    let mut rng = Rng::new(7);
    let colour: Vec<u64> = (0..nodes).map(|_| rng.below(3)).collect();
    let mut model = Model::new();
    let x = model.new_vars(nodes, 0..=2).expect("a valid domain");
    let mut posted = 0;
    while posted < edges {
        let (a, b) = (rng.below(nodes as u64) as usize, rng.below(nodes as u64) as usize);
        if colour[a] != colour[b] {
            model.not_equal(x[a], x[b]).expect("variables of the model");
            posted += 1;
        }
    }
    model
}

fn colouring(c: &mut Criterion) {
    let mut group = c.benchmark_group("min-conflicts-colouring");
    group.sample_size(10);
    // Average degree 4: well below the 3-colouring threshold (about 4.7), so
    // local search finds colourings quickly.
    for nodes in [1_000, 10_000] {
        let model = planted_colouring(nodes, 2 * nodes);
        let mut search = LocalSearch::new(&model, config(1));
        let solution = search.solve().into_solution().expect("a colouring within the steps");
        assert!(model.is_solution(solution.values()));
        drop(solution);
        group.bench_function(BenchmarkId::new("3-colours", nodes), |b| b.iter(|| search.solve().is_solved()));
    }
    group.finish();
}

criterion_group!(benches, queens, colouring);
criterion_main!(benches);
