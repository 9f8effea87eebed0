//! `trace`: the search step by step, as text, as JSON lines, or as an
//! animation that redraws the board in the terminal; with `--animate
//! --human`, a person's steps replayed on the board.
//!
//! The first three are observers of the engine's [`SearchEvent`]s. The
//! animation keeps its own copy of every cell's candidates, replaying the
//! removals and restoring a snapshot per decision level on backtrack, so it
//! shows exactly what the search knows at each step. The time it reports is
//! the search's alone: drawing and the delays between frames are taken out.

use std::fmt::Write as _;
use std::io::Write;
use std::time::{Duration, Instant};

use csp::{Atom, Branching, ConstraintId, Model, Observer, Outcome, Reason, Restarts, SearchEvent, VarId};
use csp_sudoku::check::verify_solution;
use csp_sudoku::format::{self, JsonRows};
use csp_sudoku::grid::{Grid, Shape};
use csp_sudoku::human::HumanError;
use csp_sudoku::model::SudokuModel;
use csp_sudoku::parse::{Notation, Puzzle};
use serde::Serialize;

use super::animate::{self, SearchBoard};
use super::batch::{exit_code, push_json_line};
use super::human::{self, Examined};
use super::input::{BatchOptions, Item, Location, for_each_puzzle};
use super::screen::Screen;
use super::{Configs, Io, TraceArgs, TraceFormat};
use crate::app;

/// Writes events as they come. I/O errors are kept and reported after the
/// search (an observer cannot return them).
struct Tracer<'a> {
    out: &'a mut dyn Write,
    model: &'a Model,
    shape: Shape,
    format: TraceFormat,
    /// Whether each removal is shown with its reason (`--why`): the
    /// propagators' removals then come with their reasons, after them.
    why: bool,
    depth: u32,
    line: String,
    error: Option<std::io::Error>,
    /// Present when animating.
    board: Option<SearchBoard>,
    /// The pause after each frame (none into a file or a pipe).
    delay: Duration,
    /// The time spent drawing and waiting, not searching.
    drawing: Duration,
}

impl Tracer<'_> {
    fn cell(&self, var: VarId) -> String {
        self.shape.cell_name(var.index()).to_string()
    }

    fn by(&self, constraint: Option<ConstraintId>) -> String {
        match constraint {
            Some(c) => self.model.describe(c).into_owned(),
            None => "refuted".to_string(),
        }
    }

    fn text(&mut self, event: &SearchEvent) {
        let line = &mut self.line;
        match *event {
            SearchEvent::Decision { var, value, depth } => {
                self.depth = depth;
                let indent = "  ".repeat(depth as usize - 1);
                let _ =
                    writeln!(line, "{indent}decide {} = {value} (depth {depth})", self.shape.cell_name(var.index()));
            }
            // With --why, a propagator's removals are shown with their reasons.
            SearchEvent::Removed { constraint: Some(_), .. } if self.why => {}
            SearchEvent::Removed { var, value, constraint } => {
                let indent = "  ".repeat(self.depth as usize);
                let cell = self.shape.cell_name(var.index());
                let by = match constraint {
                    Some(c) => self.model.describe(c).into_owned(),
                    None => "refuted".to_string(),
                };
                let _ = writeln!(line, "{indent}{cell} ≠ {value} ({by})");
            }
            SearchEvent::WipeOut { var, constraint } => {
                let indent = "  ".repeat(self.depth as usize);
                let by = self.model.describe(constraint);
                match var {
                    Some(var) => {
                        let _ = writeln!(
                            line,
                            "{indent}wipe-out: {} has no value left ({by})",
                            self.shape.cell_name(var.index())
                        );
                    }
                    None => {
                        let _ = writeln!(line, "{indent}conflict in {by}");
                    }
                }
            }
            SearchEvent::Backtrack { var, depth } => {
                self.depth = depth.saturating_sub(1);
                let indent = "  ".repeat(depth as usize - 1);
                let _ = writeln!(line, "{indent}backtrack {} (depth {depth})", self.shape.cell_name(var.index()));
            }
            SearchEvent::Restart { count } => {
                self.depth = 0;
                let _ = writeln!(line, "restart {count}: back to the root");
            }
            SearchEvent::Solution { count } => {
                let _ = writeln!(line, "solution {count}");
            }
            // Splits, interval narrowing and improvements: a sudoku has none.
            _ => {}
        }
    }

    fn jsonl(&mut self, event: &SearchEvent) {
        let record = match *event {
            SearchEvent::Decision { var, value, depth } => Event::Decision { cell: self.cell(var), value, depth },
            SearchEvent::Removed { constraint: Some(_), .. } if self.why => return,
            SearchEvent::Removed { var, value, constraint } => {
                Event::Removed { cell: self.cell(var), value, by: self.by(constraint), because: None }
            }
            SearchEvent::WipeOut { var, constraint } => {
                Event::Wipeout { cell: var.map(|var| self.cell(var)), by: self.by(Some(constraint)) }
            }
            SearchEvent::Backtrack { var, depth } => Event::Backtrack { cell: self.cell(var), depth },
            SearchEvent::Restart { count } => Event::Restart { count },
            SearchEvent::Solution { count } => Event::Solution { count },
            // Splits, interval narrowing and improvements: a sudoku has none.
            _ => return,
        };
        push_json_line(&mut self.line, &record);
    }
}

