//! Kakuro: fill the white cells with digits 1 to 9 so that each run of white cells
//! adds up to the clue before it, with no digit twice in a run.
//!
//! The text format has one word per cell, separated by spaces (see `docs/formats.md`):
//! `.` is a white cell, `X` (or `\`) a black cell, and a black cell with clues is
//! written `DOWN\ACROSS`, either part may be empty: `16\` is a down clue of 16 for
//! the run below, `\24` an across clue of 24 for the run to the right, `17\24` both.
//!
//! The model: a variable per white cell over `1..=9`, and per run an `all_different`
//! and a `linear` sum.
//!
//! ```text
//! cargo run --release --example kakuro -- [FILE] [--count] [--stats] [strategy options]
//! cargo run --release --example kakuro -- [FILE] --compare [--configs LIST] [comparison options]
//! ```
//!
//! The options, `--compare`, reading the file (`-` is standard input) and the
//! exit codes come from [`csp_cli::gallery`]; the parser's errors name the
//! file, the line and the column ([`csp_cli::gallery::ParseError`]).

use std::io::Write;

use csp::{Model, ModelError, Relation, Solution, VarId};

use csp_cli::Io;
use csp_cli::gallery::text::{self, Problem, Source};
use csp_cli::gallery::{self, FileArgs, NoOptions, ParseError, Puzzle};

fn main() -> std::process::ExitCode {
    gallery::main::<Kakuro>()
}

/// The built-in puzzle, solved when no file is given.
const BUILT_IN: &str = include_str!("data/kakuro.txt");

/// One cell of the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    /// A cell to fill with a digit.
    White,
    /// A black cell, with the sums of the runs below it and to its right, if any.
    Black {
        /// The sum of the run below.
        down: Option<i64>,
        /// The sum of the run to the right.
        across: Option<i64>,
    },
}

/// A run: white cells in a line that add up to a clue.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Run {
    /// The clue.
    sum: i64,
    /// The cells, as `row * columns + column`.
    cells: Vec<usize>,
}

/// A kakuro puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Kakuro {
    /// The number of rows.
    rows: usize,
    /// The number of columns.
    columns: usize,
    /// The cells, row-major.
    cells: Vec<Cell>,
    /// The runs, across ones first, in reading order of their clues.
    runs: Vec<Run>,
}

