//! `csp-xcsp`: the XCSP3 solver, and a comparison of the engine's
//! configurations on XCSP3 instances.
//!
//! ```text
//! csp-xcsp [--config SPEC] [--timeout SECS] [--node-limit N] [--stats] FILE.xml
//! csp-xcsp compare [compare options] FILE.xml...
//! ```
//!
//! Solving prints the competition's output on stdout: an `o VALUE` line for
//! each improving solution of an optimisation problem (as it is found),
//! then `s SATISFIABLE`, `s OPTIMUM FOUND`, `s UNSATISFIABLE`, `s UNKNOWN`
//! or `s UNSUPPORTED`, and for a solution its `v <instantiation>` line.
//! Every solution is checked against the model (`Model::is_solution`)
//! before it is printed. Statistics (`--stats`) go to stderr as `c` lines.
//!
//! Exit status (the project's rule, docs/tools.md): 0 a solution (an
//! optimum for an optimisation problem); 1 no solution, or a limit stopped
//! the search first (`s UNKNOWN`, or a solution not proved optimal); 2 the
//! file cannot be read or lowered (`s UNSUPPORTED` on stdout when it uses a
//! feature csp-xcsp lacks).
//!
//! `compare` is `csp-lab compare` ([`crate::model_file::compare`]) with every
//! file read as XCSP3: the shared comparison under each configuration, the
//! same tables, CSV, JSON, bar chart and cactus plot as the other tools'
//! comparisons. `--goal optimize` runs branch and bound on each instance's
//! objective (and checks that the configurations agree on the optimum);
//! the other goals ignore the objective. Files that are unsatisfiable
//! before search or use an unsupported feature are left out, with a note.
//!
//! The reading and lowering are the library [`csp_xcsp3`]'s; this module is
//! the tool around them.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use clap::{Args, Parser, Subcommand};
use csp::{SolveConfig, Solver, Stats, Status};
use csp_xcsp3::output::{self, OPTIMUM, SATISFIABLE, UNKNOWN, UNSATISFIABLE, UNSUPPORTED};
use csp_xcsp3::{Goal, Lowered};

use crate::app::{self, Io};
use crate::model_file::{self, FileFormat};
use crate::report::CompareArgs;

/// The configuration when `--config` is not given: maintained arc
/// consistency, dom/wdeg (Boussemart et al. 2004) and binary branching, the
/// usual strong default of CP solvers.
pub const DEFAULT_CONFIG: &str = "mac+domwdeg+binary";

#[derive(Debug, Parser)]
#[command(
    name = "csp-xcsp",
    about = "Solves an XCSP3 instance with the csp engine, printing the competition's s, v and o lines; \
             `compare` runs the engine's configurations side by side on XCSP3 files.",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    solve: SolveArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Compare configurations on XCSP3 instances (docs/compare.md has the options).
    Compare(CompareCommand),
}

#[derive(Debug, Args)]
struct SolveArgs {
    /// The XCSP3 file ('-' reads standard input).
    #[arg(value_name = "FILE.xml")]
    file: Option<PathBuf>,
    /// The configuration, spelled as in docs/compare.md.
    #[arg(long, value_name = "SPEC", default_value = DEFAULT_CONFIG, value_parser = crate::report::parse_config)]
    config: SolveConfig,
    /// Stop searching after this many seconds (fractions allowed), counted from the start.
    #[arg(short = 't', long, value_name = "SECS", value_parser = crate::parse_seconds)]
    timeout: Option<Duration>,
    /// Stop searching after this many seconds of the search thread's CPU time (fractions allowed; 0: before the
    /// first decision): unlike --timeout, the same on a loaded machine.
    #[arg(long = "cpu-timeout", value_name = "SECS", value_parser = crate::parse_seconds)]
    cpu_timeout: Option<Duration>,
    /// Stop after this many decisions.
    #[arg(long = "node-limit", value_name = "N")]
    node_limit: Option<u64>,
    /// Print the search statistics on stderr, as `c` lines.
    #[arg(long)]
    stats: bool,
}

#[derive(Debug, Args)]
struct CompareCommand {
    /// The XCSP3 files.
    #[arg(value_name = "FILE.xml", required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    compare: CompareArgs,
}

/// The tool: see the module docs. Run it with [`crate::app::main`].
pub fn main(args: Vec<OsString>, io: &mut Io<'_>) -> anyhow::Result<u8> {
    let start = Instant::now();
    let cli: Cli = app::parse(args, io)?;
    match cli.command {
        Some(Command::Compare(command)) => compare(&command, io),
        None => solve(&cli.solve, start, io),
    }
}

