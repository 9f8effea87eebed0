//! The puzzle gallery: one module per puzzle, each a small model on top of `csp`
//! and the command-line tool around it.
//!
//! Every tool is a function `run(args, stdout, stderr) -> exit status`, so the tests
//! run the tools in-process; the example binaries only call [`main`]. The tools share
//! the strategy options of [`csp_cli::StrategyArgs`], `--stats` and `--count`
//! ([`CommonArgs`]), the exit codes (0 solved, 1 no solution or a limit reached, 2 bad
//! input or usage), and the way they report errors.
//!
//! The input formats (DIMACS graphs, killer sudoku cages, futoshiki and kakuro grids)
//! are documented in `docs/formats.md`; their parsers return a [`ParseError`] with the
//! file, line and column of the problem.

mod compare;
pub mod custom_constraint;
pub mod dimacs;
pub mod futoshiki;
pub mod kakuro;
pub mod killer_sudoku;
pub mod magic_square;
pub mod map_coloring;
pub mod no_three_equal;
pub mod send_more_money;
mod text;
pub mod zebra;

use std::ffi::OsString;
use std::io::{self, Write};
use std::process::ExitCode;

use clap::Args;
use csp::{Count, Model, Outcome, Solution, SolveConfig, Solver, Status};
use csp_cli::{EXIT_BAD_INPUT, EXIT_NO_SOLUTION, EXIT_OK, StrategyArgs};

pub use text::{ParseError, Problem};

#[doc = include_str!("../../docs/modeling.md")]
pub mod tutorial {}

/// The options every gallery tool takes.
#[derive(Args, Clone, Debug, Default, PartialEq, Eq)]
pub struct CommonArgs {
    /// Count the solutions instead of printing one (the count is the first word printed).
    #[arg(long)]
    pub count: bool,
    /// Print the search statistics after the answer.
    #[arg(long)]
    pub stats: bool,
    #[command(flatten)]
    pub strategy: StrategyArgs,
}

/// The signature of every tool: arguments (the program name first), standard output,
/// standard error; returns the exit status.
pub type Tool = fn(Vec<OsString>, &mut dyn Write, &mut dyn Write) -> u8;

/// The `main` of a gallery example: runs `tool` on the process's arguments and streams.
pub fn main(tool: Tool) -> ExitCode {
    let code = tool(std::env::args_os().collect(), &mut io::stdout().lock(), &mut io::stderr().lock());
    ExitCode::from(code)
}

/// Prints a parse error (help and version on `stdout`, the rest on `stderr`) and
/// returns the exit status: 0 for help and version, 2 for bad usage.
pub(crate) fn report_usage(err: &clap::Error, stdout: &mut dyn Write, stderr: &mut dyn Write) -> u8 {
    if err.use_stderr() {
        let _ = write!(stderr, "{}", err.render());
        EXIT_BAD_INPUT
    } else {
        let _ = write!(stdout, "{}", err.render());
        EXIT_OK
    }
}

/// Turns the result of a tool's body into its exit status: an error is printed to
/// `stderr` as `error: ...` and exits 2; a closed output pipe (`| head`) ends quietly.
pub(crate) fn finish(result: anyhow::Result<u8>, stderr: &mut dyn Write) -> u8 {
    match result {
        Ok(code) => code,
        Err(err) if csp_cli::app::is_broken_pipe(&err) => EXIT_OK,
        Err(err) => {
            let _ = writeln!(stderr, "error: {err:#}");
            EXIT_BAD_INPUT
        }
    }
}

/// Reads an input file (`-` is standard input).
pub(crate) fn read_input(path: &std::path::Path) -> anyhow::Result<String> {
    use anyhow::Context as _;
    if path.as_os_str() == "-" {
        let mut text = String::new();
        io::Read::read_to_string(&mut io::stdin(), &mut text).context("cannot read standard input")?;
        return Ok(text);
    }
    std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
}

/// Reads and parses the puzzle of a file-driven example: from `file` (`-` is
/// standard input), or else the built-in text, called `built-in puzzle` in
/// messages. Returns the puzzle's name with it.
pub(crate) fn load_puzzle<T, E>(
    file: Option<&std::path::Path>,
    built_in: &str,
    parse: impl FnOnce(&str, &str) -> Result<T, E>,
) -> anyhow::Result<(String, T)>
where
    E: std::error::Error + Send + Sync + 'static,
{
    let (name, puzzle) = match file {
        Some(path) => {
            let name = path.display().to_string();
            let puzzle = parse(&read_input(path)?, &name)?;
            (name, puzzle)
        }
        None => ("built-in puzzle".to_string(), parse(built_in, "built-in puzzle")?),
    };
    Ok((name, puzzle))
}

/// Prints a count: the number first, then whether it is complete. A count stopped by a
/// limit is a lower bound and exits 1.
pub(crate) fn print_count(count: Count, stdout: &mut dyn Write) -> io::Result<u8> {
    let noun = if count.solutions == 1 { "solution" } else { "solutions" };
    match count.status {
        Status::LimitReached(limit) => {
            writeln!(stdout, "{} {noun} found before the {limit} stopped the search (incomplete)", count.solutions)?;
            Ok(EXIT_NO_SOLUTION)
        }
        _ => {
            writeln!(stdout, "{} {noun}", count.solutions)?;
            Ok(EXIT_OK)
        }
    }
}

/// Solves `model` as the common options say: counts its solutions with `--count`,
/// otherwise finds one, checks it with [`Model::is_solution`] and hands it to `show`
/// (which checks it again against the puzzle's own rules before printing it). Prints
/// the statistics with `--stats`.
pub(crate) fn solve_and_show<'m>(
    model: &'m Model,
    config: SolveConfig,
    common: &CommonArgs,
    stdout: &mut dyn Write,
    show: impl FnOnce(&Solution<'m>, &mut dyn Write) -> anyhow::Result<()>,
) -> anyhow::Result<u8> {
    let mut solver = Solver::new(model, config)?;
    let code = if common.count {
        print_count(solver.count(None), stdout)?
    } else {
        match solver.solve() {
            Outcome::Solved(solution) => {
                anyhow::ensure!(
                    model.is_solution(solution.values()),
                    "internal error: the solver returned an assignment that violates the model"
                );
                show(&solution, stdout)?;
                EXIT_OK
            }
            Outcome::Unsatisfiable => {
                writeln!(stdout, "no solution")?;
                EXIT_NO_SOLUTION
            }
            Outcome::LimitReached(limit) => {
                writeln!(stdout, "no solution found before the {limit} stopped the search")?;
                EXIT_NO_SOLUTION
            }
        }
    };
    if common.stats {
        writeln!(stdout, "stats: {}", solver.stats())?;
        let by_kind: Vec<String> = solver
            .attribution()
            .by_kind(model)
            .iter()
            .map(|(kind, effect)| format!("{kind} {} ({} failures)", effect.pruned, effect.failures))
            .collect();
        writeln!(stdout, "pruned by: {}", by_kind.join(", "))?;
    }
    Ok(code)
}