impl Kakuro {
    /// Parses the text format; `file` names the input in errors.
    fn parse(input: &str, file: &str) -> Result<Kakuro, ParseError> {
        let source = Source::new(file);
        let mut cells = Vec::new();
        let mut places = Vec::new(); // (line, column) of each cell
        let mut columns = 0;
        let mut rows = 0;
        let mut last_line = 0;
        for (index, line) in input.lines().enumerate() {
            let number = index + 1;
            last_line = number;
            if line.trim().is_empty() || line.trim_start().starts_with('#') {
                continue;
            }
            let words = text::tokens(line);
            if rows == 0 {
                columns = words.len();
            } else if words.len() != columns {
                let column = words.get(columns).map_or_else(|| text::end_column(line), |w| w.column);
                return Err(source.error(
                    number,
                    column,
                    Problem::invalid(format!("this row has {} cells, the first has {columns}", words.len())),
                ));
            }
            for word in &words {
                cells.push(parse_cell(word.text).map_err(|p| source.error(number, word.column, p))?);
                places.push((number, word.column));
            }
            rows += 1;
        }
        if rows == 0 {
            return Err(source.error(last_line + 1, 1, Problem::Missing { what: "the grid".into() }));
        }
        let white = |r: usize, c: usize| cells[r * columns + c] == Cell::White;
        let mut runs = Vec::new();
        // Across runs, then down runs: each clue must have white cells after it.
        for across in [true, false] {
            for r in 0..rows {
                for c in 0..columns {
                    let Cell::Black { down, across: right } = cells[r * columns + c] else { continue };
                    let Some(sum) = (if across { right } else { down }) else { continue };
                    let mut run = Vec::new();
                    let (mut r2, mut c2) = if across { (r, c + 1) } else { (r + 1, c) };
                    while r2 < rows && c2 < columns && white(r2, c2) {
                        run.push(r2 * columns + c2);
                        if across { c2 += 1 } else { r2 += 1 }
                    }
                    let (line, column) = places[r * columns + c];
                    let direction = if across { "across sum" } else { "down sum" };
                    let side = if across { "to its right" } else { "below it" };
                    if run.is_empty() {
                        return Err(source.error(
                            line,
                            column,
                            Problem::invalid(format!("the {direction} {sum} has no white cell {side}")),
                        ));
                    }
                    if run.len() > 9 {
                        return Err(source.error(
                            line,
                            column,
                            Problem::invalid(format!(
                                "the {direction} {sum} has {} white cells {side}, more than the 9 digits",
                                run.len()
                            )),
                        ));
                    }
                    runs.push(Run { sum, cells: run });
                }
            }
        }
        // Every run of two or more white cells needs its clue.
        for r in 0..rows {
            for c in 0..columns {
                if !white(r, c) {
                    continue;
                }
                let starts_across = c == 0 || !white(r, c - 1);
                let starts_down = r == 0 || !white(r - 1, c);
                let (line, column) = places[r * columns + c];
                let clue = |cell: Option<usize>, across: bool| {
                    cell.and_then(|i| match cells[i] {
                        Cell::Black { down, across: right } => {
                            if across {
                                right
                            } else {
                                down
                            }
                        }
                        Cell::White => None,
                    })
                };
                if starts_across
                    && c + 1 < columns
                    && white(r, c + 1)
                    && clue(c.checked_sub(1).map(|c| r * columns + c), true).is_none()
                {
                    return Err(source.error(
                        line,
                        column,
                        Problem::invalid("this run of white cells has no across sum on its left"),
                    ));
                }
                if starts_down
                    && r + 1 < rows
                    && white(r + 1, c)
                    && clue(r.checked_sub(1).map(|r| r * columns + c), false).is_none()
                {
                    return Err(source.error(
                        line,
                        column,
                        Problem::invalid("this run of white cells has no down sum above it"),
                    ));
                }
            }
        }
        Ok(Kakuro { rows, columns, cells, runs })
    }

    /// The model, and the variable of each cell: a variable per white cell (named `r1c2` and so on, in reading
    /// order) over `1..=9`, and per run an `all_different` and a sum.
    fn build(&self) -> Result<(Model, Vec<Option<VarId>>), ModelError> {
        let mut model = Model::new();
        let mut vars = Vec::with_capacity(self.cells.len());
        for (i, cell) in self.cells.iter().enumerate() {
            vars.push(match cell {
                Cell::White => {
                    Some(model.new_named_var(format!("r{}c{}", i / self.columns + 1, i % self.columns + 1), 1..=9)?)
                }
                Cell::Black { .. } => None,
            });
        }
        for run in &self.runs {
            let run_vars: Vec<VarId> = run.cells.iter().map(|&i| vars[i].expect("a white cell")).collect();
            if run_vars.len() > 1 {
                model.all_different(&run_vars)?;
            }
            model.linear(&run_vars.iter().map(|&v| (1, v)).collect::<Vec<_>>(), Relation::Eq, run.sum)?;
        }
        Ok((model, vars))
    }

