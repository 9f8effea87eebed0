//! `explain` (a person's whole solution of every puzzle, then its rating) and
//! `hint` (the next step from a board with its progress or pencil marks),
//! over [`csp_sudoku::human`].
//!
//! Both read what `solve` reads, and a player's progress too: HoDoKu's `+`
//! before each digit placed since the givens, and pencil-mark grids (see
//! [`csp_sudoku::parse::Notation`]). Before any step, the engine checks the
//! board: a puzzle without solution is said so, and a board whose placed
//! digits or removed candidates contradict the puzzle's solution gets its
//! mistakes listed instead of steps reasoned from a wrong board.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use clap::Args;
use csp_sudoku::check::verify_solution;
use csp_sudoku::format::{self, JsonRows};
use csp_sudoku::grid::Grid;
use csp_sudoku::human::{
    self, HumanError, HumanSolver, PencilMarkError, PencilMarks, Rating, Solution, Step, Technique,
};
use csp_sudoku::model::Answer;
use csp_sudoku::parse::{Notation, Puzzle};
use serde::Serialize;

use super::animate::step_painter;
use super::batch::{exit_code, push_json_line};
use super::input::{BatchOptions, Item, JobsArgs, Location, Sink, for_each_puzzle};
use super::screen::Screen;
use super::solvers::with_solver;
use super::{Configs, InputArgs, Io, RecordOutput, TraceFormat};
use crate::app::{ColorChoice, Quiet, counted};
use crate::{StrategyArgs, parse_seconds};

/// The long help of `explain`.
pub(super) const EXPLAIN_ABOUT: &str = "Solve every puzzle as a person would: keep the pencil marks, apply the \
    easiest technique that makes progress (singles, intersections, subsets, fish, wings, chains, ...), and \
    print each step with the cells and digits it names (r3c5 is row 3, column 5), then the solution and the \
    rating: level, score and the hardest technique (the table of techniques and scores is in docs/sudoku.md). \
    When no technique applies, a forcing chain or, last, a guess taken from the engine's solution says so.\n\n\
    Reads what `solve` reads, and a player's progress: a '+' before each digit placed since the givens \
    (1.+42...) and pencil-mark grids (see `hint --help`); the steps then start from there.\n\n\
    On the largest grids the steps can take minutes: --timeout (5 s by default) stops a puzzle's steps \
    and says so.\n\n\
    Exit status: 0 every puzzle explained, 1 some puzzle has no solution (or the progress has a mistake, or \
    --timeout stopped it), 2 bad input or usage.";

/// The long help of `hint`.
pub(super) const HINT_ABOUT: &str = "The next step a person can take on every board: the easiest technique \
    that makes progress, with the cells and digits it names; --board also prints the pencil marks with the \
    step's candidates marked (in colour: removed red, placed green, the pattern cyan).\n\n\
    A board is a puzzle as `solve` reads it, with what the player did since: a '+' before each digit placed \
    since the givens on a line (HoDoKu's notation: 1.+42...), or a pencil-mark grid, one row per line and one \
    word per cell: a digit (a given), '+' and a digit (placed), '.' (empty, every candidate) or the candidates \
    of the cell (1679). HoDoKu's and Sudoku Explainer's pencil-mark grids read as they are. Up to 9x9 every \
    grid is read this way; for larger grids give --marks, and write candidates with the line format's symbols \
    (A = 10 ... Z = 35), so that 12 is the candidates 1 and 2 and a filled 12 is C.\n\n\
    When a placed digit or a removed candidate contradicts the solution, the mistakes are listed instead of a \
    step. --timeout (5 s by default) bounds the search for a step, which can take long on the largest grids.\n\n\
    Exit status: 0 a step (or 'solved') for every board, 1 some board has no solution or a mistake, or \
    --timeout stopped it, 2 bad input or usage.";

#[derive(Args, Debug, Clone)]
#[command(after_help = "Examples:\n  sudoku explain puzzle.txt\n  \
    echo '..6..35......134.......6..1....5..64' | sudoku explain --format jsonl")]
