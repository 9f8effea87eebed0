//! Generalized sudoku through the `csp-sudoku` crate, and the same 9x9 puzzles
//! through the specialised `sudoku` crate from the registry, so the gap to a
//! 9x9 specialist shows in one run.
//!
//! Each iteration solves a whole set (criterion reports the time per puzzle
//! through the element throughput). Parsing happens once, outside the timed
//! loop. As in the tool, one solver per shape takes each puzzle's givens as
//! assumptions (its construction is inside the loop, once per set); the
//! `fresh-model` benchmark builds a model and a solver per puzzle instead, to
//! show what that reuse saves. Every answer is checked once before timing,
//! ours with the engine-free verifier and the registry crate's against ours.
//!
//! The registry crate's `solution` (`registry-sudoku-0.8`, parsing each line
//! in the loop) looks for a second solution to prove the first unique, which
//! ours (`solve`) does not: the like-for-like pairs are `mac+mrv+matching`
//! against `registry-sudoku-0.8/first-solution` (`some_solution`, parsed
//! before), and `mac+mrv+matching/unique` (solutions counted up to two)
//! against `registry-sudoku-0.8`; `mac+mrv+bands` and `mac+mrv+bands/unique`
//! are the same two with the 9x9 band propagator (`Units::Bands`) in place
//! of the 27 all-differents.
//!
//! The 9x9 sets (17clue, every 250th puzzle; top95; top1465) come from the
//! shared data folder (`../shared/data/sudoku`, skipped with a message when
//! absent); the 16x16 set is the crate's generated
//! fixture (`crates/sudoku/tests/data/bench-16x16.txt`).
//!
//! Run: `cargo bench --bench sudoku -- --warm-up-time 1 --measurement-time 3`.

use std::path::{Path, PathBuf};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use csp::{AllDifferentStrength, SolveConfig, VarOrder};
use csp_sudoku::check::verify_solution;
use csp_sudoku::default_config;
use csp_sudoku::model::{self, Answer, ShapeSolver, SudokuModel, Units};
use csp_sudoku::{Grid, PuzzleReader};

fn shared(name: &str) -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/sudoku").join(name);
    if path.is_file() {
        Some(path)
    } else {
        eprintln!("skipped: {} is absent", path.display());
        None
    }
}

fn read(path: &Path) -> Vec<Grid> {
    let file = std::fs::File::open(path).expect("readable");
    PuzzleReader::new(std::io::BufReader::new(file)).map(|p| p.expect("a valid puzzle").grid).collect()
}

/// Solves every puzzle (all of one shape) as the tool does: one solver for the
/// shape, each puzzle's givens as assumptions.
fn solve_all(blank: &SudokuModel, puzzles: &[Grid], config: &SolveConfig) -> usize {
    let mut solver = ShapeSolver::new(blank, config.clone()).expect("a valid model");
    puzzles.iter().filter(|p| matches!(solver.solve(p).expect("the solver's shape").0, Answer::Solved(_))).count()
}

/// Solves every puzzle with a model and a solver built for it.
fn solve_all_fresh(puzzles: &[Grid], config: &SolveConfig) -> usize {
    puzzles.iter().filter(|p| matches!(model::solve(p, config).expect("a valid model").0, Answer::Solved(_))).count()
}

/// Checks every answer once, before timing.
fn check_answers(puzzles: &[Grid], config: &SolveConfig) {
    for puzzle in puzzles {
        match model::solve(puzzle, config).expect("a valid model").0 {
            Answer::Solved(solution) => verify_solution(puzzle, &solution).expect("a verified solution"),
            other => panic!("{puzzle:?}: {other:?}"),
        }
    }
}

/// Counts the solutions of every puzzle up to two, as the tool's uniqueness
/// check does: what the registry crate's `solution` does (below).
fn count_all(blank: &SudokuModel, puzzles: &[Grid], config: &SolveConfig) -> usize {
    let mut solver = ShapeSolver::new(blank, config.clone()).expect("a valid model");
    puzzles.iter().filter(|p| solver.count(p, Some(2)).expect("the solver's shape").0.solutions == 1).count()
}

