//! `trace --animate`: the board redrawn as the search runs (every decision,
//! backtrack and restart), or, with `--human`, as a person's steps replay.
//! With `--why`, each frame of the search says under the board why the
//! values removed since the last frame left: the first few reasons, and how
//! many more.
//!
//! On a terminal each frame is drawn over the last from the top-left corner,
//! its lines cleared to their ends, with a delay between frames; a board
//! larger than the terminal is refused up front, saying what it needs. In a
//! file or a pipe (or with `TERM=dumb`) the frames follow each other as plain
//! text without delays, the marked cell in brackets instead of colours.

use std::time::Duration;

use csp::SearchEvent;
use csp_sudoku::grid::{Grid, Shape};
use csp_sudoku::human::{Solution, Step};

use super::screen::{self, BOLD, CYAN, GREEN, RED, Screen};

/// What a frame marks: the cell just decided, or the one just undone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mark {
    Decided,
    Undone,
}

/// The search's picture of the board: every cell's candidates as a bit
/// mask, one snapshot per decision level, and what happened last.
pub(super) struct SearchBoard {
    candidates: Vec<u64>,
    givens: Vec<bool>,
    /// `levels[d]`: the candidates before the decision at depth `d + 1`.
    levels: Vec<Vec<u64>>,
    nodes: u64,
    backtracks: u64,
    first_frame: bool,
    screen: Screen,
    /// With `--why`: the reasons of the removals since the last frame
    /// (`r4c2 ≠ 7 because r4c5 = 7 (row 4)`), shown under the next one.
    reasons: Option<Vec<String>>,
}

/// The most reasons a frame shows (then how many more there were).
const FRAME_REASONS: usize = 3;

impl SearchBoard {
    pub(super) fn new(puzzle: &Grid, screen: Screen) -> SearchBoard {
        let n = puzzle.side();
        let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let candidates = puzzle.cells().iter().map(|&v| if v == 0 { full } else { 1u64 << (v - 1) }).collect();
        let givens = puzzle.cells().iter().map(|&v| v != 0).collect();
        SearchBoard {
            candidates,
            givens,
            levels: Vec::new(),
            nodes: 0,
            backtracks: 0,
            first_frame: true,
            screen,
            reasons: None,
        }
    }

    /// The board of `--why`: its frames show the reasons given to [`SearchBoard::reason`].
    pub(super) fn with_reasons(mut self) -> SearchBoard {
        self.reasons = Some(Vec::new());
        self
    }

    /// Keeps the reason of a removal (one line) for the next frame.
    pub(super) fn reason(&mut self, line: String) {
        if let Some(reasons) = &mut self.reasons {
            reasons.push(line);
        }
    }

    /// The lines and columns a frame of `shape` takes (with `--why`, the
    /// reasons' lines too, each cut to the frame's width).
    pub(super) fn size(shape: Shape, why: bool) -> (usize, usize) {
        let (rows, cols) = Self::board_size(shape);
        (if why { rows + 1 + FRAME_REASONS } else { rows }, cols)
    }

    fn board_size(shape: Shape) -> (usize, usize) {
        let n = shape.side();
        let width = if n < 10 { 1 } else { 2 };
        let stacks = n / shape.box_cols();
        let row = 1 + n * width + (n - stacks) + 3 * (stacks - 1) + 1;
        // The grid, its band separators, a blank line and the status line
        // (`depth 123: try r12c34 = 56    nodes ..., backtracks ...`).
        (n + shape.box_cols() - 1 + 2, row.max(60))
    }