pub(super) struct ExplainArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Read every grid as a pencil-mark grid, whatever its side (see `hint --help`).
    #[arg(long)]
    marks: bool,
    /// Output: text (the numbered steps, the solution, the rating) or jsonl (a start record, one object per step, an end record).
    #[arg(long, visible_alias = "output", value_enum, default_value_t)]
    format: TraceFormat,
    #[command(flatten)]
    time: HumanTime,
    #[command(flatten)]
    jobs: JobsArgs,
    #[command(flatten)]
    quiet: Quiet,
}

/// How long the human solver may take on one puzzle (`explain`, `hint`,
/// `rate`).
#[derive(Args, Debug, Clone, Copy)]
pub(super) struct HumanTime {
    /// Stop a puzzle's steps after this many seconds (fractions allowed): on the largest grids (64x64) one step can take many seconds.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, default_value = "5")]
    timeout: Duration,
}

impl HumanTime {
    /// The human solver for a puzzle ([`solver_for`]) under this limit.
    pub(super) fn solver(self, several: bool) -> HumanSolver {
        solver_for(several).with_time_limit(self.timeout)
    }

    /// The limit itself (`rate`, `explain` and `hint` also bound the engine's
    /// check of the puzzle by it).
    pub(super) fn limit(self) -> Duration {
        self.timeout
    }
}

#[derive(Args, Debug, Clone)]
#[command(after_help = "Examples:\n  echo '1.+42421321.43421' | sudoku hint\n  sudoku hint board.txt --board")]
pub(super) struct HintArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Read every grid as a pencil-mark grid, whatever its side.
    #[arg(long)]
    marks: bool,
    /// Also print the board's pencil marks, the step's candidates marked.
    #[arg(long)]
    board: bool,
    /// Output: text or json (one object per board).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t)]
    output: RecordOutput,
    /// With --board: colours auto (on a terminal without NO_COLOR), always or never.
    #[arg(long, value_enum, value_name = "WHEN", requires = "board")]
    color: Option<ColorChoice>,
    #[command(flatten)]
    time: HumanTime,
    #[command(flatten)]
    jobs: JobsArgs,
    #[command(flatten)]
    quiet: Quiet,
}

/// The input with the progress notations on.
fn progress_input(input: &InputArgs, marks: bool) -> InputArgs {
    let mut input = input.clone();
    input.notation = if marks { Notation::PencilMarks } else { Notation::Progress };
    input
}

/// What the engine says about a board before any step is shown.
pub(super) enum Examined {
    /// The board cannot be built from the input.
    Bad(String),
    /// The puzzle (its givens) has no solution.
    NoSolution,
    /// Placed digits or removed candidates that contradict the solution.
    Mistakes(Vec<String>),
    /// A board to take steps on; `several`: the puzzle has more than one
    /// solution; `solution`: the engine's (the first it found).
    Ready { marks: PencilMarks, several: bool, solution: Grid },
    /// The time limit ran out before the engine had checked the board (why,
    /// in words).
    Stopped(String),
}

/// Checks a board against its puzzle's solutions (one search for the first,
/// one count to two), both within `limit` when there is one (on a 49x49 the
/// engine can take minutes to prove a solution unique).
pub(super) fn examine(puzzle: &Puzzle, configs: &Configs, limit: Option<Duration>) -> anyhow::Result<Examined> {
    if let Some(conflict) = puzzle.grid.first_conflict() {
        return Ok(Examined::Bad(format!("conflicting givens: {conflict}")));
    }
    let shape = puzzle.grid.shape();
    let deadline = limit.map(|limit| Instant::now() + limit);
    let config = || configs.for_side_until(puzzle.grid.side(), deadline);
    let stopped = |what: &str| Examined::Stopped(check_stopped(limit, what));
    let (answer, _) = with_solver(shape, configs.units(shape), &config(), |solver| solver.solve(&puzzle.grid))??;
    let solution = match answer {
        Answer::Solved(solution) => solution,
        Answer::Unsatisfiable => return Ok(Examined::NoSolution),
        Answer::LimitReached(_) => return Ok(stopped("solving the puzzle")),
    };
    let marks = match PencilMarks::from_puzzle(puzzle) {
        Ok(marks) => marks,
        // The givens have a solution (above): a placed digit that clashes,
        // or a cell whose candidates were all removed, is a player's
        // mistake, not bad input.
        Err(PencilMarkError::Conflict { conflict }) => return Ok(Examined::Mistakes(vec![conflict])),
        Err(err @ PencilMarkError::NoCandidate { .. }) => return Ok(Examined::Mistakes(vec![err.to_string()])),
        Err(err) => return Ok(Examined::Bad(err.to_string())),
    };
    let (count, _) =
        with_solver(shape, configs.units(shape), &config(), |solver| solver.count(&puzzle.grid, Some(2)))??;
    if count.solutions < 2 && !count.is_complete() {
        return Ok(stopped("counting the solutions"));
    }
    let several = count.solutions > 1;
    if puzzle.progress.is_some() {
        if several {
            if human::board_solution(&marks)?.is_none() {
                let why = "the board has no solution left: a placed digit or a removed candidate is wrong";
                return Ok(Examined::Mistakes(vec![why.to_string()]));
            }
        } else {
            let found: Vec<String> = human::mistakes(&marks, &solution).iter().map(ToString::to_string).collect();
            if !found.is_empty() {
                return Ok(Examined::Mistakes(found));
            }
        }
    }
    Ok(Examined::Ready { marks, several, solution })
}

