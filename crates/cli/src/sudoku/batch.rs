//! `solve` and `count`: batches of puzzles, one result per input puzzle, in
//! input order.

use std::fmt::Write as _;
use std::time::Instant;

use crate::app::counted;
use crate::{EXIT_BAD_INPUT, EXIT_NO_SOLUTION, EXIT_OK};
use anyhow::bail;
use csp::{Limit, Stats, Status};
use csp_sudoku::check::verify_solution;
use csp_sudoku::format::{self, Format, JsonRows, Writer};
use csp_sudoku::grid::{Conflict, Grid};
use csp_sudoku::model::{Answer, SudokuModel, Units};
use csp_sudoku::parse::Puzzle;
use serde::Serialize;

use super::input::{Item, Location, Sink, for_each_puzzle};
use super::screen;
use super::solvers::with_solver;
use super::summary::Summary;
use super::{BUILTIN_PUZZLE, Configs, CountArgs, Io, RecordOutput, SolveArgs};

/// What happened to one puzzle.
enum Verdict {
    Solved(Grid),
    Unsatisfiable,
    Limit(Limit),
    /// Two givens already clash; no search was run.
    Conflict(Conflict),
    /// The solution did not pass the independent check: a bug, never printed.
    Wrong(String),
}

struct Record {
    verdict: Verdict,
    stats: Stats,
    nanos: u64,
    /// Whether the search learnt nogoods (`--learn`): its JSON says how many.
    learns: bool,
}

/// Solves one puzzle: conflicts first, then the engine, then the engine-free
/// verification of the answer.
fn solve_one(puzzle: &Puzzle, configs: &Configs) -> anyhow::Result<Record> {
    let start = Instant::now();
    let (shape, config) = (puzzle.grid.shape(), configs.for_side(puzzle.grid.side()));
    let (answer, stats) = match configs.workers(puzzle.grid.side()) {
        Some(workers) => solve_with_portfolio(&puzzle.grid, configs.units(shape), workers, configs.sharing())?,
        None => with_solver(shape, configs.units(shape), config, |solver| solver.solve(&puzzle.grid))??,
    };
    // Conflicting givens leave no solution, and a verified solution keeps
    // the givens in full units: only a puzzle without an answer needs the
    // conflict check, which names the clashing givens.
    if !matches!(answer, Answer::Solved(_)) {
        if let Some(conflict) = puzzle.grid.first_conflict() {
            return Ok(Record {
                verdict: Verdict::Conflict(conflict),
                stats: Stats::default(),
                nanos: 0,
                learns: config.learning(),
            });
        }
    }
    let verdict = match answer {
        Answer::Solved(solution) => match verify_solution(&puzzle.grid, &solution) {
            Ok(()) => Verdict::Solved(solution),
            Err(err) => Verdict::Wrong(err.to_string()),
        },
        Answer::Unsatisfiable => Verdict::Unsatisfiable,
        Answer::LimitReached(limit) => Verdict::Limit(limit),
    };
    Ok(Record { verdict, stats, nanos: start.elapsed().as_nanos() as u64, learns: config.learning() })
}

/// Solves a puzzle with a portfolio of `workers` (`--portfolio`): the
/// answer of the first worker to answer, and the statistics of every worker
/// summed (the work of the portfolio, not of the winner alone).
fn solve_with_portfolio(
    grid: &Grid,
    units: Units,
    workers: Vec<csp::SolveConfig>,
    sharing: Option<csp::portfolio::Sharing>,
) -> anyhow::Result<(Answer, Stats)> {
    let model = SudokuModel::unlabelled_with(grid, units)?;
    let run = csp::portfolio::Portfolio::new(model.model(), workers)?.with_sharing(sharing).solve()?;
    let answer = match &run.outcome {
        csp::Outcome::Solved(solution) => Answer::Solved(model.grid(solution.values())),
        csp::Outcome::Unsatisfiable => Answer::Unsatisfiable,
        csp::Outcome::LimitReached(limit) => Answer::LimitReached(*limit),
    };
    Ok((answer, run.summed_stats()))
}