    /// Applies an event; returns a frame to draw for decisions, backtracks,
    /// restarts and solutions (removals only change the picture).
    pub(super) fn apply(&mut self, event: &SearchEvent, shape: Shape) -> Option<String> {
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
                Some(self.frame(shape, Some((var.index(), Mark::Decided)), &status))
            }
            SearchEvent::Backtrack { var, depth } => {
                self.backtracks += 1;
                if let Some(snapshot) = self.levels.get(depth as usize - 1) {
                    self.candidates.clone_from(snapshot);
                }
                self.levels.truncate(depth as usize);
                let status = format!("depth {depth}: undo {}", shape.cell_name(var.index()));
                Some(self.frame(shape, Some((var.index(), Mark::Undone)), &status))
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

    fn frame(&mut self, shape: Shape, mark: Option<(usize, Mark)>, status: &str) -> String {
        let n = shape.side();
        let width = if n < 10 { 1 } else { 2 };
        let mut body = String::new();
        for row in 0..n {
            if row > 0 && row % shape.box_rows() == 0 {
                body.push(' ');
                for stack in 0..n / shape.box_cols() {
                    if stack > 0 {
                        body.push_str("-+-");
                    }
                    let c = shape.box_cols();
                    body.extend(std::iter::repeat_n('-', c * width + c - 1));
                }
                body.push('\n');
            }
            // Every cell has a blank before and after it, where the marked
            // cell gets its brackets when there are no colours.
            let mut line = String::from(" ");
            let mut brackets = None;
            for col in 0..n {
                if col > 0 {
                    line.push_str(if col % shape.box_cols() == 0 { " | " } else { " " });
                }
                let cell = row * n + col;
                let mask = self.candidates[cell];
                let text = if mask.count_ones() == 1 {
                    let value = mask.trailing_zeros() + 1;
                    format!("{value:>width$}")
                } else {
                    format!("{:>width$}", ".")
                };
                let style = match mark {
                    Some((marked, Mark::Decided)) if marked == cell => GREEN,
                    Some((marked, Mark::Undone)) if marked == cell => RED,
                    _ if self.givens[cell] => BOLD,
                    _ if mask.count_ones() == 1 => CYAN,
                    _ => "",
                };
                if mark.is_some_and(|(marked, _)| marked == cell) {
                    brackets = Some((line.len() - 1, line.len() + text.len()));
                }
                let (before, after) = self.screen.paint(style);
                line.push_str(before);
                line.push_str(&text);
                line.push_str(after);
            }
            line.push(' ');
            if let (Some((open, close)), false) = (brackets, self.screen.color) {
                line.replace_range(open..=open, "[");
                line.replace_range(close..=close, "]");
            }
            body.push_str(line.trim_end());
            body.push('\n');
        }
        body.push('\n');
        body.push_str(&format!("{status}    nodes {}, backtracks {}\n", self.nodes, self.backtracks));
        if let Some(reasons) = &mut self.reasons {
            write_reasons(&mut body, reasons, Self::board_size(shape).1);
            reasons.clear();
        }
        self.screen.frame(&body, std::mem::take(&mut self.first_frame))
    }
}

/// The reasons under a frame: a line that says how many values left since
/// the last frame, then the first [`FRAME_REASONS`] reasons (cut to `width`
/// characters) and how many more; always as many lines, so that a frame
/// drawn over a longer one leaves nothing of it.
fn write_reasons(body: &mut String, reasons: &[String], width: usize) {
    body.push_str(&match reasons.len() {
        0 => "why: no value left since the last frame\n".to_string(),
        n => format!("why the {} since the last frame left:\n", crate::app::counted(n as u64, "value", "values")),
    });
    for line in 0..FRAME_REASONS {
        let text = match reasons.get(line) {
            Some(_) if line + 1 == FRAME_REASONS && reasons.len() > FRAME_REASONS => {
                format!("  ... and {} more", reasons.len() - line)
            }
            Some(reason) => format!("  {reason}"),
            None => String::new(),
        };
        let cut: String = text.chars().take(width).collect();
        body.push_str(&cut);
        body.push('\n');
    }
}

/// How to paint the digits of a pencil-mark grid for a step: removed
/// candidates red, placed digits green, the pattern's candidates cyan,
/// givens bold.
pub(super) fn step_painter<'a>(
    step: Option<&'a Step>,
    givens: &'a Grid,
    screen: &'a Screen,
) -> impl FnMut(usize, u8) -> (&'static str, &'static str) + 'a {
    move |cell, digit| {
        let candidate = csp_sudoku::human::Candidate::new(cell, digit);
        let style = match step {
            Some(step) if step.eliminations().contains(&candidate) => RED,
            Some(step) if step.placements().contains(&candidate) => GREEN,
            Some(step)
                if step.pattern_candidates().contains(&candidate)
                    || (step.pattern_cells().contains(&cell) && step.digits_involved().contains(&digit)) =>
            {
                CYAN
            }
            _ if givens.cells().get(cell) == Some(&digit) => BOLD,
            _ => "",
        };
        screen.paint(style)
    }
}

