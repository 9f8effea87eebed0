//! Reports of strategy comparisons: the options every `compare` subcommand
//! shares, and the renderings of its results as an aligned text table, CSV,
//! JSON, Markdown and an SVG chart.
//!
//! A tool's `compare` subcommand flattens [`CompareArgs`] into its arguments,
//! builds its models and hands them to [`run_comparison`], which runs
//! [`crate::report::compare::compare`], writes the chosen output and returns the exit
//! status:
//!
//! ```no_run
//! use clap::Parser;
//! use csp_cli::report::{CompareArgs, run_comparison};
//!
//! #[derive(Parser)]
//! struct Cli {
//!     #[command(flatten)]
//!     compare: CompareArgs,
//! }
//!
//! let cli = Cli::parse_from(["tool", "--configs", "bt+input,fc+mrv", "--goal", "count"]);
//! let mut model = csp::Model::new();
//! let q = model.new_vars(6, 0..=5).unwrap();
//! model.all_different(&q).unwrap();
//! let code = run_comparison(&[("six", &model)], &cli.compare, &mut std::io::stdout(), &mut std::io::stderr())?;
//! assert_eq!(code, 0);
//! # Ok::<(), anyhow::Error>(())
//! ```
//!
//! Exit status: 0 the table was written; 1 two configurations disagreed (a bug
//! in a propagator or in the search: it is printed on stderr and no table is
//! written); 2 bad usage (an unknown configuration word is already refused by
//! the argument parser, with the grammar in the message).
//!
//! Other results (such as the random-CSP lab's sweeps) implement [`Report`] and
//! are written by [`write_report`]; [`plot`] draws their charts.

pub mod baseline;
pub mod compare;
pub mod holm;
mod inert;
pub mod plot;
pub mod provenance;
pub mod seeds;
mod table;
pub mod wilcoxon;

use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Duration;

use crate::app::Quiet;
use crate::report::compare::{CompareError, CompareOptions, Comparison, Goal, Measurement, Repeats, compare_each};
use crate::{EXIT_BAD_INPUT, EXIT_NO_SOLUTION, EXIT_OK};
use anyhow::Context as _;
use clap::{Args, ValueEnum};
use csp::{Branching, ConfigSyntaxError, Model, Restarts, SolveConfig, Stats};

pub use inert::inert_switches;
pub use table::{Cell, Table, without_noise};

/// The configurations compared when `--configs` is not given: plain
/// backtracking and its backjumping twin in input order, forward checking and
/// its twin with MRV, maintained arc consistency with MRV, and with AC-2001 and
/// dom/wdeg.
pub const DEFAULT_CONFIGS: &str = "bt+input,bt-cbj+input,fc+mrv,fc-cbj+mrv,mac+mrv,mac/ac2001+domwdeg";

/// The output formats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, ValueEnum)]
pub enum Format {
    /// Columns aligned with spaces, for people.
    #[default]
    Table,
    /// Comma-separated values with a header line, one record per line.
    Csv,
    /// One JSON document.
    Json,
    /// GitHub-flavoured Markdown tables.
    #[value(alias = "md")]
    Markdown,
}

/// What each run looks for, as spelled on the command line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, ValueEnum)]
pub enum GoalArg {
    /// The first solution: configurations must agree on satisfiability.
    #[default]
    First,
    /// Count every solution: configurations must agree on the count.
    Count,
    /// Enumerate every solution: configurations must agree on the set.
    All,
    /// The optimum of the model's objective (branch and bound): configurations must agree on its value.
    Optimize,
}

impl From<GoalArg> for Goal {
    fn from(goal: GoalArg) -> Goal {
        match goal {
            GoalArg::First => Goal::First,
            GoalArg::Count => Goal::Count,
            GoalArg::All => Goal::All,
            GoalArg::Optimize => Goal::Optimize,
        }
    }
}

