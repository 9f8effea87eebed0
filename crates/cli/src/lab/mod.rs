//! The random-CSP lab: the classic experiments on model-B random binary CSPs
//! (Prosser 1996; Smith 1994), one command each.
//!
//! ```text
//! csp-lab [sweep] ...   (or: cargo run --release --example lab -- ...)
//! cargo run --release --example lab -- [sweep] [--vars 20 --values 10 --density 0.5
//!     --tightness 0.05..0.95:0.05 --samples 50 --algorithms bt,bt-cbj,fc,fc-cbj,mac --seed 1]
//! cargo run --release --example lab -- one --tightness 0.38 --seed 7 --configs fc+mrv,mac+mrv
//! ```
//!
//! `sweep` (the default command) solves, for each tightness, `samples` random
//! instances under every algorithm, in parallel over instances, checks that
//! the algorithms agree on the satisfiability of every instance, and reports
//! per tightness the median and mean of constraint checks and nodes per
//! algorithm and the fraction of satisfiable instances. `one` compares
//! configurations on one instance with the shared report module.
//!
//! Exit status: 0 done; 1 algorithms disagreed (a bug: printed on stderr, no
//! table); 2 bad usage.

pub mod sweep;

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::{EXIT_BAD_INPUT, EXIT_NO_SOLUTION, EXIT_OK, Io};
use anyhow::{Context as _, anyhow};
use clap::{Args, Parser, Subcommand};
use csp::Limits;
use csp::random::RandomCsp;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::report::{self, CompareArgs, Format};
use sweep::{Algorithm, Sweep, SweepFailure, SweepResult};

/// The algorithms of a sweep when `--algorithms` is not given.
pub const DEFAULT_ALGORITHMS: &str = "bt,bt-cbj,fc,fc-cbj,mac";

/// The tightness values of a sweep when `--tightness` is not given.
pub const DEFAULT_TIGHTNESS: &str = "0.05..0.95:0.05";

/// The most tightness values one sweep may list.
const MAX_POINTS: usize = 10_000;

#[derive(Parser, Debug)]
#[command(
    name = "lab",
    about = "The random-CSP lab: phase transitions and algorithm costs on model-B random binary CSPs.",
    args_conflicts_with_subcommands = true,
    after_help = "Without a command, `lab` runs `sweep` (with the options given).\n\nExit status: 0 done, 1 two \
                  algorithms disagreed on an instance (a bug, printed on stderr), 2 bad usage.\n\nExamples:\n  lab    \
                  the default sweep: <20, 10, 0.5, p2> for p2 = 0.05..0.95, 50 instances each\n  lab sweep \
                  --samples 10 --format csv\n  lab sweep --algorithms bt+input,fc+input,fc+mrv --plot sweep.svg\n  \
                  lab one --tightness 0.38 --seed 3 --configs fc+mrv,fc-cbj+mrv,mac+mrv"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,

    #[command(flatten)]
    sweep: SweepArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// For each tightness, solve random instances under every algorithm and
    /// report the cost (median and mean of constraint checks and nodes) and the
    /// fraction of satisfiable instances. The default command.
    Sweep(SweepArgs),
    /// Compare configurations on one random instance.
    One(OneArgs),
}

/// The parameters of model B other than the tightness.
#[derive(Args, Debug, Clone)]
struct InstanceArgs {
    /// n, the number of variables.
    #[arg(long = "vars", value_name = "N", default_value_t = 20)]
    variables: usize,
    /// d, the domain size (values 0..d).
    #[arg(long, value_name = "D", default_value_t = 10)]
    values: usize,
    /// p1, the fraction of the variable pairs that are constrained.
    #[arg(long, value_name = "P1", default_value_t = 0.5)]
    density: f64,
}

#[derive(Args, Debug, Clone)]
struct SweepArgs {
    #[command(flatten)]
    instance: InstanceArgs,

    /// p2, the fraction of value pairs each constraint forbids: START..END:STEP
    /// (END included) or a comma-separated list.
    #[arg(long, value_name = "RANGE", default_value = DEFAULT_TIGHTNESS, value_parser = parse_tightness)]
    tightness: TightnessList,

    /// Random instances per tightness.
    #[arg(long, value_name = "K", default_value_t = 50)]
    samples: usize,

