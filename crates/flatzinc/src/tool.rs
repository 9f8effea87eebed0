//! `fzn-csp`: the FlatZinc solver that MiniZinc runs.
//!
//! ```text
//! fzn-csp [-a] [-n N] [-s] [-t MS] [--cpu-timeout SECONDS] [-r SEED] [-p N] [--share] [-i] [-v] [-f] [--no-learn] [--vivify]
//!         [--target] [--rephase[=UNIT]] [--stable[=UNIT]] FILE.fzn
//! fzn-csp --print-msc          # the solver configuration, with absolute paths
//! fzn-csp --install-msc [DIR]  # writes it to ~/.minizinc/solvers/csp.msc (or DIR)
//! ```
//!
//! It reads the FlatZinc file, lowers it into a csp model, searches, checks
//! every solution against the model (`Model::is_solution`) before printing
//! it, and prints the FlatZinc output protocol on stdout. With `-p N` (N > 1)
//! it runs a portfolio of N workers (`csp::portfolio`): worker 0 is the
//! search it runs alone, worker 1 the same with learning switched, worker 2
//! learning with `aplaces` ordering (see `csp::portfolio::diversify`); the
//! first answer wins, and under optimisation the workers share the best
//! objective value; with `--share` the learning workers share their short
//! learnt nogoods too, and (unless `--no-learn`) worker 1 learns with
//! `aplaces` (see
//! `csp::portfolio::diversify_sharing`). The exit status is
//! 0 for every answer (solutions, `=====UNSATISFIABLE=====`,
//! `=====UNKNOWN=====`), and 2 with a message on stderr for an error (a file
//! that does not parse, a builtin fzn-csp does not lower yet): MiniZinc then
//! prints `=====ERROR=====` and the message.

use std::ffi::OsString;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use clap::Parser;
use csp::portfolio::{Portfolio, PortfolioRun};
use csp::{Branching, Limits, Outcome, Restarts, Search, SolveConfig, Solver, Stats, Status, ValueOrder, VarOrder};
use csp_app::{self as app, Io};

use crate::lower::Value;
use crate::lower::{Lowered, Objective};
use crate::mznlib;
use crate::output::{SEARCH_COMPLETE, SOLUTION_SEPARATOR, UNKNOWN, UNSATISFIABLE};