/// The options of a `compare` subcommand. Flatten it into the subcommand's
/// arguments with `#[command(flatten)]`. It defines `--node-limit` and
/// `--timeout`, so it does not go next to [`crate::StrategyArgs`] (the
/// configurations say the strategy).
#[derive(Args, Clone, Debug, PartialEq, Eq)]
pub struct CompareArgs {
    /// The configurations to compare, comma-separated, each spelled
    /// level[/ac3|ac2001]{+word}: levels bt, bt-bj, bt-gbj, bt-cbj, fc, fc-bj,
    /// fc-cbj, mac, mac-cbj; words: a variable ordering
    /// (input|mrv|mrvdeg|domdeg|domddeg|domwdeg|vsids|lvsids|alternate|rotate|antiff|smallest|largest|occurrence|regret|maxsd|maxrelsd|places|wplaces|aplaces|chb|altchb|chblit|lrb|altlrb),
    /// a value ordering (asc|desc|random|lcv|phase|active|median|split|rsplit|guided),
    /// pairwise|matching|bounds|cover, learn (with it: minimize, tiers, dynlbd, protect, noglue, expire,
    /// fade, gluecap, vivify, glucose[=WINDOW], target, rephase[=UNIT], stable[=UNIT], chrono[=LEVELS]), nld, probe, sac, cheap, touched, atroot, rootac, separate,
    /// intersect, binary, luby[=SCALE], geometric[=SCALE:FACTOR], seed=N (docs/compare.md).
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        value_parser = parse_config,
        default_value = DEFAULT_CONFIGS,
    )]
    pub configs: Vec<SolveConfig>,

    /// Also run each configuration's learning twin, the same with `+learn`
    /// (nogoods learnt from failures), just after it: learning on and off side
    /// by side. Configurations that cannot learn (not `mac`, with
    /// backjumping or `nld`) have no twin;
    /// a note names them, with the reason.
    #[arg(long)]
    pub learn: bool,

    /// What each run looks for: the first solution, the number of solutions, all of them, or the optimum.
    #[arg(long, value_enum, value_name = "GOAL", default_value_t = GoalArg::First)]
    pub goal: GoalArg,

    /// Timed runs per configuration and instance, the time shown being their
    /// median: a number (1 to 1000), or `auto`: a warm-up run, then at least 3
    /// timed runs and 20 ms of them (a first run of 100 ms or more is timed alone).
    #[arg(long, value_name = "N|auto", default_value = "auto", value_parser = parse_repeats)]
    pub repeats: Repeats,

    /// The output format.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Table)]
    pub format: Format,

    /// Also draw a bar chart of nodes and time per configuration (log scale) into this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,

    /// Also draw a cactus plot into this SVG file: per configuration, the
    /// instances it finished against the CPU time each took, fastest first.
    #[arg(long, value_name = "FILE.svg")]
    pub cactus: Option<PathBuf>,

    /// Stop each run after this many decisions (its counts are then lower bounds).
    #[arg(long = "node-limit", value_name = "N")]
    pub node_limit: Option<u64>,

    /// Stop each run after this many seconds (fractions allowed).
    #[arg(long, value_name = "SECS", value_parser = crate::parse_seconds)]
    pub timeout: Option<Duration>,

    /// Stop each run after this many seconds of its thread's CPU time
    /// (fractions allowed): unlike --timeout, the same on a loaded machine.
    #[arg(long = "cpu-timeout", value_name = "SECS", value_parser = crate::parse_seconds)]
    pub cpu_timeout: Option<Duration>,

    /// Also summarise every configuration against this one (which must be
    /// among those run): instances finished, PAR2 and PAR10 under the time
    /// limit, geometric mean ratios of nodes and time, wins/ties/losses, and
    /// Wilcoxon signed-rank p-values (text, Markdown and JSON).
    #[arg(long, value_name = "CONFIG", value_parser = parse_config)]
    pub baseline: Option<SolveConfig>,

    /// Run every configuration that draws at random (the random value order,
    /// rephasing under learn) once per seed of this list, as CONFIG+seed=N,
    /// and summarise across the seeds; deterministic configurations run
    /// once. N, A-B or a comma-separated list of them: 1-10, 1,4,9.
    #[arg(long, value_name = "LIST", value_parser = parse_seeds)]
    pub seeds: Option<seeds::Seeds>,

    /// Also say where the numbers came from in the text table and CSV, as
    /// `#` comment lines before and after them (Markdown: an HTML comment):
    /// the version, the commit, the command line, the start and end times,
    /// the machine and its load. JSON always has them (`provenance`).
    #[arg(long)]
    pub provenance: bool,

    /// `-q`: no notes on stderr (limited runs, switches that change nothing), errors only.
    #[command(flatten)]
    pub quiet: Quiet,
}

impl Default for CompareArgs {
    fn default() -> Self {
        CompareArgs {
            configs: default_configs(),
            learn: false,
            goal: GoalArg::First,
            repeats: Repeats::Auto,
            format: Format::Table,
            plot: None,
            cactus: None,
            node_limit: None,
            timeout: None,
            cpu_timeout: None,
            baseline: None,
            seeds: None,
            provenance: false,
            quiet: Quiet::default(),
        }
    }
}

impl CompareArgs {
    /// The options of [`crate::report::compare::compare`] these arguments ask for.
    pub fn options(&self) -> CompareOptions {
        CompareOptions {
            goal: self.goal.into(),
            repeats: self.repeats,
            limits: crate::strategy::run_limits(self.node_limit, self.timeout, self.cpu_timeout),
        }
    }
}

/// The configurations of [`DEFAULT_CONFIGS`].
pub fn default_configs() -> Vec<SolveConfig> {
    DEFAULT_CONFIGS.split(',').map(|c| c.parse().expect("the default configurations are valid")).collect()
}

/// Parses `--seeds`: `N`, `A-B` or a comma-separated list of them.
fn parse_seeds(text: &str) -> Result<seeds::Seeds, seeds::SeedsError> {
    text.parse()
}

/// Parses `--repeats`: `auto` or a number of runs from 1 to 1000.
fn parse_repeats(text: &str) -> Result<Repeats, String> {
    text.parse()
}

/// Parses one configuration spelling for clap (the error names the word and
/// the grammar).
pub fn parse_config(text: &str) -> Result<SolveConfig, String> {
    text.parse::<SolveConfig>().map_err(|err| err.to_string())
}

