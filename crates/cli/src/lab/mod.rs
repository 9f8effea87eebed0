//! The random-CSP lab: the classic experiments on random CSPs, one command
//! each, on the generators of [`csp::random`] ([`generator`]): model B and
//! its flawless variant, model RB, quasigroups with holes, random graph
//! colouring.
//!
//! ```text
//! csp-lab [sweep] ...   (or: cargo run --release --example lab -- ...)
//! lab [sweep] [--model b:n=20,d=10,p1=0.5] [--sweep p2=0.05..0.95:0.05] [--samples 50]
//!     [--algorithms bt,bt-cbj,fc,fc-cbj,mac] [--seed 1] [--records runs.csv] [--plot sweep.svg]
//! lab one --model rb:n=20,p=0.3 --seed 7 --configs fc+mrv,mac+mrv [--cactus FILE.svg]
//! lab compare --configs fc+mrv,mac+domwdeg FILE.xml|FILE.fzn...
//! lab rtd --model b:p2=0.38 --seed 3 --configs fc+mrv+random --runs 200 --plot rtd.svg
//! ```
//!
//! `sweep` (the default command) solves, for each value of one generator
//! parameter, `samples` random instances under every algorithm, in parallel
//! over instances, checks that the algorithms agree on the satisfiability of
//! every instance, and reports per value the quantiles of constraint checks,
//! nodes and CPU time per algorithm and the satisfiable fraction with its
//! 95% interval; `--records` writes every run. `one` compares configurations
//! on one instance with the shared report module; `compare` does the same on
//! model files, XCSP3 (`.xml`) and FlatZinc (`.fzn`) ([`crate::model_file`]).
//! `rtd` runs randomised
//! configurations with many seeds on one instance: the run-time distribution
//! and its survival plot (Gomes, Selman, Crato & Kautz 2000).
//!
//! Exit status: 0 done; 1 algorithms disagreed (a bug: printed on stderr, no
//! table); 2 bad usage, or a model file that cannot be read.

pub mod generator;
mod rtd;
pub mod stats;
pub mod sweep;
mod sweep_report;

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::app::{Quiet, short_float};
use crate::{EXIT_BAD_INPUT, EXIT_NO_SOLUTION, EXIT_OK, Io};
use anyhow::{Context as _, anyhow};
use clap::{Args, Parser, Subcommand};
use csp::{Limits, SolveConfig};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::report::{self, CompareArgs, Format, Table};
use generator::{Family, Generator};
use sweep::{Algorithm, InstanceOutcome, Sweep, SweepFailure, SweepResult};
use sweep_report::RunRecords;

/// The algorithms of a sweep when `--algorithms` is not given.
pub const DEFAULT_ALGORITHMS: &str = "bt,bt-cbj,fc,fc-cbj,mac";

/// The tightness values of a model-B sweep when neither `--sweep` nor `--tightness` is given.
pub const DEFAULT_TIGHTNESS: &str = "0.05..0.95:0.05";

/// The configurations of `rtd` when `--configs` is not given.
pub const DEFAULT_RTD_CONFIGS: &str = "fc+mrv+random,mac+mrv+random";

/// The most values one sweep may list.
const MAX_POINTS: usize = 10_000;

#[derive(Parser, Debug)]
#[command(
    name = "lab",
    about = "The random-CSP lab: phase transitions, algorithm costs and run-time distributions on random CSPs \
             (model B, flawless model B, model RB, quasigroups with holes, graph colouring); `compare` runs \
             configurations side by side on XCSP3 and FlatZinc files.",
    args_conflicts_with_subcommands = true,
    after_help = after_help()
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,

    #[command(flatten)]
    sweep: SweepArgs,
}

