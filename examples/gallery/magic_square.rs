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

use std::ffi::OsString;
use std::io::Write;

use clap::{Args, Parser};
use csp::{AllDifferentStrength, Model, ModelError, Relation, SolveConfig, VarId, VarOrder};

use super::CommonArgs;
use super::compare::CompareSpec;
use csp_cli::report::{CompareArgs, GoalArg, run_comparison};

/// The largest order the tool accepts (its domain has `n²` values).
pub const MAX_ORDER: u32 = 30;

/// The sum of every line of a magic square of order `n`.
pub fn magic_constant(n: usize) -> i64 {
    let n = n as i64;
    n * (n * n + 1) / 2
}

/// The lines of an `n x n` grid as lists of cell indices (row-major): rows, columns,
/// then the two diagonals.
pub fn lines(n: usize) -> Vec<Vec<usize>> {
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
pub fn implied_sums(n: usize) -> Vec<[usize; 4]> {
    if n == 4 { vec![[0, 3, 12, 15], [5, 6, 9, 10], [1, 2, 13, 14], [4, 8, 7, 11]] } else { Vec::new() }
}

/// The model: cells `r1c1 .. rncn` (row-major) over `1..=n²`, all different, every
/// line summing to the magic constant, and with `implied` the [`implied_sums`].
pub fn model(n: usize, implied: bool) -> Result<(Model, Vec<VarId>), ModelError> {
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
pub fn verify(n: usize, square: &[i64]) -> Result<(), String> {
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
pub fn default_config() -> SolveConfig {
    SolveConfig::default().with_var_order(VarOrder::DomWdeg).with_all_different(AllDifferentStrength::Pairwise)
}

#[derive(Debug, Parser)]
#[command(name = "magic_square", about = "Finds or counts the magic squares of an order.")]
struct Cli {
    #[command(flatten)]
    square: SquareArgs,
    #[command(flatten)]
    common: CommonArgs,
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

impl SquareArgs {
    /// The instance's name and model.
    fn instance(&self) -> Result<(String, Model, Vec<VarId>), ModelError> {
        let n = self.order as usize;
        let (model, cells) = model(n, !self.no_implied)?;
        let name = if self.no_implied && n == 4 {
            format!("order {n} without the implied sums")
        } else {
            format!("order {n}")
        };
        Ok((name, model, cells))
    }
}

/// The largest order whose squares `--compare` counts by default: order 3 has 8
/// squares; order 4 has 7,040, which plain backtracking does not count in minutes.
pub const LARGEST_COUNTED_ORDER: u32 = 3;

/// What `magic_square --compare` does by default.
const COMPARE: CompareSpec<SquareArgs> = CompareSpec {
    name: "magic_square",
    what: "the magic squares of an order",
    goal: |square| if square.order <= LARGEST_COUNTED_ORDER { GoalArg::Count } else { GoalArg::First },
    goal_help: "count up to order 3, first above",
    configs: csp_cli::report::DEFAULT_CONFIGS,
};

/// The tool: `magic_square [--order N] [--count] [--stats] [strategy options]`, or
/// `magic_square [--order N] --compare [--configs LIST] [comparison options]`.
pub fn run(args: Vec<OsString>, stdout: &mut dyn Write, stderr: &mut dyn Write) -> u8 {
    super::compare::run_tool::<Cli, SquareArgs>(args, &COMPARE, stdout, stderr, |cli, out, _| body(cli, out), compare)
}

fn compare(
    square: &SquareArgs,
    args: &CompareArgs,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> anyhow::Result<u8> {
    let (name, model, _) = square.instance()?;
    Ok(run_comparison(&[(&name, &model)], args, stdout, stderr))
}

fn body(cli: &Cli, stdout: &mut dyn Write) -> anyhow::Result<u8> {
    let n = cli.square.order as usize;
    let (_, model, cells) = cli.square.instance()?;
    let config = cli.common.strategy.config(&default_config());
    super::solve_and_show(&model, config, &cli.common, stdout, |solution, out| {
        let square: Vec<i64> = cells.iter().map(|&v| solution[v]).collect();
        verify(n, &square).map_err(|e| anyhow::anyhow!("internal error: the square is wrong: {e}"))?;
        let width = (n * n).to_string().len();
        for row in square.chunks(n) {
            let row: Vec<String> = row.iter().map(|v| format!("{v:>width$}")).collect();
            writeln!(out, "{}", row.join(" "))?;
        }
        writeln!(out, "every line adds up to {}", magic_constant(n))?;
        Ok(())
    })
}