/// The frames of a person's solution: the pencil-mark grid before each step
/// with the step's candidates painted and its text below, then the board it
/// reached with the rating.
/// `several`: the puzzle has more than one solution, so the last frame gives
/// no rating (a rating means little when the steps only reach one of them).
pub(super) fn human_frames(solution: &Solution, title: &str, several: bool, screen: &Screen) -> Vec<String> {
    let steps = solution.steps();
    let givens = solution.start().givens();
    // Lines after the first of a caption are indented by two.
    let text_width = screen.size.map_or(usize::MAX, |(_, cols)| cols.max(40) - 2);
    let mut frames = Vec::with_capacity(steps.len() + 1);
    for (index, board) in solution.boards().enumerate() {
        let step = steps.get(index);
        let mut body = format!("{title}\n");
        board.write_marks_grid(&mut body, &mut step_painter(step, &givens, screen));
        body.push('\n');
        let caption = match step {
            Some(step) => format!("step {} of {}: {step}", index + 1, steps.len()),
            None if solution.is_solved() && several => {
                format!("reached one of the solutions in {} steps (no rating: the puzzle has several)", steps.len())
            }
            None if solution.is_solved() => format!("solved in {} steps: {}", steps.len(), solution.rating()),
            None => format!("no technique applies after {} steps", steps.len()),
        };
        body.push_str(&screen::wrap(&caption, text_width, "  "));
        body.push('\n');
        frames.push(screen.frame(&body, index == 0));
    }
    frames
}

/// The lines and columns of the widest frame of a human replay (the first:
/// candidates only go).
pub(super) fn human_size(solution: &Solution) -> (usize, usize) {
    let grid = solution.start().marks_grid();
    let width = grid.lines().map(|line| line.chars().count()).max().unwrap_or(0);
    // The title, the grid, a blank line and (at least) two lines of caption.
    (grid.lines().count() + 4, width.max(40))
}

/// The default delay between frames: quick for the search, slow enough to
/// read a step for the replay.
pub(super) fn default_delay(human: bool) -> Duration {
    Duration::from_millis(if human { 1500 } else { 60 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_takes_the_lines_its_size_says() {
        let screen = Screen { color: false, redraw: false, size: None };
        for (text, why) in
            [("1...........4..2", false), ("1...........4..2", true), (crate::sudoku::BUILTIN_PUZZLE, true)]
        {
            let puzzle = csp_sudoku::parse::one(text).unwrap();
            let board = SearchBoard::new(&puzzle, screen);
            let mut board = if why { board.with_reasons() } else { board };
            for reasons in [0, 2, 7] {
                for i in 0..reasons {
                    board.reason(format!("reason {i} {}", "x".repeat(100)));
                }
                let frame = board.frame(puzzle.shape(), None, "status");
                let (rows, cols) = SearchBoard::size(puzzle.shape(), why);
                // A frame in a file ends with a blank line between it and the next.
                assert_eq!(frame.lines().count(), rows + 1, "{frame}");
                assert!(frame.lines().all(|line| line.chars().count() <= cols), "{frame}");
            }
        }
    }
}