/// The command line: MiniZinc's standard solver flags.
#[derive(Debug, Parser)]
#[command(name = "fzn-csp", version, about = "Solves a FlatZinc model with the csp engine (the solver MiniZinc runs).")]
struct Cli {
    /// The FlatZinc file ('-' reads standard input).
    #[arg(required_unless_present_any = ["print_msc", "install_msc"])]
    file: Option<PathBuf>,
    /// All solutions (for optimisation: every improving solution).
    #[arg(short = 'a', long = "all-solutions")]
    all_solutions: bool,
    /// Stop after N solutions (0: all).
    #[arg(short = 'n', long = "num-solutions", value_name = "N")]
    solutions: Option<u64>,
    /// Print statistics (`%%%mzn-stat: name=value` lines).
    #[arg(short = 's', long = "statistics")]
    statistics: bool,
    /// Stop searching after this many milliseconds (counted from the start;
    /// 0 or less: at once. MiniZinc passes a negative limit when compiling
    /// the model took the whole of its own `--time-limit`).
    #[arg(short = 't', long = "time-limit", value_name = "MS")]
    time_limit: Option<i64>,
    /// Stop searching after this many seconds of the search thread's CPU
    /// time (fractions allowed; 0: before the first decision). Unlike -t,
    /// it does not count the time other processes had the core, nor reading
    /// the file: the same limit on a loaded machine.
    #[arg(long = "cpu-timeout", value_name = "SECONDS", value_parser = app::parse_seconds)]
    cpu_timeout: Option<Duration>,
    /// The random seed.
    #[arg(short = 'r', long = "random-seed", value_name = "SEED")]
    seed: Option<i64>,
    /// Threads: a portfolio of N workers, one thread each, the first answer wins (worker 0 is the search fzn-csp
    /// runs alone, worker 1 the same with learning switched, worker 2 learning with exact cover's `aplaces`
    /// ordering; under optimisation they share the best objective value). 0 or 1: one worker, on the main thread.
    /// All solutions (-a, -n N of a satisfaction model) are enumerated by worker 0 alone.
    #[arg(short = 'p', long = "parallel", value_name = "N")]
    threads: Option<u32>,
    /// With -p N: the learning workers share the short nogoods they learn (at most 8 literals, or glue), each
    /// adding the others' at its restarts; unless --no-learn, worker 1 is then learning with `aplaces` (and
    /// worker 2 the search without learning), so that two workers learn.
    #[arg(long = "share")]
    share: bool,
    /// Print intermediate solutions of optimisation (always done).
    #[arg(short = 'i', long = "intermediate")]
    intermediate: bool,
    /// Explain on stderr what fzn-csp does with the model.
    #[arg(short = 'v', long = "verbose")]
    verbose: bool,
    /// Free search: ignore the search annotations and use the engine's default search.
    #[arg(short = 'f', long = "free-search")]
    free_search: bool,
    /// Learn from failures (the default): the engine's lazy clause generation (`mac+learn`), with the annotated or
    /// the default search.
    #[arg(long, conflicts_with = "no_learn")]
    learn: bool,
    /// Search without learning: plain maintained arc consistency, the same orderings.
    #[arg(long)]
    no_learn: bool,
    /// With learning, vivify the learnt nogoods at restarts (`+vivify`): their facts assumed one at a time and
    /// propagated, the nogood shortened where that fails or decides it. Only a search that restarts vivifies: the
    /// free search of an optimisation model (Luby's restarts).
    #[arg(long, conflicts_with = "no_learn")]
    vivify: bool,
    /// With learning, target phases (`+phase+target`, as `compare` spells it): a decision tries the variable's value
    /// in the largest conflict-free state since the last restart first, then its saved phase. Like --rephase and
    /// --stable, it makes the default search choose values by phase saving (`+phase`, the order that reads them) in
    /// place of ascending values (or, in the free search of an optimisation model, the incumbent's). Refused with
    /// --no-learn, as `compare` refuses `mac+phase+target`.
    #[arg(long, conflicts_with = "no_learn")]
    target: bool,
    /// With learning, rephasing (`+rephase=UNIT`): rephase k resets the saved phases (best, original, best, inverted,
    /// best, random) at the first restart after UNIT x k(k+1)/2 conflicts, and is itself a restart. UNIT is a whole
    /// number of conflicts, 1 or more, default 1000 (write `--rephase=UNIT`, or `--rephase UNIT`; through MiniZinc
    /// always `--rephase UNIT`). Values by phase saving, as with --target. Refused with --no-learn.
    #[arg(long, value_name = "UNIT", num_args = 0..=1, value_parser = conflicts_unit, conflicts_with = "no_learn")]
    rephase: Option<Option<u32>>,
    /// With learning, stable and focused modes (`+stable=UNIT`): the search starts focused and switches mode after
    /// UNIT conflicts, each mode twice as long as the one before; the stable mode restarts by Luby's sequence, uses
    /// target phases and decays activities slowly. UNIT as for --rephase, default 1000. Values by phase saving, as
    /// with --target. Refused with --no-learn.
    #[arg(long, value_name = "UNIT", num_args = 0..=1, value_parser = conflicts_unit, conflicts_with = "no_learn")]
    stable: Option<Option<u32>>,
    /// Print the MiniZinc solver configuration (.msc) and write the solver library it names.
    #[arg(long)]
    print_msc: bool,
    /// Write the solver configuration as DIR/csp.msc (default ~/.minizinc/solvers) and the solver library.
    #[arg(long, value_name = "DIR", num_args = 0..=1)]
    install_msc: Option<Option<PathBuf>>,
}