impl Tracer<'_> {
    /// `r4c2 ≠ 7 because r4c5 = 7 (row 4)`, one line per value removed.
    fn text_reason(&mut self, reason: &Reason<'_>) {
        let indent = "  ".repeat(self.depth as usize);
        for line in self.reason_lines(reason) {
            let _ = writeln!(self.line, "{indent}{line}");
        }
    }

    /// The reasons of `reason`'s facts, one line each, without indent.
    fn reason_lines(&self, reason: &Reason<'_>) -> Vec<String> {
        let by = self.model.describe(reason.constraint);
        let line = |fact: &Atom| {
            let given = self.given(reason, *fact);
            let because = because_text(self.shape, given.as_ref().map_or(reason.because, std::slice::from_ref));
            format!("{} because {because} ({by})", atom_text(self.shape, *fact))
        };
        reason.facts.iter().map(line).collect()
    }

    fn jsonl_reason(&mut self, reason: &Reason<'_>) {
        let because: Vec<JsonAtom> = reason.because.iter().map(|&atom| JsonAtom::new(self.shape, atom)).collect();
        for fact in reason.facts {
            let given = self.given(reason, *fact).map(|atom| [JsonAtom::new(self.shape, atom)]);
            let record = Event::Removed {
                cell: self.cell(fact.var()),
                value: fact.value(),
                by: self.by(Some(reason.constraint)),
                because: Some(given.as_ref().map_or(because.as_slice(), |given| given.as_slice())),
            };
            push_json_line(&mut self.line, &record);
        }
    }

    /// For a reason that needs nothing removed before (the fact follows from
    /// the constraint and the givens alone), the given of the constraint's
    /// unit that has the removed value, `r4c5 = 7`: it is why, as the givens
    /// are the only values fixed from the start.
    fn given(&self, reason: &Reason<'_>, fact: Atom) -> Option<Atom> {
        let Atom::NotEqual(var, value) = fact else { return None };
        if !reason.because.is_empty() {
            return None;
        }
        let scope = self.model.constraint(reason.constraint)?.scope();
        scope
            .iter()
            .find(|&&other| {
                other != var
                    && self.model.domain(other).is_some_and(|domain| domain.size() == 1 && domain.min() == Some(value))
            })
            .map(|&other| Atom::Equal(other, value))
    }

    /// Writes `self.line` unless an earlier write failed; pauses after a frame.
    fn flush_line(&mut self) {
        if !self.line.is_empty() {
            if let Err(err) = self.out.write_all(self.line.as_bytes()) {
                self.error = Some(err);
            } else if self.board.is_some() {
                let _ = self.out.flush();
                std::thread::sleep(self.delay);
            }
        }
    }
}

/// The most cells a reason names before it says how many more there are.
const REASON_CELLS: usize = 6;

/// `r4c5 = 7`, `r4c5 ≠ 7`.
fn atom_text(shape: Shape, atom: Atom) -> String {
    let cell = shape.cell_name(atom.var().index());
    match atom {
        Atom::Equal(_, v) => format!("{cell} = {v}"),
        Atom::NotEqual(_, v) => format!("{cell} ≠ {v}"),
        Atom::AtLeast(_, v) => format!("{cell} ≥ {v}"),
        Atom::AtMost(_, v) => format!("{cell} ≤ {v}"),
    }
}