/// The registry crate's unique solutions (`solution` looks for two and
/// answers only when there is one), each line parsed in the loop: the
/// comparison of the earlier runs in BENCHMARKS.md.
fn registry_solve_all(lines: &[String]) -> usize {
    lines.iter().filter_map(|l| sudoku::Sudoku::from_str_line(l).ok()?.solution()).count()
}

/// The registry crate's first solutions (`some_solution`), parsed before:
/// the same work as [`solve_all`].
fn registry_first_all(grids: &[sudoku::Sudoku]) -> usize {
    grids.iter().filter_map(|g| g.some_solution()).count()
}

fn check_registry(puzzles: &[Grid], lines: &[String]) {
    for (puzzle, line) in puzzles.iter().zip(lines) {
        let theirs = sudoku::Sudoku::from_str_line(line).expect("a 9x9 line").solution().expect("solved").to_bytes();
        let Answer::Solved(ours) = model::solve(puzzle, &default_config(9)).expect("a valid model").0 else {
            panic!("unsolved")
        };
        assert_eq!(&theirs[..], ours.cells(), "the two solvers disagree on {line}");
    }
}

/// `pairwise` adds the pairwise all-different run (slow: thousands of nodes
/// per puzzle), worth it on top95 only.
fn nine_by_nine(c: &mut Criterion, name: &str, puzzles: Vec<Grid>, pairwise: bool) {
    let lines: Vec<String> = puzzles.iter().map(csp_sudoku::format::line).collect();
    let mut group = c.benchmark_group(format!("sudoku-{name}"));
    group.sample_size(10);
    group.throughput(Throughput::Elements(puzzles.len() as u64));
    let blank = SudokuModel::blank(puzzles[0].shape()).expect("a valid model");
    let configs = [
        ("mac+mrv+matching", default_config(9)),
        ("mac+dom-wdeg+matching", default_config(9).with_var_order(VarOrder::DomWdeg)),
        ("mac+mrv+pairwise", default_config(9).with_all_different(AllDifferentStrength::Pairwise)),
    ];
    for (id, config) in configs {
        if id.ends_with("pairwise") && !pairwise {
            continue;
        }
        check_answers(&puzzles, &config);
        group.bench_with_input(BenchmarkId::new(id, puzzles.len()), &config, |b, config| {
            b.iter(|| solve_all(&blank, &puzzles, config))
        });
    }
    // The same with a model and a solver built per puzzle: what reuse saves.
    group.bench_function(BenchmarkId::new("mac+mrv+matching/fresh-model", puzzles.len()), |b| {
        b.iter(|| solve_all_fresh(&puzzles, &default_config(9)))
    });
    check_registry(&puzzles, &lines);
    group.bench_function(BenchmarkId::new("registry-sudoku-0.8", puzzles.len()), |b| {
        b.iter(|| registry_solve_all(&lines))
    });
    // Like for like: first solutions on both sides, and unique solutions
    // (up to two counted) on both sides.
    let grids: Vec<sudoku::Sudoku> =
        lines.iter().map(|l| sudoku::Sudoku::from_str_line(l).expect("a 9x9 line")).collect();
    assert_eq!(registry_first_all(&grids), puzzles.len(), "the registry crate solves every puzzle");
    group.bench_function(BenchmarkId::new("registry-sudoku-0.8/first-solution", puzzles.len()), |b| {
        b.iter(|| registry_first_all(&grids))
    });
    assert_eq!(count_all(&blank, &puzzles, &default_config(9)), puzzles.len(), "every puzzle has one solution");
    group.bench_function(BenchmarkId::new("mac+mrv+matching/unique", puzzles.len()), |b| {
        b.iter(|| count_all(&blank, &puzzles, &default_config(9)))
    });
    // The 9x9 band propagator (one constraint over the grid instead of 27
    // all-differents), the same two pairs.
    let bands = SudokuModel::blank_with(puzzles[0].shape(), Units::Bands).expect("a 9x9 model");
    let mut solver = ShapeSolver::new(&bands, default_config(9)).expect("a valid model");
    for puzzle in &puzzles {
        let Answer::Solved(solution) = solver.solve(puzzle).expect("the solver's shape").0 else { panic!("unsolved") };
        verify_solution(puzzle, &solution).expect("a verified solution");
    }
    group.bench_function(BenchmarkId::new("mac+mrv+bands", puzzles.len()), |b| {
        b.iter(|| solve_all(&bands, &puzzles, &default_config(9)))
    });
    assert_eq!(count_all(&bands, &puzzles, &default_config(9)), puzzles.len(), "every puzzle has one solution");
    group.bench_function(BenchmarkId::new("mac+mrv+bands/unique", puzzles.len()), |b| {
        b.iter(|| count_all(&bands, &puzzles, &default_config(9)))
    });
    group.finish();
}