    /// The algorithms, comma-separated configuration spellings (docs/compare.md):
    /// a bare level such as `fc` has the spelling's default orderings (fc+mrv).
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = parse_algorithm, default_value = DEFAULT_ALGORITHMS)]
    algorithms: Vec<Algorithm>,

    /// The seed every instance seed is derived from (with the tightness index and the sample index).
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,

    /// The output format.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Table)]
    format: Format,

    /// Also draw the cost curves (log scale) and the satisfiable fraction into this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,

    /// Stop each run after this many decisions (its counts are then lower bounds).
    #[arg(long = "node-limit", value_name = "N")]
    node_limit: Option<u64>,

    /// Stop each run after this many seconds (fractions allowed).
    #[arg(long, value_name = "SECS", value_parser = crate::parse_seconds)]
    timeout: Option<Duration>,

    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    jobs: Option<u32>,
}

#[derive(Args, Debug)]
struct OneArgs {
    #[command(flatten)]
    instance: InstanceArgs,

    /// p2, the tightness (default: the predicted phase transition, to two decimals).
    #[arg(long, value_name = "P2")]
    tightness: Option<f64>,

    /// The instance's seed (the generator's own seed, not a sweep seed).
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,

    #[command(flatten)]
    compare: CompareArgs,
}

/// A list of tightness values.
#[derive(Clone, Debug, PartialEq)]
struct TightnessList(Vec<f64>);

/// Parses `START..END:STEP` (END included when the steps reach it) or a
/// comma-separated list of values.
fn parse_tightness(text: &str) -> Result<TightnessList, String> {
    let number = |word: &str| -> Result<f64, String> {
        let value: f64 = word.trim().parse().map_err(|_| format!("'{}' is not a number", word.trim()))?;
        if !(0.0..=1.0).contains(&value) {
            return Err(format!("a tightness is between 0 and 1, not {value}"));
        }
        Ok(value)
    };
    let values = if let Some((start, rest)) = text.split_once("..") {
        let (end, step) = rest.split_once(':').ok_or_else(|| format!("'{text}' has no step: write START..END:STEP"))?;
        let (start, end, step) = (number(start)?, number(end)?, step.trim());
        let step: f64 = step.parse().map_err(|_| format!("the step '{step}' is not a number"))?;
        if !step.is_finite() || step <= 0.0 {
            return Err(format!("the step must be positive, not {step}"));
        }
        if start > end {
            return Err(format!("the range {text} is empty: {start} is above {end}"));
        }
        // A little slack so that 0.05..0.95:0.05 includes 0.95 despite rounding.
        let steps = ((end - start) / step + 1e-9).floor();
        if steps >= MAX_POINTS as f64 {
            return Err(format!("{text} has more than {MAX_POINTS} values"));
        }
        (0..=steps as usize).map(|i| round9(start + i as f64 * step)).collect()
    } else {
        text.split(',').map(number).collect::<Result<Vec<f64>, String>>()?
    };
    if values.len() > MAX_POINTS {
        return Err(format!("more than {MAX_POINTS} tightness values"));
    }
    Ok(TightnessList(values))
}

/// Rounds to nine decimals, so that `0.05 + 2 * 0.05` is written `0.15`.
fn round9(x: f64) -> f64 {
    (x * 1e9).round() / 1e9
}

fn parse_algorithm(text: &str) -> Result<Algorithm, String> {
    text.parse::<Algorithm>().map_err(|err| err.to_string())
}

/// The lab: `lab [sweep|one] [options]` (see `--help`), on the streams of
/// `io`; returns the exit status. Sweeps draw a progress bar when stderr is a
/// terminal. Run it with [`crate::app::run`] or [`crate::app::main`].
pub fn main(args: Vec<OsString>, io: &mut Io<'_>) -> anyhow::Result<u8> {
    let cli: Cli = crate::app::parse(args, io)?;
    let progress = io.stderr_is_terminal;
    match cli.command {
        Some(Command::One(one)) => run_one(&one, io.stdout, io.stderr),
        Some(Command::Sweep(sweep)) => run_sweep(&sweep, io.stdout, io.stderr, progress),
        None => run_sweep(&cli.sweep, io.stdout, io.stderr, progress),
    }
}