/// `solve`; `program` is how the tool was called, for the commands the
/// welcome on a terminal suggests.
pub(super) fn solve(args: &SolveArgs, program: &str, io: &mut Io<'_>) -> anyhow::Result<u8> {
    let configs = Configs::new(&args.strategy)
        .with_bands(&args.bands, &args.strategy)
        .with_portfolio(usize::from(args.portfolio), &args.strategy)
        .with_sharing(args.share);
    if args.input.files.is_empty() && io.stdin_is_terminal {
        return welcome(&configs, program, args.batch.verbosity.notes(), io);
    }
    let started = Instant::now();
    let mut summary = Summary::default();
    let output = args.output;
    let mut writer = Writer::new(output);
    let totals = for_each_puzzle(
        &args.input,
        args.batch.options(),
        io,
        |puzzle| solve_one(puzzle, &configs),
        |sink, location, item| {
            summary.puzzles += 1;
            match item {
                Item::Bad(err) => {
                    summary.invalid += 1;
                    write_failure(sink, output, location, "invalid", &format!("bad input: {err}"));
                }
                Item::Done(puzzle, record) => {
                    let record = record?;
                    emit_solved(sink, &mut writer, location, puzzle, &record, &mut summary)?;
                }
            }
            Ok(())
        },
    )?;
    finish(&summary, started, args.batch.stats().then_some(args.batch.jobs()), totals.bad_sources, io)
}

fn emit_solved(
    sink: &mut Sink<'_>,
    writer: &mut Writer,
    location: &Location,
    puzzle: &Puzzle,
    record: &Record,
    summary: &mut Summary,
) -> anyhow::Result<()> {
    if !matches!(record.verdict, Verdict::Conflict(_)) {
        summary.searched(record.nanos, record.stats.nodes, record.stats.backtracks);
    }
    let output = writer.format();
    match &record.verdict {
        Verdict::Solved(solution) => {
            summary.solved += 1;
            summary.no_guess += u64::from(record.stats.nodes == 0);
            write_solution(sink, writer, location, puzzle, solution, record);
        }
        Verdict::Unsatisfiable => {
            summary.unsatisfiable += 1;
            let message = format!("no solution ({location})");
            write_searched(sink, output, location, "unsatisfiable", &message, record);
        }
        Verdict::Limit(limit) => {
            summary.limit += 1;
            write_searched(sink, output, location, "limit", &format!("{limit} reached ({location})"), record);
        }
        Verdict::Conflict(conflict) => {
            summary.invalid += 1;
            let message = format!("{location}: conflicting givens: {conflict}");
            writeln!(sink.stderr, "error: {message}")?;
            write_failure(sink, output, location, "invalid", &format!("bad input: {message}"));
        }
        Verdict::Wrong(problem) => {
            bail!(
                "internal error: the engine's answer to the puzzle at {location} fails the independent check \
                 ({problem}); this is a bug in the solver, please report it with the puzzle"
            );
        }
    }
    Ok(())
}

fn write_solution(
    sink: &mut Sink<'_>,
    writer: &mut Writer,
    location: &Location,
    puzzle: &Puzzle,
    solution: &Grid,
    record: &Record,
) {
    let out = &mut sink.out;
    let stats = &record.stats;
    match writer.format() {
        Format::Line => writer.write(solution, out),
        Format::Pretty | Format::Grid => {
            let _ = writeln!(
                out,
                "# {location}: solved ({}x{}, {} boxes, {}, {})",
                solution.side(),
                solution.side(),
                solution.shape(),
                counted(puzzle.grid.num_givens() as u64, "given", "givens"),
                counted(stats.nodes, "node", "nodes")
            );
            writer.write(solution, out);
            out.push('\n');
        }
        Format::Json => {
            let record = Solved {
                file: &location.file,
                line: location.line,
                status: "solved",
                shape: solution.shape().to_string(),
                givens: puzzle.grid.num_givens(),
                solution: JsonRows(solution),
                search: Search::of(record),
            };
            push_json_line(out, &record);
        }
    }
}

