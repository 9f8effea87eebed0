//! `trace`: the search step by step, as text, as JSON lines, or as an
//! animation that redraws the board in the terminal.
//!
//! All three are observers of the engine's [`SearchEvent`]s. The animation
//! keeps its own copy of every cell's candidates, replaying the removals and
//! restoring a snapshot per decision level on backtrack, so it shows exactly
//! what the search knows at each step.

use std::fmt::Write as _;
use std::io::Write;
use std::time::Duration;

use crate::{EXIT_BAD_INPUT, EXIT_NO_SOLUTION, EXIT_OK};
use csp::{Branching, ConstraintId, Model, Observer, Outcome, Restarts, SearchEvent, VarId};
use csp_sudoku::check::verify_solution;
use csp_sudoku::format::{self, JsonRows};
use csp_sudoku::grid::{Grid, Shape};
use csp_sudoku::model::SudokuModel;
use serde::Serialize;

use super::batch::push_json_line;
use super::input::{Item, for_each_puzzle};
use super::{Configs, Io, TraceArgs, TraceFormat};

/// Writes events as they come. I/O errors are kept and reported after the
/// search (an observer cannot return them).
struct Tracer<'a> {
    out: &'a mut dyn Write,
    model: &'a Model,
    shape: Shape,
    format: TraceFormat,
    depth: u32,
    line: String,
    error: Option<std::io::Error>,
    /// Present when animating.
    board: Option<Board>,
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
            SearchEvent::Removed { var, value, constraint } => {
                Event::Removed { cell: self.cell(var), value, by: self.by(constraint) }
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

impl Observer for Tracer<'_> {
    fn on_event(&mut self, event: &SearchEvent) {
        if self.error.is_some() {
            return;
        }
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
        if self.line.is_empty() {
            return;
        }
        if let Err(err) = self.out.write_all(self.line.as_bytes()) {
            self.error = Some(err);
            return;
        }
        if let Some(board) = &self.board {
            let _ = self.out.flush();
            if !board.delay.is_zero() {
                std::thread::sleep(board.delay);
            }
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

/// The animation's picture of the search: every cell's candidates as a bit
/// mask, one snapshot per decision level, and what happened last.
struct Board {
    candidates: Vec<u64>,
    givens: Vec<bool>,
    /// `levels[d]`: the candidates before the decision at depth `d + 1`.
    levels: Vec<Vec<u64>>,
    delay: Duration,
    nodes: u64,
    backtracks: u64,
    first_frame: bool,
}

/// ANSI escapes: home, clear to the end of the screen, and colours.
const HOME: &str = "\x1b[H";
const CLEAR_SCREEN: &str = "\x1b[2J";
const CLEAR_BELOW: &str = "\x1b[J";
const DECIDED: &str = "\x1b[1;30;42m";
const UNDONE: &str = "\x1b[1;37;41m";
const GIVEN: &str = "\x1b[1m";
const PROPAGATED: &str = "\x1b[36m";
const RESET: &str = "\x1b[0m";

impl Board {
    fn new(puzzle: &Grid, delay: Duration) -> Board {
        let n = puzzle.side();
        let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let candidates = puzzle.cells().iter().map(|&v| if v == 0 { full } else { 1u64 << (v - 1) }).collect();
        let givens = puzzle.cells().iter().map(|&v| v != 0).collect();
        Board { candidates, givens, levels: Vec::new(), delay, nodes: 0, backtracks: 0, first_frame: true }
    }

    /// Applies an event; returns a frame to draw for decisions, backtracks and
    /// solutions (removals only change the picture).
    fn apply(&mut self, event: &SearchEvent, shape: Shape) -> Option<String> {
        match *event {
            SearchEvent::Removed { var, value, .. } => {
                if let Some(mask) = self.candidates.get_mut(var.index()) {
                    *mask &= !(1u64 << ((value - 1) & 63));
                }
                None
            }
            SearchEvent::Decision { var, value, depth } => {
                self.nodes += 1;
                self.levels.truncate(depth as usize - 1);
                self.levels.push(self.candidates.clone());
                self.candidates[var.index()] = 1u64 << ((value - 1) & 63);
                let status = format!("depth {depth}: try {} = {value}", shape.cell_name(var.index()));
                Some(self.frame(shape, Some((var.index(), DECIDED)), &status))
            }
            SearchEvent::Backtrack { var, depth } => {
                self.backtracks += 1;
                if let Some(snapshot) = self.levels.get(depth as usize - 1) {
                    self.candidates.clone_from(snapshot);
                }
                self.levels.truncate(depth as usize);
                let status = format!("depth {depth}: undo {}", shape.cell_name(var.index()));
                Some(self.frame(shape, Some((var.index(), UNDONE)), &status))
            }
            SearchEvent::Restart { count } => {
                // The board before the first decision is the root's.
                if let Some(root) = self.levels.first() {
                    self.candidates.clone_from(root);
                }
                self.levels.clear();
                Some(self.frame(shape, None, &format!("restart {count}: back to the root")))
            }
            SearchEvent::Solution { count } => Some(self.frame(shape, None, &format!("solution {count}"))),
            SearchEvent::WipeOut { .. } => None,
            // Splits, interval narrowing and improvements: a sudoku has none.
            _ => None,
        }
    }

    fn frame(&mut self, shape: Shape, mark: Option<(usize, &str)>, status: &str) -> String {
        let n = shape.side();
        let width = if n < 10 { 1 } else { 2 };
        let mut out = String::new();
        if std::mem::take(&mut self.first_frame) {
            out.push_str(CLEAR_SCREEN);
        }
        out.push_str(HOME);
        for row in 0..n {
            if row > 0 && row % shape.box_rows() == 0 {
                for stack in 0..n / shape.box_cols() {
                    if stack > 0 {
                        out.push_str("-+-");
                    }
                    let c = shape.box_cols();
                    out.extend(std::iter::repeat_n('-', c * width + c - 1));
                }
                out.push('\n');
            }
            for col in 0..n {
                if col > 0 {
                    out.push_str(if col % shape.box_cols() == 0 { " | " } else { " " });
                }
                let cell = row * n + col;
                let mask = self.candidates[cell];
                let text = if mask.count_ones() == 1 {
                    let value = mask.trailing_zeros() as u8 + 1;
                    if width == 2 { format!("{value:>2}") } else { value.to_string() }
                } else {
                    " ".repeat(width - 1) + "."
                };
                let style = match mark {
                    Some((marked, style)) if marked == cell => style,
                    _ if self.givens[cell] => GIVEN,
                    _ if mask.count_ones() == 1 => PROPAGATED,
                    _ => "",
                };
                if style.is_empty() {
                    out.push_str(&text);
                } else {
                    let _ = write!(out, "{style}{text}{RESET}");
                }
            }
            out.push('\n');
        }
        let _ = writeln!(out, "\n{status}    nodes {}, backtracks {}", self.nodes, self.backtracks);
        out.push_str(CLEAR_BELOW);
        out
    }
}

pub(super) fn trace(args: &TraceArgs, io: &mut Io<'_>) -> anyhow::Result<u8> {
    let configs = Configs::new(&args.strategy);
    let mut bad = 0u64;
    let mut unsolved = 0u64;
    // Traces are long and printed as the search runs, so each puzzle is
    // traced here, in the emit step, with stdout at hand.
    let mut puzzles = Vec::new();
    let totals = for_each_puzzle(
        &args.input,
        1,
        io,
        |_| (),
        |_, location, item| {
            match item {
                Item::Done(puzzle, ()) => puzzles.push((location.clone(), puzzle.grid.clone())),
                Item::Bad(_) => bad += 1,
            }
            Ok(())
        },
    )?;
    for (location, puzzle) in puzzles {
        if let Some(conflict) = puzzle.first_conflict() {
            writeln!(io.stderr, "error: {location}: conflicting givens: {conflict}")?;
            bad += 1;
            continue;
        }
        let model = SudokuModel::new(&puzzle)?;
        let config = configs.for_side(puzzle.side());
        if !args.animate {
            let header = match args.format {
                TraceFormat::Text => format!(
                    "# trace of {location}: {}x{} with {} boxes, {} givens; {} propagation, {} variable order, {} all-different{}{}{}\n",
                    puzzle.side(),
                    puzzle.side(),
                    puzzle.shape(),
                    puzzle.num_givens(),
                    config.propagation(),
                    config.var_order,
                    config.all_different,
                    if config.all_different_intersections { " with intersections" } else { "" },
                    if config.branching() == Branching::Binary { ", binary branching" } else { "" },
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
                        puzzle: JsonRows(&puzzle),
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
            format: args.format,
            depth: 0,
            line: String::new(),
            error: None,
            board: args.animate.then(|| Board::new(&puzzle, Duration::from_millis(args.delay))),
        };
        let (outcome, stats) = {
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
        let mut tail = String::new();
        match outcome {
            Ok(values) => {
                let solution = model.grid(&values);
                if let Err(problem) = verify_solution(&puzzle, &solution) {
                    anyhow::bail!(
                        "internal error: the engine's answer at {location} fails the independent check ({problem})"
                    );
                }
                match args.format {
                    TraceFormat::Jsonl if !args.animate => {
                        let end = Event::End {
                            status: "solved",
                            solution: Some(JsonRows(&solution)),
                            nodes: stats.nodes,
                            backtracks: stats.backtracks,
                        };
                        push_json_line(&mut tail, &end);
                    }
                    _ => {
                        let _ = writeln!(tail, "\n{}\n# {stats}", format::pretty(&solution));
                    }
                }
            }
            Err(why) => {
                unsolved += 1;
                match args.format {
                    TraceFormat::Jsonl if !args.animate => {
                        let end = Event::End {
                            status: &why,
                            solution: None,
                            nodes: stats.nodes,
                            backtracks: stats.backtracks,
                        };
                        push_json_line(&mut tail, &end);
                    }
                    _ => {
                        let _ = writeln!(tail, "{why}\n# {stats}");
                    }
                }
            }
        }
        io.stdout.write_all(tail.as_bytes())?;
    }
    Ok(if totals.bad_sources + bad > 0 {
        EXIT_BAD_INPUT
    } else if unsolved > 0 {
        EXIT_NO_SOLUTION
    } else {
        EXIT_OK
    })
}
