//! The plumbing of the puzzle gallery (`examples/`): everything an example
//! shares with the others, so that each example file holds its puzzle, its
//! model and its `main`, and nothing else.
//!
//! An example implements [`Puzzle`]: which options choose the instance, how to
//! load it, its model, and how to check and print a solution. [`main`] (or
//! [`run`], in-process) does the rest, the same way for every example:
//!
//! - the options every example takes: `--count`, `--stats` ([`CommonArgs`]) and
//!   the strategy options of [`crate::StrategyArgs`];
//! - `--compare`: the puzzle under several solver configurations side by side
//!   (`--configs`, `--goal`, `--format`, `--plot`; see [`crate::report`]);
//! - solving: a solution is checked against the model ([`Model::is_solution`])
//!   before [`Puzzle::show`] checks it against the puzzle's own rules and prints
//!   it; `--count` prints the number of solutions first; `--stats` (or `-v`)
//!   adds the statistics and the pruning by kind of constraint, on stderr; `-q`
//!   leaves only errors on stderr (no warnings from reading the input);
//! - optimising: a model with an objective ([`Model::minimize`]) is solved by
//!   branch and bound, printing each better solution's objective value and
//!   time, then the best solution and whether it is proved optimal;
//! - `--version`; input files (`-` is standard input) with errors that say
//!   file, line and column ([`ParseError`], built with the helpers of
//!   [`text`]), and the exit codes of [`crate::app`]: 0 solved (or at least
//!   one solution counted), 1 no solution (a count of zero too) or a limit
//!   reached, 2 bad input or usage.
//!
//! ```
//! use std::io::Write;
//! use csp::{Model, ModelError, Solution};
//! use csp_cli::gallery::{self, NoOptions, Puzzle};
//! use csp_cli::Io;
//!
//! /// Two different digits that add up to 10, the first the smaller.
//! struct Ten;
//!
//! impl Puzzle for Ten {
//!     type Args = NoOptions;
//!     type Options = NoOptions;
//!     const NAME: &'static str = "ten";
//!     const ABOUT: &'static str = "Two different digits that add up to 10.";
//!     const WHAT: &'static str = "the sum of ten";
//!
//!     fn load(_: &NoOptions, _: &mut Io<'_>) -> anyhow::Result<(String, Ten)> {
//!         Ok(("ten".to_string(), Ten))
//!     }
//!
//!     fn model(&self, _: &NoOptions) -> Result<Model, ModelError> {
//!         let mut model = Model::new();
//!         let a = model.new_named_var("a", 0..=9)?;
//!         let b = model.new_named_var("b", 0..=9)?;
//!         model.linear(&[(1, a), (1, b)], csp::Relation::Eq, 10)?;
//!         model.less_than(a, b)?;
//!         Ok(model)
//!     }
//!
//!     fn show(&self, solution: &Solution<'_>, out: &mut dyn Write) -> anyhow::Result<()> {
//!         writeln!(out, "{} + {} = 10", solution["a"], solution["b"])?;
//!         Ok(())
//!     }
//! }
//!
//! let solved = csp_cli::app::capture(gallery::run::<Ten>, ["ten"], "");
//! assert_eq!((solved.code, solved.stdout.as_str()), (0, "1 + 9 = 10\n"));
//! let counted = csp_cli::app::capture(gallery::run::<Ten>, ["ten", "--count"], "");
//! assert_eq!((counted.code, counted.stdout.as_str()), (0, "4 solutions\n"));
//! let stats = csp_cli::app::capture(gallery::run::<Ten>, ["ten", "--stats"], "");
//! assert_eq!(stats.stdout, "1 + 9 = 10\n");
//! assert!(stats.stderr.starts_with("stats: nodes "), "{}", stats.stderr);
//! ```
//!
//! The input formats of the examples (DIMACS graphs, killer sudoku cages,
//! futoshiki and kakuro grids) are documented in `docs/formats.md`. The DIMACS
//! parser, a standard format any graph tool may read, is [`dimacs`]; the others
//! are the examples' own and live with them.

mod compare;
pub mod dimacs;
pub mod text;

use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use clap::Args;
use csp::{Count, Model, ModelError, Outcome, Solution, SolveConfig, Solver, Status};