/// `sudoku` alone on a terminal, where nobody is piping puzzles in: the
/// built-in example beside its solution, and (unless `-q`) how to solve
/// one's own.
fn welcome(configs: &Configs, program: &str, notes: bool, io: &mut Io<'_>) -> anyhow::Result<u8> {
    let puzzle = csp_sudoku::parse::one(BUILTIN_PUZZLE)?;
    let (shape, config) = (puzzle.shape(), configs.for_side(puzzle.side()));
    let (answer, _) = with_solver(shape, configs.units(shape), config, |solver| solver.solve(&puzzle))??;
    let Answer::Solved(solution) = answer else { bail!("internal error: the built-in example has no solution") };
    verify_solution(&puzzle, &solution)
        .map_err(|err| anyhow::anyhow!("internal error: the built-in example's solution fails the check ({err})"))?;
    let (left, right) = (format::pretty(&puzzle), format::pretty(&solution));
    let width = left.lines().map(|line| line.chars().count()).max().unwrap_or(0);
    let mut out =
        format!("{:<width$}    {}\n", format!("A sudoku ({} givens)", puzzle.num_givens()), "and its solution");
    for (a, b) in left.lines().zip(right.lines()) {
        let _ = writeln!(out, "{a:<width$}    {b}");
    }
    io.stdout.write_all(out.as_bytes())?;
    io.stdout.flush()?;
    if !notes {
        return Ok(EXIT_OK);
    }
    let commands = [
        (
            format!("{program} solve FILE..."),
            "puzzles in a file, one per line (81 symbols, '.' or '0' for empty cells), as grids, as JSON or \
             gzipped; any box shape from 4x4 to 64x64",
        ),
        (
            format!("{program} solve -"),
            "type (or paste) puzzles, one per line: each is solved as you press Enter; Ctrl-D ends",
        ),
        (format!("{program} explain FILE"), "solved step by step as a person would, then rated"),
        (format!("{program} --help"), "every command and option"),
    ];
    let width = commands.iter().map(|(command, _)| command.len()).max().unwrap_or(0) + 4;
    let mut help = String::from("\nTo solve your own puzzles:\n");
    for (command, what) in commands {
        let _ = writeln!(
            help,
            "  {command:<width$}{}",
            screen::wrap(what, 76usize.saturating_sub(width), &" ".repeat(width + 2))
        );
    }
    io.stderr.write_all(help.as_bytes())?;
    Ok(EXIT_OK)
}

/// Writes a puzzle without a solution: a `#` line (line, pretty, grid) or a
/// JSON object with `status` and `message`.
/// [`write_failure`] for a puzzle whose search ran and ended without a
/// solution (none exists, or a limit stopped it): its JSON record also
/// says how far the search went.
fn write_searched(
    sink: &mut Sink<'_>,
    output: Format,
    location: &Location,
    status: &str,
    message: &str,
    record: &Record,
) {
    match output {
        Format::Json => {
            let failed = Failed { file: &location.file, line: location.line, status, message };
            push_json_line(&mut sink.out, &Searched { failed, search: Search::of(record) });
        }
        _ => write_failure(sink, output, location, status, message),
    }
}

fn write_failure(sink: &mut Sink<'_>, output: Format, location: &Location, status: &str, message: &str) {
    let out = &mut sink.out;
    match output {
        Format::Line => {
            let _ = writeln!(out, "# {message}");
        }
        Format::Pretty | Format::Grid => {
            let _ = writeln!(out, "# {message}\n");
        }
        Format::Json => {
            push_json_line(out, &Failed { file: &location.file, line: location.line, status, message });
        }
    }
}

