//! The `queens` tool: N-queens by backtracking search or min-conflicts local
//! search, and the table of how ordering and propagation change the search.
//!
//! ```text
//! csp-queens [N] [options]
//! cargo run --release --example queens -- [N] [options]
//! ```
//!
//! It parses the arguments, builds the model with `csp_queens`, runs the engine,
//! checks every placement it prints with `csp_queens::verify`, and maps the
//! outcome to an exit status ([the rule of every tool](crate::app)): 0 found
//! (or counted at least one), 1 none (a count of zero, or a limit stopped the
//! search first), 2 bad usage. Placements and counts go to stdout (as text or
//! JSON); statistics to stderr (`--stats`, `-v`; below a board always, unless
//! `-q`).
//!
//! `queens compare [N] --configs LIST` compares solver configurations on one
//! board through the shared [`crate::report`] module; `queens --table` prints
//! nodes and time by ordering and propagation level (`table.rs`).

mod compare;
mod table;

use std::ffi::OsString;
use std::io::Write;
use std::time::Instant;

use crate::app::{self, Exit, Verbosity, report_usage};
use crate::{EXIT_NO_SOLUTION, EXIT_OK, Io, StrategyArgs};
use anyhow::{Context as _, bail};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use csp::{Count, LocalSearch, LocalSearchConfig, LocalSearchOutcome, Outcome, Solver, Status};
use csp_queens::{Board, DEFAULT_SEED, Json, Line, Queens, Style, default_config};

/// The largest N for backtracking search: a first solution of N = 10,000 takes
/// about 2.4 s and 430 MB (the domains are N^2 bits, and the trail keeps copies
/// of them); N = 20,000 took 12 s and 1.7 GB (docs/queens.md).
pub const MAX_BACKTRACKING_N: usize = 10_000;

/// The largest N for local search: about 160 bytes per queen (1.6 GB and 18 s
/// of CPU at this limit; a million queens take 160 MB and 1.3 s).
pub const MAX_LOCAL_SEARCH_N: usize = 10_000_000;

/// The largest N drawn as a board.
pub const MAX_BOARD_N: usize = 100;

/// Local search steps per queen when `--max-steps` is not given (min-conflicts
/// needs about 1.2 per queen for large N), plus a constant for small N.
const DEFAULT_STEPS_PER_QUEEN: u64 = 100;
const DEFAULT_STEPS_MIN: u64 = 1_000_000;

#[derive(Parser, Debug)]
#[command(
    name = "queens",
    about = "Place N queens on an N x N board so that no two attack each other.",
    after_help = "Exit status: 0 a solution was found (or counted), 1 none (N = 2, 3: a count of 0 too) or a limit \
                  stopped the search first, 2 bad usage.\n\nExamples:\n  queens                      the eight queens, first \
                  solution as a board\n  queens 12 --count           count the 14,200 solutions\n  queens 8 \
                  --all             every solution, one line each\n  queens 1000000 --local-search --output \
                  line\n  queens --table              nodes and time by ordering and propagation\n  queens \
                  compare 8 --configs bt+input,fc+mrv,mac+domwdeg\n                              compare \
                  configurations (queens compare --help)",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,

    /// The board size N (default 8). Backtracking handles N up to 10,000; local
    /// search up to 10,000,000.
    #[arg(value_name = "N")]
    n: Option<String>,

    /// Count all solutions; the output starts with the number (`92 solutions`), or is
    /// one JSON object with --output json.
    #[arg(long, conflicts_with_all = ["all", "local_search", "table"])]
    count: bool,

    /// Print every solution (line format unless --output says otherwise).
    #[arg(long, conflicts_with_all = ["local_search", "table"])]
    all: bool,

    /// Stop after K solutions (with --count or --all; alone, print the first K).
    #[arg(long, value_name = "K", conflicts_with_all = ["local_search", "table"], value_parser = clap::value_parser!(u64).range(1..))]
    limit: Option<u64>,

    /// Print search statistics on stderr (below a board they always appear, unless -q).
    #[arg(long)]
    stats: bool,

    #[command(flatten)]
    verbosity: Verbosity,

    /// Use min-conflicts local search instead of backtracking (one solution; large N).
    #[arg(long = "local-search", conflicts_with = "table")]
    local_search: bool,

    /// Local search: stop after S steps (default 100 per queen, at least 1,000,000).
    #[arg(long = "max-steps", value_name = "S", requires = "local_search", value_parser = clap::value_parser!(u64).range(1..))]
    max_steps: Option<u64>,

    /// Output format: board (default up to N = 100), line (1-based columns), json;
    /// with --table: markdown (default), csv, json.
    #[arg(long, value_enum, value_name = "FORMAT")]
    output: Option<Format>,

    /// Draw the board with `Q` and `.` instead of `♛` and `·`.
    #[arg(long)]
    ascii: bool,

    /// Print a table of nodes and time to the first solution for each variable
    /// ordering (input, mrv, dom-wdeg) and propagation level (none, fc, mac), in
    /// Markdown (or --output csv, json).
    #[arg(long)]
    table: bool,

    /// The board sizes of --table, comma separated (default 8,20,50,100).
    #[arg(long, value_name = "LIST", value_delimiter = ',', requires = "table")]
    sizes: Vec<String>,

    #[command(flatten)]
    strategy: StrategyArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Compare solver configurations on one board: nodes, checks and time per
    /// configuration, as a table, CSV, JSON or Markdown, and an SVG chart.
    #[command(long_about = compare::COMPARE_ABOUT)]
    Compare(compare::CompareCli),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// A board, one line per row.
    Board,
    /// The 1-based columns of the queens, row by row, on one line.
    Line,
    /// `{"n":8,"columns":[...]}` (one object per line with --all); with --count,
    /// `{"n":8,"solutions":92,"complete":true}`.
    Json,
    /// --table: a Markdown table (the default).
    Markdown,
    /// --table: comma-separated values, one record per ordering, level and size.
    Csv,
}

