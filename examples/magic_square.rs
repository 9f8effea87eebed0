//! Magic squares: the numbers `1..=n²` in an `n x n` grid so that every row, every
//! column and both diagonals add up to the magic constant `n(n² + 1)/2`.
//!
//! The model is a variable per cell, one `all_different`, and one `linear` equation
//! per line. No symmetry is broken, so the counts include rotations and reflections:
//! 8 squares of order 3, 7040 of order 4.
//!
//! For order 4 the model also posts four sums that the line equations imply
//! ([`implied_sums`]): they prune what bounds reasoning on single lines cannot see,
//! and cut the order-4 count from 247,000 nodes to 92,000 with the default
//! configuration (`--no-implied` drops them, to compare).
//!
//! ```text
//! cargo run --release --example magic_square -- [--order N] [--no-implied] [--count] [--stats] [strategy options]
//! cargo run --release --example magic_square -- [--order N] --compare [--configs LIST] [comparison options]
//! ```
//!
//! The options, `--compare` and the exit codes come from [`csp_cli::gallery`].

use std::io::Write;

use clap::Args;
use csp::{AllDifferentStrength, Model, ModelError, Relation, Solution, SolveConfig, VarId, VarOrder};
use csp_cli::Io;
use csp_cli::gallery::{self, NoOptions, Puzzle};
use csp_cli::report::GoalArg;

fn main() -> std::process::ExitCode {
    gallery::main::<MagicSquare>()
}

/// The largest order the tool accepts (its domain has `n²` values).
const MAX_ORDER: u32 = 30;

/// The sum of every line of a magic square of order `n`.
fn magic_constant(n: usize) -> i64 {
    let n = n as i64;
    n * (n * n + 1) / 2
}

/// The lines of an `n x n` grid as lists of cell indices (row-major): rows, columns,
/// then the two diagonals.
fn lines(n: usize) -> Vec<Vec<usize>> {
    let mut lines: Vec<Vec<usize>> = (0..n).map(|r| (0..n).map(|c| r * n + c).collect()).collect();
    lines.extend((0..n).map(|c| (0..n).map(|r| r * n + c).collect()));
    lines.push((0..n).map(|i| i * n + i).collect());
    lines.push((0..n).map(|i| i * n + (n - 1 - i)).collect());
    lines
}

/// Groups of four cells of an order-4 square (row-major) that add up to the magic
/// constant in every magic square, though no line holds them: the corners, the
/// centre, the middles of the top and bottom rows, and those of the side columns.
///
/// Why: the diagonals together hold the corners `K` and the centre `Z`, so
/// `K + Z = 2M`. The first and last rows and columns hold the corners twice and the
/// other border cells `B` once: `2K + B = 4M`; all sixteen cells add up to
/// `K + B + Z = 4M`. Subtracting, `K = Z`, so `K = Z = M`. The same argument on the
/// first and last rows alone gives the middles of the top and bottom rows `2M - K = M`,
/// and on the columns the middles of the sides. (A rank computation over the ten line
/// equations finds no other four-cell sums.)
fn implied_sums(n: usize) -> Vec<[usize; 4]> {
    if n == 4 { vec![[0, 3, 12, 15], [5, 6, 9, 10], [1, 2, 13, 14], [4, 8, 7, 11]] } else { Vec::new() }
}

/// The model: cells `r1c1 .. rncn` (row-major) over `1..=n²`, all different, every
/// line summing to the magic constant, and with `implied` the [`implied_sums`].
fn model(n: usize, implied: bool) -> Result<(Model, Vec<VarId>), ModelError> {
    let mut model = Model::new();
    let top = (n * n) as i64;
    let mut cells = Vec::with_capacity(n * n);
    for r in 0..n {
        for c in 0..n {
            cells.push(model.new_named_var(format!("r{}c{}", r + 1, c + 1), 1..=top)?);
        }
    }
    model.all_different(&cells)?;
    let sum = magic_constant(n);
    for line in lines(n) {
        let terms: Vec<(i64, VarId)> = line.iter().map(|&i| (1, cells[i])).collect();
        model.linear(&terms, Relation::Eq, sum)?;
    }
    if implied {
        for group in implied_sums(n) {
            let terms: Vec<(i64, VarId)> = group.iter().map(|&i| (1, cells[i])).collect();
            let id = model.linear(&terms, Relation::Eq, sum)?;
            model.set_label(id, format!("implied sum of cells {group:?}"))?;
        }
    }
    Ok((model, cells))
}

/// Checks a square (row-major) without the solver.
fn verify(n: usize, square: &[i64]) -> Result<(), String> {
    let mut sorted = square.to_vec();
    sorted.sort_unstable();
    if sorted != (1..=(n * n) as i64).collect::<Vec<_>>() {
        return Err(format!("the cells are not the numbers 1 to {}", n * n));
    }
    let sum = magic_constant(n);
    for line in lines(n) {
        let total: i64 = line.iter().map(|&i| square[i]).sum();
        if total != sum {
            return Err(format!("a line adds up to {total}, not {sum}"));
        }
    }
    Ok(())
}

/// The configuration used unless options say otherwise: arc consistency, dom/wdeg
/// (the lines that fail most guide the search) and pairwise all-different. On the
/// order-4 count with the implied sums it takes 92,000 nodes; matching all-different
/// takes fewer (84,000) but costs more per node (1.1 s against 0.7 s in one release
/// run), MRV takes 188,000 nodes and row-major order 382,000.
fn default_config() -> SolveConfig {
    SolveConfig::default().with_var_order(VarOrder::DomWdeg).with_all_different(AllDifferentStrength::Pairwise)
}