/// The JSON record of a solved puzzle (`--output json`).
#[derive(Serialize)]
struct Solved<'a> {
    file: &'a str,
    line: usize,
    status: &'static str,
    #[serde(rename = "box")]
    shape: String,
    givens: usize,
    solution: JsonRows<'a>,
    #[serde(flatten)]
    search: Search,
}

/// What a search cost, in a puzzle's JSON record: of a solved puzzle, and
/// of one the search ended without solving (so a stopped puzzle's record
/// says how far it got).
#[derive(Serialize)]
struct Search {
    nodes: u64,
    backtracks: u64,
    /// The nogoods learnt, when the search learns (`--learn`).
    #[serde(skip_serializing_if = "Option::is_none")]
    learnt: Option<u64>,
    /// The nogoods a portfolio's learning workers shared (`--share`), and
    /// those they imported, when they shared any.
    #[serde(skip_serializing_if = "Option::is_none")]
    nogoods_exported: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nogoods_imported: Option<u64>,
    /// The decisions a long backjump skipped that were made again
    /// (`chrono`), when there were any.
    #[serde(skip_serializing_if = "Option::is_none")]
    replayed: Option<u64>,
    /// The nogood database, when the search learns (see [`Database`]).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    database: Option<Database>,
    /// The time of the search and the verification, in milliseconds.
    time_ms: f64,
}

/// The learnt nogoods' database at the end of a search that learns
/// ([`Stats::reductions`] and the next four).
#[derive(Serialize)]
struct Database {
    /// The reductions of the database.
    reductions: u64,
    /// The learnt nogoods they deleted.
    nogoods_deleted: u64,
    /// The learnt nogoods alive just after the last reduction.
    nogoods_alive: u64,
    /// Of those, the glue ones (distance two or less).
    glue_alive: u64,
    /// The recounts that lowered a distance (`dynlbd`).
    lbd_lowered: u64,
}

impl Database {
    fn of(stats: &Stats) -> Database {
        Database {
            reductions: stats.reductions,
            nogoods_deleted: stats.nogoods_deleted,
            nogoods_alive: stats.nogoods_alive,
            glue_alive: stats.glue_alive,
            lbd_lowered: stats.lbd_lowered,
        }
    }
}

impl Search {
    fn of(record: &Record) -> Search {
        let stats = &record.stats;
        Search {
            nodes: stats.nodes,
            backtracks: stats.backtracks,
            learnt: record.learns.then_some(stats.learnt),
            nogoods_exported: (stats.nogoods_exported > 0 || stats.nogoods_imported > 0)
                .then_some(stats.nogoods_exported),
            nogoods_imported: (stats.nogoods_exported > 0 || stats.nogoods_imported > 0)
                .then_some(stats.nogoods_imported),
            replayed: (stats.replayed > 0).then_some(stats.replayed),
            database: record.learns.then(|| Database::of(stats)),
            time_ms: record.nanos as f64 / 1e6,
        }
    }
}

/// The JSON record of a puzzle without a solution.
#[derive(Serialize)]
struct Failed<'a> {
    file: &'a str,
    line: usize,
    status: &'a str,
    message: &'a str,
}

/// The JSON record of a puzzle searched without a solution: unsatisfiable,
/// or stopped by a limit.
#[derive(Serialize)]
struct Searched<'a> {
    #[serde(flatten)]
    failed: Failed<'a>,
    #[serde(flatten)]
    search: Search,
}

/// Appends `record` as one line of JSON.
pub(super) fn push_json_line(out: &mut String, record: &impl Serialize) {
    // Writing plain data to a string cannot fail.
    out.push_str(&serde_json::to_string(record).unwrap_or_default());
    out.push('\n');
}