/// The independent check of the human solver's steps, before any is shown:
/// a filled `board` must be a solution of the `puzzle`'s givens, and on a
/// puzzle with one solution (`unique`, the engine's) no step may have placed
/// another digit or removed the solution's candidate (a guess included).
/// `Err` says what is wrong: a bug in the solver, not bad input.
pub(super) fn check_steps(puzzle: &Grid, board: &PencilMarks, unique: Option<&Grid>) -> Result<(), String> {
    if board.is_solved() {
        verify_solution(puzzle, &board.grid()).map_err(|err| err.to_string())?;
    }
    match unique.map(|solution| human::mistakes(board, solution)) {
        Some(found) if !found.is_empty() => Err(found.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")),
        _ => Ok(()),
    }
}

/// The error of a board whose steps fail [`check_steps`].
pub(super) fn wrong_steps(location: &Location, problem: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "internal error: the human solver's steps for the puzzle at {location} fail the independent check \
         ({problem}); this is a bug in the solver, please report it with the puzzle"
    )
}

/// The human solver for a puzzle: without the uniqueness techniques when it
/// has several solutions (they assume one: unique rectangles and bug+1 would
/// remove candidates that one of the solutions needs).
pub(super) fn solver_for(several: bool) -> HumanSolver {
    if several {
        let techniques: Vec<Technique> =
            Technique::ALL.iter().copied().filter(|t| t.on_by_default() && !t.assumes_uniqueness()).collect();
        HumanSolver::with_techniques(&techniques)
    } else {
        HumanSolver::new()
    }
}

/// The note under a hint on a puzzle with several solutions.
const SEVERAL_HINT: &str =
    "note: the puzzle has several solutions (a sudoku should have one); the steps lead to one of them";

/// A board's mistakes as text: `file:line: 2 mistakes:` and one indented
/// line each.
pub(super) fn mistakes_text(location: &Location, found: &[String]) -> String {
    let mut text = format!("{location}: {}:\n", counted(found.len() as u64, "mistake", "mistakes"));
    for mistake in found {
        let _ = writeln!(text, "  {mistake}");
    }
    text
}

/// What a line of output says when the time limit stopped the steps.
pub(super) fn stopped(err: &HumanError) -> String {
    format!("stopped: {err} (--timeout gives it more)")
}

/// Why the engine's check of a puzzle (its solve, its count to two) stopped:
/// `what` it was doing when `limit` (`--timeout`; none: a limit of the
/// search's own) ran out.
pub(super) fn check_stopped(limit: Option<Duration>, what: &str) -> String {
    match limit {
        Some(limit) => {
            let limit = limit.as_secs_f64();
            format!("stopped: the time limit of {limit} s ran out {what} (--timeout gives it more)")
        }
        None => format!("stopped: a limit of the search ran out {what}"),
    }
}

