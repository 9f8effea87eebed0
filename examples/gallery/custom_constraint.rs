//! A constraint of our own on a small grid puzzle: fill an `n x n` grid (n even)
//! with the digits `1..=n/2` so that no digit appears three times in any row or
//! column (so, by counting, each appears exactly twice), keeping the given digits.
//!
//! The constraint is [`NoThreeEqual`], posted on
//! every row and column, in one of its two forms: defined by its check alone
//! (`--check-only`), or with its propagator (the default). `--compare` solves the
//! puzzle under every propagation level with both forms and checks that they agree.

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

use clap::Parser;
use csp::{Model, ModelError, Propagation, SolveConfig, Solver, Status, VarId};
use csp_cli::{EXIT_NO_SOLUTION, EXIT_OK};

use super::no_three_equal::{NoThreeEqual, NoThreeEqualCheck, no_three_equal};
use super::text::{Problem, Source};
use super::{CommonArgs, ParseError};

/// The built-in puzzle: `.` for an empty cell.
pub const BUILT_IN: &str = include_str!("../data/no_three.txt");

/// Which form of the constraint a model uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// [`NoThreeEqualCheck`]: the check alone, propagated generically.
    CheckOnly,
    /// [`NoThreeEqual`]: with its propagator.
    Propagator,
}

impl Form {
    /// Both forms.
    pub const ALL: [Form; 2] = [Form::CheckOnly, Form::Propagator];

    /// How the form is printed.
    pub fn name(self) -> &'static str {
        match self {
            Form::CheckOnly => "check only",
            Form::Propagator => "propagator",
        }
    }
}

/// A grid to fill: `size x size` cells, some given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// The number of rows and columns (even).
    pub size: usize,
    /// The given digits, row-major.
    pub givens: Vec<Option<i64>>,
}

/// The largest size accepted.
pub const MAX_SIZE: usize = 16;

impl Grid {
    /// An empty grid.
    pub fn empty(size: usize) -> Grid {
        Grid { size, givens: vec![None; size * size] }
    }

    /// The largest digit.
    pub fn digits(&self) -> i64 {
        (self.size / 2) as i64
    }

    /// Parses a grid: one row per line, a digit or `.` per cell, spaces ignored, `#`
    /// lines are comments.
    pub fn parse(input: &str, file: &str) -> Result<Grid, ParseError> {
        let source = Source::new(file);
        let mut rows: Vec<(usize, Vec<(char, usize)>)> = Vec::new();
        let mut last_line = 0;
        for (index, line) in input.lines().enumerate() {
            last_line = index + 1;
            if line.trim().is_empty() || line.trim_start().starts_with('#') {
                continue;
            }
            let cells = line.chars().enumerate().filter(|(_, c)| !c.is_whitespace()).map(|(i, c)| (c, i + 1));
            rows.push((index + 1, cells.collect()));
        }
        let Some((_, first)) = rows.first() else {
            return Err(source.error(last_line + 1, 1, Problem::Missing { what: "the grid".into() }));
        };
        let size = first.len();
        if size % 2 != 0 || !(2..=MAX_SIZE).contains(&size) {
            return Err(source.error(
                rows[0].0,
                1,
                Problem::invalid(format!("the first row has {size} cells; the size must be even, 2 to {MAX_SIZE}")),
            ));
        }
        if rows.len() != size {
            let line = rows.get(size).map_or(last_line + 1, |(line, _)| *line);
            return Err(source.error(line, 1, Problem::invalid(format!("{} rows for {size} columns", rows.len()))));
        }
        let digits = (size / 2) as i64;
        let mut givens = Vec::with_capacity(size * size);
        for (line, cells) in &rows {
            if cells.len() != size {
                return Err(source.error(
                    *line,
                    cells.get(size).map_or(1, |&(_, c)| c),
                    Problem::invalid(format!("this row has {} cells, the first has {size}", cells.len())),
                ));
            }
            for &(c, column) in cells {
                givens.push(match c.to_digit(10) {
                    _ if c == '.' => None,
                    Some(d) if (1..=digits).contains(&i64::from(d)) => Some(i64::from(d)),
                    _ => {
                        return Err(source.error(
                            *line,
                            column,
                            Problem::unexpected(format!("a digit 1 to {digits} or '.'"), &c.to_string()),
                        ));
                    }
                });
            }
        }
        Ok(Grid { size, givens })
    }

    /// The lines (rows, then columns) as row-major cell indices.
    pub fn lines(&self) -> Vec<Vec<usize>> {
        let n = self.size;
        let mut lines: Vec<Vec<usize>> = (0..n).map(|r| (0..n).map(|c| r * n + c).collect()).collect();
        lines.extend((0..n).map(|c| (0..n).map(|r| r * n + c).collect()));
        lines
    }

    /// The model: cells `r1c1 ..` over `1..=size/2` (a given digit as its only value)
    /// and the constraint, in the given form, on every row and column.
    pub fn model(&self, form: Form) -> Result<(Model, Vec<VarId>), ModelError> {
        let n = self.size;
        let mut model = Model::new();
        let mut cells = Vec::with_capacity(n * n);
        for (i, given) in self.givens.iter().enumerate() {
            let name = format!("r{}c{}", i / n + 1, i % n + 1);
            cells.push(match given {
                Some(d) => model.new_named_var(name, *d..=*d)?,
                None => model.new_named_var(name, 1..=self.digits())?,
            });
        }
        for line in self.lines() {
            let vars: Vec<VarId> = line.iter().map(|&i| cells[i]).collect();
            match form {
                Form::CheckOnly => model.post(NoThreeEqualCheck::new(vars))?,
                Form::Propagator => model.post(NoThreeEqual::new(vars))?,
            };
        }
        Ok((model, cells))
    }