/// The end of a batch: the summary on stderr when `--stats` asked for it (with
/// the number of jobs), and the exit status.
fn finish(
    summary: &Summary,
    started: Instant,
    stats: Option<u16>,
    bad_sources: u64,
    io: &mut Io<'_>,
) -> anyhow::Result<u8> {
    if let Some(jobs) = stats {
        let text = summary.render(started.elapsed(), usize::from(jobs));
        io.stderr.write_all(text.as_bytes())?;
    }
    Ok(exit_code(bad_sources + summary.invalid, summary.unsatisfiable + summary.limit))
}

/// 2 for any bad input, else 1 for any puzzle without a (found) solution, else 0.
pub(super) fn exit_code(bad: u64, unsolved: u64) -> u8 {
    if bad > 0 {
        EXIT_BAD_INPUT
    } else if unsolved > 0 {
        EXIT_NO_SOLUTION
    } else {
        EXIT_OK
    }
}

pub(super) fn count(args: &CountArgs, io: &mut Io<'_>) -> anyhow::Result<u8> {
    let configs = Configs::new(&args.strategy).with_bands(&args.bands, &args.strategy);
    let started = Instant::now();
    let mut summary = Summary::default();
    let limit = args.limit;
    let json = args.output == RecordOutput::Json;
    let totals = for_each_puzzle(
        &args.input,
        args.batch.options(),
        io,
        |puzzle| -> anyhow::Result<_> {
            let start = Instant::now();
            if let Some(conflict) = puzzle.grid.first_conflict() {
                return Ok(Err(conflict));
            }
            let (shape, config) = (puzzle.grid.shape(), configs.for_side(puzzle.grid.side()));
            let (count, stats) =
                with_solver(shape, configs.units(shape), config, |solver| solver.count(&puzzle.grid, Some(limit)))??;
            Ok(Ok((count, stats, start.elapsed().as_nanos() as u64)))
        },
        |sink, location, item| {
            summary.puzzles += 1;
            let failure = |sink: &mut Sink<'_>, message: &str| {
                if json {
                    push_json_line(
                        &mut sink.out,
                        &Failed { file: &location.file, line: location.line, status: "invalid", message },
                    );
                } else {
                    let _ = writeln!(sink.out, "# {message}");
                }
            };
            match item {
                Item::Bad(err) => {
                    summary.invalid += 1;
                    failure(sink, &format!("bad input: {err}"));
                }
                Item::Done(puzzle, result) => match result? {
                    Err(conflict) => {
                        summary.invalid += 1;
                        let message = format!("{location}: conflicting givens: {conflict}");
                        writeln!(sink.stderr, "error: {message}")?;
                        failure(sink, &format!("bad input: {message}"));
                    }
                    Ok((count, stats, nanos)) => {
                        let learns = configs.for_side(puzzle.grid.side()).learning();
                        summary.searched(nanos, stats.nodes, stats.backtracks);
                        let word = count_word(count.solutions, count.status, limit);
                        match count.status {
                            Status::Complete if count.solutions == 0 => summary.unsatisfiable += 1,
                            Status::LimitReached(Limit::Nodes | Limit::Time | Limit::CpuTime | Limit::Stopped) => {
                                summary.limit += 1
                            }
                            _ => summary.solved += 1,
                        }
                        summary.no_guess += u64::from(stats.nodes == 0);
                        if json {
                            let record = Counted {
                                file: &location.file,
                                line: location.line,
                                status: "counted",
                                verdict: &word,
                                solutions: count.solutions,
                                complete: count.status == Status::Complete,
                                nodes: stats.nodes,
                                backtracks: stats.backtracks,
                                learnt: learns.then_some(stats.learnt),
                                database: learns.then(|| Database::of(&stats)),
                                time_ms: nanos as f64 / 1e6,
                                shape: puzzle.grid.shape().to_string(),
                                puzzle: JsonRows(&puzzle.grid),
                            };
                            push_json_line(&mut sink.out, &record);
                        } else {
                            let _ = writeln!(sink.out, "{word}\t{location}");
                        }
                    }
                },
            }
            Ok(())
        },
    )?;
    finish(&summary, started, args.batch.stats().then_some(args.batch.jobs()), totals.bad_sources, io)
}