fn solve(args: &SolveArgs, start: Instant, io: &mut Io<'_>) -> anyhow::Result<u8> {
    let Some(file) = &args.file else {
        bail!("no file given: csp-xcsp FILE.xml (see --help)");
    };
    let source = app::read_text(file, io)?;
    let lowered = match csp_xcsp3::lower(&source) {
        Ok(lowered) => lowered,
        Err(error) if error.is_unsupported() => {
            writeln!(io.stdout, "{UNSUPPORTED}")?;
            return Err(error).with_context(|| file.display().to_string());
        }
        Err(error) => return Err(error).with_context(|| file.display().to_string()),
    };
    if args.stats {
        writeln!(
            io.stderr,
            "c {} variables ({} declared), {} engine constraints from {} XCSP3 constraints, lowered in {:.1} ms",
            lowered.model.num_vars(),
            lowered.variables.declared().len(),
            lowered.model.num_constraints(),
            lowered.constraints,
            start.elapsed().as_secs_f64() * 1e3
        )?;
    }
    if let Some(reason) = &lowered.inconsistent {
        writeln!(io.stdout, "{UNSATISFIABLE}")?;
        if args.stats {
            writeln!(io.stderr, "c unsatisfiable before search: {reason}")?;
        }
        return Ok(app::EXIT_NO_SOLUTION);
    }
    let remaining = match args.timeout {
        Some(limit) => match limit.checked_sub(start.elapsed()) {
            Some(left) => Some(left),
            None => {
                writeln!(io.stdout, "{UNKNOWN}")?;
                return Ok(app::EXIT_NO_SOLUTION);
            }
        },
        None => None,
    };
    let mut config = args.config.clone();
    config.limits.time = remaining;
    config.limits.nodes = args.node_limit;
    config.limits.cpu_time = args.cpu_timeout;
    let mut solver = Solver::new(&lowered.model, config)?;
    let (code, stats) = match lowered.goal {
        Goal::Satisfy => satisfy(&lowered, &mut solver, io)?,
        Goal::Minimize(_) | Goal::Maximize(_) => optimize(&lowered, &mut solver, io)?,
    };
    if args.stats {
        io.stdout.flush()?;
        write_stats(&stats, io)?;
    }
    Ok(code)
}

/// The first solution of a satisfaction problem.
fn satisfy(lowered: &Lowered, solver: &mut Solver<'_>, io: &mut Io<'_>) -> anyhow::Result<(u8, Stats)> {
    let outcome = solver.solve();
    let stats = solver.stats().clone();
    let code = match outcome.solution() {
        Some(solution) => {
            let values = solution.values();
            check(lowered, values)?;
            writeln!(io.stdout, "{SATISFIABLE}")?;
            writeln!(io.stdout, "{}", output::value_line(&lowered.variables.instantiation(values, None)))?;
            app::EXIT_OK
        }
        None if solver.status() == Status::Complete => {
            writeln!(io.stdout, "{UNSATISFIABLE}")?;
            app::EXIT_NO_SOLUTION
        }
        None => {
            writeln!(io.stdout, "{UNKNOWN}")?;
            app::EXIT_NO_SOLUTION
        }
    };
    Ok((code, stats))
}

/// Branch and bound: an `o` line per improving solution, then the status
/// and the best solution.
fn optimize(lowered: &Lowered, solver: &mut Solver<'_>, io: &mut Io<'_>) -> anyhow::Result<(u8, Stats)> {
    let mut best: Option<(Vec<i64>, i64)> = None;
    let mut improvements = solver.improvements();
    for improvement in improvements.by_ref() {
        let values = improvement.solution.values();
        check(lowered, values)?;
        writeln!(io.stdout, "{}", output::objective_line(improvement.objective))?;
        io.stdout.flush()?;
        best = Some((values.to_vec(), improvement.objective));
    }
    let status = improvements.status();
    let stats = improvements.stats().clone();
    let code = match (best, status) {
        (Some((values, objective)), status) => {
            let optimal = status == Status::Complete;
            writeln!(io.stdout, "{}", if optimal { OPTIMUM } else { SATISFIABLE })?;
            let line = lowered.variables.instantiation(&values, Some(objective));
            writeln!(io.stdout, "{}", output::value_line(&line))?;
            if optimal { app::EXIT_OK } else { app::EXIT_NO_SOLUTION }
        }
        (None, Status::Complete) => {
            writeln!(io.stdout, "{UNSATISFIABLE}")?;
            app::EXIT_NO_SOLUTION
        }
        (None, _) => {
            writeln!(io.stdout, "{UNKNOWN}")?;
            app::EXIT_NO_SOLUTION
        }
    };
    Ok((code, stats))
}

/// A wrong answer outranks every other bug: each solution is checked
/// against the model before it is printed.
fn check(lowered: &Lowered, values: &[i64]) -> anyhow::Result<()> {
    let model = &lowered.model;
    if let Some(&violated) = model.violated(values).first() {
        bail!("internal error: the engine's assignment violates {}; it is not printed", model.describe(violated));
    }
    if !model.is_solution(values) {
        bail!("internal error: the engine's assignment leaves a domain; it is not printed");
    }
    Ok(())
}

fn write_stats(stats: &Stats, io: &mut Io<'_>) -> anyhow::Result<()> {
    writeln!(
        io.stderr,
        "c nodes {} failures {} backtracks {} propagations {} restarts {} max_depth {} time {:.3} s",
        stats.nodes,
        stats.failures,
        stats.backtracks,
        stats.propagations,
        stats.restarts,
        stats.max_depth,
        stats.elapsed.as_secs_f64()
    )?;
    Ok(())
}

/// `compare`: the lab's comparison of model files, every file read as XCSP3.
fn compare(command: &CompareCommand, io: &mut Io<'_>) -> anyhow::Result<u8> {
    model_file::compare(&command.files, Some(FileFormat::Xcsp3), &command.compare, io)
}