/// The tool: see the module docs. Run it with [`csp_app::main`].
pub fn main(args: Vec<OsString>, io: &mut Io<'_>) -> anyhow::Result<u8> {
    let start = Instant::now();
    let cli: Cli = app::parse(args, io)?;
    if cli.print_msc || cli.install_msc.is_some() {
        return configuration(&cli, io);
    }
    let file = cli.file.clone().unwrap_or_default();
    let source = app::read_text(&file, io)?;
    let name = file.display();
    let fzn = crate::parse(&source).with_context(|| format!("{name}"))?;
    // Through MiniZinc the file is a temporary one: with `--keep-paths` its
    // items say where in the MiniZinc model they come from.
    let lowered = crate::lower(&fzn).map_err(|error| {
        let context = match fzn.mzn_place(error.line()) {
            Some(place) => format!("{name} (flattened from {place})"),
            None => format!("{name}"),
        };
        anyhow::Error::new(error).context(context)
    })?;
    if cli.verbose {
        explain(&cli, &lowered, start, io)?;
    }
    let init_time = start.elapsed();
    let mut run = Run {
        cli: &cli,
        lowered: &lowered,
        init_time,
        found: 0,
        objective: None,
        stats: Stats::default(),
        complete: false,
        winner: None,
    };
    match lowered.objective {
        Objective::Satisfy => run.satisfy(start, io)?,
        Objective::Minimize(_) | Objective::Maximize(_) => run.optimize(start, io)?,
    }
    run.finish(io)?;
    Ok(app::EXIT_OK)
}

/// `--print-msc` and `--install-msc`.
fn configuration(cli: &Cli, io: &mut Io<'_>) -> anyhow::Result<u8> {
    let executable =
        std::env::current_exe().and_then(|p| p.canonicalize()).context("cannot locate the fzn-csp binary")?;
    let mznlib_dir = mznlib::default_mznlib_dir().context("HOME is not set: no place for the solver library")?;
    mznlib::write_mznlib(&mznlib_dir)
        .with_context(|| format!("cannot write the solver library to {}", mznlib_dir.display()))?;
    let text = mznlib::msc(&executable, &mznlib_dir);
    if cli.print_msc {
        io.stdout.write_all(text.as_bytes())?;
    }
    if let Some(dir) = &cli.install_msc {
        let dir = match dir {
            Some(dir) => dir.clone(),
            None => mznlib::default_solvers_dir().context("HOME is not set: give the directory")?,
        };
        std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let path = dir.join("csp.msc");
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
        writeln!(io.stderr, "fzn-csp: wrote {} (solver library in {})", path.display(), mznlib_dir.display())?;
    }
    Ok(app::EXIT_OK)
}

/// The configuration: the engine's default (maintained arc consistency) with
/// dom/wdeg and binary branching, the usual strong default of CP solvers;
/// unless `-f` is given, the search annotations' phases first (the
/// variables they leave are decided by the default search, those no
/// constraint defines first: see [`crate::SearchPlan::engine_phases`]; values
/// ascending). Free search (`-f`, or a model without search annotations)
/// that optimises is guided by the incumbent: the solution-guided value
/// order (after a solution, each variable's value in it first) with Luby
/// restarts, which keep dom/wdeg's weights, so that each descent looks for a
/// better solution near the best so far, as Chuffed's and OR-Tools' free
/// search do. An annotated search keeps ascending values and does not
/// restart: on the Challenge instances measured, the guided order for the
/// variables an annotation leaves made no difference beyond the machine's
/// noise, and restarts would repeat the annotated prefix (BENCHMARKS.md). The
/// search learns nogoods from its failures (`mac+learn`: conflict analysis
/// over the propagators' explanations, backjumping) unless `--no-learn` is
/// given, with the same orderings either way, so that learning on and off
/// differ in learning only. Learning is the default because it scores more
/// on the Challenge instances than search without it, and more than Gecode
/// (BENCHMARKS.md, "Learning on and off again").
fn config(cli: &Cli, lowered: &Lowered, remaining: Option<Duration>) -> SolveConfig {
    let phases = if cli.free_search { Vec::new() } else { lowered.search.engine_phases() };
    let learn = cli.learn || !cli.no_learn;
    let search = if learn { Search::Learning } else { SolveConfig::default().search };
    let mut limits = Limits::none();
    limits.time = remaining;
    limits.cpu_time = cli.cpu_timeout;
    let mut config = SolveConfig::default()
        .with_search(search)
        .with_var_order(VarOrder::DomWdeg)
        .with_branching(Branching::Binary)
        .with_seed(cli.seed.unwrap_or(0) as u64)
        .with_limits(limits)
        .with_phases(phases);
    config.vivify_nogoods = learn && cli.vivify;
    if learn {
        config.target_phases = cli.target;
        config.rephase = cli.rephase.map(|unit| unit.unwrap_or(SolveConfig::REPHASE_UNIT));
        config.stable_modes = cli.stable.map(|unit| unit.unwrap_or(SolveConfig::STABLE_UNIT));
    }
    let phase_saving = config.target_phases || config.rephase.is_some() || config.stable_modes.is_some();
    if guided(cli, lowered) {
        config = config.with_value_order(ValueOrder::SolutionGuided).with_restarts(GUIDED_RESTARTS);
    }
    if phase_saving { config.with_value_order(ValueOrder::Phase) } else { config }
}

