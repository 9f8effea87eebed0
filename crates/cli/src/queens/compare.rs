//! `queens compare [N] --configs LIST`: the same board under several solver
//! configurations, through the shared [`crate::report`] module.

use std::io::Write;

use anyhow::Context as _;
use clap::Args;
use clap::parser::{ArgMatches, ValueSource};
use csp_queens::Queens;

use super::{MAX_BACKTRACKING_N, parse_n};
use crate::report::{CompareArgs, GoalArg, run_comparison};

/// Up to this N the comparison counts every solution unless `--goal` says
/// otherwise (N = 10 has 724 solutions, counted by plain backtracking in a few
/// milliseconds); above it, it looks for the first solution, since counting
/// grows too fast (N = 14 has 365,596 solutions, N = 20 about 39 billion).
pub(super) const LARGEST_COUNTED_N: usize = 12;

/// The long help of the `compare` subcommand.
pub(super) const COMPARE_ABOUT: &str = "Compare solver configurations on one N-queens board: nodes, backtracks, checks, propagations, \
        pruned values and time per configuration, as an aligned table (default), CSV, JSON or Markdown, and with \
        --plot an SVG bar chart of nodes and time (log scale). Every configuration must find the same answer; a \
        disagreement is a bug: it is printed on stderr, no table is printed (CSV records stop before the \
        disagreeing run), and the exit status is 1.\n\n\
        The goal is `count` (every solution) up to N = 12 and `first` (the first solution) above, unless \
        --goal says otherwise.";

/// The arguments of `queens compare`.
#[derive(Args, Debug)]
#[command(
    after_help = "Exit status: 0 the table was printed, 1 two configurations disagreed (a bug), 2 bad usage.\n\n\
        Example:\n  queens compare 8 --configs bt+input,fc+mrv,mac+domwdeg --format markdown --plot queens.svg",
    mut_arg("goal", |arg| arg
        .hide_default_value(true)
        .help("What each run looks for: the first solution, the number of solutions, or all of them \
               [default: count up to N = 12, first above]")),
)]
pub(super) struct CompareCli {
    /// The board size N (default 8).
    #[arg(value_name = "N")]
    n: Option<String>,

    #[command(flatten)]
    compare: CompareArgs,
}

/// Whether `--goal` was given on the command line of `matches` (the
/// subcommand's own matches), rather than left to its default.
pub(super) fn goal_given(matches: &ArgMatches) -> bool {
    matches.value_source("goal") == Some(ValueSource::CommandLine)
}

/// Runs the comparison and returns the exit status (see [`run_comparison`]).
pub(super) fn compare(
    cli: &CompareCli,
    goal_given: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> anyhow::Result<u8> {
    let n = match &cli.n {
        Some(text) => parse_n(text, false, MAX_BACKTRACKING_N)?,
        None => 8,
    };
    let mut args = cli.compare.clone();
    if !goal_given {
        args.goal = default_goal(n);
    }
    let queens = Queens::new(n).with_context(|| format!("cannot build the model for N = {n}"))?;
    let name = format!("{n}-queens");
    run_comparison(&[(&name, queens.model())], &args, out, err)
}

/// The goal when `--goal` is not given: see [`LARGEST_COUNTED_N`].
pub(super) fn default_goal(n: usize) -> GoalArg {
    if n <= LARGEST_COUNTED_N { GoalArg::Count } else { GoalArg::First }
}
