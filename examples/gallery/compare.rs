//! `--compare`: every gallery tool runs its puzzle under several solver
//! configurations side by side, through the shared [`csp_cli::report`] module.
//!
//! ```text
//! zebra --compare --configs bt+input,fc+mrv,mac+domwdeg [--goal first|count|all]
//!       [--repeats N] [--format table|csv|json|markdown] [--plot FILE.svg]
//!       [--node-limit N] [--timeout SECS]
//! ```
//!
//! With `--compare` a tool takes its puzzle's options (a file, `--graph`,
//! `--order`, ...) and the options of [`CompareArgs`] instead of the solving
//! options: the configurations say the strategy, and `--goal` replaces
//! `--count`. The command line is parsed by a second parser made of the
//! tool's puzzle arguments and [`CompareArgs`], chosen when `--compare` is among
//! the arguments (before a `--`), so that `--node-limit` and `--timeout` mean
//! the comparison's limits there and the strategy's limits otherwise.

use std::ffi::OsString;
use std::io::Write;

use clap::error::ErrorKind;
use clap::parser::ValueSource;
use clap::{Arg, ArgAction, Args, Command, CommandFactory, FromArgMatches};

use csp_cli::report::{CompareArgs, GoalArg};

/// The help of `--compare` in a tool's ordinary `--help`.
const COMPARE_HELP: &str = "Compare solver configurations on the puzzle instead of solving it: nodes, checks and \
    time per configuration (`--compare --help` lists its options: --configs, --goal, --repeats, --format, --plot)";

/// What an unknown option in `--compare` mode gets as a hint.
const UNKNOWN_IN_COMPARE: &str = "note: with --compare, --configs says the strategies and --goal replaces --count; \
    the solving options (--count, --stats, --propagation, ...) do not apply (`--compare --help` lists the options)";

/// How a tool compares: its name, and what `--compare` does when `--goal`
/// and `--configs` are not given.
#[derive(Debug)]
pub(crate) struct CompareSpec<P> {
    /// The tool's name, as in its usage line.
    pub name: &'static str,
    /// What the tool compares on, for the help: `the zebra puzzle`.
    pub what: &'static str,
    /// The goal when `--goal` is not given, from the puzzle's options.
    pub goal: fn(&P) -> GoalArg,
    /// That rule in a few words, for the help: `count`, `count up to order 3, first above`.
    pub goal_help: &'static str,
    /// The configurations when `--configs` is not given.
    pub configs: &'static str,
}

/// A gallery tool's `run`: parses the command line (see [`parse`]), then
/// solves with `solve` or compares with `compare`, and turns the result into
/// the exit status (an error is printed on stderr as `error: ...`, status 2).
pub(crate) fn run_tool<C, P>(
    args: Vec<OsString>,
    spec: &CompareSpec<P>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
    solve: impl FnOnce(&C, &mut dyn Write, &mut dyn Write) -> anyhow::Result<u8>,
    compare: impl FnOnce(&P, &CompareArgs, &mut dyn Write, &mut dyn Write) -> anyhow::Result<u8>,
) -> u8
where
    C: CommandFactory + FromArgMatches,
    P: Args + FromArgMatches,
{
    let result = match parse::<C, P>(args, spec, stdout, stderr) {
        Ok(Mode::Solve(cli)) => solve(&cli, stdout, stderr),
        Ok(Mode::Compare(puzzle, args)) => compare(&puzzle, &args, stdout, stderr),
        Err(code) => return code,
    };
    super::finish(result, stderr)
}

/// What a gallery tool's command line asks for.
#[derive(Debug)]
enum Mode<C, P> {
    /// Solve (or count) as usual: the tool's own arguments.
    Solve(C),
    /// `--compare`: the puzzle's arguments and the comparison's, the goal settled.
    Compare(P, CompareArgs),
}

/// The `--compare` flag of the comparison parser.
#[derive(Args, Debug)]
struct CompareFlag {
    /// Compare solver configurations on the puzzle instead of solving it.
    #[arg(long, required = true)]
    compare: bool,
}