/// The atoms of a reason, a cell's together: `r4c5 = 7`, `r1c1 ∉ {2, 3}`;
/// cells with a value first, at most [`REASON_CELLS`] of them and how many
/// more; `the givens` when the reason needs nothing that was removed (and
/// no single given says it).
fn because_text(shape: Shape, because: &[Atom]) -> String {
    let mut cells: Vec<(bool, String)> = Vec::new();
    for group in because.chunk_by(|a, b| a.var() == b.var()) {
        let removed: Vec<String> = group
            .iter()
            .filter(|&atom| matches!(atom, Atom::NotEqual(..)))
            .map(|atom| atom.value().to_string())
            .collect();
        let text = match (group, removed.len()) {
            ([atom], _) => atom_text(shape, *atom),
            (_, n) if n == group.len() => {
                format!("{} ∉ {{{}}}", shape.cell_name(group[0].var().index()), removed.join(", "))
            }
            _ => group.iter().map(|&atom| atom_text(shape, atom)).collect::<Vec<_>>().join(", "),
        };
        cells.push((!matches!(group, [Atom::Equal(..)]), text));
    }
    if cells.is_empty() {
        return "the givens".to_string();
    }
    cells.sort_by_key(|&(removals, _)| removals);
    let more = cells.len().saturating_sub(REASON_CELLS);
    let mut text = cells.iter().take(REASON_CELLS).map(|(_, text)| text.as_str()).collect::<Vec<_>>().join(", ");
    if more > 0 {
        let _ = write!(text, " and {}", app::counted(more as u64, "more cell", "more cells"));
    }
    text
}

/// An atom of a reason in `--format jsonl`: `{"cell":"r4c5","is":"=","value":7}`.
#[derive(Serialize)]
struct JsonAtom {
    cell: String,
    is: &'static str,
    value: i64,
}

impl JsonAtom {
    fn new(shape: Shape, atom: Atom) -> JsonAtom {
        let is = match atom {
            Atom::Equal(..) => "=",
            Atom::NotEqual(..) => "!=",
            Atom::AtLeast(..) => ">=",
            Atom::AtMost(..) => "<=",
        };
        JsonAtom { cell: shape.cell_name(atom.var().index()).to_string(), is, value: atom.value() }
    }
}

impl Observer for Tracer<'_> {
    fn wants_reasons(&self) -> bool {
        self.why
    }

    fn on_reason(&mut self, reason: &Reason<'_>) {
        if self.error.is_some() {
            return;
        }
        self.line.clear();
        if self.board.is_some() {
            // The animation shows the reasons under its next frame.
            for line in self.reason_lines(reason) {
                if let Some(board) = &mut self.board {
                    board.reason(line);
                }
            }
            return;
        }
        match self.format {
            TraceFormat::Text => self.text_reason(reason),
            TraceFormat::Jsonl => self.jsonl_reason(reason),
        }
        self.flush_line();
    }

    fn on_event(&mut self, event: &SearchEvent) {
        if self.error.is_some() {
            return;
        }
        let started = self.board.is_some().then(Instant::now);
        self.line.clear();
        if let Some(board) = &mut self.board {
            if let Some(frame) = board.apply(event, self.shape) {
                self.line = frame;
            }
        } else {
            match self.format {
                TraceFormat::Text => self.text(event),
                TraceFormat::Jsonl => self.jsonl(event),
            }
        }
        self.flush_line();
        if let Some(started) = started {
            self.drawing += started.elapsed();
        }
    }
}

/// One line of `--format jsonl`: `{"event":"decision","cell":"r1c5","value":4,"depth":1}`.
#[derive(Serialize)]
#[serde(tag = "event", rename_all = "lowercase")]
enum Event<'a> {
    /// The trace of a puzzle begins.
    Start {
        file: &'a str,
        line: usize,
        #[serde(rename = "box")]
        shape: String,
        puzzle: JsonRows<'a>,
    },
    Decision {
        cell: String,
        value: i64,
        depth: u32,
    },
    Removed {
        cell: String,
        value: i64,
        by: String,
        /// With `--why`: what the constraint removed the value because of.
        #[serde(skip_serializing_if = "Option::is_none")]
        because: Option<&'a [JsonAtom]>,
    },
    /// A domain wiped out (`cell`), or a constraint failed (`cell` is null).
    Wipeout {
        cell: Option<String>,
        by: String,
    },
    Backtrack {
        cell: String,
        depth: u32,
    },
    Restart {
        count: u64,
    },
    Solution {
        count: u64,
    },
    /// The trace of a puzzle ends: `solved` with the solution, or why not.
    End {
        status: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        solution: Option<JsonRows<'a>>,
        nodes: u64,
        backtracks: u64,
    },
}