/// A board's header: `file:line: 9x9 with 3x3 boxes, 24 givens, 3 placed`.
fn describe(location: &Location, marks: &PencilMarks) -> String {
    let n = marks.side();
    let cells = marks.shape().num_cells();
    let givens = (0..cells).filter(|&cell| marks.is_given(cell)).count();
    let placed = (0..cells).filter(|&cell| marks.value(cell) != 0 && !marks.is_given(cell)).count();
    let mut text =
        format!("{location}: {n}x{n} with {} boxes, {}", marks.shape(), counted(givens as u64, "given", "givens"));
    if placed > 0 {
        let _ = write!(text, ", {placed} placed");
    }
    text
}

// ---- explain ----

/// The explanation of one puzzle, or why there is none.
enum Explained {
    Bad(String),
    NoSolution,
    Mistakes(Vec<String>),
    /// The time limit ran out (the message says after how many steps).
    Stopped(String),
    /// Steps that fail the independent check (what is wrong).
    Wrong(String),
    Done {
        marks: PencilMarks,
        solution: Box<Solution>,
        several: bool,
    },
}

pub(super) fn explain(args: &ExplainArgs, io: &mut Io<'_>) -> anyhow::Result<u8> {
    let configs = Configs::new(&StrategyArgs::default());
    let input = progress_input(&args.input, args.marks);
    let (mut bad, mut unsolved) = (0u64, 0u64);
    let jsonl = args.format == TraceFormat::Jsonl;
    let totals = for_each_puzzle(
        &input,
        BatchOptions { jobs: args.jobs.jobs(), notes: args.quiet.notes() },
        io,
        |puzzle| -> anyhow::Result<Explained> {
            Ok(match examine(puzzle, &configs, Some(args.time.limit()))? {
                Examined::Bad(why) => Explained::Bad(why),
                Examined::Stopped(why) => Explained::Stopped(why),
                Examined::NoSolution => Explained::NoSolution,
                Examined::Mistakes(found) => Explained::Mistakes(found),
                Examined::Ready { marks, several, solution: engine } => {
                    match args.time.solver(several).solve_marks(marks.clone()) {
                        Ok(solution) => {
                            match check_steps(&puzzle.grid, solution.end(), (!several).then_some(&engine)) {
                                Ok(()) => Explained::Done { marks, solution: Box::new(solution), several },
                                Err(problem) => Explained::Wrong(problem),
                            }
                        }
                        Err(HumanError::NoSolution) => Explained::NoSolution,
                        Err(err @ HumanError::TimeLimit { .. }) => Explained::Stopped(stopped(&err)),
                        Err(err) => return Err(err.into()),
                    }
                }
            })
        },
        |sink, location, item| {
            let explained = match item {
                // Already reported on stderr by the driver.
                Item::Bad(err) => {
                    bad += 1;
                    write_failure(sink, jsonl, location, "invalid", &format!("bad input: {}", err.kind));
                    return Ok(());
                }
                Item::Done(_, explained) => explained?,
            };
            match &explained {
                Explained::Bad(why) => {
                    bad += 1;
                    writeln!(sink.stderr, "error: {location}: {why}")?;
                    write_failure(sink, jsonl, location, "invalid", &format!("bad input: {why}"));
                }
                Explained::NoSolution => {
                    unsolved += 1;
                    write_failure(sink, jsonl, location, "unsatisfiable", "no solution");
                }
                Explained::Mistakes(found) => {
                    unsolved += 1;
                    write_failure(sink, jsonl, location, "mistakes", &found.join("; "));
                }
                Explained::Stopped(message) => {
                    unsolved += 1;
                    write_failure(sink, jsonl, location, "limit", message);
                }
                Explained::Wrong(problem) => return Err(wrong_steps(location, problem)),
                Explained::Done { marks, solution, several } => {
                    if jsonl {
                        write_explanation_jsonl(&mut sink.out, location, marks, solution, *several);
                    } else {
                        write_explanation(&mut sink.out, location, marks, solution, *several);
                    }
                    unsolved += u64::from(!solution.is_solved());
                }
            }
            Ok(())
        },
    )?;
    Ok(exit_code(totals.bad_sources + bad, unsolved))
}