/// The unit of `--rephase` and `--stable` (a clap `value_parser`): the
/// spelling's reading of `rephase=UNIT`. Without `=`, the word after the
/// flag is its unit, so a bare flag before the file takes the file.
fn conflicts_unit(text: &str) -> Result<u32, String> {
    SolveConfig::conflicts_unit(text).ok_or_else(|| {
        format!(
            "'{text}' is not a unit: {} (a flag given without its unit takes the word after it: give the unit, or \
             put the file first)",
            SolveConfig::CONFLICTS_UNIT
        )
    })
}

/// The portfolio's workers: `-p N`, at least one.
fn workers(cli: &Cli) -> usize {
    cli.threads.map_or(1, |threads| threads.max(1) as usize)
}

/// The portfolio's workers from `config` (`-p N`, `--share`).
fn portfolio_configs(cli: &Cli, config: &SolveConfig) -> Vec<SolveConfig> {
    if cli.share {
        csp::portfolio::diversify_sharing(config, workers(cli))
    } else {
        csp::portfolio::diversify(config, workers(cli))
    }
}

/// What the portfolio's learning workers share (`--share`), if anything.
fn sharing(cli: &Cli) -> Option<csp::portfolio::Sharing> {
    cli.share.then(csp::portfolio::Sharing::default)
}

/// Whether the search is free (`-f`, or no search annotation) and
/// optimises: then it is guided by the incumbent, with restarts.
fn guided(cli: &Cli, lowered: &Lowered) -> bool {
    let free = cli.free_search || lowered.search.phases.is_empty();
    free && !matches!(lowered.objective, Objective::Satisfy)
}

/// The restarts of the guided free search.
const GUIDED_RESTARTS: Restarts = Restarts::Luby { scale: Restarts::LUBY_SCALE };

/// The default search, as `-v` names it.
const DEFAULT_SEARCH: &str = "mac, dom/wdeg, binary";