fn run_one(args: &OneArgs, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<u8> {
    let instance = &args.instance;
    let mut spec = RandomCsp {
        variables: instance.variables,
        values: instance.values,
        density: instance.density,
        tightness: 0.0,
        seed: args.seed,
    };
    spec.tightness = args.tightness.unwrap_or_else(|| (spec.critical_tightness() * 100.0).round() / 100.0);
    let checked = sweep::validate_instances(spec.variables, spec.values, spec.density, &[spec.tightness]);
    let model = match checked.map_err(anyhow::Error::from).and_then(|()| Ok(spec.generate()?)) {
        Ok(model) => model,
        Err(error) => {
            let _ = writeln!(err, "error: {error}");
            return Ok(EXIT_BAD_INPUT);
        }
    };
    let name = spec.to_string();
    report::run_comparison(&[(name.as_str(), &model)], &args.compare, out, err)
}

fn run_sweep(args: &SweepArgs, out: &mut dyn Write, err: &mut dyn Write, progress: bool) -> anyhow::Result<u8> {
    let sweep = Sweep {
        variables: args.instance.variables,
        values: args.instance.values,
        density: args.instance.density,
        tightness: args.tightness.0.clone(),
        samples: args.samples,
        algorithms: args.algorithms.clone(),
        seed: args.seed,
        limits: Limits { nodes: args.node_limit, time: args.timeout, solutions: None },
    };
    let checked = sweep.validate().map_err(anyhow::Error::from).and_then(|()| match &args.plot {
        Some(path) => report::plot::check_destination(path),
        None => Ok(()),
    });
    if let Err(error) = checked {
        let _ = writeln!(err, "error: {error:#}");
        return Ok(EXIT_BAD_INPUT);
    }
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(jobs) = args.jobs {
        pool = pool.num_threads(jobs as usize);
    }
    let pool = match pool.build() {
        Ok(pool) => pool,
        Err(error) => {
            let _ = writeln!(err, "error: cannot start the worker threads: {error}");
            return Ok(EXIT_BAD_INPUT);
        }
    };
    let instances = sweep.tightness.len() * sweep.samples;
    let bar = if progress { ProgressBar::new(instances as u64) } else { ProgressBar::hidden() };
    if progress {
        bar.set_draw_target(ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} instances, {elapsed} (eta {eta})") {
            bar.set_style(style);
        }
    }
    let started = Instant::now();
    let result = pool.install(|| sweep.run(&|| bar.inc(1)));
    bar.finish_and_clear();
    let elapsed = started.elapsed();
    let result = match result {
        Ok(result) => result,
        Err(SweepFailure::Usage(error)) => {
            let _ = writeln!(err, "error: {error}");
            return Ok(EXIT_BAD_INPUT);
        }
        Err(SweepFailure::Bug(error)) => {
            report::report_bug(&error, err);
            return Ok(EXIT_NO_SOLUTION);
        }
    };
    if let Some(path) = &args.plot {
        let written = report::plot::curve_chart(&result.chart()).and_then(|svg| report::plot::write_svg(path, &svg));
        if let Err(error) = written {
            let _ = writeln!(err, "error: {error:#}");
            return Ok(EXIT_BAD_INPUT);
        }
    }
    report::write_report(&result, args.format, out).and_then(|()| out.flush()).context("cannot write the table")?;
    let _ = write_summary(&result, elapsed, pool.current_num_threads(), err);
    Ok(EXIT_OK)
}

/// The wall-clock time, the time per algorithm, the backjumping checks and
/// any limited runs, on stderr.
fn write_summary(result: &SweepResult, elapsed: Duration, threads: usize, err: &mut dyn Write) -> anyhow::Result<()> {
    let sweep = &result.sweep;
    let instances = sweep.tightness.len() * sweep.samples;
    writeln!(
        err,
        "sweep: {instances} instances x {} algorithms in {:.1} s (wall clock, {threads} thread{})",
        sweep.algorithms.len(),
        elapsed.as_secs_f64(),
        if threads == 1 { "" } else { "s" }
    )?;
    let times: Vec<String> = sweep
        .algorithms
        .iter()
        .enumerate()
        .map(|(a, algorithm)| {
            let total: Duration = result.points.iter().map(|p| p.costs[a].time).sum();
            format!("{} {:.2} s", algorithm.name, total.as_secs_f64())
        })
        .collect();
    writeln!(err, "solver time per algorithm: {}", times.join(", "))?;
    for twin in &result.twins {
        let (jump, chrono) = (&sweep.algorithms[twin.backjumping].name, &sweep.algorithms[twin.chronological].name);
        if twin.more_nodes == 0 {
            writeln!(
                err,
                "check: {jump} explored no more nodes than {chrono} on all {} instances (Kondrak & van Beek 1997)",
                twin.compared
            )?;
        } else {
            let (tightness, seed) = twin.example.ok_or_else(|| anyhow!("a counted instance has an example"))?;
            writeln!(
                err,
                "WARNING: {jump} explored more nodes than {chrono} on {} of {} instances (first: `lab one --vars {} \
                 --values {} --density {} --tightness {tightness} --seed {seed}`); with the same variable and value \
                 orders this should never happen",
                twin.more_nodes, twin.compared, sweep.variables, sweep.values, sweep.density
            )
            .context("writing the summary")?;
        }
    }
    let limited: usize = result.points.iter().flat_map(|p| &p.costs).map(|c| c.limited).sum();
    if limited > 0 {
        writeln!(err, "note: a limit stopped {limited} runs; their counts are lower bounds")?;
    }
    Ok(())
}