impl Format {
    /// The format's name on the command line.
    fn name(self) -> &'static str {
        match self {
            Format::Board => "board",
            Format::Line => "line",
            Format::Json => "json",
            Format::Markdown => "markdown",
            Format::Csv => "csv",
        }
    }
}

/// The tool: `queens [N] [options]` or `queens compare [N] ...` (see `--help`),
/// on the streams of `io`; returns the exit status. Run it with
/// [`crate::app::run`] or [`crate::app::main`].
pub fn main(args: Vec<OsString>, io: &mut Io<'_>) -> anyhow::Result<u8> {
    let matches = app::parse_matches(app::standard(Cli::command()), args, io)?;
    let cli = Cli::from_arg_matches(&matches).map_err(|err| Exit(report_usage(&err, io)))?;
    if let Some(Command::Compare(args)) = &cli.command {
        let goal_given = matches.subcommand_matches("compare").is_some_and(compare::goal_given);
        return compare::compare(args, goal_given, io.stdout, io.stderr);
    }
    search(&cli, io.stdout, io.stderr)
}

fn search(cli: &Cli, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<u8> {
    if cli.table {
        return table::table(cli, out);
    }
    let max = if cli.local_search { MAX_LOCAL_SEARCH_N } else { MAX_BACKTRACKING_N };
    let n = match &cli.n {
        Some(text) => parse_n(text, cli.local_search, max)?,
        None => 8,
    };
    let format = match cli.output {
        Some(format @ (Format::Markdown | Format::Csv)) => {
            bail!("--output {} applies to --table; placements are written as board, line or json", format.name())
        }
        Some(Format::Board) if cli.count => bail!("--count prints a line or json, not a board"),
        Some(Format::Board) if n > MAX_BOARD_N => {
            bail!("a board is drawn only up to N = {MAX_BOARD_N} (N = {n}); use --output line or json")
        }
        Some(format) => format,
        None if cli.all || cli.count || n > MAX_BOARD_N => Format::Line,
        None => Format::Board,
    };
    let style = if cli.ascii { Style::Ascii } else { Style::Unicode };
    let queens = Queens::new(n).with_context(|| format!("cannot build the model for N = {n}"))?;
    // Statistics go to stderr: with --stats or -v, and below a board unless -q.
    let show_stats = cli.verbosity.stats(cli.stats || format == Format::Board);
    if cli.local_search {
        return local_search(cli, &queens, format, style, show_stats, out, err);
    }
    let first_only = !cli.count && !cli.all && cli.limit.is_none();
    let config = cli.strategy.config(&default_config(n, first_only));
    let mut solver = Solver::new(queens.model(), config).context("cannot search this board")?;
    if cli.count {
        let count = solver.count(cli.limit);
        print_count(n, count, format, out)?;
        if show_stats {
            out.flush()?;
            writeln!(err, "{}", solver.stats())?;
        }
        return Ok(match count.status {
            Status::Complete if count.solutions == 0 => EXIT_NO_SOLUTION,
            Status::LimitReached(csp::Limit::Solutions) | Status::Complete | Status::Running => EXIT_OK,
            Status::LimitReached(_) => EXIT_NO_SOLUTION,
        });
    }
    if cli.all || cli.limit.is_some() {
        let limit = cli.limit.unwrap_or(u64::MAX);
        let mut printed = 0u64;
        let mut solutions = solver.solutions();
        while printed < limit {
            let Some(solution) = solutions.next() else { break };
            if printed > 0 && format == Format::Board {
                writeln!(out)?;
            }
            print_placement(queens.columns(&solution), format, style, out)?;
            printed += 1;
        }
        let status = solutions.status();
        let stats = solutions.stats().clone();
        out.flush()?;
        if show_stats {
            writeln!(err, "{printed} printed; {stats}")?;
        }
        if let Status::LimitReached(
            limit @ (csp::Limit::Nodes | csp::Limit::Time | csp::Limit::CpuTime | csp::Limit::Stopped),
        ) = status
        {
            if printed == 0 && format == Format::Json {
                no_solution(n, "limit", &stopped(limit), format, out)?;
            }
            if cli.verbosity.notes() {
                writeln!(err, "stopped by the {limit} after {}", solutions_text(printed))?;
            }
            return Ok(EXIT_NO_SOLUTION);
        }
        if printed == 0 {
            no_solution(n, "unsatisfiable", &impossible(n), format, out)?;
            return Ok(EXIT_NO_SOLUTION);
        }
        return Ok(EXIT_OK);
    }
    let outcome = solver.solve();
    let stats = solver.stats().clone();
    let code = match outcome {
        Outcome::Solved(solution) => {
            print_placement(queens.columns(&solution), format, style, out)?;
            EXIT_OK
        }
        Outcome::Unsatisfiable => {
            no_solution(n, "unsatisfiable", &impossible(n), format, out)?;
            EXIT_NO_SOLUTION
        }
        Outcome::LimitReached(limit) => {
            no_solution(n, "limit", &stopped(limit), format, out)?;
            EXIT_NO_SOLUTION
        }
    };
    if show_stats {
        let config = solver.config();
        out.flush()?;
        writeln!(
            err,
            "{} + {} + {} values + {} all-different{}: {stats}",
            config.propagation(),
            config.var_order,
            config.value_order,
            config.all_different,
            if config.learning() { " + learning" } else { "" },
        )?;
    }
    Ok(code)
}

/// `1 solution`, `92 solutions`.
fn solutions_text(count: u64) -> String {
    app::counted(count, "solution", "solutions")
}

/// Prints the result of `--count`: `92 solutions (N = 8)`, or as JSON
/// `{"n":8,"solutions":92,"complete":true}` (a count stopped by a limit is a
/// lower bound: `"complete":false,"stopped_by":"node limit"`).
fn print_count(n: usize, count: Count, format: Format, out: &mut dyn Write) -> anyhow::Result<()> {
    if format == Format::Json {
        let mut object = serde_json::json!({ "n": n, "solutions": count.solutions, "complete": count.is_complete() });
        if let Status::LimitReached(limit) = count.status {
            object["stopped_by"] = limit.to_string().into();
        }
        writeln!(out, "{object}")?;
        return Ok(());
    }
    write!(out, "{}", solutions_text(count.solutions))?;
    match count.status {
        Status::LimitReached(limit) => writeln!(out, " (stopped by the {limit}: at least that many)")?,
        _ => writeln!(out, " (N = {n})")?,
    }
    Ok(())
}

/// Says that there is no placement to print: `no solution: ...` on stdout
/// (board and line formats), or, as the sudoku tool does, one JSON record
/// with a `status` (`unsatisfiable`, or `limit` when a limit stopped the
/// search) and a `message`:
/// `{"n":3,"status":"unsatisfiable","message":"no solution: 3 queens cannot be placed without attacks"}`.
fn no_solution(n: usize, status: &str, message: &str, format: Format, out: &mut dyn Write) -> anyhow::Result<()> {
    if format == Format::Json {
        writeln!(out, "{}", serde_json::json!({ "n": n, "status": status, "message": message }))?;
    } else {
        writeln!(out, "{message}")?;
    }
    Ok(())
}

/// The message of a board without a placement (N = 2 and 3).
fn impossible(n: usize) -> String {
    format!("no solution: {n} queens cannot be placed without attacks")
}

/// The message of a search a limit stopped before it found a placement.
fn stopped(limit: csp::Limit) -> String {
    format!("no solution found: stopped by the {limit}")
}

/// Parses N, naming what is wrong with it.
pub(crate) fn parse_n(text: &str, local_search: bool, max: usize) -> anyhow::Result<usize> {
    let trimmed = text.trim();
    let n: i128 = match trimmed.parse() {
        Ok(n) => n,
        Err(_) if !trimmed.is_empty() && trimmed.trim_start_matches('-').bytes().all(|b| b.is_ascii_digit()) => {
            // All digits, but more than i128 holds.
            i128::MAX
        }
        Err(_) => bail!("N must be a whole number of queens, got '{text}'"),
    };
    if n < 1 {
        bail!("N must be at least 1, got {n}");
    }
    if n > max as i128 {
        if local_search {
            bail!("N = {trimmed} is too large: local search handles N up to {max}");
        }
        bail!(
            "N = {trimmed} is too large: backtracking search handles N up to {max} (--local-search handles up to {MAX_LOCAL_SEARCH_N})"
        );
    }
    Ok(n as usize)
}

fn print_placement(columns: &[i64], format: Format, style: Style, out: &mut dyn Write) -> anyhow::Result<()> {
    // Every placement printed is checked independently of the engine first.
    csp_queens::verify(columns).context("internal error: the search returned an invalid placement")?;
    match format {
        Format::Board => write!(out, "{}", Board::new(columns, style))?,
        Format::Line => writeln!(out, "{}", Line(columns))?,
        Format::Json => writeln!(out, "{}", Json(columns))?,
        Format::Markdown | Format::Csv => unreachable!("refused before the search"),
    }
    Ok(())
}

fn local_search(
    cli: &Cli,
    queens: &Queens,
    format: Format,
    style: Style,
    show_stats: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> anyhow::Result<u8> {
    let s = &cli.strategy;
    let backtracking_only = [
        (s.propagation.is_some(), "--propagation"),
        (s.var_order.is_some(), "--var-order"),
        (s.value_order.is_some(), "--value-order"),
        (s.all_different.is_some(), "--alldiff"),
        (s.root_arc_consistency, "--root-ac"),
        (s.learn, "--learn"),
        (s.node_limit.is_some(), "--node-limit"),
    ];
    if let Some((_, option)) = backtracking_only.iter().find(|(given, _)| *given) {
        bail!("{option} applies to backtracking search, not to --local-search (use --max-steps, --timeout, --seed)");
    }
    let n = queens.n() as u64;
    let max_steps = cli.max_steps.unwrap_or((n.saturating_mul(DEFAULT_STEPS_PER_QUEEN)).max(DEFAULT_STEPS_MIN));
    let config = LocalSearchConfig {
        seed: s.seed.unwrap_or(DEFAULT_SEED),
        max_steps: Some(max_steps),
        time_limit: s.timeout,
        ..LocalSearchConfig::default()
    };
    let began = Instant::now();
    let mut search = LocalSearch::new(queens.model(), config);
    let outcome = search.solve();
    let stats = search.stats().clone();
    let code = match outcome {
        LocalSearchOutcome::Solved(solution) => {
            // The search's tables are no longer needed: free them before checking.
            drop(search);
            print_placement(queens.columns(&solution), format, style, out)?;
            EXIT_OK
        }
        LocalSearchOutcome::StepLimit => {
            let reason = format!("no solution found: stopped by the step limit ({max_steps} steps){}", unsolvable(n));
            no_solution(queens.n(), "limit", &reason, format, out)?;
            EXIT_NO_SOLUTION
        }
        LocalSearchOutcome::TimeLimit => {
            let reason = format!("no solution found: stopped by the time limit{}", unsolvable(n));
            no_solution(queens.n(), "limit", &reason, format, out)?;
            EXIT_NO_SOLUTION
        }
        LocalSearchOutcome::InconsistentCounter(constraint) => {
            bail!("internal error: the violation counter of {} is inconsistent", queens.model().describe(constraint))
        }
    };
    if show_stats {
        out.flush()?;
        let total = began.elapsed().as_secs_f64() * 1e3;
        writeln!(err, "min-conflicts: {stats}; total with model building {total:.3} ms")?;
    }
    Ok(code)
}

/// What the limit does not say for the boards without a solution (N = 2
/// and 3): local search cannot prove there is none, and more steps would
/// not find one.
fn unsolvable(n: u64) -> String {
    if matches!(n, 2 | 3) {
        format!("; {n} queens cannot be placed without attacks (backtracking search proves it), whatever the limit")
    } else {
        String::new()
    }
}