use crate::app::Verbosity;
use crate::report::{CompareArgs, GoalArg, run_comparison};
use crate::{EXIT_NO_SOLUTION, EXIT_OK, Io, StrategyArgs, app};

pub use text::{ParseError, Problem};

#[doc = include_str!("../../../../docs/modeling.md")]
pub mod tutorial {}

/// A puzzle of the gallery: what an example writes; [`run`] and [`main`] do the rest.
///
/// Required: the two kinds of options, the names, [`load`](Puzzle::load),
/// [`model`](Puzzle::model) and [`show`](Puzzle::show). The rest has defaults:
/// the engine's default configuration, and `--compare` counting the solutions
/// under [`crate::report::DEFAULT_CONFIGS`].
pub trait Puzzle: Sized {
    /// The options that say which instance to solve (a file, `--order N`, ...),
    /// taken both when solving and with `--compare`; [`NoOptions`] for a puzzle
    /// without instances.
    type Args: Args;
    /// Options for solving only (`zebra --clues`), refused with `--compare`;
    /// [`NoOptions`] for none. `--compare` builds the model with their default.
    type Options: Args + Default;

    /// The tool's name, as in its usage line.
    const NAME: &'static str;
    /// What the tool does, for `--help`.
    const ABOUT: &'static str;
    /// What `--compare` compares on, for its help: `the zebra puzzle`.
    const WHAT: &'static str;
    /// The goal of `--compare` without `--goal` (see [`Puzzle::compare_goal`]),
    /// in a few words for the help.
    const GOAL_HELP: &'static str = "count";
    /// The configurations of `--compare` without `--configs`.
    const COMPARE_CONFIGS: &'static str = crate::report::DEFAULT_CONFIGS;

