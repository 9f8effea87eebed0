//! A nonogram through `regular`: Jan Wolter's "Bucks" (webpbn #27, 27 columns x
//! 23 rows), the gallery's built-in puzzle, solved from the clues under the
//! default configuration (`mac`) and under forward checking. The model is the
//! gallery's, included from `examples/nonogram/lines.rs` as it is; building it
//! (50 automata) is timed separately from solving. The answer is checked once
//! against the clues before timing. Target (issue #13): under 10 ms.
//!
//! Run: `cargo bench --bench nonogram -- --warm-up-time 1 --measurement-time 3`.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use csp::{Propagation, SolveConfig, Solver};

#[path = "../examples/nonogram/lines.rs"]
mod lines;

use lines::Clues;

const BUCKS: &str = include_str!("../examples/data/nonogram.txt");

/// Reads the clue sections of a nonogram file (the fixture is known to be well formed).
fn clues(text: &str) -> Clues {
    let mut clues = Clues { rows: Vec::new(), columns: Vec::new() };
    let mut rows = true;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        match line {
            "rows" => rows = true,
            "columns" => rows = false,
            _ => {
                let clue = line.split_whitespace().map(|w| w.parse().expect("a block length")).collect();
                if rows { clues.rows.push(clue) } else { clues.columns.push(clue) }
            }
        }
    }
    clues
}

fn nonogram(c: &mut Criterion) {
    let mut group = c.benchmark_group("nonogram");
    let bucks = clues(BUCKS);
    let (model, _) = bucks.model().expect("a valid model");
    group.bench_function("build/bucks", |b| b.iter(|| bucks.model().expect("a valid model")));
    for propagation in [Propagation::Mac, Propagation::ForwardChecking] {
        let config = SolveConfig::default().with_propagation(propagation);
        let mut solver = Solver::new(&model, config.clone()).expect("small domains");
        let solution = solver.solve().into_solution().expect("Bucks has a solution");
        assert!(bucks.accepts(solution.values()), "the answer has the clues' blocks");
        let id = BenchmarkId::new(format!("solve/{propagation}"), "bucks");
        group.bench_with_input(id, &config, |b, config| {
            b.iter(|| Solver::new(&model, config.clone()).expect("small domains").solve().is_solved())
        });
    }
    group.finish();
}

criterion_group!(benches, nonogram);
criterion_main!(benches);
