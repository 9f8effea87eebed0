//! Solves a file of puzzles as the sudoku tool does (one solver per shape,
//! each puzzle's givens as assumptions), without parsing, verification or
//! output in the way: the driver the instruction counts in BENCHMARKS.md come
//! from. Prints the number of puzzles solved, the mean nodes and the mean time.
//!
//! ```sh
//! cargo build --release -p csp-sudoku --example solve_batch
//! valgrind --tool=callgrind --toggle-collect='*ShapeSolver*solve*' \
//!     target/release/examples/solve_batch FILE [EVERY] [REPEAT] [CONFIG] [bands|nodes=N]...
//! ```
//!
//! `EVERY` keeps every n-th puzzle (default 1), `REPEAT` solves the set that
//! many times (default 1), `CONFIG` is a configuration in the one-line
//! grammar (`mac+learn+domwdeg+matching+intersect`; `default` or none is the
//! tool's), `bands` states a 9x9 grid's units as one [`Units::Bands`]
//! constraint instead of 27 all-differents, `nodes=N` stops each solve after
//! `N` decisions (to see how a long run's cost per node grows).

use csp_sudoku::model::{Answer, ShapeSolver, SudokuModel, Units};
use csp_sudoku::{Grid, PuzzleReader, default_config};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("a puzzle file");
    let every: usize = args.next().map_or(1, |a| a.parse().expect("a step"));
    let repeat: usize = args.next().map_or(1, |a| a.parse().expect("a count"));
    let config: Option<csp::SolveConfig> =
        args.next().filter(|a| a != "default").map(|a| a.parse().expect("a configuration"));
    let mut units = Units::AllDifferents;
    let mut node_limit = None;
    for arg in args {
        if arg == "bands" {
            units = Units::Bands;
        } else if let Some(n) = arg.strip_prefix("nodes=") {
            node_limit = Some(n.parse().expect("a node count"));
        } else {
            panic!("unknown argument {arg}: bands or nodes=N");
        }
    }
    let file = std::fs::File::open(&path).expect("readable");
    let puzzles: Vec<Grid> = PuzzleReader::new(std::io::BufReader::new(file))
        .map(|p| p.expect("a valid puzzle").grid)
        .step_by(every)
        .collect();
    let blank = SudokuModel::blank_with(puzzles[0].shape(), units).expect("a valid model");
    let mut config = config.unwrap_or_else(|| default_config(puzzles[0].side()));
    config.limits.nodes = node_limit.or(config.limits.nodes);
    let mut solver = ShapeSolver::new(&blank, config).expect("a valid model");
    let mut solved = 0;
    let mut total = csp::Stats::default();
    let start = std::time::Instant::now();
    for _ in 0..repeat {
        for puzzle in &puzzles {
            let (answer, stats) = solver.solve(puzzle).expect("the solver's shape");
            solved += usize::from(matches!(answer, Answer::Solved(_)));
            total.accumulate(&stats);
        }
    }
    let elapsed = start.elapsed();
    let n = puzzles.len() * repeat;
    println!(
        "{n} puzzles, {solved} solved, {:.2} nodes each, {:.2} µs each",
        total.nodes as f64 / n as f64,
        elapsed.as_secs_f64() * 1e6 / n as f64
    );
    println!(
        "in all: {} nodes, {} failures, {} learnt ({:.1} literals each), {} propagations, {} pruned",
        total.nodes,
        total.failures,
        total.learnt,
        total.learnt_literals as f64 / total.learnt.max(1) as f64,
        total.propagations,
        total.pruned
    );
}