/// A puzzle without an explanation: `file:line: message` or a JSON record.
fn write_failure(sink: &mut Sink<'_>, jsonl: bool, location: &Location, status: &str, message: &str) {
    if jsonl {
        let record = Failure {
            event: "end",
            file: &location.file,
            line: location.line,
            column: location.column,
            status,
            message,
        };
        push_json_line(&mut sink.out, &record);
    } else {
        let _ = writeln!(sink.out, "{location}: {message}\n");
    }
}

/// The text of an explanation: the board, the numbered steps, the solution,
/// and the rating last.
fn write_explanation(out: &mut String, location: &Location, marks: &PencilMarks, solution: &Solution, several: bool) {
    let _ = writeln!(out, "{}", describe(location, marks));
    if several {
        out.push_str(
            "note: the puzzle has several solutions; the steps reach one of them, and its rating means little\n",
        );
    }
    let _ = writeln!(out, "{}\n", format::pretty(&marks.grid()));
    let steps = solution.steps();
    let width = steps.len().to_string().len();
    for (index, step) in steps.iter().enumerate() {
        let _ = writeln!(out, "{:>width$}. {step}", index + 1);
    }
    match solution.grid() {
        Some(grid) => {
            let _ = writeln!(out, "\n{}\n", format::pretty(&grid));
        }
        None => {
            let _ = writeln!(out, "\nno technique applies from here:\n{}", solution.end().marks_grid());
        }
    }
    let rating = solution.rating();
    let _ = writeln!(out, "{}", rating_text(&rating));
    let uses: Vec<String> = rating.uses.iter().map(|(technique, count)| format!("{technique} x{count}")).collect();
    let _ = writeln!(out, "{} step{}: {}\n", rating.steps, if rating.steps == 1 { "" } else { "s" }, uses.join(", "));
}

/// `rating: hard (score 1234), hardest technique: x-wing`.
fn rating_text(rating: &Rating) -> String {
    let hardest = rating.hardest.map_or("none".to_string(), |technique| technique.to_string());
    format!("rating: {} (score {}), hardest technique: {hardest}", rating.level, rating.score)
}

/// The first record of an explanation.
#[derive(Serialize)]
struct Start<'a> {
    event: &'static str,
    file: &'a str,
    line: usize,
    #[serde(rename = "box")]
    shape: String,
    givens: usize,
    several_solutions: bool,
    puzzle: JsonRows<'a>,
}

/// A step of an explanation.
#[derive(Serialize)]
struct StepRecord<'a> {
    event: &'static str,
    index: usize,
    #[serde(flatten)]
    step: &'a Step,
}

/// The last record of an explanation.
#[derive(Serialize)]
struct End<'a> {
    event: &'static str,
    status: &'static str,
    level: &'static str,
    score: u64,
    hardest: Option<&'static str>,
    steps: usize,
    uses: Vec<Use>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<JsonRows<'a>>,
}

/// How often a technique was used, in the order the solver tries them.
#[derive(Serialize)]
pub(super) struct Use {
    technique: &'static str,
    count: usize,
}

/// The uses of a rating as records.
pub(super) fn uses(rating: &Rating) -> Vec<Use> {
    rating.uses.iter().map(|&(technique, count)| Use { technique: technique.name(), count }).collect()
}

/// A puzzle without an explanation, or a board without a hint.
#[derive(Serialize)]
struct Failure<'a> {
    event: &'static str,
    file: &'a str,
    line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<usize>,
    status: &'a str,
    message: &'a str,
}

fn write_explanation_jsonl(
    out: &mut String,
    location: &Location,
    marks: &PencilMarks,
    solution: &Solution,
    several: bool,
) {
    let board = marks.grid();
    let start = Start {
        event: "start",
        file: &location.file,
        line: location.line,
        shape: marks.shape().to_string(),
        givens: marks.givens().num_givens(),
        several_solutions: several,
        puzzle: JsonRows(&board),
    };
    push_json_line(out, &start);
    for (index, step) in solution.steps().iter().enumerate() {
        push_json_line(out, &StepRecord { event: "step", index: index + 1, step });
    }
    let rating = solution.rating();
    let grid = solution.grid();
    let end = End {
        event: "end",
        status: if grid.is_some() { "solved" } else { "stuck" },
        level: rating.level.name(),
        score: rating.score,
        hardest: rating.hardest.map(Technique::name),
        steps: rating.steps,
        uses: uses(&rating),
        solution: grid.as_ref().map(JsonRows),
    };
    push_json_line(out, &end);
}