    /// Checks the digits of the white cells (row-major, `None` on black cells) by the
    /// rules, without the solver.
    fn verify(&self, digits: &[Option<i64>]) -> Result<(), String> {
        for (i, cell) in self.cells.iter().enumerate() {
            let ok = match cell {
                Cell::White => digits[i].is_some_and(|d| (1..=9).contains(&d)),
                Cell::Black { .. } => digits[i].is_none(),
            };
            if !ok {
                return Err(format!("cell {} is not filled as it should be", i + 1));
            }
        }
        for run in &self.runs {
            let values: Vec<i64> = run.cells.iter().filter_map(|&i| digits[i]).collect();
            let mut distinct = values.clone();
            distinct.sort_unstable();
            distinct.dedup();
            if values.iter().sum::<i64>() != run.sum || distinct.len() != values.len() {
                return Err(format!("the run with sum {} is broken", run.sum));
            }
        }
        Ok(())
    }

    /// Draws a solved grid in the input format, digits in the white cells.
    fn draw(&self, digits: &[Option<i64>]) -> String {
        let words: Vec<String> = self
            .cells
            .iter()
            .zip(digits)
            .map(|(cell, digit)| match (cell, digit) {
                (Cell::White, Some(d)) => d.to_string(),
                (Cell::White, None) => ".".to_string(),
                (Cell::Black { down: None, across: None }, _) => "X".to_string(),
                (Cell::Black { down, across }, _) => format!(
                    "{}\\{}",
                    down.map_or(String::new(), |d| d.to_string()),
                    across.map_or(String::new(), |a| a.to_string())
                ),
            })
            .collect();
        let width = words.iter().map(|w| w.len()).max().unwrap_or(1);
        let mut text = String::new();
        for row in words.chunks(self.columns) {
            let line: Vec<String> = row.iter().map(|w| format!("{w:>width$}")).collect();
            text.push_str(&line.join(" "));
            text.push('\n');
        }
        text
    }
}

/// One word of the grid: `.`, `X`, `\`, or `DOWN\ACROSS`.
fn parse_cell(word: &str) -> Result<Cell, Problem> {
    const EXPECTED: &str = "'.', 'X' or a clue such as '16\\', '\\24' or '17\\24'";
    match word {
        "." => return Ok(Cell::White),
        "X" | "x" => return Ok(Cell::Black { down: None, across: None }),
        _ => {}
    }
    let Some((down, across)) = word.split_once('\\') else {
        return Err(Problem::unexpected(EXPECTED, word));
    };
    let sum = |part: &str| -> Result<Option<i64>, Problem> {
        if part.is_empty() { Ok(None) } else { text::number(part, "sum", 1, 45).map(Some) }
    };
    Ok(Cell::Black { down: sum(down)?, across: sum(across)? })
}

impl Puzzle for Kakuro {
    type Args = FileArgs;
    type Options = NoOptions;
    const NAME: &'static str = "kakuro";
    const ABOUT: &'static str = "Solves a kakuro given in the text format (the built-in one by default).";
    const WHAT: &'static str = "a kakuro";

    /// The file's puzzle, or the built-in one; its name is the file's, or `built-in puzzle`.
    fn load(args: &FileArgs, io: &mut Io<'_>) -> anyhow::Result<(String, Kakuro)> {
        gallery::load_file(args.file.as_deref(), BUILT_IN, io, Kakuro::parse)
    }

    fn model(&self, _: &NoOptions) -> Result<Model, ModelError> {
        Ok(self.build()?.0)
    }

    fn show(&self, solution: &Solution<'_>, out: &mut dyn Write) -> anyhow::Result<()> {
        // The variables are the white cells, in reading order.
        let mut values = solution.values().iter();
        let digits: Vec<Option<i64>> =
            self.cells.iter().map(|cell| if *cell == Cell::White { values.next().copied() } else { None }).collect();
        self.verify(&digits).map_err(|e| anyhow::anyhow!("internal error: the answer is wrong: {e}"))?;
        write!(out, "{}", self.draw(&digits))?;
        Ok(())
    }
}

#[cfg(test)]
#[path = "support/tests.rs"]
mod support;

#[cfg(test)]
mod tests {
    use super::*;

    use crate::support::{
        Case, assert_built_in_is_unique, assert_count_everywhere, assert_file_reads_like_the_built_in_one,
        assert_malformed, check_compare, fixture, run,
    };