fn explain(cli: &Cli, lowered: &Lowered, start: Instant, io: &mut Io<'_>) -> anyhow::Result<()> {
    let model = &lowered.model;
    writeln!(
        io.stderr,
        "fzn-csp: {} FlatZinc variables ({} int, {} bool) lowered to {} engine variables and {} constraints in {:.1} ms",
        lowered.int_variables + lowered.bool_variables,
        lowered.int_variables,
        lowered.bool_variables,
        model.num_vars(),
        model.num_constraints(),
        start.elapsed().as_secs_f64() * 1e3
    )?;
    let search = &lowered.search;
    if search.phases.is_empty() {
        writeln!(io.stderr, "fzn-csp: no search annotation; the engine's default search: {DEFAULT_SEARCH}")?;
    } else if cli.free_search {
        writeln!(
            io.stderr,
            "fzn-csp: free search (-f): the search annotations are ignored; the engine's default search: \
             {DEFAULT_SEARCH}"
        )?;
    } else {
        writeln!(
            io.stderr,
            "fzn-csp: the search annotations' phases first, then the engine's default search ({DEFAULT_SEARCH}):"
        )?;
    }
    for line in search.describe() {
        writeln!(io.stderr, "fzn-csp:   {line}")?;
    }
    if guided(cli, lowered) {
        writeln!(
            io.stderr,
            "fzn-csp: free search that optimises: solution-guided values (the incumbent's value first) and Luby \
             restarts (scale {})",
            Restarts::LUBY_SCALE
        )?;
    }
    if cli.no_learn {
        writeln!(io.stderr, "fzn-csp: --no-learn: the search does not learn from its failures (plain mac)")?;
    } else {
        writeln!(
            io.stderr,
            "fzn-csp: the search learns a nogood from each failure (mac+learn, lazy clause generation; --no-learn: \
             plain mac)"
        )?;
    }
    if cli.target || cli.rephase.is_some() || cli.stable.is_some() {
        writeln!(
            io.stderr,
            "fzn-csp: the default search's values by phase saving, with learning: {}",
            config(cli, lowered, None)
        )?;
    }
    let workers = workers(cli);
    if workers > 1 {
        let base = config(cli, lowered, None);
        let enumerates = matches!(lowered.objective, Objective::Satisfy)
            && (cli.all_solutions || cli.solutions.is_some_and(|n| n != 1));
        if enumerates {
            writeln!(io.stderr, "fzn-csp: -p {workers}: all solutions are enumerated by one worker ({base})")?;
        } else {
            writeln!(io.stderr, "fzn-csp: -p {workers}: a portfolio of {workers} workers, the first answer wins:")?;
            for (worker, config) in portfolio_configs(cli, &base).iter().enumerate() {
                writeln!(io.stderr, "fzn-csp:   worker {worker}: {config}")?;
            }
        }
    }
    if let Some(reason) = &lowered.inconsistent {
        writeln!(io.stderr, "fzn-csp: unsatisfiable before search: {reason}")?;
    }
    Ok(())
}

/// One solve: what was found, for the status line and the statistics.
struct Run<'a> {
    cli: &'a Cli,
    lowered: &'a Lowered,
    init_time: Duration,
    found: u64,
    /// The objective value of the last solution printed, when optimising.
    objective: Option<i64>,
    stats: Stats,
    complete: bool,
    /// The portfolio's worker that answered (under `-p N`, N > 1).
    winner: Option<usize>,
}