pub(super) fn trace(args: &TraceArgs, io: &mut Io<'_>) -> anyhow::Result<u8> {
    let configs = Configs::new(&args.strategy);
    let screen = Screen::detect(io, args.color.unwrap_or_default());
    // Frames into a file or a pipe need no pause: nobody watches them come.
    let delay = match (screen.redraw, args.delay) {
        (false, _) => Duration::ZERO,
        (true, Some(ms)) => Duration::from_millis(ms),
        (true, None) => animate::default_delay(args.human),
    };
    let mut input = args.input.clone();
    if args.human {
        input.notation = Notation::Progress;
    }
    let mut bad = 0u64;
    let mut unsolved = 0u64;
    // Traces are long and printed as the search runs, so the puzzles are
    // read first and traced one by one with stdout at hand.
    let mut puzzles = Vec::new();
    let totals = for_each_puzzle(
        &input,
        BatchOptions { jobs: 1, notes: args.quiet.notes() },
        io,
        |_| (),
        |_, location, item| {
            match item {
                Item::Done(puzzle, ()) => puzzles.push((location.clone(), puzzle.clone())),
                Item::Bad(_) => bad += 1,
            }
            Ok(())
        },
    )?;
    for (location, puzzle) in puzzles {
        if let Some(conflict) = puzzle.grid.first_conflict() {
            writeln!(io.stderr, "error: {location}: conflicting givens: {conflict}")?;
            bad += 1;
            continue;
        }
        let traced = if args.human {
            replay_human(&location, &puzzle, &configs, &screen, delay, io)?
        } else {
            let search = Search {
                config: configs.for_side(puzzle.grid.side()),
                format: args.format.unwrap_or_default(),
                why: args.why,
                animate: args.animate.then_some(screen),
                delay,
            };
            search.trace(&location, &puzzle.grid, io)?
        };
        match traced {
            Traced::Solved => {}
            Traced::Unsolved => unsolved += 1,
            Traced::Bad => bad += 1,
        }
    }
    Ok(exit_code(totals.bad_sources + bad, unsolved))
}

/// How the trace of a puzzle ended.
enum Traced {
    Solved,
    /// No solution, or a limit stopped the search.
    Unsolved,
    /// A board the human solver cannot start from.
    Bad,
}

/// A trace of the engine's search.
struct Search<'a> {
    config: &'a csp::SolveConfig,
    format: TraceFormat,
    why: bool,
    /// The screen to animate on, when animating.
    animate: Option<Screen>,
    delay: Duration,
}