/// Parses a tool's arguments (the program name first): with `--compare`
/// among them, as the puzzle's arguments `P` and [`CompareArgs`]; otherwise as
/// the tool's own parser `C`, whose help then also lists `--compare`. Help
/// and version go to `stdout` and exit 0; a usage error (an unknown
/// configuration word among them) goes to `stderr` and exits 2; either way the
/// exit status comes back as `Err`.
fn parse<C, P>(
    args: Vec<OsString>,
    spec: &CompareSpec<P>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<Mode<C, P>, u8>
where
    C: CommandFactory + FromArgMatches,
    P: Args + FromArgMatches,
{
    if !wants_compare(&args) {
        let command =
            C::command().arg(Arg::new("compare").long("compare").action(ArgAction::SetTrue).help(COMPARE_HELP));
        let matches = command.try_get_matches_from(args).map_err(|err| super::report_usage(&err, stdout, stderr))?;
        return C::from_arg_matches(&matches).map(Mode::Solve).map_err(|err| super::report_usage(&err, stdout, stderr));
    }
    let matches = command::<P>(spec).try_get_matches_from(args).map_err(|err| {
        let code = super::report_usage(&err, stdout, stderr);
        if err.kind() == ErrorKind::UnknownArgument {
            let _ = writeln!(stderr, "{UNKNOWN_IN_COMPARE}");
        }
        code
    })?;
    let parsed =
        P::from_arg_matches(&matches).and_then(|puzzle| Ok((puzzle, CompareArgs::from_arg_matches(&matches)?)));
    let (puzzle, mut compare) = parsed.map_err(|err| super::report_usage(&err, stdout, stderr))?;
    if matches.value_source("goal") != Some(ValueSource::CommandLine) {
        compare.goal = (spec.goal)(&puzzle);
    }
    Ok(Mode::Compare(puzzle, compare))
}

/// Whether `--compare` is among the options (before a `--`, after which every
/// word is a value).
fn wants_compare(args: &[OsString]) -> bool {
    args.iter().skip(1).take_while(|arg| *arg != "--").any(|arg| arg == "--compare")
}

/// The parser of `--compare`: the puzzle's arguments, the flag, and
/// [`CompareArgs`] with the tool's defaults.
fn command<P: Args>(spec: &CompareSpec<P>) -> Command {
    let command = CompareFlag::augment_args(P::augment_args(Command::new(spec.name)));
    // The help texts come last: augmenting a command with a struct's arguments
    // also gives it that struct's description.
    CompareArgs::augment_args(command)
        .mut_arg("goal", |arg| {
            arg.hide_default_value(true).help(format!(
                "What each run looks for: the first solution, the number of solutions, or all of them \
                 [default: {}]",
                spec.goal_help
            ))
        })
        .mut_arg("configs", |arg| arg.default_value(spec.configs))
        .about(format!("Compares solver configurations on {}.", spec.what))
        .long_about(format!(
            "Compares solver configurations on {}: nodes, backtracks, checks, propagations, pruned values and \
             time per configuration, as an aligned table (default), CSV, JSON or Markdown, and with --plot an SVG \
             bar chart of nodes and time (log scale). Without --goal: {}. Every configuration must find the same \
             answer; a disagreement is a bug: it is printed on stderr, no table is printed, and the exit status \
             is 1.",
            spec.what, spec.goal_help
        ))
        .after_help(format!(
            "Exit status: 0 the table was printed, 1 two configurations disagreed (a bug), 2 bad input or usage.\n\n\
             Example:\n  {} --compare --configs bt+input,fc+mrv,mac+domwdeg --format markdown --plot {}.svg",
            spec.name, spec.name
        ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compare_is_an_option_only_before_a_double_dash() {
        let args = |words: &[&str]| words.iter().map(OsString::from).collect::<Vec<_>>();
        assert!(wants_compare(&args(&["tool", "file.txt", "--compare"])));
        assert!(!wants_compare(&args(&["tool", "--", "--compare"])));
        assert!(!wants_compare(&args(&["--compare"])), "the program name is not an option");
        assert!(!wants_compare(&args(&["tool", "--compare-all"])));
    }
}