/// The options that say which squares to look for (or compare on).
#[derive(Args, Clone, Copy, Debug)]
struct SquareArgs {
    /// The order n of the square (n x n cells holding 1..=n²).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_ORDER)))]
    order: u32,
    /// Leave out the implied sums of order 4 (to see what they bring).
    #[arg(long = "no-implied")]
    no_implied: bool,
}

/// The magic squares of an order.
#[derive(Clone, Copy, Debug)]
struct MagicSquare {
    /// The order.
    n: usize,
    /// Whether the model posts the [`implied_sums`].
    implied: bool,
}

/// The largest order whose squares `--compare` counts by default: order 3 has 8
/// squares; order 4 has 7,040, which plain backtracking does not count in minutes.
const LARGEST_COUNTED_ORDER: u32 = 3;

impl Puzzle for MagicSquare {
    type Args = SquareArgs;
    type Options = NoOptions;
    const NAME: &'static str = "magic_square";
    const ABOUT: &'static str = "Finds or counts the magic squares of an order.";
    const WHAT: &'static str = "the magic squares of an order";
    const GOAL_HELP: &'static str = "count up to order 3, first above";

    fn load(args: &SquareArgs, _: &mut Io<'_>) -> anyhow::Result<(String, MagicSquare)> {
        let n = args.order as usize;
        let name = if args.no_implied && n == 4 {
            format!("order {n} without the implied sums")
        } else {
            format!("order {n}")
        };
        Ok((name, MagicSquare { n, implied: !args.no_implied }))
    }

    fn model(&self, _: &NoOptions) -> Result<Model, ModelError> {
        Ok(model(self.n, self.implied)?.0)
    }

    fn show(&self, solution: &Solution<'_>, out: &mut dyn Write) -> anyhow::Result<()> {
        let n = self.n;
        // The variables are the cells, row-major.
        let square = solution.values();
        verify(n, square).map_err(|e| anyhow::anyhow!("internal error: the square is wrong: {e}"))?;
        let width = (n * n).to_string().len();
        for row in square.chunks(n) {
            let row: Vec<String> = row.iter().map(|v| format!("{v:>width$}")).collect();
            writeln!(out, "{}", row.join(" "))?;
        }
        writeln!(out, "every line adds up to {}", magic_constant(n))?;
        Ok(())
    }

    fn default_config() -> SolveConfig {
        default_config()
    }

    fn compare_goal(args: &SquareArgs) -> GoalArg {
        if args.order <= LARGEST_COUNTED_ORDER { GoalArg::Count } else { GoalArg::First }
    }
}

#[cfg(test)]
#[path = "support/tests.rs"]
mod support;

#[cfg(test)]
mod tests {
    use csp::Solver;

    use super::*;

    use crate::support::{Case, assert_count_everywhere, check_compare, first_word, run};

    const TOOL: csp_cli::app::Tool = gallery::run::<MagicSquare>;

    #[test]
    fn magic_squares_of_order_three_number_eight() {
        assert_count_everywhere(TOOL, &["--order", "3"], 8);
        let result = run(TOOL, &[]);
        assert_eq!(result.code, 0);
        let square: Vec<i64> =
            result.stdout.lines().take(3).flat_map(|l| l.split_whitespace()).map(|w| w.parse().unwrap()).collect();
        verify(3, &square).unwrap();
        assert_eq!(first_word(&run(TOOL, &["--order", "2", "--count"])), "0");
    }

    /// About 2 s in a debug build with the default configuration and the implied sums.
    #[test]
    fn magic_squares_of_order_four_number_7040() {
        let result = run(TOOL, &["--order", "4", "--count"]);
        assert_eq!(result.code, 0, "{}", result.stderr);
        assert_eq!(first_word(&result), "7040");
    }

    #[test]
    fn the_implied_sums_hold_in_every_order_four_square() {
        let (model, cells) = model(4, false).unwrap();
        let mut solver = Solver::new(&model, default_config()).unwrap();
        for solution in solver.solutions().take(300) {
            let square: Vec<i64> = cells.iter().map(|&v| solution[v]).collect();
            for group in implied_sums(4) {
                assert_eq!(group.iter().map(|&i| square[i]).sum::<i64>(), 34, "{square:?}");
            }
        }
    }

    #[test]
    fn a_node_limit_makes_an_incomplete_count_that_says_so() {
        let result = run(TOOL, &["--order", "4", "--count", "--node-limit", "100"]);
        assert_eq!(result.code, 1);
        assert!(result.stdout.contains("node limit stopped the search (incomplete)"), "{}", result.stdout);
    }

    #[test]
    fn compare_configurations_agree_in_every_format() {
        check_compare(&Case {
            tool: TOOL,
            puzzle: vec!["--order", "3"],
            configs: "bt+input,fc-cbj+mrv,mac+mrv+lcv",
            goal: "count",
            answer: 8,
        });
    }

    #[test]
    fn compare_options_are_in_the_help() {
        let help = run(TOOL, &["--compare", "--help"]);
        assert_eq!(help.code, 0);
        for option in
            ["--order", "--configs", "--goal", "--repeats", "--format", "--plot", "count up to order 3, first above"]
        {
            assert!(help.stdout.contains(option), "{option}: {}", help.stdout);
        }
        assert!(!help.stdout.contains("--propagation"), "{}", help.stdout);
        // Order 4 is not counted by default.
        let first = run(TOOL, &["--order", "4", "--compare", "--configs", "fc+mrv", "--format", "json"]);
        let doc: serde_json::Value = serde_json::from_str(&first.stdout).unwrap();
        assert_eq!((doc["goal"].as_str(), doc["instances"][0].as_str()), (Some("first"), Some("order 4")));
    }
}