/// Compares `instances` under the configurations of `args`, writes the chosen
/// output to `out` (and the chart to `--plot`), and returns the exit status:
/// [`EXIT_OK`], [`EXIT_NO_SOLUTION`] (1) when configurations disagree (printed
/// loudly on `err`, and no table), or [`EXIT_BAD_INPUT`] (2) when the
/// comparison cannot run (no instances, a model the solver refuses, an
/// unwritable plot file). An error writing the table is returned, for
/// [`crate::app::run`] to report (a closed output pipe ends the tool quietly).
pub fn run_comparison(
    instances: &[(&str, &Model)],
    args: &CompareArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> anyhow::Result<u8> {
    if instances.is_empty() {
        let _ = writeln!(err, "error: there are no instances to compare");
        return Ok(EXIT_BAD_INPUT);
    }
    if args.configs.is_empty() {
        let _ = writeln!(err, "error: there are no configurations to compare");
        return Ok(EXIT_BAD_INPUT);
    }
    let provenance = provenance::Provenance::start();
    let configs = match args.configs_to_run() {
        Ok(configs) => configs,
        Err(error) => {
            let _ = writeln!(err, "error: {error}");
            return Ok(EXIT_BAD_INPUT);
        }
    };
    let baseline = match &args.baseline {
        None => None,
        Some(baseline) => match configs.iter().position(|config| config == baseline) {
            Some(index) => Some(index),
            None => {
                let seeded = if args.seeds.is_some() && baseline.draws_at_random() {
                    " (--seeds runs a randomised configuration as CONFIG+seed=N: name one of them)"
                } else {
                    ""
                };
                let _ = writeln!(
                    err,
                    "error: the baseline {baseline} is not among the configurations run (--configs){seeded}"
                );
                return Ok(EXIT_BAD_INPUT);
            }
        },
    };
    for path in [&args.plot, &args.cactus].into_iter().flatten() {
        if let Err(error) = plot::check_destination("the plot", path) {
            let _ = writeln!(err, "error: {error:#}");
            return Ok(EXIT_BAD_INPUT);
        }
    }
    let options = args.options();
    // CSV is written record by record, each as its run finishes (and agrees
    // with the runs of its instance before it), and flushed, so that a run
    // killed part way keeps every record it finished; the output of a
    // complete run is the same as written at the end. The other formats
    // cannot be streamed: the tables' rows and the JSON's totals are sums
    // over every instance, and the text table's widths depend on every row.
    let stream = args.format == Format::Csv;
    let records = MeasurementRecords { goal: options.goal, optional: OptionalColumns::of(&configs) };
    let cite = args.provenance && args.format != Format::Json;
    if cite {
        write_provenance_lines(&provenance.header_lines(), args.format, out).context("cannot write the table")?;
    }
    if stream {
        records.table().write_csv_header(out).and_then(|()| out.flush()).context("cannot write the table")?;
    }
    let mut written: io::Result<()> = Ok(());
    let mut write_record = |instance: &str, measurement: &Measurement| {
        if stream {
            written = Table::write_csv_record(&records.cells(instance, measurement), out).and_then(|()| out.flush());
        }
        written.is_ok()
    };
    let comparison = match compare_each(instances, &configs, &options, &mut write_record) {
        Ok(Some(comparison)) => comparison,
        Ok(None) => {
            return Err(written.expect_err("only a failed write stops a comparison")).context("cannot write the table");
        }
        Err(error) => return Ok(report_failure(&error, err)),
    };
    let report =
        ComparisonReport { comparison: &comparison, options: &options, baseline, seeded: args.seeds.is_some() };
    for (path, cactus) in [(&args.plot, false), (&args.cactus, true)] {
        let Some(path) = path else { continue };
        let svg = if cactus { report.cactus_svg() } else { report.svg() };
        if let Err(error) = svg.and_then(|svg| plot::write_svg(path, &svg)) {
            let _ = writeln!(err, "error: {error:#}");
            return Ok(EXIT_BAD_INPUT);
        }
    }
    if !stream {
        write_cited_report(&report, args.format, &provenance, out)
            .and_then(|()| out.flush())
            .context("cannot write the table")?;
    }
    if cite {
        write_provenance_lines(&provenance.footer_lines(), args.format, out)
            .and_then(|()| out.flush())
            .context("cannot write the table")?;
    }
    if !args.quiet.notes() {
        return Ok(EXIT_OK);
    }
    let limited: usize = comparison.rows.iter().map(|row| row.limited).sum();
    if limited > 0 {
        let _ = writeln!(
            err,
            "note: a limit stopped {limited} run{}; their counts are lower bounds and they were not checked for agreement",
            if limited == 1 { "" } else { "s" }
        );
    }
    let models: Vec<&Model> = instances.iter().map(|(_, model)| *model).collect();
    write_inert_notes(&models, &configs, err);
    if args.learn {
        write_no_twin_notes(&args.configs, err);
    }
    Ok(EXIT_OK)
}

/// A note on stderr for each word of `configs` that changes nothing on
/// `models` ([`inert_switches`]): `note: mac+places+...: +places changes
/// nothing here: ...`.
pub fn write_inert_notes(models: &[&Model], configs: &[SolveConfig], err: &mut dyn Write) {
    for config in configs {
        for switch in inert_switches(models, config) {
            let _ = writeln!(err, "note: {config}: {switch}");
        }
    }
}

impl CompareArgs {
    /// The configurations to run: `--configs`, each followed by its learning
    /// twin with `--learn` (when it has one, and it is not already there),
    /// and with `--seeds` each that draws at random once per seed
    /// ([`seeds::expand`]; refused when a configuration names its seed).
    pub fn configs_to_run(&self) -> Result<Vec<SolveConfig>, seeds::SeedsError> {
        let configs = if self.learn {
            with_learning_twins(&self.configs, |config| config, |_, twin| twin)
        } else {
            self.configs.clone()
        };
        match &self.seeds {
            None => Ok(configs),
            Some(list) => seeds::expand(&configs, list),
        }
    }
}

/// `items` (configurations, or what carries one: `config` finds it), each
/// followed by its learning twin (`twin` makes the item from the item and
/// its twin's configuration) when it has one that is not already among them:
/// what `--learn` runs, in every command that takes a list of configurations.
pub fn with_learning_twins<T: Clone>(
    items: &[T],
    config: impl Fn(&T) -> &SolveConfig,
    twin: impl Fn(&T, SolveConfig) -> T,
) -> Vec<T> {
    let mut all: Vec<T> = Vec::with_capacity(items.len() * 2);
    for item in items {
        all.push(item.clone());
        let Some(learning) = learning_twin(config(item)) else { continue };
        let present = |list: &[T]| list.iter().any(|other| *config(other) == learning);
        if !present(&all) && !present(items) {
            all.push(twin(item, learning));
        }
    }
    all
}

/// The configuration with `+learn`, when it can learn and does not already.
/// Learning branches binary, so the twin of a `binary` configuration is
/// that of its d-way form.
pub fn learning_twin(config: &SolveConfig) -> Option<SolveConfig> {
    learning_twin_or_why_not(config).ok().flatten()
}

/// [`learning_twin`], or why a configuration that does not learn cannot:
/// `Ok(None)` when it learns already.
fn learning_twin_or_why_not(config: &SolveConfig) -> Result<Option<SolveConfig>, String> {
    if config.learning() {
        return Ok(None);
    }
    let d_way = config.clone().with_branching(Branching::Enumerate);
    match format!("{d_way}+learn").parse() {
        Ok(twin) => Ok(Some(twin)),
        Err(ConfigSyntaxError::Unsupported { what, instead, .. }) => {
            Err(format!("{what} is not implemented ({instead})"))
        }
        Err(error) => Err(error.to_string()),
    }
}

/// A note on stderr for each configuration of `configs` that `--learn` gave
/// no learning twin because it cannot learn, with the reason: `note: --learn:
/// fc+mrv+pairwise has no learning twin: learning without maintained arc
/// consistency is not implemented (...)`.
pub fn write_no_twin_notes(configs: &[SolveConfig], err: &mut dyn Write) {
    for config in configs {
        if let Err(why) = learning_twin_or_why_not(config) {
            let _ = writeln!(err, "note: --learn: {config} has no learning twin: {why}");
        }
    }
}

/// Says on `err` why a comparison failed, and returns the exit status: a
/// disagreement or a wrong solution is a bug ([`report_bug`], exit 1); a
/// solver that could not be built, bad input (exit 2).
pub fn report_failure(error: &CompareError, err: &mut dyn Write) -> u8 {
    match error {
        CompareError::Solver { .. } => {
            let _ = writeln!(err, "error: {error}");
            EXIT_BAD_INPUT
        }
        CompareError::Disagreement { .. } | CompareError::WrongSolution { .. } => {
            report_bug(error, err);
            EXIT_NO_SOLUTION
        }
    }
}

/// Prints a disagreement (or a wrong solution) so that nobody can miss it.
pub fn report_bug(error: &CompareError, err: &mut dyn Write) {
    let _ = writeln!(err, "error: DISAGREEMENT: {error}");
    let _ = writeln!(
        err,
        "error: no table is printed (CSV records, written as runs finish, stop before the disagreeing run): complete \
         runs of correct configurations always agree, so a propagator or the search is wrong; please report this \
         with the command line that produced it"
    );
    let _ = err.flush();
}

/// A result that can be written in every [`Format`].
pub trait Report {
    /// The tables of the text and Markdown formats, in order.
    fn tables(&self) -> Vec<Table>;
    /// The one table of the CSV format: a header and one record per line.
    fn records(&self) -> Table;
    /// The JSON document.
    fn json(&self) -> serde_json::Value;
}

/// [`write_report`], JSON with a `provenance` object besides: the version,
/// the command line, the start and end times, the machine and its load
/// ([`provenance::Provenance`]). The other formats are as `write_report`'s.
pub fn write_cited_report(
    report: &dyn Report,
    format: Format,
    provenance: &provenance::Provenance,
    out: &mut dyn Write,
) -> io::Result<()> {
    if format != Format::Json {
        return write_report(report, format, out);
    }
    let mut json = report.json();
    if let Some(object) = json.as_object_mut() {
        object.insert("provenance".to_string(), provenance.json());
    }
    serde_json::to_writer_pretty(&mut *out, &json)?;
    writeln!(out)
}

/// Writes provenance lines ([`provenance::Provenance::header_lines`]) as
/// comments of `format`: `# ` lines in the text table and CSV (which
/// `pandas.read_csv(comment="#")` and R's `read.csv(comment.char="#")`
/// skip), an HTML comment in Markdown (kept in the source, not rendered).
/// JSON has its own `provenance` object: nothing is written.
pub fn write_provenance_lines(lines: &[String], format: Format, out: &mut dyn Write) -> io::Result<()> {
    match format {
        Format::Json => Ok(()),
        Format::Markdown => {
            writeln!(out, "<!--")?;
            for line in lines {
                // HTML allows `--` in a comment, not `-->`, which would end it.
                writeln!(out, "{}", line.replace("-->", "-- >"))?;
            }
            writeln!(out, "-->")
        }
        Format::Table | Format::Csv => lines.iter().try_for_each(|line| writeln!(out, "# {line}")),
    }
}

/// Writes `report` to `out` in `format`.
pub fn write_report(report: &dyn Report, format: Format, out: &mut dyn Write) -> io::Result<()> {
    match format {
        Format::Table | Format::Markdown => {
            for (i, table) in report.tables().iter().enumerate() {
                if i > 0 {
                    writeln!(out)?;
                }
                if format == Format::Table { table.write_text(out)? } else { table.write_markdown(out)? }
            }
            Ok(())
        }
        Format::Csv => report.records().write_csv(out),
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, &report.json())?;
            writeln!(out)
        }
    }
}