fn after_help() -> String {
    format!(
        "Without a command, `lab` runs `sweep` (with the options given).\n\n{}\nExit status: 0 done, 1 two \
         algorithms disagreed on an instance (a bug, printed on stderr), 2 bad usage or a bad model file.\n\nExamples:\n  lab    \
         the default sweep: model B <20, 10, 0.5, p2> for p2 = 0.05..0.95, 50 instances each\n  lab sweep \
         --samples 10 --format csv --records runs.csv\n  lab sweep --model rb:n=20,alpha=0.8,r=2 --sweep \
         p=0.1..0.5:0.025 --algorithms fc,mac\n  lab sweep --model qwh:n=15 --algorithms mac+domwdeg --plot qwh.svg\n  \
         lab one --tightness 0.38 --seed 3 --configs fc+mrv,fc-cbj+mrv,mac+mrv\n  lab compare --configs \
         mac+domwdeg,mac+learn+vsids golomb.xml golomb.fzn\n  lab rtd --model b:p2=0.36 --seed 4 \
         --runs 200 --plot rtd.svg",
        Generator::help()
    )
}

#[derive(Subcommand, Debug)]
enum Command {
    /// For each value of one generator parameter, solve random instances
    /// under every algorithm and report the cost (quantiles of checks, nodes
    /// and CPU time) and the satisfiable fraction. The default command.
    Sweep(SweepArgs),
    /// Compare configurations on one random instance.
    One(OneArgs),
    /// Compare configurations on model files: XCSP3 instances (FILE.xml) and
    /// FlatZinc models (FILE.fzn, from `minizinc -c --solver csp`).
    Compare(CompareFilesArgs),
    /// Run configurations with many seeds (their random choices) on one
    /// instance: the run-time distribution and its survival plot.
    Rtd(RtdArgs),
}

/// The generator and its parameters.
#[derive(Args, Debug, Clone)]
struct ModelArgs {
    /// The generator: FAMILY[:NAME=VALUE,...], families b, b-flawless, rb,
    /// qwh, qwh-balanced, qcp, colouring (the parameters are listed below the options).
    #[arg(long, value_name = "SPEC", default_value = "b")]
    model: String,
    /// Model B's n, the number of variables (as --model b:n=N).
    // Read as a number, so that the generator's check words every refusal
    // (`n of b must be a whole number from 2 to 2000, not -1`), as for `b:n=`.
    #[arg(long = "vars", value_name = "N")]
    variables: Option<f64>,
    /// Model B's d, the domain size (values 0..d).
    #[arg(long, value_name = "D")]
    values: Option<f64>,
    /// Model B's p1, the fraction of the variable pairs that are constrained.
    #[arg(long, value_name = "P1")]
    density: Option<f64>,
}

impl ModelArgs {
    /// The generator the options describe.
    fn generator(&self) -> Result<Generator, String> {
        let mut generator: Generator = self.model.parse()?;
        let legacy =
            [("n", "--vars", self.variables), ("d", "--values", self.values), ("p1", "--density", self.density)];
        for (name, option, value) in legacy {
            let Some(value) = value else { continue };
            if !matches!(generator.family, Family::B | Family::FlawlessB) {
                return Err(format!(
                    "--vars, --values, --density and --tightness are model B's; write {}'s parameters in --model",
                    generator.family.name()
                ));
            }
            self.given_once(name, option)?;
            generator = generator.with(name, value)?;
        }
        Ok(generator)
    }

    /// Refuses a parameter given both in the spelling and as `option`:
    /// one of the values would be silently lost.
    fn given_once(&self, name: &str, option: &str) -> Result<(), String> {
        if self.names(name) {
            return Err(format!("parameter '{name}' is given twice: in --model {} and as {option}", self.model));
        }
        Ok(())
    }

    /// Whether the spelling names parameter `name`.
    fn names(&self, name: &str) -> bool {
        let given = self.model.split_once(':').map_or("", |(_, rest)| rest);
        given.split(',').any(|word| word.split_once('=').is_some_and(|(n, _)| n.trim().eq_ignore_ascii_case(name)))
    }