    /// Reads the instance the options name (a file through [`read_input`] or
    /// [`load_file`]; warnings go to `io.stderr`) and returns its name, for
    /// the comparison tables, with it.
    fn load(args: &Self::Args, io: &mut Io<'_>) -> anyhow::Result<(String, Self)>;

    /// The model of the instance.
    fn model(&self, options: &Self::Options) -> Result<Model, ModelError>;

    /// Checks a solution against the puzzle's own rules, without the solver
    /// (an error here is a bug: say `internal error`), and prints it.
    fn show(&self, solution: &Solution<'_>, out: &mut dyn Write) -> anyhow::Result<()>;

    /// The configuration used unless the options say otherwise.
    fn default_config() -> SolveConfig {
        SolveConfig::default()
    }

    /// Printed before solving (the zebra's clues with `--clues`); nothing by default.
    fn introduce(&self, options: &Self::Options, out: &mut dyn Write) -> anyhow::Result<()> {
        let _ = (options, out);
        Ok(())
    }

    /// What `--compare` looks for without `--goal`: a count by default.
    fn compare_goal(args: &Self::Args) -> GoalArg {
        let _ = args;
        GoalArg::Count
    }

    /// `--compare`: the model under the configurations of `args`, through
    /// [`run_comparison`]; returns the exit status.
    fn compare(&self, name: &str, args: &CompareArgs, io: &mut Io<'_>) -> anyhow::Result<u8> {
        let model = self.model(&Self::Options::default())?;
        run_comparison(&[(name, &model)], args, io.stdout, io.stderr)
    }
}

/// The options every gallery tool takes.
#[derive(Args, Clone, Debug, Default, PartialEq, Eq)]
pub struct CommonArgs {
    /// Count the solutions instead of printing one (the count is the first word printed).
    #[arg(long)]
    pub count: bool,
    /// Print the search statistics on stderr after the answer.
    #[arg(long)]
    pub stats: bool,
    /// `-q` (nothing on stderr but errors) and `-v` (the statistics, as `--stats`).
    #[command(flatten)]
    pub verbosity: Verbosity,
    /// The search strategy.
    #[command(flatten)]
    pub strategy: StrategyArgs,
}

/// The option of a puzzle read from a file: the file, or the built-in puzzle
/// when it is not given (see [`load_file`]).
#[derive(Args, Clone, Debug, Default, PartialEq, Eq)]
pub struct FileArgs {
    /// The puzzle file ('-' reads standard input); see docs/formats.md.
    pub file: Option<PathBuf>,
}

/// No options: the [`Puzzle::Args`] of a puzzle without instances, or the
/// [`Puzzle::Options`] of one without solving-only options (or both).
#[derive(Args, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[group(skip)] // no argument group, so that a command may take it twice
pub struct NoOptions {}

/// The `main` of a gallery example: [`run`] on the process's arguments and
/// streams, through [`app::main`].
pub fn main<P: Puzzle>() -> ExitCode {
    app::main(run::<P>)
}

/// A gallery tool: `NAME [instance options] [solving options] [--count]
/// [--stats] [strategy options]`, or `NAME [instance options] --compare
/// [comparison options]`, on the streams of `io`; returns the exit status. Run
/// it with [`app::run`], [`app::capture`] or [`main`].
pub fn run<P: Puzzle>(args: Vec<OsString>, io: &mut Io<'_>) -> anyhow::Result<u8> {
    match compare::parse::<P>(args, io)? {
        compare::Mode::Solve { args, options, common } => {
            let (_, puzzle) = if common.verbosity.notes() {
                P::load(&args, io)?
            } else {
                // -q: the warnings of reading the input go nowhere; errors are returned.
                let mut sink = io::sink();
                P::load(&args, &mut Io { stderr: &mut sink, stderr_is_terminal: false, ..io.reborrow() })?
            };
            let model = puzzle.model(&options)?;
            puzzle.introduce(&options, io.stdout)?;
            let config = common.strategy.config(&P::default_config());
            solve_and_show(&model, config, &common, io, |solution, out| puzzle.show(solution, out))
        }
        compare::Mode::Compare { args, compare } => {
            let (name, puzzle) = P::load(&args, io)?;
            puzzle.compare(&name, &compare, io)
        }
    }
}

/// The largest input [`read_input`] takes. An example reads its input whole,
/// and no puzzle or graph comes near this size: a larger input is the wrong
/// file, refused before it fills the memory.
pub const MAX_INPUT_BYTES: u64 = 256 << 20;

/// The longest line [`read_input`] takes. The examples' parsers hold a line's
/// tokens at once (some 20 bytes each), and no puzzle or graph has lines near
/// this long: a longer line is the wrong file, refused before it is parsed.
pub const MAX_LINE_BYTES: usize = 64 << 10;

/// Reads an input file (`-` is `io.stdin`) as text. The errors name the file
/// and say what is wrong in words: `cannot read f: is a directory, not a
/// puzzle file`, `cannot read f: not a text file (line 3, column 9: byte 0xe9
/// is not UTF-8)`.
pub fn read_input(path: &Path, io: &mut Io<'_>) -> anyhow::Result<String> {
    if path.as_os_str() == "-" {
        return read_text(&mut io.stdin).context("cannot read standard input");
    }
    let file = app::open_input(path).map_err(anyhow::Error::msg);
    file.and_then(read_text).with_context(|| format!("cannot read {}", path.display()))
}

/// All of `input` as text, up to [`MAX_INPUT_BYTES`] and lines of up to
/// [`MAX_LINE_BYTES`], without the byte order mark that may open it.
fn read_text(input: impl io::Read) -> anyhow::Result<String> {
    let mut bytes = Vec::new();
    input.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        anyhow::bail!("larger than {} MiB, far more than any puzzle", MAX_INPUT_BYTES >> 20);
    }
    if let Some(line) = bytes.split(|&byte| byte == b'\n').position(|line| line.len() > MAX_LINE_BYTES) {
        anyhow::bail!("line {} is longer than {MAX_LINE_BYTES} bytes, far more than any puzzle's", line + 1);
    }
    String::from_utf8(bytes)
        .map(app::without_byte_order_mark)
        .map_err(|err| anyhow::anyhow!(app::not_utf8(err.as_bytes(), err.utf8_error().valid_up_to())))
}

/// Reads and parses the puzzle of a file-driven example: from `file` (`-` is
/// standard input), or else the built-in text, called `built-in puzzle` in
/// messages. Returns the puzzle's name with it.
pub fn load_file<T, E>(
    file: Option<&Path>,
    built_in: &str,
    io: &mut Io<'_>,
    parse: impl FnOnce(&str, &str) -> Result<T, E>,
) -> anyhow::Result<(String, T)>
where
    E: std::error::Error + Send + Sync + 'static,
{
    let (name, puzzle) = match file {
        Some(path) => {
            let name = path.display().to_string();
            let puzzle = parse(&read_input(path, io)?, &name)?;
            (name, puzzle)
        }
        None => ("built-in puzzle".to_string(), parse(built_in, "built-in puzzle")?),
    };
    Ok((name, puzzle))
}

/// Prints a count: the number first, then whether it is complete. A count of zero is
/// a negative answer, and a count stopped by a limit a lower bound: both exit 1.
fn print_count(count: Count, stdout: &mut dyn Write) -> io::Result<u8> {
    let solutions = app::counted(count.solutions, "solution", "solutions");
    match count.status {
        Status::LimitReached(limit) => {
            writeln!(stdout, "{solutions} found before the {limit} stopped the search (incomplete)")?;
            Ok(EXIT_NO_SOLUTION)
        }
        _ => {
            writeln!(stdout, "{solutions}")?;
            Ok(if count.solutions == 0 { EXIT_NO_SOLUTION } else { EXIT_OK })
        }
    }
}

/// Solves `model` as the common options say: counts its solutions with `--count`,
/// otherwise finds one, checks it with [`Model::is_solution`] and hands it to `show`
/// (which checks it again against the puzzle's own rules before printing it). Prints
/// the statistics on stderr with `--stats` or `-v`.
fn solve_and_show<'m>(
    model: &'m Model,
    config: SolveConfig,
    common: &CommonArgs,
    io: &mut Io<'_>,
    show: impl FnOnce(&Solution<'m>, &mut dyn Write) -> anyhow::Result<()>,
) -> anyhow::Result<u8> {
    let stdout = &mut *io.stdout;
    let mut solver = Solver::new(model, config)?;
    let code = if common.count {
        print_count(solver.count(None), stdout)?
    } else if model.objective().is_some() {
        optimize_and_show(&mut solver, stdout, show)?
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
    if common.verbosity.stats(common.stats) {
        // The answer first, also where stdout and stderr share a terminal.
        stdout.flush()?;
        writeln!(io.stderr, "stats: {}", solver.stats())?;
        let by_kind: Vec<String> = solver
            .attribution()
            .by_kind(model)
            .iter()
            .map(|(kind, effect)| {
                format!("{kind} {} ({})", effect.pruned, app::counted(effect.failures, "failure", "failures"))
            })
            .collect();
        writeln!(io.stderr, "pruned by: {}", by_kind.join(", "))?;
    }
    Ok(code)
}

/// Optimises the model's objective by branch and bound: prints each better
/// solution's objective value and time as it is found (`objective V after T
/// ms`), then shows the best (checked with [`Model::is_solution`]) and says
/// whether it is proved optimal (`optimal: V`, exit 0) or the best found when a
/// limit stopped the search (`best found: V ...`, exit 1, as any limit).
fn optimize_and_show<'m>(
    solver: &mut Solver<'m>,
    stdout: &mut dyn Write,
    show: impl FnOnce(&Solution<'m>, &mut dyn Write) -> anyhow::Result<()>,
) -> anyhow::Result<u8> {
    let model = solver.model();
    let mut best = None;
    for improvement in solver.improvements() {
        let ms = improvement.elapsed.as_secs_f64() * 1e3;
        writeln!(stdout, "objective {} after {ms:.1} ms", improvement.objective)?;
        best = Some((improvement.solution, improvement.objective));
    }
    let Some((solution, objective)) = best else {
        match solver.status() {
            Status::LimitReached(limit) => writeln!(stdout, "no solution found before the {limit} stopped the search")?,
            _ => writeln!(stdout, "no solution")?,
        }
        return Ok(EXIT_NO_SOLUTION);
    };
    anyhow::ensure!(
        model.is_solution(solution.values()),
        "internal error: the solver returned an assignment that violates the model"
    );
    show(&solution, stdout)?;
    match solver.status() {
        Status::LimitReached(limit) => {
            writeln!(stdout, "best found: {objective} (not proved optimal: the {limit} stopped the search)")?;
            Ok(EXIT_NO_SOLUTION)
        }
        _ => {
            writeln!(stdout, "optimal: {objective}")?;
            Ok(EXIT_OK)
        }
    }
}