impl Run<'_> {
    /// How many solutions to print: `-a` or `-n 0` all, `-n N`, else one.
    fn wanted(&self) -> Option<u64> {
        if self.cli.all_solutions {
            return None;
        }
        match self.cli.solutions {
            Some(0) => None,
            Some(n) => Some(n),
            None => Some(1),
        }
    }

    /// The time left of `-t` (`None`: no limit), or `Err` when it is spent.
    fn remaining(&self, start: Instant) -> Result<Option<Duration>, ()> {
        match self.cli.time_limit {
            Some(ms) => {
                Duration::from_millis(ms.max(0).unsigned_abs()).checked_sub(start.elapsed()).map(Some).ok_or(())
            }
            None => Ok(None),
        }
    }

    /// Checks `values` against the model, then prints them as a solution.
    fn print(&mut self, values: &[i64], io: &mut Io<'_>) -> anyhow::Result<()> {
        let model = &self.lowered.model;
        // A wrong answer outranks every other bug: check before printing.
        if let Some(&violated) = model.violated(values).first() {
            bail!("internal error: the engine's assignment violates {}; it is not printed", model.describe(violated));
        }
        if !model.is_solution(values) {
            bail!("internal error: the engine's assignment leaves a domain; it is not printed");
        }
        let text = self.lowered.output.to_dzn(values);
        writeln!(io.stdout, "{text}{SOLUTION_SEPARATOR}")?;
        io.stdout.flush()?;
        self.found += 1;
        Ok(())
    }

    fn satisfy(&mut self, start: Instant, io: &mut Io<'_>) -> anyhow::Result<()> {
        let lowered = self.lowered;
        if lowered.inconsistent.is_some() {
            self.complete = true;
            return Ok(());
        }
        let Ok(remaining) = self.remaining(start) else {
            return Ok(()); // out of time already: unknown
        };
        let config = config(self.cli, self.lowered, remaining);
        let wanted = self.wanted();
        let workers = workers(self.cli);
        if workers > 1 && wanted == Some(1) {
            let configs = portfolio_configs(self.cli, &config);
            let run = Portfolio::new(&lowered.model, configs)?.with_sharing(sharing(self.cli)).solve()?;
            if let Outcome::Solved(solution) = &run.outcome {
                self.print(solution.values(), io)?;
            }
            self.complete = run.outcome == Outcome::Unsatisfiable;
            self.portfolio_stats(&run);
            return Ok(());
        }
        let mut solver = Solver::new(&lowered.model, config)?;
        for solution in solver.solutions() {
            self.print(solution.values(), io)?;
            if wanted == Some(self.found) {
                break;
            }
        }
        self.stats = solver.stats().clone();
        self.complete = solver.status() == Status::Complete && wanted != Some(self.found);
        Ok(())
    }

    /// Branch and bound: every improving solution is printed as it is found
    /// (MiniZinc shows them with `-a` or `-i` and keeps the last otherwise),
    /// and the search is complete once the last is proved optimal. `-n N`
    /// stops after N improving solutions, without a claim of optimality.
    fn optimize(&mut self, start: Instant, io: &mut Io<'_>) -> anyhow::Result<()> {
        let lowered = self.lowered;
        if lowered.inconsistent.is_some() {
            self.complete = true;
            return Ok(());
        }
        let Ok(remaining) = self.remaining(start) else {
            return Ok(());
        };
        let wanted = match self.cli.solutions {
            Some(0) | None => None,
            Some(n) => Some(n),
        };
        let configs = portfolio_configs(self.cli, &config(self.cli, self.lowered, remaining));
        let portfolio = Portfolio::new(&lowered.model, configs)?.with_sharing(sharing(self.cli));
        // Each improving solution of any worker, better than every one
        // printed before, printed as it comes; an error stops the workers.
        let mut failed = None;
        let run = portfolio.improvements(|_, improvement| {
            if let Err(error) = self.print(improvement.solution.values(), io) {
                failed = Some(error);
                return false;
            }
            // A constant objective leaves the model without one (the engine
            // then reports 0): its value is the constant.
            self.objective = Some(match lowered.objective {
                Objective::Minimize(Value::Const(c)) | Objective::Maximize(Value::Const(c)) => c,
                _ => improvement.objective,
            });
            wanted != Some(self.found)
        })?;
        if let Some(error) = failed {
            return Err(error);
        }
        self.complete = run.winner.is_some() && wanted != Some(self.found);
        self.portfolio_stats(&run);
        Ok(())
    }

    /// The statistics of a portfolio's run: with one worker its own; with
    /// more, the workers' counters summed, the longest solve time, and the
    /// worker that answered.
    fn portfolio_stats<T>(&mut self, run: &PortfolioRun<T>) {
        let mut total = run.summed_stats();
        total.elapsed = run.stats.iter().map(|worker| worker.elapsed).max().unwrap_or_default();
        self.stats = total;
        self.winner = run.winner.filter(|_| run.stats.len() > 1);
    }

    /// The status line, then the statistics.
    fn finish(&self, io: &mut Io<'_>) -> anyhow::Result<()> {
        if let Some(line) = final_line(self.found, self.complete) {
            writeln!(io.stdout, "{line}")?;
        }
        if self.cli.statistics {
            self.write_statistics(io)?;
        }
        Ok(())
    }

    fn write_statistics(&self, io: &mut Io<'_>) -> anyhow::Result<()> {
        let stats = &self.stats;
        let lowered = self.lowered;
        let mut lines: Vec<(&str, String)> = vec![
            ("solutions", self.found.to_string()),
            ("nodes", stats.nodes.to_string()),
            ("failures", stats.failures.to_string()),
            ("backtracks", stats.backtracks.to_string()),
            ("restarts", stats.restarts.to_string()),
            // MiniZinc's standard names: `nogoods` learnt, `backjumps`.
            ("nogoods", stats.learnt.to_string()),
            ("backjumps", stats.backjumps.to_string()),
            ("peakDepth", stats.max_depth.to_string()),
            ("propagations", stats.propagations.to_string()),
            ("variables", (lowered.int_variables + lowered.bool_variables).to_string()),
            ("intVariables", lowered.int_variables.to_string()),
            ("boolVariables", lowered.bool_variables.to_string()),
            ("propagators", lowered.model.num_constraints().to_string()),
            ("initTime", format!("{:.6}", self.init_time.as_secs_f64())),
            ("solveTime", format!("{:.6}", stats.elapsed.as_secs_f64())),
        ];
        let workers = workers(self.cli);
        if workers > 1 {
            lines.push(("workers", workers.to_string()));
            if let Some(winner) = self.winner {
                lines.push(("winner", winner.to_string()));
            }
            if self.cli.share {
                lines.push(("nogoodsExported", stats.nogoods_exported.to_string()));
                lines.push(("nogoodsImported", stats.nogoods_imported.to_string()));
            }
        }
        if let Some(objective) = self.objective {
            lines.push(("objective", objective.to_string()));
            // The bound MiniZinc means is proved: the optimum, once complete.
            if self.complete {
                lines.push(("objectiveBound", objective.to_string()));
            }
        }
        for (name, value) in lines {
            writeln!(io.stdout, "%%%mzn-stat: {name}={value}")?;
        }
        writeln!(io.stdout, "%%%mzn-stat-end")?;
        Ok(())
    }
}