/// The records of a comparison's measurements (its CSV, and JSON's
/// `measurements`), one per instance and configuration: the totals' columns,
/// with the instance's name for the number of instances, `limited` 1 when a
/// limit stopped the run, the best objective value found when the goal is the
/// optimum, the number of timed runs, and the shortest and longest of their
/// wall-clock and CPU times (`time_min_ms`, `time_max_ms`, `cpu_min_ms`,
/// `cpu_max_ms`: the spread around the medians `time_ms` and `cpu_ms`). Known before any run, so that the
/// CSV can be written record by record as the runs finish.
#[derive(Clone, Copy, Debug)]
struct MeasurementRecords {
    goal: Goal,
    optional: OptionalColumns,
}

impl MeasurementRecords {
    /// The table without rows: its columns.
    fn table(self) -> Table {
        let mut columns = vec!["config", "instance", "solved", "limited", "solutions"];
        if self.goal == Goal::Optimize {
            columns.push("objective");
        }
        columns.extend(stats_columns(self.optional));
        columns.extend(["runs", "time_min_ms", "time_max_ms", "cpu_min_ms", "cpu_max_ms"]);
        Table::new(columns)
    }

    /// The record of `m`, a run on `instance`.
    fn cells(self, instance: &str, m: &Measurement) -> Vec<Cell> {
        let mut cells = vec![
            Cell::text(m.config.to_string()),
            Cell::text(instance),
            Cell::Int(u64::from(m.solved)),
            Cell::Int(u64::from(m.is_limited())),
            Cell::Int(m.solutions),
        ];
        if self.goal == Goal::Optimize {
            cells.push(m.objective.map_or(Cell::Empty, Cell::Signed));
        }
        cells.extend(stats_cells(&m.stats, m.time, m.cpu_time, self.optional));
        cells.push(Cell::Int(m.timed_runs as u64));
        let (low, high) = m.time_range;
        cells.extend([Cell::Float(millis(low), 3), Cell::Float(millis(high), 3)]);
        match m.cpu_time_range {
            Some((low, high)) => cells.extend([Cell::Float(millis(low), 3), Cell::Float(millis(high), 3)]),
            None => cells.extend([Cell::Empty, Cell::Empty]),
        }
        cells
    }
}