    const TOOL: csp_cli::app::Tool = gallery::run::<Kakuro>;

    #[test]
    fn the_built_in_puzzle_has_a_unique_checked_solution() {
        assert_built_in_is_unique(TOOL);
        assert_count_everywhere(TOOL, &[], 1);
        let puzzle = Kakuro::parse(BUILT_IN, "built-in").unwrap();
        let (model, vars) = puzzle.build().unwrap();
        let solution = model.solve().unwrap().unwrap();
        let mut digits: Vec<Option<i64>> = vars.iter().map(|v| v.map(|v| solution[v])).collect();
        puzzle.verify(&digits).unwrap();
        let first = digits.iter().position(Option::is_some).unwrap();
        digits[first] = digits[first].map(|d| d % 9 + 1);
        assert!(puzzle.verify(&digits).is_err());
    }

    #[test]
    fn a_puzzle_file_is_read_like_the_built_in_one() {
        assert_file_reads_like_the_built_in_one(TOOL, "kakuro.txt");
    }

    #[test]
    fn malformed_puzzles_exit_two_with_file_line_and_column() {
        assert_malformed(
            TOOL,
            &[
                ("bad/kakuro_no_clue.txt", "line 2, column 3: this run of white cells has no across sum"),
                ("bad/kakuro_bad_clue.txt", "line 3, column 6: expected sum (a whole number), found 'x'"),
            ],
        );
        let help = run(TOOL, &["--help"]);
        assert_eq!(help.code, 0);
        assert!(
            help.stdout.contains("--propagation") && help.stdout.contains("--stats") && help.stdout.contains("--count")
        );
    }

    #[test]
    fn compare_configurations_agree_in_every_format() {
        check_compare(&Case {
            tool: TOOL,
            puzzle: vec![],
            configs: "fc+mrv,fc-cbj+mrv,mac+domwdeg+lcv",
            goal: "count",
            answer: 1,
        });
        // Bad puzzles are reported as when solving.
        let bad = run(TOOL, &[&fixture("bad/kakuro_bad_clue.txt"), "--compare"]);
        assert_eq!(bad.code, 2);
        assert!(bad.stderr.contains("line 3, column 6: expected sum"), "{}", bad.stderr);
    }

    const SMALL: &str = "X    4\\   6\\\n\\3  .    .\n\\7  .    .\n";

    #[test]
    fn a_grid_parses_into_runs() {
        let puzzle = Kakuro::parse(SMALL, "k").unwrap();
        assert_eq!((puzzle.rows, puzzle.columns), (3, 3));
        assert_eq!(puzzle.runs[0], Run { sum: 3, cells: vec![4, 5] });
        assert_eq!(puzzle.runs[2], Run { sum: 4, cells: vec![4, 7] });
        assert_eq!(puzzle.runs.len(), 4);
    }

    #[test]
    fn mistakes_are_located() {
        let at = |input: &str| {
            let e = Kakuro::parse(input, "k").unwrap_err();
            (e.line, e.column)
        };
        assert_eq!(at("X 4\\ 6\\\n\\3 . ?\n\\7 . .\n"), (2, 6));
        assert_eq!(at("X 4\\ 6\\\n\\3 . .\n\\7 .\n"), (3, 5));
        assert_eq!(at("X 4\\ 6\\\n\\3 . .\n\\7 X .\n"), (3, 1));
        assert_eq!(at("X 4\\ 6\\\nX . .\n\\7 . .\n"), (2, 3));
        assert_eq!(at("X 4\\ 6\\\n\\3 . .\n\\7 . 50\\\n"), (3, 6));
        assert_eq!(at("X 4\\ 6\\\n\\3 . .\n\\7 . 5\\x\n"), (3, 6));
        assert_eq!(at("# nothing\n"), (2, 1));
    }
}