    /// Checks a filled grid by the rules, without the solver.
    pub fn verify(&self, grid: &[i64]) -> Result<(), String> {
        if grid.len() != self.size * self.size || grid.iter().any(|d| !(1..=self.digits()).contains(d)) {
            return Err(format!("the grid is not {0} x {0} digits 1 to {1}", self.size, self.digits()));
        }
        if let Some(i) = (0..grid.len()).find(|&i| self.givens[i].is_some_and(|d| d != grid[i])) {
            return Err(format!("cell {} does not keep its given digit", i + 1));
        }
        for line in self.lines() {
            let values: Vec<i64> = line.iter().map(|&i| grid[i]).collect();
            if !no_three_equal(&values) {
                return Err(format!("a digit appears three times in {values:?}"));
            }
        }
        Ok(())
    }
}

#[derive(Debug, Parser)]
#[command(
    name = "custom_constraint",
    about = "A user-defined constraint (no digit three times in a line), by its check alone or with a propagator."
)]
struct Cli {
    /// A puzzle file: one row per line, a digit or '.' per cell ('-' reads standard input).
    #[arg(conflicts_with = "size")]
    file: Option<PathBuf>,
    /// Solve an empty grid of this size (even, 2 to 16) instead of the built-in puzzle.
    #[arg(long, value_name = "N")]
    size: Option<usize>,
    /// Use the constraint defined by its check alone (generic propagation).
    #[arg(long = "check-only", conflicts_with = "compare")]
    check_only: bool,
    /// Count the solutions under every propagation level with both forms of the
    /// constraint, print a table, and check that all counts agree.
    #[arg(long)]
    compare: bool,
    #[command(flatten)]
    common: CommonArgs,
}

/// The tool: `custom_constraint [FILE | --size N] [--check-only | --compare] [--count] [--stats] [strategy options]`.
pub fn run(args: Vec<OsString>, stdout: &mut dyn Write, stderr: &mut dyn Write) -> u8 {
    let cli: Cli = match super::parse_args(args, stdout, stderr) {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    super::finish(body(&cli, stdout), stderr)
}

fn body(cli: &Cli, stdout: &mut dyn Write) -> anyhow::Result<u8> {
    let grid = match cli.size {
        Some(size) if size % 2 == 0 && (2..=MAX_SIZE).contains(&size) => Grid::empty(size),
        Some(size) => anyhow::bail!("--size {size}: the size must be even, 2 to {MAX_SIZE}"),
        None => match &cli.file {
            Some(path) => Grid::parse(&super::read_input(path)?, &path.display().to_string())?,
            None => Grid::parse(BUILT_IN, "built-in puzzle")?,
        },
    };
    let config = cli.common.strategy.config(&SolveConfig::default());
    if cli.compare {
        return compare(&grid, &config, stdout);
    }
    let form = if cli.check_only { Form::CheckOnly } else { Form::Propagator };
    let (model, cells) = grid.model(form)?;
    super::solve_and_show(&model, config, &cli.common, stdout, |solution, out| {
        let values: Vec<i64> = cells.iter().map(|&v| solution[v]).collect();
        grid.verify(&values).map_err(|e| anyhow::anyhow!("internal error: the answer is wrong: {e}"))?;
        for row in values.chunks(grid.size) {
            let row: Vec<String> = row.iter().map(i64::to_string).collect();
            writeln!(out, "{}", row.join(" "))?;
        }
        Ok(())
    })
}

/// Counts the solutions under every propagation level with both forms and prints a
/// table; exits 1 if the counts are incomplete or disagree.
fn compare(grid: &Grid, config: &SolveConfig, stdout: &mut dyn Write) -> anyhow::Result<u8> {
    writeln!(
        stdout,
        "{:<11} {:<17} {:>9} {:>10} {:>12} {:>13} {:>10}",
        "constraint", "propagation", "solutions", "nodes", "failures", "checks", "time (ms)"
    )?;
    let mut counts = Vec::new();
    let mut complete = true;
    for form in Form::ALL {
        let (model, _) = grid.model(form)?;
        for &propagation in Propagation::ALL {
            let mut solver = Solver::new(&model, config.clone().with_propagation(propagation))?;
            let count = solver.count(None);
            let stats = solver.stats();
            complete &= count.status == Status::Complete;
            counts.push(count.solutions);
            writeln!(
                stdout,
                "{:<11} {:<17} {:>9} {:>10} {:>12} {:>13} {:>10.2}",
                form.name(),
                propagation.name(),
                count.solutions,
                stats.nodes,
                stats.failures,
                stats.checks,
                stats.elapsed.as_secs_f64() * 1e3
            )?;
        }
    }
    if !complete {
        writeln!(stdout, "a limit stopped some counts: they cannot be compared")?;
        return Ok(EXIT_NO_SOLUTION);
    }
    if counts.windows(2).any(|w| w[0] != w[1]) {
        writeln!(stdout, "the counts disagree: a propagator is wrong")?;
        return Ok(EXIT_NO_SOLUTION);
    }
    let noun = if counts[0] == 1 { "solution" } else { "solutions" };
    writeln!(stdout, "all {} runs agree: {} {noun}", counts.len(), counts[0])?;
    Ok(EXIT_OK)
}