/// A [`Comparison`] with the options it was run with, ready to be written.
#[derive(Clone, Copy, Debug)]
pub struct ComparisonReport<'a> {
    /// The result.
    pub comparison: &'a Comparison,
    /// The options it was run with.
    pub options: &'a CompareOptions,
    /// The index of the baseline configuration (`--baseline`), whose summary
    /// ([`baseline::against_baseline`]) is one more table and JSON's `baseline`.
    pub baseline: Option<usize>,
    /// Whether randomised configurations ran under `--seeds`: the summaries
    /// across their seeds ([`seeds::across_seeds`], [`seeds::solved_per_seed`])
    /// are two more tables and JSON's `seeds`.
    pub seeded: bool,
}

/// The statistics columns, in the order of every rendering; `learnt`
/// ([`Stats::learnt`]) only when some configuration learns, `restarts`
/// ([`Stats::restarts`]) only when some configuration restarts, the nogood
/// database's `reductions`, `nogoods_deleted`, `nogoods_alive`, `glue_alive`
/// and `lbd_lowered` ([`Stats::reductions`] and the next four) only when some
/// configuration changes how the database is kept (`tiers`, `dynlbd`),
/// `vivify_removed` ([`Stats::vivify_removed`]) only when some
/// configuration vivifies its nogoods (`vivify`), `replayed` ([`Stats::replayed`]) only when
/// some configuration replays skipped decisions (`chrono`), `probes` and `probe_removals` ([`Stats::probes`],
/// [`Stats::probe_removals`]) only when some configuration probes
/// ([`stats_columns`]).
const STATS_COLUMNS: [&str; 21] = [
    "nodes",
    "backtracks",
    "backjumps",
    "failures",
    "learnt",
    "restarts",
    "reductions",
    "nogoods_deleted",
    "nogoods_alive",
    "glue_alive",
    "lbd_lowered",
    "vivify_removed",
    "replayed",
    "probes",
    "probe_removals",
    "checks",
    "propagations",
    "pruned",
    "max_depth",
    "time_ms",
    "cpu_ms",
];

/// Which of the optional statistics columns a report has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OptionalColumns {
    /// `learnt`: some configuration learns nogoods.
    pub learns: bool,
    /// `restarts`: some configuration restarts.
    pub restarts: bool,
    /// `probes` and `probe_removals`: some configuration probes.
    pub probes: bool,
    /// The nogood database's columns: some configuration learns with
    /// `tiers` or `dynlbd`.
    pub database: bool,
    /// `vivify_removed`: some configuration learns with `vivify`.
    pub vivifies: bool,
    /// `replayed`: some configuration learns with `chrono`.
    pub replays: bool,
}