fn clue17(c: &mut Criterion) {
    let Some(path) = shared("17clue.txt") else { return };
    // Every 250th puzzle: about 200 spread over the file.
    let puzzles: Vec<Grid> = read(&path).into_iter().step_by(250).collect();
    nine_by_nine(c, "17clue", puzzles, false);
}

fn top95(c: &mut Criterion) {
    let Some(path) = shared("top95.txt") else { return };
    nine_by_nine(c, "top95", read(&path), true);
}

/// The whole of top1465 (hard puzzles, about 13 nodes each under MRV).
fn top1465(c: &mut Criterion) {
    let Some(path) = shared("top1465.txt") else { return };
    nine_by_nine(c, "top1465", read(&path), false);
}

fn large(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/sudoku/tests/data/bench-16x16.txt");
    let puzzles = read(&path);
    let blank = SudokuModel::blank(puzzles[0].shape()).expect("a valid model");
    let mut group = c.benchmark_group("sudoku-16x16");
    group.sample_size(10);
    group.throughput(Throughput::Elements(puzzles.len() as u64));
    for (id, config) in [
        ("mac+mrv+matching", default_config(16)),
        ("mac+dom-wdeg+matching", default_config(16).with_var_order(VarOrder::DomWdeg)),
    ] {
        check_answers(&puzzles, &config);
        group.bench_with_input(BenchmarkId::new(id, puzzles.len()), &config, |b, config| {
            b.iter(|| solve_all(&blank, &puzzles, config))
        });
    }
    group.finish();
}

/// 20x20 (4x5 boxes) and 25x25: the tool's default beyond 16x16 (dom/wdeg,
/// with intersections) against the same without intersections.
fn larger(c: &mut Criterion) {
    for (name, file) in [("sudoku-20x20", "bench-20x20.txt"), ("sudoku-25x25", "bench-25x25.txt")] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/sudoku/tests/data").join(file);
        let puzzles = read(&path);
        let blank = SudokuModel::blank(puzzles[0].shape()).expect("a valid model");
        let mut group = c.benchmark_group(name);
        group.sample_size(10);
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        // The tool's default beyond 16x16 is dom/wdeg with intersections.
        let intersect = default_config(puzzles[0].side());
        let dom_wdeg = SolveConfig { all_different_intersections: false, ..intersect.clone() };
        for (id, config) in [("mac+dom-wdeg+intersect", intersect), ("mac+dom-wdeg", dom_wdeg)] {
            check_answers(&puzzles, &config);
            group.bench_with_input(BenchmarkId::new(id, puzzles.len()), &config, |b, config| {
                b.iter(|| solve_all(&blank, &puzzles, config))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, clue17, top95, top1465, large, larger);
criterion_main!(benches);