/// The line after the solutions, by the FlatZinc protocol: `==========` when
/// the search was complete and found something (every solution, or an
/// optimum), `=====UNSATISFIABLE=====` when it was complete and found
/// nothing, `=====UNKNOWN=====` when it stopped early without a solution,
/// and nothing when it stopped early after solutions. For optimisation the
/// solutions printed are the improving ones, so the same rule holds.
pub fn final_line(found: u64, complete: bool) -> Option<&'static str> {
    match (complete, found) {
        (true, 0) => Some(UNSATISFIABLE),
        (true, _) => Some(SEARCH_COMPLETE),
        (false, 0) => Some(UNKNOWN),
        (false, _) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_status_line_follows_the_protocol() {
        assert_eq!(final_line(0, true), Some(UNSATISFIABLE));
        assert_eq!(final_line(3, true), Some(SEARCH_COMPLETE), "every solution, or the optimum after improving ones");
        assert_eq!(final_line(0, false), Some(UNKNOWN));
        assert_eq!(final_line(1, false), None, "stopped after solutions: none proved the last, or optimal");
    }

    /// `minizinc --solver csp --vivify` passes `--vivify` on only if the
    /// configuration lists it: every flag of the command line is either one of
    /// MiniZinc's standard flags (by its short name), one of the
    /// configuration's `extraFlags`, or one that only makes sense without
    /// MiniZinc (the configuration itself, help, version).
    #[test]
    fn every_search_flag_is_in_the_solver_configuration() {
        use clap::CommandFactory as _;
        let text = mznlib::msc(std::path::Path::new("/bin/fzn-csp"), std::path::Path::new("/lib/mznlib"));
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        let standard: Vec<&str> = json["stdFlags"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
        let extra: Vec<&str> = json["extraFlags"].as_array().unwrap().iter().map(|f| f[0].as_str().unwrap()).collect();
        let command = Cli::command();
        for argument in command.get_arguments() {
            let Some(long) = argument.get_long() else { continue };
            if ["print-msc", "install-msc", "help", "version"].contains(&long) {
                continue;
            }
            let short = argument.get_short().map(|c| format!("-{c}"));
            let in_standard = short.as_deref().is_some_and(|s| standard.contains(&s));
            let in_extra = extra.contains(&format!("--{long}").as_str());
            assert!(in_standard || in_extra, "--{long} is neither a standard flag nor among the extraFlags: {text}");
        }
    }
}