    /// The generator of one instance: model B's tightness from `tightness`
    /// if given; else the swept parameter as the spelling gives it, or its
    /// predicted critical value to two decimals, where the hard instances are.
    fn instance(&self, tightness: Option<f64>) -> Result<Generator, String> {
        let generator = self.generator()?;
        let (parameter, _) = generator.family.swept();
        if let Some(tightness) = tightness {
            if !matches!(generator.family, Family::B | Family::FlawlessB) {
                return Err(format!(
                    "--tightness is model B's; write {}'s parameters in --model",
                    generator.family.name()
                ));
            }
            self.given_once("p2", "--tightness")?;
            return generator.with("p2", tightness);
        }
        match generator.critical(parameter) {
            Some((value, _)) if !self.names(parameter) => generator.with(parameter, (value * 100.0).round() / 100.0),
            _ => Ok(generator),
        }
    }
}

#[derive(Args, Debug, Clone)]
struct SweepArgs {
    #[command(flatten)]
    model: ModelArgs,

    /// The parameter to vary and its values: [NAME=]START..END:STEP (END
    /// included) or [NAME=]V1,V2,...; NAME defaults to the family's, the
    /// values to its range (model B: p2=0.05..0.95:0.05; `lab --help` lists the others).
    #[arg(long, value_name = "[NAME=]RANGE")]
    sweep: Option<String>,

    /// Model B's p2 values, as --sweep p2=RANGE.
    #[arg(long, value_name = "RANGE", value_parser = parse_tightness)]
    tightness: Option<ValueList>,

    /// Random instances per value.
    #[arg(long, value_name = "K", default_value_t = 50, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    samples: usize,

    /// The algorithms, comma-separated configuration spellings (docs/compare.md):
    /// a bare level such as `fc` has the spelling's default orderings (fc+mrv).
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = parse_algorithm, default_value = DEFAULT_ALGORITHMS)]
    algorithms: Vec<Algorithm>,

    /// Also run each algorithm's learning twin (the same with `+learn`, nogoods
    /// learnt from failures) just after it: learning on and off side by side.
    /// Algorithms that cannot learn (not `mac`, with backjumping or `nld`) have no twin;
    /// a note names them, with the reason.
    #[arg(long)]
    learn: bool,

    /// The seed every instance seed is derived from (with the value index and the sample index).
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,

    /// The output format.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Table)]
    format: Format,

    /// Also write every run, one record per instance and algorithm, to this
    /// file: CSV, or JSON when the name ends in .json.
    #[arg(long, value_name = "FILE")]
    records: Option<PathBuf>,

    /// Also draw the cost curves (log scale) and the satisfiable fraction into this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,

    #[command(flatten)]
    runs: RunArgs,

    #[command(flatten)]
    quiet: Quiet,
}

/// The limits of every run, and the threads that run them.
#[derive(Args, Debug, Clone)]
struct RunArgs {
    /// Stop each run after this many decisions (a stopped run's counts are lower bounds).
    #[arg(long = "node-limit", value_name = "N")]
    node_limit: Option<u64>,

    /// Stop each run after this many seconds (fractions allowed).
    #[arg(long, value_name = "SECS", value_parser = crate::parse_seconds)]
    timeout: Option<Duration>,

    /// Stop each run after this many seconds of its thread's CPU time
    /// (fractions allowed): unlike --timeout, the same on a loaded machine.
    #[arg(long = "cpu-timeout", value_name = "SECS", value_parser = crate::parse_seconds)]
    cpu_timeout: Option<Duration>,

    /// Worker threads [default: the number of cores].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    jobs: Option<u32>,
}

impl RunArgs {
    /// The limits of every run.
    fn limits(&self) -> Limits {
        crate::strategy::run_limits(self.node_limit, self.timeout, self.cpu_timeout)
    }

    /// A thread pool of `--jobs` threads (default: one per core).
    fn thread_pool(&self) -> Result<rayon::ThreadPool, String> {
        let mut pool = rayon::ThreadPoolBuilder::new();
        if let Some(jobs) = self.jobs {
            pool = pool.num_threads(jobs as usize);
        }
        pool.build().map_err(|error| format!("cannot start the worker threads: {error}"))
    }
}