impl OptionalColumns {
    /// The optional columns the configurations need.
    pub fn of<'c>(configs: impl IntoIterator<Item = &'c SolveConfig>) -> OptionalColumns {
        configs.into_iter().fold(OptionalColumns::default(), |columns, config| OptionalColumns {
            learns: columns.learns || config.learning() || config.restart_nogoods,
            restarts: columns.restarts || config.restarts != Restarts::Never,
            probes: columns.probes || config.probing.is_on(),
            database: columns.database || (config.learning() && (config.nogood_tiers || config.dynamic_lbd)),
            vivifies: columns.vivifies || (config.learning() && config.vivify_nogoods),
            replays: columns.replays || (config.learning() && config.chrono.is_some()),
        })
    }

    fn shows(self, column: &str) -> bool {
        match column {
            "learnt" => self.learns,
            "restarts" => self.restarts,
            "probes" | "probe_removals" => self.probes,
            "reductions" | "nogoods_deleted" | "nogoods_alive" | "glue_alive" | "lbd_lowered" => self.database,
            "vivify_removed" => self.vivifies,
            "replayed" => self.replays,
            _ => true,
        }
    }
}

/// Milliseconds, for the `time_ms` and `cpu_ms` columns.
pub fn millis(time: Duration) -> f64 {
    time.as_secs_f64() * 1e3
}

/// The statistics columns, with the optional ones `optional` asks for.
pub fn stats_columns(optional: OptionalColumns) -> impl Iterator<Item = &'static str> {
    STATS_COLUMNS.into_iter().filter(move |&column| optional.shows(column))
}

/// The cells of [`stats_columns`], with the optional ones `optional` asks for.
fn stats_cells(stats: &Stats, time: Duration, cpu_time: Option<Duration>, optional: OptionalColumns) -> Vec<Cell> {
    let mut cells = vec![
        Cell::Int(stats.nodes),
        Cell::Int(stats.backtracks),
        Cell::Int(stats.backjumps),
        Cell::Int(stats.failures),
    ];
    if optional.learns {
        cells.push(Cell::Int(stats.learnt));
    }
    if optional.restarts {
        cells.push(Cell::Int(stats.restarts));
    }
    if optional.database {
        cells.extend(
            [stats.reductions, stats.nogoods_deleted, stats.nogoods_alive, stats.glue_alive, stats.lbd_lowered]
                .map(Cell::Int),
        );
    }
    if optional.vivifies {
        cells.push(Cell::Int(u64::from(stats.vivify_removed)));
    }
    if optional.replays {
        cells.push(Cell::Int(stats.replayed));
    }
    if optional.probes {
        cells.extend([Cell::Int(stats.probes), Cell::Int(stats.probe_removals)]);
    }
    cells.extend([
        Cell::Int(stats.checks),
        Cell::Int(stats.propagations),
        Cell::Int(stats.pruned),
        Cell::Int(u64::from(stats.max_depth)),
        Cell::Float(millis(time), 3),
        cpu_time.map_or(Cell::Empty, |cpu| Cell::Float(millis(cpu), 3)),
    ]);
    cells
}

fn goal_name(goal: Goal) -> &'static str {
    match goal {
        Goal::First => "first",
        Goal::Count => "count",
        Goal::All => "all",
        Goal::Optimize => "optimize",
    }
}