/// The JSON record of a counted puzzle (`count --output json`).
#[derive(Serialize)]
struct Counted<'a> {
    file: &'a str,
    line: usize,
    status: &'static str,
    /// The text output's word: `unique`, `multiple`, `3`, `at least 10`, ...
    verdict: &'a str,
    solutions: u64,
    /// Whether every solution was counted (no limit stopped the count).
    complete: bool,
    nodes: u64,
    backtracks: u64,
    /// The nogoods learnt, when the search learns (`--learn`).
    #[serde(skip_serializing_if = "Option::is_none")]
    learnt: Option<u64>,
    /// The nogood database, when the search learns (see [`Database`]).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    database: Option<Database>,
    time_ms: f64,
    /// The puzzle, so that the records read back (`count --output json | jq
    /// 'select(.verdict == "unique")' | sudoku solve`).
    #[serde(rename = "box")]
    shape: String,
    puzzle: JsonRows<'a>,
}

/// `none`, `unique`, `multiple` for the default limit 2; otherwise the number,
/// `at least K` when the count stopped at the limit, and the search limit that
/// cut a count short.
fn count_word(solutions: u64, status: Status, limit: u64) -> String {
    match status {
        Status::LimitReached(limit @ (Limit::Nodes | Limit::Time | Limit::CpuTime | Limit::Stopped)) => {
            format!("at least {solutions} ({limit} reached)")
        }
        _ if limit == 2 => match solutions {
            0 => "none".to_string(),
            1 => "unique".to_string(),
            _ => "multiple".to_string(),
        },
        Status::LimitReached(_) => format!("at least {solutions}"),
        _ => solutions.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_records_escape_what_json_escapes() {
        let location = Location { file: "a\"b\\c\u{1}.txt".into(), line: 7, column: None };
        let mut sink = Sink { out: String::new(), stderr: &mut Vec::new() };
        write_failure(&mut sink, Format::Json, &location, "invalid", "bad input: \"x\"");
        assert_eq!(
            sink.out,
            "{\"file\":\"a\\\"b\\\\c\\u0001.txt\",\"line\":7,\"status\":\"invalid\",\"message\":\"bad input: \\\"x\\\"\"}\n"
        );
    }

    #[test]
    fn a_stopped_search_says_how_far_it_went() {
        let location = Location { file: "p.txt".into(), line: 3, column: None };
        let mut sink = Sink { out: String::new(), stderr: &mut Vec::new() };
        let stats = Stats { nodes: 12, backtracks: 9, ..Stats::default() };
        let record = Record { verdict: Verdict::Limit(Limit::Nodes), stats, nanos: 1_500_000, learns: false };
        write_searched(&mut sink, Format::Json, &location, "limit", "node limit reached (p.txt:3)", &record);
        assert_eq!(
            sink.out,
            "{\"file\":\"p.txt\",\"line\":3,\"status\":\"limit\",\"message\":\"node limit reached (p.txt:3)\",\
             \"nodes\":12,\"backtracks\":9,\"time_ms\":1.5}\n"
        );
    }

    #[test]
    fn count_words() {
        assert_eq!(count_word(1, Status::Complete, 2), "unique");
        assert_eq!(count_word(2, Status::LimitReached(Limit::Solutions), 2), "multiple");
        assert_eq!(count_word(0, Status::Complete, 2), "none");
        assert_eq!(count_word(3, Status::Complete, 10), "3");
        assert_eq!(count_word(10, Status::LimitReached(Limit::Solutions), 10), "at least 10");
        assert_eq!(count_word(1, Status::LimitReached(Limit::Nodes), 2), "at least 1 (node limit reached)");
    }
}