impl SweepArgs {
    /// `--algorithms`, each followed by its learning twin with `--learn`
    /// (`NAME+learn`, or another name that parses back to the twin:
    /// [`Algorithm::learning_twin`]).
    fn algorithms_to_run(&self) -> Vec<Algorithm> {
        if !self.learn {
            return self.algorithms.clone();
        }
        report::with_learning_twins(
            &self.algorithms,
            |algorithm| &algorithm.config,
            |algorithm, twin| algorithm.learning_twin(twin),
        )
    }

    /// The generator, the swept parameter and its values.
    fn resolve(&self) -> Result<(Generator, &'static str, Vec<f64>), String> {
        let generator = self.model.generator()?;
        if let Some(tightness) = &self.tightness {
            if self.sweep.is_some() {
                return Err("give the values to sweep once: --sweep or --tightness".to_string());
            }
            if !matches!(generator.family, Family::B | Family::FlawlessB) {
                return Err(format!(
                    "--tightness is model B's; sweep {}'s parameters with --sweep NAME=RANGE",
                    generator.family.name()
                ));
            }
            return Ok((generator, "p2", tightness.0.clone()));
        }
        let (default_parameter, default_range) = generator.family.swept();
        let (name, range) = match &self.sweep {
            None => (default_parameter, default_range),
            Some(text) => match text.split_once('=') {
                Some((name, range)) => (name.trim(), range),
                None => (default_parameter, text.as_str()),
            },
        };
        let parameter = generator.parameter_name(name)?;
        let values = parse_values(range).map_err(|err| format!("--sweep {parameter}: {err}"))?.0;
        Ok((generator, parameter, values))
    }
}

/// One instance: the generator, model B's tightness, the seed.
#[derive(Args, Debug)]
struct InstanceArgs {
    #[command(flatten)]
    model: ModelArgs,

    /// Model B's p2 (default: the swept parameter's predicted critical value, to two decimals).
    #[arg(long, value_name = "P2")]
    tightness: Option<f64>,

    /// The instance's seed (the generator's own seed, as the `seed` column of `--records` gives it).
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
}

impl InstanceArgs {
    /// The generator and the instance it draws.
    fn build(&self) -> Result<(Generator, csp::Model), String> {
        let generator = self.model.instance(self.tightness)?;
        generator.check()?;
        let model = generator.generate(self.seed).map_err(|e| e.to_string())?;
        Ok((generator, model))
    }
}

#[derive(Args, Debug)]
struct OneArgs {
    #[command(flatten)]
    instance: InstanceArgs,

    #[command(flatten)]
    compare: CompareArgs,
}

#[derive(Args, Debug)]
struct CompareFilesArgs {
    /// The model files: XCSP3 (.xml) or FlatZinc (.fzn), told by the extension;
    /// `-` reads one from standard input, told by its text (XML or not).
    /// The configurations say the search: a FlatZinc file's annotations are not followed.
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,

    #[command(flatten)]
    compare: CompareArgs,
}

#[derive(Args, Debug)]
struct RtdArgs {
    #[command(flatten)]
    instance: InstanceArgs,

    /// The configurations, comma-separated; run i of each uses seed=i, which
    /// only changes a configuration with random choices (`random` values).
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = report::parse_config, default_value = DEFAULT_RTD_CONFIGS)]
    configs: Vec<SolveConfig>,

    /// Also run each configuration's learning twin (the same with `+learn`,
    /// nogoods learnt from failures) just after it: learning on and off side by
    /// side. Configurations that cannot learn (not `mac`, with backjumping or `nld`) have no twin;
    /// a note names them, with the reason.
    #[arg(long)]
    learn: bool,

    /// Runs per configuration (seeds 1 to N).
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    runs: u32,

    /// The output format: tables of the quantiles, or every run (CSV), or both (JSON).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Table)]
    format: Format,

    /// Also draw the survival plot (the fraction of runs still going after x
    /// nodes, log-log; a stopped run never finishes) into this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,

    #[command(flatten)]
    limits: RunArgs,

    #[command(flatten)]
    quiet: Quiet,
}

/// A list of parameter values.
#[derive(Clone, Debug, PartialEq)]
struct ValueList(Vec<f64>);