impl ComparisonReport<'_> {
    fn title(&self) -> String {
        let instances = self.comparison.instances.len();
        let goal = match self.options.goal {
            Goal::First => "the first solution",
            Goal::Count => "counting the solutions",
            Goal::All => "all the solutions",
            Goal::Optimize => "the optimum",
        };
        let what = match instances {
            1 => format!("instance '{}'", self.comparison.instances[0]),
            n => format!("{n} instances (sums)"),
        };
        format!("{what}; {goal}; {}", self.time_words())
    }

    fn time_words(&self) -> String {
        match self.options.repeats {
            Repeats::Exactly(1) => "time of one run".to_string(),
            Repeats::Exactly(n) => format!("median time of {n} runs"),
            Repeats::Auto => "median time of warm runs".to_string(),
        }
    }

    /// The title of the charts: what was run, without the instances' names
    /// (file names and line numbers do not belong in a figure).
    fn chart_title(&self) -> String {
        let goal = match self.options.goal {
            Goal::First => "first solution",
            Goal::Count => "counting the solutions",
            Goal::All => "all the solutions",
            Goal::Optimize => "the optimum",
        };
        let instances = match self.comparison.instances.len() {
            1 => "1 instance".to_string(),
            n => format!("{n} instances (sums)"),
        };
        format!("{goal}, {instances}, {}", self.time_words())
    }

    /// The optional columns: `learnt` when some configuration learns
    /// nogoods (or records them from restarts), `restarts` when some
    /// restarts, the nogood database's when some keeps it by `tiers` or
    /// `dynlbd`, the probes' when some
    /// configuration probes.
    fn optional_columns(&self) -> OptionalColumns {
        OptionalColumns::of(self.comparison.rows.iter().map(|row| &row.config))
    }

    /// The per-configuration table; `with_instances` adds the number of instances.
    fn totals(&self, with_instances: bool) -> Table {
        let mut columns = vec!["config"];
        if with_instances {
            columns.push("instances");
        }
        columns.extend(["solved", "limited", "solutions"]);
        columns.extend(stats_columns(self.optional_columns()));
        let mut table = Table::new(columns);
        for row in &self.comparison.rows {
            let mut cells = vec![Cell::text(row.config.to_string())];
            if with_instances {
                cells.push(Cell::Int(row.instances as u64));
            }
            cells.extend([Cell::Int(row.solved as u64), Cell::Int(row.limited as u64), Cell::Int(row.solutions)]);
            cells.extend(stats_cells(&row.stats, row.time, row.cpu_time, self.optional_columns()));
            table.push(cells);
        }
        table
    }

    /// One record per instance and configuration, instance by instance: the
    /// totals' columns, with the instance's name for the number of instances,
    /// `limited` 1 when a limit stopped the run, the best objective value
    /// found when the goal is the optimum, and the number of timed runs.
    fn measurements(&self) -> Table {
        let records = MeasurementRecords { goal: self.options.goal, optional: self.optional_columns() };
        let mut table = records.table();
        for (i, instance) in self.comparison.instances.iter().enumerate() {
            for row in &self.comparison.measurements {
                table.push(records.cells(instance, &row[i]));
            }
        }
        table
    }

    /// The bar chart of nodes and time per configuration, as SVG.
    pub fn svg(&self) -> anyhow::Result<String> {
        let rows = &self.comparison.rows;
        let labels: Vec<String> = rows.iter().map(|row| row.config.to_string()).collect();
        let panels = [
            plot::BarPanel {
                title: "nodes".into(),
                axis: "nodes (log scale)".into(),
                values: rows.iter().map(|row| row.stats.nodes as f64).collect(),
            },
            plot::BarPanel {
                title: "time".into(),
                axis: "milliseconds (log scale)".into(),
                values: rows.iter().map(|row| millis(row.time)).collect(),
            },
        ];
        plot::bar_chart(&self.chart_title(), &labels, &panels)
    }

    /// The cactus plot, as SVG: per configuration, the instances it finished
    /// (no limit stopped it) sorted by CPU time (wall-clock time without a
    /// CPU clock), the `i`-th at `x = i`, its time on a log scale. The
    /// further right and lower a curve, the better.
    pub fn cactus_svg(&self) -> anyhow::Result<String> {
        let cpu = self.comparison.measurements.iter().flatten().all(|m| m.cpu_time.is_some());
        let series = self
            .comparison
            .rows
            .iter()
            .zip(&self.comparison.measurements)
            .map(|(row, measurements)| {
                let mut times: Vec<f64> = measurements
                    .iter()
                    .filter(|m| m.is_complete())
                    .map(|m| millis(if cpu { m.cpu_time.unwrap_or(m.time) } else { m.time }))
                    .collect();
                times.sort_by(f64::total_cmp);
                plot::Series::new(row.config.to_string(), (1..).map(f64::from).zip(times).collect())
            })
            .collect();
        let chart = plot::XyChart {
            title: format!("cactus plot: {}", self.chart_title()),
            x_axis: plot::Axis::linear("instances finished"),
            y_axis: plot::Axis::log(if cpu { "CPU time per instance (ms)" } else { "time per instance (ms)" }),
            series,
            steps: false,
        };
        plot::xy_chart(&chart)
    }
}

impl ComparisonReport<'_> {
    /// Pruning attribution: a row per constraint kind, a column per
    /// configuration, each cell the values that kind removed and, in
    /// parentheses, the failures it caused (wipe-outs and failed checks).
    fn pruning(&self) -> Table {
        let rows = &self.comparison.rows;
        let mut kinds: Vec<&str> = Vec::new();
        for (kind, _) in rows.iter().flat_map(|row| &row.pruning) {
            if !kinds.contains(&kind.as_str()) {
                kinds.push(kind);
            }
        }
        let mut columns = vec!["kind".to_string()];
        columns.extend(rows.iter().map(|row| row.config.to_string()));
        let mut table = Table::new(columns).with_title(
            "values pruned by each kind of constraint (failures it caused in parentheses), summed over the instances",
        );
        for kind in kinds {
            let mut cells = vec![Cell::text(kind)];
            cells.extend(rows.iter().map(|row| match row.pruning.iter().find(|(k, _)| k == kind) {
                Some((_, effect)) => Cell::text(format!("{} ({})", effect.pruned, effect.failures)),
                None => Cell::Empty,
            }));
            table.push(cells);
        }
        table
    }

    fn pruning_json(&self) -> serde_json::Value {
        let configs = self.comparison.rows.iter().map(|row| {
            let kinds = row.pruning.iter().map(|(kind, effect)| {
                serde_json::json!({ "kind": kind, "pruned": effect.pruned, "failures": effect.failures })
            });
            serde_json::json!({ "config": row.config.to_string(), "kinds": kinds.collect::<Vec<_>>() })
        });
        serde_json::Value::Array(configs.collect())
    }
}

