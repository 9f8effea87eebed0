//! The registry's `sudoku` crate (0.8, a JCZSolve port) on a file of 9x9
//! puzzles, each parsed once before, solved `REPEAT` times with
//! `some_solution` (the first solution, as ours): the CPU-time and
//! instruction counterpart of `crates/sudoku/examples/solve_batch.rs`, which
//! runs ours the same way (BENCHMARKS.md, "A band propagator for 9x9").
//!
//! ```sh
//! cargo build --release -p csp-benches --example registry_batch
//! /usr/bin/time -f %U target/release/examples/registry_batch FILE [REPEAT]
//! valgrind --tool=callgrind --toggle-collect='*registry_batch*solve_one*' \
//!     target/release/examples/registry_batch FILE
//! ```

/// One puzzle's first solution (out of line, for callgrind's toggle).
#[inline(never)]
fn solve_one(grid: &sudoku::Sudoku) -> Option<sudoku::Sudoku> {
    grid.some_solution()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("a puzzle file");
    let repeat: usize = args.next().map_or(1, |a| a.parse().expect("a count"));
    let text = std::fs::read_to_string(&path).expect("a readable file");
    let grids: Vec<sudoku::Sudoku> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with('#') && l.len() >= 81)
        .map(|l| sudoku::Sudoku::from_str_line(l).expect("a 9x9 line"))
        .collect();
    let start = std::time::Instant::now();
    let mut solved = 0;
    for _ in 0..repeat {
        solved += grids.iter().filter(|g| solve_one(g).is_some()).count();
    }
    let n = grids.len() * repeat;
    println!("{n} puzzles, {solved} solved, {:.2} µs each", start.elapsed().as_secs_f64() * 1e6 / n as f64);
}