/// Parses a tightness: values between 0 and 1 (see [`parse_values`]).
fn parse_tightness(text: &str) -> Result<ValueList, String> {
    let values = parse_values(text)?;
    match values.0.iter().find(|v| !(0.0..=1.0).contains(*v)) {
        Some(bad) => Err(format!("a tightness is between 0 and 1, not {}", short_float(*bad))),
        None => Ok(values),
    }
}

/// Parses `START..END:STEP` (END included when the steps reach it) or a
/// comma-separated list of values.
fn parse_values(text: &str) -> Result<ValueList, String> {
    let number = |word: &str| -> Result<f64, String> {
        let value: f64 = word.trim().parse().map_err(|_| format!("'{}' is not a number", word.trim()))?;
        if !value.is_finite() {
            return Err(format!("'{}' is not a finite number", word.trim()));
        }
        Ok(value)
    };
    let values = if let Some((start, rest)) = text.split_once("..") {
        let (end, step) = rest.split_once(':').ok_or_else(|| format!("'{text}' has no step: write START..END:STEP"))?;
        let (start, end, step) = (number(start)?, number(end)?, step.trim());
        let step: f64 = step.parse().map_err(|_| format!("the step '{step}' is not a number"))?;
        if !step.is_finite() || step <= 0.0 {
            return Err(format!("the step must be positive, not {}", short_float(step)));
        }
        if start > end {
            return Err(format!("the range {text} is empty: {} is above {}", short_float(start), short_float(end)));
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
        return Err(format!("more than {MAX_POINTS} values"));
    }
    Ok(ValueList(values))
}

/// Rounds to nine decimals, so that `0.05 + 2 * 0.05` is written `0.15`.
fn round9(x: f64) -> f64 {
    (x * 1e9).round() / 1e9
}

fn parse_algorithm(text: &str) -> Result<Algorithm, String> {
    text.parse::<Algorithm>().map_err(|err| err.to_string())
}

/// The lab: `lab [sweep|one|compare|rtd] [options]` (see `--help`), on the streams
/// of `io`; returns the exit status. Sweeps draw a progress bar when stderr
/// is a terminal that can redraw ([`crate::app::Terminal::redraw`]), unless
/// `-q`. Run it with [`crate::app::run`] or [`crate::app::main`].
pub fn main(args: Vec<OsString>, io: &mut Io<'_>) -> anyhow::Result<u8> {
    let cli: Cli = crate::app::parse(args, io)?;
    let progress = crate::app::Terminal::from_env().redraw(io.stderr_is_terminal);
    match cli.command {
        Some(Command::One(one)) => run_one(&one, io.stdout, io.stderr),
        Some(Command::Compare(files)) => crate::model_file::compare(&files.files, None, &files.compare, io),
        Some(Command::Rtd(rtd)) => rtd::run(&rtd, io.stdout, io.stderr),
        Some(Command::Sweep(sweep)) => run_sweep(&sweep, io.stdout, io.stderr, progress),
        None => run_sweep(&cli.sweep, io.stdout, io.stderr, progress),
    }
}

fn run_one(args: &OneArgs, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<u8> {
    let (generator, model) = match args.instance.build() {
        Ok(built) => built,
        Err(error) => {
            let _ = writeln!(err, "error: {error}");
            return Ok(EXIT_BAD_INPUT);
        }
    };
    let name = format!("{generator} seed {}", args.instance.seed);
    report::run_comparison(&[(name.as_str(), &model)], &args.compare, out, err)
}

fn run_sweep(args: &SweepArgs, out: &mut dyn Write, err: &mut dyn Write, progress: bool) -> anyhow::Result<u8> {
    let checked = args.resolve().and_then(|(generator, parameter, values)| {
        let sweep = Sweep {
            generator,
            parameter,
            values,
            samples: args.samples,
            algorithms: args.algorithms_to_run(),
            seed: args.seed,
            limits: args.runs.limits(),
        };
        sweep.validate().map_err(|e| e.to_string())?;
        for (what, path) in [("the plot", &args.plot), ("the records", &args.records)] {
            if let Some(path) = path {
                report::plot::check_destination(what, path).map_err(|e| format!("{e:#}"))?;
            }
        }
        Ok(sweep)
    });
    let (sweep, pool) = match checked.and_then(|sweep| Ok((sweep, args.runs.thread_pool()?))) {
        Ok(ready) => ready,
        Err(error) => {
            let _ = writeln!(err, "error: {error}");
            return Ok(EXIT_BAD_INPUT);
        }
    };
    let instances = sweep.values.len() * sweep.samples;
    let progress = progress && args.quiet.notes();
    let bar = if progress { ProgressBar::new(instances as u64) } else { ProgressBar::hidden() };
    if progress {
        bar.set_draw_target(ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} instances, {elapsed} (eta {eta})") {
            bar.set_style(style);
        }
    }
    // CSV records are written as the instances finish, in that order, and
    // flushed, so that a sweep killed part way keeps them (each record has
    // its value, sample and seed); the finished sweep writes them again in
    // order. JSON records are one document: written at the end only.
    let streamed = match args.records.as_ref().filter(|path| !is_json(path)) {
        Some(path) => match RecordStream::create(&sweep, path) {
            Ok(stream) => Some(Mutex::new(stream)),
            Err(error) => {
                let _ = writeln!(err, "error: {error:#}");
                return Ok(EXIT_BAD_INPUT);
            }
        },
        None => None,
    };
    let provenance = report::provenance::Provenance::start();
    let started = Instant::now();
    let done = |outcome: &InstanceOutcome| {
        bar.inc(1);
        if let Some(stream) = &streamed {
            stream.lock().unwrap_or_else(PoisonError::into_inner).write(&sweep, outcome);
        }
    };
    let result = pool.install(|| sweep.run(&done));
    bar.finish_and_clear();
    if let Some(Err(error)) = streamed.map(|stream| stream.into_inner().unwrap_or_else(PoisonError::into_inner).error) {
        let _ = writeln!(err, "error: {error:#}");
        return Ok(EXIT_BAD_INPUT);
    }
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
    let written = args
        .plot
        .as_ref()
        .map(|path| report::plot::curve_chart(&result.chart()).and_then(|svg| report::plot::write_svg(path, &svg)))
        .transpose()
        .and_then(|_| args.records.as_ref().map(|path| write_records(&result, path)).transpose());
    if let Err(error) = written {
        let _ = writeln!(err, "error: {error:#}");
        return Ok(EXIT_BAD_INPUT);
    }
    report::write_cited_report(&result, args.format, &provenance, out)
        .and_then(|()| out.flush())
        .context("cannot write the table")?;
    if args.quiet.notes() {
        let _ = write_summary(&result, elapsed, pool.current_num_threads(), err);
        // The words that cannot act on the family's instances (places without
        // an all-different, ...), judged on one instance: the family decides
        // which constraints they have.
        if let Ok(model) = sweep
            .generator_at(0)
            .map_err(|e| e.to_string())
            .and_then(|g| g.generate(sweep.seed).map_err(|e| e.to_string()))
        {
            let configs: Vec<SolveConfig> = sweep.algorithms.iter().map(|a| a.config.clone()).collect();
            report::write_inert_notes(&[&model], &configs, err);
        }
        if args.learn {
            let asked: Vec<SolveConfig> = args.algorithms.iter().map(|a| a.config.clone()).collect();
            report::write_no_twin_notes(&asked, err);
        }
    }
    Ok(EXIT_OK)
}

/// Whether `--records` names a JSON file (else it is CSV).
fn is_json(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

/// The CSV records of a sweep written as its instances finish, in that order
/// (see [`run_sweep`]); the first error writing them, which stops the writing.
struct RecordStream {
    file: std::io::BufWriter<std::fs::File>,
    path: PathBuf,
    error: anyhow::Result<()>,
}

impl RecordStream {
    /// Creates `path` (emptied) and writes the header.
    fn create(sweep: &Sweep, path: &Path) -> anyhow::Result<RecordStream> {
        let context = || format!("cannot write the records to {}", path.display());
        let file = std::fs::File::create(path).with_context(context)?;
        let mut stream = RecordStream { file: std::io::BufWriter::new(file), path: path.to_path_buf(), error: Ok(()) };
        RunRecords::of(sweep)
            .table()
            .write_csv_header(&mut stream.file)
            .and_then(|()| stream.file.flush())
            .with_context(context)?;
        Ok(stream)
    }

    /// Writes the records of `outcome`, unless an earlier write failed.
    fn write(&mut self, sweep: &Sweep, outcome: &InstanceOutcome) {
        if self.error.is_err() {
            return;
        }
        let mut write = || -> std::io::Result<()> {
            for row in RunRecords::of(sweep).rows(outcome) {
                Table::write_csv_record(&row, &mut self.file)?;
            }
            self.file.flush()
        };
        let written = write();
        let path = &self.path;
        self.error = written.with_context(|| format!("cannot write the records to {}", path.display()));
    }
}

/// Writes every run of a sweep to `path`: JSON records when its name ends
/// in `.json`, CSV otherwise.
fn write_records(result: &SweepResult, path: &Path) -> anyhow::Result<()> {
    let runs = result.runs();
    let mut text = Vec::new();
    if is_json(path) {
        serde_json::to_writer_pretty(&mut text, &runs.records())?;
        text.push(b'\n');
    } else {
        runs.write_csv(&mut text)?;
    }
    std::fs::write(path, text).with_context(|| format!("cannot write the records to {}", path.display()))
}

/// Seconds, for the summary.
fn seconds(time: Duration) -> String {
    format!("{:.2} s", time.as_secs_f64())
}

/// The wall-clock time, the time per algorithm, the backjumping checks and
/// any limited runs, on stderr.
fn write_summary(result: &SweepResult, elapsed: Duration, threads: usize, err: &mut dyn Write) -> anyhow::Result<()> {
    let sweep = &result.sweep;
    let instances = sweep.values.len() * sweep.samples;
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
            let wall: Duration = result.points.iter().map(|p| p.costs[a].time).sum();
            let cpu: Option<Duration> = result.points.iter().map(|p| p.costs[a].cpu_time).sum();
            match cpu {
                Some(cpu) => format!("{} {} ({} wall)", algorithm.name, seconds(cpu), seconds(wall)),
                None => format!("{} {} wall", algorithm.name, seconds(wall)),
            }
        })
        .collect();
    writeln!(err, "solver CPU time per algorithm: {}", times.join(", "))?;
    for twin in &result.twins {
        let (jump, chrono) = (&sweep.algorithms[twin.backjumping].name, &sweep.algorithms[twin.chronological].name);
        if twin.compared == 0 {
            writeln!(
                err,
                "note: {jump} against {chrono}: a limit stopped one of them on every instance, so nothing was \
                 checked (Kondrak & van Beek 1997)"
            )?;
        } else if twin.more_nodes == 0 {
            writeln!(
                err,
                "check: {jump} explored no more nodes than {chrono} on all {} instances where both finished \
                 (Kondrak & van Beek 1997)",
                twin.compared
            )?;
        } else {
            let (value, seed) = twin.example.ok_or_else(|| anyhow!("a counted instance has an example"))?;
            let generator = sweep.generator.with(sweep.parameter, value).map_err(|e| anyhow!(e))?;
            writeln!(
                err,
                "WARNING: {jump} explored more nodes than {chrono} on {} of {} instances (first: `lab one --model \
                 {generator} --seed {seed}`); with the same variable and value orders this should never happen",
                twin.more_nodes, twin.compared
            )
            .context("writing the summary")?;
        }
    }
    let limited: usize = result.points.iter().flat_map(|p| &p.costs).map(|c| c.limited).sum();
    if limited > 0 {
        writeln!(err, "note: a limit stopped {limited} runs; their counts are lower bounds, marked >= in the tables")?;
    }
    Ok(())
}