impl ComparisonReport<'_> {
    /// The time limit the penalised run times count a run that did not
    /// finish as: the CPU limit when the summaries read CPU time and there is
    /// one, otherwise the wall-clock limit.
    fn par_limit(&self) -> Option<Duration> {
        let limits = &self.options.limits;
        if baseline::reads_cpu_time(self.comparison) { limits.cpu_time.or(limits.time) } else { limits.time }
    }

    /// The summary against the baseline ([`baseline::against_baseline`]).
    fn against_baseline(&self, baseline: usize) -> Table {
        let summaries = baseline::against_baseline(self.comparison, baseline, self.par_limit());
        let clock = if baseline::reads_cpu_time(self.comparison) { "CPU time" } else { "wall-clock time" };
        let common = summaries.first().map_or(0, |s| s.common);
        let mut columns = vec!["config", "finished"];
        let par = self.par_limit();
        if par.is_some() {
            columns.extend(["par2_s", "par10_s"]);
        }
        columns.extend(["nodes_ratio", "nodes_wins", "nodes_ties", "nodes_losses", "nodes_p", "time_ratio", "time_p"]);
        columns.extend(["nodes_p_holm", "time_p_holm"]);
        let mut title = format!(
            "against the baseline {}: finished of {} instances",
            self.comparison.rows[baseline].config,
            self.comparison.instances.len()
        );
        if let Some(limit) = par {
            title.push_str(&format!(
                "; PAR2 and PAR10 in seconds of {clock} (a run not finished counts 2 or 10 times the limit of {} s)",
                limit.as_secs_f64()
            ));
        }
        title.push_str(&format!(
            "; geometric mean ratios (nodes + 1, {clock}) and two-sided Wilcoxon signed-rank p-values over the {common} \
             instances every configuration finished; wins, ties and losses on nodes over every instance"
        ));
        // The families of Holm's correction: the configurations with a test.
        let tests = |test: fn(&baseline::AgainstBaseline) -> Option<f64>| summaries.iter().filter_map(test).count();
        let (nodes_tests, time_tests) = (tests(|s| s.nodes_p_holm), tests(|s| s.time_p_holm));
        let count = |n: usize| if n == 1 { "1 test".to_string() } else { format!("{n} tests") };
        let family = if nodes_tests == time_tests {
            format!("the {} of each", count(nodes_tests))
        } else {
            format!("the {} of nodes and the {} of time", count(nodes_tests), count(time_tests))
        };
        title.push_str(&format!("; nodes_p_holm and time_p_holm: the p-values adjusted by Holm's method for {family}"));
        let mut table = Table::new(columns).with_title(title);
        let float = |value: Option<f64>, decimals| value.map_or(Cell::Empty, |v| Cell::Float(v, decimals));
        // Four decimals, or as many as two significant digits of a smaller
        // p-value need (CSV and JSON keep every digit).
        let p_cell = |p: Option<f64>| {
            p.map_or(Cell::Empty, |p| {
                let digits = if p > 0.0 { (-p.log10()).ceil() as usize + 1 } else { 4 };
                Cell::Float(p, digits.clamp(4, 17))
            })
        };
        let p_value = |test: Option<wilcoxon::SignedRank>| p_cell(test.map(|t| t.p_value));
        for (row, summary) in self.comparison.rows.iter().zip(&summaries) {
            let mut cells = vec![Cell::text(row.config.to_string()), Cell::Int(summary.finished as u64)];
            if let Some((par2, par10)) = summary.par {
                cells.extend([Cell::Float(par2, 3), Cell::Float(par10, 3)]);
            } else if par.is_some() {
                cells.extend([Cell::Empty, Cell::Empty]);
            }
            let (wins, ties, losses) = summary.nodes_record;
            cells.extend([
                float(summary.nodes_ratio, 3),
                Cell::Int(wins as u64),
                Cell::Int(ties as u64),
                Cell::Int(losses as u64),
                p_value(summary.nodes_test),
                float(summary.time_ratio, 3),
                p_value(summary.time_test),
                p_cell(summary.nodes_p_holm),
                p_cell(summary.time_p_holm),
            ]);
            table.push(cells);
        }
        table
    }
}

impl Report for ComparisonReport<'_> {
    fn tables(&self) -> Vec<Table> {
        let mut tables = vec![self.totals(false).with_title(self.title()), self.pruning()];
        if self.seeded {
            tables.extend(seeds::across_seeds(self.comparison));
            tables.extend(seeds::solved_per_seed(self.comparison));
        }
        if let Some(baseline) = self.baseline {
            tables.push(self.against_baseline(baseline));
        }
        tables
    }

    fn records(&self) -> Table {
        self.measurements()
    }

    fn json(&self) -> serde_json::Value {
        let repeats = match self.options.repeats {
            Repeats::Exactly(n) => serde_json::Value::from(n),
            Repeats::Auto => serde_json::Value::from("auto"),
        };
        let mut json = serde_json::json!({
            "goal": goal_name(self.options.goal),
            "repeats": repeats,
            "node_limit": self.options.limits.nodes,
            "timeout_s": self.options.limits.time.map(|t| t.as_secs_f64()),
            "cpu_timeout_s": self.options.limits.cpu_time.map(|t| t.as_secs_f64()),
            "instances": self.comparison.instances,
            "configs": self.totals(true).records(),
            "pruning": self.pruning_json(),
            "measurements": self.measurements().records(),
        });
        if let (true, Some(across), Some(solved)) =
            (self.seeded, seeds::across_seeds(self.comparison), seeds::solved_per_seed(self.comparison))
        {
            json["seeds"] = serde_json::json!({
                "title": across.title,
                "instances": across.records(),
                "solved_title": solved.title,
                "solved": solved.records(),
            });
        }
        if let Some(baseline) = self.baseline {
            let table = self.against_baseline(baseline);
            json["baseline"] = serde_json::json!({
                "config": self.comparison.rows[baseline].config.to_string(),
                "title": table.title,
                "configs": table.records(),
            });
        }
        json
    }
}

#[cfg(test)]
mod tests;
