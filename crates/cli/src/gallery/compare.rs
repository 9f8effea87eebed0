//! `--compare`: every gallery tool runs its puzzle under several solver
//! configurations side by side, through the shared [`crate::report`] module.
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

use clap::error::ErrorKind;
use clap::parser::ValueSource;
use clap::{Arg, ArgAction, Args, Command, FromArgMatches};

use super::{CommonArgs, Puzzle};
use crate::Io;
use crate::app::{Exit, report_usage};
use crate::report::CompareArgs;

/// The help of `--compare` in a tool's ordinary `--help`.
const COMPARE_HELP: &str = "Compare solver configurations on the puzzle instead of solving it: nodes, checks and \
    time per configuration (`--compare --help` lists its options: --configs, --goal, --repeats, --format, --plot)";

/// What an unknown option in `--compare` mode gets as a hint.
const UNKNOWN_IN_COMPARE: &str = "note: with --compare, --configs says the strategies and --goal replaces --count; \
    the solving options (--count, --stats, --propagation, ...) do not apply (`--compare --help` lists the options)";

/// What a gallery tool's command line asks for.
#[derive(Debug)]
pub(super) enum Mode<P: Puzzle> {
    /// Solve (or count) as usual.
    Solve {
        /// Which instance.
        args: P::Args,
        /// The solving-only options.
        options: P::Options,
        /// `--count`, `--stats` and the strategy.
        common: CommonArgs,
    },
    /// `--compare`: the instance's options and the comparison's, the goal settled.
    Compare {
        /// Which instance.
        args: P::Args,
        /// The comparison's options (boxed: they hold configurations, and
        /// the other variant is small).
        compare: Box<CompareArgs>,
    },
}

/// The `--compare` flag of the comparison parser.
#[derive(Args, Debug)]
struct CompareFlag {
    /// Compare solver configurations on the puzzle instead of solving it.
    #[arg(long, required = true)]
    compare: bool,
}

/// Parses a tool's arguments (the program name first): with `--compare`
/// among them, as the instance's options `P::Args` and [`CompareArgs`];
/// otherwise as the instance's and the solving options and [`CommonArgs`],
/// whose help then also lists `--compare`. Help and version go to stdout and
/// exit 0; a usage error (an unknown configuration word among them) goes to
/// stderr and exits 2; either way as an [`Exit`] error.
pub(super) fn parse<P: Puzzle>(args: Vec<OsString>, io: &mut Io<'_>) -> anyhow::Result<Mode<P>> {
    if !wants_compare(&args) {
        let matches = solve_command::<P>().try_get_matches_from(args).map_err(|err| Exit(report_usage(&err, io)))?;
        let parsed = P::Args::from_arg_matches(&matches).and_then(|args| {
            Ok(Mode::Solve {
                args,
                options: P::Options::from_arg_matches(&matches)?,
                common: CommonArgs::from_arg_matches(&matches)?,
            })
        });
        return parsed.map_err(|err| Exit(report_usage(&err, io)).into());
    }
    let matches = command::<P>().try_get_matches_from(args).map_err(|err| {
        let code = report_usage(&err, io);
        if err.kind() == ErrorKind::UnknownArgument {
            let _ = writeln!(io.stderr, "{UNKNOWN_IN_COMPARE}");
        }
        Exit(code)
    })?;
    let parsed =
        P::Args::from_arg_matches(&matches).and_then(|args| Ok((args, CompareArgs::from_arg_matches(&matches)?)));
    let (args, mut compare) = parsed.map_err(|err| Exit(report_usage(&err, io)))?;
    if matches.value_source("goal") != Some(ValueSource::CommandLine) {
        compare.goal = P::compare_goal(&args);
    }
    Ok(Mode::Compare { args, compare: Box::new(compare) })
}

/// The parser of the ordinary command line: the instance's options, the
/// solving options, [`CommonArgs`], and `--compare` (for the help).
fn solve_command<P: Puzzle>() -> Command {
    let command = CommonArgs::augment_args(P::Options::augment_args(P::Args::augment_args(Command::new(P::NAME))));
    // The description comes last: augmenting a command with a struct's
    // arguments also gives it that struct's description.
    crate::app::versioned(command)
        .about(P::ABOUT)
        .long_about(None)
        .arg(Arg::new("compare").long("compare").action(ArgAction::SetTrue).help(COMPARE_HELP))
}

/// Whether `--compare` is among the options (before a `--`, after which every
/// word is a value).
fn wants_compare(args: &[OsString]) -> bool {
    args.iter().skip(1).take_while(|arg| *arg != "--").any(|arg| arg == "--compare")
}

/// The parser of `--compare`: the instance's options, the flag, and
/// [`CompareArgs`] with the tool's defaults.
fn command<P: Puzzle>() -> Command {
    let command = CompareFlag::augment_args(P::Args::augment_args(Command::new(P::NAME)));
    // The help texts come last: augmenting a command with a struct's arguments
    // also gives it that struct's description.
    crate::app::versioned(CompareArgs::augment_args(command))
        .mut_arg("goal", |arg| {
            arg.hide_default_value(true).help(format!(
                "What each run looks for: the first solution, the number of solutions, or all of them \
                 [default: {}]",
                P::GOAL_HELP
            ))
        })
        .mut_arg("configs", |arg| arg.default_value(P::COMPARE_CONFIGS))
        .about(format!("Compares solver configurations on {}.", P::WHAT))
        .long_about(format!(
            "Compares solver configurations on {}: nodes, backtracks, checks, propagations, pruned values and \
             time per configuration, as an aligned table (default), CSV, JSON or Markdown, and with --plot an SVG \
             bar chart of nodes and time (log scale). Without --goal: {}. Every configuration must find the same \
             answer; a disagreement is a bug: it is printed on stderr, no table is printed (CSV records stop \
             before the disagreeing run), and the exit status is 1.",
            P::WHAT,
            P::GOAL_HELP
        ))
        .after_help(format!(
            "Exit status: 0 the table was printed, 1 two configurations disagreed (a bug), 2 bad input or usage.\n\n\
             Example:\n  {} --compare --configs bt+input,fc+mrv,mac+domwdeg --format markdown --plot {}.svg",
            P::NAME,
            P::NAME
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