// ---- hint ----

/// The hint for one board, or why there is none.
enum Hinted {
    Bad(String),
    NoSolution,
    Mistakes(Vec<String>),
    /// `several`: the puzzle has more than one solution (said with the step).
    Step {
        marks: PencilMarks,
        step: Step,
        several: bool,
    },
    Solved(PencilMarks),
    /// The time limit ran out before a step was found.
    Stopped(String),
    /// No technique applies (only without the last resorts; kept for safety).
    Stuck(PencilMarks),
    /// A step that fails the independent check (what is wrong).
    Wrong(String),
}

/// One line of `hint --output json`.
#[derive(Serialize)]
struct HintRecord<'a> {
    file: &'a str,
    line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<usize>,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    step: Option<&'a Step>,
    /// Only with a step, and only when true.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    several_solutions: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    mistakes: Option<&'a [String]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'a str>,
}

pub(super) fn hint(args: &HintArgs, io: &mut Io<'_>) -> anyhow::Result<u8> {
    let configs = Configs::new(&StrategyArgs::default());
    let screen = Screen::detect(io, args.color.unwrap_or_default());
    let input = progress_input(&args.input, args.marks);
    let (mut bad, mut unsolved) = (0u64, 0u64);
    let json = args.output == RecordOutput::Json;
    let totals = for_each_puzzle(
        &input,
        BatchOptions { jobs: args.jobs.jobs(), notes: args.quiet.notes() },
        io,
        |puzzle| -> anyhow::Result<Hinted> {
            Ok(match examine(puzzle, &configs, Some(args.time.limit()))? {
                Examined::Bad(why) => Hinted::Bad(why),
                Examined::Stopped(why) => Hinted::Stopped(why),
                Examined::NoSolution => Hinted::NoSolution,
                Examined::Mistakes(found) => Hinted::Mistakes(found),
                Examined::Ready { marks, several, solution } => match args.time.solver(several).next_step(&marks) {
                    Ok(Some(step)) => {
                        let mut after = marks.clone();
                        after.apply(&step);
                        match check_steps(&puzzle.grid, &after, (!several).then_some(&solution)) {
                            Ok(()) => Hinted::Step { marks, step, several },
                            Err(problem) => Hinted::Wrong(problem),
                        }
                    }
                    Ok(None) if marks.is_solved() => Hinted::Solved(marks),
                    Ok(None) => Hinted::Stuck(marks),
                    Err(HumanError::NoSolution) => Hinted::NoSolution,
                    Err(err @ HumanError::TimeLimit { .. }) => Hinted::Stopped(stopped(&err)),
                    Err(err) => return Err(err.into()),
                },
            })
        },
        |sink, location, item| {
            let hinted = match item {
                // Already reported on stderr by the driver.
                Item::Bad(err) => Hinted::Bad(err.kind.to_string()),
                Item::Done(_, hinted) => {
                    let hinted = hinted?;
                    if let Hinted::Bad(why) = &hinted {
                        writeln!(sink.stderr, "error: {location}: {why}")?;
                    }
                    hinted
                }
            };
            let record = |status, step, mistakes, message| HintRecord {
                file: &location.file,
                line: location.line,
                column: location.column,
                status,
                step,
                several_solutions: matches!(hinted, Hinted::Step { several: true, .. }),
                mistakes,
                message,
            };
            let out = &mut sink.out;
            match &hinted {
                Hinted::Wrong(problem) => return Err(wrong_steps(location, problem)),
                Hinted::Bad(why) => {
                    bad += 1;
                    let message = format!("bad input: {why}");
                    if json {
                        push_json_line(out, &record("invalid", None, None, Some(&message)));
                    } else {
                        let _ = writeln!(out, "{location}: {message}");
                    }
                }
                Hinted::NoSolution => {
                    unsolved += 1;
                    if json {
                        push_json_line(out, &record("unsatisfiable", None, None, Some("no solution")));
                    } else {
                        let _ = writeln!(out, "{location}: no solution");
                    }
                }
                Hinted::Stopped(message) => {
                    unsolved += 1;
                    if json {
                        push_json_line(out, &record("limit", None, None, Some(message)));
                    } else {
                        let _ = writeln!(out, "{location}: {message}");
                    }
                }
                Hinted::Mistakes(found) => {
                    unsolved += 1;
                    if json {
                        push_json_line(out, &record("mistakes", None, Some(found), None));
                    } else {
                        out.push_str(&mistakes_text(location, found));
                    }
                }
                Hinted::Step { marks, step, several } => {
                    if json {
                        push_json_line(out, &record("step", Some(step), None, None));
                    } else {
                        let _ = writeln!(out, "{location}: {step}");
                        if *several {
                            let _ = writeln!(out, "  {SEVERAL_HINT}");
                        }
                        if args.board {
                            marks.write_marks_grid(out, &mut step_painter(Some(step), &marks.givens(), &screen));
                            out.push('\n');
                        }
                    }
                }
                Hinted::Solved(marks) | Hinted::Stuck(marks) => {
                    let solved = matches!(hinted, Hinted::Solved(_));
                    unsolved += u64::from(!solved);
                    let status = if solved { "solved" } else { "stuck" };
                    let message = if solved { "solved: every cell is filled" } else { "no technique applies" };
                    if json {
                        push_json_line(out, &record(status, None, None, Some(message)));
                    } else {
                        let _ = writeln!(out, "{location}: {message}");
                        if args.board {
                            marks.write_marks_grid(out, &mut step_painter(None, &marks.givens(), &screen));
                            out.push('\n');
                        }
                    }
                }
            }
            Ok(())
        },
    )?;
    Ok(exit_code(totals.bad_sources + bad, unsolved))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The check the human tools run before showing steps: a wrong filled
    /// board, or a wrong placement or elimination on the way, is caught.
    #[test]
    fn the_steps_check_catches_a_wrong_board() {
        let puzzle = csp_sudoku::parse::one("1...42......3..1").unwrap();
        let solution = csp_sudoku::parse::one("1342421321343421").unwrap();
        let right = PencilMarks::from_marked_line("1+3+4+242+1+3+2+1+3+43+4+21", None).unwrap();
        assert_eq!(check_steps(&puzzle, &right, Some(&solution)), Ok(()));
        assert_eq!(check_steps(&puzzle, &right, None), Ok(()));
        // Another solution of fewer givens: right without the engine's
        // solution to compare with, wrong with it.
        let few = csp_sudoku::parse::one("1...............").unwrap();
        let other = PencilMarks::from_marked_line("1+2+3+4+3+4+1+2+2+1+4+3+4+3+2+1", None).unwrap();
        assert_eq!(check_steps(&few, &other, None), Ok(()));
        let problem = check_steps(&few, &other, Some(&solution)).unwrap_err();
        assert!(problem.contains("r1c2: the 2 placed there is wrong"), "{problem}");
        // Half way: a wrong digit placed, or the solution's candidate removed.
        let placed = PencilMarks::from_marked_line("1.+2.42......3..1", None).unwrap();
        assert_eq!(check_steps(&puzzle, &placed, None), Ok(()), "not filled, and no solution to compare with");
        let problem = check_steps(&puzzle, &placed, Some(&solution)).unwrap_err();
        assert!(problem.contains("r1c3: the 2 placed there is wrong"), "{problem}");
        let removed = PencilMarks::from_givens(&puzzle).unwrap().without(&[(2, 4)]).unwrap();
        let problem = check_steps(&puzzle, &removed, Some(&solution)).unwrap_err();
        assert!(problem.contains("r1c3: the candidate 4 was removed"), "{problem}");
    }

    #[test]
    fn wrong_steps_name_the_puzzle() {
        let location = Location { file: "p.txt".into(), line: 3, column: None };
        let text = wrong_steps(&location, "r1c2: the 2 placed there is wrong").to_string();
        assert!(text.starts_with("internal error: the human solver's steps for the puzzle at p.txt:3"), "{text}");
    }
}