impl Search<'_> {
    fn trace(&self, location: &Location, puzzle: &Grid, io: &mut Io<'_>) -> anyhow::Result<Traced> {
        let config = self.config;
        let model = SudokuModel::new(puzzle)?;
        if let Some(screen) = &self.animate {
            let (rows, cols) = SearchBoard::size(puzzle.shape(), self.why);
            let n = puzzle.side();
            screen.check_fits(rows, cols, &format!("the animation of a {n}x{n} board"))?;
        } else {
            let header = match self.format {
                TraceFormat::Text => format!(
                    "# trace of {location}: {}x{} with {} boxes, {}; {} propagation, {} variable order, {} all-different{}{}{}{}\n",
                    puzzle.side(),
                    puzzle.side(),
                    puzzle.shape(),
                    app::counted(puzzle.num_givens() as u64, "given", "givens"),
                    config.propagation(),
                    config.var_order,
                    config.all_different,
                    if config.all_different_intersections { " with intersections" } else { "" },
                    if config.branching() == Branching::Binary { ", binary branching" } else { "" },
                    if config.learning() { ", learning" } else { "" },
                    match config.restarts {
                        Restarts::Never => String::new(),
                        restarts => format!(", restarts {restarts}"),
                    }
                ),
                TraceFormat::Jsonl => {
                    let mut line = String::new();
                    let start = Event::Start {
                        file: &location.file,
                        line: location.line,
                        shape: puzzle.shape().to_string(),
                        puzzle: JsonRows(puzzle),
                    };
                    push_json_line(&mut line, &start);
                    line
                }
            };
            io.stdout.write_all(header.as_bytes())?;
        }
        let mut tracer = Tracer {
            out: &mut *io.stdout,
            model: model.model(),
            shape: puzzle.shape(),
            format: self.format,
            why: self.why,
            depth: 0,
            line: String::new(),
            error: None,
            board: self.animate.map(|screen| {
                let board = SearchBoard::new(puzzle, screen);
                if self.why { board.with_reasons() } else { board }
            }),
            delay: self.delay,
            drawing: Duration::ZERO,
        };
        let (outcome, mut stats) = {
            let mut solver = model.solver(config.clone())?;
            solver.observe(&mut tracer);
            let outcome = match solver.solve() {
                Outcome::Solved(solution) => Ok(solution.into_values()),
                Outcome::Unsatisfiable => Err("no solution".to_string()),
                Outcome::LimitReached(limit) => Err(format!("{limit} reached")),
            };
            (outcome, solver.stats().clone())
        };
        if let Some(err) = tracer.error.take() {
            return Err(err.into());
        }
        // The search's own time, without the frames and their delays.
        stats.elapsed = stats.elapsed.saturating_sub(tracer.drawing);
        let drawn = if self.animate.is_some() { " (the search alone: drawing and delays left out)" } else { "" };
        let jsonl = self.format == TraceFormat::Jsonl && self.animate.is_none();
        let mut tail = String::new();
        let traced = match outcome {
            Ok(values) => {
                let solution = model.grid(&values);
                if let Err(problem) = verify_solution(puzzle, &solution) {
                    anyhow::bail!(
                        "internal error: the engine's answer at {location} fails the independent check ({problem})"
                    );
                }
                if jsonl {
                    let end = Event::End {
                        status: "solved",
                        solution: Some(JsonRows(&solution)),
                        nodes: stats.nodes,
                        backtracks: stats.backtracks,
                    };
                    push_json_line(&mut tail, &end);
                } else {
                    let _ = writeln!(tail, "\n{}\n# {stats}{drawn}", format::pretty(&solution));
                }
                Traced::Solved
            }
            Err(why) => {
                if jsonl {
                    let end =
                        Event::End { status: &why, solution: None, nodes: stats.nodes, backtracks: stats.backtracks };
                    push_json_line(&mut tail, &end);
                } else {
                    let _ = writeln!(tail, "{why}\n# {stats}{drawn}");
                }
                Traced::Unsolved
            }
        };
        io.stdout.write_all(tail.as_bytes())?;
        Ok(traced)
    }
}

/// Replays a person's steps on the board (`--animate --human`), once the
/// engine has checked the board as `explain` does: no solution, a player's
/// mistakes and several solutions are said in words, and on a puzzle with
/// several solutions the techniques that assume one are left out.
fn replay_human(
    location: &Location,
    puzzle: &Puzzle,
    configs: &Configs,
    screen: &Screen,
    delay: Duration,
    io: &mut Io<'_>,
) -> anyhow::Result<Traced> {
    let (marks, several, engine) = match human::examine(puzzle, configs, None)? {
        Examined::Bad(why) => {
            writeln!(io.stderr, "error: {location}: {why}")?;
            return Ok(Traced::Bad);
        }
        Examined::NoSolution => {
            writeln!(io.stdout, "{location}: no solution")?;
            return Ok(Traced::Unsolved);
        }
        Examined::Mistakes(found) => {
            io.stdout.write_all(human::mistakes_text(location, &found).as_bytes())?;
            return Ok(Traced::Unsolved);
        }
        Examined::Ready { marks, several, solution } => (marks, several, solution),
        Examined::Stopped(why) => {
            writeln!(io.stdout, "{location}: {why}")?;
            return Ok(Traced::Unsolved);
        }
    };
    let solution = match human::solver_for(several).solve_marks(marks) {
        Ok(solution) => solution,
        Err(HumanError::NoSolution) => {
            writeln!(io.stdout, "{location}: no solution")?;
            return Ok(Traced::Unsolved);
        }
        Err(err) => return Err(err.into()),
    };
    human::check_steps(&puzzle.grid, solution.end(), (!several).then_some(&engine))
        .map_err(|problem| human::wrong_steps(location, &problem))?;
    let (rows, cols) = animate::human_size(&solution);
    let n = puzzle.grid.side();
    screen.check_fits(rows, cols, &format!("the replay of a {n}x{n} board"))?;
    let mut title = format!("{location}: {n}x{n} with {} boxes", puzzle.grid.shape());
    if several {
        title.push_str(", several solutions (the steps reach one of them)");
    }
    for frame in animate::human_frames(&solution, &title, several, screen) {
        io.stdout.write_all(frame.as_bytes())?;
        io.stdout.flush()?;
        std::thread::sleep(delay);
    }
    Ok(if solution.is_solved() { Traced::Solved } else { Traced::Unsolved })
}
